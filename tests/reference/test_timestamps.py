"""UTC timestamps: the pinned grammar, normal form and instants (INT-20, INT-21)."""

from __future__ import annotations

import datetime

import pytest

from reference._timestamps import parse_utc, sort_key, sort_key_missing


class TestGrammar:
    """INT-20: RFC 3339 restricted to UTC, real calendar dates, no leap seconds."""

    @pytest.mark.parametrize(
        ("text", "normalized"),
        [
            ("2024-01-02T03:04:05Z", "2024-01-02T03:04:05Z"),
            ("2024-01-02T03:04:05+00:00", "2024-01-02T03:04:05Z"),
            ("2024-01-02T03:04:05.120+00:00", "2024-01-02T03:04:05.12Z"),
            ("2024-01-02T03:04:05.000Z", "2024-01-02T03:04:05Z"),
            ("2024-01-02T03:04:05.123456789Z", "2024-01-02T03:04:05.123456789Z"),
            ("2024-02-29T00:00:00Z", "2024-02-29T00:00:00Z"),
            ("2000-02-29T23:59:59Z", "2000-02-29T23:59:59Z"),
            ("0001-01-01T00:00:00Z", "0001-01-01T00:00:00Z"),
        ],
    )
    def test_valid(self, text: str, normalized: str) -> None:
        """INT-21: valid timestamps normalize to Z form, fraction without trailing zeros."""
        parsed = parse_utc(text)
        assert parsed is not None
        assert parsed[0] == normalized

    @pytest.mark.parametrize(
        "text",
        [
            "2023-02-29T00:00:00Z",  # not a leap year
            "1900-02-29T00:00:00Z",  # century rule
            "2024-04-31T00:00:00Z",
            "2024-01-01T24:00:00Z",
            "2024-01-01T00:60:00Z",
            "2024-01-01T00:00:60Z",  # no leap second
            "0000-01-01T00:00:00Z",
            "2024-01-01t00:00:00Z",
            "2024-01-01T00:00:00z",
            "2024-01-01T00:00:00",
            "2024-01-01T00:00:00+01:00",
            "2024-01-01T00:00:00-00:00",
            "2024-01-01 00:00:00Z",
            "2024-01-01T00:00:00.Z",
            "2024-01-01T00:00:00.1234567890Z",
            "2024-01-01",
            "２０２４-01-01T00:00:00Z",  # full-width digits are not [0-9]
            "",
        ],
    )
    def test_invalid(self, text: str) -> None:
        """INT-20: everything outside the grammar is not a valid UTC timestamp."""
        assert parse_utc(text) is None


class TestInstants:
    """INT-21: ordering is by exact instant; newer first, missing last."""

    def test_instant_matches_datetime(self) -> None:
        """The instant equals datetime's arithmetic, to the nanosecond."""
        parsed = parse_utc("2024-03-05T06:07:08.5Z")
        assert parsed is not None
        delta = datetime.datetime(2024, 3, 5, 6, 7, 8) - datetime.datetime(1, 1, 1)
        assert parsed[1] == (delta.days * 86_400 + delta.seconds) * 10**9 + 500_000_000

    def test_fraction_orders_by_instant_not_string(self) -> None:
        """INT-21: 05.5Z is newer than 05Z although '.' sorts before 'Z' as a string."""
        whole = parse_utc("2024-01-01T00:00:05Z")
        half = parse_utc("2024-01-01T00:00:05.5Z")
        assert whole is not None
        assert half is not None
        assert sort_key(half) < sort_key(whole) < sort_key_missing
