"""Canonical JSON (RFC 8785, JCS) and the SHA-256 helpers every hash uses.

S6-HASH-02: "MUST be computed from a canonical JSON serialization of the normalized record:
keys sorted, UTF-8, no whitespace variance."  The register pins that form to RFC 8785 (INT-01):
members sorted by UTF-16 code units, ECMAScript number formatting, minimal string escaping.

Two paths produce the same bytes:
- the fast path hands the value to orjson with OPT_SORT_KEYS.  orjson escapes strings exactly as
  JCS does; it differs from JCS only on floats (``2.0``, ``1e+16``), integers beyond 2**53
  (JCS reads numbers as doubles, INT-17) and the order of keys outside ASCII (orjson sorts by
  UTF-8 bytes).  `_fast_path_safe` admits only values without those;
- the slow path converts numbers to doubles and asks the `rfc8785` library.
tests/test_canonical.py proves the two equal on the tricky cases and on random values.

INT-01's alternatives are other canonical forms an honest implementer may hash with
(:data:`FORMS`, the pinned one first); they write numbers exactly as they receive them (an
integer beyond 2**53 as its digits), so INT-17's reading of numbers is the caller's.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Callable
from typing import Any, Final

import orjson
import rfc8785

from reference._errors import CanonicalizationError

__all__ = ["FORMS", "as_doubles", "canonical_bytes", "jcs_number", "lone_escaped", "sha256_hex"]

_SAFE_INT: Final = 2**53
_SORT: Final = orjson.OPT_SORT_KEYS


def sha256_hex(data: bytes) -> str:
    """Lowercase hex SHA-256, the digest form of every phase6 hash (INT-02, INT-03)."""
    return hashlib.sha256(data).hexdigest()


def _fast_path_safe(value: Any) -> bool:
    """True when orjson's sorted output is byte-identical to RFC 8785 for this value."""
    kind = type(value)
    if kind is str or kind is bool or value is None:
        return True
    if kind is int:
        return bool(-_SAFE_INT <= value <= _SAFE_INT)
    if kind is list:
        return all(_fast_path_safe(item) for item in value)
    if kind is dict:
        return all(
            type(key) is str and key.isascii() and _fast_path_safe(item)
            for key, item in value.items()
        )
    return False  # floats and anything else take the slow path


#: The integers the rfc8785 package writes itself: |n| <= 2**53 - 1. (2**53 is exact as a
#: double too, and orjson's fast path writes it exactly, but rfc8785 refuses the int.)
_RFC8785_INT: Final = 2**53 - 1


def as_doubles(value: Any) -> Any:
    """Map every number to the IEEE double JSON.parse would produce (INT-17)."""
    kind = type(value)
    if kind is int:
        if -_RFC8785_INT <= value <= _RFC8785_INT:
            return value
        try:
            return float(value)
        except OverflowError as exc:
            raise CanonicalizationError(f"number {value} overflows a double") from exc
    if kind is float:
        if not math.isfinite(value):
            raise CanonicalizationError(f"number {value!r} has no JSON form")
        return value
    if kind is list:
        return [as_doubles(item) for item in value]
    if kind is dict:
        return {key: as_doubles(item) for key, item in value.items()}
    return value


def canonical_bytes(value: Any) -> bytes:
    """Serialize a JSON value in RFC 8785 canonical form (INT-01).

    Raises CanonicalizationError for values JCS cannot represent: non-finite numbers, lone
    surrogates, non-string keys.
    """
    try:
        if _fast_path_safe(value):
            return orjson.dumps(value, option=_SORT)
        return bytes(rfc8785.dumps(as_doubles(value)))
    except CanonicalizationError:
        raise
    except (TypeError, ValueError, UnicodeError, rfc8785.CanonicalizationError) as exc:
        raise CanonicalizationError(str(exc)) from exc


def jcs_number(value: float | int) -> bytes:
    """One number in RFC 8785 form: the ECMAScript Number::toString of the double."""
    if type(value) is int and -_SAFE_INT <= value <= _SAFE_INT:
        return str(value).encode("ascii")
    return canonical_bytes(float(value))


# ------------------------------------------------------------------ INT-01's other forms


def _written(
    value: Any,
    string: Callable[[str], bytes],
    order: Callable[[str], Any],
    number: Callable[[float], bytes] = jcs_number,
) -> bytes:
    """RFC 8785 layout with `string` escaping, member names sorted by `order` and floats
    written by `number` (the ECMAScript form); integers are written as their digits whatever
    their size."""
    kind = type(value)
    if kind is dict:
        members = sorted(value.items(), key=lambda member: order(member[0]))
        return (
            b"{"
            + b",".join(
                string(key) + b":" + _written(item, string, order, number) for key, item in members
            )
            + b"}"
        )
    if kind is list:
        return b"[" + b",".join(_written(item, string, order, number) for item in value) + b"]"
    if kind is str:
        return string(value)
    if kind is int:
        return str(value).encode("ascii")
    if kind is float:
        return number(value)
    return orjson.dumps(value)  # true, false, null


def _utf16_units(name: str) -> bytes:
    """RFC 8785 section 3.2.3: member names compare as arrays of UTF-16 code units."""
    return name.encode("utf-16-be", "surrogatepass")


def _code_points(name: str) -> str:
    """Member names compared as strings of code points (the order of their UTF-8 bytes)."""
    return name


def _jcs_string(text: str) -> bytes:
    return orjson.dumps(text)  # JCS escaping; raises for a lone surrogate


#: A surrogate code point in a Python str: after json.loads a pair is one code point, so every
#: one left is a lone surrogate.
_SURROGATE: Final = re.compile("[\ud800-\udfff]")


def _lone_escaped_string(text: str) -> bytes:
    """RFC 8785's escaping, and a lone surrogate as the escape \\udxxx (lowercase hex), as
    ECMAScript's well-formed JSON.stringify (ES2019) writes it (INT-15/javascript-keep-lone-
    surrogates); a valid string is written exactly as RFC 8785 writes it."""
    try:
        return orjson.dumps(text)
    except orjson.JSONEncodeError:
        pass
    parts = _SURROGATE.split(text)
    written = [orjson.dumps(parts[0])[:-1]]
    for lone, part in zip(_SURROGATE.findall(text), parts[1:], strict=True):
        written += [b"\\u%04x" % ord(lone), orjson.dumps(part)[1:-1]]
    return b"".join(written) + b'"'


def _ascii_string(text: str) -> bytes:
    text.encode("utf-8")  # a lone surrogate has no canonical form (UnicodeEncodeError)
    return json.dumps(text, ensure_ascii=True).encode("ascii")


#: Go's encoding/json escapes these by default (HTML-safe: Encoder.SetEscapeHTML(true)).
_GO_ESCAPES: Final = (
    (b"<", b"\\u003c"),
    (b">", b"\\u003e"),
    (b"&", b"\\u0026"),
    ("\u2028".encode(), b"\\u2028"),
    ("\u2029".encode(), b"\\u2029"),
)


def _go_string(text: str) -> bytes:
    """Go encoding/json: RFC 8785's escaping, and <, >, &, U+2028, U+2029 as \\uxxxx."""
    written = orjson.dumps(text)
    for raw, escaped in _GO_ESCAPES:
        written = written.replace(raw, escaped)
    return written


#: Go's encoding/json writes U+0008 and U+000C as \\u0008 and \\u000c before Go 1.22 (whose
#: release notes announce the short escapes \\b and \\f); one escape of RFC 8785's output is
#: one match.
_ESCAPE: Final = re.compile(rb"\\(.)")
_GO_BEFORE_1_22: Final = {b"b": b"\\u0008", b"f": b"\\u000c"}


def _go_string_before_1_22(text: str) -> bytes:
    """Go encoding/json of Go 1.19 to 1.21: `_go_string`, with U+0008 and U+000C as \\u0008
    and \\u000c rather than the short escapes \\b and \\f."""
    return _ESCAPE.sub(lambda escape: _GO_BEFORE_1_22.get(escape[1], escape[0]), _go_string(text))


def _go_number(value: float) -> bytes:
    """Go encoding/json formats a float64 as ECMAScript does, but keeps the sign of -0."""
    return b"-0" if value == 0 and math.copysign(1.0, value) < 0 else jcs_number(value)


def _form(write: Callable[[Any], bytes]) -> Callable[[Any], bytes]:
    def form(value: Any) -> bytes:
        try:
            return write(value)
        except (TypeError, ValueError, UnicodeError, orjson.JSONEncodeError) as exc:
            raise CanonicalizationError(str(exc)) from exc

    return form


def _python_json(value: Any, ensure_ascii: bool) -> bytes:
    """Python's json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=...,
    allow_nan=False) as UTF-8: member names in code-point order, floats as repr (2.0, 1e+16,
    1e-05, -0.0), integers exactly."""
    text = json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=ensure_ascii, allow_nan=False
    )
    return text.encode("utf-8")


#: INT-01: canonical form name -> value -> canonical bytes (the pinned form first: RFC 8785,
#: byte-equal to `canonical_bytes` for a value whose numbers are doubles, INT-17).
#: ``code-point-keys``: RFC 8785 with member names sorted by code point (UTF-8 byte order);
#: ``ascii-escapes``: RFC 8785 with strings escaped as Python's ``ensure_ascii=True`` does
#: (every non-ASCII character and DEL as \\uxxxx, a non-BMP one as a surrogate pair);
#: ``python-json`` / ``python-json-ascii``: Python's json.dumps with ensure_ascii False / True;
#: ``go-json``: Go's json.Marshal of the decoded value (map keys in byte order, HTML-safe
#: escapes, -0 kept); ``go-json-before-1.22``: the same with \\u0008 and \\u000c for U+0008
#: and U+000C (Go 1.19 to 1.21).
FORMS: Final[dict[str, Callable[[Any], bytes]]] = {
    "jcs": _form(lambda value: _written(value, _jcs_string, _utf16_units)),
    "code-point-keys": _form(lambda value: _written(value, _jcs_string, _code_points)),
    "ascii-escapes": _form(lambda value: _written(value, _ascii_string, _utf16_units)),
    "python-json": _form(lambda value: _python_json(value, False)),
    "python-json-ascii": _form(lambda value: _python_json(value, True)),
    "go-json": _form(lambda value: _written(value, _go_string, _code_points, _go_number)),
    "go-json-before-1.22": _form(
        lambda value: _written(value, _go_string_before_1_22, _code_points, _go_number)
    ),
    "jcs-lone-escapes": _form(lambda value: _written(value, _lone_escaped_string, _utf16_units)),
}
#: RFC 8785 of a value whose strings may hold lone surrogates, written as JSON.stringify writes
#: them (\\udxxx): the package's and dropped entries' canonical form when a reading let one
#: through (INT-15/javascript-keep-lone-surrogates); byte-equal to RFC 8785 otherwise.
lone_escaped: Final = FORMS["jcs-lone-escapes"]
