"""Store lines and records: INT-14 line splitting and blank lines, INT-19 invalid lines,
INT-22 the record schema, INT-25 tags, INT-02 record_hash.
"""

from __future__ import annotations

from typing import Any

from conformance.readings._json_text import (
    PINNED_TEXT,
    InvalidText,
    TextReading,
    canonical,
    parse_json_text,
    sha256_hex,
)
from conformance.readings._timestamps import TsGrammar, parse_ts

__all__ = ["is_blank", "normalize_record", "read_line", "record_hash", "split_lines"]


def split_lines(data: bytes, cr: str = "removed") -> list[bytes]:
    """INT-14: split on LF only; a trailing LF makes no extra line; one CR before LF removed
    (``cr="kept"``: INT-14/cr-kept-part-line, the CR stays part of the line; ``cr="line-break"``:
    INT-14/cr-also-ends-line, any other CR ends a line as well)."""
    pieces = data.split(b"\n")
    if pieces[-1] == b"":
        pieces.pop()
    if cr == "kept":
        return pieces
    if cr == "line-break":  # INT-14/cr-also-ends-line: a CR alone ends a line too
        return [q for p in pieces for q in (p[:-1] if p.endswith(b"\r") else p).split(b"\r")]
    return [p[:-1] if p.endswith(b"\r") else p for p in pieces]


def is_blank(line: bytes) -> bool:
    """INT-14: empty or only 0x20 / 0x09 / 0x0D bytes: skipped silently."""
    return all(b in b" \t\r" for b in line)


def normalize_record(obj: dict[str, Any], ts_grammar: TsGrammar = "profile") -> dict[str, Any]:
    """INT-22 schema; READER 'Candidate normalization must produce' (minus store_path).

    ``ts_grammar`` is the INT-20 reading of a valid ts_utc (the pinned profile by default).
    """
    memory_id, text = obj.get("memory_id"), obj.get("text")
    if not isinstance(memory_id, str):  # INT-22: "string (required)"; "" is a string
        raise InvalidText("memory_id")
    if not isinstance(text, str):
        raise InvalidText("text")
    tags = obj.get("tags", [])
    if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
        raise InvalidText("tags")
    refs = obj.get("refs", [])
    if not isinstance(refs, list) or not all(isinstance(r, dict) for r in refs):
        raise InvalidText("refs")  # "if present MUST be list[dict]"
    record: dict[str, Any] = {
        "memory_id": memory_id,
        "text": text,  # INT-02: as read, not stripped
        # INT-25: lowercase each, then unique, then code-point sort
        "tags": sorted({t.lower() for t in tags}),
        "refs": refs,
    }
    if "ts_utc" in obj:
        if not isinstance(obj["ts_utc"], str):
            raise InvalidText("ts_utc")  # INT-20: a non-string ts_utc is a schema error
        parsed = parse_ts(obj["ts_utc"], ts_grammar)
        if parsed is not None:  # an invalid string is "no ts_utc", not an invalid record
            record["ts_utc"] = parsed[2]
            record["_instant"] = parsed[:2]
    return record


def record_hash(record: dict[str, Any]) -> str:
    """INT-02: SHA-256 of JCS({memory_id, refs, tags, text, ts_utc?})."""
    hashed = {k: record[k] for k in ("memory_id", "refs", "tags", "text", "ts_utc") if k in record}
    return sha256_hex(canonical(hashed))


def read_line(
    line: bytes, ts_grammar: TsGrammar = "profile", text: TextReading = PINNED_TEXT
) -> dict[str, Any]:
    """One non-blank line -> a candidate, or {'invalid': memory_id} (INT-15, INT-19); ``ts_grammar``
    as in :func:`normalize_record`, ``text`` as in :func:`parse_json_text`."""
    try:
        value = parse_json_text(line, text)
    except InvalidText:
        return {"invalid": ""}
    if not isinstance(value, dict):
        return {"invalid": ""}
    try:
        record = normalize_record(value, ts_grammar)
    except InvalidText:
        mid = value.get("memory_id")
        return {"invalid": mid if isinstance(mid, str) else ""}
    record["record_hash"] = record_hash(record)
    return record
