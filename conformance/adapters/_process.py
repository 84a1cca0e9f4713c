"""One implementation process: started in a session of its own, talked to without ever
blocking, and ended together with everything it started.

The harness's side of the pipes is non-blocking and driven by one ``poll`` loop in the calling
thread (no reader threads): writing the request, reading the reply line, draining stderr and
noticing the process's exit all happen in :meth:`ImplementationProcess.exchange`, under one
deadline. So:

- a reply line is read in chunks into a buffer capped at ``max_line_bytes``; an adapter that
  writes without a newline fills the buffer, not the harness's memory, and that is a protocol
  error;
- stderr is drained while waiting and only its tail (``tail_bytes``) is kept;
- the process's exit is seen through a pidfd (Linux) or ``waitid(WNOWAIT)``, not through the
  end of its stdout, which a child holding the pipe (``setsid sleep 600 &``) can keep open;
- :meth:`ImplementationProcess.kill` kills the process group (``killpg``; the process is the
  leader of a new session), including the children of a process that has already exited, then
  any process still holding the stdout or stderr pipe (a child that left the group with
  ``setsid``; found through ``/proc/*/fd`` on Linux), and closes the pipes without waiting for
  anyone.

Misbehaviour raises :class:`~conformance._errors.AdapterError` subclasses; the adapter kills
the process and adds the stderr tail and exit status.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import time
import weakref
from collections.abc import Sequence

from conformance._errors import AdapterCrashedError, AdapterTimeoutError, ProtocolError

__all__ = ["DEFAULT_MAX_LINE_BYTES", "ImplementationProcess"]

#: The longest protocol line read (a reply); past it the message is a protocol error. The kit's
#: largest reply is about 2 MB.
DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024
_READ = 256 * 1024
#: Without a pidfd, how often the loop looks whether the process has exited.
_EXIT_POLL = 0.05
_IN = select.POLLIN | select.POLLPRI
_CLOSED = select.POLLHUP | select.POLLERR | select.POLLNVAL


class ImplementationProcess:
    """A running implementation: its pipes, its stderr tail, its end."""

    def __init__(
        self,
        argv: Sequence[str],
        *,
        env: dict[str, str] | None,
        cwd: str | None,
        tail_bytes: int,
        max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
    ):
        self.popen = subprocess.Popen(
            list(argv),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            bufsize=0,
            env=env,
            cwd=cwd,
            start_new_session=True,  # a new session and process group: killpg takes them all
        )
        assert self.popen.stdin is not None
        assert self.popen.stdout is not None
        assert self.popen.stderr is not None
        self.pid = self.popen.pid
        self._in = self.popen.stdin.fileno()
        self._out = self.popen.stdout.fileno()
        self._err = self.popen.stderr.fileno()
        for fd in (self._in, self._out, self._err):
            os.set_blocking(fd, False)
        self._pipes = {os.fstat(self._out).st_ino, os.fstat(self._err).st_ino}
        self._pidfd = -1
        with contextlib.suppress(AttributeError, OSError):
            self._pidfd = os.pidfd_open(self.pid)
        self._poll = select.poll()
        self._poll.register(self._out, _IN)
        self._poll.register(self._err, _IN)
        if self._pidfd >= 0:
            self._poll.register(self._pidfd, select.POLLIN)
        self._writing = False
        self._buffer = bytearray()
        #: The first bytes stdout held while waiting for the exit (nobody asked for them).
        self.dropped_output = b""
        self._scanned = 0
        self._out_open = True
        self._err_open = True
        self._tail = bytearray()
        self._tail_bytes = tail_bytes
        self.max_line_bytes = max_line_bytes
        self.stderr_total = 0
        self._ended = False
        # A process nobody closed (an adapter dropped without close()) is still ended: when
        # this object is collected, or when the interpreter exits.
        self._finalizer = weakref.finalize(self, _end_forgotten, self.popen, self._pidfd)

    # ------------------------------------------------------------------ talking

    def exchange(self, data: bytes, timeout: float, *, what: str) -> bytes:
        """Write ``data`` (may be empty) and return the next stdout line (without its newline).

        Raises :class:`AdapterTimeoutError` (no line within ``timeout``),
        :class:`AdapterCrashedError` (stdin closed, or the process ended or closed stdout
        first) and :class:`ProtocolError` (a line longer than ``max_line_bytes``).
        """
        deadline = time.monotonic() + timeout
        pending = memoryview(data)
        while True:
            if pending:
                pending = self._write_some(pending, what)
            line = self._take_line(what)
            if line is not None:
                return line
            if not self._out_open or self.exited():
                line = self._last_line(what)  # what it wrote before it went
                if line is not None:
                    return line
                status = self.exit_status(wait=0.5)
                raise AdapterCrashedError(
                    f"process exited (status {status}) before the {what}"
                    if status is not None
                    else f"process closed its stdout before the {what}",
                    exit_status=status,
                )
            left = deadline - time.monotonic()
            if left <= 0:
                raise AdapterTimeoutError(
                    f"no {what} within {timeout:g} s (hung, or stdout not flushed after the line?)"
                )
            self._want_write(bool(pending))
            self._read_ready(wait=left)

    def pending_output(self) -> bytes:
        """The first bytes (at most 4 KiB) stdout holds beyond the line just taken."""
        self._read_ready(wait=0)
        return bytes(self._buffer[:4096])

    def more_output(self) -> bool:
        """Whether stdout already holds bytes beyond the line just taken (read without
        waiting): a second line written with a reply belongs to that reply's exchange."""
        self._read_ready(wait=0)
        return bool(self._buffer)

    def run_to_end(self, data: bytes, timeout: float, *, what: str, max_bytes: int) -> bytes:
        """A one-shot command: write ``data`` to stdin and close it, then return everything
        the command writes to stdout until it closes stdout or exits (the same poll loop as
        :meth:`exchange`, under one deadline).

        Raises :class:`AdapterTimeoutError` (not done within ``timeout``) and
        :class:`ProtocolError` (more than ``max_bytes`` on stdout: reading stops there). A
        command that exits without reading its stdin is not an error here: its exit status
        says how it went (:meth:`exit_status`).
        """
        deadline = time.monotonic() + timeout
        pending = memoryview(data)
        if not pending:
            self.close_stdin()
        while True:
            if pending:
                try:
                    pending = self._write_some(pending, what)
                except AdapterCrashedError:  # it stopped reading: what it wrote still counts
                    pending = memoryview(b"")
                if not pending:
                    self.close_stdin()
            if len(self._buffer) > max_bytes:
                self._buffer.clear()
                raise ProtocolError(f"the {what} is longer than {max_bytes:,} bytes")
            if not self._out_open:
                break
            if self.exited():  # what it wrote before it went (a child may hold stdout open)
                self._drain_stdout(max_bytes)
                if len(self._buffer) > max_bytes:
                    continue
                break
            left = deadline - time.monotonic()
            if left <= 0:
                raise AdapterTimeoutError(f"the {what} was not done within {timeout:g} s")
            self._want_write(bool(pending))
            self._read_ready(wait=left)
        output = bytes(self._buffer)
        self._buffer.clear()
        self._scanned = 0
        return output

    def _drain_stdout(self, max_bytes: int) -> None:
        """Read stdout while something comes at once, up to just over ``max_bytes``."""
        while self._out_open and len(self._buffer) <= max_bytes:
            before = len(self._buffer)
            self._read_ready(wait=0.0)
            if len(self._buffer) == before:
                return

    def _last_line(self, what: str) -> bytes | None:
        """A line still in the pipe after the process went (read until nothing more comes)."""
        while True:
            line = self._take_line(what)
            if line is not None or not self._out_open:
                return line
            before = len(self._buffer)
            self._read_ready(wait=0.0)
            if len(self._buffer) == before:
                return self._take_line(what)

    def _write_some(self, pending: memoryview, what: str) -> memoryview:
        try:
            return pending[os.write(self._in, pending) :]
        except BlockingIOError:
            return pending
        except OSError:  # EPIPE: nobody reads stdin any more
            raise AdapterCrashedError(f"process is gone (stdin closed) before the {what}") from None

    def _want_write(self, writing: bool) -> None:
        if writing != self._writing:
            if writing:
                self._poll.register(self._in, select.POLLOUT)
            else:
                self._poll.unregister(self._in)
            self._writing = writing

    def _read_ready(self, *, wait: float) -> None:
        """Wait up to ``wait`` seconds for something to happen; read what is readable."""
        if self._pidfd < 0:
            wait = min(wait, _EXIT_POLL)
        try:
            events = self._poll.poll(max(0, int(wait * 1000)) if wait > 0 else 0)
        except InterruptedError:  # pragma: no cover - PEP 475 retries
            return
        for fd, mask in events:
            if fd == self._out and mask & (_IN | _CLOSED):
                self._read_stdout()
            elif fd == self._err and mask & (_IN | _CLOSED):
                self._read_stderr()

    def _read_stdout(self) -> None:
        try:
            chunk = os.read(self._out, _READ)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        if not chunk:
            self._out_open = False
            self._poll.unregister(self._out)
            return
        self._buffer += chunk

    def _read_stderr(self) -> None:
        try:
            chunk = os.read(self._err, _READ)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        if not chunk:
            self._err_open = False
            self._poll.unregister(self._err)
            return
        self.stderr_total += len(chunk)
        self._tail += chunk
        if len(self._tail) > self._tail_bytes:
            del self._tail[: len(self._tail) - self._tail_bytes]

    def _take_line(self, what: str) -> bytes | None:
        """The first complete line of the buffer, if there is one."""
        newline = self._buffer.find(b"\n", self._scanned)
        limit = self.max_line_bytes
        if newline < 0:
            self._scanned = len(self._buffer)
            if len(self._buffer) > limit:
                self._buffer.clear()
                self._scanned = 0
                raise ProtocolError(
                    f"the {what} is longer than {limit:,} bytes without a newline "
                    "(a protocol line is one JSON object followed by a newline)"
                )
            return None
        line = bytes(self._buffer[:newline])
        del self._buffer[: newline + 1]
        self._scanned = 0
        if len(line) > limit:
            raise ProtocolError(f"the {what} is longer than {limit:,} bytes")
        return line

    def stderr_tail(self) -> str:
        """The last bytes written to stderr, decoded leniently."""
        return bytes(self._tail).decode("utf-8", "replace")

    # ------------------------------------------------------------------ ending

    def exited(self) -> bool:
        """Whether the process has exited (without reaping it: its group ID stays reserved)."""
        if self.popen.returncode is not None:
            return True
        try:
            return os.waitid(os.P_PID, self.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
        except ChildProcessError:
            return True
        except (AttributeError, OSError):  # pragma: no cover - no waitid
            return self.popen.poll() is not None

    def exit_status(self, wait: float = 0.0) -> int | None:
        """The exit status once the process has exited, waiting up to ``wait`` seconds for it;
        stderr is drained meanwhile (a process blocked writing it could not exit)."""
        deadline = time.monotonic() + wait
        while not self.exited():
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            self._want_write(False)
            self._read_ready(wait=left)
            if self._buffer:  # nobody is waiting for a reply any more: dropped, but noted
                self.dropped_output = self.dropped_output or bytes(self._buffer[:4096])
                self._buffer.clear()
        return self.popen.returncode if self.popen.returncode is not None else self._peek_status()

    def _peek_status(self) -> int | None:
        with contextlib.suppress(ChildProcessError, OSError, AttributeError):
            result = os.waitid(os.P_PID, self.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
            if result is not None:
                if result.si_code == os.CLD_EXITED:
                    return result.si_status
                return -result.si_status
        return self.popen.returncode

    def close_stdin(self) -> None:
        """Close the process's stdin (end of input = stop, for a well-behaved adapter)."""
        self._want_write(False)
        stdin = self.popen.stdin
        if stdin is not None:
            with contextlib.suppress(OSError):
                stdin.close()

    def kill(self) -> None:
        """End the process, its group and any process still holding its output pipes; never
        waits more than about a second, whatever they do."""
        if self._ended:
            return
        self._ended = True
        self._finalizer.detach()
        # The process is alive or a zombie (never reaped before this point), so its process
        # group ID cannot have been reused: killpg reaches its group, even after it exited.
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError):
            self.popen.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.popen.wait(timeout=1.0)
        if self._pidfd >= 0:  # readable from now on: it would only wake the loop up
            self._poll.unregister(self._pidfd)
        self._drain_until_closed(0.2)
        if self._out_open or self._err_open:  # someone left the group but kept a pipe
            for pid in _pipe_holders(self._pipes):
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
            self._drain_until_closed(0.3)
        self._close_fds()

    def _drain_until_closed(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        self._want_write(False)
        while self._out_open or self._err_open:
            left = deadline - time.monotonic()
            if left <= 0:
                return
            self._read_ready(wait=left)
            self._buffer.clear()

    def _close_fds(self) -> None:
        for stream in (self.popen.stdin, self.popen.stdout, self.popen.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        if self._pidfd >= 0:
            with contextlib.suppress(OSError):
                os.close(self._pidfd)
            self._pidfd = -1


def _end_forgotten(popen: subprocess.Popen[bytes], pidfd: int) -> None:
    """Kill and reap a process whose owner forgot it, and close its pipes."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(popen.pid, signal.SIGKILL)
    with contextlib.suppress(ProcessLookupError):
        popen.kill()
    with contextlib.suppress(subprocess.TimeoutExpired):
        popen.wait(timeout=1.0)
    for stream in (popen.stdin, popen.stdout, popen.stderr):
        if stream is not None:
            with contextlib.suppress(OSError):
                stream.close()
    if pidfd >= 0:
        with contextlib.suppress(OSError):
            os.close(pidfd)


def _pipe_holders(inodes: set[int]) -> list[int]:
    """Processes other than this one holding one of the pipes ``inodes`` (Linux ``/proc``).

    Only an implementation's descendants can hold its output pipes: the harness creates them
    for that one process, and ``subprocess`` closes them in every other child it starts.
    """
    targets = {f"pipe:[{inode}]" for inode in inodes}
    me = os.getpid()
    try:
        pids = [int(name) for name in os.listdir("/proc") if name.isdigit()]
    except OSError:
        return []
    found = []
    for pid in pids:
        if pid == me:
            continue
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            continue
        for fd in fds:
            try:
                link = os.readlink(f"/proc/{pid}/fd/{fd}")
            except OSError:
                continue
            if link in targets:
                found.append(pid)
                break
    return found
