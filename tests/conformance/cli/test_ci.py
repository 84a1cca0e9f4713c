"""`phase6 ci`, the CI recipes' one script: certify, the job summary, the step outputs, the site
collection and the verdict policy (the recipes themselves, run as their platforms run them:
tests/conformance/examples/test_skeleton.py and test_recipes_clean.py)."""

from __future__ import annotations

import io
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from conformance.cli import _ci, main
from conformance.cli._common import EXIT_FAILED, EXIT_OK, EXIT_PARTIAL, EXIT_READINGS, EXIT_USAGE

#: A quick real certification: the reference in process, a few vectors, no sections (partial).
SELECTION = "--select area:package --no-sections -q -j 1 --sandbox off"


@pytest.fixture(autouse=True)
def _no_ci_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """This machine's own CI variables (if any) never leak into these tests."""
    for name in ("GITHUB_ACTIONS", "GITHUB_STEP_SUMMARY", "GITHUB_OUTPUT"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture(scope="module")
def real_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The report directory of a real (partial) certification of the reference."""
    where = tmp_path_factory.mktemp("real")
    out = io.StringIO()
    code = main(
        [
            "certify", "--adapter", "python:reference:memory_read", *SELECTION.split(),
            "--report-dir", str(where / "report"),
        ],
        out,
    )  # fmt: skip
    assert code == EXIT_PARTIAL, out.getvalue()
    return where / "report"


def _ci_run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(["ci", *argv], out), out.getvalue()


def _certify_exits(
    monkeypatch: pytest.MonkeyPatch, status: int, report: Path | None
) -> Callable[[], list[list[str]]]:
    """Make certify exit ``status`` after writing a copy of ``report`` (``None``: no report)
    where it was told to; returns the certify argument lists it was called with."""
    calls: list[list[str]] = []

    def fake(argv: list[str], out: object) -> int:
        calls.append(argv)
        if report is not None:
            shutil.copytree(report, argv[argv.index("--report-dir") + 1])
        return status

    monkeypatch.setattr(_ci, "_run_certify", fake)
    return lambda: calls


class TestPolicy:
    """The job's exit status: 0 when the policy passes certify's, certify's own otherwise."""

    @pytest.mark.parametrize(
        ("policy", "status", "job"),
        [
            ("compliant", EXIT_OK, EXIT_OK),
            ("compliant", EXIT_READINGS, EXIT_READINGS),
            ("compliant", EXIT_PARTIAL, EXIT_PARTIAL),
            ("compliant", EXIT_FAILED, EXIT_FAILED),
            ("required", EXIT_READINGS, EXIT_OK),
            ("required", EXIT_FAILED, EXIT_FAILED),
            ("required", EXIT_PARTIAL, EXIT_PARTIAL),
            ("report", EXIT_FAILED, EXIT_OK),
            ("report", EXIT_PARTIAL, EXIT_OK),
            ("report", EXIT_READINGS, EXIT_OK),
            ("report", EXIT_USAGE, EXIT_USAGE),
            ("required", EXIT_USAGE, EXIT_USAGE),
        ],
    )
    def test_policy_table(
        self,
        policy: str,
        status: int,
        job: int,
        real_report: Path,
        tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch,
    ) -> None:
        """Each policy passes exactly the statuses it names; a harness error (2) never."""
        monkeypatch.chdir(tmp_path)
        _certify_exits(monkeypatch, status, real_report)
        code, out = _ci_run("--adapter", "cmd:x", "--policy", policy, "--summary", "s.md")
        assert code == job
        last = out.splitlines()[-1]
        assert last.startswith(f"phase6 ci: certify exited {status} (")
        assert last.endswith("this job passes" if job == EXIT_OK else f"exit status {job}")

    def test_empty_values_are_not_given(
        self, real_report: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """Unset CI variables passed through as empty values: the default policy, no expected
        failures, no collection, no certify arguments, the default report directory."""
        monkeypatch.chdir(tmp_path)
        calls = _certify_exits(monkeypatch, EXIT_OK, real_report)
        code, _ = _ci_run(
            "--adapter=cmd:x", "--policy=", "--expected-failures=", "--site-collection=",
            "--certify-args=", "--report-dir=", "--summary=s.md",
        )  # fmt: skip
        assert code == EXIT_OK
        assert calls() == [["--adapter", "cmd:x", "--report-dir", "phase6-report"]]
        assert not (tmp_path / "phase6-site").exists()

    def test_certify_arguments_split_as_a_shell_would(
        self, real_report: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """--certify-args is split with shell quoting; arguments after -- come after it."""
        monkeypatch.chdir(tmp_path)
        calls = _certify_exits(monkeypatch, EXIT_OK, real_report)
        _ci_run(
            "--adapter", "cmd:x", "--expected-failures", "known.txt", "--summary", "s.md",
            "--certify-args", "--select 'area:package' --name 'my impl'", "--", "-q",
        )  # fmt: skip
        assert calls()[0][4:] == [
            "--expected-failures", "known.txt",
            "--select", "area:package", "--name", "my impl", "-q",
        ]  # fmt: skip


class TestRefused:
    """What would make the job read another report, or no adapter, is refused (exit 2), and
    the summary still says why nothing ran."""

    @pytest.mark.parametrize(
        "certify_args",
        ["--report-dir elsewhere", "--report-d elsewhere", "--adapter cmd:other", "--no-report"],
    )
    def test_options_ci_owns(
        self, certify_args: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """Certify arguments may not set the report directory or the adapter (abbreviations
        argparse accepts included), nor turn the report off."""
        monkeypatch.chdir(tmp_path)
        calls = _certify_exits(monkeypatch, EXIT_OK, None)
        code, _ = _ci_run("--adapter", "cmd:x", f"--certify-args={certify_args}", "--summary", "s")
        assert code == EXIT_USAGE
        assert calls() == []
        assert "phase6 certify wrote no report.md (exit 2" in (tmp_path / "s").read_text()

    def test_no_adapter(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        """No adapter (an unset variable) is a usage error naming --adapter; the outputs say
        exit 2 and no verdict."""
        outputs = tmp_path / "outputs"
        code, _ = _ci_run("--adapter", "", "--summary", str(tmp_path / "s"), "--outputs",
                          str(outputs))  # fmt: skip
        assert code == EXIT_USAGE
        assert "--adapter is required" in capsys.readouterr().err
        assert outputs.read_text().splitlines() == [
            "exit-code=2", "verdict=none", "partial=none", "passed=false",
            "report-dir=phase6-report",
        ]  # fmt: skip

    def test_unbalanced_quotes(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        """--certify-args that a shell could not split is a usage error quoting it."""
        code, _ = _ci_run("--adapter", "cmd:x", "--certify-args", "--name 'a", "--summary",
                          str(tmp_path / "s"))  # fmt: skip
        assert code == EXIT_USAGE
        assert '--certify-args "--name \'a"' in capsys.readouterr().err

    def test_unknown_policy(self, capsys: pytest.CaptureFixture[str]) -> None:
        """A policy that is not one of the three is a usage error listing them."""
        code, _ = _ci_run("--adapter", "cmd:x", "--policy", "lenient")
        assert code == EXIT_USAGE
        assert "compliant, required, report" in capsys.readouterr().err


class TestSummaryAndOutputs:
    """The job summary and the step outputs, as GitHub reads them."""

    def test_real_run(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        """A real partial certification: the summary (appended after what the file held)
        is report.md and the policy's line; the outputs carry certify's status, the verdict
        and that the run was partial; on GitHub a failing job gets an error annotation."""
        monkeypatch.chdir(tmp_path)
        monkeypatch.setenv("GITHUB_ACTIONS", "true")
        summary, outputs = tmp_path / "summary.md", tmp_path / "outputs"
        monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
        monkeypatch.setenv("GITHUB_OUTPUT", str(outputs))
        summary.write_text("an earlier step's summary\n", "utf-8")
        code, out = _ci_run("--adapter", "python:reference:memory_read", "--certify-args",
                            SELECTION)  # fmt: skip
        assert code == EXIT_PARTIAL
        report_md = (tmp_path / "phase6-report" / "report.md").read_text("utf-8")
        text = summary.read_text("utf-8")
        assert text.startswith("an earlier step's summary\n" + report_md)
        assert text.endswith(
            "**phase6 ci: certify exited 3 (partial run in which nothing failed: no verdict); "
            "policy 'compliant' passes on 0: this job fails with exit status 3**\n"
        )
        assert outputs.read_text().splitlines() == [
            "exit-code=3", "verdict=compliant", "partial=true", "passed=false",
            "report-dir=phase6-report",
        ]  # fmt: skip
        assert out.splitlines()[-1].startswith("::error title=phase6-v1 conformance::")

    def test_accepted_failure_is_a_warning(
        self, real_report: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """On GitHub, a status the policy passes that is not 0 leaves a warning annotation."""
        monkeypatch.chdir(tmp_path)
        monkeypatch.setenv("GITHUB_ACTIONS", "true")
        _certify_exits(monkeypatch, EXIT_READINGS, real_report)
        code, out = _ci_run("--adapter", "cmd:x", "--policy", "required", "--summary", "s")
        assert code == EXIT_OK
        assert out.splitlines()[-1].startswith("::warning title=phase6-v1 conformance::")

    def test_without_a_summary_file_the_log_gets_it(
        self, real_report: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """No --summary and no $GITHUB_STEP_SUMMARY (GitLab): report.md goes to the log."""
        monkeypatch.chdir(tmp_path)
        _certify_exits(monkeypatch, EXIT_OK, real_report)
        code, out = _ci_run("--adapter", "cmd:x")
        assert code == EXIT_OK
        assert (real_report / "report.md").read_text("utf-8") in out

    def test_long_report_is_cut_at_a_line(
        self, real_report: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """A report.md longer than a job summary holds is cut at a line under the limit, says
        so, and still ends with the policy's line."""
        monkeypatch.chdir(tmp_path)
        report_md = (real_report / "report.md").read_text("utf-8")
        limit = len(report_md.encode("utf-8")) // 2
        monkeypatch.setattr(_ci, "SUMMARY_LIMIT", limit)
        _certify_exits(monkeypatch, EXIT_OK, real_report)
        _ci_run("--adapter", "cmd:x", "--summary", "s.md")
        text = (tmp_path / "s.md").read_text("utf-8")
        assert len(text.encode("utf-8")) <= limit
        head = text.split("\n\n*The report is longer than a job summary holds")[0]
        assert head.endswith("\n")
        assert report_md.startswith(head)
        assert len(head) > len(report_md) // 4
        assert text.endswith("this job passes**\n")

    def test_unwritable_summary_fails_the_job(
        self, real_report: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """A summary path that cannot be appended to (a directory) fails a passing job with 2,
        saying why; the outputs are still written."""
        monkeypatch.chdir(tmp_path)
        _certify_exits(monkeypatch, EXIT_OK, real_report)
        (tmp_path / "a-directory").mkdir()
        code, out = _ci_run("--adapter", "cmd:x", "--summary", "a-directory", "--outputs", "o")
        assert code == EXIT_USAGE
        assert "but cannot append the job summary to 'a-directory'" in out.splitlines()[-1]
        assert "exit-code=0" in (tmp_path / "o").read_text()

    def test_annotation_escapes(self) -> None:
        """A workflow command's data escapes %, CR and LF (nothing in it can end the command
        or forge another)."""
        assert _ci._annotation("50%\r\n::error::x") == "50%25%0D%0A::error::x"


class TestSiteCollection:
    """--site-collection keeps the report with its metadata, as `phase6 site collect` does."""

    def test_collected(
        self, real_report: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """The report lands in COLLECTION/<implementation>/<version>/ with meta.json."""
        monkeypatch.chdir(tmp_path)
        _certify_exits(monkeypatch, EXIT_OK, real_report)
        code, out = _ci_run("--adapter", "cmd:x", "--site-collection", "site", "--summary", "s")
        assert code == EXIT_OK
        (meta,) = (tmp_path / "site").rglob("meta.json")
        assert (meta.parent / "report.json").is_file()
        assert "phase6 ci: site: collected reference " in out

    def test_nothing_to_collect(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        """No report: said, nothing collected, certify's status kept."""
        monkeypatch.chdir(tmp_path)
        _certify_exits(monkeypatch, EXIT_USAGE, None)
        code, out = _ci_run("--adapter", "cmd:x", "--site-collection", "site", "--summary", "s")
        assert code == EXIT_USAGE
        assert "phase6 ci: site: no report.json, nothing to collect" in out
        assert not (tmp_path / "site").exists()

    def test_collection_that_cannot_be_written_fails_the_job(
        self, real_report: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """A collection path that is a file fails a passing job with 2, in the summary too."""
        monkeypatch.chdir(tmp_path)
        _certify_exits(monkeypatch, EXIT_OK, real_report)
        (tmp_path / "site").write_text("not a directory")
        code, _ = _ci_run("--adapter", "cmd:x", "--site-collection", "site", "--summary", "s")
        assert code == EXIT_USAGE
        assert "this job fails with exit status 2" in (tmp_path / "s").read_text()


class TestStaleReport:
    """A report already in the report directory (committed, or left by an earlier step) that
    this run did not write is never taken for this run's."""

    def test_not_summarized_collected_or_read(
        self, real_report: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """Certify stops before writing (exit 2): the old report.md is not the summary, the
        outputs say no verdict, nothing is collected, and the log says why."""
        monkeypatch.chdir(tmp_path)
        shutil.copytree(real_report, tmp_path / "phase6-report")
        _certify_exits(monkeypatch, EXIT_USAGE, None)
        code, out = _ci_run(
            "--adapter", "cmd:x", "--policy", "report", "--summary", "s", "--outputs", "o",
            "--site-collection", "site",
        )  # fmt: skip
        assert code == EXIT_USAGE
        assert "phase6 certify wrote no report.md (exit 2" in (tmp_path / "s").read_text()
        assert "verdict=none" in (tmp_path / "o").read_text().splitlines()
        assert not (tmp_path / "site").exists()
        assert "phase6-report/report.json was there before and this run did not write it" in out
        assert (tmp_path / "phase6-report" / "report.json").is_file()  # nothing is lost
