"""Forked readers: pass 1 over large stores, run by a few child processes.

S6-READ-01/03: the output never depends on how many processes read the stores.  The chunks
(`_reader.plan_chunks`, line-aligned) are dealt out in a fixed way, chunk i to reader
i mod n; each reader runs pass 1 over its chunks, writing their dropped entries to its own
spool (a temporary file the parent opened before forking), sends back its shortlist and the
index of what it wrote, and exits.  The parent merges the shortlists, selects, and runs pass 2
itself, reading every chunk's entries from the spools in read order, so nothing depends on
scheduling.

Readers are forked: they inherit the request, the scorer, the stores' and the spools' open
descriptors, so nothing is pickled but results.  A reader writes nothing but its spool and
its pipe, and leaves with os._exit.
"""

from __future__ import annotations

import contextlib
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

_HEADER: Final = struct.Struct("<BQ")  # kind, payload length
_RESULT, _ERROR, _CRASH = range(3)


class ReaderFailed(RuntimeError):
    """A reader process crashed or died (an internal failure, not a SPEC-006 error)."""


def _write(fd: int, data: bytes) -> None:
    view = memoryview(data)
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


def _send(fd: int, kind: int, payload: bytes) -> None:
    _write(fd, _HEADER.pack(kind, len(payload)) + payload)


def _receive(fd: int) -> tuple[int, bytearray]:
    kind, size = _HEADER.unpack(_read_exact(fd, _HEADER.size))
    return kind, _read_exact(fd, size)


#: pass 1 over a reader's chunks: (reader number, chunk indices) -> its result (picklable)
Pass1 = Callable[[int, list[int]], Any]


@dataclass(frozen=True, slots=True)
class _Reader:
    pid: int
    results: int  # reader -> parent


def _serve(number: int, mine: list[int], pass1: Pass1, results: int) -> None:
    """The reader process's whole life."""
    try:
        _send(results, _RESULT, pickle.dumps(pass1(number, mine), pickle.HIGHEST_PROTOCOL))
    except MemoryReadError as error:
        _send(results, _ERROR, pickle.dumps((error.code, error.path, error.message)))
    except BaseException:
        _send(results, _CRASH, traceback.format_exc().encode("utf-8", "replace"))


class Readers:
    """`count` forked readers over `chunks` chunks (use as a context manager)."""

    def __init__(self, count: int, chunks: int, pass1: Pass1) -> None:
        self.chunks = chunks
        self.finished = False
        self.readers: list[_Reader] = []
        try:
            for index in range(count):
                self.readers.append(self._fork(index, list(range(index, chunks, count)), pass1))
        except BaseException:
            self.close()
            raise

    def _fork(self, number: int, mine: list[int], pass1: Pass1) -> _Reader:
        result_read, result_write = os.pipe()
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the reader process (its coverage is not collected)
            status = 0
            try:
                os.close(result_read)
                for reader in self.readers:  # its siblings' pipes are not its business
                    os.close(reader.results)
                signal.signal(signal.SIGINT, signal.SIG_DFL)
                _serve(number, mine, pass1, result_write)
            except BaseException:
                status = 1
            finally:
                os._exit(status)
        os.close(result_write)
        return _Reader(pid, result_read)

    def __enter__(self) -> Readers:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _answer(self, reader: _Reader) -> bytearray:
        kind, first = _receive(reader.results)
        if kind == _ERROR:
            code, path, message = pickle.loads(first)
            raise StoreError(code, path, message)
        if kind == _CRASH:
            raise ReaderFailed(f"a reader process failed:\n{first.decode('utf-8', 'replace')}")
        return first

    def results(self) -> Iterator[Any]:
        """Each reader's pass-1 result, in reader order."""
        for reader in self.readers:
            yield pickle.loads(self._answer(reader))
        self.finished = True

    def close(self) -> None:
        """Stop every reader (killing those still running) and reap them."""
        for reader in self.readers:
            with contextlib.suppress(OSError):
                os.close(reader.results)
        for reader in self.readers:
            if not self.finished:  # interrupted: readers may be mid-chunk, stop them now
                with contextlib.suppress(ProcessLookupError):
                    os.kill(reader.pid, signal.SIGKILL)
            with contextlib.suppress(ChildProcessError):
                os.waitpid(reader.pid, 0)
        self.readers = []
