"""Request validation: defaults, strict types and error precedence (INT-40..INT-42)."""

from __future__ import annotations

from typing import Any

import pytest
from paths import REPO

from reference import ERROR_CODES, InvalidRequestError, validate_request

VALID: dict[str, Any] = {
    "query": "q",
    "store_paths": ["s.jsonl"],
    "budget": {"max_excerpt_tokens": 10},
}


def _error(request: Any) -> tuple[str, str]:
    with pytest.raises(InvalidRequestError) as info:
        validate_request(request)
    return info.value.code, info.value.path


class TestDefaults:
    """S6-DET-01: missing optional fields are the documented defaults."""

    def test_defaults(self) -> None:
        """S6-INPUT-04..12: every default of the INPUT CONTRACT."""
        request = validate_request(VALID)
        assert request.per_item_max_excerpt_tokens == 10  # S6-INPUT-04
        assert request.max_items == 50  # S6-INPUT-05
        assert request.enable_recency_weight is False  # S6-INPUT-07
        assert request.recency_half_life_days == 30  # S6-INPUT-08
        assert request.enable_tag_overlap is True  # S6-INPUT-10
        assert request.query_terms is None  # S6-INPUT-11
        assert request.deny_classifications == ("malicious",)  # S6-INPUT-12
        assert request.trust_snapshot_path is None
        assert request.now_utc is None

    def test_integral_float_is_an_int(self) -> None:
        """INT-41: 10.0 is the integer 10 (JSON has one number type)."""
        assert (
            validate_request({**VALID, "budget": {"max_excerpt_tokens": 10.0}}).max_excerpt_tokens
            == 10
        )


class TestErrors:
    """Each error code with its JSON Pointer path (specs/errors.md)."""

    @pytest.mark.parametrize(
        ("request_", "code", "path"),
        [
            ([], "invalid_request", ""),
            ({**VALID, "extra": 1}, "invalid_request", "/extra"),
            ({**VALID, "a/b": 1}, "invalid_request", "/a~1b"),
            (
                {"store_paths": ["s"], "budget": {"max_excerpt_tokens": 1}},
                "invalid_query",
                "/query",
            ),
            ({**VALID, "query": " \u3000\n"}, "invalid_query", "/query"),
            ({**VALID, "query": 5}, "invalid_query", "/query"),
            ({**VALID, "store_paths": []}, "invalid_store_paths", "/store_paths"),
            ({**VALID, "store_paths": "s"}, "invalid_store_paths", "/store_paths"),
            ({**VALID, "store_paths": ["a", ""]}, "invalid_store_paths", "/store_paths/1"),
            ({**VALID, "budget": None}, "invalid_budget", "/budget"),
            ({"query": "q", "store_paths": ["s"]}, "invalid_budget", "/budget"),
            ({**VALID, "budget": {}}, "invalid_budget", "/budget/max_excerpt_tokens"),
            (
                {**VALID, "budget": {"max_excerpt_tokens": 0}},
                "invalid_budget",
                "/budget/max_excerpt_tokens",
            ),
            (
                {**VALID, "budget": {"max_excerpt_tokens": True}},
                "invalid_budget",
                "/budget/max_excerpt_tokens",
            ),
            (
                {**VALID, "budget": {"max_excerpt_tokens": "10"}},
                "invalid_budget",
                "/budget/max_excerpt_tokens",
            ),
            (
                {**VALID, "budget": {"max_excerpt_tokens": 1.5}},
                "invalid_budget",
                "/budget/max_excerpt_tokens",
            ),
            (
                {**VALID, "budget": {"max_excerpt_tokens": 2**53}},
                "invalid_budget",
                "/budget/max_excerpt_tokens",
            ),
            (
                {**VALID, "budget": {"max_excerpt_tokens": 5, "max_items": 0}},
                "invalid_budget",
                "/budget/max_items",
            ),
            (
                {**VALID, "budget": {"max_excerpt_tokens": 5, "per_item_max_excerpt_tokens": -1}},
                "invalid_budget",
                "/budget/per_item_max_excerpt_tokens",
            ),
            (
                {**VALID, "budget": {"max_excerpt_tokens": 5, "max_item": 3}},
                "invalid_budget",
                "/budget/max_item",
            ),
            (
                {**VALID, "scoring": {"recency_half_life_days": 0}},
                "invalid_scoring",
                "/scoring/recency_half_life_days",
            ),
            (
                {**VALID, "scoring": {"enable_tag_overlap": 1}},
                "invalid_scoring",
                "/scoring/enable_tag_overlap",
            ),
            (
                {**VALID, "scoring": {"query_terms": ["a", 2]}},
                "invalid_scoring",
                "/scoring/query_terms/1",
            ),
            (
                {**VALID, "scoring": {"query_terms": None}},
                "invalid_scoring",
                "/scoring/query_terms",
            ),
            (
                {**VALID, "trust_filter": {"deny_classifications": "malicious"}},
                "invalid_trust_filter",
                "/trust_filter/deny_classifications",
            ),
            (
                {**VALID, "trust_filter": {"trust_snapshot_path": ""}},
                "invalid_trust_filter",
                "/trust_filter/trust_snapshot_path",
            ),
            ({**VALID, "now_utc": "2024-01-01T00:00:00+02:00"}, "invalid_now_utc", "/now_utc"),
            ({**VALID, "now_utc": 1700000000}, "invalid_now_utc", "/now_utc"),
        ],
    )
    def test_error(self, request_: Any, code: str, path: str) -> None:
        """S6-ERR-01..04, INT-40..42: the code and the JSON Pointer of the first failure."""
        assert _error(request_) == (code, path)

    @pytest.mark.parametrize(
        ("request_", "code"),
        [
            (
                {"query": "", "store_paths": [], "budget": {"max_excerpt_tokens": 0}},
                "invalid_query",
            ),
            (
                {"query": "q", "store_paths": [], "budget": {"max_excerpt_tokens": 0}},
                "invalid_store_paths",
            ),
            (
                {**VALID, "budget": {"max_excerpt_tokens": 0}, "scoring": 1, "zzz": 0},
                "invalid_budget",
            ),
            ({**VALID, "now_utc": "x", "zzz": 0}, "invalid_now_utc"),
            (
                {**VALID, "budget": {"max_excerpt_tokens": 1, "zz": 1, "max_items": 0}},
                "invalid_budget",
            ),
        ],
    )
    def test_precedence(self, request_: Any, code: str) -> None:
        """INT-40: with several faults the first check in the fixed order wins."""
        assert _error(request_)[0] == code

    def test_unknown_member_checked_after_known_ones(self) -> None:
        """INT-40: inside a group the spec's members are checked before unknown members."""
        request = {**VALID, "budget": {"max_excerpt_tokens": 1, "zz": 1, "max_items": 0}}
        assert _error(request) == ("invalid_budget", "/budget/max_items")

    def test_same_error_twice(self) -> None:
        """S6-ERR-07: the same invalid input gives the same code and message."""
        request = {**VALID, "budget": {"max_excerpt_tokens": -3}}
        with pytest.raises(InvalidRequestError) as first:
            validate_request(request)
        with pytest.raises(InvalidRequestError) as second:
            validate_request(request)
        assert first.value.to_json() == second.value.to_json()

    def test_codes_match_schema(self) -> None:
        """INT-40: the closed set of codes equals the error schema's enum."""
        import json

        schema = json.loads((REPO / "specs/schemas/error.schema.json").read_text())
        assert set(schema["properties"]["code"]["enum"]) == set(ERROR_CODES)
