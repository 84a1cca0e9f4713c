"""The canonical forms a SPEC-005 `hash` is recognized under: RFC 8785 (pinned) and the others.

SPEC-005 INTEGRITY RULES 3: "hash must be computed over a canonical JSON serialization: sorted
keys, UTF-8 encoding, no whitespace variability".  The three words leave number formatting and
the key order of non-BMP names open; INT-47 pins RFC 8785 (INT-01) and names the honest
alternatives below.  A record whose hash matches an alternative only is intact (a notice at
level ``pinned``); a hash matching no form is ``hash-mismatch``.

Each form is defined by a recipe over the record minus ``hash``, as a writer would compute it:

- ``jcs``: RFC 8785 over the record parsed as INT-17 says (numbers are doubles);
- ``python-json``: ``json.dumps(record, sort_keys=True, separators=(",", ":"),
  ensure_ascii=False, allow_nan=False).encode("utf-8")`` over the record as Python's ``json``
  module parses it (integers exact, ``1.0`` a float);
- ``python-json-ascii``: the same with ``ensure_ascii=True`` (Python's default), which escapes
  every non-ASCII character as ``\\uxxxx`` (non-BMP ones as a surrogate pair).

Where they differ from RFC 8785 (the register's INT-47 table; ANCHORS.md): integers beyond
2**53 (``12345678901234567890`` kept vs ``12345678901234567000``), integral floats (``56.0`` vs
``56``), exponents (``1e+16`` vs ``10000000000000000``, ``1e-05`` vs ``0.00001``, ``2.5e-07`` vs
``2.5e-7``), ``-0.0`` vs ``0``, and object members whose names mix non-BMP characters with
U+E000..U+FFFF (code-point order vs UTF-16 order); ``python-json-ascii`` also escapes every
non-ASCII character.  Strings are otherwise escaped alike (``\\b \\t \\n \\f \\r``, other
controls as lowercase ``\\u00xx``, DEL and U+2028 raw).

Speed: a record without floats (so without integers beyond 2**53, which INT-17 reads as
doubles) and without non-BMP member names has the same bytes under ``jcs`` and ``python-json``,
and orjson's sorted output is those bytes (orjson escapes strings as RFC 8785 does and sorts by
code point, which equals UTF-16 order without non-BMP names).  Only other records pay for the
pure-Python ``rfc8785`` library or a second parse.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any, Final

import orjson
import rfc8785

__all__ = [
    "FORMS",
    "PINNED",
    "Features",
    "FormDigests",
    "HashForm",
    "first_difference",
    "form_digests",
]

#: The form INT-47 pins.
PINNED: Final = "jcs"


@dataclass(frozen=True)
class HashForm:
    """One canonical form: its name in reports, what it is, the exact recipe."""

    name: str
    title: str
    recipe: str


#: The known forms, the pinned one first (the order of reports and of INT-47's list).
FORMS: Final[tuple[HashForm, ...]] = (
    HashForm("jcs", "RFC 8785 (JCS)", "rfc8785.dumps(record minus hash), numbers as doubles"),
    HashForm(
        "python-json",
        "Python json.dumps, ensure_ascii=False",
        'json.dumps(record minus hash, sort_keys=True, separators=(",", ":"), '
        'ensure_ascii=False, allow_nan=False).encode("utf-8")',
    ),
    HashForm(
        "python-json-ascii",
        "Python json.dumps, ensure_ascii=True",
        'json.dumps(record minus hash, sort_keys=True, separators=(",", ":"), '
        "ensure_ascii=True, allow_nan=False)",
    ),
)
FORM_NAMES: Final = tuple(form.name for form in FORMS)


@dataclass(frozen=True)
class Features:
    """What decides whether the forms can differ for one parsed value (found by one walk)."""

    floats: bool  # a float anywhere (INT-17 turns integers beyond 2**53 into floats)
    non_bmp_names: bool  # a member name with a character above U+FFFF
    non_ascii: bool  # a non-ASCII character in any string or member name


@dataclass(frozen=True)
class FormDigests:
    """The stored hash checked against every form: each form's bytes and digest, the matches."""

    serialized: dict[str, bytes]
    digests: dict[str, str]
    matches: tuple[str, ...]


def _jcs(value: Any, features: Features) -> bytes | None:
    if not features.floats and not features.non_bmp_names:
        try:
            return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
        except TypeError:  # nesting beyond orjson's limit (254)
            pass
    try:
        return rfc8785.dumps(value)
    except RecursionError:  # pragma: no cover - parse_line refuses deeper texts first
        return None


def _python_value(line: bytes) -> Any:
    """The record as Python's json module parses it (exact integers, floats kept as floats);
    None if it cannot (parse_line, stricter, accepted the line first: not expected)."""
    try:
        value = json.loads(line.decode("utf-8"))
    except (ValueError, RecursionError):  # pragma: no cover
        return None
    return value if isinstance(value, dict) else None


def _python(value: Any, ascii_only: bool) -> bytes | None:
    try:
        text = json.dumps(
            value, sort_keys=True, separators=(",", ":"), ensure_ascii=ascii_only, allow_nan=False
        )
    except (TypeError, ValueError, RecursionError):  # pragma: no cover - parse_line refused these
        return None
    return text.encode("utf-8")


def _sha(data: bytes, cache: dict[bytes, str]) -> str:
    digest = cache.get(data)
    if digest is None:
        digest = cache[data] = hashlib.sha256(data).hexdigest()
    return digest


def _without_hash(value: dict[str, Any]) -> dict[str, Any]:
    return {key: item for key, item in value.items() if key != "hash"}


def form_digests(
    value: dict[str, Any], line: bytes, features: Features, stored: str
) -> FormDigests:
    """Compute the record's digest under every known form and say which equal `stored`.

    `value` is the line parsed under INT-15..INT-17 (conformance.store._lines.parse_line) and
    `line` its bytes (re-parsed by Python's json module only when floats make the forms differ).
    """
    cache: dict[bytes, str] = {}
    jcs = _jcs(_without_hash(value), features)
    python: bytes | None
    if jcs is not None and not features.floats and not features.non_bmp_names:
        python = jcs  # same bytes (module docstring); the parsed value is Python's too
        python_value: Any = value
    else:
        python_value = _python_value(line)
        python = None if python_value is None else _python(_without_hash(python_value), False)
    ascii_bytes: bytes | None
    if not features.non_ascii:
        ascii_bytes = python
    elif not features.floats:
        ascii_bytes = _python(_without_hash(value), True)
    else:
        ascii_bytes = None if python_value is None else _python(_without_hash(python_value), True)
    by_form: dict[str, bytes | None] = {  # None: this form cannot write the record
        "jcs": jcs,
        "python-json": python,
        "python-json-ascii": ascii_bytes,
    }
    serialized = {name: data for name, data in by_form.items() if data is not None}
    digests = {name: _sha(data, cache) for name, data in serialized.items()}
    matches = tuple(name for name in FORM_NAMES if digests.get(name) == stored)
    return FormDigests(serialized, digests, matches)


def first_difference(left: bytes, right: bytes, context: int = 24) -> tuple[int, str, str]:
    """Where two serializations part: (byte offset, a window of each around it)."""
    size = min(len(left), len(right))
    at = 0
    step = 4096
    while at < size and left[at : at + step] == right[at : at + step]:
        at += step  # whole blocks first: a long line costs a few comparisons, not a loop
    at = next((i for i in range(at, min(at + step, size)) if left[i] != right[i]), min(at, size))
    start = max(0, at - context)

    def window(data: bytes) -> str:
        text = data[start : at + context].decode("utf-8", errors="replace")
        return ("..." if start else "") + text + ("..." if at + context < len(data) else "")

    return at, window(left), window(right)
