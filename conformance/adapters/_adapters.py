"""Adapters: how the harness calls an implementation under test.

- ``cmd:<command line>`` -> :class:`SubprocessAdapter`: one long-lived process speaking
  ``phase6-adapter/1`` (specs/protocol.md) over its stdin/stdout. Per-request timeout; on a
  crash, a hang or a broken message the process is killed with everything it started and, at
  the next request, restarted with the handshake replayed. stderr is drained while waiting and
  only its tail is kept; it is never fatal. The pipes are driven without blocking
  (:mod:`conformance.adapters._process`), so nothing an implementation does with them can hang
  the harness past the timeout.
- ``python:package.module:callable`` -> :class:`InProcessAdapter`: ``callable(request) ->
  result envelope``, called with the working directory set to the vector root. The callable
  runs in a worker process of its own (:mod:`conformance.adapters._worker`, the ``phase6 serve``
  loop) that imports it with the harness's ``sys.path`` and current directory: ``os._exit``, a
  signal it ignores, a hang or a crash of the interpreter cost that worker, never the harness,
  and are recorded like the same misbehaviour of a ``cmd:`` adapter.

Every misbehaviour surfaces as an :class:`~conformance._errors.AdapterError` subclass carrying
the stderr tail and exit status; the runner records it against the vector and goes on.
"""

from __future__ import annotations

import abc
import json
import os
import re
import shlex
import shutil
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from types import TracebackType
from typing import Any, ClassVar, Literal, Self

from conformance._errors import (
    AdapterCrashedError,
    AdapterError,
    AdapterInternalError,
    AdapterSpecError,
    AdapterTimeoutError,
    HandshakeError,
    ProtocolError,
    SpawnError,
)
from conformance._kit import loads, slugify
from conformance._schemas import PROTOCOL_SCHEMAS
from conformance.adapters import _worker
from conformance.adapters._process import DEFAULT_MAX_LINE_BYTES, ImplementationProcess
from conformance.adapters._protocol import (
    CAPABILITY,
    CONTRACT,
    PROTOCOL,
    Handshake,
    RunReply,
    check_run_reply,
    check_start_reply,
    check_stop_reply,
    parse_line,
    run_message,
    start_message,
    stop_message,
    validate_message,
)
from conformance.adapters._sandbox import SandboxStatus, active_sandbox

__all__ = [
    "DEFAULT_MAX_LINE_BYTES",
    "DEFAULT_TIMEOUT",
    "STDERR_TAIL_BYTES",
    "Adapter",
    "AdapterKind",
    "InProcessAdapter",
    "SubprocessAdapter",
    "open_adapter",
    "reference_adapter_spec",
    "spec_name",
]

DEFAULT_TIMEOUT = 30.0
#: Restarts in a row that may fail before the adapter gives up for the rest of the run.
MAX_FAILED_RESTARTS = 3
STDERR_TAIL_BYTES = 16 * 1024
_STOP_GRACE = 2.0
_ENDED = _worker.ENDED
AdapterKind = Literal["python", "cmd", "http"]


def reference_adapter_spec() -> str:
    """The bundled reference, certified the way a stranger is: through its subprocess entry."""
    return f"cmd:{shlex.quote(sys.executable)} -m reference serve"


class Adapter(abc.ABC):
    """An implementation under test. Use as a context manager, or call :meth:`close`."""

    spec: str
    kind: AdapterKind

    def __init__(self, spec: str, *, timeout: float = DEFAULT_TIMEOUT, validate: bool = False):
        self.spec = spec
        self.timeout = timeout
        self.validate = validate
        self.handshake: Handshake | None = None
        self.requests = 0
        self.restarts = 0
        #: Output found after a reply was taken: ``(seq of the exchange it belongs to, the
        #: error)``, kept for the caller to blame (:meth:`take_late_output`).
        self._late: list[tuple[int, AdapterError]] = []

    @property
    def last_seq(self) -> int:
        """The ``seq`` of the last request sent (0: none)."""
        return 0

    def take_late_output(self) -> list[tuple[int, AdapterError]]:
        """``(seq, error)`` for output found since the last call that an earlier exchange
        wrote after its reply was taken (``seq``: the reply it repeats names it, else the
        exchange before the one that found it), and forget them."""
        late, self._late = self._late, []
        return late

    @abc.abstractmethod
    def start(self) -> Handshake:
        """Start the implementation and perform the handshake (raises :class:`HandshakeError`)."""

    @abc.abstractmethod
    def run(self, request_json: bytes, root: Path) -> Any:
        """Execute one request against the files under ``root``; the result envelope.

        Raises an :class:`AdapterError` subclass when the implementation misbehaves.
        """

    @abc.abstractmethod
    def fresh(self) -> Adapter:
        """A new, unstarted adapter for the same implementation in a fresh process."""

    def close(self) -> None:  # noqa: B027 - optional hook
        """Stop the implementation (idempotent)."""

    def metadata(self) -> dict[str, Any]:
        """What the report header says about this adapter."""
        return {
            "spec": self.spec,
            "kind": self.kind,
            "protocol": PROTOCOL,
            "implementation": dict(self.handshake.implementation) if self.handshake else None,
            "capabilities": list(self.handshake.capabilities) if self.handshake else [],
            **(
                {"readings": list(self.handshake.readings)}
                if self.handshake and self.handshake.readings is not None
                else {}
            ),
        }

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


# ---------------------------------------------------------------------------- subprocess

#: The ``seq`` a (repeated) run reply names, read from its first bytes without parsing it.
_SEQ = re.compile(rb'"seq"\s*:\s*([0-9]{1,18})')


class SubprocessAdapter(Adapter):
    """``cmd:<command line>``: a long-lived process speaking ``phase6-adapter/1``.

    ``max_line_bytes`` caps one protocol line (a reply); a longer one is a protocol error.
    ``sandbox`` (default: the run's, :func:`~conformance.adapters.active_sandbox`) says whether
    the process is started inside the sandbox (:mod:`conformance.adapters._sandbox`).
    A profile other than SPEC-006's (the Phase 2 one, :mod:`conformance.phase2`) subclasses
    this and sets the class attributes below: the contract and capability its handshake must
    declare and the schemas ``--validate-protocol`` checks its messages against; it sends its
    own ``run`` messages through :meth:`exchange_run`.
    """

    kind: AdapterKind = "cmd"
    contract: ClassVar[str] = CONTRACT
    capability: ClassVar[str] = CAPABILITY
    schemas: ClassVar[Mapping[str, str]] = PROTOCOL_SCHEMAS

    def __init__(
        self,
        spec: str,
        *,
        timeout: float = DEFAULT_TIMEOUT,
        validate: bool = False,
        start_timeout: float | None = None,
        env: dict[str, str] | None = None,
        cwd: str | None = None,
        stderr_tail_bytes: int = STDERR_TAIL_BYTES,
        max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
        sandbox: SandboxStatus | None = None,
    ):
        super().__init__(spec, timeout=timeout, validate=validate)
        self.sandbox = sandbox if sandbox is not None else active_sandbox()
        self.argv = self._argv(spec)
        if not self.argv:
            raise AdapterSpecError(spec, "empty command line")
        self.start_timeout = start_timeout if start_timeout is not None else timeout
        self.env = env
        self.cwd = cwd
        self.stderr_tail_bytes = stderr_tail_bytes
        self.max_line_bytes = max_line_bytes
        self._process: ImplementationProcess | None = None
        self._seq = 0
        self._failed_restarts = 0
        self._gave_up: HandshakeError | None = None
        self._busy = False

    def _argv(self, spec: str) -> list[str]:
        return shlex.split(spec.removeprefix("cmd:"))

    @property
    def last_seq(self) -> int:
        """The ``seq`` of the last request sent (0: none)."""
        return self._seq

    def _stale(self, data: bytes, default: int, where: str) -> None:
        """Note output an earlier exchange wrote after its reply: the exchange whose ``seq``
        the line names (a repeated reply), else ``default``."""
        named = _SEQ.search(data)
        seq = int(named.group(1)) if named and 0 < int(named.group(1)) <= self._seq else default
        process = self._process
        self._late.append(
            (
                seq,
                ProtocolError(
                    f"more output after the reply to seq {seq}, {where} (a run is answered by "
                    "exactly one line)",
                    stderr_tail=process.stderr_tail() if process else "",
                ),
            )
        )

    @property
    def pid(self) -> int | None:
        """The process ID of the running implementation process, if one runs."""
        return self._process.pid if self._process is not None else None

    # -- lifecycle

    def _fail(self, error: type[AdapterError], message: str, *, detail: str = "") -> AdapterError:
        """Kill the process (and all it started) and build ``error`` with its stderr tail and
        exit status."""
        process = self._process
        self._process = None
        self._busy = False
        if process is None:
            return error(message, detail=detail)
        status = process.exit_status(wait=0.0 if error is AdapterTimeoutError else 0.2)
        process.kill()
        if status is None:
            status = process.popen.returncode
        return error(message, stderr_tail=process.stderr_tail(), exit_status=status, detail=detail)

    def _check_start(self, reply: dict[str, Any]) -> Handshake:
        """Accept the ``start`` reply (a hook: the Python worker's refusal is a spawn error)."""
        return check_start_reply(
            reply,
            validate=self.validate,
            contract=self.contract,
            capability=self.capability,
            schemas=self.schemas,
        )

    def start(self) -> Handshake:
        """Spawn the process and perform the handshake."""
        if self._process is not None:
            assert self.handshake is not None
            return self.handshake
        argv, env = self.argv, self.env
        box = self.sandbox.sandbox
        if box is not None:
            path = (os.environ if env is None else env).get("PATH", os.defpath)
            if shutil.which(argv[0], path=path) is None:  # said as when it is not wrapped
                raise SpawnError(f"cannot start {argv[0]!r}: No such file or directory")
            argv, env = box.command(argv, cwd=self.cwd), box.environment(env)
        try:
            self._process = ImplementationProcess(
                argv,
                env=env,
                cwd=self.cwd,
                tail_bytes=self.stderr_tail_bytes,
                max_line_bytes=self.max_line_bytes,
            )
        except OSError as exc:
            raise SpawnError(f"cannot start {self.argv[0]!r}: {exc.strerror or exc}") from None
        try:
            if self.validate:
                validate_message(
                    "start", loads(start_message()), error=HandshakeError, schemas=self.schemas
                )
            reply = self._exchange(start_message(), self.start_timeout, what="start reply")
            handshake = self._check_start(reply)
        except AdapterError as exc:
            kind = type(exc) if isinstance(exc, HandshakeError) else HandshakeError
            prefix = "" if isinstance(exc, SpawnError) else "handshake failed: "
            raise self._fail(kind, prefix + exc.message, detail=exc.detail) from None
        self.handshake = handshake
        return handshake

    def _ensure_started(self) -> None:
        if self._process is not None:
            return
        if self._gave_up is not None:
            raise HandshakeError(
                f"adapter not restarted after {MAX_FAILED_RESTARTS} failed restarts: "
                f"{self._gave_up.message}",
                stderr_tail=self._gave_up.stderr_tail,
                exit_status=self._gave_up.exit_status,
            )
        restarting = self.handshake is not None or self.requests > 0
        try:
            self.start()
        except HandshakeError as exc:
            self._failed_restarts += 1
            if self._failed_restarts >= MAX_FAILED_RESTARTS:
                self._gave_up = exc
            raise
        self._failed_restarts = 0
        if restarting:
            self.restarts += 1

    def close(self) -> None:
        """Send ``stop`` and wait briefly for the acknowledgement and the exit; then kill the
        process group and anything still holding the pipes (always: children an adapter left
        behind are ended too). A process interrupted mid-request is killed at once."""
        process = self._process
        self._process = None
        if process is None:
            return
        try:
            if not self._busy:
                reply = parse_line(
                    process.exchange(stop_message(), _STOP_GRACE, what="stop reply"),
                    what="stop reply",
                )
                if type(reply.get("seq")) is int and 0 < reply["seq"] <= self._seq:
                    # A run reply written after the last one was taken: that exchange's fault.
                    self._stale(
                        b'"seq":%d' % reply["seq"],
                        self._seq,
                        "read while waiting for the stop reply",
                    )
                    reply = parse_line(
                        process.exchange(b"", _STOP_GRACE, what="stop reply"), what="stop reply"
                    )
                check_stop_reply(reply, validate=self.validate)
                process.close_stdin()
                process.exit_status(wait=_STOP_GRACE)
                left = process.dropped_output or process.pending_output()
                if self._seq and left:  # written after the last run's reply
                    self._stale(left, self._seq, "found when the process stopped")
        except (OSError, AdapterError):
            pass  # a sloppy shutdown is not a conformance failure
        finally:
            self._busy = False
            process.kill()

    def fresh(self) -> Self:
        """The same command line in a new process (a subclass gets its own class back)."""
        return type(self)(
            self.spec,
            timeout=self.timeout,
            validate=self.validate,
            start_timeout=self.start_timeout,
            env=self.env,
            cwd=self.cwd,
            stderr_tail_bytes=self.stderr_tail_bytes,
            max_line_bytes=self.max_line_bytes,
            sandbox=self.sandbox,
        )

    def metadata(self) -> dict[str, Any]:
        """What the report header says about this adapter, the sandbox included."""
        return {**super().metadata(), "sandbox": self.sandbox.to_json()}

    def stderr_tail(self) -> str:
        """The current process's stderr tail (empty when none is running)."""
        return self._process.stderr_tail() if self._process else ""

    # -- requests

    def _exchange(self, message: bytes, timeout: float, *, what: str) -> dict[str, Any]:
        process = self._process
        assert process is not None
        self._busy = True
        line = process.exchange(message, timeout, what=what)
        self._busy = False
        return parse_line(line, what=what)

    def run(self, request_json: bytes, root: Path) -> Any:
        """Send one ``run`` and return the result envelope (restarting first if needed)."""
        return self.exchange_run(lambda seq: run_message(seq, str(root), request_json))

    def run_audited(self, request_json: bytes, root: Path) -> tuple[Any, Any]:
        """Send one ``run`` asking for the assembly record (capability ``audit``,
        specs/protocol.md section 4): (the result envelope, the record)."""
        reply = self._exchange_reply(
            lambda seq: run_message(seq, str(root), request_json, audit=True), audit=True
        )
        return reply.result, reply.audit

    def exchange_run(self, message_for: Callable[[int], bytes]) -> Any:
        """Send the ``run`` line ``message_for(seq)`` builds and return the reply's ``result``
        (restarting first if needed): the one request exchange of every profile."""
        return self._exchange_reply(message_for, audit=False).result

    def _reply_to(self, message: bytes, seq: int) -> dict[str, Any]:
        """Send ``message`` and read the reply to ``seq``, passing over one line an earlier
        exchange wrote after its reply was taken (it names that exchange's seq): that line is
        the earlier exchange's fault (:meth:`take_late_output`), not this one's reply."""
        what = f"reply to seq {seq}"
        reply = self._exchange(message, self.timeout, what=what)
        got = reply.get("seq")
        if type(got) is int and 0 < got < seq:
            self._stale(
                b'"seq":%d' % got, seq - 1, f"read while waiting for the reply to seq {seq}"
            )
            reply = self._exchange(b"", self.timeout, what=what)
        return reply

    def _exchange_reply(self, message_for: Callable[[int], bytes], *, audit: bool) -> RunReply:
        self._ensure_started()
        self._seq += 1
        self.requests += 1
        seq = self._seq
        message = message_for(seq)
        if seq > 1 and self._process is not None and self._process.more_output():
            # Written after the previous reply was taken (it was not there yet then): an
            # earlier exchange's fault, kept for the caller to blame on it; this request goes
            # to a fresh process and is judged on its own reply.
            self._stale(self._process.pending_output(), seq - 1, f"found before seq {seq} was sent")
            self._fail(ProtocolError, "restarted after output nobody asked for")
            self._ensure_started()
        try:
            if self.validate:
                validate_message("run", loads(message), schemas=self.schemas)
            reply = check_run_reply(
                self._reply_to(message, seq),
                seq,
                validate=self.validate,
                schemas=self.schemas,
                audit=audit,
            )
        except (AdapterCrashedError, AdapterTimeoutError, ProtocolError) as exc:
            raise self._fail(type(exc), exc.message, detail=exc.detail) from None
        tail = self.stderr_tail()
        if self._process is not None and self._process.more_output():
            pending = self._process.pending_output()
            named = _SEQ.search(pending)
            if named and 0 < int(named.group(1)) < seq:
                # A repeat of an earlier reply, written late: that exchange's fault; this
                # reply stands, and the process restarts before the next request.
                self._stale(pending, seq - 1, f"read with the reply to seq {seq}")
                self._fail(ProtocolError, "restarted after output nobody asked for")
            else:
                # Left in the pipe, the extra line would be read as the next request's reply
                # and blame that (innocent) vector with a wrong seq: this exchange's fault.
                raise self._fail(
                    ProtocolError,
                    f"more output after the reply to seq {seq} (a run is answered by exactly "
                    "one line)",
                )
        if reply.internal_error is not None:
            raise AdapterInternalError(
                f"implementation reported an internal error: {reply.internal_error['message']}",
                detail=str(reply.internal_error.get("traceback", "")),
                stderr_tail=tail,
            )
        return reply


# ---------------------------------------------------------------------------- python


class InProcessAdapter(SubprocessAdapter):
    """``python:package.module:callable``: the callable, in a worker process of its own.

    The worker (:mod:`conformance.adapters._worker`) imports the callable with this process's
    ``sys.path`` (an empty entry meaning the current directory) plus the current directory, so
    whatever the harness could import, the worker imports. A callable that cannot be loaded is
    a :class:`~conformance._errors.SpawnError`; an exception it raises an internal error; a
    ``sys.exit``/``os._exit`` a crash; a hang a timeout (the worker is killed, whatever signals
    it ignores). Called "in-process" for history: the request and the result cross a pipe.
    """

    kind: AdapterKind = "python"
    #: The contract the worker serves (:data:`conformance.adapters._worker.PROFILES`).
    worker_contract: ClassVar[str] = CONTRACT

    def __init__(
        self,
        spec: str,
        *,
        timeout: float = DEFAULT_TIMEOUT,
        validate: bool = False,
        start_timeout: float | None = None,
        stderr_tail_bytes: int = STDERR_TAIL_BYTES,
        max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
        sandbox: SandboxStatus | None = None,
    ):
        self.target = spec.removeprefix("python:")
        module_name, sep, attribute = self.target.partition(":")
        if not sep or not module_name or not attribute:
            raise AdapterSpecError(spec, "expected python:package.module:callable")
        super().__init__(
            spec,
            timeout=timeout,
            validate=validate,
            start_timeout=start_timeout,
            stderr_tail_bytes=stderr_tail_bytes,
            max_line_bytes=max_line_bytes,
            sandbox=sandbox,
        )

    def _argv(self, spec: str) -> list[str]:
        cwd = os.getcwd()
        paths = [entry or cwd for entry in sys.path]
        if cwd not in paths:
            paths.append(cwd)
        worker = _worker.__file__
        assert worker is not None
        target = spec.removeprefix("python:")
        return [sys.executable, worker, target, json.dumps(paths), self.worker_contract]

    def _check_start(self, reply: dict[str, Any]) -> Handshake:
        if reply.get("ok") is False and isinstance(reply.get("error"), str):
            raise SpawnError(reply["error"])
        return super()._check_start(reply)

    def exchange_run(self, message_for: Callable[[int], bytes]) -> Any:
        """Call the callable in the worker; a callable that ended the worker is named so."""
        try:
            return super().exchange_run(message_for)
        except AdapterCrashedError as exc:
            said = [line for line in exc.stderr_tail.splitlines() if line.startswith(_ENDED)]
            if not said:
                raise
            cause = said[-1].removeprefix(_worker.ENDED + ": ")
            raise AdapterCrashedError(
                f"the callable ended its worker process ({cause}): {exc.message}",
                stderr_tail=exc.stderr_tail,
                exit_status=exc.exit_status,
                detail=exc.detail,
            ) from None

    def fresh(self) -> Self:
        """The same callable in a new worker process (a subclass gets its own class back)."""
        return type(self)(
            self.spec,
            timeout=self.timeout,
            validate=self.validate,
            start_timeout=self.start_timeout,
            stderr_tail_bytes=self.stderr_tail_bytes,
            max_line_bytes=self.max_line_bytes,
            sandbox=self.sandbox,
        )


def open_adapter(
    spec: str,
    *,
    timeout: float = DEFAULT_TIMEOUT,
    validate: bool = False,
    max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
) -> Adapter:
    """Build the adapter an ``--adapter`` string names (not started yet)."""
    if spec.startswith("python:"):
        return InProcessAdapter(
            spec, timeout=timeout, validate=validate, max_line_bytes=max_line_bytes
        )
    if spec.startswith("cmd:"):
        try:
            return SubprocessAdapter(
                spec, timeout=timeout, validate=validate, max_line_bytes=max_line_bytes
            )
        except ValueError as exc:  # shlex: unbalanced quotes
            raise AdapterSpecError(spec, str(exc)) from None
    raise AdapterSpecError(spec, "must start with 'python:' or 'cmd:'")


_LAUNCHERS = re.compile(
    r"^(python[0-9.]*|pypy[0-9.]*|node|nodejs|deno|bun|java|ruby|perl|sh|bash|env)$"
)


def spec_name(spec: str) -> str:
    """A short name for an adapter whose handshake failed: the program or script it runs.

    ``cmd:python -m reference serve`` -> ``reference``; ``cmd:node impl.js`` -> ``impl``;
    ``python:pkg.mod:fn`` -> ``pkg``; ``http:http://127.0.0.1:8080`` -> ``http-127.0.0.1-8080``.
    """
    if spec.startswith("python:"):
        return spec.removeprefix("python:").split(":")[0].split(".")[0] or "implementation"
    if spec.startswith("http:"):  # a live service (the Phase 2 profile): its host and port
        return slugify("http-" + spec.removeprefix("http:").partition("//")[2].split("/")[0])
    try:
        words = shlex.split(spec.removeprefix("cmd:"))
    except ValueError:
        words = spec.removeprefix("cmd:").split()
    for index, word in enumerate(words):
        base = os.path.basename(word)
        if word.startswith("-"):
            if word == "-m" and index + 1 < len(words):
                return slugify(words[index + 1].split(".")[0])
            continue
        if "=" in word or (_LAUNCHERS.match(base) and index + 1 < len(words)):
            continue
        return slugify(os.path.splitext(base)[0])
    return "implementation"
