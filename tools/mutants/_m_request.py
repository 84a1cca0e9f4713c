"""Mutants of request validation, defaults and error reporting (INPUT CONTRACT, ERROR
HANDLING; INT-40..INT-42, specs/errors.md)."""

from __future__ import annotations

import dataclasses
import itertools
import os
from typing import Any

from tools.mutants._patch import replace, shadow_builtin, wrap
from tools.mutants._registry import Witness, mutant

_GROUP_MEMBERS = {
    "budget": ("max_excerpt_tokens", "per_item_max_excerpt_tokens", "max_items"),
    "scoring": ("enable_recency_weight", "recency_half_life_days", "enable_tag_overlap",
                "query_terms"),
    "trust_filter": ("deny_classifications", "trust_snapshot_path"),
}  # fmt: skip
_TOP_LEVEL = ("query", "store_paths", "budget", "scoring", "trust_filter", "now_utc")


def _set_check(group: str, member: str, check: Any) -> None:
    """Swap the check function of one member in the reference's validation table."""
    from reference import _request

    code, members = _request._GROUPS[group]
    rows = tuple((m, check if m == member else c, d) for m, c, d in members)
    if rows == members:  # pragma: no cover - the member vanished from the table
        raise AttributeError(f"no member {member!r} in group {group!r}")
    _request._GROUPS[group] = (code, rows)


def _set_default(group: str, member: str, default: Any) -> None:
    from reference import _request

    code, members = _request._GROUPS[group]
    rows = tuple((m, c, default if m == member else d) for m, c, d in members)
    _request._GROUPS[group] = (code, rows)


@mutant("error-precedence-budget-first", clauses=("S6-ERR-01",), interpretations=("INT-40",))
def _() -> None:
    """The budget is validated before query and store_paths (wrong error precedence)."""
    from reference import _controller, _request

    def make(original: Any) -> Any:
        def validate(request: Any) -> Any:
            if type(request) is dict:
                _request._group(request, "budget")
            return original(request)

        return validate

    wrap(_controller, "validate_request", make)


@mutant(
    "integral-float-rejected",
    clauses=("S6-INPUT-03", "S6-INPUT-05"),
    interpretations=("INT-41",),
)
def _() -> None:
    """An integral float such as 10.0 is rejected where an int is required."""
    from reference._errors import InvalidRequestError

    def strict(code: str, path: str, value: Any) -> int:
        if type(value) is not int or not 1 <= value <= 2**53 - 1:
            raise InvalidRequestError(code, path, f"{path}: must be an integer")
        return value

    for member in _GROUP_MEMBERS["budget"]:
        _set_check("budget", member, strict)
    _set_check("scoring", "recency_half_life_days", strict)


@mutant("bool-accepted-as-int", clauses=("S6-INPUT-03", "S6-ERR-04"), interpretations=("INT-41",))
def _() -> None:
    """true and false are accepted as the integers 1 and 0 (Python's bool is an int)."""
    from reference import _request

    original = _request._positive_int

    def lenient(code: str, path: str, value: Any) -> int:
        return int(original(code, path, int(value) if type(value) is bool else value))

    for member in _GROUP_MEMBERS["budget"]:
        _set_check("budget", member, lenient)


@mutant("zero-budget-accepted", clauses=("S6-ERR-04", "S6-INPUT-03"))
def _() -> None:
    """budget.max_excerpt_tokens = 0 is accepted (the check is >= 0, not > 0)."""
    from reference import _request

    original = _request._positive_int

    def non_negative(code: str, path: str, value: Any) -> int:
        if value == 0 and type(value) in (int, float):
            return 0
        return int(original(code, path, value))

    _set_check("budget", "max_excerpt_tokens", non_negative)


@mutant("blank-query-accepted", clauses=("S6-ERR-02", "S6-INPUT-01"), interpretations=("INT-11",))
def _() -> None:
    """A query that is empty only after trimming White_Space is accepted."""
    from reference import _request
    from reference._errors import InvalidRequestError

    def query(request: Any) -> str:
        value = request.get("query")
        if type(value) is not str or not value:
            raise InvalidRequestError(
                "invalid_query", "/query", "/query: must be a non-empty string"
            )
        return str(_request._unicode("invalid_query", "/query", value))

    replace(_request, "_query", query)


@mutant("request-null-as-absent", clauses=("S6-DET-01",), interpretations=("INT-42",))
def _() -> None:
    """An optional request member whose value is null is treated as absent (default applied)."""
    from reference import _controller

    def make(original: Any) -> Any:
        def validate(request: Any) -> Any:
            if type(request) is dict:
                request = {
                    k: v
                    for k, v in request.items()
                    if v is not None or k in ("query", "store_paths", "budget")
                }
                for group in ("budget", "scoring", "trust_filter"):
                    body = request.get(group)
                    if type(body) is dict:
                        request[group] = {
                            k: v
                            for k, v in body.items()
                            if v is not None or k == "max_excerpt_tokens"
                        }
            return original(request)

        return validate

    wrap(_controller, "validate_request", make)


@mutant("unknown-members-ignored", clauses=("S6-DET-01", "S6-ERR-01"), interpretations=("INT-42",))
def _() -> None:
    """Request members the INPUT CONTRACT does not define are silently ignored."""
    from reference import _controller

    def make(original: Any) -> Any:
        def validate(request: Any) -> Any:
            if type(request) is dict:
                request = {k: v for k, v in request.items() if k in _TOP_LEVEL}
                for group, members in _GROUP_MEMBERS.items():
                    body = request.get(group)
                    if type(body) is dict:
                        request[group] = {k: v for k, v in body.items() if k in members}
            return original(request)

        return validate

    wrap(_controller, "validate_request", make)


@mutant(
    "empty-query-terms-derive",
    clauses=("S6-INPUT-11",),
    interpretations=("INT-08",),
)
def _() -> None:
    """An empty scoring.query_terms list is treated as absent: terms are derived from the query."""
    from reference import _controller

    def make(original: Any) -> Any:
        def validate(request: Any) -> Any:
            validated = original(request)
            if validated.query_terms == ():
                validated = dataclasses.replace(validated, query_terms=None)
            return validated

        return validate

    wrap(_controller, "validate_request", make)


@mutant("default-max-items-20", clauses=("S6-INPUT-05",), interpretations=("INT-30",))
def _() -> None:
    """budget.max_items defaults to 20 instead of 50."""
    _set_default("budget", "max_items", 20)


@mutant("default-deny-list-empty", clauses=("S6-INPUT-12",), interpretations=("INT-39",))
def _() -> None:
    """trust_filter.deny_classifications defaults to [] instead of ["malicious"]."""
    _set_default("trust_filter", "deny_classifications", ())


@mutant(
    "error-message-counter",
    clauses=("S6-ERR-07",),
    probes=("errors-repeat",),
)
def _() -> None:
    """Error messages carry a per-process call counter ("... (error #3)")."""
    from reference._errors import MemoryReadError

    counter = itertools.count(1)

    def make(original: Any) -> Any:
        def to_json(self: Any) -> dict[str, str]:
            body: dict[str, str] = original(self)
            body["message"] += f" (error #{next(counter)})"
            return body

        return to_json

    wrap(MemoryReadError, "to_json", make)


@mutant(
    "error-message-pid",
    clauses=("S6-ERR-07",),
    probes=("errors-repeat",),
)
def _() -> None:
    """Error messages name the process ID ("... [pid 4242]"): stable in a process, not across."""
    from reference._errors import MemoryReadError

    def make(original: Any) -> Any:
        def to_json(self: Any) -> dict[str, str]:
            body: dict[str, str] = original(self)
            body["message"] += f" [pid {os.getpid()}]"
            return body

        return to_json

    wrap(MemoryReadError, "to_json", make)


@mutant(
    "unknown-members-set-order",
    clauses=("S6-ERR-07", "S6-DET-04"),
    interpretations=("INT-40",),
    probes=("errors-repeat",),
)
def _() -> None:
    """Of several unknown members, the first in set iteration order (hash seed) is reported."""
    from reference import _request

    shadow_builtin(_request, "sorted", lambda items: list(set(items)))


@mutant(
    "env-config-max-items",
    clauses=("S6-DET-04", "S6-DET-01"),
    probes=("environment",),
    witness=Witness(env={"PHASE6_MAX_ITEMS": "1"}),
)
def _() -> None:
    """An absent budget.max_items defaults to $PHASE6_MAX_ITEMS when that variable is set."""
    from reference import _controller

    def make(original: Any) -> Any:
        def validate(request: Any) -> Any:
            validated = original(request)
            budget = request.get("budget") if type(request) is dict else None
            configured = os.environ.get("PHASE6_MAX_ITEMS")
            if configured and type(budget) is dict and "max_items" not in budget:
                validated = dataclasses.replace(validated, max_items=int(configured))
            return validated

        return validate

    wrap(_controller, "validate_request", make)
