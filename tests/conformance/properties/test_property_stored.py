"""The stored certification examples: the file, its staleness check, and their replay by the
engine (the same examples, the same results, a live run whenever a stored case fails)."""

from __future__ import annotations

import gzip
import hashlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

import pytest
from property_support import REFERENCE

from conformance import BytesFile, DirectorySpec, LinesFile, TextFile, open_adapter
from conformance._errors import AdapterCrashedError
from conformance.properties import (
    DEFAULT_SEED,
    FAMILIES,
    Case,
    ExamplesSource,
    FamilyResult,
    Probe,
    PropertiesRun,
    PropertyFailure,
    PropertySettings,
    _stored,
    build_section,
    examples_source,
    run_family,
    run_properties,
)
from conformance.properties._probe import AdapterAbort, KitAbort
from conformance.properties._stored import (
    GENERATION_SOURCES,
    STORED_FORMAT,
    StoredExamples,
    case_from_json,
    case_json,
    encode_stored,
    load_stored,
    source_digest,
    stored_text,
)
from conformance.run import Outcome
from conformance.strategies import Scenario, StoreLine

#: The smallest family's stored cases drive the engine tests (its check is replaced).
FAMILY = FAMILIES["determinism"]


def _committed() -> tuple[StoredExamples, bytes]:
    """The committed file's contents (decoded once per process) and raw bytes."""
    stored, _ = load_stored()
    return stored, _stored.stored_path().read_bytes()


@pytest.fixture
def probe() -> Iterator[Probe]:
    """A probe over the reference; the replaced checks below never call it, the
    counterexample vectors ask the reference for their ``expect``."""
    adapter = open_adapter(REFERENCE)
    probe = Probe(adapter)
    try:
        yield probe
    finally:
        probe.close()
        adapter.close()


def _stored_cases() -> tuple[Case, ...]:
    stored, _ = load_stored()
    return stored.families[FAMILY.name][1]


@dataclass
class Scripted:
    """A family check that records every case it is given and fails as told."""

    seen: list[Case] = field(default_factory=list)
    raising: Callable[[Case, int], None] | None = None

    def __call__(self, probe: Probe, case: Case) -> None:
        self.seen.append(case)
        if self.raising is not None:
            self.raising(case, len(self.seen))


def _scripted_run(check: Scripted, probe: Probe) -> FamilyResult:
    return run_family(replace(FAMILY, check=check), probe, PropertySettings().resolved())


def _timeless(result: FamilyResult) -> FamilyResult:
    return replace(result, duration_s=0.0)


# ------------------------------------------------------------------------------ the file


class TestStoredFile:
    """conformance/properties/stored/seed-6006.json.gz holds, per family, the cases a default
    certification hands the family's check, with what generated them."""

    def test_header_and_counts(self) -> None:
        """The file is this format, for the certification seed, with every family at its
        certification example count and one case per example."""
        stored, _ = _committed()
        assert stored.seed == DEFAULT_SEED
        assert stored.sources == GENERATION_SOURCES
        assert set(stored.families) == set(FAMILIES)
        for name, (examples, cases) in stored.families.items():
            assert examples == FAMILIES[name].examples, name
            assert len(cases) == examples, name

    def test_generated_from_the_current_sources(self) -> None:
        """The file's source digest is the running kit's: a change to a generating source
        without `python -m tools property-examples` fails here."""
        stored, _ = _committed()
        assert stored.source_digest == source_digest(), (
            "the generating sources changed: regenerate with `python -m tools property-examples`"
        )

    def test_every_stored_case_round_trips(self) -> None:
        """Each stored case encodes and decodes to an equal case, and the decoded file
        encodes to exactly the committed JSON text."""
        stored, data = _committed()
        for _, cases in stored.families.values():
            for case in cases:
                assert case_from_json(case_json(case)) == case
        assert stored_text(stored) == gzip.decompress(data)

    def test_file_is_reproducible_bytes(self) -> None:
        """The gzip member carries no file name and a zero timestamp, so regenerating an
        unchanged file writes the same bytes."""
        stored, data = _committed()
        assert data[3] == 0  # FLG: no name, comment or extra field
        assert data[4:8] == b"\0\0\0\0"  # MTIME
        assert gzip.decompress(encode_stored(stored)) == gzip.decompress(data)
        assert STORED_FORMAT.startswith("phase6-property-examples/")

    @pytest.mark.parametrize(
        "case",
        [
            Case(
                Scenario(
                    request_json=b'{"query":"\\u00e9 \xc3\xa9"}',
                    files=(
                        ("a.jsonl", LinesFile(("text", b"\xff\xfe", "\ud800"), "\r\n", False)),
                        ("b.bin", BytesFile(b"\x00\x80")),
                        ("d", DirectorySpec()),
                        ("t.json", TextFile("\u2028\U0010fffd")),
                    ),
                    lines=(("a.jsonl", (StoreLine(b"\xc0\xaf", "invalid:INT-15:x", ("C1",)),)),),
                    canaries=("C1",),
                    note="n",
                    pinned=("INT-14",),
                ),
                Scenario(b"\xff not UTF-8", ()),
                "permute",
            ),
            Case(Scenario(b"{}", ())),
        ],
        ids=["every-kind-of-value", "smallest"],
    )
    def test_edge_values_round_trip(self, case: Case) -> None:
        """Bytes, lone surrogates, every file spec and a request that is not UTF-8 survive the
        encoding exactly (str stays str and bytes stay bytes: "a" != b"a")."""
        assert case_from_json(case_json(case)) == case


# ------------------------------------------------------------------------------ staleness


def _write(tmp_path: Path, data: bytes) -> Path:
    target = tmp_path / "seed-6006.json.gz"
    target.write_bytes(data)
    return target


def _stale(tmp_path: Path) -> Path:
    stored, _ = _committed()
    return _write(tmp_path, encode_stored(replace(stored, source_digest="sha256:" + "0" * 64)))


def _other_format(tmp_path: Path) -> Path:
    return _write(tmp_path, gzip.compress(b'{"format": "phase6-property-examples/0"}'))


def _malformed(tmp_path: Path) -> Path:
    text = b'{"format": "%s", "families": {"budget": 3}}' % STORED_FORMAT.encode()
    return _write(tmp_path, gzip.compress(text))


class TestExamplesSource:
    """Only a default certification run replays the stored examples, and only from a file
    that is there, readable and generated from the running kit's sources; the report says
    which, and why not."""

    def test_default_run_replays(self) -> None:
        """Seed 6006, the families' counts, not deep: stored, with the digest of the file's
        JSON text and the hypothesis version that generated it."""
        stored, data = _committed()
        source = examples_source(seed=DEFAULT_SEED, examples=None, deep=False)
        assert source.stored
        assert source.digest == f"sha256:{hashlib.sha256(gzip.decompress(data)).hexdigest()}"
        assert source.to_json() == {
            "source": "stored",
            "file": "conformance/properties/stored/seed-6006.json.gz",
            "digest": source.digest,
            "generated_with_hypothesis": stored.hypothesis,
        }

    @pytest.mark.parametrize(
        ("seed", "examples", "deep", "why"),
        [
            (7, None, False, "seed 7 is not the certification seed"),
            (DEFAULT_SEED, 300, False, "--examples 300"),
            (DEFAULT_SEED, None, True, "deep run"),
        ],
    )
    def test_other_runs_are_live(
        self, seed: int, examples: int | None, deep: bool, why: str
    ) -> None:
        """--seed, --examples and --deep generate their own examples, and say so."""
        source = examples_source(seed=seed, examples=examples, deep=deep)
        assert not source.stored
        assert why in source.reason
        assert source.to_json() == {"source": "live", "reason": source.reason}
        assert _stored.stored_cases(FAMILY, seed=seed, examples=examples, deep=deep) is None

    @pytest.mark.parametrize(
        ("make", "why"),
        [
            (lambda tmp: tmp / "absent.json.gz", "is missing"),
            (lambda tmp: _write(tmp, b"not gzip at all"), "is not a gzip file"),
            (lambda tmp: _write(tmp, gzip.compress(b"{not json")), "does not hold JSON"),
            (_other_format, "has format 'phase6-property-examples/0'"),
            (_malformed, "is malformed"),
            (_stale, "is stale"),
        ],
        ids=["missing", "not-gzip", "not-json", "other-format", "malformed", "stale"],
    )
    def test_unusable_file_means_live(
        self,
        make: Callable[[Path], Path],
        why: str,
        tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch,
    ) -> None:
        """A missing, corrupt, foreign or stale file is never used: the run is live, and the
        reason names the file and what is wrong with it."""
        path = make(tmp_path)
        monkeypatch.setattr(_stored, "stored_path", lambda: path)
        source = examples_source(seed=DEFAULT_SEED, examples=None, deep=False)
        assert not source.stored
        assert why in source.reason
        assert "conformance/properties/stored/seed-6006.json.gz" in source.reason
        assert str(tmp_path) not in source.reason
        assert _stored.stored_cases(FAMILY, seed=DEFAULT_SEED, examples=None, deep=False) is None

    def test_section_reports_the_source(self) -> None:
        """The properties section's settings carry the source, and its summary names it."""
        settings = PropertySettings().resolved()
        for source, label in (
            (examples_source(seed=DEFAULT_SEED, examples=None, deep=False), "stored examples"),
            (ExamplesSource(stored=False, reason="x is stale"), "examples generated live"),
        ):
            run = PropertiesRun(REFERENCE, {}, settings, (), 0.0, examples_source=source)
            section = build_section(run)
            assert section.data["settings"]["examples_source"] == source.to_json()
            assert f"seed {DEFAULT_SEED}, {label})" in section.summary


# ------------------------------------------------------------------------------ replay


class TestReplay:
    """A default run feeds the stored cases to the family's check; whatever a stored case
    does, the family's result is the one the live path gives."""

    def test_passing_replay_is_a_passing_live_run(self, probe: Probe) -> None:
        """Every stored case reaches the check once, in order; the result counts them as the
        live run's calls and examples."""
        check = Scripted()
        result = _scripted_run(check, probe)
        assert result.outcome is Outcome.PASSED
        assert check.seen == list(_stored_cases())
        assert result.calls == result.examples == FAMILY.examples

    def test_failing_stored_case_is_found_again_and_shrunk(self, probe: Probe) -> None:
        """A stored case failing sends the family to hypothesis, which fails on the same case
        and shrinks it: a shrunk counterexample, without a note about stored examples."""
        target = _stored_cases()[5]

        def fail_on_target(case: Case, _: int) -> None:
            if case == target:
                raise PropertyFailure("scripted", ("S6-OUT-01",), "the scripted case")

        check = Scripted(raising=fail_on_target)
        result = _scripted_run(check, probe)
        assert result.outcome is Outcome.FAILED
        assert result.shrunk
        assert result.message == "the scripted case"
        assert result.calls == len(check.seen) > 6
        inputs = [vector["input"]["request"] for vector in result.counterexamples]
        assert inputs == [scenario.request for scenario in target.scenarios]

    def test_failure_not_reproduced_live_is_reported_unshrunk(self, probe: Probe) -> None:
        """A stored case that fails while the live run passes (here: only the first call
        ever fails) is the counterexample, unshrunk, and the message says why."""

        def first_call_fails(case: Case, call: int) -> None:
            if call == 1:
                raise PropertyFailure("scripted", ("S6-OUT-01",), "the first call")

        check = Scripted(raising=first_call_fails)
        result = _scripted_run(check, probe)
        assert result.outcome is Outcome.FAILED
        assert not result.shrunk
        assert result.message.startswith("the first call (found by the stored certification")
        assert "did not reproduce it" in result.message
        assert result.calls == 1 + FAMILY.examples
        first = _stored_cases()[0]
        inputs = [vector["input"]["request"] for vector in result.counterexamples]
        assert inputs == [scenario.request for scenario in first.scenarios]
        assert all("not shrunk" in str(vector["comment"]) for vector in result.counterexamples)

    @pytest.mark.parametrize("abort", ["adapter", "kit"])
    def test_abort_is_reported_as_live(
        self, abort: str, probe: Probe, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
    ) -> None:
        """The adapter (or the kit) failing on the third stored case gives the errored result
        a live run gives on the same case: message, check, clauses and counterexample."""
        target = _stored_cases()[2]

        def abort_on_target(case: Case, _: int) -> None:
            if case != target:
                return
            if abort == "kit":
                raise KitAbort("the scripted kit failure", case.scenario)
            raise AdapterAbort(AdapterCrashedError("scripted crash"), case.scenario)

        replayed = _scripted_run(Scripted(raising=abort_on_target), probe)
        monkeypatch.setattr(_stored, "stored_path", lambda: tmp_path / "missing.json.gz")
        live = _scripted_run(Scripted(raising=abort_on_target), probe)
        assert replayed.outcome is Outcome.ERRORED
        assert replayed.calls == 3
        assert replayed.check == abort
        assert _timeless(replayed) == _timeless(live)
        if abort == "adapter":
            inputs = [vector["input"]["request"] for vector in replayed.counterexamples]
            assert inputs == [target.scenario.request]


@pytest.mark.slow
class TestReplayAgainstTheReference:
    """Against a real implementation the stored examples give a live run's result: the same
    inputs, in the same order, the same outcome, counts and counterexamples."""

    @pytest.mark.parametrize("family", ["budget", "receipt"])
    def test_replay_equals_live(
        self, family: str, probe: Probe, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
    ) -> None:
        """The reference passes the family on exactly the cases a live run draws, with the
        same result fields."""
        settings = PropertySettings().resolved()
        chosen = FAMILIES[family]
        replay_check, live_check = Scripted(), Scripted()

        def real(check: Scripted) -> Callable[[Probe, Case], None]:
            def run(probe: Probe, case: Case) -> None:
                check(probe, case)
                chosen.check(probe, case)

            return run

        replayed = run_family(replace(chosen, check=real(replay_check)), probe, settings)
        monkeypatch.setattr(_stored, "stored_path", lambda: tmp_path / "missing.json.gz")
        live = run_family(replace(chosen, check=real(live_check)), probe, settings)
        assert replay_check.seen == live_check.seen
        assert _timeless(replayed) == _timeless(live)
        assert replayed.outcome is Outcome.PASSED

    def test_failing_fake_gets_the_live_shrunk_counterexample(
        self, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
    ) -> None:
        """A fake the order family catches gets, from the stored examples' fallback, the shrunk
        counterexample a live run finds."""
        spec = "python:property_fakes:reverse_selected"
        settings = PropertySettings(families=("order",))
        stored = run_properties(spec, settings)
        monkeypatch.setattr(_stored, "stored_path", lambda: tmp_path / "missing.json.gz")
        live = run_properties(spec, settings)
        (from_stored,), (from_live,) = stored.results, live.results
        assert stored.examples_source.stored
        assert not live.examples_source.stored
        assert from_stored.outcome is Outcome.FAILED
        assert from_stored.shrunk
        assert "stored" not in from_stored.message
        assert from_stored.message == from_live.message
        assert [v["id"] for v in from_stored.counterexamples] == [
            v["id"] for v in from_live.counterexamples
        ]
        assert from_stored.calls > from_live.calls

    def test_corrupt_file_gives_a_live_run_and_says_so(
        self, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
    ) -> None:
        """With a corrupt stored file a default run still certifies, live, and its report
        section says the examples were generated live and why."""
        path = _write(tmp_path, b"\x1f\x8b broken")
        monkeypatch.setattr(_stored, "stored_path", lambda: path)
        run = run_properties(REFERENCE, PropertySettings(families=("scores",)))
        section = build_section(run)
        assert run.passed
        assert section.data["settings"]["examples_source"]["source"] == "live"
        assert "is not a gzip file" in section.data["settings"]["examples_source"]["reason"]
        assert "examples generated live" in section.summary

    def test_workers_replay_and_give_the_serial_results(self) -> None:
        """Worker processes replay the stored examples too: a default run dealt to two workers
        gives the serial run's results."""
        settings = PropertySettings(families=("budget", "scores", "receipt"))
        serial = run_properties(REFERENCE, settings, jobs=1)
        parallel = run_properties(REFERENCE, settings, jobs=2)
        assert parallel.examples_source.stored
        assert [_timeless(r) for r in parallel.results] == [_timeless(r) for r in serial.results]
        assert parallel.passed
