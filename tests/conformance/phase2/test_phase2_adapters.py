"""The Phase 2 adapters: the handshake of the profile, the user-named commands and the http
adapter, each facing an implementation that misbehaves. Every misbehaviour is an adapter error
(an errored result), never a crash or a hang of the harness."""

from __future__ import annotations

import contextlib
import http.server
import os
import shlex
import signal
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from paths import FAKES
from phase2_service import free_port

from conformance import (
    AdapterCrashedError,
    AdapterInternalError,
    AdapterSpecError,
    AdapterTimeoutError,
    HandshakeError,
    ProtocolError,
    SpawnError,
    UsageError,
)
from conformance.phase2 import (
    HttpEngine,
    ProtocolEngine,
    PythonEngine,
    UserCommand,
    encode_params,
    open_engine,
    parse_output,
    reference_engine_spec,
)
from conformance.phase2._http import http_get

COMMAND = f"{shlex.quote(sys.executable)} {shlex.quote(str(FAKES / 'phase2_command.py'))}"
TURN = {"id": 1, "user_id": "u1", "chat_id": "c1", "text": "hi"}
FIXTURE = {"inbox_items": [{**TURN, "created_at": "2024-05-01T10:00:00Z"}]}
CONTEXT = {"op": "context", "params": [["chat_id", "c1"], ["user_id", "u1"], ["query", "hi"]]}
#: A generous bound on how long a misbehaving command or server may cost at a 1 s timeout.
BOUND = 8.0


def command(mode: str) -> str:
    """The hostile command line running ``mode``."""
    return f"{COMMAND} {mode}"


@contextlib.contextmanager
def elapsed_under(seconds: float) -> Iterator[None]:
    """Fail when the block takes longer than ``seconds``."""
    started = time.monotonic()
    yield
    assert time.monotonic() - started < seconds


class TestHandshake:
    """The profile's handshake: contract phase2-context/1, capability phase2.context."""

    def test_reference_declares_every_op(self) -> None:
        """The reference engine's subprocess entry declares the three capabilities."""
        with ProtocolEngine(reference_engine_spec(), validate=True) as engine:
            handshake = engine.start()
            assert handshake.implementation["contract"] == "phase2-context/1"
            assert handshake.capabilities == (
                "phase2.context",
                "phase2.compact",
                "phase2.summarize",
            )
            (observed,) = engine.observe(FIXTURE, CONTEXT).outcomes
        assert observed["status"] == 200
        assert observed["state"]["inbox_items"] == FIXTURE["inbox_items"]

    def test_python_worker_serves_the_profile(self) -> None:
        """A python: callable is called with (fixture, call) and named after its module."""
        with PythonEngine("python:reference.phase2:run_vector_call", validate=True) as engine:
            handshake = engine.start()
            assert handshake.name == "reference.phase2"
            assert handshake.implementation["contract"] == "phase2-context/1"
            assert engine.observe(FIXTURE, CONTEXT, runs=2).outcomes[1]["status"] == 200

    def test_spec006_adapter_is_refused(self) -> None:
        """A SPEC-006 implementation offered under the Phase 2 profile fails the handshake."""
        spec = f"cmd:{shlex.quote(sys.executable)} -m reference serve"
        with ProtocolEngine(spec) as engine, pytest.raises(HandshakeError, match="contract"):
            engine.start()

    def test_not_a_spec006_adapter(self) -> None:
        """A Phase 2 engine is sent calls, never SPEC-006 requests."""
        with ProtocolEngine(reference_engine_spec()) as engine, pytest.raises(UsageError):
            engine.run(b"{}", Path())

    def test_callable_errors(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        """A callable that raises is an internal error; one that returns no object breaks the
        protocol."""
        (tmp_path / "p2_broken_engine.py").write_text(
            "def raises(fixture, call):\n    raise KeyError('users')\n"
            "def answers_list(fixture, call):\n    return [1, 2]\n"
        )
        monkeypatch.syspath_prepend(str(tmp_path))
        monkeypatch.chdir(tmp_path)
        with (
            PythonEngine("python:p2_broken_engine:raises") as engine,
            pytest.raises(AdapterInternalError, match="KeyError"),
        ):
            engine.observe(FIXTURE, CONTEXT)
        with (
            PythonEngine("python:p2_broken_engine:answers_list") as engine,
            pytest.raises(ProtocolError, match="not a JSON object"),
        ):
            engine.observe(FIXTURE, CONTEXT)

    def test_validate_protocol_uses_the_phase2_schemas(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """With --validate-protocol, a reply breaking specs/schemas/phase2/protocol/run-reply
        is a protocol error; without it the outcome is taken and judged."""
        (tmp_path / "p2_sloppy_engine.py").write_text(
            "def run(fixture, call):\n    return {'status': '200', 'body': {}, 'state': {}}\n"
        )
        monkeypatch.syspath_prepend(str(tmp_path))
        monkeypatch.chdir(tmp_path)
        with (
            PythonEngine("python:p2_sloppy_engine:run", validate=True) as engine,
            pytest.raises(ProtocolError, match="run-reply message breaks its schema"),
        ):
            engine.observe(FIXTURE, CONTEXT)
        with PythonEngine("python:p2_sloppy_engine:run") as engine:
            assert engine.observe(FIXTURE, CONTEXT).outcomes[0]["status"] == "200"


class TestUserCommands:
    """--load, --dump, --job: run with a timeout, in their own process group, output capped."""

    @pytest.mark.parametrize("text", ["", "   ", "cmd 'unbalanced", "a\0b"])
    def test_unusable_command_lines(self, text: str) -> None:
        """An empty, unbalanced or NUL-holding command line is a usage error."""
        with pytest.raises(UsageError):
            UserCommand.parse("--load", text)

    def test_hang_is_a_timeout(self) -> None:
        """A command that never ends is killed at the timeout."""
        with elapsed_under(BOUND), pytest.raises(AdapterTimeoutError):
            UserCommand.parse("--load", command("hang")).run(timeout=1, max_bytes=1 << 20)

    def test_flood_is_capped(self) -> None:
        """A command printing gigabytes is stopped at the cap and killed."""
        with elapsed_under(BOUND), pytest.raises(ProtocolError, match="longer than"):
            UserCommand.parse("--dump", command("flood")).run(timeout=30, max_bytes=4 << 20)

    def test_failure_keeps_the_stderr_tail(self) -> None:
        """A non-zero exit status is a crash carrying its status and stderr tail."""
        with pytest.raises(AdapterCrashedError) as caught:
            UserCommand.parse("--job", command("fail")).run(timeout=10, max_bytes=1 << 20)
        assert caught.value.exit_status == 3
        assert "the database is gone" in caught.value.stderr_tail

    def test_missing_program(self) -> None:
        """A command that cannot start is a spawn error."""
        with pytest.raises(SpawnError):
            UserCommand.parse("--load", "/nonexistent/p2-load").run(timeout=5, max_bytes=1024)

    def test_orphan_holding_stdout(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        """A command that exits leaving a child holding its stdout is done when it exits; the
        child is killed."""
        pidfile = tmp_path / "pid"
        monkeypatch.setenv("PHASE2_FAKE_PIDFILE", str(pidfile))
        with elapsed_under(BOUND):
            output = UserCommand.parse("--dump", command("orphan")).run(timeout=10, max_bytes=4096)
        assert parse_output(output, "dump")["inbox_items"] == []
        child = int(pidfile.read_text())
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            try:
                os.kill(child, 0)
            except ProcessLookupError:
                break
            time.sleep(0.05)
        else:  # pragma: no cover - the harness left it running
            os.kill(child, signal.SIGKILL)
            pytest.fail("the orphan holding stdout was left running")

    @pytest.mark.parametrize(
        ("data", "match"),
        [(b"<html>", "not JSON"), (b"[" * 100_000 + b"]" * 100_000, "nested"), (b"\xff", "JSON")],
    )
    def test_output_is_never_trusted(self, data: bytes, match: str) -> None:
        """Output that is not JSON, or too deep to keep, is a protocol error."""
        with pytest.raises(ProtocolError, match=match):
            parse_output(data, "the dump")


# ---------------------------------------------------------------------- a hostile service


class _Hostile(http.server.BaseHTTPRequestHandler):
    """Answers GET by the mode in the server's ``mode`` attribute."""

    def do_GET(self) -> None:
        """Misbehave as told."""
        mode = self.server.mode  # type: ignore[attr-defined]
        stop: threading.Event = self.server.stop  # type: ignore[attr-defined]
        if mode == "silent":
            stop.wait(30)
            return
        if mode == "trickle":  # headers, then a byte a second: never complete
            self.send_response(200)
            self.send_header("Content-Length", "1000")
            self.end_headers()
            while not stop.wait(0.5):
                self.wfile.write(b" ")
                self.wfile.flush()
            return
        body = {
            "huge": b'{"x": "' + b"y" * (10 * 1024 * 1024) + b'"}',
            "html": b"<html><body>Not Found</body></html>",
            "json": b'{"error": {"code": "missing_parameter", "param": "chat_id", "message": ""}}',
        }[mode]
        self.send_response(404 if mode == "html" else 400 if mode == "json" else 200)
        self.send_header("Content-Type", "text/html" if mode == "html" else "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        with contextlib.suppress(OSError):
            self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet."""


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that hung up is expected here."""


@pytest.fixture
def hostile() -> Iterator[Any]:
    """A server on a free 127.0.0.1 port; set ``.mode`` before each request."""
    server = _Server(("127.0.0.1", 0), _Hostile)
    server.mode = "silent"  # type: ignore[attr-defined]
    server.stop = threading.Event()  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.stop.set()  # type: ignore[attr-defined]
        server.shutdown()
        server.server_close()
        thread.join(10)


def _engine(server: Any, **options: Any) -> HttpEngine:
    port = server.server_address[1]
    engine = HttpEngine(
        f"http:http://127.0.0.1:{port}",
        load=command("ok"),
        dump=command("state"),
        timeout=options.pop("timeout", 1.0),
        **options,
    )
    engine.start()
    return engine


class TestHttp:
    """The http: adapter against a service that misbehaves."""

    @pytest.mark.parametrize(
        ("mode", "error", "match"),
        [
            ("silent", AdapterTimeoutError, "no complete answer"),
            ("trickle", AdapterTimeoutError, "no complete answer"),
            ("huge", ProtocolError, "longer than"),
            ("html", ProtocolError, "not JSON"),
        ],
    )
    def test_misbehaving_service(
        self, hostile: Any, mode: str, error: type[Exception], match: str
    ) -> None:
        """Silence, a trickle, 10 MB or a non-JSON body: an adapter error within the bound."""
        hostile.mode = mode
        engine = _engine(hostile)
        try:
            with elapsed_under(BOUND), pytest.raises(error, match=match):
                engine.observe(FIXTURE, CONTEXT)
        finally:
            engine.close()

    def test_refused_connection_is_a_broken_adapter(self) -> None:
        """Nobody listening: the handshake fails (adapter broken)."""
        engine = HttpEngine(
            f"http:http://127.0.0.1:{free_port()}", load=command("ok"), dump=command("state")
        )
        with pytest.raises(HandshakeError, match="cannot connect"):
            engine.start()

    @pytest.mark.parametrize(
        ("load", "dump", "error"),
        [
            ("hang", "state", AdapterTimeoutError),
            ("fail", "state", AdapterCrashedError),
            ("ok", "garbage", ProtocolError),
            ("ok", "deep", ProtocolError),
            ("ok", "flood", ProtocolError),
        ],
    )
    def test_misbehaving_commands(
        self, hostile: Any, load: str, dump: str, error: type[Exception]
    ) -> None:
        """A load command that hangs or fails, a dump printing garbage, depth or gigabytes."""
        hostile.mode = "json"  # an answer: what fails is the command
        engine = HttpEngine(
            f"http:http://127.0.0.1:{hostile.server_address[1]}",
            load=command(load),
            dump=command(dump),
            timeout=2.0,
            max_output_bytes=4 << 20,
        )
        engine.start()
        try:
            with elapsed_under(BOUND * 2), pytest.raises(error):
                engine.observe(FIXTURE, CONTEXT)
        finally:
            engine.close()

    def test_job_needs_its_command(self, hostile: Any) -> None:
        """Without --job only phase2.context is declared."""
        engine = _engine(hostile)
        assert engine.capabilities == ("phase2.context",)
        engine.close()

    @pytest.mark.parametrize(
        ("spec", "message"),
        [
            ("http:ftp://host/", "expected http"),
            ("http:http:///nohost", "expected http"),
            ("http:http://h:99999", "out of range"),
            ("http:http://h/?q=1", "no query"),
        ],
    )
    def test_bad_base_urls(self, spec: str, message: str) -> None:
        """A base URL that cannot name a service is refused before anything runs."""
        with pytest.raises(AdapterSpecError, match=message):
            HttpEngine(spec, load="true", dump="true")

    def test_commands_are_required(self) -> None:
        """The http: adapter needs --load and --dump."""
        with pytest.raises(UsageError, match="--load"):
            open_engine("http:http://127.0.0.1:1", dump="true")

    def test_query_string(self) -> None:
        """Names and values are percent-encoded as UTF-8, unreserved characters kept."""
        assert encode_params([["query", "a+b & c 😀~"], ["x.y_z-", "é"]]) == (
            "query=a%2Bb%20%26%20c%20%F0%9F%98%80~&x.y_z-=%C3%A9"
        )

    def test_get_sends_only_accept(self, hostile: Any) -> None:
        """The request carries Accept: application/json and nothing the service must parse."""
        seen: dict[str, str] = {}

        class Recorder(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                seen.update(dict(self.headers))
                body = b"{}"
                self.send_response(200)
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: Any) -> None:
                """Quiet."""

        server = _Server(("127.0.0.1", 0), Recorder)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            base = urlsplit(f"http://127.0.0.1:{server.server_address[1]}")
            assert http_get(base, "/v1/memory/context?q=1", timeout=5, max_bytes=100) == (
                200,
                b"{}",
            )
        finally:
            server.shutdown()
            server.server_close()
            thread.join(10)
        assert {k.lower() for k in seen} == {"host", "accept"}
        assert seen["Accept"] == "application/json"


#: The reference engine's load, dump and job commands, counted (tests/fakes/phase2_slow_engine.py
#: with no delay): a real database for the answers of the hostile server.
SLOW_ENGINE = f"{shlex.quote(sys.executable)} {shlex.quote(str(FAKES / 'phase2_slow_engine.py'))}"
COMPACT = {"op": "compact", "now": "2024-06-01T00:00:00Z"}
OTHER = {"inbox_items": [{**TURN, "id": 2, "created_at": "2024-05-02T10:00:00Z"}]}


class TestFixtureReuse:
    """A live service is loaded once per fixture while every dump shows it unchanged."""

    @pytest.fixture
    def engine(
        self, hostile: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> Iterator[HttpEngine]:
        """The http adapter on the hostile server (answering JSON) and a real SQLite database."""
        monkeypatch.setenv("PHASE2_SLOW_SECONDS", "0")
        hostile.mode = "json"
        db = shlex.quote(str(tmp_path / "engine.db"))
        engine = HttpEngine(
            f"http:http://127.0.0.1:{hostile.server_address[1]}",
            load=f"{SLOW_ENGINE} load --db {db}",
            dump=f"{SLOW_ENGINE} dump --db {db}",
            job=f"{SLOW_ENGINE} job --db {db}",
            timeout=30.0,
        )
        engine.start()
        try:
            yield engine
        finally:
            engine.close()

    def test_context_calls_share_one_load(self, engine: HttpEngine) -> None:
        """Context calls on one fixture: one load, a dump after each call; the state before a
        call is the last dump, not another one."""
        for _ in range(3):
            (observed,) = engine.observe(FIXTURE, CONTEXT).outcomes
            assert observed["state"]["inbox_items"] == FIXTURE["inbox_items"]
        observation = engine.observe(FIXTURE, CONTEXT, runs=2, dump_before=True)
        assert observation.before == observation.outcomes[0]["state"]
        assert engine.commands_run == {"load": 1, "dump": 4, "job": 0}

    def test_another_fixture_is_loaded(self, engine: HttpEngine) -> None:
        """A different fixture is loaded; coming back to the first loads it again."""
        for fixture in (FIXTURE, OTHER, FIXTURE):
            (observed,) = engine.observe(fixture, CONTEXT).outcomes
            assert observed["state"]["inbox_items"] == fixture["inbox_items"]
        assert engine.commands_run["load"] == 3

    def test_a_job_leaves_the_database_unknown(self, engine: HttpEngine) -> None:
        """A job's first run takes the database as a context call left it; every later run,
        and the next vector, are loaded afresh."""
        engine.observe(FIXTURE, CONTEXT)
        engine.observe(FIXTURE, COMPACT, runs=2)
        assert engine.commands_run == {"load": 2, "dump": 3, "job": 2}
        engine.observe(FIXTURE, CONTEXT)
        assert engine.commands_run["load"] == 3

    def test_a_state_unlike_the_fixture_is_loaded_again(self, hostile: Any) -> None:
        """A dump that does not show the fixture (here: an empty state) proves nothing: every
        call is loaded afresh."""
        hostile.mode = "json"
        engine = _engine(hostile, timeout=10.0)
        try:
            for _ in range(2):
                engine.observe(FIXTURE, CONTEXT)
            assert engine.commands_run == {"load": 2, "dump": 2, "job": 0}
        finally:
            engine.close()

    def test_a_failed_dump_forgets_the_fixture(self, engine: HttpEngine) -> None:
        """A command that fails leaves the database unknown: the next call loads."""
        engine.observe(FIXTURE, CONTEXT)
        good = engine.dump
        engine.dump = UserCommand.parse("--dump", command("fail"))
        with pytest.raises(AdapterCrashedError):
            engine.observe(FIXTURE, CONTEXT)
        engine.dump = good
        engine.observe(FIXTURE, CONTEXT)
        assert engine.commands_run["load"] == 2
