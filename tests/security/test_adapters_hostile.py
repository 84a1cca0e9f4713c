"""Strangers' code (issue 13): nothing an adapter does hangs, exhausts or crashes the harness;
every misbehaviour becomes a result, and the report is written."""

from __future__ import annotations

import json
import resource
import time
from pathlib import Path

import pytest
from harness_corpus import FAKES, TRIGGER, fake_spec, request
from hostile_support import (
    alive,
    by_id,
    certify_fake,
    kill_leftover,
    synthetic,
    written,
)

from conformance import (
    AdapterCrashedError,
    AdapterTimeoutError,
    ErrorKind,
    FailureKind,
    Outcome,
    ProtocolError,
    SubprocessAdapter,
    VerdictValue,
    open_adapter,
)
from conformance._kit import dumps
from conformance.adapters import DEFAULT_MAX_LINE_BYTES

TRIGGER_ID = "beta-0-trigger"


@pytest.fixture
def paths(tmp_path: Path) -> tuple[Path, Path]:
    """(vectors, table) of the synthetic corpus."""
    return synthetic(tmp_path)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A vector root holding the store every request reads."""
    directory = tmp_path / "root"
    (directory / "stores").mkdir(parents=True)
    (directory / "stores" / "s.jsonl").write_text('{"memory_id":"m1","text":"hello"}\n')
    return directory


@pytest.fixture
def pidfile(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> object:
    """Where a fake writes the PID of the child it leaves behind (killed afterwards if the
    harness did not)."""
    path = tmp_path / "child.pid"
    monkeypatch.setenv("PHASE6_FAKE_PIDFILE", str(path))
    yield path
    kill_leftover(path)


@pytest.fixture
def inprocess(paths: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """Make ``tests/fakes/inprocess.py`` importable and point it at the table."""
    monkeypatch.syspath_prepend(str(FAKES))
    monkeypatch.setenv("PHASE6_FAKE_TABLE", str(paths[1]))


def _req(query: str) -> bytes:
    return dumps(request(query))


def _gone(pid: int, within: float = 3.0) -> bool:
    deadline = time.monotonic() + within
    while alive(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


class TestChildrenHoldingPipes:
    """High: a child holding the adapter's stdout never hangs the harness, and is killed."""

    def test_adapter_exits_leaving_a_setsid_child(
        self, paths: tuple[Path, Path], root: Path, pidfile: Path
    ) -> None:
        """The adapter exits; its child (own session) keeps stdout open: a crash within a
        second, not a 30 s wait (or 600 s), and the child is killed."""
        adapter = SubprocessAdapter(fake_spec("orphan_holds_stdout", paths[1], "exit"), timeout=30)
        with adapter:
            adapter.start()
            started = time.monotonic()
            with pytest.raises(AdapterCrashedError, match=r"exited \(status 0\)"):
                adapter.run(_req(TRIGGER), root)
            assert time.monotonic() - started < 5
        assert _gone(int(pidfile.read_text()))

    def test_adapter_hangs_with_a_setsid_child(
        self, paths: tuple[Path, Path], root: Path, pidfile: Path
    ) -> None:
        """The adapter hangs; --timeout holds despite the child, and the child is killed."""
        adapter = SubprocessAdapter(fake_spec("orphan_holds_stdout", paths[1], "hang"), timeout=1)
        with adapter:
            adapter.start()
            started = time.monotonic()
            with pytest.raises(AdapterTimeoutError):
                adapter.run(_req(TRIGGER), root)
            assert time.monotonic() - started < 4
            assert _gone(int(pidfile.read_text()))
            assert adapter.run(_req("alpha one"), root)["package"]  # restarted

    def test_children_of_a_clean_adapter_are_ended(
        self, paths: tuple[Path, Path], root: Path, pidfile: Path
    ) -> None:
        """A child left in the adapter's group is killed when the adapter stops, even though
        the adapter itself exited cleanly."""
        adapter = SubprocessAdapter(fake_spec("orphan_holds_stdout", paths[1], "stay"))
        with adapter:
            assert adapter.run(_req(TRIGGER), root)["package"]
            child = int(pidfile.read_text())
            assert alive(child)
        assert _gone(child)

    def test_certify_with_timeout_5_finishes(
        self, paths: tuple[Path, Path], pidfile: Path, tmp_path: Path
    ) -> None:
        """The issue's run: `--timeout 5` with an adapter leaving `setsid sleep 600 &` behind
        finishes in seconds with the vector errored and the report written."""
        started = time.monotonic()
        result = certify_fake(paths, "orphan_holds_stdout", "exit", timeout=5)
        assert time.monotonic() - started < 15
        trigger = by_id(result)[TRIGGER_ID]
        assert trigger.outcome is Outcome.ERRORED
        assert trigger.error is not None
        assert trigger.error.kind is ErrorKind.CRASH
        assert _gone(int(pidfile.read_text()))
        written(result, tmp_path / "report")


class TestOutputFloods:
    """High: output is read into bounded buffers."""

    @pytest.mark.parametrize("limit", [1 << 20, None], ids=["1MiB", "default"])
    def test_stdout_without_newline(
        self, paths: tuple[Path, Path], root: Path, limit: int | None
    ) -> None:
        """A reply that never ends its line is a protocol error at the line limit; the
        harness's memory does not follow the flood."""
        cap = DEFAULT_MAX_LINE_BYTES if limit is None else limit
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        spec = fake_spec("floods_stdout", paths[1])
        with open_adapter(spec, timeout=30, max_line_bytes=cap) as adapter:
            started = time.monotonic()
            with pytest.raises(ProtocolError, match="without a newline"):
                adapter.run(_req(TRIGGER), root)
            assert time.monotonic() - started < 10
            assert adapter.run(_req("alpha one"), root)["package"]
        grown_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - peak
        assert grown_kib < 256 * 1024

    def test_certify_records_the_flood(self, paths: tuple[Path, Path], tmp_path: Path) -> None:
        """Through certify: the flooding vector errors (protocol), the others pass."""
        result = certify_fake(paths, "floods_stdout", max_line_bytes=1 << 20)
        results = by_id(result)
        trigger = results.pop(TRIGGER_ID)
        assert trigger.error is not None
        assert trigger.error.kind is ErrorKind.PROTOCOL
        assert {r.outcome for r in results.values()} == {Outcome.PASSED}
        written(result, tmp_path / "report")

    def test_stderr_flood_is_drained(self, paths: tuple[Path, Path], root: Path) -> None:
        """64 MiB of stderr per request: drained while waiting, only the tail kept (held)."""
        with open_adapter(fake_spec("floods_stderr", paths[1]), timeout=30) as adapter:
            assert isinstance(adapter, SubprocessAdapter)
            assert adapter.run(_req("alpha one"), root)["package"]
            assert len(adapter.stderr_tail()) <= 16 * 1024


class TestUnrenderableReplies:
    """Medium: replies the harness cannot keep as they are become results, and the report is
    written."""

    @pytest.mark.parametrize("depth", [5000, 300])
    def test_deep_nesting_is_a_protocol_error(
        self, paths: tuple[Path, Path], tmp_path: Path, depth: int
    ) -> None:
        """JSON nested beyond the limit errors the vector (kind protocol); no RecursionError."""
        result = certify_fake(paths, "unrenderable", f"deep-{depth}")
        trigger = by_id(result)[TRIGGER_ID]
        assert trigger.outcome is Outcome.ERRORED
        assert trigger.error is not None
        assert trigger.error.kind is ErrorKind.PROTOCOL
        assert "nested" in trigger.error.message
        written(result, tmp_path / "report")

    @pytest.mark.parametrize("mode", ["surrogate-key", "surrogate-value"])
    def test_lone_surrogates_are_kept_escaped(
        self, paths: tuple[Path, Path], tmp_path: Path, mode: str
    ) -> None:
        """A lone surrogate in a member name or a string: a mismatch whose report shows it
        escaped (\\udxxx); the report files are valid UTF-8."""
        result = certify_fake(paths, "unrenderable", mode)
        trigger = by_id(result)[TRIGGER_ID]
        assert trigger.outcome is Outcome.FAILED
        assert trigger.failures[0].kind is FailureKind.MISMATCH
        document = written(result, tmp_path / "report")
        text = json.dumps(document)
        assert "\\\\ud" in text or "\\\\udcff" in text or "\\ud" in text

    def test_oversized_or_invalid_handshake(self) -> None:
        """A start reply too large to copy into every report, or holding a lone surrogate, fails
        the handshake (adapter broken), never the report."""
        from conformance import HandshakeError
        from conformance.adapters._protocol import check_start_reply

        implementation = {"name": "x", "version": "1", "language": "c", "contract": "phase6-v1"}
        base = {"ok": True, "protocol": "phase6-adapter/1", "capabilities": ["memory.read"]}
        huge = {**base, "implementation": {**implementation, "blob": "x" * (1 << 20)}}
        with pytest.raises(HandshakeError, match="longer than"):
            check_start_reply(huge)
        surrogate = {**base, "implementation": {**implementation, "name": "\ud800"}}
        with pytest.raises(HandshakeError, match="not valid Unicode"):
            check_start_reply(surrogate)

    def test_first_difference_on_deep_values(self) -> None:
        """`compare` on values nested 5,000 deep finds the difference without recursion."""
        from conformance import first_difference
        from conformance.run import render_diff

        left: object = 1
        right: object = 2
        for _ in range(5000):
            left, right = [left], [right]
        difference = first_difference(left, right)
        assert difference is not None
        assert difference.path == "/0" * 5000
        assert "too deeply nested" in render_diff(left, right)


@pytest.mark.usefixtures("inprocess")
class TestPythonWorker:
    """Medium: a python: callable runs in a worker process; what it does ends the worker only."""

    def test_os_exit_is_an_errored_vector(self, paths: tuple[Path, Path], tmp_path: Path) -> None:
        """os._exit(0) in the callable: the vector errors (crash), the run goes on, the verdict
        is given and the report written (it used to end the harness with exit 0)."""
        result = certify_fake(paths, "python:inprocess:os_exit")
        results = by_id(result)
        trigger = results.pop(TRIGGER_ID)
        assert trigger.error is not None
        assert trigger.error.kind is ErrorKind.CRASH
        assert trigger.error.exit_status == 0
        assert {r.outcome for r in results.values()} == {Outcome.PASSED}
        assert result.verdict.value is VerdictValue.NON_COMPLIANT
        written(result, tmp_path / "report")

    def test_ignoring_signals_does_not_outlast_the_timeout(self, paths: tuple[Path, Path]) -> None:
        """A callable ignoring SIGALRM and SIGTERM still stops at --timeout (its worker is
        killed with SIGKILL)."""
        started = time.monotonic()
        result = certify_fake(paths, "python:inprocess:ignores_signals", timeout=0.5)
        assert time.monotonic() - started < 8
        trigger = by_id(result)[TRIGGER_ID]
        assert trigger.error is not None
        assert trigger.error.kind is ErrorKind.TIMEOUT

    def test_printing_callable_cannot_break_the_protocol(self, paths: tuple[Path, Path]) -> None:
        """A callable that prints to stdout and reads stdin: the protocol channel is private."""
        result = certify_fake(paths, "python:inprocess:prints")
        assert result.verdict.value is VerdictValue.COMPLIANT

    def test_deep_result_is_an_errored_vector(
        self, paths: tuple[Path, Path], tmp_path: Path
    ) -> None:
        """A callable returning a value nested 5,000 deep errors its vector only."""
        result = certify_fake(paths, "python:inprocess:deep")
        results = by_id(result)
        assert results.pop(TRIGGER_ID).outcome is Outcome.ERRORED
        assert {r.outcome for r in results.values()} == {Outcome.PASSED}
        written(result, tmp_path / "report")

    def test_a_worker_that_keeps_dying_is_adapter_broken(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """A callable that ends its worker on every request: after N crashes in a row the run
        stops as adapter-broken, with a partial report (the rest skipped)."""
        paths = synthetic(tmp_path / "corpus", copies=20)
        monkeypatch.setenv("PHASE6_FAKE_TABLE", str(paths[1]))
        result = certify_fake(paths, "python:inprocess:always_exits", max_consecutive_failures=3)
        assert result.verdict.value is VerdictValue.ADAPTER_BROKEN
        assert result.stopped_after == 3
        outcomes = [r.outcome for r in result.results]
        assert outcomes.count(Outcome.ERRORED) == 3
        assert outcomes.count(Outcome.SKIPPED) == len(outcomes) - 3
        written(result, tmp_path / "report")


class TestStopEarly:
    """Low: an adapter that always hangs no longer costs vectors x timeout."""

    def test_always_hanging_adapter_stops_after_n(self, tmp_path: Path) -> None:
        """N timeouts in a row end the run as adapter-broken; the rest is skipped with the
        reason, and the report is written."""
        paths = synthetic(tmp_path / "corpus", copies=30)
        started = time.monotonic()
        result = certify_fake(
            paths, "always_hangs", timeout=0.3, max_consecutive_failures=3, fresh_every=1
        )
        assert time.monotonic() - started < 10
        assert result.verdict.value is VerdictValue.ADAPTER_BROKEN
        assert result.broken_reason is not None
        assert "3 vectors in a row" in result.broken_reason
        assert result.stopped_after == 3
        skipped = [r for r in result.results if r.outcome is Outcome.SKIPPED]
        assert len(skipped) == len(result.results) - 3
        assert skipped[0].skip_reason is not None
        assert "not run" in skipped[0].skip_reason
        written(result, tmp_path / "report")

    @pytest.mark.slow
    def test_parallel_workers_stop_too(self, tmp_path: Path) -> None:
        """With worker processes, the pool stops them all (their adapters killed)."""
        paths = synthetic(tmp_path / "corpus", copies=600)
        started = time.monotonic()
        result = certify_fake(
            paths, "always_hangs", timeout=0.3, jobs=2, max_consecutive_failures=4
        )
        assert time.monotonic() - started < 30
        assert result.workers == 2
        assert result.verdict.value is VerdictValue.ADAPTER_BROKEN
        written(result, tmp_path / "report")

    def test_unlimited_keeps_going(self, paths: tuple[Path, Path]) -> None:
        """0 disables the stop: a flaky adapter is still run to the end."""
        result = certify_fake(paths, "crash_mid_run", max_consecutive_failures=0)
        assert result.stopped_after is None
        assert Outcome.SKIPPED not in {r.outcome for r in result.results}


class TestHeld:
    """What held before issue 13 and must keep holding: misbehaviour recorded with context,
    the run goes on, the report is written."""

    @pytest.mark.parametrize(
        ("fake", "kind"),
        [
            ("crash_mid_run", ErrorKind.CRASH),
            ("hang", ErrorKind.TIMEOUT),
            ("non_json", ErrorKind.PROTOCOL),
            ("wrong_seq", ErrorKind.PROTOCOL),
        ],
    )
    def test_recorded_with_context(
        self, paths: tuple[Path, Path], tmp_path: Path, fake: str, kind: ErrorKind
    ) -> None:
        """The misbehaving vector errors with its kind and a message; the report is written."""
        result = certify_fake(paths, fake, timeout=1.0)
        errored = [r for r in result.results if r.outcome is Outcome.ERRORED]
        assert errored
        assert errored[0].error is not None
        assert errored[0].error.kind is kind
        assert errored[0].error.message
        written(result, tmp_path / "report")
