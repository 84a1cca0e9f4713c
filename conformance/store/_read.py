"""Opening a store without trusting the path, and reading it line by line in bounded memory.

`store check` reads files it did not make: a FIFO would block ``open()`` forever, ``/dev/zero``
never ends, a store can be larger than memory, a line can be gigabytes long.  So:

1. ``os.stat`` the path first: anything but a regular file (directory, FIFO, socket, device) is
   refused by its file type, never opened;
2. open with ``O_RDONLY | O_NONBLOCK`` (a FIFO swapped in after step 1 cannot block the
   open), then ``fstat`` the descriptor: still a regular file, the same one (device and inode),
   or the path is refused as ``changed-while-opening``;
3. read at most the size the file had when opened, in 1 MiB chunks: a store appended to while
   it is checked is checked as it was, and nothing grows without end;
4. split lines as INT-14 says (LF; one CR before it removed; a last line without LF is a line)
   holding at most one line plus one chunk; a line longer than the limit is skipped to its LF
   and reported as ``line-too-long`` with its true length, never held in memory.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Final

__all__ = [
    "CHUNK",
    "MAX_LINE_BYTES",
    "OpenStore",
    "PathError",
    "RawLine",
    "iter_lines",
    "open_store",
]

#: The default line limit: far above any record a memory store holds, far below memory.
MAX_LINE_BYTES: Final = 8 * 1024 * 1024
CHUNK: Final = 1 << 20

_KINDS: Final = (
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


@dataclass(frozen=True)
class PathError:
    """Why a path was not checked: a code of conformance.store._rules.PATH_ERRORS, a message."""

    code: str
    message: str

    def to_json(self) -> dict[str, Any]:
        """The store's `error` object in the JSON report."""
        return {"code": self.code, "message": self.message}


@dataclass(frozen=True)
class OpenStore:
    """A regular file opened read-only: its descriptor and the size it had when opened."""

    fd: int
    size: int


@dataclass(frozen=True)
class RawLine:
    """One line: byte offset, bytes (without LF and one CR before it; empty when too long),
    whether an LF ended it, its length and whether it exceeded the limit."""

    offset: int
    data: bytes
    terminated: bool
    length: int
    too_long: bool = False


def _os_error(exc: OSError) -> PathError:
    reason = exc.strerror or errno.errorcode.get(exc.errno or 0, type(exc).__name__)
    if exc.errno in (errno.ENOENT, errno.ENOTDIR):
        return PathError("not-found", f"no such file: {reason}")
    if exc.errno in (errno.EACCES, errno.EPERM):
        return PathError("permission-denied", f"cannot open for reading: {reason}")
    if exc.errno == errno.EISDIR:
        return PathError("is-a-directory", "is a directory, not a store file")
    return PathError("io-error", f"cannot open: {reason}")


def _file_type_error(mode: int) -> PathError | None:
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return PathError("is-a-directory", "is a directory, not a store file")
    kind = next((name for test, name in _KINDS if test(mode)), "not a regular file")
    return PathError(
        "not-a-regular-file", f"is {kind}; store check reads regular files only (not opened)"
    )


def open_store(path: str) -> OpenStore | PathError:
    """Steps 1-2 of the module docstring: a read-only descriptor of a regular file, or why not."""
    try:
        before = os.stat(path)  # follows symbolic links: a link to a store is a store
    except OSError as exc:
        return _os_error(exc)
    refused = _file_type_error(before.st_mode)
    if refused is not None:
        return refused
    try:
        # O_NONBLOCK: if a FIFO replaced the file since the stat, the open still returns.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOCTTY)
    except OSError as exc:
        return _os_error(exc)
    try:
        after = os.fstat(fd)
        # The type matters most: an inode freed by the swap can be reused at once by the FIFO.
        same = (after.st_dev, after.st_ino) == (before.st_dev, before.st_ino)
        if not (same and stat.S_ISREG(after.st_mode)):
            os.close(fd)
            refused = _file_type_error(after.st_mode)
            return PathError(
                "changed-while-opening",
                "was replaced between its check and its opening"
                + (f" (now: {refused.message})" if refused else ""),
            )
        os.set_blocking(fd, True)
    except OSError as exc:  # pragma: no cover - fstat on a fresh descriptor
        os.close(fd)
        return _os_error(exc)
    return OpenStore(fd, after.st_size)


def _finish(offset: int, parts: list[bytes], held: int, tail: bytes, ended: bool) -> RawLine:
    """The RawLine for one line of `held` bytes (without LF); `parts` is empty when it was too
    long to keep."""
    cr = tail == b"\r"
    length = held - cr
    if not parts and held:
        return RawLine(offset, b"", ended, length, too_long=True)
    data = b"".join(parts)
    return RawLine(offset, data[:-1] if cr else data, ended, length)


def _check_limit(line: RawLine, limit: int) -> RawLine:
    """A kept line still longer than the limit (by at most the CR allowance) is too long."""
    if line.too_long or line.length <= limit:
        return line
    return RawLine(line.offset, b"", line.terminated, line.length, too_long=True)


def iter_lines(fd: int, size: int, max_line_bytes: int = MAX_LINE_BYTES) -> Iterator[RawLine]:
    """Steps 3-4 of the module docstring: the lines of the first `size` bytes of `fd`."""
    offset = 0  # where the current line starts
    parts: list[bytes] = []  # its bytes so far (empty while skipping a too-long line)
    held = 0  # its length so far
    tail = b""  # its last byte so far (is it a CR?)
    skipping = False
    remaining = size
    while remaining > 0:
        chunk = os.read(fd, min(CHUNK, remaining))
        if not chunk:
            break  # the file shrank while it was read
        remaining -= len(chunk)
        start = 0
        while True:
            end = chunk.find(b"\n", start)
            piece = chunk[start:] if end == -1 else chunk[start:end]
            if piece:
                held += len(piece)
                tail = piece[-1:]
                if not skipping:
                    parts.append(piece)
                    if held > max_line_bytes + 1:  # +1: a CR before the LF is not counted
                        skipping, parts = True, []
            if end == -1:
                break
            yield _check_limit(_finish(offset, parts, held, tail, True), max_line_bytes)
            offset += held + 1
            parts, held, tail, skipping = [], 0, b"", False
            start = end + 1
    if held:
        yield _check_limit(_finish(offset, parts, held, tail, False), max_line_bytes)
