"""The executable alternatives that live in :mod:`conformance.readings` (issue 21), worked by hand
from the register's text, and the pinned reading each shared function keeps by default."""

from __future__ import annotations

from typing import Any

import pytest

from conformance.readings import (
    IntReading,
    RequestError,
    Whitespace,
    check_request,
    derive_terms,
    is_denied,
    normalize_text,
    parse_ts,
    read_line,
    strip_ws,
    supplied_terms,
    whitespace_table,
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


class TestWhitespace:
    """INT-05's alternatives[1] and [2]: "Python str.split() / str.strip() semantics." and
    "ECMAScript String.prototype.trim and /\\s+/." """

    @pytest.mark.parametrize(
        ("reading", "added", "removed"),
        [
            ("white-space", set(), set()),
            ("python", {"\x1c", "\x1d", "\x1e", "\x1f"}, set()),  # str.isspace()
            ("ecmascript", {"\ufeff"}, {"\x85"}),  # ZWNBSP is WhiteSpace; NEL is not
        ],
    )
    def test_tables(self, reading: Whitespace, added: set[str], removed: set[str]) -> None:
        """Each table differs from White_Space by exactly the code points its runtime adds or
        leaves out."""
        table = whitespace_table(reading)
        assert table - whitespace_table() == added
        assert whitespace_table() - table == removed

    @pytest.mark.parametrize(
        ("text", "reading", "normalized", "stripped"),
        [
            ("\x1cA\x1fB\x1c", "white-space", "\x1ca\x1fb\x1c", "\x1cA\x1fB\x1c"),
            ("\x1cA\x1fB\x1c", "python", "a b", "A\x1fB"),
            ("\ufeffA\x85B ", "white-space", "\ufeffa b", "\ufeffA\x85B"),
            ("\ufeffA\x85B ", "ecmascript", "a\x85b", "A\x85B"),
        ],
    )
    def test_one_table_everywhere(
        self, text: str, reading: Whitespace, normalized: str, stripped: str
    ) -> None:
        """The reading's table is the one used to collapse, lowercase-normalize and strip."""
        assert normalize_text(text, reading) == normalized
        assert strip_ws(text, reading) == stripped

    def test_query_trim(self) -> None:
        """A query of U+FEFF alone is empty after an ECMAScript trim, not after the pinned one."""
        request = REQUEST | {"query": "\ufeff"}
        assert check_request(request).query == "\ufeff"
        with pytest.raises(RequestError, match="query"):
            check_request(request, whitespace="ecmascript")


class TestTermLength:
    """INT-07/utf-16-units: "UTF-16 code units (JavaScript .length)."""

    @pytest.mark.parametrize(
        ("query", "pinned", "utf16"),
        [
            ("\U0001f600 ab", ["ab"], ["\U0001f600", "ab"]),  # one code point, two units
            ("\U00010400 x", [], ["\U00010428"]),  # Deseret: lowercased first, still non-BMP
            ("\u00e9 e\u0301", ["e\u0301"], ["e\u0301"]),  # BMP: units = code points
        ],
    )
    def test_derived_term_length(self, query: str, pinned: list[str], utf16: list[str]) -> None:
        """A non-BMP character alone is a term of length 2 in UTF-16 units, 1 in code points."""
        assert derive_terms(query) == pinned
        assert derive_terms(query, "utf-16-units") == utf16


class TestRecency:
    """INT-36's alternatives[0] and [1]: "Validate half-life only when recency is enabled." and
    "Ignore an invalid now_utc (disable recency)." """

    @pytest.mark.parametrize("enabled", [False, True])
    def test_half_life_when_enabled(self, enabled: bool) -> None:
        """A bad half-life is an error when recency is enabled, or always under the pinned
        reading; otherwise it is not looked at."""
        scoring = {"enable_recency_weight": enabled, "recency_half_life_days": 0}
        request = REQUEST | {"scoring": scoring}
        with pytest.raises(RequestError, match="recency_half_life_days"):
            check_request(request)
        if enabled:
            with pytest.raises(RequestError, match="recency_half_life_days"):
                check_request(request, recency="half-life-when-enabled")
        else:
            assert not check_request(request, recency="half-life-when-enabled").recency

    @pytest.mark.parametrize("now_utc", ["2024-13-01T00:00:00Z", "yesterday", 1718452800, None])
    def test_ignore_invalid_now(self, now_utc: object) -> None:
        """Whatever errors.md check 7 rejects as now_utc leaves the request without one."""
        request = REQUEST | {"now_utc": now_utc, "scoring": {"enable_recency_weight": True}}
        with pytest.raises(RequestError, match="now_utc"):
            check_request(request)
        assert check_request(request, recency="ignore-invalid-now").now is None


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
