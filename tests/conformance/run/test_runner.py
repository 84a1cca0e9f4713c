"""The runner: each fake implementation gets the right outcome and the run always finishes."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from harness_corpus import FAKES, fake_spec, write_corpus

from conformance import (
    Certification,
    ErrorKind,
    FailureKind,
    Outcome,
    Section,
    UsageError,
    VerdictValue,
    certify,
    compare_result,
    first_difference,
    load_corpus,
    select_vectors,
)
from conformance._errors import ExpectedFailuresError
from conformance.corpus._select import load_expected_failures
from conformance.registers._registers import load_clauses
from conformance.run import fresh_sample
from conformance.run._compare import MISSING
from conformance.run._results import FAILURE_CLAUSES

TRIGGER_ID = "beta-0-trigger"


@pytest.fixture
def corpus_paths(tmp_path: Path) -> tuple[Path, Path]:
    """(vectors directory, answer table) of the synthetic corpus."""
    return write_corpus(tmp_path)


@pytest.fixture
def inprocess(corpus_paths: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """Make ``tests/fakes/inprocess.py`` importable and point it at the table."""
    monkeypatch.syspath_prepend(str(FAKES))
    monkeypatch.setenv("PHASE6_FAKE_TABLE", str(corpus_paths[1]))


def run(
    corpus_paths: tuple[Path, Path], adapter: str, **options: Any
) -> tuple[Certification, dict[str, Any]]:
    """Certify ``adapter`` (a fake name or a full spec) on the synthetic corpus, serially."""
    vectors, table = corpus_paths
    spec = adapter if ":" in adapter else fake_spec(adapter, table)
    options.setdefault("jobs", 1)
    options.setdefault("timeout", 5.0)
    result = certify(spec, vectors_dir=vectors, sections={}, **options)
    return result, {r.id: r for r in result.results}


class TestOutcomes:
    def test_correct_fake_is_compliant(self, corpus_paths: tuple[Path, Path]) -> None:
        """A correct implementation passes every vector, twice, with no restarts."""
        result, by_id = run(corpus_paths, "correct")
        assert result.verdict.value is VerdictValue.COMPLIANT
        assert all(r.outcome is Outcome.PASSED and r.runs == 2 for r in by_id.values())
        assert result.restarts == 0
        assert result.adapter["implementation"]["name"] == "fake"

    def test_crash_on_start_is_adapter_broken(self, corpus_paths: tuple[Path, Path]) -> None:
        """A failed handshake makes the verdict 'adapter broken', every vector errored."""
        result, by_id = run(corpus_paths, "crash_on_start")
        assert result.verdict.value is VerdictValue.ADAPTER_BROKEN
        assert "adapter broken" in result.verdict.text
        assert all(r.outcome is Outcome.ERRORED for r in by_id.values())
        error = by_id["alpha-one"].error
        assert error is not None
        assert error.exit_status == 3
        assert "boom" in error.stderr_tail

    def test_crash_mid_run_errors_one_vector(self, corpus_paths: tuple[Path, Path]) -> None:
        """A crash errors that vector (with exit status and stderr); the rest still pass."""
        result, by_id = run(corpus_paths, "crash_mid_run")
        trigger = by_id[TRIGGER_ID]
        assert trigger.outcome is Outcome.ERRORED
        assert trigger.error is not None
        assert trigger.error.kind is ErrorKind.CRASH
        assert trigger.error.exit_status == 17
        assert "dying" in trigger.error.stderr_tail
        assert trigger.reproduce is not None
        assert trigger.reproduce.startswith("python -m conformance rerun --adapter ")
        assert trigger.reproduce.endswith(" beta-0-trigger")
        assert [r.outcome for i, r in by_id.items() if i != TRIGGER_ID] == [Outcome.PASSED] * 3
        assert result.restarts >= 1
        assert result.verdict.value is VerdictValue.NON_COMPLIANT

    def test_hang_times_out(self, corpus_paths: tuple[Path, Path]) -> None:
        """A hang becomes a timeout error on that vector only."""
        _, by_id = run(corpus_paths, "hang", timeout=0.5)
        assert by_id[TRIGGER_ID].error is not None
        assert by_id[TRIGGER_ID].error.kind is ErrorKind.TIMEOUT
        assert by_id["alpha-one"].outcome is Outcome.PASSED

    @pytest.mark.parametrize("fake", ["non_json", "extra_member"])
    def test_protocol_errors(self, corpus_paths: tuple[Path, Path], fake: str) -> None:
        """Garbage on stdout or an extra member errors the vector as a protocol error."""
        _, by_id = run(corpus_paths, fake)
        assert by_id[TRIGGER_ID].error is not None
        assert by_id[TRIGGER_ID].error.kind is ErrorKind.PROTOCOL
        assert by_id["alpha-one"].outcome is Outcome.PASSED

    def test_wrong_seq_everywhere_is_adapter_broken(self, corpus_paths: tuple[Path, Path]) -> None:
        """When every vector errors the verdict is 'adapter broken', not 0 %."""
        result, by_id = run(corpus_paths, "wrong_seq")
        assert all(r.error and r.error.kind is ErrorKind.PROTOCOL for r in by_id.values())
        assert result.verdict.value is VerdictValue.ADAPTER_BROKEN

    @pytest.mark.parametrize("fake", ["wrong_protocol", "no_flush"])
    def test_handshake_failures(self, corpus_paths: tuple[Path, Path], fake: str) -> None:
        """A wrong protocol version or an unflushed handshake is 'adapter broken'."""
        result, _ = run(corpus_paths, fake, timeout=0.5)
        assert result.verdict.value is VerdictValue.ADAPTER_BROKEN
        assert result.broken_reason

    def test_writes_to_store(self, corpus_paths: tuple[Path, Path]) -> None:
        """Writing to a store fails the read-only clauses on every vector."""
        result, by_id = run(corpus_paths, "writes_store")
        for vector in by_id.values():
            assert vector.outcome is Outcome.FAILED
            kinds = {f.kind for f in vector.failures}
            assert FailureKind.STORE_MUTATED in kinds
            mutated = next(f for f in vector.failures if f.kind is FailureKind.STORE_MUTATED)
            assert "stores/s.jsonl" in mutated.message
            assert "S6-SEC-01" in mutated.clauses
        assert result.verdict.value is VerdictValue.NON_COMPLIANT

    def test_nondeterministic(self, corpus_paths: tuple[Path, Path]) -> None:
        """A second run that differs fails the determinism clauses at the differing path."""
        _, by_id = run(corpus_paths, "nondeterministic", fresh_every=0)
        failure = by_id["alpha-one"].failures[0]
        assert failure.kind is FailureKind.DETERMINISM
        assert failure.path == "/package/selection/selected/0/score"
        assert "S6-ACC-01" in failure.clauses
        assert by_id["beta-error"].outcome is Outcome.PASSED

    def test_per_process_difference_needs_a_fresh_process(
        self, corpus_paths: tuple[Path, Path]
    ) -> None:
        """Only the fresh-process sample catches output that depends on the process."""
        _, same_process = run(corpus_paths, "per_process", fresh_every=0)
        assert by_kind(same_process) == {FailureKind.MISMATCH}
        _, sampled = run(corpus_paths, "per_process", fresh_every=1)
        error_vector = sampled["beta-error"]
        assert error_vector.outcome is Outcome.FAILED
        assert error_vector.failures[0].kind is FailureKind.DETERMINISM
        assert "fresh process" in error_vector.failures[0].message
        assert "S6-ERR-07" in error_vector.failures[0].clauses

    def test_wrong_hash(self, corpus_paths: tuple[Path, Path]) -> None:
        """A wrong package_hash is a mismatch at /package/package_hash, expected vs actual."""
        _, by_id = run(corpus_paths, "wrong_hash")
        failure = by_id["alpha-one"].failures[0]
        assert failure.kind is FailureKind.MISMATCH
        assert failure.path == "/package/package_hash"
        assert failure.expected != failure.actual
        assert failure.diff is not None
        assert "package_hash" in failure.diff
        assert by_id["beta-error"].outcome is Outcome.PASSED

    def test_stderr_noise_is_not_a_failure(self, corpus_paths: tuple[Path, Path]) -> None:
        """Heavy stderr logging is never fatal."""
        result, _ = run(corpus_paths, "stderr_noise")
        assert result.verdict.value is VerdictValue.COMPLIANT

    def test_internal_error(self, corpus_paths: tuple[Path, Path]) -> None:
        """An internal_error reply errors the vector without restarting the process."""
        result, by_id = run(corpus_paths, "internal_error")
        assert by_id[TRIGGER_ID].error is not None
        assert by_id[TRIGGER_ID].error.kind is ErrorKind.INTERNAL
        assert result.restarts == 0


def by_kind(results: dict[str, Any]) -> set[FailureKind]:
    """Every failure kind in ``results``."""
    return {f.kind for r in results.values() for f in r.failures}


@pytest.mark.usefixtures("inprocess")
class TestInProcess:
    def test_correct_is_compliant(self, corpus_paths: tuple[Path, Path]) -> None:
        """The in-process adapter certifies a correct callable, fresh sample included."""
        result, _ = run(corpus_paths, "python:inprocess:correct", fresh_every=1)
        assert result.verdict.value is VerdictValue.COMPLIANT

    def test_exception_errors_one_vector(self, corpus_paths: tuple[Path, Path]) -> None:
        """An exception errors only its vector."""
        _, by_id = run(corpus_paths, "python:inprocess:raises")
        assert by_id[TRIGGER_ID].error is not None
        assert by_id[TRIGGER_ID].error.kind is ErrorKind.INTERNAL
        assert by_id["alpha-one"].outcome is Outcome.PASSED

    def test_pinned_failure_no_reading_reproduces_is_a_bug(
        self, corpus_paths: tuple[Path, Path]
    ) -> None:
        """A wrong score on a vector labelled pinned (INT-01) that no executable reading
        reproduces is a bug, not a difference of reading: non-compliant, nothing named."""
        result, _ = run(corpus_paths, "python:inprocess:differs_on_pinned")
        assert result.attribution.examined
        assert result.attribution.unexplained == ("alpha-pinned",)
        assert result.verdict.value is VerdictValue.NON_COMPLIANT
        assert result.verdict.differs_on == ()
        assert "no listed reading reproduces" in result.verdict.text

    def test_numbers_compare_as_doubles(self, corpus_paths: tuple[Path, Path]) -> None:
        """2 and 2.0 are the same JSON value (INT-48)."""
        result, _ = run(corpus_paths, "python:inprocess:numbers_as_floats")
        assert result.verdict.value is VerdictValue.COMPLIANT

    def test_input_mutation_cannot_corrupt_the_corpus(
        self, corpus_paths: tuple[Path, Path]
    ) -> None:
        """An implementation scribbling over its request still gets the same request twice."""
        result, _ = run(corpus_paths, "python:inprocess:mutates_input")
        assert result.verdict.value is VerdictValue.COMPLIANT


class TestParallel:
    @pytest.mark.slow
    def test_workers_share_the_corpus(self, tmp_path: Path) -> None:
        """With two workers every vector is run once, results come back in corpus order."""
        vectors, table = write_corpus(tmp_path, copies=500)
        result = certify(
            fake_spec("correct", table), vectors_dir=vectors, jobs=2, sections={}, fresh_every=10
        )
        assert result.workers == 2
        assert result.verdict.value is VerdictValue.COMPLIANT
        assert [r.id for r in result.results] == sorted(r.id for r in result.results)
        assert len(result.results) == 504
        assert result.requests >= 2 * 504

    @pytest.mark.slow
    def test_parallel_failures_are_attributed(self, tmp_path: Path) -> None:
        """A crash inside a worker errors the right vector and the rest still pass."""
        vectors, table = write_corpus(tmp_path, copies=500)
        result = certify(
            fake_spec("crash_mid_run", table), vectors_dir=vectors, jobs=2, sections={}
        )
        errored = [r.id for r in result.results if r.outcome is Outcome.ERRORED]
        assert errored == [TRIGGER_ID]


class TestSelection:
    @pytest.mark.parametrize(
        ("patterns", "expected"),
        [
            (["alpha-*"], ["alpha-one", "alpha-pinned"]),
            (["id:beta-error"], ["beta-error"]),
            (["S6-HASH-01"], ["alpha-pinned"]),
            (["clause:S6-ERR-*"], ["beta-error"]),
            (["INT-01"], ["alpha-pinned"]),
            (["beta"], ["beta-0-trigger", "beta-error"]),
            (["area:alpha", "level:pinned"], ["alpha-one", "alpha-pinned"]),
            (["pinned"], ["alpha-pinned"]),
            ([], ["alpha-one", "alpha-pinned", "beta-0-trigger", "beta-error"]),
        ],
    )
    def test_select(
        self, corpus_paths: tuple[Path, Path], patterns: list[str], expected: list[str]
    ) -> None:
        """--select matches IDs, clauses, interpretations, areas and levels (any of them)."""
        corpus = load_corpus(corpus_paths[0])
        assert [v.id for v in select_vectors(corpus.vectors, patterns)] == expected

    @pytest.mark.parametrize("pattern", ["nothing-*", "level:optional", "area:"])
    def test_select_matching_nothing_is_a_usage_error(
        self, corpus_paths: tuple[Path, Path], pattern: str
    ) -> None:
        """A selection that matches nothing is an error, not an empty green run."""
        corpus = load_corpus(corpus_paths[0])
        with pytest.raises(UsageError):
            select_vectors(corpus.vectors, [pattern])

    def test_selected_run_is_partial(self, corpus_paths: tuple[Path, Path]) -> None:
        """A selected run records its patterns and runs only the selection."""
        result, by_id = run(corpus_paths, "correct", select=["beta-error"])
        assert list(by_id) == ["beta-error"]
        assert result.selection == ("beta-error",)

    def test_fresh_sample_is_every_nth_sorted_id(self, corpus_paths: tuple[Path, Path]) -> None:
        """The fresh-process sample is deterministic: every Nth vector by sorted ID."""
        vectors = load_corpus(corpus_paths[0]).vectors
        assert fresh_sample(vectors, 2) == {"alpha-one", "beta-0-trigger"}
        assert fresh_sample(vectors, 0) == frozenset()


class TestExpectedFailures:
    def _file(self, tmp_path: Path, text: str) -> Path:
        path = tmp_path / "expected.txt"
        path.write_text(text, "utf-8")
        return path

    def test_listed_failures_are_expected(
        self, corpus_paths: tuple[Path, Path], tmp_path: Path
    ) -> None:
        """Listed failing vectors become expected failures; the run is clean but not compliant."""
        listed = self._file(tmp_path, "# known\nalpha-*  # hash bug #12\nbeta-0-trigger # same\n")
        result, by_id = run(corpus_paths, "wrong_hash", expected_failures=listed)
        assert by_id["alpha-one"].outcome is Outcome.EXPECTED_FAILURE
        assert by_id["alpha-one"].expected_failure_reason == "hash bug #12"
        assert result.clean
        assert result.verdict.value is VerdictValue.NON_COMPLIANT

    def test_unexpected_pass_and_stale_entries(
        self, corpus_paths: tuple[Path, Path], tmp_path: Path
    ) -> None:
        """A listed vector that passes is an unexpected pass; an entry matching nothing is stale."""
        listed = self._file(tmp_path, "alpha-one  # fixed?\nno-such-vector  # gone\n")
        result, by_id = run(corpus_paths, "correct", expected_failures=listed)
        assert by_id["alpha-one"].unexpected_pass
        assert by_id["alpha-one"].outcome is Outcome.PASSED
        assert not result.clean
        assert result.verdict.value is VerdictValue.NON_COMPLIANT
        assert [e.pattern for e in result.stale_expected_failures] == ["no-such-vector"]

    @pytest.mark.parametrize("line", ["alpha-one", "alpha-one #", "Bad Entry # x"])
    def test_malformed_lines(self, tmp_path: Path, line: str) -> None:
        """Every entry needs an ID and a reason."""
        with pytest.raises(ExpectedFailuresError, match=":1"):
            load_expected_failures(self._file(tmp_path, line + "\n"))


class TestCompare:
    @pytest.mark.parametrize(
        ("expected", "actual", "path"),
        [
            ({"a": 1}, {"a": 1.0}, None),
            ({"a": [1, 2]}, {"a": [1, 2]}, None),
            ({"b": 1, "a": 2}, {"a": 2, "b": 1}, None),
            ({"a": 1}, {"a": True}, "/a"),
            ({"a": 0}, {"a": False}, "/a"),
            ({"a": None}, {"a": 0}, "/a"),
            ({"a": {"b": [1, {"c": "x"}]}}, {"a": {"b": [1, {"c": "y"}]}}, "/a/b/1/c"),
            ({"a": [1, 2]}, {"a": [1]}, "/a/1"),
            ({"a": [1]}, {"a": [1, 2]}, "/a/1"),
            ({"a": [1, 2]}, {"a": [3]}, "/a/0"),
            ({"a": 1, "b": 2}, {"b": 2}, "/a"),
            ({"b": 2}, {"a": 1, "b": 2}, "/a"),
            ({"a/b": 1, "m~n": 2}, {"a/b": 1, "m~n": 3}, "/m~0n"),
            ({"x": 1}, [1], ""),
            ({"a": 2**60}, {"a": 2**60 + 1}, None),
            ({"a": 10**400}, {"a": 10**400 + 1}, "/a"),
        ],
    )
    def test_first_difference(self, expected: Any, actual: Any, path: str | None) -> None:
        """JSON-value equality (INT-48): first differing JSON Pointer, member order ignored."""
        diff = first_difference(expected, actual)
        assert (diff.path if diff else None) == path

    def test_strict_mode_distinguishes_number_types(self) -> None:
        """Determinism compares exactly: 2 and 2.0 differ between two runs."""
        assert first_difference({"a": 2}, {"a": 2.0}, strict=True) is not None
        assert first_difference({"a": 2}, {"a": 2}, strict=True) is None

    def test_missing_is_reported(self) -> None:
        """A missing member is shown as <missing>."""
        diff = first_difference({"a": 1}, {})
        assert diff is not None
        assert diff.actual is MISSING
        assert diff.reason == "member missing"

    def test_non_json_values(self) -> None:
        """Sets, NaN and non-string keys never equal anything."""
        assert first_difference({"a": [1]}, {"a": {1}}) is not None
        assert first_difference({"a": 1.0}, {"a": float("nan")}) is not None
        assert first_difference({"a": {}}, {"a": {1: 2}}) is not None

    def test_error_results_compare_code_and_path_only(self) -> None:
        """message and clause of an error are not compared; a receipt beside it is."""
        expect = {"error": {"code": "invalid_query", "path": "/query"}}
        actual = {
            "error": {"code": "invalid_query", "path": "/query", "message": "m", "clause": "c"}
        }
        assert compare_result(expect, actual) is None
        wrong_path = {"error": {"code": "invalid_query", "path": ""}}
        diff = compare_result(expect, wrong_path)
        assert diff is not None
        assert diff.path == "/error/path"
        diff = compare_result(expect, {**actual, "receipt": {}})
        assert diff is not None
        assert diff.path == "/receipt"


class TestFailureClauses:
    def test_failure_clauses_exist_in_the_register(self) -> None:
        """Every clause a failure kind cites is in specs/clauses.toml."""
        known = {c.id for c in load_clauses()}
        cited = {c for shapes in FAILURE_CLAUSES.values() for ids in shapes.values() for c in ids}
        assert cited <= known


class TestNarrowedSections:
    """A section run on some of its checks (``--section-option probes=...``/``families=...``)
    certifies only those: the run is partial and says which section and why."""

    def test_narrowed_section_makes_the_run_partial(self, corpus_paths: tuple[Path, Path]) -> None:
        """The section's data["narrowed"] becomes a partial reason naming the section."""
        result, _ = run(corpus_paths, "correct")
        whole = Section("probes", "Behavioural probes", Outcome.PASSED)
        narrowed = Section(
            "probes",
            "Behavioural probes",
            Outcome.PASSED,
            data={"narrowed": "1 of 12 probes (--section-option probes=receipt)"},
        )
        before = dataclasses.replace(result, sections={"probes": whole}).partial_reasons
        after = dataclasses.replace(result, sections={"probes": narrowed}).partial_reasons
        assert not any(reason.startswith("sections narrowed") for reason in before)
        assert (
            "sections narrowed: probes (1 of 12 probes (--section-option probes=receipt))" in after
        )
