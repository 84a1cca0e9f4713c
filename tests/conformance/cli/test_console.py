"""What ``certify`` prints: each section once, the verdict once, failing probes and properties
under "what to fix first", the report page to open, the implementation named by the user; and
every printed ``reproduce:`` and ``again:`` line runs as printed with the venv's python."""

from __future__ import annotations

import importlib.metadata
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from harness_corpus import FAKES, fake_spec, write_corpus

from conformance import Outcome, Section, SectionContext, SectionItem
from conformance.adapters._worker import python_metadata
from conformance.cli import main
from conformance.cli._certify import _section_line


def failing_probes(context: SectionContext) -> Section:
    """A stand-in probes section with one failing check."""
    return Section(
        "probes",
        "Behavioural probes",
        Outcome.FAILED,
        "2 checks",
        (
            SectionItem("receipt:no-content", Outcome.FAILED, ("S6-RCPT-07",), "excerpt leaked"),
            SectionItem("clock:timezone", Outcome.PASSED, ("S6-DET-02",)),
        ),
    )


def run(*argv: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """The CLI in-process: (exit code, stdout, what went to stderr: the progress)."""
    out = io.StringIO()
    code = main(list(argv), out=out)
    return code, out.getvalue(), capsys.readouterr().err


@pytest.fixture
def corpus(tmp_path: Path) -> tuple[Path, Path]:
    """(vectors directory, answer table) of the synthetic corpus."""
    return write_corpus(tmp_path / "corpus")


def certify_argv(corpus: tuple[Path, Path], fake: str, report: Path, *extra: str) -> list[str]:
    """``certify`` of a fake on the synthetic corpus, serially, with progress on."""
    return [
        "certify",
        "--adapter",
        fake_spec(fake, corpus[1]),
        "--vectors",
        str(corpus[0]),
        "--report-dir",
        str(report),
        "--jobs",
        "1",
        "--timeout",
        "5",
        *extra,
    ]


class TestConsole:
    def test_each_section_line_once(
        self, corpus: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """A section's status and tally are printed once (the progress only times it)."""
        section = f"probes={__name__}:failing_probes"
        _, out, err = run(
            *certify_argv(corpus, "correct", tmp_path / "r", "--section", section),
            capsys=capsys,
        )
        printed = (out + err).splitlines()
        assert [line for line in printed if line.startswith("section probes: failed")] == [
            "section probes: failed (1 failed, 1 passed)"
        ]
        assert any(re.fullmatch(r"section probes: done in [0-9.]+ s", line) for line in printed)

    def test_failing_probe_under_what_to_fix_first(
        self, corpus: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """A failed probe is named under "what to fix first", not only in the verdict line."""
        section = f"probes={__name__}:failing_probes"
        _, out, _ = run(
            *certify_argv(corpus, "correct", tmp_path / "r", "--section", section, "-q"),
            capsys=capsys,
        )
        fix = out[out.index("what to fix first") : out.index("verdict:")]
        assert (
            "  - probes receipt:no-content: failed (required) [S6-RCPT-07]: excerpt leaked" in fix
        )

    def test_verdict_said_once_and_report_page_named(
        self, corpus: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """The verdict line does not repeat its value; the report line names report.html."""
        _, out, _ = run(
            *certify_argv(corpus, "wrong_hash", tmp_path / "r", "--no-sections", "-q"),
            capsys=capsys,
        )
        verdict = next(line for line in out.splitlines() if line.startswith("verdict:"))
        assert not re.search(r"(non-compliant|compliant) — \1:", verdict)
        page = tmp_path / "r" / "report.html"
        assert f"report: open {page}\n" in out
        assert page.is_file()

    @pytest.mark.parametrize(
        ("status", "tally"),
        [(Outcome.PASSED, "3/3 mutants killed"), (Outcome.FAILED, "2/3 mutants killed")],
    )
    def test_suite_strength_is_the_kits(self, status: Outcome, tally: str) -> None:
        """Suite strength counts killed mutants and says it is not part of the verdict."""
        items = tuple(
            SectionItem(f"m{n}", Outcome.PASSED if n or status is Outcome.PASSED else status)
            for n in range(3)
        )
        line = _section_line(
            Section("suite_strength", "Suite strength", status, "", items, affects_verdict=False)
        )
        assert line.startswith("section suite_strength (the kit's own strength, not part of")
        assert tally in line
        assert "passed," not in line.split(":", 1)[1].replace(f"{status},", "")


class TestNaming:
    def test_name_and_version_options(
        self, corpus: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """--name and --implementation-version name the implementation in the report; the
        handshake's own name is kept."""
        argv = certify_argv(corpus, "correct", tmp_path / "r", "--no-sections", "-q")
        argv += ["--name", "engine <one>", "--implementation-version", "2.1.0"]
        _, out, _ = run(*argv, capsys=capsys)
        assert out.startswith("engine <one>: ")
        report = json.loads((tmp_path / "r" / "report.json").read_text())
        implementation = report["header"]["adapter"]["implementation"]
        assert (implementation["name"], implementation["version"]) == ("engine <one>", "2.1.0")
        assert implementation["handshake_name"]
        assert implementation["name_source"] == "--name"
        page = (tmp_path / "r" / "report.html").read_text()
        assert "engine &lt;one&gt; 2.1.0" in page
        assert "engine <one>" not in page

    def test_python_module_of_a_distribution(self) -> None:
        """A python: module that belongs to an installed distribution takes its version."""
        metadata = python_metadata("_pytest.runner")
        assert metadata["version"] == importlib.metadata.version("pytest")
        assert metadata["version_source"] == "the installed distribution 'pytest'"

    def test_python_module_of_no_distribution(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """A module of no distribution and no __version__ says how to name its version."""
        (tmp_path / "myimpl_unversioned.py").write_text("def read(request): return {}\n")
        monkeypatch.syspath_prepend(str(tmp_path))
        metadata = python_metadata("myimpl_unversioned")
        assert metadata["version"] == "unknown"
        assert "--implementation-version" in metadata["version_source"]


class TestHelp:
    @pytest.mark.parametrize("argv", [["--help"], ["certify", "--help"]])
    def test_exit_codes_listed(self, argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
        """Every --help that lists exit codes lists 0 to 4."""
        assert main(argv) == 0
        text = " ".join(capsys.readouterr().out.split())
        for code in ("0 compliant", "1 not compliant", "2 usage or harness error", "3 partial"):
            assert code in text
        assert "4 compliant-required-only" in text


def printed_commands(text: str, prefix: str) -> list[str]:
    """The commands printed after ``prefix`` (``reproduce:``, ``again:``), once each."""
    found = [m.group(1) for m in re.finditer(rf"^\s*{prefix} (.+)$", text, re.MULTILINE)]
    return list(dict.fromkeys(found))


def as_a_user(command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``command`` in a fresh shell, in ``cwd``, with the venv's bin first on PATH (as after
    activating it): ``python`` there is the venv's."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "PYTEST"))}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    return subprocess.run(
        ["bash", "-c", command],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


class TestPrintedCommandsRun:
    """Every ``reproduce:`` line of a failing certification, then every ``again:`` line those
    print, runs as printed (exit 0 or 1: a verdict, never a usage error)."""

    @pytest.mark.parametrize(
        "sections",
        [
            pytest.param(["--no-sections"], id="vectors"),
            pytest.param(["--section-option", "examples=5"], id="sections", marks=pytest.mark.slow),
        ],
    )
    def test_replay(self, tmp_path: Path, sections: list[str]) -> None:
        """As a new user would: certify, then paste each printed command."""
        adapter = f"cmd:python {FAKES / 'probe_receipt.py'}"
        certified = as_a_user(
            f"python -m conformance certify --adapter '{adapter}' --select area:receipt "
            f"--report-dir {tmp_path / 'report'} -q -j 2 " + " ".join(sections),
            tmp_path,
        )
        assert certified.returncode == 1, certified.stdout + certified.stderr
        reproduce = printed_commands(certified.stdout, "reproduce:")
        assert reproduce
        if "--no-sections" not in sections:
            assert any("conformance properties" in line for line in reproduce)
        again: list[str] = []
        for command in reproduce:
            replayed = as_a_user(command, tmp_path)
            _ran(command, replayed)
            again += printed_commands(replayed.stdout, "again:")
        assert again
        for command in dict.fromkeys(again):
            _ran(command, as_a_user(command, tmp_path))


def _ran(command: str, replayed: subprocess.CompletedProcess[str]) -> None:
    """``command`` ran and gave a verdict: exit 0 or 1 with a report on stdout, not a usage
    error nor Python failing to start it (exit 1 too: "No module named ...")."""
    assert replayed.returncode in (0, 1), (command, replayed.stdout, replayed.stderr)
    assert "usage:" not in replayed.stderr
    assert replayed.stdout.strip(), (command, replayed.stderr)
    assert "Traceback" not in replayed.stderr, (command, replayed.stderr)
    assert "No module named" not in replayed.stderr, (command, replayed.stderr)
