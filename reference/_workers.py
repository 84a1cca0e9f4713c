"""Forked readers: the two passes over large stores, run by a few child processes.

S6-READ-01/03: the output never depends on how many processes read the stores.  The chunks
(`_reader.plan_chunks`, line-aligned) are dealt out in a fixed way, chunk i to reader
i mod n; each reader runs pass 1 over its chunks and sends back its shortlist, waits for the
selection, then runs pass 2 over the same chunks and sends each chunk's dropped entries, in
order.  The parent reads chunk i from reader i mod n, so the entries come back in read order
whatever the scheduling, and a reader holds at most one finished chunk (the pipe blocks it).

Readers are forked: they inherit the request, the scorer and the stores' open descriptors, so
nothing is pickled but results, and each pass re-reads the same bytes through the same
descriptor (pread).  A reader writes nothing but its pipe and leaves with os._exit.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import pickle
import signal
import struct
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Final

from reference._errors import MemoryReadError, StoreError

__all__ = ["ReaderFailed", "Readers"]

_HEADER: Final = struct.Struct("<BQQQ")
_RESULT, _CHUNK, _ERROR, _CRASH = range(4)


class ReaderFailed(RuntimeError):
    """A reader process crashed or died (an internal failure, not a SPEC-006 error)."""


def _write(fd: int, *parts: bytes) -> None:
    for part in parts:
        view = memoryview(part)
        while view:
            view = view[os.write(fd, view) :]


def _read_exact(fd: int, size: int) -> bytearray:
    buffer = bytearray(size)
    view = memoryview(buffer)
    got = 0
    while got < size:
        count = os.readv(fd, [view[got:]])
        if count == 0:
            raise ReaderFailed("a reader process ended without answering")
        got += count
    return buffer


#: Linux: a result pipe this large moves a chunk's entries in a few writes, not hundreds.
_PIPE_BYTES: Final = 1 << 20


def _widen(fd: int) -> None:
    """Enlarge a pipe's buffer where the platform allows (a speed-up only; failures ignored)."""
    with contextlib.suppress(AttributeError, OSError):
        fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, _PIPE_BYTES)


def _send(fd: int, kind: int, first: bytes, second: bytes = b"", third: bytes = b"") -> None:
    _write(fd, _HEADER.pack(kind, len(first), len(second), len(third)), first, second, third)


def _receive(fd: int) -> tuple[int, bytearray, bytearray, bytearray]:
    kind, first, second, third = _HEADER.unpack(_read_exact(fd, _HEADER.size))
    return kind, _read_exact(fd, first), _read_exact(fd, second), _read_exact(fd, third)


#: pass 1 over a reader's chunks -> its shortlist (picklable)
Pass1 = Callable[[list[int]], Any]
#: pass 2 over one chunk, given the selection message -> (printed, canonical, audit part)
Pass2 = Callable[[int, Any], tuple[bytes, bytes, bytes]]


@dataclass(frozen=True, slots=True)
class _Reader:
    pid: int
    tasks: int  # parent -> reader
    results: int  # reader -> parent


def _serve(mine: list[int], pass1: Pass1, pass2: Pass2, tasks: int, results: int) -> None:
    """The reader process's whole life."""
    try:
        _send(results, _RESULT, pickle.dumps(pass1(mine), pickle.HIGHEST_PROTOCOL))
        kind, message, _, _ = _receive(tasks)
        if kind == _RESULT:
            selection = pickle.loads(message)
            for chunk in mine:
                _send(results, _CHUNK, *pass2(chunk, selection))
    except MemoryReadError as error:
        _send(results, _ERROR, pickle.dumps((error.code, error.path, error.message)))
    except ReaderFailed:
        pass  # the parent went away
    except BaseException:
        _send(results, _CRASH, traceback.format_exc().encode("utf-8", "replace"))


class Readers:
    """`count` forked readers over `chunks` chunks (use as a context manager)."""

    def __init__(self, count: int, chunks: int, pass1: Pass1, pass2: Pass2) -> None:
        self.chunks = chunks
        self.finished = False
        self.readers: list[_Reader] = []
        try:
            for index in range(count):
                self.readers.append(self._fork(list(range(index, chunks, count)), pass1, pass2))
        except BaseException:
            self.close()
            raise

    def _fork(self, mine: list[int], pass1: Pass1, pass2: Pass2) -> _Reader:
        task_read, task_write = os.pipe()
        result_read, result_write = os.pipe()
        _widen(result_read)
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the reader process (its coverage is not collected)
            status = 0
            try:
                os.close(task_write)
                os.close(result_read)
                for reader in self.readers:  # its siblings' pipes are not its business
                    os.close(reader.tasks)
                    os.close(reader.results)
                signal.signal(signal.SIGINT, signal.SIG_DFL)
                _serve(mine, pass1, pass2, task_read, result_write)
            except BaseException:
                status = 1
            finally:
                os._exit(status)
        os.close(task_read)
        os.close(result_write)
        return _Reader(pid, task_write, result_read)

    def __enter__(self) -> Readers:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _answer(self, reader: _Reader) -> tuple[int, bytearray, bytearray, bytearray]:
        kind, first, second, third = _receive(reader.results)
        if kind == _ERROR:
            code, path, message = pickle.loads(first)
            raise StoreError(code, path, message)
        if kind == _CRASH:
            raise ReaderFailed(f"a reader process failed:\n{first.decode('utf-8', 'replace')}")
        return kind, first, second, third

    def shortlists(self) -> Iterator[Any]:
        """Pass 1: each reader's shortlist."""
        for reader in self.readers:
            _, payload, _, _ = self._answer(reader)
            yield pickle.loads(payload)

    def dropped(self, selection: Any) -> Iterator[tuple[bytearray, bytearray, bytearray]]:
        """Pass 2: send the selection, then yield every chunk's (printed, canonical, audit
        part) in order."""
        message = pickle.dumps(selection, pickle.HIGHEST_PROTOCOL)
        for reader in self.readers:
            _send(reader.tasks, _RESULT, message)
        count = len(self.readers)
        for chunk in range(self.chunks):
            _, printed, canonical, audited = self._answer(self.readers[chunk % count])
            yield printed, canonical, audited
        self.finished = True

    def close(self) -> None:
        """Stop every reader (killing those still running) and reap them."""
        for reader in self.readers:
            for fd in (reader.tasks, reader.results):
                with contextlib.suppress(OSError):
                    os.close(fd)
        for reader in self.readers:
            if not self.finished:  # interrupted: readers may be mid-chunk, stop them now
                with contextlib.suppress(ProcessLookupError):
                    os.kill(reader.pid, signal.SIGKILL)
            with contextlib.suppress(ChildProcessError):
                os.waitpid(reader.pid, 0)
        self.readers = []
