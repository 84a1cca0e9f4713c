"""Every property family catches a deliberately broken implementation, and the shrunk
counterexample lands in the report as a ready-to-run vector."""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path
from typing import Any

import pytest

from conformance import (
    Executor,
    Outcome,
    RunConfig,
    SectionContext,
    load_corpus,
)
from conformance._schemas import schema_errors
from conformance.corpus._vectors import load_vector_file
from conformance.properties import (
    FAMILIES,
    PropertySettings,
    certify_section,
    run_properties,
)

#: (family, fake in property_fakes.py) pairs: the family must fail the fake with the
#: certification settings (fixed seed, default example count).
CATCHES = [
    ("determinism", "nondeterministic"),
    ("budget", "short_excerpts"),
    ("budget", "wrong_max_items_default"),
    ("accounting", "drop_one_dropped"),
    ("order", "reverse_selected"),
    ("order", "max_items_as_budget_exhausted"),
    ("scores", "scores_one_ulp_off"),
    ("hashes", "wrong_record_hash"),
    ("hashes", "package_hash_without_excerpts"),
    ("invariance", "unnormalized_store_paths"),
    ("invariance", "clock_when_now_missing"),
    ("receipt", "excerpts_in_receipt"),
    ("differential", "reverse_selected"),
]

#: Each case runs a property family against a fake for seconds: `nox -s slow_tests`.
pytestmark = pytest.mark.slow


def _replay(vector: dict[str, Any], adapter: str, tmp_path: Path) -> Outcome:
    """Run one counterexample vector through the harness runner; its outcome."""
    document = {
        "format": "phase6-vectors/1",
        "area": "counterexamples",
        "description": "replay",
        "source": "generated:properties",
        "vectors": [vector],
    }
    corpus = Path(tempfile.mkdtemp(dir=tmp_path))
    (corpus / "counterexamples.json").write_text(json.dumps(document), "utf-8")
    loaded = load_vector_file(corpus / "counterexamples.json", corpus).vectors[0]
    executor = Executor(RunConfig(adapter=adapter, timeout=10.0))
    try:
        return executor.run_vector(loaded).outcome
    finally:
        executor.close()


class TestFakesAreCaught:
    """Bowtie's miniatures: one deliberately wrong implementation per failure mode. SPEC-006
    MUSTs (determinism, budget, accounting, order, scores, hashes, invariances, metadata-only
    receipts) are each enforced by at least one family."""

    def test_every_family_catches_something(self) -> None:
        """The CATCHES table names at least one fake for every family."""
        assert {family for family, _ in CATCHES} == set(FAMILIES)

    @pytest.mark.parametrize(("family", "fake"), CATCHES)
    def test_family_catches_fake(self, family: str, fake: str, tmp_path: Path) -> None:
        """The family fails the fake; its shrunk counterexample is a valid vector that fails
        the fake and passes the reference when replayed through the runner."""
        run = run_properties(f"python:property_fakes:{fake}", PropertySettings(families=(family,)))
        (result,) = run.results
        assert result.outcome == "failed", result
        assert result.failed_clauses
        assert result.counterexamples
        document = run.counterexample_file()
        assert document is not None
        assert schema_errors("vector-file.schema.json", document) == []
        for vector in result.counterexamples:
            assert re.fullmatch(rf"prop-{family}-[0-9a-f]{{8}}", str(vector["id"]))
        outcomes = {
            _replay(dict(vector), "python:reference:memory_read", tmp_path)
            for vector in result.counterexamples
        }
        assert outcomes == {Outcome.PASSED}
        replayed = {
            _replay(dict(vector), f"python:property_fakes:{fake}", tmp_path)
            for vector in result.counterexamples
        }
        assert Outcome.FAILED in replayed

    def test_internal_errors_fail_every_family(self) -> None:
        """An implementation that raises fails every family with an internal-error check."""
        run = run_properties(
            "python:property_fakes:internal_error_on_empty_store", PropertySettings()
        )
        assert {r.outcome for r in run.results} == {"failed"}
        assert {r.check for r in run.results} == {"internal-error"}


class TestReportSection:
    """The counterexamples land in the compliance report: the ``properties`` section's data and
    ``<report dir>/counterexamples/counterexamples.json`` (a corpus directory of its own)."""

    def test_section_carries_counterexamples(self, tmp_path: Path) -> None:
        """certify_section reports the failing family and writes the counterexample corpus."""
        context = SectionContext(
            adapter_spec="python:property_fakes:reverse_selected",
            corpus=load_corpus(),
            results=(),
            report_dir=tmp_path,
            jobs=1,
            timeout=10.0,
            options={"families": "order,receipt"},
        )
        section = certify_section(context)
        assert section.status == "failed"
        assert section.affects_verdict
        outcomes = {item.id: item.outcome for item in section.items}
        assert outcomes == {"property:order": "failed", "property:receipt": "passed"}
        vectors = section.data["counterexamples"]
        assert vectors
        assert all(v["id"].startswith("prop-order-") for v in vectors)
        written = tmp_path / "counterexamples" / "counterexamples.json"
        assert section.data["counterexamples_file"] == str(written)
        corpus = load_corpus(written.parent)
        assert [v.id for v in corpus.vectors] == sorted(v["id"] for v in vectors)

    def test_passing_section(self, tmp_path: Path) -> None:
        """Against the reference the section passes and no counterexample file is left."""
        stale = tmp_path / "counterexamples" / "counterexamples.json"
        stale.parent.mkdir()
        stale.write_text("{}", "utf-8")
        context = SectionContext(
            adapter_spec="python:reference:memory_read",
            corpus=load_corpus(),
            results=(),
            report_dir=tmp_path,
            jobs=1,
            timeout=10.0,
            options={"examples": "10"},
        )
        section = certify_section(context)
        assert section.status == "passed", section.summary
        assert section.data["counterexamples"] == []
        assert not stale.exists()
