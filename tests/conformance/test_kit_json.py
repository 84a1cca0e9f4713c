"""The kit's JSON reader (`conformance._kit.loads`): what an implementation or a report holds
comes back exactly, whatever parser reads it."""

from __future__ import annotations

import pytest

from conformance._kit import loads


class TestLoads:
    """Strict JSON, nothing lost."""

    @pytest.mark.parametrize(
        "value",
        [-(2**63) - 1, 2**64, 2**64 - 1, -(2**80), 10**19, 1234567890123456789],
        ids=["below-int64", "above-uint64", "uint64-max", "80-bit", "ten-to-19", "19-digits"],
    )
    def test_integers_beyond_64_bits_stay_integers(self, value: int) -> None:
        """An integer orjson would turn into a float is read exactly, alone or nested."""
        assert loads(str(value).encode()) == value
        assert loads(f'{{"a":[1,{value}]}}') == {"a": [1, value]}
        assert type(loads(f"[{value}]")[0]) is int

    def test_digits_in_strings_and_fractions_are_unchanged(self) -> None:
        """Long digit runs inside strings and after a decimal point parse as before."""
        text = b'{"h":"a1234567890123456789012","f":0.12345678901234567890123,"n":-5}'
        assert loads(text) == {"h": "a1234567890123456789012", "f": 0.12345678901234568, "n": -5}

    def test_lone_surrogate_escapes_are_kept(self) -> None:
        """A lone-surrogate escape (JSON, not UTF-8) comes back as that code point."""
        assert loads(b'["\\ud800"]') == ["\ud800"]

    @pytest.mark.parametrize(
        ("text", "message"),
        [(b"NaN", "NaN is not JSON"), (b"[Infinity]", "Infinity is not JSON"),
         (b"{", "Expecting property name"), (b"\xff", "can't decode byte 0xff")],
    )  # fmt: skip
    def test_not_json_is_a_value_error(self, text: bytes, message: str) -> None:
        """NaN, Infinity, truncated text and bad UTF-8 raise ValueError saying why."""
        with pytest.raises(ValueError, match=message):
            loads(text)
