"""JSON text readings: what a store line or a snapshot must be to count as JSON (INT-15..18),
and the canonical form every hash is computed over (INT-01, RFC 8785).
"""

from __future__ import annotations

import codecs
import hashlib
import json
import math
from dataclasses import dataclass
from typing import Any

import rfc8785

__all__ = [
    "MAX_DEPTH",
    "SAFE_INT",
    "InvalidText",
    "TextReading",
    "canonical",
    "parse_json_text",
    "sha256_hex",
]

SAFE_INT = 2**53 - 1  # INT-41 / INT-17: the interoperable integer range of a double
MAX_DEPTH = 64  # INT-18


class InvalidText(Exception):
    """A JSON text or record breaks INT-15..INT-18 / INT-22."""


@dataclass(frozen=True)
class TextReading:
    """The readings of a store line's JSON text; every default is the register's pinned one.

    INT-15: ``bom`` "reject" or "strip" (a leading UTF-8 BOM is removed first); ``constants``
    "reject" or "accept" (NaN, Infinity, -Infinity are numbers, as Python's json reads them;
    a record cannot hash one inside refs, so that line stays invalid); ``surrogates`` "reject"
    or "replace" (an escaped lone surrogate becomes U+FFFD) or "keep" (it stays, as JavaScript's
    JSON.parse keeps the lone code unit). INT-16: ``duplicates`` "last",
    "first" (which occurrence of a member name wins) or "reject" (I-JSON). INT-18:
    ``max_depth``, None for no limit of the reading's own.

    Runtimes' own readings: ``utf8="go"`` with ``surrogates="replace"`` is Go's encoding/json
    (every byte that starts no valid UTF-8 sequence reads as one U+FFFD; outside a string it is
    still not JSON); ``duplicates="record-fields"`` is serde_json into a struct (a record field
    named twice in the top-level object is an error, any other duplicate: the last wins).
    """

    utf8: str = "strict"  # or "go"
    bom: str = "reject"  # or "strip"
    constants: str = "reject"  # or "accept"
    surrogates: str = "reject"  # or "replace", or "keep" (JavaScript's JSON.parse)
    duplicates: str = "last"  # "first", "reject", "record-fields"
    max_depth: int | None = MAX_DEPTH
    infinity: str = "reject"  # INT-17: or "null" (JSON.parse's Infinity, JSON.stringify's null)


PINNED_TEXT = TextReading()


def _reject_constant(name: str) -> object:
    raise InvalidText(f"{name} is not JSON")  # INT-15: NaN, Infinity are not JSON


def _parse_int(digits: str) -> int | float:
    """INT-17: every number is the nearest double; ints outside the JCS-safe range become floats."""
    n = int(digits)
    return n if -SAFE_INT <= n <= SAFE_INT else float(n)  # OverflowError -> invalid


def _parse_float(text: str) -> float:
    f = float(text)
    if math.isinf(f):  # INT-17: "a number whose magnitude rounds to infinity ... invalid"
        raise InvalidText("number out of range")
    return f


def _float_or_null(text: str) -> float | None:
    """INT-17/javascript-infinity-null: "a number literal whose magnitude rounds to infinity
    ... reads as Infinity ... JSON.stringify ... writes it null"."""
    f = float(text)
    return None if math.isinf(f) else f


def _int_or_null(digits: str) -> int | float | None:
    """INT-17/javascript-infinity-null: an integer beyond the largest double is Infinity too."""
    try:
        return _parse_int(digits)
    except OverflowError:
        return None


def _check_tree(value: object) -> None:
    """INT-15: no lone surrogate in any string of a (sub)tree, keys included."""
    stack: list[object] = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, str):
            try:
                node.encode("utf-8")
            except UnicodeEncodeError:
                raise InvalidText("lone surrogate") from None
        elif isinstance(node, dict):
            stack.extend(node.keys())
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)


def _text_depth(text: str) -> int:
    """INT-18: the deepest nesting of arrays/objects in the JSON TEXT (strings skipped)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def _lone_to_fffd(value: Any) -> Any:
    """INT-15/replace-lone-surrogates-u: every lone surrogate of every string becomes U+FFFD."""
    if isinstance(value, str):
        return "".join("\ufffd" if 0xD800 <= ord(ch) <= 0xDFFF else ch for ch in value)
    if isinstance(value, list):
        return [_lone_to_fffd(item) for item in value]
    if isinstance(value, dict):
        return {_lone_to_fffd(key): _lone_to_fffd(item) for key, item in value.items()}
    return value


def _non_finite(value: object) -> bool:
    if isinstance(value, float):
        return not math.isfinite(value)
    if isinstance(value, list):
        return any(_non_finite(item) for item in value)
    if isinstance(value, dict):
        return any(_non_finite(item) for item in value.values())
    return False


RECORD_FIELDS = frozenset({"memory_id", "text", "tags", "refs", "ts_utc"})


def _one_byte_replaced(error: UnicodeError) -> tuple[str, int]:
    """A decode error handler: U+FFFD for the first byte of the bad sequence only, decoding
    resumes at the next byte (Go's utf8.DecodeRune returns (RuneError, 1))."""
    assert isinstance(error, UnicodeDecodeError)
    return "\ufffd", error.start + 1


codecs.register_error("phase6-go-replace", _one_byte_replaced)


def _object(reading: TextReading, repeated: dict[int, set[str]]) -> Any:
    """INT-16: the object of the pairs a JSON object spells; every pair, overwritten or not,
    obeys INT-15 (the line is judged as text first)."""

    def build(pairs: list[tuple[str, Any]]) -> Any:
        if reading.surrogates == "reject":
            for key, item in pairs:
                _check_tree(key)
                _check_tree(item)
        names = [key for key, _ in pairs]
        if reading.duplicates == "reject" and len(set(names)) != len(names):
            raise InvalidText("duplicate member name")  # I-JSON (RFC 7493): names MUST be unique
        if reading.duplicates == "first":
            return dict(reversed(pairs))  # the first occurrence is written last, so it stays
        built = dict(pairs)  # the last occurrence of a name wins
        repeated[id(built)] = {name for name in names if names.count(name) > 1}
        return built

    return build


def parse_json_text(raw: bytes, reading: TextReading = PINNED_TEXT) -> Any:
    """INT-15..INT-18: strict UTF-8, no BOM, one RFC 8259 text, last duplicate wins (INT-16).

    ``reading`` follows alternatives of INT-15, INT-16 and INT-18 instead (:class:`TextReading`).
    """
    try:
        text = raw.decode("utf-8", errors="phase6-go-replace" if reading.utf8 == "go" else "strict")
    except UnicodeDecodeError:
        raise InvalidText("not UTF-8") from None
    if text.startswith("\ufeff"):
        if reading.bom != "strip":
            raise InvalidText("BOM")  # U+FEFF is not JSON whitespace
        text = text[1:]
    repeated: dict[int, set[str]] = {}  # id of a built object -> its repeated names
    try:
        value = json.loads(
            text,
            object_pairs_hook=_object(reading, repeated),
            parse_constant=float if reading.constants == "accept" else _reject_constant,
            parse_int=_parse_int if reading.infinity == "reject" else _int_or_null,
            parse_float=_parse_float if reading.infinity == "reject" else _float_or_null,
        )
    except (ValueError, RecursionError, OverflowError):
        raise InvalidText("not JSON") from None
    top_repeated = repeated.get(id(value), set()) if isinstance(value, dict) else set()
    if reading.duplicates == "record-fields" and top_repeated & RECORD_FIELDS:
        raise InvalidText("a record field named twice (serde: duplicate field)")
    if reading.surrogates == "replace":
        value = _lone_to_fffd(value)
    if reading.surrogates != "keep":  # "keep": JavaScript's JSON.parse keeps them
        _check_tree(value)
    if isinstance(value, dict) and _non_finite(value.get("refs")):
        raise InvalidText("a non-finite number in refs has no RFC 8785 form")
    if reading.max_depth is not None and _text_depth(text) > reading.max_depth:
        raise InvalidText("nesting too deep")  # INT-18: a property of the text
    return value


def canonical(value: Any) -> bytes:
    """INT-01: RFC 8785 JCS bytes."""
    return rfc8785.dumps(value)


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
