"""Mutants of request validation, defaults and error reporting (INPUT CONTRACT, ERROR
HANDLING; INT-40..INT-42, specs/errors.md)."""

from __future__ import annotations

import itertools
import os
from typing import Any

from tools.mutants._registry import Reader, SourcePatch, Witness, Wrapper, mutant, patch

_GROUP_MEMBERS = {
    "budget": ("max_excerpt_tokens", "per_item_max_excerpt_tokens", "max_items"),
    "scoring": ("enable_recency_weight", "recency_half_life_days", "enable_tag_overlap",
                "query_terms"),
    "trust_filter": ("deny_classifications", "trust_snapshot_path"),
}  # fmt: skip
_TOP_LEVEL = ("query", "store_paths", "budget", "scoring", "trust_filter", "now_utc")


def _on_request(change: Any) -> Wrapper:
    """A wrapper that rewrites the request (when it is an object) before reading."""

    def wrap(read: Reader) -> Reader:
        def deviant(request: Any) -> dict[str, Any]:
            return read(change(dict(request)) if type(request) is dict else request)

        return deviant

    return wrap


def _on_error_message(suffix: Any) -> Wrapper:
    """A wrapper that appends ``suffix()`` to every error message."""

    def wrap(read: Reader) -> Reader:
        def deviant(request: Any) -> dict[str, Any]:
            result = read(request)
            if "error" in result:
                result["error"]["message"] += suffix()
            return result

        return deviant

    return wrap


@mutant("error-precedence-budget-first", clauses=("S6-ERR-01",), interpretations=("INT-40",))
def _() -> SourcePatch:
    """The budget is validated before query and store_paths (wrong error precedence)."""
    query = (
        '        "query": lambda: _query(request, normalize),  # INT-05: "non-empty after trim"\n'
    )
    paths = '        "store_paths": lambda: _store_paths(request),\n'
    budget = '        "budget": lambda: group("budget", checks=items),\n'
    return patch("_request.py", query + paths + budget, budget + query + paths)


@mutant(
    "integral-float-rejected",
    clauses=("S6-INPUT-03", "S6-INPUT-05"),
    interpretations=("INT-41",),
)
def _() -> SourcePatch:
    """An integral float such as 10.0 is rejected where an int is required."""
    return patch(
        "_request.py",
        "    if type(value) is float and value.is_integer():\n        value = int(value)\n",
        "",
    )


@mutant("bool-accepted-as-int", clauses=("S6-INPUT-03", "S6-ERR-04"), interpretations=("INT-41",))
def _() -> SourcePatch:
    """true and false are accepted as the integers 1 and 0 (Python's bool is an int)."""
    return patch(
        "_request.py",
        "    if type(value) is float and value.is_integer():\n",
        "    if type(value) is bool:\n        value = int(value)\n"
        "    if type(value) is float and value.is_integer():\n",
    )


@mutant("zero-budget-accepted", clauses=("S6-ERR-04", "S6-INPUT-03"))
def _() -> SourcePatch:
    """budget.max_excerpt_tokens = 0 is accepted (the check is >= 0, not > 0)."""
    return patch(
        "_request.py",
        '("max_excerpt_tokens", _positive_int, ...),',
        '("max_excerpt_tokens", lambda code, path, value: 0 if value == 0 and type(value) in '
        "(int, float) else _positive_int(code, path, value), ...),",
    )


@mutant("blank-query-accepted", clauses=("S6-ERR-02", "S6-INPUT-01"), interpretations=("INT-11",))
def _() -> SourcePatch:
    """A query that is empty only after trimming White_Space is accepted."""
    return patch(
        "_request.py",
        "    if not normalize(query):\n",
        "    if not query:\n",
    )


@mutant("request-null-as-absent", clauses=("S6-DET-01",), interpretations=("INT-42",))
def _() -> Wrapper:
    """An optional request member whose value is null is treated as absent (default applied)."""

    def change(request: dict[str, Any]) -> dict[str, Any]:
        request = {
            k: v
            for k, v in request.items()
            if v is not None or k in ("query", "store_paths", "budget")
        }
        for group in ("budget", "scoring", "trust_filter"):
            body = request.get(group)
            if type(body) is dict:
                request[group] = {
                    k: v for k, v in body.items() if v is not None or k == "max_excerpt_tokens"
                }
        return request

    return _on_request(change)


@mutant("unknown-members-ignored", clauses=("S6-DET-01", "S6-ERR-01"), interpretations=("INT-42",))
def _() -> Wrapper:
    """Request members the INPUT CONTRACT does not define are silently ignored."""

    def change(request: dict[str, Any]) -> dict[str, Any]:
        request = {k: v for k, v in request.items() if k in _TOP_LEVEL}
        for group, members in _GROUP_MEMBERS.items():
            body = request.get(group)
            if type(body) is dict:
                request[group] = {k: v for k, v in body.items() if k in members}
        return request

    return _on_request(change)


@mutant(
    "empty-query-terms-derive",
    clauses=("S6-INPUT-11",),
    interpretations=("INT-08",),
)
def _() -> Wrapper:
    """An empty scoring.query_terms list is treated as absent: terms are derived from the query."""

    def change(request: dict[str, Any]) -> dict[str, Any]:
        scoring = request.get("scoring")
        if type(scoring) is dict and scoring.get("query_terms") == []:
            request["scoring"] = {k: v for k, v in scoring.items() if k != "query_terms"}
        return request

    return _on_request(change)


@mutant("default-max-items-20", clauses=("S6-INPUT-05",), interpretations=("INT-30",))
def _() -> SourcePatch:
    """budget.max_items defaults to 20 instead of 50."""
    return patch(
        "_request.py", '("max_items", _positive_int, 50),', '("max_items", _positive_int, 20),'
    )


@mutant("default-deny-list-empty", clauses=("S6-INPUT-12",), interpretations=("INT-39",))
def _() -> SourcePatch:
    """trust_filter.deny_classifications defaults to [] instead of ["malicious"]."""
    return patch(
        "_request.py",
        '("deny_classifications", _string_list, ("malicious",)),',
        '("deny_classifications", _string_list, ()),',
    )


@mutant(
    "error-message-counter",
    clauses=("S6-ERR-07",),
    probes=("errors-repeat",),
)
def _() -> Wrapper:
    """Error messages carry a per-process call counter ("... (error #3)")."""
    counter = itertools.count(1)
    return _on_error_message(lambda: f" (error #{next(counter)})")


@mutant(
    "error-message-pid",
    clauses=("S6-ERR-07",),
    probes=("errors-repeat",),
)
def _() -> Wrapper:
    """Error messages name the process ID ("... [pid 4242]"): stable in a process, not across."""
    return _on_error_message(lambda: f" [pid {os.getpid()}]")


@mutant(
    "unknown-members-set-order",
    clauses=("S6-ERR-07", "S6-DET-04"),
    interpretations=("INT-40",),
    probes=("errors-repeat",),
)
def _() -> SourcePatch:
    """Of several unknown members, the first in set iteration order (hash seed) is reported."""
    return patch(
        "_request.py",
        "    return sorted(key for key in members if key not in known)",
        "    return list({key for key in members if key not in known})",
    )


@mutant(
    "env-config-max-items",
    clauses=("S6-DET-04", "S6-DET-01"),
    probes=("environment",),
    witness=Witness(env={"PHASE6_MAX_ITEMS": "1"}),
)
def _() -> Wrapper:
    """An absent budget.max_items defaults to $PHASE6_MAX_ITEMS when that variable is set."""

    def change(request: dict[str, Any]) -> dict[str, Any]:
        budget = request.get("budget")
        configured = os.environ.get("PHASE6_MAX_ITEMS")
        if configured and type(budget) is dict and "max_items" not in budget:
            request["budget"] = {**budget, "max_items": int(configured)}
        return request

    return _on_request(change)
