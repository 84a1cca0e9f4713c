"""The family table, the engine and the counterexample format."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest
from property_support import reference_result

from conformance import LinesFile, load_clauses, load_interpretations, open_adapter
from conformance._schemas import schema_errors
from conformance.properties import (
    DEEP_FACTOR,
    DEFAULT_SEED,
    FAMILIES,
    INVARIANCES,
    Case,
    FamilyResult,
    Probe,
    PropertiesRun,
    PropertyFailure,
    PropertySettings,
    counterexample_vectors,
    run_properties,
)
from conformance.properties._behaviour import check_receipt
from conformance.strategies import Scenario

CLAUSES = {clause.id: clause for clause in load_clauses()}
INTERPRETATIONS = {entry.id for entry in load_interpretations()}


class TestFamilyTable:
    """The clause register names the property families in ``verified_by`` as
    ``property:<name>``; FAMILIES must implement each one and check at least its clauses."""

    def test_every_register_family_exists(self) -> None:
        """Every property:<name> of specs/clauses.toml is a family of the suite."""
        named = {
            ref.removeprefix("property:")
            for clause in CLAUSES.values()
            for ref in clause.verified_by
            if ref.startswith("property:")
        }
        assert named <= set(FAMILIES)
        assert set(FAMILIES) - named == {"differential"}

    @pytest.mark.parametrize("name", sorted(FAMILIES))
    def test_family_lists_its_register_clauses(self, name: str) -> None:
        """A family checks every clause the register says it verifies."""
        wanted = {c.id for c in CLAUSES.values() if f"property:{name}" in c.verified_by}
        assert wanted <= set(FAMILIES[name].clauses)

    def test_ids_exist(self) -> None:
        """Every clause and interpretation a family or an invariance names is registered."""
        for family in FAMILIES.values():
            assert set(family.clauses) <= set(CLAUSES), family.name
            assert set(family.interpretations) <= INTERPRETATIONS, family.name
        for invariance in INVARIANCES.values():
            assert set(invariance.clauses) <= set(FAMILIES["invariance"].clauses)
            assert set(invariance.interpretations) <= INTERPRETATIONS

    def test_item_ids(self) -> None:
        """A family's report and pytest ID is property:<name>."""
        assert FAMILIES["hashes"].item_id == "property:hashes"


class TestSettings:
    """Certification runs are reproducible (fixed seed and counts); deep runs fuzz."""

    def test_default_is_fixed(self) -> None:
        """Without options the seed is the kit's fixed seed and counts are the family's."""
        settings = PropertySettings().resolved()
        assert settings.seed == DEFAULT_SEED
        assert settings.examples_for(FAMILIES["order"]) == FAMILIES["order"].examples

    def test_deep_multiplies_and_draws_a_seed(self) -> None:
        """--deep multiplies the examples and, without --seed, draws (and records) a seed."""
        settings = PropertySettings(seed=None, deep=True).resolved()
        assert settings.seed is not None
        assert settings.examples_for(FAMILIES["order"]) == FAMILIES["order"].examples * DEEP_FACTOR
        assert settings.shrink_calls > PropertySettings().shrink_calls

    def test_unknown_family_is_rejected(self) -> None:
        """Naming a family that does not exist is an error, not a silent no-op."""
        with pytest.raises(KeyError, match="unknown property families"):
            PropertySettings(families=("colour",)).chosen()


class TestRuns:
    """The engine runs families against any adapter and reports what it saw."""

    def test_same_seed_same_run(self) -> None:
        """Two runs with the same seed make the same number of calls (reproducible reports)."""
        settings = PropertySettings(examples=15, families=("budget", "invariance"))
        first = run_properties("python:reference:memory_read", settings)
        second = run_properties("python:reference:memory_read", settings)
        assert [r.calls for r in first.results] == [r.calls for r in second.results]
        assert first.passed

    def test_workers_give_the_serial_results(self) -> None:
        """Families dealt to worker processes give a serial run's results, failures,
        counterexamples and order included (only durations differ)."""
        settings = PropertySettings(examples=20, families=("budget", "order", "receipt"))
        spec = "python:property_fakes:reverse_selected"
        serial = run_properties(spec, settings, jobs=1)
        parallel = run_properties(spec, settings, jobs=2)

        def timeless(run: PropertiesRun) -> list[FamilyResult]:
            return [replace(r, duration_s=0.0) for r in run.results]

        assert [r.family for r in parallel.results] == ["budget", "order", "receipt"]
        assert timeless(parallel) == timeless(serial)
        assert any(r.outcome == "failed" and r.counterexamples for r in parallel.results)

    def test_a_worker_that_cannot_start_the_adapter_errors_its_families(self) -> None:
        """With workers asked for, an adapter whose handshake fails is still reported broken
        once, before any worker starts, not as a crash."""
        run = run_properties(
            "python:no_such_module_phase6:call", PropertySettings(examples=1), jobs=2
        )
        assert run.broken is not None
        assert run.results == ()

    def test_broken_adapter(self) -> None:
        """An adapter whose handshake fails is reported broken, with no family results."""
        run = run_properties("python:no_such_module_phase6:call", PropertySettings(examples=1))
        assert run.broken is not None
        assert not run.passed

    def test_counterexample_format(self, tmp_path: Path) -> None:
        """A counterexample is a schema-valid phase6-vectors/1 vector named prop-<family>-<hash8>
        whose expect is the reference's result."""
        scenario = Scenario.build(
            {
                "query": "alpha",
                "store_paths": ["stores/a.jsonl"],
                "budget": {"max_excerpt_tokens": 4},
            },
            {"stores/a.jsonl": LinesFile(('{"memory_id":"m1","text":"alpha beta"}',))},
        )
        vectors = counterexample_vectors(
            FAMILIES["order"],
            Case(scenario),
            None,
            lambda s: reference_result(s, tmp_path),
            message="demo",
            seed_value=1,
        )
        assert len(vectors) == 1
        assert re.fullmatch(r"prop-order-[0-9a-f]{8}", str(vectors[0]["id"]))
        assert vectors[0]["level"] == "pinned"
        assert vectors[0]["expect"]["package"]["selection"]["selected"][0]["memory_id"] == "m1"
        document = {
            "format": "phase6-vectors/1",
            "area": "counterexamples",
            "description": "d",
            "source": "generated:properties",
            "vectors": list(vectors),
        }
        assert schema_errors("vector-file.schema.json", document) == []


class TestReceiptContent:
    """LEDGER RECEIPT CONSTRAINTS: "The receipt MUST NOT include: excerpts, raw memory text,
    tags, refs, or any payload that reconstructs memory content"; canaries planted in record
    text, tags and refs must never appear in a receipt, under any key."""

    def test_planted_canary_is_reported_as_a_leak(self) -> None:
        """A receipt carrying an excerpt with a canary fails the no-content check first."""
        scenario = Scenario.build(
            {
                "query": "alpha",
                "store_paths": ["stores/a.jsonl"],
                "budget": {"max_excerpt_tokens": 64},
            },
            {"stores/a.jsonl": LinesFile(('{"memory_id":"m1","text":"alpha CANARYS0L0Q"}',))},
            canaries=("CANARYS0L0Q",),
        )
        adapter = open_adapter("python:property_fakes:excerpts_in_receipt")
        probe = Probe(adapter)
        try:
            with pytest.raises(PropertyFailure) as caught:
                check_receipt(probe, Case(scenario))
        finally:
            probe.close()
            adapter.close()
        assert caught.value.check == "no-content"
        assert "S6-RCPT-08" in caught.value.clauses
