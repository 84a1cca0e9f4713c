"""Behavioural probes: they pass on the reference and each catches a fake built to break it."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest
from paths import FAKES

from conformance import SectionContext, load_clauses, load_corpus, reference_adapter_spec
from conformance.cli import main as phase6_main
from conformance.probes import (
    PROBES,
    ProbeRun,
    _tools,
    _workspace,
    certify_section,
    clause_rollup,
    probe_clauses,
    run_probes,
)
from conformance.probes._tools import Tool
from conformance.probes._trace import parse_log

REFERENCE = reference_adapter_spec()


def fake(name: str) -> str:
    """The adapter spec of ``tests/fakes/probe_<name>.py``."""
    return "cmd:" + shlex.join([sys.executable, str(FAKES / f"probe_{name}.py")])


@pytest.fixture(scope="module")
def reference_run() -> ProbeRun:
    """Every probe, once, against the reference."""
    return run_probes(REFERENCE)


@pytest.mark.slow  # runs every probe once
class TestRegister:
    def test_probe_names_are_the_registers(self) -> None:
        """The probes are exactly the probe:<name> entries of specs/clauses.toml."""
        named = {
            entry.removeprefix("probe:")
            for clause in load_clauses()
            for entry in clause.verified_by
            if entry.startswith("probe:")
        }
        assert set(PROBES) == named

    @pytest.mark.parametrize("name", list(PROBES))
    def test_checks_cover_the_probes_clauses(self, reference_run: ProbeRun, name: str) -> None:
        """The checks of a probe together verify every clause that names the probe."""
        covered = {c for r in reference_run.results if r.probe == name for c in r.clauses}
        assert covered == set(probe_clauses(name))

    def test_rollup_has_no_untested_clause(self, reference_run: ProbeRun) -> None:
        """The per-clause roll-up lists each probe clause with a real outcome."""
        rollup = clause_rollup(reference_run.results)
        assert rollup
        assert all(entry["outcome"] != "untested" for entry in rollup.values())


@pytest.mark.slow  # runs every probe against the reference
class TestReference:
    @pytest.mark.parametrize("name", list(PROBES))
    def test_reference_passes(self, reference_run: ProbeRun, name: str) -> None:
        """On the reference every check passes, or is skipped with the reason."""
        mine = [r for r in reference_run.results if r.probe == name]
        assert mine
        for result in mine:
            assert result.outcome in ("passed", "skipped"), (result.id, result.message)
            assert result.message

    def test_whole_run_is_quick(self, reference_run: ProbeRun) -> None:
        """All probes together stay well under a minute on the reference."""
        assert reference_run.duration_s < 60

    def test_section_provider(self) -> None:
        """The certify section reports per-check items with clauses and a per-clause roll-up."""
        context = SectionContext(
            REFERENCE, load_corpus(), (), None, 1, 30.0, {"probes": "receipt,errors-repeat"}
        )
        section = certify_section(context)
        assert section.name == "probes"
        assert section.affects_verdict
        assert section.status == "passed"
        assert {item.id.split(":")[0] for item in section.items} == {"receipt", "errors-repeat"}
        assert all(item.clauses for item in section.items)
        assert set(section.data["clauses"]) == {
            *probe_clauses("receipt"),
            *probe_clauses("errors-repeat"),
        }

    def test_cli_prints_a_table(self, capsys: pytest.CaptureFixture[str]) -> None:
        """`phase6 probes --probe receipt` prints one row per check, exit 0."""
        assert phase6_main(["probes", "--probe", "receipt"]) == 0
        out = capsys.readouterr().out
        assert "receipt:shape" in out
        assert "receipt:success-only" in out


def _available(*tools: Tool) -> bool:
    return all(tool.available for tool in tools)


@pytest.mark.slow  # runs a probe per fake
class TestFakes:
    @pytest.mark.parametrize(
        ("probe", "fake_name", "always", "with_tools"),
        [
            ("clock", "clock", {"clock:no-now-no-recency"}, {"clock:shifted-clock": "faketime"}),
            ("environment", "environment", {"environment:hash-seed"}, {}),
            (
                "network",
                "network",
                set(),
                {"network:no-namespace": "unshare", "network:no-sockets": "strace"},
            ),
            ("read-only", "read_only", {"read-only:stamps"}, {"read-only:write-opens": "strace"}),
            (
                "receipt",
                "receipt",
                {"receipt:shape", "receipt:no-content", "receipt:success-only"},
                {},
            ),
            (
                "errors-repeat",
                "errors_repeat",
                {"errors-repeat:same-process", "errors-repeat:fresh-process"},
                {},
            ),
            ("streaming", "streaming", set(), {"streaming:bounded-memory": "proc"}),
        ],
    )
    def test_probe_catches_its_fake(
        self, probe: str, fake_name: str, always: set[str], with_tools: dict[str, str]
    ) -> None:
        """Each probe fails on the fake breaking its rule (checks needing a missing tool skip)."""
        tools = {
            "faketime": _tools.faketime(),
            "unshare": _tools.unshare(),
            "strace": _tools.strace(),
            "proc": _tools.proc_status(),
        }
        expected = always | {check for check, tool in with_tools.items() if tools[tool].available}
        if not expected:
            pytest.skip(f"no tool for the {probe} probe here")
        run = run_probes(fake(fake_name), [probe])
        failed = {r.id for r in run.results if r.outcome == "failed"}
        assert expected <= failed, [(r.id, r.outcome, r.message) for r in run.results]


class TestSkips:
    def test_missing_faketime_skips_shifted_clock(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """Without faketime the shifted-clock check is skipped with the reason, never passed."""
        monkeypatch.setattr(_tools, "faketime", lambda: Tool("faketime", reason="no faketime here"))
        run = run_probes(REFERENCE, ["clock"])
        shifted = next(r for r in run.results if r.check == "shifted-clock")
        assert shifted.outcome == "skipped"
        assert shifted.message == "no faketime here"

    def test_missing_unshare_and_strace_skip_network(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """Without unshare and strace both network checks are skipped, the probe not passed."""
        monkeypatch.setattr(_tools, "unshare", lambda: Tool("unshare", reason="no namespace"))
        monkeypatch.setattr(_tools, "strace", lambda: Tool("strace", reason="no ptrace"))
        run = run_probes(REFERENCE, ["network"])
        assert {r.outcome for r in run.results} == {"skipped"}
        assert run.outcome == "skipped"

    def test_broken_adapter_errors(self) -> None:
        """An adapter that does not start makes every check errored, not failed or passed."""
        run = run_probes("cmd:" + shlex.join([sys.executable, "-c", "pass"]), ["receipt"])
        assert {r.outcome for r in run.results} == {"errored"}


class TestInternals:
    def test_workspace_is_deterministic(self, tmp_path: Path) -> None:
        """Two builds of the probe workspace hold the same bytes."""
        one = _workspace.build(tmp_path / "one")
        two = _workspace.build(tmp_path / "two", reverse=True)
        for name, content in _workspace.FILES:
            if content is not None:
                assert (one / name).read_bytes() == (two / name).read_bytes() == content

    def test_sized_store_padding_keeps_records(self) -> None:
        """Padding moves line starts but not the records."""
        plain = _workspace.sized_store([10, 5000], padding=(0,)).splitlines()
        padded = _workspace.sized_store([10, 5000], padding=(7,)).splitlines()
        assert [len(p) - len(q) for p, q in zip(padded, plain, strict=True)] == [7, 7]

    def test_strace_lines_are_parsed(self, tmp_path: Path) -> None:
        """strace -y lines resolve relative paths and flag writes and internet sockets."""
        log = tmp_path / "trace.123"
        log.write_text(
            '1.5 openat(AT_FDCWD</w/root>, "stores/a.jsonl", O_WRONLY|O_APPEND|O_CLOEXEC)'
            " = 3</w/root/stores/a.jsonl>\n"
            '1.6 openat(AT_FDCWD</w/root>, "x", O_RDONLY) = -1 ENOENT (No such file or directory)\n'
            "1.7 socket(AF_INET, SOCK_DGRAM|SOCK_CLOEXEC, IPPROTO_IP) = 4<socket:[9]>\n"
            '1.8 unlinkat(AT_FDCWD</w/root>, "t\\x41mp", 0) = 0\n'
        )
        calls = list(parse_log(log))
        assert [c.name for c in calls] == ["openat", "openat", "socket", "unlinkat"]
        assert calls[0].writes
        assert calls[0].paths == ("/w/root/stores/a.jsonl",)
        assert not calls[1].writes
        assert calls[1].paths == ("/w/root/x",)
        assert calls[2].inet
        assert calls[3].writes
        assert calls[3].paths == ("/w/root/tAmp",)


@pytest.mark.slow  # the errors-repeat probe, then the reference under every alternative
class TestInvalidRequestsReadAsValid:
    """An invalid request answered with a package is a reading only on evidence: the
    reference under a listed alternative answers it with a package too; no table decides."""

    def test_readings_that_make_a_request_valid_are_found_and_named(self) -> None:
        """The reference ignoring an invalid now_utc (INT-36) and skipping a missing store
        (INT-13), which no hand-kept table listed: the probe passes and names both."""
        readings = "INT-36/ignore-invalid-now,INT-13/skip-missing-stores-partial"
        spec = "cmd:" + shlex.join(
            [sys.executable, "-m", "reference", "serve", "--readings", readings]
        )
        run = run_probes(spec, ["errors-repeat"])
        by_id = {r.id: r for r in run.results}
        same = by_id["errors-repeat:same-process"]
        assert same.outcome == "passed", same.message
        assert by_id["errors-repeat:fresh-process"].outcome == "passed"
        named = same.details["read_as_valid"]
        assert "INT-36/ignore-invalid-now" in named["now-not-a-string"]
        assert "INT-13/skip-missing-stores-partial" in named["missing-store"]

    def test_a_package_no_reading_gives_is_a_problem(self) -> None:
        """Every invalid request answered with a package: those no listed reading makes
        valid (no query, a blank query, not an object) fail the check, at level required."""
        run = run_probes(fake("errors_as_packages"), ["errors-repeat"])
        same = next(r for r in run.results if r.id == "errors-repeat:same-process")
        assert same.outcome == "failed"
        assert not same.pinned
        for label in ("no-query", "blank-query", "not-an-object"):
            assert f"{label}: answered with a package; no listed reading" in same.message + str(
                same.details
            )
        assert "unknown-members: answered" not in str(same.details)  # INT-42 makes it valid
