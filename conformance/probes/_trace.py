"""Running the implementation under ``strace`` and reading what it did to files, sockets and
programs.

``strace -ff -ttt -y`` writes one log per process with wall-clock timestamps and the paths
behind file descriptors (``AT_FDCWD</cwd>``, ``= 3</abs/path>``), so relative paths resolve
exactly. Calls before the handshake ended belong to the runtime's start-up (a JVM's perf file,
a loader's cache) and are only listed; calls after it are the controller's.

The logs are written by a process the implementation can make talk (every failing ``openat``
of a 4 KB path is a 4 KB line), so they are bounded: a watchdog kills the traced process group
once the logs pass :data:`MAX_LOG_BYTES`, the logs are read as a stream up to that many bytes,
and only the calls a probe judges (writes, executions, internet sockets) are kept, at most
:data:`MAX_KEPT_CALLS`. A log past either bound is a *flood*: the trace is incomplete, and the
probes judging it fail rather than pass on what they could read.
"""

from __future__ import annotations

import contextlib
import os
import posixpath
import re
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from conformance.adapters import SubprocessAdapter
from conformance.probes._launch import Launcher, ProbeRequest, Replies, adapter_pid, run_requests

__all__ = ["MAX_KEPT_CALLS", "MAX_LOG_BYTES", "TRACED_CALLS", "Syscall", "Trace", "trace_requests"]

#: Bytes of strace logs (all processes together) written and read at most: the reference's
#: whole trace is well under 1 MiB.
MAX_LOG_BYTES = 64 * 1024 * 1024
#: Judged calls (writes, executions, internet sockets) kept at most.
MAX_KEPT_CALLS = 10_000
#: Characters of a call's arguments kept (what reports show is cut at 240 anyway).
_KEPT_ARGS = 1024
#: How often the watchdog measures the logs, in seconds.
_WATCH_EVERY = 0.05

#: Calls that can change a file or directory, plus the ones that open, execute or connect.
#: ``?`` keeps strace quiet about names a platform lacks (e.g. ``open`` on aarch64).
MODIFYING: tuple[str, ...] = (
    "creat", "truncate", "rename", "renameat", "renameat2", "unlink", "unlinkat", "rmdir",
    "mkdir", "mkdirat", "mknod", "mknodat", "link", "linkat", "symlink", "symlinkat",
    "chmod", "fchmodat", "fchmodat2", "chown", "lchown", "fchownat", "utime", "utimes",
    "utimensat", "futimesat", "setxattr", "lsetxattr", "removexattr", "lremovexattr",
)  # fmt: skip
OPENING: tuple[str, ...] = ("open", "openat", "openat2")
EXECUTING: tuple[str, ...] = ("execve", "execveat")
NETWORK: tuple[str, ...] = ("socket", "connect", "sendto", "sendmsg")
TRACED_CALLS: tuple[str, ...] = OPENING + MODIFYING + EXECUTING + NETWORK

_LINE = re.compile(r"^(?P<ts>\d+\.\d+) (?P<name>\w+)\((?P<args>.*)\)\s+= (?P<ret>.*)$")
_STRING = re.compile(r'(?:(?:AT_FDCWD|-?\d+)<(?P<dir>[^>]*)>, )?"(?P<s>(?:[^"\\]|\\.)*)"')
_FD_PATH = re.compile(r"\b\d+<(?P<p>/[^>]*)>")
_RESULT_PATH = re.compile(r"^\d+<(?P<p>[^>]*)>")
_WRITE_FLAGS = ("O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC", "O_APPEND")
_INET = ("AF_INET", "AF_INET6", "AF_PACKET")
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "v": "\v", "f": "\f", '"': '"', "\\": "\\"}


def _unescape(text: str) -> str:
    """Decode strace's C-style string escapes (``\\x41``, ``\\101``, ``\\n``, ...)."""
    out = bytearray()
    index = 0
    while index < len(text):
        char = text[index]
        if char != "\\" or index + 1 == len(text):
            out += char.encode("utf-8", "surrogateescape")
            index += 1
            continue
        nxt = text[index + 1]
        if nxt == "x":
            out.append(int(text[index + 2 : index + 4], 16))
            index += 4
        elif nxt.isdigit():
            digits = re.match(r"[0-7]{1,3}", text[index + 1 :])
            assert digits is not None
            out.append(int(digits.group(), 8) & 0xFF)
            index += 1 + len(digits.group())
        else:
            out += _ESCAPES.get(nxt, nxt).encode()
            index += 2
    return out.decode("utf-8", "replace")


@dataclass(frozen=True)
class Syscall:
    """One traced call: process log, wall-clock time, name, raw arguments, result and the
    absolute paths it touches (as far as the log tells)."""

    pid: str
    ts: float
    name: str
    args: str
    result: str
    paths: tuple[str, ...]
    #: True for an open with a write flag, or any call that changes the filesystem.
    writes: bool = False
    #: True for a socket, connect or send on an internet (or raw packet) address family.
    inet: bool = False

    @property
    def judged(self) -> bool:
        """Whether a probe looks at this call (a write, an execution or an internet socket)."""
        return self.writes or self.inet or self.name in EXECUTING

    def show(self) -> str:
        """A one-line rendering for reports."""
        text = f"{self.name}({self.args}) = {self.result}"
        return text if len(text) <= 240 else text[:237] + "..."


def _paths(name: str, args: str, result: str) -> tuple[str, ...]:
    found = []
    if name in OPENING:
        resolved = _RESULT_PATH.match(result)
        if resolved:
            return (resolved.group("p"),)
    for match in _STRING.finditer(args):
        value = _unescape(match.group("s"))
        if name in EXECUTING or not value:
            found.append(value)
        elif value.startswith("/"):
            found.append(posixpath.normpath(value))
        elif match.group("dir"):
            found.append(posixpath.normpath(posixpath.join(match.group("dir"), value)))
        else:
            found.append(value)  # relative to an unknown directory (a non-*at call)
    found.extend(match.group("p") for match in _FD_PATH.finditer(args))
    return tuple(found)


def _call(pid: str, line: str) -> Syscall | None:
    match = _LINE.match(line.rstrip("\n"))
    if match is None:
        return None
    name, args, result = match.group("name"), match.group("args"), match.group("ret")
    writes = any(flag in args for flag in _WRITE_FLAGS) if name in OPENING else name in MODIFYING
    inet = name in NETWORK and any(family in args for family in _INET)
    return Syscall(
        pid, float(match.group("ts")), name, args[:_KEPT_ARGS], result[:_KEPT_ARGS],
        _paths(name, args, result), writes, inet,
    )  # fmt: skip


def parse_log(path: Path, budget: list[int] | None = None) -> Iterator[Syscall]:
    """The calls recorded in one ``strace -ff`` log file, read as a stream.

    ``budget`` (one number, decreased as lines are read) stops the reading when it runs out;
    a line longer than the budget is cut there and stops it too.
    """
    pid = path.name.rpartition(".")[2]
    with open(path, "rb") as handle:
        while budget is None or budget[0] > 0:
            raw = handle.readline(-1 if budget is None else budget[0])
            if not raw:
                return
            if budget is not None:
                budget[0] -= len(raw)
            call = _call(pid, raw.decode("utf-8", "replace"))
            if call is not None:
                yield call


@dataclass(frozen=True)
class Trace:
    """What a traced adapter process answered and which calls it made."""

    replies: Replies
    #: The judged calls (writes, executions, internet sockets), in time order.
    calls: tuple[Syscall, ...]
    workspace: Path
    #: Opens traced (read or write), and calls traced in all.
    opens: int = 0
    total: int = 0
    #: Why the trace is incomplete (the logs passed a bound), or ``None``.
    flood: str | None = None

    def after_start(self) -> Iterator[Syscall]:
        """Calls made after the handshake: on behalf of requests."""
        return (call for call in self.calls if call.ts >= self.replies.started_at)

    def flood_problems(self) -> list[str]:
        """The flood as a probe problem (empty when the trace is complete)."""
        if self.flood is None:
            return []
        return [f"floods its tracer, the trace is incomplete: {self.flood}"]


def _log_bytes(logs: Path) -> int:
    total = 0
    with os.scandir(logs) as entries:
        for entry in entries:
            try:
                total += entry.stat(follow_symlinks=False).st_size
            except OSError:
                continue
    return total


class _Watchdog:
    """Kills the traced adapter's process group once its logs pass :data:`MAX_LOG_BYTES`.

    It keeps watching until stopped: an adapter restarted after the kill (the next request
    restarts a dead one) is killed too, and no further request is sent (:attr:`fired`).
    """

    def __init__(self, logs: Path, adapter: SubprocessAdapter) -> None:
        self.logs, self.adapter = logs, adapter
        self.fired: int | None = None
        self._killed: set[int] = set()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="strace-watchdog", daemon=True)
        self._thread.start()

    def _watch(self) -> None:
        while not self._stop.wait(_WATCH_EVERY):
            size = self.fired or _log_bytes(self.logs)
            if size <= MAX_LOG_BYTES:
                continue
            self.fired = size
            pid = adapter_pid(self.adapter)
            if pid is not None and pid not in self._killed:
                # The adapter runs in a session of its own (strace and every tracee): until
                # ``stop`` returns the adapter is not closed, so the group ID is still its.
                self._killed.add(pid)
                with contextlib.suppress(OSError):
                    os.killpg(pid, signal.SIGKILL)

    def stop(self) -> None:
        """End the watch (called before the adapter is closed)."""
        self._stop.set()
        self._thread.join()


def trace_requests(
    launcher: Launcher,
    strace_prefix: Sequence[str],
    plan: Sequence[tuple[ProbeRequest, Path]],
    workspace: Path,
    logs: Path,
    *,
    env: dict[str, str | None] | None = None,
) -> Trace:
    """Run ``plan`` in one adapter process under strace; logs go to ``logs/trace.<pid>``."""
    logs.mkdir(parents=True, exist_ok=True)
    prefix = [
        *strace_prefix, "-ff", "-qq", "-ttt", "-y", "-s", "4096", "-e", "signal=none",
        "-e", "trace=" + ",".join("?" + name for name in TRACED_CALLS),
        "-o", str(logs / "trace"),
    ]  # fmt: skip
    watchdogs: list[_Watchdog] = []

    def watch(adapter: SubprocessAdapter) -> Callable[[], None]:
        watchdogs.append(_Watchdog(logs, adapter))
        return watchdogs[-1].stop

    def unflooded() -> Iterator[tuple[ProbeRequest, Path]]:
        for step in plan:
            if watchdogs and watchdogs[0].fired is not None:
                return
            yield step

    replies = run_requests(launcher, "strace", unflooded(), prefix=prefix, env=env, watch=watch)
    flood = None
    if watchdogs and watchdogs[0].fired is not None:
        flood = (
            f"its strace logs passed {MAX_LOG_BYTES:,} bytes ({watchdogs[0].fired:,}): "
            "the adapter was killed"
        )
    budget = [MAX_LOG_BYTES]
    calls: list[Syscall] = []
    opens = total = 0
    for log in sorted(logs.glob("trace.*")):
        for call in parse_log(log, budget):
            total += 1
            opens += call.name in OPENING
            if call.judged:
                if len(calls) == MAX_KEPT_CALLS:
                    flood = flood or f"more than {MAX_KEPT_CALLS:,} writes, executions or sockets"
                    break
                calls.append(call)
        if len(calls) == MAX_KEPT_CALLS and flood is not None:
            break
        if budget[0] <= 0:
            flood = flood or f"its strace logs pass {MAX_LOG_BYTES:,} bytes"
            break
    calls.sort(key=lambda call: (call.ts, call.pid))
    return Trace(replies, tuple(calls), workspace, opens, total, flood)


def runtime_noise(path: str) -> bool:
    """Writes no controller makes on purpose: devices, /proc, and Python's bytecode cache."""
    return (
        path.startswith(("/dev/", "/proc/", "/sys/"))
        or "/__pycache__/" in path
        or bool(re.search(r"\.pyc(\.\d+)?$", path))
    )


def under(path: str, root: Path) -> bool:
    """Whether an absolute ``path`` lies in (or is) ``root``."""
    base = os.path.realpath(root)
    return (
        path == base
        or path.startswith(base + "/")
        or path == str(root)
        or path.startswith(f"{root}/")
    )
