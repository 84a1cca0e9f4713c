"""Comparing an observed outcome with a vector's ``expect`` (specs/phase2/vectors-format.md,
"Calls and how results are compared").

The kit's one implementation of those rules: the harness judges every vector with
:func:`compare`, and the corpus builder (``tools/generate/phase2/build.py``) confirms hand
vectors and records generated ones with it and :func:`expect_from_observed`.

- :func:`compare` -> the differences, cause first (empty: the vector passes);
- :func:`expect_from_observed` -> the ``expect`` a generated vector records;
- :func:`normalize_state`, :func:`state_problem` -> a state dump made comparable, or why not.

An observed outcome comes from an implementation: nothing here assumes its shape. A state that
is not in the fixture format (``specs/schemas/phase2/fixture.schema.json``, ids unique per
table) is one difference, never an exception.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from conformance._kit import dumps
from conformance._schemas import schema_errors
from conformance.phase2._readings import PREVIEW_EVENT, TABLES

__all__ = [
    "ABSENT",
    "FIXTURE_SCHEMA",
    "MEMBER_ORDER",
    "Difference",
    "compare",
    "expect_from_observed",
    "first_difference",
    "no_write_differences",
    "normalize_state",
    "state_problem",
]

Json = Any
FIXTURE_SCHEMA: Final = "phase2/fixture.schema.json"
#: What a difference shows for a member or element one side does not have.
ABSENT: Final = "<absent>"
#: Members compared first, causes before consequences (as SPEC-006's comparison does): the
#: blocks of the context before the counts and the budget computed from them, a block's layer
#: and id before its text and tokens, the tables in dump order; other members after, sorted.
MEMBER_ORDER: Final = {
    name: rank
    for rank, name in enumerate(
        (
            "status", "body", "result", "error", "code", "param", "context", "layer", "id",
            "text", "tokens", "sources", "budget", "requested", "applied", "estimated_used",
            "state", *TABLES,
        )
    )
}  # fmt: skip
_SHORT = 160


@dataclass(frozen=True)
class Difference:
    """One way the observed outcome differs from the expectation."""

    path: str  # a JSON Pointer into the observed outcome ("/length" suffix: an array's length)
    expected: Json
    actual: Json
    rule: str  # what was compared, for the report

    def __str__(self) -> str:
        return (
            f"{self.path or '/'}: expected {_short(self.expected)}, "
            f"got {_short(self.actual)} ({self.rule})"
        )


def _short(value: Json) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= _SHORT else text[: _SHORT - 3] + "..."


def _canonical(value: Json) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


#: state_problem's answers by the state's JSON bytes: a certification checks the same states
#: many times (every property reads the outcomes of the vectors and of the examples).
_CHECKED: dict[bytes, str | None] = {}
_CHECKED_MOST = 4096


def state_problem(state: Json) -> str | None:
    """Why ``state`` is not a state in the fixture format (``None``: it is one)."""
    try:
        key: bytes | None = dumps(state)
    except (TypeError, ValueError):
        key = None
    if key is not None and key in _CHECKED:
        return _CHECKED[key]
    problem = _state_problem(state)
    if key is not None:
        if len(_CHECKED) >= _CHECKED_MOST:
            _CHECKED.clear()
        _CHECKED[key] = problem
    return problem


def _state_problem(state: Json) -> str | None:
    problems = schema_errors(FIXTURE_SCHEMA, state, limit=1)
    if problems:
        pointer, message = problems[0]
        return f"not in the fixture format at {pointer or '/'}: {message}"
    for table in TABLES:
        ids = [row["id"] for row in state.get(table, [])]
        if len(ids) != len(set(ids)):
            return f"{table} holds an id twice"
    return None


def normalize_state(state: Mapping[str, Json]) -> dict[str, list[Json]]:
    """Every table present, rows by id (how a fixture compares with a dump); ``state`` must be
    in the fixture format (:func:`state_problem`)."""
    return {
        table: sorted(copy.deepcopy(list(state.get(table, []))), key=lambda row: row["id"])
        for table in TABLES
    }


def first_difference(expected: Json, actual: Json, path: str = "") -> tuple[str, Json, Json] | None:
    """The first place two JSON values differ: objects by member (:data:`MEMBER_ORDER`, then
    sorted), arrays by index; numbers must have the same JSON type (1 is not 1.0, true is not
    1)."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        keys = sorted(set(expected) | set(actual), key=lambda k: (MEMBER_ORDER.get(k, 99), k))
        for key in keys:
            where = f"{path}/{key}"
            if key not in actual:
                return where, expected[key], ABSENT
            if key not in expected:
                return where, ABSENT, actual[key]
            found = first_difference(expected[key], actual[key], where)
            if found:
                return found
        return None
    if isinstance(expected, list) and isinstance(actual, list):
        for index, (left, right) in enumerate(zip(expected, actual, strict=False)):
            found = first_difference(left, right, f"{path}/{index}")
            if found:
                return found
        if len(expected) != len(actual):
            return f"{path}/length", len(expected), len(actual)
        return None
    if _canonical(expected) != _canonical(actual):
        return path, expected, actual
    return None


def _error_differences(expected: Json, actual: Json, path: str) -> list[Difference]:
    error = actual.get("error") if isinstance(actual, dict) else None
    if not isinstance(error, dict):
        return [Difference(path, expected, actual, "an error object {error: {code, param}}")]
    return [
        Difference(
            f"{path}/error/{member}",
            expected["error"][member],
            error.get(member, ABSENT),
            f"error {member}",
        )
        for member in ("code", "param")
        if error.get(member, ABSENT) != expected["error"][member]
    ]


def no_write_differences(before: Mapping[str, Json], state: Json) -> list[Difference]:
    """P2-INT-20: the state after a context call is ``before`` (the fixture, or a dump taken
    before the call), plus at most one memory_context_previewed event with a new id."""
    problem = state_problem(state)
    if problem is not None:
        return [Difference("/state", "a state in the fixture format", problem, "state shape")]
    baseline, after = normalize_state(before), normalize_state(state)
    events = after["event_log"]
    known = {row["id"] for row in baseline["event_log"]}
    extra = [row for row in events if row["id"] not in known]
    if len(extra) == 1 and extra[0]["event_type"] == PREVIEW_EVENT:
        after["event_log"] = [row for row in events if row["id"] in known]
    found = first_difference(baseline, after, "/state")
    if found is None:
        return []
    return [Difference(*found, "no writes beyond one memory_context_previewed event (P2-API-10)")]


def _summary_shape(state: Json, summary_id: Json) -> tuple[Json, list[tuple[str, Json]]]:
    """Drop summary_text and facts_json from the created row after checking their shape."""
    actual = copy.deepcopy(state)
    problems = []
    for row in actual.get("memory_summaries", []):
        if row.get("id") == summary_id:
            text, facts = row.pop("summary_text", None), row.pop("facts_json", None)
            if not isinstance(text, str) or text == "":
                problems.append(("summary_text", text))
            if not isinstance(facts, list | dict):
                problems.append(("facts_json", facts))
    return actual, problems


def compare(
    fixture: Mapping[str, Json],
    call: Mapping[str, Json],
    expect: Mapping[str, Json],
    observed: Json,
) -> list[Difference]:
    """Every difference between ``observed`` and ``expect`` by the rules of the call's op,
    the cause first: status, body (or the job result), then the state."""
    if not isinstance(observed, dict):
        return [Difference("", "an observed outcome object", observed, "outcome shape")]
    if call["op"] == "context":
        if set(observed) != {"status", "body", "state"}:
            return [Difference("", "{status, body, state}", sorted(observed), "outcome shape")]
        out = []
        if observed["status"] != expect["status"]:
            out.append(Difference("/status", expect["status"], observed["status"], "HTTP status"))
        if expect["status"] == 200:
            found = first_difference(expect["body"], observed["body"], "/body")
            if found:
                out.append(Difference(*found, "the envelope, exactly"))
        else:
            out.extend(_error_differences(expect["body"], observed["body"], "/body"))
        out.extend(no_write_differences(fixture, observed["state"]))
        return out
    if set(observed) != {"result", "state"}:
        return [Difference("", "{result, state}", sorted(observed), "outcome shape")]
    out = []
    result, expected_result = observed["result"], expect["result"]
    if isinstance(expected_result, dict) and "error" in expected_result:
        out.extend(_error_differences(expected_result, result, "/result"))
    else:
        found = first_difference(expected_result, result, "/result")
        if found:
            out.append(Difference(*found, "the job result, exactly"))
    state = observed["state"]
    problem = state_problem(state)
    if problem is not None:
        out.append(Difference("/state", "a state in the fixture format", problem, "state shape"))
        return out
    if call["op"] == "summarize" and isinstance(expected_result, dict):
        state, problems = _summary_shape(state, expected_result.get("summary_id"))
        for member, value in problems:
            rule = "non-empty string" if member == "summary_text" else "array or object"
            out.append(Difference(f"/state/memory_summaries/{member}", rule, value, "P2-INT-25"))
    found = first_difference(expect["state"], normalize_state(state), "/state")
    if found:
        out.append(Difference(*found, "the state after the job, exactly"))
    return out


def _strip_error(value: Json) -> Json:
    if isinstance(value, dict) and isinstance(value.get("error"), dict):
        return {"error": {"code": value["error"].get("code"), "param": value["error"].get("param")}}
    return value


def expect_from_observed(call: Mapping[str, Json], observed: Mapping[str, Json]) -> dict[str, Json]:
    """The ``expect`` a vector records for an outcome (errors without message; no state for a
    context call; the created summary row without summary_text and facts_json)."""
    if call["op"] == "context":
        return {"status": observed["status"], "body": _strip_error(observed["body"])}
    result = _strip_error(observed["result"])
    state = normalize_state(observed["state"])
    if call["op"] == "summarize" and isinstance(result, dict) and result.get("summary_id"):
        for row in state["memory_summaries"]:
            if row["id"] == result["summary_id"]:
                row.pop("summary_text")
                row.pop("facts_json")
    return {"result": result, "state": state}
