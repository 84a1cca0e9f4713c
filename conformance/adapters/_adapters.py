"""Adapters: how the harness calls an implementation under test.

- ``python:package.module:callable`` -> :class:`InProcessAdapter`: ``callable(request) ->
  result envelope``, called with the working directory set to the vector root (restored after);
  an exception becomes an *errored* result.
- ``cmd:<command line>`` -> :class:`SubprocessAdapter`: one long-lived process speaking
  ``phase6-adapter/1`` (specs/protocol.md) over its stdin/stdout. Per-request timeout; on a
  crash, a hang or a broken message the process is killed and, at the next request, restarted
  with the handshake replayed. stderr is drained continuously into a bounded tail buffer and
  is never fatal.

Every misbehaviour surfaces as an :class:`~conformance._errors.AdapterError` subclass carrying
the stderr tail and exit status; the runner records it against the vector and goes on.
"""

from __future__ import annotations

import abc
import contextlib
import importlib
import importlib.metadata
import os
import queue
import re
import shlex
import signal
import subprocess
import sys
import threading
import time
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path
from types import FrameType, TracebackType
from typing import Any, Literal, Self

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
from conformance.adapters._protocol import (
    CAPABILITY,
    CONTRACT,
    PROTOCOL,
    Handshake,
    check_run_reply,
    check_start_reply,
    check_stop_reply,
    parse_line,
    run_message,
    start_message,
    stop_message,
    validate_message,
)

__all__ = [
    "DEFAULT_TIMEOUT",
    "Adapter",
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
AdapterKind = Literal["python", "cmd"]


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


# ---------------------------------------------------------------------------- in-process


class _InProcessTimeout(BaseException):
    """Raised by SIGALRM inside the callable (a BaseException, so ``except Exception`` in the
    implementation cannot swallow it)."""


def _alarm(signum: int, frame: FrameType | None) -> None:
    raise _InProcessTimeout


def _resolve(target: str, spec: str) -> Callable[[Any], Any]:
    module_name, sep, attribute = target.partition(":")
    if not sep or not module_name or not attribute:
        raise AdapterSpecError(spec, "expected python:package.module:callable")
    try:
        obj: Any = importlib.import_module(module_name)
    except Exception as exc:
        raise SpawnError(
            f"cannot import {module_name!r}: {type(exc).__name__}: {exc}",
            detail=traceback.format_exc(limit=8),
        ) from None
    for part in attribute.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise SpawnError(f"{module_name!r} has no attribute {attribute!r}") from None
    if not callable(obj):
        raise SpawnError(f"{target!r} is not callable")
    return obj  # type: ignore[no-any-return]


def _python_metadata(module_name: str) -> dict[str, Any]:
    top = module_name.split(".", maxsplit=1)[0]
    version = "unknown"
    with contextlib.suppress(Exception):
        version = str(getattr(importlib.import_module(top), "__version__", version))
    if version == "unknown":
        with contextlib.suppress(Exception):
            dist = importlib.metadata.packages_distributions().get(top, [top])[0]
            version = importlib.metadata.version(dist)
    return {
        "name": top,
        "version": version,
        "language": "python",
        "contract": CONTRACT,
        "runtime": f"{sys.implementation.name} {sys.version.split()[0]}",
    }


class InProcessAdapter(Adapter):
    """``python:package.module:callable``: calls the callable in this process.

    The timeout is enforced with ``SIGALRM`` when running in the main thread (always the case
    inside the runner's workers); elsewhere a hung callable cannot be interrupted.
    """

    kind: AdapterKind = "python"

    def __init__(self, spec: str, *, timeout: float = DEFAULT_TIMEOUT, validate: bool = False):
        super().__init__(spec, timeout=timeout, validate=validate)
        self.target = spec.removeprefix("python:")
        self._callable: Callable[[Any], Any] | None = None

    def start(self) -> Handshake:
        """Import the callable; the 'handshake' is the module's metadata."""
        if self._callable is None:
            self._callable = _resolve(self.target, self.spec)
            self.handshake = Handshake(
                PROTOCOL, _python_metadata(self.target.partition(":")[0]), (CAPABILITY,)
            )
        assert self.handshake is not None
        return self.handshake

    def run(self, request_json: bytes, root: Path) -> Any:
        """Call the callable with cwd = ``root``; exceptions become internal errors."""
        if self._callable is None:
            self.start()
        assert self._callable is not None
        request = loads(request_json)
        self.requests += 1
        use_alarm = self.timeout > 0 and threading.current_thread() is threading.main_thread()
        previous_handler: Any = None
        old_cwd = os.getcwd()
        try:
            if use_alarm:
                previous_handler = signal.signal(signal.SIGALRM, _alarm)
                signal.setitimer(signal.ITIMER_REAL, self.timeout)
            os.chdir(root)
            return self._callable(request)
        except _InProcessTimeout:
            raise AdapterTimeoutError(f"no result within {self.timeout:g} s") from None
        except SystemExit as exc:  # the callable tried to end the process: a crash, not ours
            raise AdapterCrashedError(
                f"the callable called sys.exit({exc.code!r})",
                exit_status=exc.code if isinstance(exc.code, int) else None,
                detail=traceback.format_exc(limit=20),
            ) from None
        except Exception as exc:
            raise AdapterInternalError(
                f"{type(exc).__name__}: {exc}"[:2000], detail=traceback.format_exc(limit=20)
            ) from None
        finally:
            if use_alarm:
                signal.setitimer(signal.ITIMER_REAL, 0)
                signal.signal(signal.SIGALRM, previous_handler)
            os.chdir(old_cwd)

    def fresh(self) -> Adapter:
        """The same callable behind ``phase6 serve`` in a new process."""
        argv = [sys.executable, "-m", "conformance", "serve", self.target]
        paths = [p for p in sys.path if p and Path(p).is_dir()]
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}
        return SubprocessAdapter(
            "cmd:" + shlex.join(argv),
            timeout=self.timeout,
            validate=self.validate,
            env=env,
        )


# ---------------------------------------------------------------------------- subprocess


class _Process:
    """One running implementation process: pipes, a stdout reader and a stderr drainer."""

    def __init__(
        self, argv: Sequence[str], *, env: dict[str, str] | None, cwd: str | None, tail_bytes: int
    ):
        self.popen = subprocess.Popen(
            list(argv),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            bufsize=-1,  # buffered: readline on a raw pipe would read one byte per syscall
            env=env,
            cwd=cwd,
            start_new_session=True,  # its own process group: a kill takes its children too
        )
        self.lines: queue.SimpleQueue[bytes | None] = queue.SimpleQueue()
        self._tail = bytearray()
        self._tail_bytes = tail_bytes
        self._tail_lock = threading.Lock()
        self.stderr_total = 0
        self._reader = threading.Thread(target=self._read_stdout, daemon=True)
        self._drainer = threading.Thread(target=self._drain_stderr, daemon=True)
        self._reader.start()
        self._drainer.start()

    def _read_stdout(self) -> None:
        stream = self.popen.stdout
        assert stream is not None
        try:
            for line in iter(stream.readline, b""):
                self.lines.put(line)
        except (OSError, ValueError):
            pass
        self.lines.put(None)

    def _drain_stderr(self) -> None:
        stream = self.popen.stderr
        assert stream is not None
        fd = stream.fileno()
        while True:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            with self._tail_lock:
                self.stderr_total += len(chunk)
                self._tail += chunk
                if len(self._tail) > self._tail_bytes:
                    del self._tail[: len(self._tail) - self._tail_bytes]

    def stderr_tail(self) -> str:
        """The last bytes written to stderr, decoded leniently."""
        with self._tail_lock:
            data = bytes(self._tail)
        return data.decode("utf-8", "replace")

    def send(self, data: bytes) -> None:
        """Write one message; a closed pipe means the process is gone."""
        stdin = self.popen.stdin
        assert stdin is not None
        stdin.write(data)
        stdin.flush()

    def receive(self, timeout: float) -> bytes | None:
        """The next stdout line, ``None`` at end of stream; raises ``queue.Empty`` on timeout."""
        return self.lines.get(timeout=timeout)

    def exit_status(self, wait: float = 0.0) -> int | None:
        """The exit status, waiting up to ``wait`` seconds for the process to end."""
        try:
            return self.popen.wait(timeout=wait) if wait else self.popen.poll()
        except subprocess.TimeoutExpired:
            return None

    def settle(self) -> None:
        """Let the stderr drainer catch up after the process ended."""
        self._drainer.join(timeout=0.5)

    def kill(self) -> None:
        """Kill the process group and reap it."""
        if self.popen.poll() is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.popen.pid, signal.SIGKILL)
            with contextlib.suppress(ProcessLookupError):
                self.popen.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.popen.wait(timeout=5)
        self._close_pipes()

    def _close_pipes(self) -> None:
        for stream in (self.popen.stdin, self.popen.stdout, self.popen.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        self._reader.join(timeout=1)
        self._drainer.join(timeout=1)


class SubprocessAdapter(Adapter):
    """``cmd:<command line>``: a long-lived process speaking ``phase6-adapter/1``."""

    kind: AdapterKind = "cmd"

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
    ):
        super().__init__(spec, timeout=timeout, validate=validate)
        self.argv = shlex.split(spec.removeprefix("cmd:"))
        if not self.argv:
            raise AdapterSpecError(spec, "empty command line")
        self.start_timeout = start_timeout if start_timeout is not None else timeout
        self.env = env
        self.cwd = cwd
        self.stderr_tail_bytes = stderr_tail_bytes
        self._process: _Process | None = None
        self._seq = 0
        self._failed_restarts = 0
        self._gave_up: HandshakeError | None = None

    # -- lifecycle

    def _fail(self, error: type[AdapterError], message: str, *, detail: str = "") -> AdapterError:
        """Kill the process and build ``error`` with its stderr tail and exit status."""
        process = self._process
        self._process = None
        if process is None:
            return error(message, detail=detail)
        status = process.exit_status(wait=0.0 if error is AdapterTimeoutError else 0.2)
        process.kill()
        process.settle()
        if status is None:
            status = process.exit_status()
        return error(message, stderr_tail=process.stderr_tail(), exit_status=status, detail=detail)

    def start(self) -> Handshake:
        """Spawn the process and perform the handshake."""
        if self._process is not None:
            assert self.handshake is not None
            return self.handshake
        try:
            self._process = _Process(
                self.argv, env=self.env, cwd=self.cwd, tail_bytes=self.stderr_tail_bytes
            )
        except OSError as exc:
            raise SpawnError(f"cannot start {self.argv[0]!r}: {exc.strerror or exc}") from None
        try:
            if self.validate:
                validate_message("start", loads(start_message()), error=HandshakeError)
            reply = self._exchange(start_message(), self.start_timeout, what="start reply")
            handshake = check_start_reply(reply, validate=self.validate)
        except AdapterError as exc:
            message = f"handshake failed: {exc.message}"
            raise self._fail(HandshakeError, message, detail=exc.detail) from None
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
        """Send ``stop``, wait briefly for the acknowledgement and the exit, then kill."""
        process = self._process
        self._process = None
        if process is None:
            return
        try:
            process.send(stop_message())
            line = process.receive(_STOP_GRACE)
            if line is not None:
                check_stop_reply(parse_line(line, what="stop reply"), validate=self.validate)
            stdin = process.popen.stdin
            if stdin is not None:
                stdin.close()
            process.exit_status(wait=_STOP_GRACE)
        except (OSError, queue.Empty, AdapterError):
            pass  # a sloppy shutdown is not a conformance failure
        finally:
            process.kill()

    def fresh(self) -> Adapter:
        """The same command line in a new process."""
        return SubprocessAdapter(
            self.spec,
            timeout=self.timeout,
            validate=self.validate,
            start_timeout=self.start_timeout,
            env=self.env,
            cwd=self.cwd,
            stderr_tail_bytes=self.stderr_tail_bytes,
        )

    def stderr_tail(self) -> str:
        """The current process's stderr tail (empty when none is running)."""
        return self._process.stderr_tail() if self._process else ""

    # -- requests

    def _exchange(self, message: bytes, timeout: float, *, what: str) -> dict[str, Any]:
        process = self._process
        assert process is not None
        try:
            process.send(message)
        except (BrokenPipeError, ConnectionResetError, ValueError, OSError):
            raise AdapterCrashedError(f"process is gone (stdin closed) before the {what}") from None
        deadline = time.monotonic() + timeout
        try:
            line = process.receive(max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise AdapterTimeoutError(
                f"no {what} within {timeout:g} s (hung, or stdout not flushed after the line?)"
            ) from None
        if line is None:
            status = process.exit_status(wait=1.0)
            raise AdapterCrashedError(
                f"process exited (status {status}) before the {what}", exit_status=status
            )
        return parse_line(line, what=what)

    def run(self, request_json: bytes, root: Path) -> Any:
        """Send one ``run`` and return the result envelope (restarting first if needed)."""
        self._ensure_started()
        self._seq += 1
        self.requests += 1
        seq = self._seq
        message = run_message(seq, str(root), request_json)
        try:
            if self.validate:
                validate_message("run", loads(message))
            reply = check_run_reply(
                self._exchange(message, self.timeout, what=f"reply to seq {seq}"),
                seq,
                validate=self.validate,
            )
        except (AdapterCrashedError, AdapterTimeoutError, ProtocolError) as exc:
            raise self._fail(type(exc), exc.message, detail=exc.detail) from None
        if reply.internal_error is not None:
            assert self._process is not None
            raise AdapterInternalError(
                f"implementation reported an internal error: {reply.internal_error['message']}",
                detail=str(reply.internal_error.get("traceback", "")),
                stderr_tail=self._process.stderr_tail(),
            )
        return reply.result


def open_adapter(spec: str, *, timeout: float = DEFAULT_TIMEOUT, validate: bool = False) -> Adapter:
    """Build the adapter an ``--adapter`` string names (not started yet)."""
    if spec.startswith("python:"):
        return InProcessAdapter(spec, timeout=timeout, validate=validate)
    if spec.startswith("cmd:"):
        try:
            return SubprocessAdapter(spec, timeout=timeout, validate=validate)
        except ValueError as exc:  # shlex: unbalanced quotes
            raise AdapterSpecError(spec, str(exc)) from None
    raise AdapterSpecError(spec, "must start with 'python:' or 'cmd:'")


_LAUNCHERS = re.compile(
    r"^(python[0-9.]*|pypy[0-9.]*|node|nodejs|deno|bun|java|ruby|perl|sh|bash|env)$"
)


def spec_name(spec: str) -> str:
    """A short name for an adapter whose handshake failed: the program or script it runs.

    ``cmd:python -m reference serve`` -> ``reference``; ``cmd:node impl.js`` -> ``impl``;
    ``python:pkg.mod:fn`` -> ``pkg``.
    """
    if spec.startswith("python:"):
        return spec.removeprefix("python:").split(":")[0].split(".")[0] or "implementation"
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
