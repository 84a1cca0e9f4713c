"""The invariants of the Phase 2 ``[[property]]`` table as checks: each holds on the corpus's
own expected outcomes and breaks, naming itself, on an outcome mutated to violate it."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from conformance._schemas import schema_errors
from conformance.phase2 import (
    Example,
    determinism_view,
    examples,
    load_phase2_corpus,
    load_properties,
    normalize_state,
    property_failures,
    trim_order_failure,
)

CORPUS = load_phase2_corpus()
#: A budgeted context vector whose context holds every layer (policy, summary, hot turns,
#: entities, query).
CONTEXT = CORPUS.get("p2-budget-g013")
COMPACT = CORPUS.get("p2-compact-h002")


def observed_context() -> dict[str, Any]:
    """The outcome the corpus expects of CONTEXT, with the state a read-only call leaves."""
    return {**CONTEXT.expect, "state": normalize_state(CONTEXT.fixture)}


def broken_names(observed: Any) -> set[str]:
    """The properties ``observed`` breaks as an outcome of CONTEXT's call."""
    return {name for name, _ in property_failures(CONTEXT.fixture, CONTEXT.call, observed)}


def _over_budget(o: dict[str, Any]) -> None:
    o["body"]["budget"]["applied"] = o["body"]["budget"]["estimated_used"] - 1


def _no_policy(o: dict[str, Any]) -> None:
    context = o["body"]["context"]
    o["body"]["budget"]["estimated_used"] -= context[0]["tokens"]
    del context[0]


def _no_query(o: dict[str, Any]) -> None:
    context = o["body"]["context"]
    o["body"]["budget"]["estimated_used"] -= context[-1]["tokens"]
    del context[-1]


def _entity_before_hot(o: dict[str, Any]) -> None:
    context = o["body"]["context"]
    first_entity = next(i for i, b in enumerate(context) if b["layer"] == "entity")
    context.insert(2, context.pop(first_entity))


def _miscounted(o: dict[str, Any]) -> None:
    o["body"]["sources"]["entities"] += 1


def _tokens_off(o: dict[str, Any]) -> None:
    o["body"]["context"][2]["tokens"] += 1
    o["body"]["budget"]["estimated_used"] += 1


def _row_written(o: dict[str, Any]) -> None:
    o["state"]["entities"].append(dict(o["state"]["entities"][0], id=10_000))


MUTATIONS: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    ("estimated_used above applied", _over_budget, "budget"),
    ("the policy block dropped", _no_policy, "policy-query-present"),
    ("the query block dropped", _no_query, "policy-query-present"),
    ("an entity before the hot turns", _entity_before_hot, "layer-order"),
    ("sources counting one entity too many", _miscounted, "sources-match-context"),
    ("a block's tokens not its estimate", _tokens_off, "sources-match-context"),
    ("a row written by the preview", _row_written, "no-writes"),
]


class TestSingleCall:
    """budget, policy-query-present, layer-order, sources-match-context, no-writes, retention."""

    def test_register_lists_eight_properties(self) -> None:
        """The register's property table names the invariants the checks implement."""
        assert [p.name for p in load_properties()] == [
            "budget",
            "policy-query-present",
            "layer-order",
            "trim-order",
            "sources-match-context",
            "determinism",
            "retention",
            "no-writes",
        ]

    def test_expected_outcomes_hold_every_invariant(self) -> None:
        """Every expected outcome of the corpus breaks no invariant (the corpus is consistent)."""
        for vector in CORPUS:
            expect = vector.expect
            observed = (
                {**expect, "state": normalize_state(vector.fixture)}
                if vector.op == "context"
                else expect
            )
            assert property_failures(vector.fixture, vector.call, observed) == [], vector.id

    @pytest.mark.parametrize(
        ("mutate", "name"), [(m, n) for _, m, n in MUTATIONS], ids=[w for w, _, _ in MUTATIONS]
    )
    def test_mutation_breaks_its_property(
        self, mutate: Callable[[dict[str, Any]], None], name: str
    ) -> None:
        """An outcome mutated to violate one invariant breaks that invariant, and only it."""
        observed = observed_context()
        assert broken_names(observed) == set()
        mutate(observed)
        assert broken_names(observed) == {name}

    def test_one_preview_event_is_allowed(self) -> None:
        """The one memory_context_previewed event P2-INT-20 allows is not a write."""
        observed = observed_context()
        observed["state"]["event_log"].append(
            {
                "id": 99_999,
                "user_id": "u1",
                "chat_id": "c1",
                "event_type": "memory_context_previewed",
                "payload": {},
                "created_at": "2024-06-30T12:00:00Z",
            }
        )
        assert "no-writes" not in broken_names(observed)

    @pytest.mark.parametrize("observed", [None, [], {"status": 200}, {"status": 200, "body": 7}])
    def test_garbage_never_raises(self, observed: Any) -> None:
        """An outcome of the wrong shape fails properties with reasons, never raises."""
        failures = property_failures(CONTEXT.fixture, CONTEXT.call, observed)
        assert all(isinstance(message, str) for _, message in failures)
        assert "no-writes" in {name for name, _ in failures}

    def test_compaction_deleting_summaries_breaks_retention(self) -> None:
        """A compaction that removes a summary breaks retention (P2-CMP-03)."""
        expect = COMPACT.expect
        assert property_failures(COMPACT.fixture, COMPACT.call, expect) == []
        broken = copy.deepcopy(expect)
        assert broken["state"]["memory_summaries"], "the vector keeps a summary"
        broken["state"]["memory_summaries"].pop()
        (failure,) = property_failures(COMPACT.fixture, COMPACT.call, broken)
        assert failure[0] == "retention"
        assert "memory_summaries" in failure[1]


def _context(layers: list[tuple[str, int]]) -> dict[str, Any]:
    blocks = [{"layer": layer, "id": block_id} for layer, block_id in layers]
    return {"status": 200, "body": {"context": blocks}}


FULL = [("policy", 0), ("summary", 1), ("hot_turn", 1), ("hot_turn", 2), ("entity", 7),
        ("entity", 8), ("query", 0)]  # fmt: skip


class TestTrimOrder:
    """P2-BUD-02: hot turns oldest-first, then entities lowest-relevance-first, then summary."""

    @pytest.mark.parametrize(
        "kept",
        [
            [0, 1, 2, 3, 4, 5, 6],  # nothing trimmed
            [0, 1, 3, 4, 5, 6],  # the oldest hot turn
            [0, 1, 4, 6],  # every hot turn, then the least relevant entity
            [0, 6],  # everything but policy and query
        ],
    )
    def test_the_order_of_the_spec_holds(self, kept: list[int]) -> None:
        """Trimming in the order of P2-BUD-02 (summary last, P2-INT-10) holds."""
        assert trim_order_failure(_context([FULL[i] for i in kept]), _context(FULL)) is None

    @pytest.mark.parametrize(
        ("kept", "says"),
        [
            ([0, 1, 2, 4, 5, 6], "not the newest"),  # the newest hot turn trimmed
            ([0, 1, 2, 3, 5, 6], "not the most relevant"),  # the most relevant entity
            ([0, 1, 3, 4, 6], "while hot turns remain"),  # an entity before the hot turns
            ([0, 2, 3, 4, 5, 6], "summary was trimmed"),  # the summary first
        ],
    )
    def test_another_order_breaks_it(self, kept: list[int], says: str) -> None:
        """Trimming out of order is named."""
        failure = trim_order_failure(_context([FULL[i] for i in kept]), _context(FULL))
        assert failure is not None
        assert says in failure


class TestDeterminismView:
    """P2-DET-01, with the summarizer's freedom of P2-INT-25."""

    def test_summary_text_may_differ(self) -> None:
        """Two summarize runs differing only in the new summary's text and facts agree."""
        row: dict[str, Any] = {"id": 5, "summary_text": "a", "facts_json": [], "chat_id": "c1"}
        run: dict[str, Any] = {"result": {"summary_id": 5}, "state": {"memory_summaries": [row]}}
        other = copy.deepcopy(run)
        other["state"]["memory_summaries"][0].update(summary_text="b", facts_json={"k": 1})
        call = {"op": "summarize"}
        assert determinism_view(call, run) == determinism_view(call, other)
        other["state"]["memory_summaries"][0]["chat_id"] = "c2"
        assert determinism_view(call, run) != determinism_view(call, other)

    def test_context_outcomes_are_compared_whole(self) -> None:
        """A context outcome is its own determinism view."""
        observed = observed_context()
        assert determinism_view(CONTEXT.call, observed) is observed


class TestStrategies:
    """The generated examples the properties section draws."""

    @settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
    @given(examples())
    def test_fixtures_follow_the_schema(self, example: Example) -> None:
        """Every generated fixture validates against specs/schemas/phase2/fixture.schema.json,
        and every call against call.schema.json."""
        assert schema_errors("phase2/fixture.schema.json", example.fixture) == []
        for call in (example.call_a, example.call_b, example.compact_call):
            assert schema_errors("phase2/call.schema.json", call) == []
