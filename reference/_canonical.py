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
"""

from __future__ import annotations

import hashlib
import math
from typing import Any, Final

import orjson
import rfc8785

from reference._errors import CanonicalizationError

__all__ = ["canonical_bytes", "jcs_number", "sha256_hex"]

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


def _as_doubles(value: Any) -> Any:
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
        return [_as_doubles(item) for item in value]
    if kind is dict:
        return {key: _as_doubles(item) for key, item in value.items()}
    return value


def canonical_bytes(value: Any) -> bytes:
    """Serialize a JSON value in RFC 8785 canonical form (INT-01).

    Raises CanonicalizationError for values JCS cannot represent: non-finite numbers, lone
    surrogates, non-string keys.
    """
    try:
        if _fast_path_safe(value):
            return orjson.dumps(value, option=_SORT)
        return bytes(rfc8785.dumps(_as_doubles(value)))
    except CanonicalizationError:
        raise
    except (TypeError, ValueError, UnicodeError, rfc8785.CanonicalizationError) as exc:
        raise CanonicalizationError(str(exc)) from exc


def jcs_number(value: float | int) -> bytes:
    """One number in RFC 8785 form: the ECMAScript Number::toString of the double."""
    if type(value) is int and -_SAFE_INT <= value <= _SAFE_INT:
        return str(value).encode("ascii")
    return canonical_bytes(float(value))
