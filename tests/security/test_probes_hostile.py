"""The behavioural probes trusting what an adapter controls (issue 22): the strace logs an
adapter can make as long as it likes. Each test is one attack that must be held."""

from __future__ import annotations

import shlex
import sys
import time
from pathlib import Path

import pytest
from harness_corpus import FAKES

from conformance.probes import _tools, run_probes
from conformance.probes import _trace as trace_module
from conformance.probes._trace import parse_log

needs_strace = pytest.mark.skipif(not _tools.strace().available, reason="strace cannot trace here")


class TestStraceFlood:
    """An adapter that noticed its tracer flooded it with failing 4 KB ``openat`` calls: the
    harness kept every log line (7.3 GB RSS, still growing after 10 minutes), nothing capped
    the log on disk, and with a 1 s flood the read-only probe passed."""

    @needs_strace
    def test_flood_is_a_failure_and_is_stopped(
        self, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
    ) -> None:
        """A tracer flood past the log cap kills the adapter, sends it no further request and
        fails the traced checks (write-opens, no-exec, no-sockets) instead of passing them."""
        monkeypatch.setattr(trace_module, "MAX_LOG_BYTES", 1024 * 1024)
        monkeypatch.setenv("FLOOD_SECONDS", "120")
        spec = "cmd:" + shlex.join([sys.executable, str(FAKES / "probe_floods_tracer.py")])
        started = time.monotonic()
        run = run_probes(spec, ["read-only", "network"], timeout=150.0, temp_parent=str(tmp_path))
        elapsed = time.monotonic() - started
        outcomes = {result.id: result for result in run.results}
        for check in ("read-only:write-opens", "read-only:no-exec", "network:no-sockets"):
            assert outcomes[check].outcome == "failed", outcomes[check].message
            assert "floods its tracer" in outcomes[check].message
        assert outcomes["read-only:stamps"].outcome == "passed"  # untraced: it answers
        assert elapsed < 60  # one flood of 120 s, killed at the cap: never waited out

    def test_logs_are_read_within_a_budget(self, tmp_path: Path) -> None:
        """Reading the logs stops when the byte budget runs out, even inside a line without
        end; the budget is shared by every log read with it."""
        log = tmp_path / "trace.7"
        line = '1.5 openat(AT_FDCWD</w>, "' + "x" * 4000 + '", O_RDONLY) = -1 ENOENT (x)\n'
        log.write_text(line * 1000 + "1.6 " + "y" * 100_000)
        budget = [10 * len(line)]
        assert len(list(parse_log(log, budget))) == 10
        assert budget[0] == 0
        assert list(parse_log(log, budget)) == []

    def test_kept_arguments_are_cut_and_flags_kept(self, tmp_path: Path) -> None:
        """A call's arguments are kept cut to 1 KiB, and whether it writes is decided on the
        whole line (the flags follow a 4 KB path)."""
        log = tmp_path / "trace.8"
        log.write_text('1.5 openat(AT_FDCWD</w>, "' + "x" * 4000 + '", O_WRONLY) = -1 EACCES (x)\n')
        (call,) = parse_log(log)
        assert call.writes
        assert len(call.args) == 1024
