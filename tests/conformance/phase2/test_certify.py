"""``certify --profile phase2-context``: verdicts, exit codes (0 compliant, 1 non-compliant, 2
usage or harness error, 3 partial) and the report, for the reference engine in-process, as a
subprocess and over real HTTP, for the fake engines (each non-compliant on its own clauses), and
for implementations that misbehave (a result, never a harness crash)."""

from __future__ import annotations

import contextlib
import functools
import http.server
import importlib
import io
import json
import shlex
import sys
import threading
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from paths import FAKES as FAKE_PROGRAMS
from phase2_fakes import CONTROLS, FAKES
from phase2_service import commands, port_block, serve

from conformance.cli import main

REFERENCE = "python:reference.phase2:run_vector_call"
#: The hostile --load / --dump / --job command of the adapter tests (a mode per argument).
FAKE_COMMANDS = FAKE_PROGRAMS / "phase2_command.py"
#: fake -> the property its fault breaks (the only one that fails); its clause is the fake's
#: BREAKS, which must also be among the clauses of the vectors that failed.
BROKEN_PROPERTY = {
    "trims_summary_first": "trim-order",
    "counts_tokens_differently": "sources-match-context",
    "exceeds_budget": "budget",
    "compaction_deletes_summaries": "retention",
    "endpoint_writes_rows": "no-writes",
}
#: A few vectors of every op: context (budget, tokens), compact, summarize.
FEW = (
    "id:p2-budget-h00[12]",
    "id:p2-tokens-h00[12]",
    "id:p2-compact-h00[12]",
    "id:p2-summarize-h001",
)
#: The reference engine's load, dump and job commands with a delay before load and dump, each
#: run counted (an engine whose database is slow to fill and to read).
SLOW_ENGINE = (
    f"{shlex.quote(sys.executable)} {shlex.quote(str(FAKE_PROGRAMS / 'phase2_slow_engine.py'))}"
)
#: Fixtures shared: three token vectors and a compaction on one fixture, two compactions on
#: another, two budget vectors on a third.
SHARED = (
    "id:p2-tokens-h00[123]",
    "id:p2-compact-h003",
    "id:p2-compact-h00[16]",
    "id:p2-budget-h00[12]",
)


def cli(*argv: str) -> tuple[int, str]:
    """Run the CLI in-process; (exit code, stdout)."""
    out = io.StringIO()
    code = main(list(argv), out=out)
    return code, out.getvalue()


def certify(adapter: str, report: Path, *extra: str) -> tuple[int, str, dict[str, Any]]:
    """Certify ``adapter`` under the Phase 2 profile quietly; (exit code, stdout, report.json)."""
    code, out = cli(
        "certify",
        "--profile",
        "phase2-context",
        "--adapter",
        adapter,
        "--report-dir",
        str(report),
        "--quiet",
        *extra,
    )
    document = json.loads((report / "report.json").read_text(encoding="utf-8"))
    return code, out, document


def selected(*patterns: str) -> list[str]:
    """``--select`` options for ``patterns``."""
    return [word for pattern in patterns for word in ("--select", pattern)]


def failed_properties(report: dict[str, Any]) -> dict[str, list[str]]:
    """Property name -> its clauses, for every property item of the report that failed."""
    items = report["sections"]["properties"]["items"]
    return {item["id"]: item["clauses"] for item in items if item["outcome"] == "failed"}


def failed_clauses(report: dict[str, Any]) -> set[str]:
    """The clauses of the vectors that failed (report footer, by clause)."""
    return {clause for clause, counts in report["footer"]["by_clause"].items() if counts["failed"]}


class TestReference:
    """The reference engine, certified like a stranger."""

    def test_selection_is_a_partial_run(self, tmp_path: Path) -> None:
        """A selection that passes, with the properties run, is partial: exit 3, a report."""
        code, out, report = certify(
            REFERENCE, tmp_path / "r", *selected(*FEW), "--section-option", "examples=5"
        )
        assert code == 3, out
        assert "PARTIAL RUN" in out
        header, footer = report["header"], report["footer"]
        assert (header["profile"], header["spec"], header["contract"]) == (
            "phase2-context",
            "PHASE2-memory-engine",
            "phase2-context/1",
        )
        assert footer["totals"]["total"] == footer["totals"]["passed"] == 7
        assert report["sections"]["properties"]["status"] == "passed"
        assert (tmp_path / "r" / "junit.xml").read_text().count('classname="phase2.') > 7
        html = (tmp_path / "r" / "report.html").read_text(encoding="utf-8")
        assert "phase2-context/1 compliance" in html
        assert "SPEC-006" not in html

    @pytest.mark.slow
    @pytest.mark.parametrize("adapter", [REFERENCE, None], ids=["python", "cmd"])
    def test_compliant(self, tmp_path: Path, adapter: str | None) -> None:
        """The whole corpus and every property: compliant, exit 0, in-process and as the
        default subprocess adapter."""
        extra = ("--adapter", adapter) if adapter else ()
        code, out = cli(
            "certify", "--profile", "phase2-context", *extra, "--report-dir", str(tmp_path), "-q"
        )
        report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
        assert code == 0, out
        assert report["footer"]["verdict"]["value"] == "compliant"
        assert report["footer"]["totals"]["passed"] == report["header"]["corpus"]["vectors"]
        assert report["header"]["corpus"]["vectors"] >= 361
        assert [i["outcome"] for i in report["sections"]["properties"]["items"]] == ["passed"] * 8

    @pytest.mark.slow
    def test_compliant_over_http(self, tmp_path: Path) -> None:
        """The reference service on 127.0.0.1, its SQLite database loaded, dumped and given jobs
        by the reference's own commands: every hand-worked vector passes over real HTTP on one
        service; the run is partial only for the selection and the sections left out (exit 3).

        No sections: ``nox -s certify_phase2``, which CI runs, certifies the same service with
        the same commands over HTTP on the whole corpus and the properties (the same seed and
        examples, the default for http:) and fails unless compliant, the stronger check of
        both; the properties on one service are ``test_properties_load_each_example_once``'s."""
        db = str(tmp_path / "engine.db")
        named = commands(db)
        with serve(db) as base:
            code, out, report = certify(
                f"http:{base}",
                tmp_path / "r",
                "--load",
                named["load"],
                "--dump",
                named["dump"],
                "--job",
                named["job"],
                "--no-sections",
                *selected("id:p2-*-h*"),
            )
        assert code == 3, out
        totals = report["footer"]["totals"]
        assert totals["passed"] == len(report["results"]) >= 80
        assert {r["id"].split("-")[1] for r in report["results"]} >= {"budget", "compact"}
        reasons = report["footer"]["partial_reasons"]
        assert any("select" in reason for reason in reasons), out
        # partial for the selection and the sections left out only (every capability declared)
        assert [r for r in reasons if "select" not in r] == ["sections not run: properties"]
        adapter = report["header"]["adapter"]
        assert adapter["kind"] == "http"
        assert adapter["commands"] == named

    @pytest.mark.slow
    def test_http_without_job_is_partial(self, tmp_path: Path) -> None:
        """Without --job the jobs are not declared: their vectors are skipped (never a pass)
        and the run is partial, exit 3."""
        db = str(tmp_path / "engine.db")
        named = commands(db)
        with serve(db) as base:
            code, out, report = certify(
                f"http:{base}",
                tmp_path / "r",
                "--load",
                named["load"],
                "--dump",
                named["dump"],
                "--no-sections",
                *selected(*FEW),
            )
        assert code == 3, out
        outcomes = {r["id"]: r["outcome"] for r in report["results"]}
        assert outcomes["p2-compact-h001"] == "skipped"
        assert outcomes["p2-budget-h001"] == "passed"
        assert "capability not declared: phase2.compact" in " ".join(
            report["footer"]["partial_reasons"]
        )


class TestSlowEngineOverHttp:
    """An engine whose load and dump are slow: each fixture is loaded once per worker that
    needs it, each call dumped once, and the vectors spread over a service per worker."""

    def test_loads_and_dumps_on_two_workers(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """Seven loads, not eleven (one per vector and job run): a fixture is loaded once for
        its context calls, and a compaction on it takes the database they left; every other
        job run is loaded afresh. Eleven dumps: one per context call and per job run. The
        implementation is named by --name and --version."""
        log = tmp_path / "commands.log"
        monkeypatch.setenv("PHASE2_SLOW_SECONDS", "0.05")
        monkeypatch.setenv("PHASE2_SLOW_LOG", str(log))
        db = shlex.quote(str(tmp_path / "w{worker}.db"))
        prefix = port_block(2)
        with (
            serve(str(tmp_path / "w1.db"), port=prefix * 10 + 1),
            serve(str(tmp_path / "w2.db"), port=prefix * 10 + 2),
        ):
            code, out, report = certify(
                f"http:http://127.0.0.1:{prefix}{{worker}}",
                tmp_path / "r",
                *("--load", f"{SLOW_ENGINE} load --db {db}"),
                *("--dump", f"{SLOW_ENGINE} dump --db {db}"),
                *("--job", f"{SLOW_ENGINE} job --db {db}"),
                *("--jobs", "2", "--no-sections", "--name", "slow engine", "--version", "0.6"),
                *selected(*SHARED),
            )
        assert code == 3, out
        assert report["footer"]["totals"]["passed"] == len(report["results"]) == 8
        assert Counter(log.read_text().split()) == {"load": 7, "dump": 11, "job": 6}
        header = report["header"]
        assert header["options"]["workers"] == 2
        assert "{worker}" in header["adapter"]["spec"]
        assert "w{worker}.db" in header["adapter"]["commands"]["load"]
        implementation = header["adapter"]["implementation"]
        assert (implementation["name"], implementation["version"]) == ("slow engine", "0.6")

    def test_properties_load_each_example_once(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """On one service, each generated example is loaded once: its budgeted call (the state
        dumped before and after), the same call without a budget and a compaction share one
        load; three dumps after the calls and one before."""
        log = tmp_path / "commands.log"
        monkeypatch.setenv("PHASE2_SLOW_SECONDS", "0")
        monkeypatch.setenv("PHASE2_SLOW_LOG", str(log))
        db = shlex.quote(str(tmp_path / "engine.db"))
        with serve(str(tmp_path / "engine.db")) as base:
            code, out, report = certify(
                f"http:{base}",
                tmp_path / "r",
                *("--load", f"{SLOW_ENGINE} load --db {db}"),
                *("--dump", f"{SLOW_ENGINE} dump --db {db}"),
                *("--job", f"{SLOW_ENGINE} job --db {db}"),
                *("--section-option", "examples=3"),
                *selected("id:p2-budget-h001"),
            )
        assert code == 3, out
        assert report["sections"]["properties"]["status"] == "passed"
        assert report["sections"]["properties"]["data"]["calls"] == 9
        assert Counter(log.read_text().split()) == {"load": 1 + 3, "dump": 1 + 4 * 3, "job": 3}

    @pytest.mark.parametrize(
        ("adapter", "load", "message"),
        [
            ("http:http://127.0.0.1:9", "true {worker}", "--adapter"),
            ("http:http://127.0.0.1:9{worker}", "true", "--load"),
        ],
    )
    def test_workers_need_a_service_and_database_each(
        self,
        tmp_path: Path,
        adapter: str,
        load: str,
        message: str,
        capsys: pytest.CaptureFixture[str],
    ) -> None:
        """--jobs N over http: refuses a base URL or a command without {worker} (exit 2)."""
        code, _ = cli(
            *("certify", "--profile", "phase2-context", "--adapter", adapter),
            *("--load", load, "--dump", "true {worker}", "--jobs", "2"),
            *("--report-dir", str(tmp_path / "r")),
        )
        assert code == 2
        error = capsys.readouterr().err
        assert "{worker}" in error
        assert message in error.rsplit("in ", 1)[1]
        assert not (tmp_path / "r" / "report.json").exists()


@pytest.mark.slow
class TestFakes:
    """Each fake engine fails the whole certification on the clause its fault breaks."""

    @pytest.mark.parametrize("fake", FAKES)
    def test_non_compliant_on_its_clause(self, tmp_path: Path, fake: str) -> None:
        """Exit 1, non-compliant; exactly the property of its fault fails, naming the fake's
        clause, and vectors naming that clause fail."""
        breaks = importlib.import_module(f"phase2_fakes.{fake}").BREAKS
        code, out, report = certify(f"python:phase2_fakes.{fake}:run_vector_call", tmp_path)
        assert code == 1, out
        assert report["footer"]["verdict"]["value"] == "non-compliant"
        failed = failed_properties(report)
        assert list(failed) == [BROKEN_PROPERTY[fake]]
        assert breaks in failed[BROKEN_PROPERTY[fake]]
        assert breaks in failed_clauses(report)

    @pytest.mark.parametrize("fake", CONTROLS)
    def test_control_is_compliant(self, tmp_path: Path, fake: str) -> None:
        """The control (the one allowed observability event) is compliant, exit 0."""
        code, out, report = certify(f"python:phase2_fakes.{fake}:run_vector_call", tmp_path)
        assert code == 0, out
        assert report["footer"]["verdict"]["value"] == "compliant"


BROKEN_ENGINE = """
import os, time
from reference.phase2 import run_vector_call

def run(fixture, call):
    params = dict(call.get("params", []))
    if call["op"] == "compact":
        raise RuntimeError("the database is gone")
    if call["op"] == "summarize":
        return ["not", "an", "outcome"]
    if params.get("max_tokens") == "41":  # p2-budget-h003
        time.sleep(60)
    return run_vector_call(fixture, call)

def dies(fixture, call):
    os._exit(9)
"""


class TestMisbehaving:
    """An implementation that crashes, answers garbage or hangs: results, never a harness
    crash."""

    @pytest.fixture
    def engine(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
        """A module ``p2_broken_engine`` importable from the working directory."""
        (tmp_path / "p2_broken_engine.py").write_text(BROKEN_ENGINE)
        monkeypatch.syspath_prepend(str(tmp_path))
        monkeypatch.chdir(tmp_path)
        return "p2_broken_engine"

    def test_errors_are_results(self, tmp_path: Path, engine: str) -> None:
        """A raising job, a garbage reply and a hang are errored vectors in the report: exit 1."""
        code, out, report = certify(
            f"python:{engine}:run",
            tmp_path / "r",
            *selected(*FEW, "id:p2-budget-h003"),
            "--no-sections",
            "--timeout",
            "1",
        )
        assert code == 1, out
        errors = {r["id"]: r["error"]["kind"] for r in report["results"] if r["error"]}
        assert errors["p2-compact-h001"] == "internal-error"
        assert errors["p2-summarize-h001"] == "protocol"
        assert errors["p2-budget-h003"] == "timeout"
        assert {r["id"]: r["outcome"] for r in report["results"]}["p2-budget-h001"] == "passed"
        # these vectors rest on pinned interpretations (the estimator, P2-INT-01), but a crash,
        # a garbage reply or a hang is never a reading: non-compliant, whatever the level
        assert report["footer"]["verdict"]["value"] == "non-compliant"

    def test_crash_every_time_breaks_the_adapter(self, tmp_path: Path, engine: str) -> None:
        """A callable that ends its process on every call: crashes in a row stop the run as
        adapter broken, exit 1, the rest skipped."""
        code, out, report = certify(
            f"python:{engine}:dies",
            tmp_path / "r",
            "--no-sections",
            "--max-consecutive-failures",
            "2",
        )
        assert code == 1, out
        assert report["footer"]["broken_reason"]
        totals = report["footer"]["totals"]
        assert totals["errored"] == 2
        assert totals["skipped"] == totals["total"] - 2

    def test_service_answering_html_errs(self, tmp_path: Path) -> None:
        """A web server that is not a Phase 2 service (404 pages in HTML): every vector errs
        with a protocol error, exit 1, and the report is written."""
        handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(tmp_path))
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        fake = f"{shlex.quote(sys.executable)} {shlex.quote(str(FAKE_COMMANDS))}"
        try:
            with contextlib.redirect_stderr(io.StringIO()):  # the server's access log
                code, out, report = certify(
                    f"http:http://127.0.0.1:{server.server_address[1]}",
                    tmp_path / "r",
                    "--load",
                    f"{fake} ok",
                    "--dump",
                    f"{fake} state",
                    "--no-sections",
                    *selected("id:p2-budget-h00[12]"),
                )
        finally:
            server.shutdown()
            server.server_close()
            thread.join(10)
        assert code == 1, out
        kinds = [r["error"]["kind"] for r in report["results"]]
        assert kinds == ["protocol", "protocol"]
        assert "not JSON" in report["results"][0]["error"]["message"]

    def test_spec006_adapter_is_adapter_broken(self, tmp_path: Path) -> None:
        """A SPEC-006 implementation fails the Phase 2 handshake: adapter broken, exit 1."""
        spec = f"cmd:{shlex.quote(sys.executable)} -m reference serve"
        code, out, report = certify(spec, tmp_path / "r", *selected("id:p2-budget-h001"))
        assert code == 1, out
        assert report["footer"]["verdict"]["value"] == "adapter-broken"
        assert "phase2-context/1" in report["footer"]["broken_reason"]


class TestUsage:
    """What cannot be certified is refused before anything runs: exit 2."""

    @pytest.mark.parametrize(
        "argv",
        [
            ["--load", "true"],  # a command of the http adapter without it
            ["--adapter", "http:http://127.0.0.1:9", "--load", "true"],  # no --dump
            ["--adapter", "ftp:host"],
            ["--jobs", "2"],
            ["--section", "probes"],
        ],
    )
    def test_refused(self, argv: list[str], tmp_path: Path) -> None:
        """Options the profile cannot honour exit 2 and write no report."""
        code, _ = cli(
            "certify", "--profile", "phase2-context", *argv, "--report-dir", str(tmp_path / "r")
        )
        assert code == 2
        assert not (tmp_path / "r" / "report.json").exists()

    def test_http_options_need_the_profile(self) -> None:
        """The http: adapter belongs to the Phase 2 profile only."""
        code, _ = cli("certify", "--adapter", "http:http://127.0.0.1:9", "--no-report")
        assert code == 2
