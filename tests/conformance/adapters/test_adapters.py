"""Adapters: spec parsing, the handshake, and every way a fake implementation misbehaves."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from harness_corpus import FAKES, TRIGGER, fake_spec, request, write_corpus

from conformance import (
    AdapterCrashedError,
    AdapterInternalError,
    AdapterSpecError,
    AdapterTimeoutError,
    HandshakeError,
    InProcessAdapter,
    ProtocolError,
    SpawnError,
    SubprocessAdapter,
    open_adapter,
    reference_adapter_spec,
)
from conformance._kit import dumps
from conformance.adapters._protocol import check_run_reply, check_start_reply, validate_message


@pytest.fixture
def table(tmp_path: Path) -> Path:
    """The fakes' answer table."""
    return write_corpus(tmp_path)[1]


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A vector root holding the store every request reads."""
    directory = tmp_path / "root"
    (directory / "stores").mkdir(parents=True)
    (directory / "stores" / "s.jsonl").write_text('{"memory_id":"m1","text":"hello"}\n')
    return directory


@pytest.fixture
def inprocess(table: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Make ``tests/fakes/inprocess.py`` importable and point it at the table."""
    monkeypatch.syspath_prepend(str(FAKES))
    monkeypatch.setenv("PHASE6_FAKE_TABLE", str(table))


def _req(query: str) -> bytes:
    return dumps(request(query))


class TestSpecs:
    @pytest.mark.parametrize(
        ("spec", "kind"),
        [("python:pkg.mod:fn", InProcessAdapter), ("cmd:prog --serve", SubprocessAdapter)],
    )
    def test_kinds(self, spec: str, kind: type) -> None:
        """python: builds an in-process adapter, cmd: a subprocess adapter."""
        assert isinstance(open_adapter(spec), kind)

    @pytest.mark.parametrize("spec", ["reference", "cmd:", "cmd:'unbalanced", "http://x"])
    def test_bad_specs(self, spec: str) -> None:
        """Anything else is a spec error naming the string."""
        with pytest.raises(AdapterSpecError, match="bad adapter spec"):
            open_adapter(spec)

    def test_cmd_line_is_shlex_split(self) -> None:
        """The command line is split like a shell would."""
        adapter = SubprocessAdapter("cmd:'my prog' --flag 'a b'")
        assert adapter.argv == ["my prog", "--flag", "a b"]

    def test_reference_spec(self) -> None:
        """The default adapter is the reference's subprocess entry point."""
        assert reference_adapter_spec().endswith(" -m reference serve")
        assert reference_adapter_spec().startswith("cmd:")


class TestSubprocess:
    def test_correct_fake(self, table: Path, root: Path) -> None:
        """A correct fake hands over its metadata and answers from its table."""
        with open_adapter(fake_spec("correct", table)) as adapter:
            handshake = adapter.start()
            assert handshake.name == "fake"
            assert handshake.capabilities == ("memory.read",)
            result = adapter.run(_req("alpha one"), root)
            assert result["package"]["query"]["raw"] == "alpha one"
            assert adapter.run(_req("alpha one"), root) == result
            assert adapter.restarts == 0

    def test_crash_on_start(self, table: Path) -> None:
        """A process that dies before the handshake: exit status and stderr are kept."""
        adapter = open_adapter(fake_spec("crash_on_start", table), timeout=5)
        with pytest.raises(HandshakeError) as info:
            adapter.start()
        assert info.value.exit_status == 3
        assert "boom" in info.value.stderr_tail

    def test_missing_program(self) -> None:
        """A command that does not exist is a spawn error, not a crash of the harness."""
        with pytest.raises(SpawnError, match="cannot start"):
            open_adapter("cmd:/nonexistent/phase6-impl").start()

    def test_crash_mid_run_then_restart(self, table: Path, root: Path) -> None:
        """A crash is reported with its status; the next request restarts the process."""
        with open_adapter(fake_spec("crash_mid_run", table), timeout=5) as adapter:
            adapter.run(_req("alpha one"), root)
            with pytest.raises(AdapterCrashedError) as info:
                adapter.run(_req(TRIGGER), root)
            assert info.value.exit_status == 17
            assert "dying on the trigger" in info.value.stderr_tail
            assert adapter.run(_req("alpha one"), root)["package"]
            assert adapter.restarts == 1

    def test_hang_times_out_and_restarts(self, table: Path, root: Path) -> None:
        """A hung request times out; the process is replaced for the next one."""
        with open_adapter(fake_spec("hang", table), timeout=0.5) as adapter:
            with pytest.raises(AdapterTimeoutError, match="flushed"):
                adapter.run(_req(TRIGGER), root)
            assert adapter.run(_req("alpha one"), root)["package"]
            assert adapter.restarts == 1

    @pytest.mark.parametrize(
        ("fake", "match"),
        [
            ("non_json", "not JSON"),
            ("wrong_seq", "does not echo"),
            ("extra_member", "expected seq"),
        ],
    )
    def test_protocol_errors(self, table: Path, root: Path, fake: str, match: str) -> None:
        """Garbage, a wrong seq and an extra member are protocol errors."""
        with (
            open_adapter(fake_spec(fake, table), timeout=5) as adapter,
            pytest.raises(ProtocolError, match=match),
        ):
            adapter.run(_req(TRIGGER), root)

    def test_wrong_protocol_version(self, table: Path) -> None:
        """A handshake in another protocol version fails, naming both versions."""
        with pytest.raises(HandshakeError, match=r"phase6-adapter/0.*phase6-adapter/1"):
            open_adapter(fake_spec("wrong_protocol", table), timeout=5).start()

    def test_no_flush_is_a_timeout(self, table: Path) -> None:
        """Unflushed replies never arrive: the handshake times out with a hint."""
        with pytest.raises(HandshakeError, match="flushed"):
            open_adapter(fake_spec("no_flush", table), timeout=0.5).start()

    def test_stderr_is_drained_never_fatal(self, table: Path, root: Path) -> None:
        """Megabytes of stderr neither block the process nor fail the request."""
        with open_adapter(fake_spec("stderr_noise", table), timeout=10) as adapter:
            for _ in range(20):
                assert adapter.run(_req("alpha one"), root)["package"]
            assert isinstance(adapter, SubprocessAdapter)
            assert len(adapter.stderr_tail()) <= 16 * 1024

    def test_internal_error_keeps_the_process(self, table: Path, root: Path) -> None:
        """internal_error is an errored result, and the process stays alive."""
        with open_adapter(fake_spec("internal_error", table), timeout=5) as adapter:
            with pytest.raises(AdapterInternalError, match="KeyError"):
                adapter.run(_req(TRIGGER), root)
            assert adapter.run(_req("alpha one"), root)["package"]
            assert adapter.restarts == 0

    def test_gives_up_after_repeated_failed_restarts(self, table: Path, root: Path) -> None:
        """A process that cannot be restarted stops being respawned for every vector."""
        adapter = open_adapter(fake_spec("crash_on_start", table), timeout=5)
        for _ in range(3):
            with pytest.raises(HandshakeError, match="handshake failed"):
                adapter.run(_req("alpha one"), root)
        with pytest.raises(HandshakeError, match="not restarted"):
            adapter.run(_req("alpha one"), root)

    def test_validate_protocol_mode(self, table: Path, root: Path) -> None:
        """With schema validation on, a correct fake still passes."""
        with open_adapter(fake_spec("correct", table), validate=True) as adapter:
            assert adapter.run(_req("   "), root)["error"]

    def test_fresh_is_a_new_process(self, table: Path, root: Path) -> None:
        """fresh() gives an independent adapter for the same command."""
        with open_adapter(fake_spec("correct", table)) as adapter:
            adapter.start()
            with adapter.fresh() as other:
                assert other is not adapter
                assert other.run(_req("alpha one"), root) == adapter.run(_req("alpha one"), root)


@pytest.mark.usefixtures("inprocess")
class TestInProcess:
    def test_runs_in_the_vector_root(self, root: Path) -> None:
        """The callable sees the vector root as its working directory; the harness's stays."""
        cwd = os.getcwd()
        with open_adapter("python:inprocess:correct") as adapter:
            assert adapter.start().language == "python"
            assert adapter.run(_req("alpha one"), root)["package"]
        assert os.getcwd() == cwd

    def test_exception_is_internal_error(self, root: Path) -> None:
        """An exception becomes an internal error with its traceback."""
        with (
            open_adapter("python:inprocess:raises") as adapter,
            pytest.raises(AdapterInternalError, match="implementation bug") as info,
        ):
            adapter.run(_req(TRIGGER), root)
        assert "RuntimeError" in info.value.detail

    def test_sys_exit_is_a_crash(self, root: Path) -> None:
        """A callable calling sys.exit is recorded as a crash; the harness keeps running."""
        with open_adapter("python:inprocess:exits") as adapter:
            with pytest.raises(AdapterCrashedError, match=r"SystemExit\(4\)") as info:
                adapter.run(_req(TRIGGER), root)
            assert info.value.exit_status == 4
            assert adapter.run(_req("alpha one"), root)["package"]

    def test_timeout(self, root: Path) -> None:
        """A callable that never returns is stopped (its worker is killed) and restarted."""
        with open_adapter("python:inprocess:hangs", timeout=0.5) as adapter:
            adapter.start()
            with pytest.raises(AdapterTimeoutError):
                adapter.run(_req(TRIGGER), root)
            assert adapter.run(_req("alpha one"), root)["package"]

    @pytest.mark.parametrize(
        ("spec", "match"),
        [
            ("python:no_such_module_xyz:fn", "cannot import"),
            ("python:inprocess:no_such_function", "no attribute"),
            ("python:inprocess:TRIGGER", "not callable"),
        ],
    )
    def test_unloadable(self, spec: str, match: str) -> None:
        """A callable that cannot be loaded is a spawn error."""
        with open_adapter(spec) as adapter, pytest.raises(SpawnError, match=match):
            adapter.start()

    def test_bad_target_is_a_spec_error(self) -> None:
        """A python: spec without module and callable is refused before anything starts."""
        with pytest.raises(AdapterSpecError, match=r"package\.module:callable"):
            open_adapter("python:just_a_module")

    def test_fresh_is_a_new_worker(self, root: Path) -> None:
        """A python: adapter's fresh process is the same callable in another worker process."""
        with open_adapter("python:inprocess:correct") as adapter, adapter.fresh() as fresh:
            assert isinstance(adapter, InProcessAdapter)
            assert isinstance(fresh, InProcessAdapter)
            assert fresh.run(_req("alpha one"), root) == adapter.run(_req("alpha one"), root)
            assert fresh.pid != adapter.pid
            with pytest.raises(AdapterInternalError):
                fresh.run(_req("not in the table"), root)


class TestProtocolChecks:
    @pytest.mark.parametrize(
        "reply",
        [
            {"ok": True, "protocol": "phase6-adapter/1", "capabilities": ["memory.read"]},
            {
                "ok": True,
                "protocol": "phase6-adapter/1",
                "implementation": {"name": "x", "version": "1", "language": "c"},
                "capabilities": ["memory.read"],
            },
            {
                "ok": True,
                "protocol": "phase6-adapter/1",
                "implementation": {
                    "name": "x",
                    "version": "1",
                    "language": "c",
                    "contract": "phase6-v1",
                },
                "capabilities": [],
            },
            {"ok": False, "error": "unsupported protocol"},
        ],
    )
    def test_bad_start_replies(self, reply: dict[str, object]) -> None:
        """Missing metadata, a wrong contract, no capability or a refusal fail the handshake."""
        with pytest.raises(HandshakeError):
            check_start_reply(reply)

    @pytest.mark.parametrize(
        "reply",
        [
            {"seq": 1},
            {"seq": True, "result": {}},
            {"seq": 1, "result": []},
            {"seq": 1, "result": {}, "extra": 1},
            {"seq": 1, "internal_error": {"msg": "x"}},
            {"seq": 1, "internal_error": {"message": "x", "other": 1}},
        ],
    )
    def test_bad_run_replies(self, reply: dict[str, object]) -> None:
        """The hand checks refuse what the run-reply schema refuses."""
        with pytest.raises(ProtocolError):
            check_run_reply(reply, 1)
        with pytest.raises(ProtocolError):
            validate_message("run-reply", reply)

    def test_schemas_accept_what_the_fakes_send(self, table: Path) -> None:
        """Every protocol schema accepts the messages of the correct exchange."""
        validate_message("start", {"cmd": "start", "protocol": "phase6-adapter/1"})
        validate_message("command", {"cmd": "stop"})
        validate_message("run", {"cmd": "run", "seq": 1, "root": "/r", "request": [1]})
        validate_message("stop-reply", {"ok": True})
        answer = json.loads(table.read_text())["alpha one"]
        validate_message("run-reply", {"seq": 3, "result": answer})
