"""``http:<base URL>``: a live Phase 2 service, its database reached through the commands the
user names (specs/protocol.md, P2.4).

    phase6 certify --profile phase2-context --adapter http:http://127.0.0.1:8080 \\
        --load "CMD" --dump "CMD" [--job "CMD"]

Per vector, strictly one at a time on one database (``--jobs N`` gives each worker a service and
a database of its own: ``{worker}`` in the base URL and the commands is the worker's number):

1. the fixture is written to a private temporary file and ``--load CMD FILE`` run, unless the
   database still holds exactly that fixture: loaded for an earlier vector, and every dump
   since showed it unchanged (a context call is read-only by contract; an engine that writes,
   even the one preview event P2-INT-20 allows, is loaded afresh for the next vector);
2. a context call is ``GET <base>/v1/memory/context?<params>`` (each name and value
   percent-encoded as UTF-8, RFC 3986 unreserved characters kept, pairs joined with ``&``; no
   header but ``Accept: application/json``); a job call is ``--job CMD`` with the call as
   JSON on stdin (without ``--job``, compact and summarize are not declared: not run);
3. ``--dump CMD`` prints the state after the call (once per vector: the check of every
   vector needs it), and before it only where a property asks for the state before a call
   and the last dump is not known to still hold.

A request runs under one deadline (a watchdog closes the socket when it passes: a server that
trickles bytes cannot stretch it), its body is read up to :data:`DEFAULT_MAX_RESPONSE_BYTES`,
redirects are not followed, and the body must be JSON (the error object is part of the
contract): a server that never answers, answers too much or answers something that is not
JSON makes the vector *errored*, as a crashing or garbling ``cmd:`` adapter does. The
handshake is a TCP connection to the service: refused, the adapter is broken.
"""

from __future__ import annotations

import contextlib
import hashlib
import http.client
import os
import shutil
import socket
import tempfile
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final
from urllib.parse import SplitResult, quote, urlsplit

from conformance._errors import (
    AdapterCrashedError,
    AdapterSpecError,
    AdapterTimeoutError,
    HandshakeError,
    ProtocolError,
    UsageError,
)
from conformance._kit import dumps
from conformance._schemas import schema_errors
from conformance.adapters import DEFAULT_MAX_LINE_BYTES, DEFAULT_TIMEOUT, AdapterKind, Handshake
from conformance.phase2._commands import UserCommand, parse_output
from conformance.phase2._compare import normalize_state, state_problem
from conformance.phase2._engines import Observation
from conformance.phase2._readings import CAPABILITIES, CONTEXT_CAPABILITY, CONTRACT

__all__ = [
    "DEFAULT_MAX_RESPONSE_BYTES",
    "PATH",
    "WORKER",
    "HttpEngine",
    "encode_params",
    "for_worker",
    "http_get",
]

#: The preview endpoint (P2-API-02).
PATH: Final = "/v1/memory/context"
#: The largest response body read (a context envelope of the corpus is a few KB; the bound
#: is for a service that answers without end).
DEFAULT_MAX_RESPONSE_BYTES: Final = 4 * 1024 * 1024
OBSERVED_SCHEMA: Final = "phase2/observed.schema.json"
#: In ``--adapter http:...``, ``--load``, ``--dump`` and ``--job``: the worker's number (1..N).
WORKER: Final = "{worker}"
_SHOWN = 200


def for_worker(text: str, worker: int) -> str:
    """``text`` with :data:`WORKER` replaced by ``worker``."""
    return text.replace(WORKER, str(worker))


def _digest(fixture: Mapping[str, Any]) -> bytes:
    return hashlib.sha256(dumps(fixture)).digest()


def _holds(state: Any, known: Any, fixture: Mapping[str, Any]) -> bool:
    """Whether a dumped ``state`` shows the database as it was loaded: the same as the last
    dump known to (``known``), or, with none yet, exactly the fixture (rows by id)."""
    if known is not None:
        return bool(state == known)
    if state_problem(state) is not None:
        return False
    try:
        return normalize_state(state) == normalize_state(fixture)
    except (KeyError, TypeError, AttributeError):  # rows that are not the fixture's
        return False


def encode_params(params: Sequence[Sequence[str]]) -> str:
    """The query string of specs/phase2/vectors-format.md: RFC 3986 percent-encoding."""
    return "&".join(f"{quote(name, safe='')}={quote(value, safe='')}" for name, value in params)


class _Watchdog:
    """Closes a connection's socket when the deadline passes (a blocked read then returns)."""

    def __init__(self, connection: http.client.HTTPConnection, timeout: float):
        self.fired = False
        self._connection = connection
        self._sock: socket.socket | None = None
        self._timer = threading.Timer(timeout, self._fire)
        self._timer.daemon = True

    def __enter__(self) -> _Watchdog:
        self._timer.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._timer.cancel()

    def hold(self) -> None:
        """Keep the connected socket: ``http.client`` drops the connection's reference once
        the response owns it (a server closing after the answer), and the watchdog must still
        reach it while the body is read."""
        self._sock = self._connection.sock

    def _fire(self) -> None:
        self.fired = True
        sock = self._connection.sock or self._sock
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)


def http_get(
    base: SplitResult, target: str, *, timeout: float, max_bytes: int
) -> tuple[int, bytes]:
    """``GET target`` on the service at ``base``: (status, body), within ``timeout`` seconds
    all told and at most ``max_bytes`` of body; the adapter errors otherwise."""
    connection_class = (
        http.client.HTTPSConnection if base.scheme == "https" else http.client.HTTPConnection
    )
    connection = connection_class(base.hostname or "", base.port, timeout=timeout)
    watchdog = _Watchdog(connection, timeout)
    what = f"GET {target[:_SHOWN]}"
    try:
        with watchdog:
            connection.connect()
            watchdog.hold()
            connection.putrequest("GET", target, skip_accept_encoding=True)
            connection.putheader("Accept", "application/json")
            connection.endheaders()
            response = connection.getresponse()
            body = response.read(max_bytes + 1)
            status = response.status
            short = response.length  # bytes of a Content-Length body that never came
        if watchdog.fired:
            raise AdapterTimeoutError(f"{what}: no complete answer within {timeout:g} s")
        if short and len(body) <= max_bytes:
            raise ProtocolError(f"{what}: the body ended {short:,} bytes before its Content-Length")
    except TimeoutError:
        raise AdapterTimeoutError(f"{what}: no complete answer within {timeout:g} s") from None
    except ConnectionRefusedError as exc:
        raise AdapterCrashedError(f"{what}: the service refused the connection ({exc})") from None
    except (AdapterTimeoutError, ProtocolError):
        raise
    except (OSError, http.client.HTTPException) as exc:
        if watchdog.fired:
            raise AdapterTimeoutError(f"{what}: no complete answer within {timeout:g} s") from None
        raise ProtocolError(
            f"{what}: not an HTTP answer: {type(exc).__name__}: {str(exc)[:_SHOWN]}"
        ) from None
    finally:
        connection.close()
    if len(body) > max_bytes:
        raise ProtocolError(f"{what}: the response body is longer than {max_bytes:,} bytes")
    return status, body


class HttpEngine:
    """A live service at a base URL, its database loaded and dumped by named commands."""

    kind: AdapterKind = "http"

    def __init__(
        self,
        spec: str,
        *,
        load: str | None,
        dump: str | None,
        job: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        validate: bool = False,
        max_output_bytes: int = DEFAULT_MAX_LINE_BYTES,
        max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES,
        temp_dir: str | None = None,
    ):
        self.spec = spec
        url = spec.removeprefix("http:")
        try:
            base = urlsplit(url)
            port = base.port
        except ValueError as exc:
            raise AdapterSpecError(spec, str(exc)) from None
        if base.scheme not in ("http", "https") or not base.hostname:
            raise AdapterSpecError(spec, "expected http:http://HOST[:PORT][/PREFIX]")
        if base.query or base.fragment:
            raise AdapterSpecError(spec, "the base URL takes no query or fragment")
        if load is None or dump is None:
            raise UsageError("the http: adapter needs --load CMD and --dump CMD")
        self.base = base
        self.port = port or (443 if base.scheme == "https" else 80)
        self.load = UserCommand.parse("--load", load)
        self.dump = UserCommand.parse("--dump", dump)
        self.job = UserCommand.parse("--job", job) if job is not None else None
        self.timeout = timeout
        self.validate = validate
        self.max_output_bytes = max_output_bytes
        self.max_response_bytes = max_response_bytes
        self.temp_dir = temp_dir
        self.handshake: Handshake | None = None
        self.requests = 0
        self.restarts = 0
        #: The user's commands run so far, by option (``load``, ``dump``, ``job``).
        self.commands_run = {"load": 0, "dump": 0, "job": 0}
        self._scratch: Path | None = None
        #: (digest of the fixture loaded, the last dump since, if any) while the database is
        #: known to hold exactly that fixture; ``None`` when unknown (nothing loaded, a job
        #: ran, a dump differed, a command failed).
        self._holding: tuple[bytes, Any] | None = None

    @property
    def capabilities(self) -> tuple[str, ...]:
        """``phase2.context``, and the jobs when ``--job`` names a command."""
        if self.job is None:
            return (CONTEXT_CAPABILITY,)
        return tuple(CAPABILITIES.values())

    def start(self) -> Handshake:
        """Connect to the service once (nothing is sent); refused = adapter broken."""
        if self.handshake is not None:
            return self.handshake
        try:
            with socket.create_connection(
                (self.base.hostname or "", self.port), timeout=min(self.timeout, 10.0)
            ):
                pass
        except OSError as exc:
            raise HandshakeError(
                f"cannot connect to {self.base.hostname}:{self.port}: {exc.strerror or exc}"
            ) from None
        self._scratch = Path(tempfile.mkdtemp(prefix="phase2-http-", dir=self.temp_dir))
        name = f"http {self.base.hostname}:{self.port}{self.base.path.rstrip('/')}"
        implementation = {
            "name": name,
            "version": "unknown",
            "language": "unknown",
            "contract": CONTRACT,
        }
        self.handshake = Handshake("http", implementation, self.capabilities)
        return self.handshake

    def close(self) -> None:
        """Remove the scratch directory (the service is the user's to stop)."""
        if self._scratch is not None:
            shutil.rmtree(self._scratch, ignore_errors=True)
            self._scratch = None

    def fresh(self) -> None:
        """A live service has no fresh process."""
        return None

    def metadata(self) -> dict[str, Any]:
        """The report header's adapter object, the commands included."""
        return {
            "spec": self.spec,
            "kind": self.kind,
            "protocol": "http",
            "implementation": dict(self.handshake.implementation) if self.handshake else None,
            "capabilities": list(self.capabilities) if self.handshake else [],
            "commands": {
                "load": self.load.text,
                "dump": self.dump.text,
                "job": self.job.text if self.job is not None else None,
            },
        }

    # ------------------------------------------------------------------ one vector

    def _load(self, fixture: Mapping[str, Any]) -> None:
        self.commands_run["load"] += 1
        if self._scratch is None:
            self.start()
        assert self._scratch is not None
        path = self._scratch / "fixture.json"
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(dumps(fixture))
        try:
            self.load.run(args=[str(path)], timeout=self.timeout, max_bytes=self.max_output_bytes)
        finally:
            with contextlib.suppress(OSError):
                path.unlink()

    def _dump(self) -> Any:
        self.commands_run["dump"] += 1
        output = self.dump.run(timeout=self.timeout, max_bytes=self.max_output_bytes)
        state = parse_output(output, "the --dump command's output")
        if not isinstance(state, dict):
            raise ProtocolError(f"the --dump command printed {type(state).__name__}, not a state")
        return state

    def _get(self, params: Sequence[Sequence[str]]) -> tuple[int, Any]:
        prefix = self.base.path.rstrip("/")
        target = f"{prefix}{PATH}?{encode_params(params)}"
        status, body = http_get(
            self.base, target, timeout=self.timeout, max_bytes=self.max_response_bytes
        )
        return status, parse_output(body, f"the body of the answer {status} to GET {PATH}")

    def _job(self, call: Mapping[str, Any]) -> Any:
        if self.job is None:
            raise UsageError("a job call needs --job CMD")
        self.commands_run["job"] += 1
        output = self.job.run(
            stdin=dumps(call) + b"\n", timeout=self.timeout, max_bytes=self.max_output_bytes
        )
        return parse_output(output, "the --job command's output")

    def _checked(self, observed: dict[str, Any]) -> dict[str, Any]:
        if self.validate:
            problems = schema_errors(OBSERVED_SCHEMA, observed, limit=1)
            if problems:
                pointer, message = problems[0]
                raise ProtocolError(
                    f"the observed outcome breaks {OBSERVED_SCHEMA} at {pointer or '/'}: {message}"
                )
        return observed

    def _loaded(self, fixture: Mapping[str, Any]) -> tuple[bytes, Any]:
        """Load ``fixture`` unless the database holds it already; (its digest, the last dump
        known to show it, or ``None``). Until the caller says otherwise, the database is
        unknown (a failure halfway leaves it so)."""
        digest, holding, self._holding = _digest(fixture), self._holding, None
        if holding is not None and holding[0] == digest:
            return holding
        self._load(fixture)
        return digest, None

    def observe(
        self,
        fixture: Mapping[str, Any],
        call: Mapping[str, Any],
        *,
        runs: int = 1,
        dump_before: bool = False,
    ) -> Observation:
        """Load (unless the database holds the fixture), call, dump. A context call
        (read-only by contract) runs ``runs`` times on one load; a job is loaded afresh for
        every run but the first (its database then is unknown)."""
        runs = max(1, runs)
        if call["op"] == "context":
            digest, known = self._loaded(fixture)
            before = None
            if dump_before:
                before = known if known is not None else self._dump()
                known = before
            answers = []
            for _ in range(runs):
                self.requests += 1
                answers.append(self._get(call["params"]))
            state = self._dump()
            if _holds(state, known, fixture):
                self._holding = (digest, state)
            outcomes = tuple(
                self._checked({"status": status, "body": body, "state": state})
                for status, body in answers
            )
            return Observation(outcomes, before)
        results = []
        for _ in range(runs):
            self._loaded(fixture)
            self.requests += 1
            result = self._job(call)
            results.append(self._checked({"result": result, "state": self._dump()}))
        return Observation(tuple(results))
