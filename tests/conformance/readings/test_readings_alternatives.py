"""The executable alternatives that live in :mod:`conformance.readings` (issue 21), worked by hand
from the register's text, and the pinned reading each shared function keeps by default."""

from __future__ import annotations

from typing import Any

import pytest

from conformance.readings import (
    IntReading,
    RequestError,
    check_request,
    is_denied,
    parse_ts,
    read_line,
    supplied_terms,
)

REQUEST: dict[str, Any] = {
    "query": "q",
    "store_paths": ["s.jsonl"],
    "budget": {"max_excerpt_tokens": 10},
}

BOTH_KEYS = {"memory_id": "m", "record_hash": "h", "classification": "malicious"}


class TestTimestamps:
    """INT-20/case-and-minus-zero: "Accept what RFC 3339 section 5.6 allows for UTC beyond the
    profile, and nothing more: a lower-case 't' and 'z', and the offset '-00:00' (normalized as
    INT-21 says)."""

    @pytest.mark.parametrize(
        ("value", "normalized"),
        [
            ("2024-01-02t03:04:05Z", "2024-01-02T03:04:05Z"),
            ("2024-01-02T03:04:05z", "2024-01-02T03:04:05Z"),
            ("2024-01-02T03:04:05-00:00", "2024-01-02T03:04:05Z"),
            ("2024-01-02t03:04:05.120-00:00", "2024-01-02T03:04:05.12Z"),
            ("2024-01-02t03:04:05+00:00", "2024-01-02T03:04:05Z"),
        ],
    )
    def test_lenient_forms(self, value: str, normalized: str) -> None:
        """The alternative accepts the form and normalizes it; the pinned profile rejects it."""
        assert parse_ts(value) is None
        parsed, pinned = parse_ts(value, "case-and-minus-zero"), parse_ts(normalized)
        assert parsed is not None
        assert pinned is not None
        assert parsed == (*pinned[:2], normalized)

    @pytest.mark.parametrize(
        "value",
        [
            "2024-01-02 03:04:05Z",
            "2024-01-02T03:04:05-01:00",
            "2024-01-02T03:04:60z",
            "2024-01-02T03:04:05.1234567890z",
            "2024-01-02t03:04:05",
            "2024-02-30t03:04:05z",
        ],
    )
    def test_nothing_more(self, value: str) -> None:
        """Every other form stays invalid under the alternative too ('and nothing more')."""
        assert parse_ts(value, "case-and-minus-zero") is None

    def test_record_and_now_utc_take_the_grammar(self) -> None:
        """A record's ts_utc and a request's now_utc are read with the grammar they are given."""
        line = b'{"memory_id":"m","text":"t","ts_utc":"2024-01-02t03:04:05z"}'
        assert "ts_utc" not in read_line(line)
        assert read_line(line, "case-and-minus-zero")["ts_utc"] == "2024-01-02T03:04:05Z"
        request = REQUEST | {"now_utc": "2024-01-02T03:04:05-00:00"}
        with pytest.raises(RequestError, match="now_utc"):
            check_request(request)
        assert check_request(request, ts_grammar="case-and-minus-zero").now is not None


class TestIntegers:
    """INT-41/written-integer: "Reject any number written with a fraction or exponent."""

    @pytest.mark.parametrize(
        ("budget", "ints", "max_items"),
        [
            ({"max_items": 2.0}, "integral", 2),
            ({"max_items": 2}, "written-integer", 2),
            ({"max_items": 2.0}, "written-integer", None),
            ({"max_items": 1e1}, "written-integer", None),
        ],
    )
    def test_written_integers(
        self, budget: dict[str, Any], ints: IntReading, max_items: int | None
    ) -> None:
        """10.0 and 1e1 (parsed as floats) are ints only under the pinned reading."""
        request = REQUEST | {"budget": {"max_excerpt_tokens": 10} | budget}
        if max_items is None:
            with pytest.raises(RequestError) as raised:
                check_request(request, ints=ints)
            assert (raised.value.code, raised.value.path) == ("invalid_budget", "/budget/max_items")
        else:
            assert check_request(request, ints=ints).max_items == max_items

    def test_half_life_too(self) -> None:
        """The scoring half-life is a request int like the budget's."""
        request = REQUEST | {"scoring": {"recency_half_life_days": 3.0}}
        assert check_request(request).half_life == 3
        with pytest.raises(RequestError, match="recency_half_life_days"):
            check_request(request, ints="written-integer")


class TestTerms:
    """INT-08/verbatim: "Use supplied terms verbatim."""

    @pytest.mark.parametrize(
        ("terms", "pinned", "verbatim"),
        [
            (["Alpha", " alpha ", "alpha"], ["alpha"], ["Alpha", " alpha ", "alpha"]),
            (["", "a  b", "a  b"], ["a b"], ["", "a  b"]),
        ],
    )
    def test_verbatim(self, terms: list[str], pinned: list[str], verbatim: list[str]) -> None:
        """Verbatim terms are neither normalized nor emptied out; only exact duplicates go."""
        assert supplied_terms(terms) == pinned
        assert supplied_terms(terms, "verbatim") == verbatim


class TestTrustMatch:
    """INT-39/both-keys: "An entry naming both keys matches only a candidate equal on both."""

    @pytest.mark.parametrize(
        ("candidate", "either", "both"),
        [
            ({"memory_id": "m", "record_hash": "h"}, True, True),
            ({"memory_id": "m", "record_hash": "other"}, True, False),
            ({"memory_id": "other", "record_hash": "h"}, True, False),
            ({"memory_id": "other", "record_hash": "other"}, False, False),
        ],
    )
    def test_both_keys(self, candidate: dict[str, str], either: bool, both: bool) -> None:
        """An entry naming both keys denies on either key (pinned) or only on both."""
        assert is_denied(candidate, [BOTH_KEYS], ["malicious"]) is either
        assert is_denied(candidate, [BOTH_KEYS], ["malicious"], "both") is both

    def test_one_key_entries_unchanged(self) -> None:
        """An entry naming one key matches on that key under either reading."""
        entries = [{"record_hash": "h", "classification": "malicious"}]
        candidate = {"memory_id": "x", "record_hash": "h"}
        assert is_denied(candidate, entries, ["malicious"], "both")
