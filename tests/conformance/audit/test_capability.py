"""The capability ``audit``: records checked against what each vector determines, in a report
section of its own that never penalizes an implementation without it."""

from __future__ import annotations

import copy
import dataclasses
from pathlib import Path
from typing import Any

import pytest
from harness_corpus import fake_spec

from conformance.adapters import reference_adapter_spec
from conformance.audit._expected import fixture_bytes, record_problems
from conformance.audit._section import certify_section
from conformance.corpus import Vector, load_corpus, materialize
from conformance.run import Outcome, SectionContext
from reference import memory_read

CORPUS = load_corpus()
PACKAGE_VECTOR = next(v for v in CORPUS.vectors if "package" in v.expect and v.area == "selection")
ERROR_VECTOR = next(v for v in CORPUS.vectors if "error" in v.expect)


@pytest.fixture
def vector_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh directory the reference runs in."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _run(vector: Vector, root: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    materialize(vector, root)
    result = memory_read(vector.request, audit=True)
    return result, result.pop("audit")


class TestExpectedRecord:
    """`record_problems`: the record against the vector's request, expectation and bytes."""

    def test_reference_record_matches(self, vector_root: Path) -> None:
        """The reference's record of a package vector has no problem."""
        result, record = _run(PACKAGE_VECTOR, vector_root)
        assert record_problems(PACKAGE_VECTOR.request, PACKAGE_VECTOR.expect, result, record,
                               fixture_bytes(PACKAGE_VECTOR)) == []  # fmt: skip

    def test_failure_record_matches(self, vector_root: Path) -> None:
        """The reference's failure record of an error vector has no problem."""
        result, record = _run(ERROR_VECTOR, vector_root)
        assert record_problems(ERROR_VECTOR.request, ERROR_VECTOR.expect, result, record,
                               fixture_bytes(ERROR_VECTOR)) == []  # fmt: skip

    @pytest.mark.parametrize(
        ("member", "change", "problem"),
        [
            (
                "stores",
                lambda s: [{**s[0], "bytes": s[0]["bytes"] + 1}, *s[1:]],
                "store identities",
            ),
            ("candidates", lambda c: [{**c[0], "line": c[0]["line"] + 1}, *c[1:]], "line numbers"),
            ("manifest", lambda m: m[::-1] if len(m) > 1 else [], "manifest"),
            ("package_hash", lambda h: "0" * 64, "package_hash"),
            ("candidates", lambda c: [{**c[0], "text": "x"}, *c[1:]], "not a phase6-audit/1"),
        ],
    )
    def test_tampered_record_is_caught(
        self, vector_root: Path, member: str, change: Any, problem: str
    ) -> None:
        """A record with a wrong identity, line, order, hash or a leaked member is named."""
        result, record = _run(PACKAGE_VECTOR, vector_root)
        tampered = copy.deepcopy(record)
        tampered[member] = change(tampered[member])
        problems = record_problems(PACKAGE_VECTOR.request, PACKAGE_VECTOR.expect, result,
                                   tampered, fixture_bytes(PACKAGE_VECTOR))  # fmt: skip
        assert any(problem in text for text in problems), problems


def _context(spec: str, count: int) -> SectionContext:
    corpus = dataclasses.replace(CORPUS, vectors=CORPUS.vectors[: count * 4])
    return SectionContext(spec, corpus, (), None, 1, 30.0)


class TestSection:
    """The report section ``audit``."""

    def test_reference_declares_and_passes(self) -> None:
        """The reference declares audit; its sampled records all pass, outside the verdict."""
        section = certify_section(_context(reference_adapter_spec(), 6))
        assert section.status is Outcome.PASSED
        assert len(section.items) == 6
        assert section.data["declared"] is True
        assert section.affects_verdict is False

    def test_absent_capability_is_not_a_penalty(self, tmp_path: Path) -> None:
        """Without the capability: skipped as optional, outside the verdict, nothing run."""
        table = tmp_path / "table.json"
        table.write_text("{}", "utf-8")
        section = certify_section(_context(fake_spec("correct", table), 6))
        assert section.status is Outcome.SKIPPED
        assert (section.optional, section.affects_verdict, section.fails_verdict) == (
            True, False, False)  # fmt: skip
        assert section.items == ()
        assert "not declared" in section.summary
