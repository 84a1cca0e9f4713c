"""The command line: subcommands, outputs and exit codes (0 compliant, 1 not, 2 usage)."""

from __future__ import annotations

import io
import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from harness_corpus import FAKES, fake_spec, write_corpus

from conformance import Outcome, VectorResult
from conformance._kit import repo_root
from conformance.cli import main
from conformance.cli._certify import _ends
from conformance.run._progress import BarProgress, LineProgress, make_progress
from tools.bench.harness import main as bench_main


@pytest.fixture
def paths(tmp_path: Path) -> tuple[Path, Path]:
    """(vectors directory, answer table) of the synthetic corpus."""
    return write_corpus(tmp_path)


def cli(*argv: str) -> tuple[int, str]:
    """Run the CLI in-process; (exit code, stdout)."""
    out = io.StringIO()
    code = main(list(argv), out=out)
    return code, out.getvalue()


def certify_args(paths: tuple[Path, Path], fake: str, tmp_path: Path, *extra: str) -> list[str]:
    """Arguments certifying ``fake`` on the synthetic corpus, quietly, serially."""
    return [
        "certify",
        "--adapter",
        fake_spec(fake, paths[1]),
        "--vectors",
        str(paths[0]),
        "--report-dir",
        str(tmp_path / "report"),
        "--jobs",
        "1",
        "--timeout",
        "5",
        "--quiet",
        "--no-sections",
        *extra,
    ]


@pytest.fixture
def published(paths: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the synthetic corpus the published one and certify with no sections expected, so a
    run of it is a certification, not a partial run."""
    import conformance.run._certify as certify_module

    monkeypatch.setattr(certify_module, "kit_vectors_dir", lambda: paths[0])
    monkeypatch.setattr(certify_module, "SECTION_PROVIDERS", {})


class TestCertify:
    @pytest.mark.usefixtures("published")
    def test_compliant_exits_0_and_writes_the_report(
        self, paths: tuple[Path, Path], tmp_path: Path
    ) -> None:
        """A compliant implementation on the published corpus exits 0 and gets all five files."""
        code, out = cli(*certify_args(paths, "correct", tmp_path))
        assert code == 0
        assert "verdict: compliant" in out
        files = sorted(p.name for p in (tmp_path / "report").iterdir())
        assert files == ["badge.svg", "junit.xml", "report.html", "report.json", "report.md"]

    def test_partial_run_exits_3_and_says_partial(
        self, paths: tuple[Path, Path], tmp_path: Path
    ) -> None:
        """Another corpus, without sections: nothing failed, yet no verdict and no exit 0."""
        code, out = cli(*certify_args(paths, "correct", tmp_path))
        assert code == 3
        assert "verdict: PARTIAL RUN, no verdict (not the published corpus" in out
        assert "sections not run: probes, properties, suite_strength" in out
        badge = (tmp_path / "report" / "badge.svg").read_text()
        assert "partial" in badge
        assert "compliant" not in badge

    @pytest.mark.usefixtures("published")
    def test_non_compliant_exits_1(self, paths: tuple[Path, Path], tmp_path: Path) -> None:
        """Any failing required vector exits 1."""
        code, out = cli(*certify_args(paths, "wrong_hash", tmp_path))
        assert code == 1
        assert "verdict: non-compliant" in out

    def test_partial_run_with_failures_exits_1(
        self, paths: tuple[Path, Path], tmp_path: Path
    ) -> None:
        """A partial run that fails something is not compliant (exit 1), and says partial."""
        code, out = cli(*certify_args(paths, "wrong_hash", tmp_path))
        assert code == 1
        assert "verdict: PARTIAL RUN, no verdict" in out
        assert "on what ran: non-compliant" in out

    def test_broken_adapter_exits_1_and_says_so(
        self, paths: tuple[Path, Path], tmp_path: Path
    ) -> None:
        """A broken adapter is a verdict (exit 1), reported as 'adapter broken'."""
        code, out = cli(*certify_args(paths, "crash_on_start", tmp_path))
        assert code == 1
        assert "adapter broken" in out

    def test_broken_adapter_shows_its_stderr(
        self, paths: tuple[Path, Path], tmp_path: Path
    ) -> None:
        """The console shows what a crashing adapter wrote to stderr under the signature's
        example (a stranger's first question: why did it not start?), not only the report."""
        _, out = cli(*certify_args(paths, "crash_on_start", tmp_path))
        lines = out.splitlines()
        at = lines.index("     its stderr (the end the report keeps):")
        assert lines[at + 1] == "       | boom: cannot initialise the controller"

    def test_long_stderr_shows_both_ends(self) -> None:
        """A long stderr shows its first and last lines (the error opens a Node.js or Go
        trace and closes a Python one) and how many lines are left out between."""
        lines = [f"line {n}" for n in range(20)]
        assert _ends(lines, 6) == [*lines[:6], "... (8 lines)", *lines[-6:]]
        assert _ends(lines[:13], 6) == lines[:13]

    @pytest.mark.usefixtures("published")
    def test_expected_failures_make_a_clean_run_exit_0(
        self, paths: tuple[Path, Path], tmp_path: Path
    ) -> None:
        """With every failure listed the run is clean (exit 0), yet not called compliant."""
        listed = tmp_path / "xfail.txt"
        listed.write_text("alpha-*  # hash bug\nbeta-0-trigger  # hash bug\n")
        code, out = cli(
            *certify_args(paths, "wrong_hash", tmp_path, "--expected-failures", str(listed))
        )
        assert code == 0
        assert "verdict: non-compliant" in out
        assert "expected failure" in out

    @pytest.mark.usefixtures("published")
    def test_stale_entry_is_reported(self, paths: tuple[Path, Path], tmp_path: Path) -> None:
        """An expected-failure entry that matches no vector is printed."""
        listed = tmp_path / "xfail.txt"
        listed.write_text("gone-vector  # fixed long ago\n")
        code, out = cli(
            *certify_args(paths, "correct", tmp_path, "--expected-failures", str(listed))
        )
        assert code == 0
        assert "stale expected-failure entry" in out

    @pytest.mark.parametrize(
        "extra",
        [["--select", "no-such-*"], ["--jobs", "-1"], ["--timeout", "0"], ["--bogus"]],
    )
    def test_usage_errors_exit_2(
        self, paths: tuple[Path, Path], tmp_path: Path, extra: list[str]
    ) -> None:
        """Bad arguments exit 2."""
        code, _ = cli(*certify_args(paths, "correct", tmp_path, *extra))
        assert code == 2

    def test_bad_adapter_spec_exits_2(self, paths: tuple[Path, Path], tmp_path: Path) -> None:
        """An adapter string without python: or cmd: is a usage error."""
        code, _ = cli("certify", "--adapter", "reference", "--vectors", str(paths[0]), "-q")
        assert code == 2

    def test_reproduce_command_reruns_one_vector(
        self, paths: tuple[Path, Path], tmp_path: Path
    ) -> None:
        """The reproduce command in the report reruns exactly the failing vector, with no
        section, and leaves the report where it is untouched."""
        cli(*certify_args(paths, "wrong_hash", tmp_path))
        report_json = tmp_path / "report" / "report.json"
        before = report_json.read_bytes()
        report = json.loads(before)
        failing = next(r for r in report["results"] if r["outcome"] == "failed")
        command = failing["reproduce"]
        assert command.startswith("python -m conformance rerun --adapter ")
        assert command.endswith(f" {failing['id']}")
        argv = shlex.split(command)[3:]
        code, out = cli(*argv)
        assert code == 1
        assert f"FAILED {failing['id']}" in out
        assert "expected:" in out
        assert "0/1 passed" in out
        assert report_json.read_bytes() == before

    def test_a_phase2_vector_is_sent_to_its_reproduce_command(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """``rerun`` of a Phase 2 vector ID (the README's rerun, tried by a Phase 2
        implementer) is a usage error that prints the command that does rerun it, which runs
        as printed."""
        code, _ = cli("rerun", "--sandbox", "off", "p2-entities-h001")
        assert code == 2
        said = capsys.readouterr().err
        assert "Phase 2 vector(s), which rerun does not run" in said
        command = said.split("this command does (as their report prints it): ", 1)[1].strip()
        assert command.startswith("python -m conformance certify --profile phase2-context ")
        code, out = cli(*shlex.split(command)[3:], "--sandbox", "off")
        assert code == 3, out  # a partial run in which nothing failed
        assert "1/1 passed" in out


class TestSmoke:
    def _smoke(self, paths: tuple[Path, Path], fake: str) -> tuple[int, str]:
        return cli(
            "smoke",
            "--adapter",
            fake_spec(fake, paths[1]),
            "--vectors",
            str(paths[0]),
            "--timeout",
            "2",
        )

    def test_working_adapter(self, paths: tuple[Path, Path]) -> None:
        """A working adapter: handshake ok, every smoke vector passes."""
        code, out = self._smoke(paths, "correct")
        assert code == 0
        assert "handshake ok: fake 0.0.1" in out
        assert "smoke ok" in out

    @pytest.mark.parametrize(
        ("fake", "says"),
        [
            ("crash_on_start", "adapter broken: handshake failed"),
            ("wrong_protocol", "adapter broken: handshake failed"),
            ("wrong_seq", "adapter broken: every vector errored"),
        ],
    )
    def test_broken_adapter(self, paths: tuple[Path, Path], fake: str, says: str) -> None:
        """When nothing works, smoke says 'adapter broken: <why>' plainly."""
        code, out = self._smoke(paths, fake)
        assert code == 1
        assert says in out

    def test_failure_gets_a_reproduce_command(self, paths: tuple[Path, Path]) -> None:
        """A failing vector is shown with expected vs actual and a reproduce command."""
        code, out = self._smoke(paths, "wrong_hash")
        assert code == 1
        assert "expected:" in out
        assert "reproduce: python -m conformance rerun --adapter" in out


class TestReportAndCompare:
    def test_report_rerenders(self, paths: tuple[Path, Path], tmp_path: Path) -> None:
        """`report` rebuilds md/html/junit/badge from report.json alone."""
        cli(*certify_args(paths, "correct", tmp_path))
        (tmp_path / "report" / "report.md").unlink()
        code, _ = cli(
            "report", str(tmp_path / "report" / "report.json"), "--out", str(tmp_path / "again")
        )
        assert code == 0
        assert (tmp_path / "again" / "report.md").read_text().startswith("# phase6-v1 compliance")

    def test_report_rejects_a_broken_file(self, tmp_path: Path) -> None:
        """A report.json that does not validate is a harness error (exit 2)."""
        bad = tmp_path / "report.json"
        bad.write_text('{"format": "phase6-report/1"}')
        assert cli("report", str(bad))[0] == 2

    def test_compare(self, paths: tuple[Path, Path], tmp_path: Path) -> None:
        """`compare` prints a side-by-side table, or writes md + html with --out."""
        cli(*certify_args(paths, "correct", tmp_path / "a"))
        cli(*certify_args(paths, "wrong_hash", tmp_path / "b"))
        reports = [str(tmp_path / "a" / "report"), str(tmp_path / "b" / "report")]
        code, out = cli("compare", *reports)
        assert code == 0
        assert "| verdict | compliant | non-compliant |" in out
        code, _ = cli("compare", *reports, "--out", str(tmp_path / "cmp"))
        assert code == 0
        assert (tmp_path / "cmp" / "compare.html").is_file()


CLAUSES = """format = "phase6-clauses/1"
[[clause]]
id = "S6-OUT-01"
verified_by = ["vectors"]
[[clause]]
id = "S6-HASH-01"
verified_by = ["vectors", "property:hashes"]
[[clause]]
id = "S6-ERR-02"
verified_by = ["vectors"]
"""
INTERPRETATIONS = """format = "phase6-interpretations/1"
[[entry]]
id = "INT-01"
title = "Canonical JSON"
"""


class TestVectors:
    def test_list_and_show(self, paths: tuple[Path, Path]) -> None:
        """`vectors list` prints one line per vector; `show` prints one vector as JSON."""
        code, out = cli("vectors", "--vectors", str(paths[0]), "list", "--select", "alpha")
        assert code == 0
        assert [line.split("\t")[0] for line in out.splitlines()] == ["alpha-one", "alpha-pinned"]
        code, out = cli("vectors", "--vectors", str(paths[0]), "show", "beta-error")
        assert code == 0
        shown = json.loads(out.split("\n", 1)[1])
        assert shown["expect"] == {"error": {"code": "invalid_query", "path": "/query"}}
        assert cli("vectors", "--vectors", str(paths[0]), "show", "nope")[0] == 2

    def test_check(self, paths: tuple[Path, Path], tmp_path: Path) -> None:
        """`vectors check` passes a good corpus and fails bad data or unknown IDs with exit 1."""
        specs = tmp_path / "specs"
        specs.mkdir()
        (specs / "clauses.toml").write_text(CLAUSES)
        (specs / "interpretations.toml").write_text(INTERPRETATIONS)
        base = ["vectors", "--vectors", str(paths[0]), "--specs", str(specs)]
        code, out = cli(*base, "check")
        assert code == 0, out
        assert "4 vectors" in out
        (specs / "clauses.toml").write_text(CLAUSES.replace("S6-ERR-02", "S6-ERR-99"))
        code, out = cli(*base, "check")
        assert code == 1
        assert "unknown IDs S6-ERR-02" in out
        (paths[0] / "alpha.json").write_text("[]")
        assert cli(*base, "check")[0] == 1

    def test_coverage(self, paths: tuple[Path, Path], tmp_path: Path) -> None:
        """Coverage writes the table, fails on gaps, and --check catches a stale table."""
        specs = tmp_path / "specs"
        specs.mkdir()
        (specs / "clauses.toml").write_text(CLAUSES)
        (specs / "interpretations.toml").write_text(INTERPRETATIONS)
        base = ["vectors", "--vectors", str(paths[0]), "--specs", str(specs), "coverage"]
        code, out = cli(*base)
        assert code == 1
        assert "S6-OUT-01: only 2 vector(s)" in out
        assert "S6-ERR-02: only 1 vector(s)" in out
        assert "S6-HASH-01" not in out.split("problem:", 1)[1]
        coverage = json.loads((specs / "coverage.json").read_text())
        assert coverage["clauses"]["S6-HASH-01"]["status"] == "other"
        assert coverage["interpretations"]["INT-01"]["vectors"] == ["alpha-pinned"]
        assert "| S6-OUT-01 |" in (specs / "coverage.md").read_text()
        relaxed = CLAUSES.replace('["vectors"]', '["vectors", "probe:x"]')
        (specs / "clauses.toml").write_text(relaxed)
        code, out = cli(*base, "--check")
        assert code == 1
        assert "out of date" in out
        assert cli(*base)[0] == 0
        assert cli(*base, "--check")[0] == 0
        (specs / "interpretations.toml").write_text(
            INTERPRETATIONS + '[[entry]]\nid = "INT-02"\ntitle = "x"\n'
        )
        code, out = cli(*base, "--no-write")
        assert code == 1
        assert "INT-02: no vector pins it" in out


class TestEntryPoints:
    def test_python_dash_m(self) -> None:
        """`python -m conformance --help` works and lists the subcommands."""
        root = repo_root()
        assert root is not None
        done = subprocess.run(
            [sys.executable, "-m", "conformance", "--help"],
            cwd=root,
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0
        for command in ("certify", "smoke", "report", "compare", "vectors"):
            assert command in done.stdout

    def test_no_command_is_a_usage_error(self) -> None:
        """Without a subcommand the CLI exits 2."""
        assert cli()[0] == 2


class TestProgress:
    def _result(self, outcome: Outcome) -> VectorResult:
        return VectorResult("v-1", "alpha", "required", ("S6-OUT-01",), (), "alpha.json", outcome)

    def test_ci_lines(self) -> None:
        """In CI (not a TTY) only results that did not pass get a line, plus the summary."""
        stream = io.StringIO()
        progress = make_progress(stream)
        assert isinstance(progress, LineProgress)
        progress.start(2, "vectors")
        progress.advance(self._result(Outcome.PASSED))
        progress.advance(self._result(Outcome.FAILED))
        progress.finish()
        lines = stream.getvalue().splitlines()
        assert lines[0] == "vectors: 2 vectors"
        assert lines[1].startswith("FAIL v-1")
        assert lines[-1].startswith("vectors: 2/2 done")

    def test_bar(self) -> None:
        """On a terminal a bar is redrawn in place."""
        stream = io.StringIO()
        progress = BarProgress(stream)
        progress.start(2, "vectors")
        progress.advance(self._result(Outcome.PASSED))
        progress.advance(self._result(Outcome.ERRORED))
        progress.finish()
        assert "\r" in stream.getvalue()
        assert "[##############################] 2/2" in stream.getvalue()

    def test_quiet(self) -> None:
        """--quiet prints nothing."""
        stream = io.StringIO()
        progress = make_progress(stream, quiet=True)
        progress.start(1, "vectors")
        progress.note("hello")
        progress.advance(self._result(Outcome.FAILED))
        assert stream.getvalue() == ""


class TestBench:
    def test_bench_measures_both_adapters(
        self, paths: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """tools.bench.harness:main certifies in-process and through a subprocess, writes JSON."""
        monkeypatch.syspath_prepend(str(FAKES))
        monkeypatch.setenv("PHASE6_FAKE_TABLE", str(paths[1]))
        out = tmp_path / "bench.json"
        code = bench_main(
            [
                "--vectors",
                str(paths[0]),
                "--jobs",
                "1",
                "--in-process",
                "python:inprocess:correct",
                "--subprocess",
                fake_spec("correct", paths[1]),
                "--out",
                str(out),
            ]
        )
        assert code == 0
        document = json.loads(out.read_text())
        assert set(document["runs"]) == {"in-process", "subprocess"}
        assert document["runs"]["subprocess"]["vectors"] == 4
        assert document["runs"]["in-process"]["verdict"] == "compliant"
