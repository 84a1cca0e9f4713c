"""The ``properties`` section of a Phase 2 certification, on generated fixtures: it passes the
reference, finds a fake's fault with a reproducible counterexample, and turns an engine that
fails on a generated example into an errored item, never a crash."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conformance.phase2 import PropertySettings, PythonEngine, properties_section
from conformance.run import Outcome, Section

CAPABILITIES = ("phase2.context", "phase2.compact", "phase2.summarize")


@pytest.fixture
def engine(request: pytest.FixtureRequest) -> Iterator[PythonEngine]:
    """A started python: engine for the spec in the test's ``param``."""
    with PythonEngine(request.param, timeout=5) as started:
        started.start()
        yield started


def generated(engine: PythonEngine, examples: int, seed: int = 0) -> Section:
    """The section on generated examples only (no vector outcomes)."""
    settings = PropertySettings(seed=seed, examples=examples, shrink_calls=20)
    return properties_section(engine, CAPABILITIES, {}, {}, (), settings)


def outcomes(section: Section) -> dict[str, Outcome]:
    """Property name -> outcome."""
    return {item.id: item.outcome for item in section.items}


class TestGenerated:
    """Hypothesis-generated fixtures, a fixed seed."""

    @pytest.mark.parametrize("engine", ["python:reference.phase2:run_vector_call"], indirect=True)
    def test_reference_holds_every_property(self, engine: PythonEngine) -> None:
        """The reference engine breaks none of the eight properties on generated fixtures."""
        section = generated(engine, examples=10)
        assert section.status is Outcome.PASSED
        assert set(outcomes(section).values()) == {Outcome.PASSED}
        assert len(section.items) == 8
        assert section.data["calls"] > 10

    @pytest.mark.parametrize(
        "engine", ["python:phase2_fakes.exceeds_budget:run_vector_call"], indirect=True
    )
    def test_fault_found_with_a_reproducible_counterexample(self, engine: PythonEngine) -> None:
        """A fake over budget fails budget alone, with a counterexample naming the call; the
        same seed finds the same counterexample."""
        first, again = generated(engine, examples=10), generated(engine, examples=10)
        assert first.status is Outcome.FAILED
        failed = {name for name, outcome in outcomes(first).items() if outcome is Outcome.FAILED}
        assert failed == {"budget"}
        (item,) = [item for item in first.items if item.id == "budget"]
        (repeated,) = [item for item in again.items if item.id == "budget"]
        assert item.message.startswith("generated example: call ")
        assert "P2-BUD-04" in item.clauses
        assert item.details["counterexample"] == repeated.details["counterexample"]
        assert set(item.details["counterexample"]) == {"fixture", "calls"}


class _Counting:
    """An engine that counts the calls it observes (everything else is the engine's)."""

    def __init__(self, engine: PythonEngine):
        self.engine = engine
        self.kind = engine.kind
        self.observed = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.engine, name)

    def observe(self, fixture: Any, call: Any, **options: Any) -> Any:
        self.observed += 1
        return self.engine.observe(fixture, call, **options)


class TestWorkers:
    """More engines (``--jobs N`` over http:) observe the examples alongside the first."""

    @pytest.mark.parametrize("engine", ["python:reference.phase2:run_vector_call"], indirect=True)
    def test_examples_shared_out_and_each_observed_once(self, engine: PythonEngine) -> None:
        """Both engines observe examples; together each call once, as many as one engine
        alone makes; the outcome is the same."""
        settings = PropertySettings(seed=0, examples=6, shrink_calls=20)
        alone = properties_section(engine, CAPABILITIES, {}, {}, (), settings)
        with PythonEngine("python:reference.phase2:run_vector_call", timeout=5) as other:
            other.start()
            first, second = _Counting(engine), _Counting(other)
            shared = properties_section(
                first,
                CAPABILITIES,
                {},
                {},
                (),
                settings,
                workers=[second],
            )
        assert outcomes(shared) == outcomes(alone)
        assert first.observed > 0
        assert second.observed > 0
        assert first.observed + second.observed == shared.data["calls"] == alone.data["calls"]


HANGS_ON_COMPACT = """
import time
from reference.phase2 import run_vector_call

def run(fixture, call):
    if call["op"] == "compact":
        time.sleep(60)
    return run_vector_call(fixture, call)
"""


class TestMisbehaving:
    """An engine failing on a generated example makes the property errored."""

    def test_timeout_is_an_errored_item(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """An engine that hangs on compaction: retention errored (a timeout), the rest pass."""
        (tmp_path / "p2_hangs.py").write_text(HANGS_ON_COMPACT)
        monkeypatch.syspath_prepend(str(tmp_path))
        monkeypatch.chdir(tmp_path)
        with PythonEngine("python:p2_hangs:run", timeout=1) as engine:
            engine.start()
            section = generated(engine, examples=3)
        found = outcomes(section)
        assert found.pop("retention") is Outcome.ERRORED
        assert set(found.values()) == {Outcome.PASSED}
        assert section.status is Outcome.ERRORED
        (item,) = [item for item in section.items if item.id == "retention"]
        assert "timeout" in item.message
