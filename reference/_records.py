"""One JSONL line -> a normalized record, or the reason it is invalid (RECORD CONTRACT).

S6-REC-11: "If a record fails schema validation, it MUST be ignored and counted as dropped
with reason: "invalid_record_schema"."  What makes a line invalid is pinned by INT-15..INT-18
and INT-22; the normalized record and its hash by INT-02, INT-21 and INT-25.

This is the reader's hot path (once per line of every store), so records are plain tuples:
Record = (memory_id, text, tags, ts, record_hash).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Final

import orjson

from reference._canonical import canonical_bytes, sha256_hex
from reference._text import strip_white_space
from reference._timestamps import (
    Timestamp,
    parse_iso8601_utc,
    parse_java_instant,
    parse_lenient_utc,
    parse_python_isoformat,
    parse_rfc3339_utc,
    parse_utc,
)

__all__ = [
    "MAX_DEPTH",
    "MEMBER_REWRITES",
    "RECORD_CHECKS",
    "RECORD_TIMESTAMPS",
    "TAG_ORDERS",
    "TS_FORMS",
    "Invalid",
    "LineParser",
    "NotJSON",
    "Record",
    "load_line",
    "normalize_tags",
    "parse_record",
    "parse_ts",
    "raw_hash",
    "record_hash_of",
    "record_parser",
    "text_too_deep",
]

#: INT-18: a line nested deeper than this is invalid; the top-level object is depth 1.
MAX_DEPTH: Final = 64
_SAFE_INT: Final = 2**53
_SORT: Final = orjson.OPT_SORT_KEYS
_NO_TAGS: Final[list[str]] = []  # shared, never mutated
_NO_REFS: Final[list[Any]] = []

#: One line's JSON text -> its value, or NotJSON.  INT-15: strict UTF-8, RFC 8259 grammar, no
#: BOM, no NaN/Infinity, no lone surrogates; INT-16: duplicate names -> the last one wins;
#: INT-17: a number that overflows to infinity is an error.  JSON whitespace around the value
#: (the line's CR too) is allowed.  Both passes parse lines with this one function.
load_line: Final = orjson.loads
NotJSON: Final = orjson.JSONDecodeError
#: A record's ts_utc string -> its normalized timestamp and instant, or None when it is not a
#: valid UTC timestamp (INT-20, INT-21).  Both passes read record timestamps with this.
parse_ts: Final = parse_utc
#: INT-20: which record ts_utc strings are valid timestamps (the pinned reading first; the
#: alternatives are in ``_readings.py``).
RECORD_TIMESTAMPS: Final = {
    "profile": parse_ts,
    "case-and-minus-zero": parse_lenient_utc,
    "accept-rfc-3339-date": parse_rfc3339_utc,
    "accept-iso-8601-forms": parse_iso8601_utc,
    "python-fromisoformat": parse_python_isoformat,
    "java-instant-parse": parse_java_instant,
}

#: (memory_id, text, normalized tags, timestamp or None, record_hash)
Record = tuple[str, str, list[str], Timestamp | None, str]


class Invalid(tuple[str, str]):
    """An invalid line: (memory_id for the dropped entry, record_hash), INT-19."""

    __slots__ = ()


_STRING: Final = re.compile(rb'"(?:[^"\\]|\\.)*"')
_BRACKET: Final = re.compile(rb"[\[\]{}]")


def text_too_deep(raw: bytes) -> bool:
    """INT-18: True when the JSON text nests arrays/objects deeper than MAX_DEPTH.

    The limit is a property of the line's text, so a deep value that a later duplicate member
    overwrites (INT-16) still counts.  A line with at most MAX_DEPTH brackets cannot be too
    deep, which settles almost every line with two byte counts.
    """
    if raw.count(b"[") + raw.count(b"{") <= MAX_DEPTH:
        return False
    depth = 0
    for bracket in _BRACKET.findall(_STRING.sub(b"", raw)):
        if bracket in b"[{":
            depth += 1
            if depth > MAX_DEPTH:
                return True
        else:
            depth -= 1
    return False


def _jcs_plain(value: Any) -> bool:
    """True when orjson's sorted output of `value` is byte-equal to RFC 8785 (see _canonical)."""
    kind = type(value)
    if kind is str or kind is bool or value is None:
        return True
    if kind is int:
        return bool(-_SAFE_INT <= value <= _SAFE_INT)
    if kind is list:
        return all(_jcs_plain(item) for item in value)
    if kind is dict:
        return all(key.isascii() and _jcs_plain(item) for key, item in value.items())
    return False


def _refs_plain(refs: list[Any]) -> bool | None:
    """None when refs break S6-REC-09 ("if present MUST be list[dict]"); True when every ref
    holds only scalar members that orjson writes exactly as RFC 8785 does (the fast path,
    nesting depth at most 3); False otherwise."""
    plain = True
    for ref in refs:
        if type(ref) is not dict:
            return None
        if plain:
            for key, value in ref.items():
                if type(value) is str:
                    if key.isascii():
                        continue
                elif (
                    type(value) is not list
                    and type(value) is not dict
                    and key.isascii()
                    and _jcs_plain(value)
                ):
                    continue
                plain = False
                break
    return plain


def normalize_tags(tags: list[Any]) -> list[str]:
    """S6-READ-11/12: "tags (sorted unique list[string], lowercased)" (INT-25): lowercase,
    then unique, then sorted by code point.  Raises TypeError for an element that is not a
    string.  The record hash and the tag bonus both use this one normalization."""
    return sorted(set(map(str.lower, tags)))


def record_hash_of(
    memory_id: str,
    text: str,
    tags: list[str],
    refs: list[Any],
    ts: Timestamp | None,
    plain: bool = False,
    store_path: str = "",
) -> str:
    """S6-HASH-01: SHA-256 hex of the canonical JSON of the normalized record (INT-02).

    Preimage {memory_id, refs, tags, text, ts_utc}; ts_utc omitted without a valid timestamp.
    `store_path` is where the record lives, not what it is: it is NOT part of the preimage, nor
    are unknown members.  `plain` (refs known to be JCS-plain) selects the orjson fast path;
    otherwise the full canonicalizer decides.
    """
    preimage: dict[str, Any] = {"memory_id": memory_id, "refs": refs, "tags": tags, "text": text}
    if ts is not None:
        preimage["ts_utc"] = ts[0]
    if plain or not refs:
        return sha256_hex(orjson.dumps(preimage, option=_SORT))
    return sha256_hex(canonical_bytes(preimage))


def raw_hash(raw: bytes) -> str:
    """INT-19: SHA-256 hex of the line's bytes without its terminator (LF, one CR)."""
    if raw[-1:] == b"\n":
        raw = raw[:-1]
    if raw[-1:] == b"\r":
        raw = raw[:-1]
    return sha256_hex(raw)


def _invalid_text(raw: bytes) -> Invalid:
    return Invalid(("", raw_hash(raw)))


_UNPARSED: Final[Any] = object()


def parse_record(
    raw: bytes,
    parsed: Any = _UNPARSED,
    *,
    store_path: str = "",
    parse_ts: Callable[[str], Timestamp | None] = parse_ts,
) -> Record | Invalid:
    """Validate and normalize one non-blank line (its LF / CRLF terminator may be present).

    Order: (1) a well-formed JSON object (INT-15..INT-18: any failure gives memory_id ""),
    (2) the record schema (INT-22: failures keep a string memory_id, INT-19), (3) normalize
    and hash (INT-02).  `parsed` is the line's value when the caller has parsed it already
    (with `load_line`); `store_path` is the store the line was read from.
    """
    if parsed is _UNPARSED:
        try:
            parsed = load_line(raw)
        except NotJSON:
            return _invalid_text(raw)
    if type(parsed) is not dict:
        return _invalid_text(raw)  # S6-REC-01: "one JSON object"
    # INT-18; two byte counts settle almost every line (see text_too_deep).
    if raw.count(b"[") + raw.count(b"{") > MAX_DEPTH and text_too_deep(raw):
        return _invalid_text(raw)
    # (2) S6-REC-03 / S6-REC-05: "memory_id: string (required)", text a required string
    # (INT-22: "" is a string, so an empty memory_id is valid); S6-REC-07 tags list[string];
    # S6-REC-09 refs list[dict]; S6-REC-04 ts_utc a string. null is a wrong type, never "absent".
    get = parsed.get
    memory_id = get("memory_id")
    text = get("text")
    tags = get("tags", _NO_TAGS)
    refs = get("refs", _NO_REFS)
    ts_raw = get("ts_utc", "")
    if (
        type(memory_id) is str
        and type(text) is str
        and type(ts_raw) is str
        and type(tags) is list
        and type(refs) is list
    ):
        try:
            norm_tags = normalize_tags(tags) if tags else _NO_TAGS
        except TypeError:  # an element that is not a string
            norm_tags = None
        plain = _refs_plain(refs) if refs else True
        if norm_tags is not None and plain is not None:
            # (3) INT-20: a ts_utc string that is not a valid UTC timestamp leaves the
            # record valid.  load_line has already rejected what JCS cannot write (lone
            # surrogates, infinite numbers; integers beyond 64 bits parse as doubles), so
            # hashing a valid record cannot fail.
            ts = parse_ts(ts_raw) if ts_raw else None
            digest = record_hash_of(memory_id, text, norm_tags, refs, ts, plain, store_path)
            return memory_id, text, norm_tags, ts, digest
    return Invalid((memory_id if type(memory_id) is str else "", raw_hash(raw)))


# ----------------------------------------------------------------------------------------
# Alternative readings of the record contract (INT-20..25): ``_readings.py`` names them, the
# controller builds one line parser with `record_parser`.  Under the pinned readings that
# parser is `parse_record` itself; otherwise it wraps it: the reading's member rewrites are
# applied to the parsed line in place (so the tag bonus, which reads the line's tags, sees
# them too), `parse_record` validates and normalizes, then the reading's extra checks and its
# normal form of tags and ts_utc follow, and record_hash is computed again when they change it.

#: A line parser: `parse_record`'s signature.
LineParser = Callable[..., "Record | Invalid"]
_FIELDS: Final = frozenset({"memory_id", "text", "tags", "refs", "ts_utc"})


def _null_absent(obj: dict[str, Any]) -> None:
    """INT-22/treat-null-absent: a record member whose value is null is read as absent."""
    for name in [name for name in _FIELDS if name in obj and obj[name] is None]:
        del obj[name]


def _string_tags(obj: dict[str, Any]) -> None:
    """INT-22/drop-non-string-tags: tags that are not strings are left out, not an error."""
    tags = obj.get("tags")
    if type(tags) is list:
        obj["tags"] = [tag for tag in tags if type(tag) is str]


def _created_at_as_ts(obj: dict[str, Any]) -> None:
    """INT-24/read-created-utc-ts: without ts_utc, SPEC-005's created_at_utc is read as it."""
    if "ts_utc" not in obj and "created_at_utc" in obj:
        obj["ts_utc"] = obj["created_at_utc"]


def _wrap_string_refs(obj: dict[str, Any]) -> None:
    """INT-24/wrap-string-refs-ref: a SPEC-005 string ref s is read as {"ref": s}."""
    refs = obj.get("refs")
    if type(refs) is list:
        obj["refs"] = [{"ref": ref} if type(ref) is str else ref for ref in refs]


def _trimmed_tags(obj: dict[str, Any]) -> None:
    """INT-25/trim-tags: each tag is stripped of White_Space (INT-05) before lowercasing."""
    tags = obj.get("tags")
    if type(tags) is list:
        obj["tags"] = [strip_white_space(tag) if type(tag) is str else tag for tag in tags]


#: INT-22, INT-24, INT-25: rewrites of the parsed line's members before the schema check.
MEMBER_REWRITES: Final[dict[str, Callable[[dict[str, Any]], None]]] = {
    "treat-null-absent": _null_absent,
    "drop-non-string-tags": _string_tags,
    "read-created-utc-ts": _created_at_as_ts,
    "wrap-string-refs-ref": _wrap_string_refs,
    "trim-tags": _trimmed_tags,
}

#: INT-22, INT-23: what else makes a schema-valid record invalid (parsed line, record) -> bool.
RECORD_CHECKS: Final[dict[str, Callable[[dict[str, Any], Record], bool]]] = {
    # INT-22/reject-empty-memory-id: "Reject an empty memory_id (the reading before the review)."
    "reject-empty-memory-id": lambda obj, record: record[0] == "",
    # INT-23/reject-records-unknown-fields: a member beyond the five of the record contract.
    "reject-records-unknown-fields": lambda obj, record: not _FIELDS.issuperset(obj),
    # INT-20/invalid-ts-utc-makes: a ts_utc string that is not a valid timestamp.
    "invalid-ts-utc-makes": lambda obj, record: "ts_utc" in obj and record[3] is None,
}


def _utf16_sorted(tags: list[str]) -> list[str]:
    """INT-25/sort-utf-16-code: normalized tags sorted by UTF-16 code units."""
    return sorted(tags, key=lambda tag: tag.encode("utf-16-be", "surrogatepass"))


def _six_digits(ts: Timestamp) -> Timestamp:
    """INT-21/always-6-3-fraction: the normalized string has exactly 6 fraction digits (zeros
    added, digits after the 6th cut); the instant is unchanged."""
    digits = ts[0][20:-1] if len(ts[0]) > 20 else ""
    return f"{ts[0][:19]}.{digits.ljust(6, '0')[:6]}Z", ts[1]


def _fraction_digits(ts: Timestamp) -> str:
    """The fraction digits of a normalized timestamp, nine of them (zeros added)."""
    return (ts[0][20:-1] if len(ts[0]) > 20 else "").ljust(9, "0")[:9]


def _isoformat(ts: Timestamp) -> Timestamp:
    """INT-21/python-isoformat: Python's datetime.isoformat() of the UTC datetime: 6 fraction
    digits (after the sixth cut) unless the microseconds are 0, then none; '+00:00'."""
    micro = _fraction_digits(ts)[:6]
    return f"{ts[0][:19]}{'.' + micro if micro != '000000' else ''}+00:00", ts[1]


def _to_iso_string(ts: Timestamp) -> Timestamp:
    """INT-21/javascript-toisostring: Date.prototype.toISOString(): always 3 fraction digits
    (milliseconds, further digits cut), 'Z'."""
    return f"{ts[0][:19]}.{_fraction_digits(ts)[:3]}Z", ts[1]


def _instant_to_string(ts: Timestamp) -> Timestamp:
    """INT-21/java-instant-tostring: java.time.Instant.toString(): 0, 3, 6 or 9 fraction
    digits, the fewest groups of three that show every non-zero digit, 'Z'."""
    digits = _fraction_digits(ts).rstrip("0")
    width = -(-len(digits) // 3) * 3
    return f"{ts[0][:19]}{'.' + digits.ljust(width, '0') if digits else ''}Z", ts[1]


#: INT-25: the order of normalized tags (code points, pinned by `normalize_tags`).
TAG_ORDERS: Final[dict[str, Callable[[list[str]], list[str]]]] = {"sort-utf-16-code": _utf16_sorted}
#: INT-21: the normalized ts_utc string (trailing zeros stripped, pinned by `parse_utc`).
TS_FORMS: Final[dict[str, Callable[[Timestamp], Timestamp]]] = {
    "always-6-3-fraction": _six_digits,
    "python-isoformat": _isoformat,
    "javascript-toisostring": _to_iso_string,
    "java-instant-tostring": _instant_to_string,
}


#: The pinned values of the record readings (``_readings.Readings``): no rewrite, no check.
PINNED_RECORD_READINGS: Final = frozenset(
    {"no-timestamp", "trimmed", "strict", "ignored", "code-points"}
)
#: INT-20/keep-raw-invalid-string: an invalid ts_utc string is hashed as written.
KEEP_RAW_TS: Final = "keep-raw-invalid-string"


def record_parser(readings: tuple[str, ...]) -> LineParser:
    """The line parser of the record readings `readings` (values of ``_readings.Readings``):
    `parse_record` itself when every one is pinned; otherwise `parse_record` with the named
    `MEMBER_REWRITES` before it, the named `RECORD_CHECKS`, tag order (`TAG_ORDERS`) and ts_utc
    form (`TS_FORMS`) after it, and with KEEP_RAW_TS a ts_utc string that is not a valid
    timestamp hashed as written (the candidate still has no timestamp, INT-20)."""
    chosen = [name for name in readings if name not in PINNED_RECORD_READINGS]
    if not chosen:
        return parse_record
    tables = (MEMBER_REWRITES, RECORD_CHECKS, TAG_ORDERS, TS_FORMS, {KEEP_RAW_TS: None})
    unknown = [name for name in chosen if not any(name in table for table in tables)]
    if unknown:
        raise ValueError(f"no record reading {unknown[0]!r}")
    raw_ts_hashed = KEEP_RAW_TS in chosen
    edits = [MEMBER_REWRITES[name] for name in chosen if name in MEMBER_REWRITES]
    tests = [RECORD_CHECKS[name] for name in chosen if name in RECORD_CHECKS]
    order = next((TAG_ORDERS[name] for name in chosen if name in TAG_ORDERS), None)
    form = next((TS_FORMS[name] for name in chosen if name in TS_FORMS), None)

    def parse(
        raw: bytes,
        parsed: Any = _UNPARSED,
        *,
        store_path: str = "",
        parse_ts: Callable[[str], Timestamp | None] = parse_ts,
    ) -> Record | Invalid:
        if parsed is _UNPARSED:
            try:
                parsed = load_line(raw)
            except NotJSON:
                return _invalid_text(raw)
        if type(parsed) is dict:
            for edit in edits:
                edit(parsed)
        record = parse_record(raw, parsed, store_path=store_path, parse_ts=parse_ts)
        if isinstance(record, Invalid):
            return record
        if any(test(parsed, record) for test in tests):
            return Invalid((record[0], raw_hash(raw)))
        memory_id, text, tags, ts, digest = record
        hashed = ts
        if order is not None:
            tags = order(tags)
        if form is not None and ts is not None:
            ts = hashed = form(ts)
        if raw_ts_hashed and ts is None and "ts_utc" in parsed:
            hashed = (parsed["ts_utc"], 0)
        if (tags, hashed) != (record[2], record[3]):
            refs = parsed.get("refs", _NO_REFS)
            digest = record_hash_of(memory_id, text, tags, refs, hashed, store_path=store_path)
        return memory_id, text, tags, ts, digest

    return parse
