"""Constructors for hand-written vectors: plain data plus three kinds of hash markers.

Nothing in this module decides an expected result. The author of each vector writes, by hand:
which records are selected and in what order, their scores, excerpts and excerpt_tokens, the
budget fields, the dropped entries with their reasons, error codes and paths, and the
*normalized record* whose canonical JSON record_hash covers (memory_id, refs, tags already
lowercased / unique / code-point sorted, raw text, ts_utc already normalized or omitted).

The builder (``tools.generate.handbuild``) only replaces the markers below with digests:

- ``RH(record)``: SHA-256 hex of RFC 8785 bytes of the normalized record written here (INT-02);
- ``LH(file, index)``: SHA-256 hex of the raw bytes of line ``index`` of ``file`` (INT-19);
- ``LHRAW(line)``: SHA-256 hex of a raw line written out by hand (for ``text`` files);
- ``QH(text)``: SHA-256 hex of the UTF-8 bytes of the normalized query written here (INT-11);
- ``snapshot(obj)``: a trust snapshot written as JSON text (markers inside resolved first);

and adds ``package_hash`` and the receipt (INT-03, INT-43).
"""

from __future__ import annotations

import base64
import json
from typing import Any

__all__ = [
    "LH",
    "LHRAW",
    "QH",
    "RH",
    "L",
    "also",
    "bline",
    "bud",
    "directory",
    "drop",
    "drop_line",
    "err",
    "lines",
    "ok",
    "package",
    "rec",
    "sel",
    "snapshot",
    "text_file",
    "vec",
]

Json = Any


def L(**fields: Json) -> str:
    """One store line: the members in the order given, compact, raw UTF-8 (input data only)."""
    return json.dumps(fields, ensure_ascii=False, separators=(",", ":"))


def rec(
    memory_id: str,
    text: str,
    *,
    tags: tuple[str, ...] | list[str] = (),
    refs: tuple[Json, ...] | list[Json] = (),
    ts: str | None = None,
) -> dict[str, Json]:
    """The normalized record exactly as the vector's author wrote it (INT-02).

    ``tags`` must already be normalized by hand (lowercased, unique, code-point sorted) and ``ts``
    already normalized (INT-21) or ``None`` when the record has no valid ts_utc. The assertions
    only catch slips in that hand work; they do not normalize anything.
    """
    tag_list = list(tags)
    assert tag_list == sorted(set(tag_list)), f"tags not hand-normalized: {tag_list!r}"
    assert all(t == t.lower() for t in tag_list), f"tags not lowercased: {tag_list!r}"
    record: dict[str, Json] = {
        "memory_id": memory_id,
        "refs": list(refs),
        "tags": tag_list,
        "text": text,
    }
    if ts is not None:
        assert ts.endswith("Z"), ts
        record["ts_utc"] = ts
    return record


def RH(record: dict[str, Json]) -> dict[str, Json]:
    """Marker: record_hash of this hand-written normalized record."""
    return {"$record_hash": record}


def LH(file: str, index: int) -> dict[str, Json]:
    """Marker: SHA-256 of the raw bytes of line ``index`` (0-based) of ``file`` in this vector."""
    return {"$line_hash": [file, index]}


def LHRAW(raw_line: str) -> dict[str, Json]:
    """Marker: SHA-256 of these exact line bytes (UTF-8), written by hand without terminator."""
    return {"$raw_line_hash": raw_line}


def QH(normalized_query: str) -> dict[str, Json]:
    """Marker: query_hash of this hand-normalized query string."""
    return {"$query_hash": normalized_query}


def lines(*items: str | dict[str, str], eol: str = "\n", final_eol: bool = True) -> dict[str, Json]:
    """A store file given line by line (strings or ``bline`` raw-byte lines)."""
    spec: dict[str, Json] = {"lines": list(items)}
    if eol != "\n":
        spec["eol"] = eol
    if not final_eol:
        spec["final_eol"] = False
    return spec


def bline(raw: bytes) -> dict[str, str]:
    """A line given as raw bytes (for bytes that are not valid UTF-8)."""
    return {"base64": base64.b64encode(raw).decode("ascii")}


def text_file(content: str) -> dict[str, str]:
    """A file with this exact UTF-8 content."""
    return {"text": content}


def directory() -> dict[str, bool]:
    """A directory in place of a file."""
    return {"directory": True}


def snapshot(document: Json) -> dict[str, Json]:
    """A trust snapshot file; the builder writes it as JSON text after resolving markers."""
    return {"$json": document}


def bud(
    max_excerpt_tokens: int, used: int, remaining: int, per_item: int, max_items: int
) -> dict[str, int]:
    """The package's budget block, every field written by hand."""
    return {
        "max_excerpt_tokens": max_excerpt_tokens,
        "used_excerpt_tokens": used,
        "remaining_excerpt_tokens": remaining,
        "per_item_max_excerpt_tokens": per_item,
        "max_items": max_items,
    }


def sel(
    record: dict[str, Json], store: str, score: float, excerpt: str, tokens: int
) -> dict[str, Json]:
    """A selected entry for a hand-normalized record."""
    return {
        "memory_id": record["memory_id"],
        "record_hash": RH(record),
        "store_path": store,
        "score": score,
        "excerpt": excerpt,
        "excerpt_tokens": tokens,
    }


def drop(record: dict[str, Json], store: str, reason: str) -> dict[str, Json]:
    """A dropped entry for a valid record (trust_denied, budget_exhausted, max_items_reached)."""
    return {
        "memory_id": record["memory_id"],
        "record_hash": RH(record),
        "store_path": store,
        "reason": reason,
    }


def drop_line(
    memory_id: str, store: str, index: int, *, file: str | None = None
) -> dict[str, Json]:
    """A dropped entry for an invalid line (INT-19): hand-chosen memory_id, raw-line hash."""
    return {
        "memory_id": memory_id,
        "record_hash": LH(file if file is not None else store, index),
        "store_path": store,
        "reason": "invalid_record_schema",
    }


def package(
    raw: str,
    normalized_query: str,
    budget: dict[str, int],
    selected: list[dict[str, Json]],
    dropped: list[dict[str, Json]],
) -> dict[str, Json]:
    """A ContextPackage without package_hash (the builder adds it)."""
    return {
        "query": {"raw": raw, "query_hash": QH(normalized_query)},
        "budget": budget,
        "selection": {"selected": selected, "dropped": dropped},
        "controller_version": "phase6-v1",
    }


def ok(pkg: dict[str, Json], store_paths: list[str]) -> dict[str, Json]:
    """A success expectation; ``store_paths`` is the receipt's list, normalized by hand."""
    return {"$package": pkg, "$receipt_store_paths": store_paths}


def err(code: str, path: str) -> dict[str, Json]:
    """An error expectation (code and JSON Pointer path)."""
    return {"error": {"code": code, "path": path}}


def also(vectors: list[dict[str, Json]], labels: dict[str, list[str]]) -> list[dict[str, Json]]:
    """``vectors`` with more interpretations for the IDs in ``labels`` (entries an executable
    alternative reading shows the vector depends on, ``python -m tools readings``)."""
    out = []
    for vector in vectors:
        extra = [i for i in labels.get(vector["id"], []) if i not in vector["interpretations"]]
        ints = vector["interpretations"] + extra
        out.append({**vector, "interpretations": ints, "level": "pinned" if ints else "required"})
    return out


def vec(
    vid: str,
    description: str,
    *,
    comment: str,
    clauses: list[str],
    interpretations: list[str] | None = None,
    request: Json,
    files: dict[str, Json] | None = None,
    expect: dict[str, Json],
) -> dict[str, Json]:
    """One vector; level is ``pinned`` exactly when interpretations are listed."""
    ints = list(interpretations or [])
    return {
        "id": vid,
        "description": description,
        "comment": comment,
        "clauses": list(clauses),
        "interpretations": ints,
        "level": "pinned" if ints else "required",
        "input": {"request": request, "files": dict(files or {})},
        "expect": expect,
    }
