"""Running the implementation under ``strace`` and reading what it did to files, sockets and
programs.

``strace -ff -ttt -y`` writes one log per process with wall-clock timestamps and the paths
behind file descriptors (``AT_FDCWD</cwd>``, ``= 3</abs/path>``), so relative paths resolve
exactly. Calls before the handshake ended belong to the runtime's start-up (a JVM's perf file,
a loader's cache) and are only listed; calls after it are the controller's.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from conformance.probes._launch import Launcher, ProbeRequest, Replies, run_requests

__all__ = ["TRACED_CALLS", "Syscall", "Trace", "trace_requests"]

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

    @property
    def writes(self) -> bool:
        """True for an open with a write flag, or any call that changes the filesystem."""
        if self.name in OPENING:
            return any(flag in self.args for flag in _WRITE_FLAGS)
        return self.name in MODIFYING

    @property
    def inet(self) -> bool:
        """True for a socket, connect or send on an internet (or raw packet) address family."""
        return self.name in NETWORK and any(family in self.args for family in _INET)

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


def parse_log(path: Path) -> Iterator[Syscall]:
    """The calls recorded in one ``strace -ff`` log file."""
    pid = path.name.rpartition(".")[2]
    with open(path, encoding="utf-8", errors="replace") as handle:
        for line in handle:
            match = _LINE.match(line.rstrip("\n"))
            if match is None:
                continue
            name, args, result = match.group("name"), match.group("args"), match.group("ret")
            yield Syscall(
                pid, float(match.group("ts")), name, args, result, _paths(name, args, result)
            )


@dataclass(frozen=True)
class Trace:
    """What a traced adapter process answered and which calls it made."""

    replies: Replies
    calls: tuple[Syscall, ...]
    workspace: Path

    def after_start(self) -> Iterator[Syscall]:
        """Calls made after the handshake: on behalf of requests."""
        return (call for call in self.calls if call.ts >= self.replies.started_at)


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
    replies = run_requests(launcher, "strace", plan, prefix=prefix, env=env)
    calls = [call for log in sorted(logs.glob("trace.*")) for call in parse_log(log)]
    calls.sort(key=lambda call: (call.ts, call.pid))
    return Trace(replies, tuple(calls), workspace)


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
