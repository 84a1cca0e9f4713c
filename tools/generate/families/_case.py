"""Building blocks shared by the generated families: the :class:`Case` a family yields and the
small constructors for requests, store lines, raw-byte lines and trust snapshots.

A family never decides an expected result. It writes the input (request and files) and, where
the spec makes it easy to state, an *intent* (:class:`Case` ``selected``/``error``/``excerpts``/
``check``/``relations``) that the builder asserts against the confirmed result. An intent that
does not hold means the family does not test what its description says: the build fails.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import rfc8785

__all__ = [
    "DEFAULT_STORE",
    "WHITE_SPACE",
    "Case",
    "Json",
    "Relation",
    "bad_line",
    "dropped_reasons",
    "excerpts",
    "line",
    "make_request",
    "raw_line",
    "record_hash",
    "scores",
    "selected_ids",
    "snapshot",
    "snapshot_text",
    "store",
]

Json = Any
#: ``(other case id, "same" | "different")``: how this case's package_hash relates to another's.
Relation = tuple[str, Literal["same", "different"]]
Check = Callable[[Json], "str | None"]

DEFAULT_STORE = "stores/s.jsonl"

# INT-05: "Whitespace is exactly the 25 code points with the Unicode White_Space property".
WHITE_SPACE: tuple[int, ...] = (
    *range(0x09, 0x0E),
    0x20,
    0x85,
    0xA0,
    0x1680,
    *range(0x2000, 0x200B),
    0x2028,
    0x2029,
    0x202F,
    0x205F,
    0x3000,
)
assert len(WHITE_SPACE) == 25


@dataclass(frozen=True)
class Case:
    """One vector before its expectation is known.

    ``files`` maps a relative path to a file entry of ``specs/vectors-format.md``. The intent
    fields are optional assertions on the confirmed result (see the module docstring).
    """

    id: str
    description: str
    comment: str
    clauses: tuple[str, ...]
    interpretations: tuple[str, ...]
    request: Json
    files: Mapping[str, Json]
    #: memory_ids of the selected items, in order.
    selected: tuple[str, ...] | None = None
    #: excerpts of the selected items, in order.
    excerpts: tuple[str, ...] | None = None
    #: (code, path) of the expected error.
    error: tuple[str, str] | None = None
    #: any further assertion: returns a problem description or None.
    check: Check | None = None
    relations: tuple[Relation, ...] = ()
    #: the output file is ``gen-<family>[-<part>].json``.
    part: str = ""
    extra: Mapping[str, Json] = field(default_factory=dict)


# ------------------------------------------------------------------------------ requests


def make_request(
    query: Json = "q",
    store_paths: Sequence[Json] | None = None,
    *,
    tokens: Json = 100,
    budget: Mapping[str, Json] | None = None,
    scoring: Mapping[str, Json] | None = None,
    trust_filter: Mapping[str, Json] | None = None,
    now_utc: Json = None,
    **extra: Json,
) -> dict[str, Json]:
    """A MemoryControllerInput; ``budget`` members are added to ``max_excerpt_tokens=tokens``."""
    request: dict[str, Json] = {
        "query": query,
        "store_paths": list(store_paths) if store_paths is not None else [DEFAULT_STORE],
        "budget": {"max_excerpt_tokens": tokens, **(budget or {})},
    }
    if scoring is not None:
        request["scoring"] = dict(scoring)
    if trust_filter is not None:
        request["trust_filter"] = dict(trust_filter)
    if now_utc is not None:
        request["now_utc"] = now_utc
    request.update(extra)
    return request


# ------------------------------------------------------------------------------ store lines


def line(memory_id: Json, text: Json = "", **fields: Json) -> str:
    """One JSONL record line: memory_id, text, then ``fields`` in the order given; raw UTF-8."""
    record: dict[str, Json] = {"memory_id": memory_id, "text": text, **fields}
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


def raw_line(data: bytes) -> Json:
    """A line given as raw bytes (for bytes that are not valid UTF-8)."""
    return {"base64": base64.b64encode(data).decode("ascii")}


def bad_line(text: str) -> str:
    """A line written out verbatim (malformed JSON, duplicate members, escapes)."""
    return text


def store(*lines: Json, eol: str = "\n", final_eol: bool = True) -> dict[str, Json]:
    """A store file given line by line."""
    spec: dict[str, Json] = {"lines": list(lines)}
    if eol != "\n":
        spec["eol"] = eol
    if not final_eol:
        spec["final_eol"] = False
    return spec


def snapshot_text(document: Json) -> dict[str, Json]:
    """A trust snapshot (or any JSON file) written as JSON text plus a final LF."""
    return {"text": json.dumps(document, ensure_ascii=False) + "\n"}


def snapshot(*entries: Mapping[str, Json], **top: Json) -> dict[str, Json]:
    """A ``phase6-trust/1`` snapshot (INT-38) with these entries and extra top-level members."""
    return snapshot_text({"format": "phase6-trust/1", "entries": [dict(e) for e in entries], **top})


def record_hash(
    memory_id: str,
    text: str,
    *,
    tags: Sequence[str] = (),
    refs: Sequence[Json] = (),
    ts: str | None = None,
) -> str:
    """INT-02 record_hash of a record whose fields are ALREADY normalized (tags lowercased,
    unique and sorted; ts normalized). Used only to write trust snapshots keyed by hash; the
    intent checks then confirm that the hash really matched."""
    record: dict[str, Json] = {
        "memory_id": memory_id,
        "refs": list(refs),
        "tags": list(tags),
        "text": text,
    }
    if ts is not None:
        record["ts_utc"] = ts
    return hashlib.sha256(rfc8785.dumps(record)).hexdigest()


# ------------------------------------------------------------------------------ result views


def selected_ids(result: Json) -> list[str]:
    """memory_ids of the selected items, in order."""
    return [item["memory_id"] for item in result["package"]["selection"]["selected"]]


def excerpts(result: Json) -> list[str]:
    """Excerpts of the selected items, in order."""
    return [item["excerpt"] for item in result["package"]["selection"]["selected"]]


def scores(result: Json) -> list[float]:
    """Scores of the selected items, in order."""
    return [float(item["score"]) for item in result["package"]["selection"]["selected"]]


def dropped_reasons(result: Json) -> list[tuple[str, str]]:
    """(memory_id, reason) of the dropped entries, in order."""
    return [(d["memory_id"], d["reason"]) for d in result["package"]["selection"]["dropped"]]
