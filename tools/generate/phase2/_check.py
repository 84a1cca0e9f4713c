"""Comparing an observed outcome with a vector's ``expect``, and the profile's invariants.

The rules are specs/phase2/vectors-format.md ("Calls and how results are compared") and the
``[[property]]`` table of specs/phase2/clauses.toml. This module is the kit's one
implementation of them: the builder, the tests and (once wired) the harness use it. It imports
nothing from ``reference``.

- :func:`compare` -> the differences (empty: the vector passes);
- :func:`expect_from_observed` -> the ``expect`` a generated vector records;
- :func:`property_failures` -> the single-call invariants broken by one outcome;
- :func:`trim_order_failure` -> the two-call trimming-order invariant.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

__all__ = [
    "POLICY_SNIPPET",
    "PREVIEW_EVENT",
    "TABLES",
    "Difference",
    "compare",
    "estimate",
    "expect_from_observed",
    "normalize_state",
    "property_failures",
    "trim_order_failure",
]

Json = Any
TABLES: Final = ("memory_summaries", "event_log", "inbox_items", "entities", "entity_links")
PREVIEW_EVENT: Final = "memory_context_previewed"  # P2-INT-20
POLICY_SNIPPET: Final = (  # P2-INT-04
    "Memory policy: answer from the context below; prefer the most recent facts."
)
_WHITE_SPACE: Final = frozenset(  # P2-INT-02
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)
_LAYER_RANK: Final = {"policy": 0, "summary": 1, "hot_turn": 2, "entity": 3, "query": 4}


@dataclass(frozen=True)
class Difference:
    """One way the observed outcome differs from the expectation."""

    path: str  # a JSON Pointer into the observed outcome
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
    return text if len(text) <= 160 else text[:157] + "..."


def _canonical(value: Json) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def estimate(text: str) -> int:
    """P2-INT-01, for the invariant checks: max(words, ceil(code points / 4))."""
    words, in_word = 0, False
    for char in text:
        if char in _WHITE_SPACE:
            in_word = False
        elif not in_word:
            words, in_word = words + 1, True
    return max(words, -(-len(text) // 4))


def normalize_state(state: Mapping[str, Json]) -> dict[str, list[Json]]:
    """Every table present, rows by id (how a fixture compares with a dump)."""
    return {
        table: sorted(copy.deepcopy(list(state.get(table, []))), key=lambda row: row["id"])
        for table in TABLES
    }


def first_difference(expected: Json, actual: Json, path: str = "") -> tuple[str, Json, Json] | None:
    """The first place two JSON values differ: objects by member, arrays by index; numbers
    must have the same JSON type (1 is not 1.0, true is not 1)."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key in sorted(set(expected) | set(actual)):
            where = f"{path}/{key}"
            if key not in actual:
                return where, expected[key], "<absent>"
            if key not in expected:
                return where, "<absent>", actual[key]
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
            error.get(member, "<absent>"),
            f"error {member}",
        )
        for member in ("code", "param")
        if error.get(member, "<absent>") != expected["error"][member]
    ]


def _no_write_differences(fixture: Mapping[str, Json], state: Json) -> list[Difference]:
    """P2-INT-20: the state after a context call is the fixture, plus at most one
    memory_context_previewed event with a new id."""
    if not isinstance(state, dict):
        return [Difference("/state", "a state object", state, "state after the call")]
    before, after = normalize_state(fixture), normalize_state(state)
    events = after["event_log"]
    known = {row["id"] for row in before["event_log"]}
    extra = [row for row in events if row.get("id") not in known]
    if len(extra) == 1 and extra[0].get("event_type") == PREVIEW_EVENT:
        after["event_log"] = [row for row in events if row.get("id") in known]
    found = first_difference(before, after, "/state")
    if found is None:
        return []
    return [Difference(*found, "no writes beyond one memory_context_previewed event (P2-API-10)")]


def _summary_shape(expected_state: Json, state: Json, summary_id: Json) -> tuple[Json, Json]:
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
    """Every difference between ``observed`` and ``expect`` by the rules of the call's op."""
    if not isinstance(observed, dict):
        return [Difference("", "an observed outcome object", observed, "outcome shape")]
    if call["op"] == "context":
        if "status" not in observed or "body" not in observed or "state" not in observed:
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
        out.extend(_no_write_differences(fixture, observed["state"]))
        return out
    if "result" not in observed or "state" not in observed:
        return [Difference("", "{result, state}", sorted(observed), "outcome shape")]
    out = []
    result, expected_result = observed["result"], expect["result"]
    if isinstance(expected_result, dict) and "error" in expected_result:
        out.extend(_error_differences(expected_result, result, "/result"))
    else:
        found = first_difference(expected_result, result, "/result")
        if found:
            out.append(Difference(*found, "the job result, exactly"))
    state = observed["state"] if isinstance(observed["state"], dict) else {}
    if call["op"] == "summarize" and isinstance(expected_result, dict):
        state, problems = _summary_shape(expect["state"], state, expected_result.get("summary_id"))
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


# ------------------------------------------------------------------------ properties


def _blocks(observed: Json) -> list[Json] | None:
    if not isinstance(observed, dict) or observed.get("status") != 200:
        return None
    body = observed.get("body")
    if not isinstance(body, dict) or not isinstance(body.get("context"), list):
        return None
    return list(body["context"])


def property_failures(
    fixture: Mapping[str, Json], call: Mapping[str, Json], observed: Json
) -> list[tuple[str, str]]:
    """(property name, what broke) for every single-call invariant ``observed`` breaks."""
    failures: list[tuple[str, str]] = []
    if call["op"] != "context":
        return failures
    if isinstance(observed, dict) and _no_write_differences(fixture, observed.get("state")):
        failures.append(("no-writes", str(_no_write_differences(fixture, observed["state"])[0])))
    blocks = _blocks(observed)
    if blocks is None:
        return failures
    body = observed["body"]
    query = [value for name, value in call["params"] if name == "query"]
    layers = [block.get("layer") for block in blocks]
    # policy-query-present
    if not blocks or blocks[0] != {
        "layer": "policy",
        "id": None,
        "text": POLICY_SNIPPET,
        "tokens": estimate(POLICY_SNIPPET),
    }:
        failures.append(("policy-query-present", "the first block is not the fixed policy"))
    if (
        not blocks
        or blocks[-1].get("layer") != "query"
        or blocks[-1].get("id") is not None
        or [blocks[-1].get("text")] != query[:1]
    ):
        failures.append(("policy-query-present", "the last block is not the query as received"))
    if layers.count("policy") != 1 or layers.count("query") != 1:
        failures.append(("policy-query-present", f"policy/query blocks: {layers}"))
    # layer-order
    ranks = [_LAYER_RANK.get(layer, -1) for layer in layers]
    if ranks != sorted(ranks) or layers.count("summary") > 1 or -1 in ranks:
        failures.append(("layer-order", f"layers out of order: {layers}"))
    # sources-match-context
    sources = body.get("sources", {})
    counted = {
        "hot_turns": layers.count("hot_turn"),
        "summaries": layers.count("summary"),
        "entities": layers.count("entity"),
    }
    if sources != counted:
        failures.append(("sources-match-context", f"sources {sources} but context holds {counted}"))
    for index, block in enumerate(blocks):
        text = block.get("text")
        if not isinstance(text, str) or block.get("tokens") != estimate(text):
            failures.append(("sources-match-context", f"block {index}: tokens != estimate(text)"))
    used = sum(b.get("tokens", 0) for b in blocks if isinstance(b.get("tokens"), int))
    budget = body.get("budget", {})
    if budget.get("estimated_used") != used:
        failures.append(("sources-match-context", "estimated_used != the sum of block tokens"))
    # budget
    applied = budget.get("applied")
    if isinstance(applied, int) and isinstance(budget.get("estimated_used"), int):
        over = budget["estimated_used"] > applied
        if over and (layers != ["policy", "query"]):
            failures.append(
                ("budget", f"estimated_used {budget['estimated_used']} > applied {applied}")
            )
    return failures


def trim_order_failure(smaller: Json, larger: Json) -> str | None:
    """The trim-order property for two outcomes of one fixture, ``larger`` untrimmed."""
    a, b = _blocks(smaller), _blocks(larger)
    if a is None or b is None:
        return None

    def ids(blocks: Sequence[Json], layer: str) -> list[Json]:
        return [block.get("id") for block in blocks if block.get("layer") == layer]

    hot_a, hot_b = ids(a, "hot_turn"), ids(b, "hot_turn")
    ent_a, ent_b = ids(a, "entity"), ids(b, "entity")
    sum_a, sum_b = ids(a, "summary"), ids(b, "summary")
    if hot_a != hot_b[len(hot_b) - len(hot_a) :]:
        return f"hot turns {hot_a} are not the newest of {hot_b}"
    if ent_a != ent_b[: len(ent_a)]:
        return f"entities {ent_a} are not the most relevant of {ent_b}"
    if len(ent_a) < len(ent_b) and hot_a:
        return "an entity was trimmed while hot turns remain"
    if len(sum_a) < len(sum_b) and (hot_a or ent_a):
        return "the summary was trimmed while hot turns or entities remain"
    return None
