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
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any, Final

import orjson

from reference._canonical import FORMS, as_doubles, canonical_bytes, sha256_hex
from reference._reader import LINE_LIMITS, LineLimit, is_blank
from reference._text import simple_lower, strip_white_space
from reference._timestamps import (
    Timestamp,
    parse_go_rfc3339,
    parse_iso8601_utc,
    parse_java_instant,
    parse_lenient_utc,
    parse_python_isoformat,
    parse_rfc3339_utc,
    parse_utc,
)

__all__ = [
    "DEPTH_LIMITS",
    "JSON_TEXTS",
    "LINE_ENDS",
    "MAX_DEPTH",
    "MEMBER_NAMES",
    "MEMBER_REWRITES",
    "PINNED_LINES",
    "RECORD_CHECKS",
    "RECORD_TIMESTAMPS",
    "TAG_ORDERS",
    "TS_FORMS",
    "Invalid",
    "LineParser",
    "LineRules",
    "NotJSON",
    "Record",
    "RecordHashing",
    "line_rules",
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
    "go-time-parse-rfc3339": parse_go_rfc3339,
}

#: (memory_id, text, normalized tags, timestamp or None, record_hash)
Record = tuple[str, str, list[str], Timestamp | None, str]


class Invalid(tuple[str, str]):
    """An invalid line: (memory_id for the dropped entry, record_hash), INT-19."""

    __slots__ = ()


_STRING: Final = re.compile(rb'"(?:[^"\\]|\\.)*"')
_BRACKET: Final = re.compile(rb"[\[\]{}]")


def text_too_deep(raw: bytes, limit: int = MAX_DEPTH) -> bool:
    """INT-18: True when the JSON text nests arrays/objects deeper than MAX_DEPTH.

    The limit is a property of the line's text, so a deep value that a later duplicate member
    overwrites (INT-16) still counts.  A line with at most MAX_DEPTH brackets cannot be too
    deep, which settles almost every line with two byte counts.
    """
    if raw.count(b"[") + raw.count(b"{") <= limit:
        return False
    depth = 0
    for bracket in _BRACKET.findall(_STRING.sub(b"", raw)):
        if bracket in b"[{":
            depth += 1
            if depth > limit:
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


def _go_integer(digits: str) -> int | float:
    """An integer literal as Go's strconv.ParseFloat reads it, where it differs from the
    double of its value: -0 is the double -0."""
    return -0.0 if digits == "-0" else int(digits)


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
    #: INT-01/go-encoding-json*: "float64", as Go's json.Unmarshal into an ``any`` reads them:
    #: doubles, and the integer literal -0 is the double -0 (``json`` and orjson read 0).
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
            if self.numbers == "exact":
                refs = json.loads(raw)["refs"]
            elif self.numbers == "float64":
                refs = as_doubles(json.loads(raw, parse_int=_go_integer)["refs"])
            else:
                refs = as_doubles(refs)
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


_UNPARSED: Final[Any] = object()


def parse_record(
    raw: bytes,
    parsed: Any = _UNPARSED,
    *,
    store_path: str = "",
    parse_ts: Callable[[str], Timestamp | None] = parse_ts,
    hashing: RecordHashing | None = None,
    load: Callable[[bytes], Any] = load_line,
    line_hash: Callable[[bytes], str] = raw_hash,
    max_depth: int = MAX_DEPTH,
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
            parsed = load(raw)
        except NotJSON:
            return Invalid(("", line_hash(raw)))
    if type(parsed) is not dict:
        return Invalid(("", line_hash(raw)))  # S6-REC-01: "one JSON object"
    # INT-18; two byte counts settle almost every line (see text_too_deep).
    if raw.count(b"[") + raw.count(b"{") > max_depth and text_too_deep(raw, max_depth):
        return Invalid(("", line_hash(raw)))
    if hashing is not None and hashing.invalid(raw):
        return Invalid(("", line_hash(raw)))
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
    return Invalid((memory_id if type(memory_id) is str else "", line_hash(raw)))


# ------------------------------------------------------------------ alternative readings
# The loaders below follow one alternative of INT-15 / INT-16 each; every other rule of
# INT-15..INT-18 stays as pinned.  Each tries the pinned loader first where it can, so a line
# the alternative does not concern reads exactly as pinned.  Slow (Python's json module): only
# a certification run under the alternative uses them.

_BOM: Final = b"\xef\xbb\xbf"
_LONE: Final = re.compile("[\ud800-\udfff]")  # after json.loads, a pair is one code point


def _not_json(why: str) -> orjson.JSONDecodeError:
    return NotJSON(why, "", 0)


def _number_int(digits: str) -> int | float:
    """An integer as `load_line` reads it: exact within 64 bits, else the nearest double."""
    value = int(digits)
    return value if -(2**63) <= value < 2**64 else float(value)


def _number_float(text: str) -> float:
    value = float(text)
    if math.isinf(value):  # INT-17: a number that rounds to infinity is not readable
        raise _not_json("number is infinity when parsed as double")
    return value


def _python_json(
    raw: bytes,
    pairs: Callable[[list[tuple[str, Any]]], Any],
    constant: Callable[[str], Any] | None = None,
) -> Any:
    """One line read with Python's json module (strict UTF-8, no BOM, numbers as
    `load_line` reads them); `constant` reads NaN/Infinity/-Infinity (None: not JSON)."""
    try:
        text = raw.decode("utf-8")
        return json.loads(
            text,
            object_pairs_hook=pairs,
            parse_int=_number_int,
            parse_float=_number_float,
            parse_constant=constant or _reject_constant,
        )
    except (ValueError, RecursionError, OverflowError) as exc:  # bad UTF-8, not JSON, 1e400
        raise _not_json(str(exc)) from None


def _reject_constant(name: str) -> Any:
    raise _not_json(f"{name} is not JSON")


def _strings(value: Any) -> list[str]:
    """Every string of a value, member names included."""
    found: list[str] = []
    stack = [value]
    while stack:
        node = stack.pop()
        if type(node) is str:
            found.append(node)
        elif type(node) is dict:
            found.extend(node)
            stack.extend(node.values())
        elif type(node) is list:
            stack.extend(node)
    return found


def _last_wins(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    names_and_values = [key for key, _ in pairs] + [item for _, item in pairs]
    if any(_LONE.search(text) for text in _strings(names_and_values)):  # INT-15, overwritten or not
        raise _not_json("lone surrogate")
    return dict(pairs)


def _load_without_bom(raw: bytes) -> Any:
    """INT-15/strip-leading-bom: a UTF-8 BOM that starts the line is removed before parsing."""
    return load_line(raw[3:] if raw[:3] == _BOM else raw)


def _finite(value: Any) -> bool:
    kind = type(value)
    if kind is float:
        return math.isfinite(value)
    if kind is list:
        return all(_finite(item) for item in value)
    if kind is dict:
        return all(_finite(item) for item in value.values())
    return True


def _load_with_constants(raw: bytes) -> Any:
    """INT-15/accept-nan-infinity-like: NaN, Infinity and -Infinity read as numbers (Python's
    json.loads).  RFC 8785 cannot write them, so one inside refs (which record_hash covers,
    INT-02) leaves the line unreadable as before; elsewhere (an unknown member, a mistyped
    field) the line reads and the record schema decides."""
    try:
        return load_line(raw)
    except NotJSON:
        value = _python_json(raw, _last_wins, float)
    if _finite(value):  # the pinned loader refused it for another reason
        raise _not_json("not JSON") from None
    if type(value) is dict and not _finite(value.get("refs")):
        raise _not_json("a non-finite number in refs has no canonical form")
    return value


def _load_replacing_surrogates(raw: bytes) -> Any:
    """INT-15/replace-lone-surrogates-u: every escaped lone surrogate (a high one without its
    low one, or a low one alone) reads as U+FFFD, in member names too."""
    try:
        return load_line(raw)
    except NotJSON:
        pass
    replaced: list[bool] = []

    def fix(value: Any) -> Any:  # objects below were fixed by their own hook call
        if type(value) is str:
            if _LONE.search(value):
                replaced.append(True)
                return _LONE.sub("\ufffd", value)
            return value
        if type(value) is list:
            return [fix(item) for item in value]
        return value

    value = _python_json(raw, lambda pairs: {fix(key): fix(item) for key, item in pairs})
    value = fix(value)
    if not replaced:  # the pinned loader refused the line for another reason
        raise _not_json("not JSON")
    return value


def _load_keeping_surrogates(raw: bytes) -> Any:
    """INT-15/javascript-keep-lone-surrogates: an escaped lone surrogate stays in its string
    as one code point (JavaScript's JSON.parse keeps the lone UTF-16 code unit), in member
    names too and in overwritten members alike; every other rule stays as pinned."""
    try:
        return load_line(raw)
    except NotJSON:
        pass
    lone: list[str] = []

    def kept(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        names_and_values = [key for key, _ in pairs] + [item for _, item in pairs]
        lone.extend(text for text in _strings(names_and_values) if _LONE.search(text))
        return dict(pairs)  # INT-16: the last one wins

    value = _python_json(raw, kept)
    if not lone and not any(_LONE.search(text) for text in _strings(value)):
        raise _not_json("not JSON")  # the pinned loader refused the line for another reason
    return value


def _load_infinity_as_null(raw: bytes) -> Any:
    """INT-17/javascript-infinity-null: a number literal whose magnitude rounds to infinity is
    JSON.parse's Infinity, which JSON.stringify (and so record_hash) writes null: read as null
    here, which every record rule treats as Infinity would be (a wrong type for a record field,
    null inside refs, ignored elsewhere); every other rule stays as pinned."""
    try:
        return load_line(raw)
    except NotJSON:
        pass
    overflowed: list[str] = []

    def number(text: str) -> float | None:
        value = float(text)
        if math.isinf(value):
            overflowed.append(text)
            return None
        return value

    def integer(digits: str) -> int | float | None:
        try:
            return _number_int(digits)
        except OverflowError:  # beyond the largest double: Infinity
            overflowed.append(digits)
            return None

    try:
        value = json.loads(
            raw.decode("utf-8"),
            object_pairs_hook=_last_wins,
            parse_int=integer,
            parse_float=number,
            parse_constant=_reject_constant,
        )
    except (ValueError, RecursionError) as exc:  # bad UTF-8, not JSON, a lone surrogate
        raise _not_json(str(exc)) from None
    if not overflowed:  # the pinned loader refused the line for another reason
        raise _not_json("not JSON")
    return value


def _go_text(raw: bytes) -> str:
    """The line as Go's encoding/json sees its strings: each byte that does not start a valid
    UTF-8 sequence reads as one U+FFFD (utf8.DecodeRune's (RuneError, 1))."""
    out: list[str] = []
    i, size = 0, len(raw)
    while i < size:
        byte = raw[i]
        if byte < 0x80:
            out.append(chr(byte))
            i += 1
            continue
        length = 2 if 0xC2 <= byte <= 0xDF else 3 if 0xE0 <= byte <= 0xEF else 4
        if byte <= 0xF4:
            try:
                out.append(raw[i : i + length].decode("utf-8"))
            except UnicodeDecodeError:
                pass
            else:
                i += length
                continue
        out.append("\ufffd")
        i += 1
    return "".join(out)


def _load_like_go(raw: bytes) -> Any:
    """INT-15/go-replace-invalid-utf-8: invalid UTF-8 inside a string and escaped lone
    surrogates read as U+FFFD (Go's encoding/json); anywhere else the bytes are not JSON, and
    a replacement character there is not JSON either."""
    try:
        return load_line(raw)
    except NotJSON:
        pass
    text = _go_text(raw)
    if text.encode("utf-8") == raw:  # valid UTF-8: only the lone surrogates differ
        return _load_replacing_surrogates(raw)
    return _load_replacing_surrogates(text.encode("utf-8"))


class _Duplicate(list[tuple[str, Any]]):
    """An object in which a member name occurs more than once."""


def _names(pairs: list[tuple[str, Any]]) -> dict[str, Any] | _Duplicate:
    if len({key for key, _ in pairs}) != len(pairs):
        return _Duplicate(pairs)
    return dict(pairs)


def _first_wins(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    kept: dict[str, Any] = {}
    for key, item in pairs:
        kept.setdefault(key, item)
    return kept


def _load_first_wins(raw: bytes) -> Any:
    """INT-16/first-occurrence-wins: the first occurrence of a member name wins (every value,
    overwritten or not, still obeys INT-15..INT-18: the pinned loader reads the line first)."""
    value = load_line(raw)
    if not _has_duplicate(_python_json(raw, _names)):
        return value
    return _python_json(raw, _first_wins)


def _load_unique_names(raw: bytes) -> Any:
    """INT-16/invalid-record-schema-i: a line with a member name twice in one object is not
    I-JSON (RFC 7493): unreadable, so invalid_record_schema with memory_id "" (INT-19)."""
    value = load_line(raw)
    if _has_duplicate(_python_json(raw, _names)):
        raise _not_json("duplicate member name")
    return value


#: The members a record's schema names (S6-REC-03..09): a struct's fields.
_RECORD_FIELDS: Final = frozenset({"memory_id", "text", "tags", "refs", "ts_utc"})


def _load_no_duplicate_field(raw: bytes) -> Any:
    """INT-16/duplicate-record-field-invalid: a record field named twice in the top-level
    object makes the line unreadable, memory_id "" (serde_json into a struct: "duplicate
    field"); any other duplicate name: the last one wins."""
    value = load_line(raw)
    if type(value) is not dict:
        return value
    fields = _python_json(raw, lambda pairs: pairs)  # the top-level object's pairs, in order
    names = [key for key, _ in fields if key in _RECORD_FIELDS]
    if len(set(names)) != len(names):
        raise _not_json("duplicate record field")
    return value


def _has_duplicate(value: Any) -> bool:
    if isinstance(value, _Duplicate):
        return True
    if type(value) is list:
        return any(_has_duplicate(item) for item in value)
    if type(value) is dict:
        return any(_has_duplicate(item) for item in value.values())
    return False


def _never(line: bytes) -> bool:
    """INT-14/blank-lines-dropped-invalid: no line is skipped; a blank one is not JSON."""
    return False


def _hash_with_cr(raw: bytes) -> str:
    """INT-14/cr-kept-part-line: the CR before the LF is part of the line (and of its hash)."""
    return sha256_hex(raw[:-1] if raw[-1:] == b"\n" else raw)


@dataclass(frozen=True, slots=True)
class LineRules:
    """How a line of a store is read: which lines are skipped (INT-14), how one is parsed
    (INT-15, INT-16), its nesting limit (INT-18) and an invalid line's record_hash (INT-14,
    INT-19).  The defaults are the pinned readings; `line_rules` builds the alternatives'."""

    skip: Callable[[bytes], bool] = is_blank
    load: Callable[[bytes], Any] = load_line
    line_hash: Callable[[bytes], str] = raw_hash
    max_depth: int = MAX_DEPTH
    line_limit: LineLimit = LINE_LIMITS["1mib-invalid"]  # INT-18: taken by the reader

    @property
    def parse(self) -> Callable[..., Record | Invalid]:
        """`parse_record` under these rules (itself for the pinned ones)."""
        if self == PINNED_LINES:
            return parse_record
        return partial(
            parse_record, load=self.load, line_hash=self.line_hash, max_depth=self.max_depth
        )


PINNED_LINES: Final = LineRules()

#: INT-14: (which lines are skipped, an invalid line's record_hash), the pinned reading first.
LINE_ENDS: Final[dict[str, tuple[Callable[[bytes], bool], Callable[[bytes], str]]]] = {
    "skip-blank-drop-cr": (is_blank, raw_hash),
    "blank-invalid": (_never, raw_hash),
    "cr-kept": (is_blank, _hash_with_cr),
}
#: INT-15: which JSON texts a line may hold (the pinned reading first).
JSON_TEXTS: Final[dict[str, Callable[[bytes], Any]]] = {
    "rfc8259": load_line,
    "strip-bom": _load_without_bom,
    "nan-infinity": _load_with_constants,
    "replace-surrogates": _load_replacing_surrogates,
    "go": _load_like_go,
    "keep-surrogates": _load_keeping_surrogates,
    "infinity-null": _load_infinity_as_null,
}
#: INT-16: what a member name that occurs twice in one object does (the pinned reading first).
MEMBER_NAMES: Final[dict[str, Callable[[bytes], Any]]] = {
    "last-wins": load_line,
    "first-wins": _load_first_wins,
    "unique": _load_unique_names,
    "record-fields-unique": _load_no_duplicate_field,
}
#: INT-18: the deepest nesting a line may have (the pinned reading first; "none": only the
#: parser's own limit, orjson's 1024).
DEPTH_LIMITS: Final[dict[str, int]] = {
    "64": MAX_DEPTH,
    "none": 1 << 62,
    "1000": 1000,
    "127": 127,  # serde_json: its recursion limit of 128 fails at the 128th level
    "10000": 10_000,  # Go's encoding/json: "exceeded max depth" past 10000
}


def line_rules(ends: str, text: str, names: str, depth: str, length: str) -> LineRules:
    """The line readings of INT-14, INT-15, INT-16 and INT-18 (``length`` a key of
    ``_reader.LINE_LIMITS``), by their names above."""
    skip, line_hash = LINE_ENDS[ends]
    load = JSON_TEXTS[text]
    if MEMBER_NAMES[names] is not load_line:
        if load is not load_line:
            raise ValueError("an INT-15 and an INT-16 alternative cannot be followed together")
        load = MEMBER_NAMES[names]
    return LineRules(skip, load, line_hash, DEPTH_LIMITS[depth], LINE_LIMITS[length])


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


def _simply_lowered_tags(obj: dict[str, Any]) -> None:
    """INT-25/tags-simple-lowercase: each tag lowercased with the simple (1:1) mapping, as Go's
    strings.ToLower does; `normalize_tags` then leaves it as it is (a simple lowercase mapping
    has no further full lowercase mapping), deduplicates and sorts it."""
    tags = obj.get("tags")
    if type(tags) is list:
        obj["tags"] = [simple_lower(tag) if type(tag) is str else tag for tag in tags]


#: INT-22, INT-24, INT-25: rewrites of the parsed line's members before the schema check.
MEMBER_REWRITES: Final[dict[str, Callable[[dict[str, Any]], None]]] = {
    "treat-null-absent": _null_absent,
    "drop-non-string-tags": _string_tags,
    "read-created-utc-ts": _created_at_as_ts,
    "wrap-string-refs-ref": _wrap_string_refs,
    "trim-tags": _trimmed_tags,
    "tags-simple-lowercase": _simply_lowered_tags,
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


def record_parser(
    readings: tuple[str, ...],
    base: Callable[..., Record | Invalid] = parse_record,
    load: Callable[[bytes], Any] = load_line,
) -> LineParser:
    """The line parser of the record readings `readings` (values of ``_readings.Readings``):
    `parse_record` itself when every one is pinned; otherwise `parse_record` with the named
    `MEMBER_REWRITES` before it, the named `RECORD_CHECKS`, tag order (`TAG_ORDERS`) and ts_utc
    form (`TS_FORMS`) after it, and with KEEP_RAW_TS a ts_utc string that is not a valid
    timestamp hashed as written (the candidate still has no timestamp, INT-20)."""
    chosen = [name for name in readings if name not in PINNED_RECORD_READINGS]
    if not chosen:
        return base
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
        **options: Any,
    ) -> Record | Invalid:
        if parsed is _UNPARSED:
            try:
                parsed = load(raw)
            except NotJSON:
                return base(raw, store_path=store_path, parse_ts=parse_ts, **options)
        if type(parsed) is dict:
            for edit in edits:
                edit(parsed)
        record = base(raw, parsed, store_path=store_path, parse_ts=parse_ts, **options)
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
