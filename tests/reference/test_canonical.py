"""Canonical JSON (INT-01, RFC 8785) and the orjson fast path of reference._canonical."""

from __future__ import annotations

import hashlib
import math
from typing import Any

import pytest
import rfc8785
from hypothesis import given
from hypothesis import strategies as st

from reference._canonical import canonical_bytes, jcs_number, sha256_hex
from reference._errors import CanonicalizationError


class TestNumbers:
    """JCS writes numbers as ECMAScript Number::toString of the double (INT-01, INT-17)."""

    @pytest.mark.parametrize(
        ("value", "expected"),
        [
            (56.0, b"56"),
            (2.5, b"2.5"),
            (1e16, b"10000000000000000"),
            (1e21, b"1e+21"),
            (1e20, b"100000000000000000000"),
            (1e-6, b"0.000001"),
            (1e-7, b"1e-7"),
            (-0.0, b"0"),
            (0.1 + 0.2, b"0.30000000000000004"),
            (9007199254740993, b"9007199254740992"),  # nearest double, INT-17
            (-(2**53), b"-9007199254740992"),
            (5, b"5"),
        ],
        ids=repr,
    )
    def test_number_form(self, value: float | int, expected: bytes) -> None:
        """INT-01: each number is written in its JCS form, ints beyond 2**53 as doubles."""
        assert canonical_bytes(value) == expected
        assert jcs_number(value) == expected

    @pytest.mark.parametrize("value", [math.inf, -math.inf, math.nan, 10**400])
    def test_non_finite_rejected(self, value: float | int) -> None:
        """INT-01: NaN, infinities and integers that overflow a double have no canonical form."""
        with pytest.raises(CanonicalizationError):
            canonical_bytes(value)


class TestStringsAndKeys:
    """JCS string escaping and UTF-16 key order (INT-01)."""

    def test_control_characters(self) -> None:
        """INT-01: short escapes for \\b\\t\\n\\f\\r, lowercase \\u00xx otherwise, DEL raw."""
        value = '\x00\x08\t\n\x0c\r\x1f\x7f\u2028"\\/'
        expected = '"\\u0000\\b\\t\\n\\f\\r\\u001f\x7f\u2028\\"\\\\/"'.encode()
        assert canonical_bytes(value) == expected

    def test_non_bmp_key_order(self) -> None:
        """INT-01: keys sort by UTF-16 code units: U+1F600 (D83D DE00) before U+FFFF."""
        value = {"\uffff": 1, "\U0001f600": 2, "a": 3}
        expected = '{"a":3,"\U0001f600":2,"\uffff":1}'.encode()
        assert canonical_bytes(value) == expected

    def test_lone_surrogate_rejected(self) -> None:
        """INT-15: a string with a lone surrogate cannot be encoded as UTF-8, so no hash."""
        with pytest.raises(CanonicalizationError):
            canonical_bytes({"k": "\ud800"})

    def test_nested_sorting_and_no_whitespace(self) -> None:
        """S6-HASH-02: keys sorted at every level, no insignificant whitespace."""
        value = {"b": [1, {"d": True, "c": None}], "a": "x"}
        assert canonical_bytes(value) == b'{"a":"x","b":[1,{"c":null,"d":true}]}'

    def test_sha256_hex_is_lowercase(self) -> None:
        """INT-02: every hash is lowercase hex SHA-256."""
        assert sha256_hex(b"abc") == hashlib.sha256(b"abc").hexdigest()
        assert sha256_hex(b"abc").islower()


_json = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**60), max_value=2**60)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=4), children, max_size=4)
    ),
    max_leaves=12,
)


def _as_doubles(value: Any) -> Any:
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int):
        return value if abs(value) <= 2**53 else float(value)
    if isinstance(value, float):
        return value
    if isinstance(value, list):
        return [_as_doubles(item) for item in value]
    return {key: _as_doubles(item) for key, item in value.items()}


class TestFastPathEqualsJcs:
    """The orjson fast path is only taken where it is byte-equal to rfc8785."""

    @given(_json)
    def test_random_values(self, value: Any) -> None:
        """INT-01: canonical_bytes equals the rfc8785 library on random JSON values."""
        try:
            expected = rfc8785.dumps(_as_doubles(value))
        except (rfc8785.CanonicalizationError, UnicodeError):
            with pytest.raises(CanonicalizationError):
                canonical_bytes(value)
            return
        assert canonical_bytes(value) == expected
