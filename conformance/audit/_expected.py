"""The assembly record a vector expects, checked without any implementation's help.

For an implementation declaring the capability ``audit`` (specs/protocol.md section 4), each
vector's record is compared with what the vector itself determines (specs/audit.md):

- from the request: ``request`` (as sent), ``format``, ``controller_version``;
- from the expected package: ``query_hash``, ``package_hash``, ``manifest`` (the selected items
  without score and excerpt), ``selected`` scores in order, and the outcomes of the candidate
  entries (the non-selected ones, in order, are the expected dropped entries with their
  reasons; the selected ones are the manifest's items);
- from the fixture bytes, computed here: each store's identity (normalized path, byte length,
  SHA-256, INT-53) and the 1-based line numbers of its non-blank lines, which the candidate
  entries must carry in read order. The bytes are the vector's own (:func:`fixture_bytes`),
  never read back from a directory: a path of the request is looked up among the fixture's
  names (INT-12 is lexical), so nothing is followed or opened, an absolute or climbing path
  names no fixture file, and the sizes are the corpus caps';
- from the expected error: the failure record's ``error`` (the members the vector names; the
  others must be those of the error the call answered).

The ranking beyond the selected items, and the store list of a failure record, are not
determined by a vector: they are checked for shape only (the schema).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from conformance._schemas import schema_errors
from conformance.corpus import HasFiles
from conformance.readings import is_blank, normalize_path, split_lines

__all__ = ["fixture_bytes", "record_problems"]

_SCHEMA = "audit.schema.json"

#: A fixture's files by name: their bytes, ``None`` for a directory.
Fixture = Mapping[str, "bytes | None"]


def fixture_bytes(source: HasFiles) -> dict[str, bytes | None]:
    """The files a vector lays out, by name: their exact bytes (``None``: a directory)."""
    return {name: spec.content() for name, spec in source.files}


def _stores(request: Any, files: Fixture) -> list[dict[str, Any]] | None:
    """Each store's identity from the fixture's bytes (None: a path names no regular file)."""
    paths = sorted({normalize_path(p) for p in request.get("store_paths", [])})
    out = []
    for path in paths:
        data = files.get(path)
        if data is None:
            return None
        out.append({"path": path, "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()})
    return out


def _lines(files: Fixture, stores: list[dict[str, Any]]) -> list[tuple[int, int]]:
    """(store index, line number) of every non-blank line, in read order (INT-53, INT-14)."""
    out = []
    for index, store in enumerate(stores):
        lines = split_lines(files[store["path"]] or b"")
        out += [(index, number) for number, line in enumerate(lines, 1) if not is_blank(line)]
    return out


def record_problems(
    request: Any, expect: dict[str, Any], result: Any, record: Any, files: Fixture
) -> list[str]:
    """What is wrong with ``record`` for a vector (request, expected result, the result the
    call answered, the fixture's files from :func:`fixture_bytes`); empty when it is what the
    vector determines."""
    problems = [f"{pointer or '/'}: {text}" for pointer, text in schema_errors(_SCHEMA, record)]
    if problems:
        return [f"not a phase6-audit/1 record: {problem}" for problem in problems]
    if record["request"] != request:
        problems.append("request is not the request sent")
    if "error" in expect:
        if record["outcome"] != "error":
            return [*problems, "the call failed, the record is not a failure record"]
        # The vector fixes the members it names (code, path); the rest must be the result's.
        wanted = {key: record["error"].get(key) for key in expect["error"]}
        if wanted != expect["error"]:
            problems.append(f"error {record['error']!r} is not the expected {expect['error']!r}")
        if isinstance(result, dict) and record["error"] != result.get("error"):
            problems.append("error is not the error the call answered")
        return problems
    if record["outcome"] != "package":
        return [*problems, "the call gave a package, the record is a failure record"]
    package = expect["package"]
    if record["query_hash"] != package["query"]["query_hash"]:
        problems.append("query_hash differs from the expected package's")
    if record["package_hash"] != package["package_hash"]:
        problems.append("package_hash differs from the expected package's")
    selected = package["selection"]["selected"]
    manifest = [
        {k: item[k] for k in ("memory_id", "record_hash", "store_path", "excerpt_tokens")}
        for item in selected
    ]
    if record["manifest"] != manifest:
        problems.append("manifest is not the expected package's selected items in order")
    if [s["score"] for s in record["selected"]] != [item["score"] for item in selected]:
        problems.append("selected scores differ from the expected package's")
    candidates = record["candidates"]
    dropped = [(c["memory_id"], c["record_hash"], c["outcome"])
               for c in candidates if c["outcome"] != "selected"]  # fmt: skip
    expected = [(d["memory_id"], d["record_hash"], d["reason"])
                for d in package["selection"]["dropped"]]  # fmt: skip
    if dropped != expected:
        problems.append("excluded candidates are not the expected dropped entries in read order")
    chosen = sorted((c["memory_id"], c["record_hash"]) for c in candidates
                    if c["outcome"] == "selected")  # fmt: skip
    if chosen != sorted((m["memory_id"], m["record_hash"]) for m in manifest):
        problems.append("selected candidate entries are not the manifest's items")
    stores = _stores(request, files)
    if stores is not None:
        if record["stores"] != stores:
            problems.append("store identities differ from the fixture bytes (path, bytes, sha256)")
        elif [(c["store"], c["line"]) for c in candidates] != _lines(files, stores):
            problems.append("candidate line numbers are not the stores' non-blank lines")
    return problems
