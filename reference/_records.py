"""One JSONL line -> a normalized record, or the reason it is invalid (RECORD CONTRACT).

S6-REC-11: "If a record fails schema validation, it MUST be ignored and counted as dropped
with reason: "invalid_record_schema"."  What makes a line invalid is pinned by INT-15..INT-18
and INT-22; the normalized record and its hash by INT-02, INT-21 and INT-25.

This is the reader's hot path (once per line of every store), so records are plain tuples:
Record = (memory_id, text, tags, ts, record_hash).  The pinned hashing readings are computed
here directly; the executable alternatives of INT-01, INT-02, INT-17 and INT-47 are a
:class:`RecordHashing` value, consulted only when one of them is followed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

import orjson

from reference._canonical import FORMS, as_doubles, canonical_bytes, sha256_hex
from reference._text import strip_white_space
from reference._timestamps import Timestamp, parse_lenient_utc, parse_utc

__all__ = [
    "MAX_DEPTH",
    "RECORD_TIMESTAMPS",
    "Invalid",
    "NotJSON",
    "Record",
    "RecordHashing",
    "load_line",
    "normalize_tags",
    "parse_record",
    "parse_ts",
    "raw_hash",
    "record_hash_of",
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
RECORD_TIMESTAMPS: Final = {"profile": parse_ts, "case-and-minus-zero": parse_lenient_utc}

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


class _UnsafeInteger(ValueError):
    """An integer literal outside +-(2**53 - 1) (INT-17/reject-integers-outside-2)."""


def _safe_integer(digits: str) -> int:
    number = int(digits)
    if not -_SAFE_INT < number < _SAFE_INT:
        raise _UnsafeInteger(digits)
    return number


@dataclass(frozen=True, slots=True)
class RecordHashing:
    """How a record is hashed (and, for INT-17, read) under alternatives of INT-01, INT-02,
    INT-17 or INT-47; ``parse_record`` takes ``None`` for the pinned readings (its fast path).
    Built from the readings by ``_readings.record_hashing``."""

    #: INT-01: the canonical form (a value of ``_canonical.FORMS``).
    form: Callable[[Any], bytes] = FORMS["jcs"]
    #: INT-17: numbers are read as "doubles" (pinned), as Python's json module reads them
    #: ("exact": integers of any size kept exactly), or a line holding an integer literal
    #: outside +-(2**53 - 1) is not a valid JSON text ("safe", like 1e400: memory_id "").
    numbers: str = "doubles"
    #: INT-02: what is hashed: the "normalized" record (pinned), it with the text stripped
    #: ("stripped-text", by ``strip``), with store_path ("store-path"), with ts_utc null when
    #: absent ("ts-null"), or the line's own bytes ("raw-line", as INT-19 hashes them).
    preimage: str = "normalized"
    strip: Callable[[str], str] = strip_white_space
    #: INT-47/treat-spec-005-hash: a string SPEC-005 ``hash`` member is the record_hash.
    spec005_hash: bool = False

    def invalid(self, raw: bytes) -> bool:
        """INT-17/reject-integers-outside-2: the line holds an unsafe integer literal."""
        if self.numbers != "safe":
            return False
        try:
            json.loads(raw, parse_int=_safe_integer)
        except _UnsafeInteger:
            return True
        return False

    def digest(
        self,
        raw: bytes,
        parsed: dict[str, Any],
        record: tuple[str, str, list[str], list[Any], Timestamp | None],
        store_path: str,
    ) -> str:
        """record_hash of a valid record: (memory_id, text, tags, refs, ts) as normalized."""
        stored = parsed.get("hash")
        if self.spec005_hash and type(stored) is str:
            return stored
        if self.preimage == "raw-line":
            return raw_hash(raw)
        memory_id, text, tags, refs, ts = record
        if refs:  # INT-17: numbers as read by the reading's parser
            refs = json.loads(raw)["refs"] if self.numbers == "exact" else as_doubles(refs)
        preimage: dict[str, Any] = {"memory_id": memory_id, "refs": refs, "tags": tags}
        preimage["text"] = self.strip(text) if self.preimage == "stripped-text" else text
        if ts is not None:
            preimage["ts_utc"] = ts[0]
        elif self.preimage == "ts-null":
            preimage["ts_utc"] = None
        if self.preimage == "store-path":
            preimage["store_path"] = store_path
        return sha256_hex(self.form(preimage))


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
    hashing: RecordHashing | None = None,
) -> Record | Invalid:
    """Validate and normalize one non-blank line (its LF / CRLF terminator may be present).

    Order: (1) a well-formed JSON object (INT-15..INT-18: any failure gives memory_id ""),
    (2) the record schema (INT-22: failures keep a string memory_id, INT-19), (3) normalize
    and hash (INT-02).  `parsed` is the line's value when the caller has parsed it already
    (with `load_line`); `store_path` is the store the line was read from; `hashing` the
    hashing readings when they are not the pinned ones.
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
    if hashing is not None and hashing.invalid(raw):
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
            if hashing is None:
                digest = record_hash_of(memory_id, text, norm_tags, refs, ts, plain, store_path)
            else:
                normalized = (memory_id, text, norm_tags, refs, ts)
                digest = hashing.digest(raw, parsed, normalized, store_path)
            return memory_id, text, norm_tags, ts, digest
    return Invalid((memory_id if type(memory_id) is str else "", raw_hash(raw)))
