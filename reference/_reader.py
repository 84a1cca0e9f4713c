"""Store access: one descriptor per store, line-aligned chunks, bounded lines (READER).

S6-READ-02: "Read strategy: streaming line-by-line, no buffering dependent on OS
non-determinism".  Every store of a call is opened once, read-only (S6-SEC-03), and every
byte the call reads from it comes through that one descriptor with ``pread``:

- the stores are checked in normalized sorted order before anything is read (INT-13); a store
  is opened only once ``stat`` says it is a regular file (a directory, FIFO or device is never
  opened), then ``fstat`` of the descriptor must name the same file: a store replaced between
  the check and the open fails the call (store_not_readable);
- the call reads the first ``size`` bytes, ``size`` taken from ``fstat`` at open: a record
  appended during the call is not seen, and a store replaced (``mv``) during the call is read
  whole from the original file, never re-opened by name;
- reads are ``pread`` in blocks of a fixed size, so forked readers share the descriptor without
  sharing a file position, and line boundaries depend only on the bytes;
- pass 1 reads every line once; only the selected lines are read again, and must hash as they
  did (`_package`); when a chunk is read twice (the assembly record's hashing read beside
  forked readers), both reads checksum it (CRC-32) and must agree: a store whose bytes change
  in place between two reads fails the call (store_not_readable), never a package that mixes
  two versions;
- INT-18: a line longer than MAX_LINE_BYTES is never held in memory: it is hashed as it
  streams past and reported as invalid.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
import tempfile
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Final, Protocol

from reference._errors import StoreError, render_value

__all__ = [
    "BLOCK_BYTES",
    "LINE_BREAKS",
    "LINE_LIMITS",
    "MAX_LINE_BYTES",
    "STORE_CHECKS",
    "Batch",
    "Chunk",
    "Digest",
    "LineLimit",
    "LineReader",
    "Overlong",
    "Store",
    "close_stores",
    "deduplicated",
    "is_blank",
    "open_stores",
    "plan_chunks",
    "read_line",
    "store_changed",
    "whole_stores",
]

#: INT-18: a line (without its LF / CRLF terminator) longer than this is invalid_record_schema.
MAX_LINE_BYTES: Final = 1 << 20
#: Bytes per pread: the read buffer, fixed, so nothing depends on what the OS returns.
BLOCK_BYTES: Final = 256 << 10
_SCAN_BYTES: Final = 64 << 10
_BLANK: Final = b" \t\r"
_CR_ALONE: Final = re.compile(rb"\r(?!\n)")
_OPEN_FLAGS: Final = os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | getattr(os, "O_CLOEXEC", 0)


@dataclass(frozen=True, slots=True)
class Store:
    """One store of a call: its normalized path, its open descriptor and the bytes to read."""

    path: str  # the normalized path (INT-12), as packages and receipts show it
    index: int  # the first request entry naming it: errors point at /store_paths/<index>
    fd: int
    size: int

    @property
    def where(self) -> str:
        """The JSON Pointer of the request entry naming this store."""
        return f"/store_paths/{self.index}"


@dataclass(frozen=True, slots=True)
class Chunk:
    """A run of whole lines of one store: bytes [start, end) of ``stores[position]``."""

    position: int  # index in the normalized sorted store list
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Overlong:
    """A non-blank line longer than MAX_LINE_BYTES (INT-18): its raw hash, when asked for."""

    raw_hash: str | None


#: (offset of the first line, offset after the last one, whole lines without their LF, or an
#: overlong line instead)
Batch = tuple[int, int, list[bytes], Overlong | None]


class Digest(Protocol):
    """A running hash (hashlib's SHA-256)."""

    def update(self, data: bytes, /) -> None:
        """Feed bytes."""


def _not_readable(where: str, path: str, why: str) -> StoreError:
    return StoreError("store_not_readable", where, f"{where}: store {render_value(path)}{why}")


def store_changed(store: Store) -> StoreError:
    """The error for a store whose bytes changed while the call was reading them."""
    return _not_readable(store.where, store.path, " changed while being read")


def _open(path: str, index: int) -> Store:
    where = f"/store_paths/{index}"
    try:
        info = os.stat(path)
    except (FileNotFoundError, NotADirectoryError, ValueError):  # ValueError: NUL byte
        raise StoreError(
            "store_not_found", where, f"{where}: store {render_value(path)} does not exist"
        ) from None
    except OSError as exc:
        raise _not_readable(where, path, f": {exc.strerror}") from None
    if not stat.S_ISREG(info.st_mode):  # directories, FIFOs, devices are never opened
        raise _not_readable(where, path, " is not a regular file")
    if not os.access(path, os.R_OK):
        raise _not_readable(where, path, " cannot be read")
    try:
        fd = os.open(path, _OPEN_FLAGS)  # read-only (S6-SEC-03); O_NONBLOCK: a FIFO swapped in
    except OSError as exc:  # after the stat cannot block the open
        raise _not_readable(where, path, f": {exc.strerror}") from None
    opened = os.fstat(fd)
    if not stat.S_ISREG(opened.st_mode) or (opened.st_dev, opened.st_ino) != (
        info.st_dev,
        info.st_ino,
    ):
        os.close(fd)
        raise _not_readable(where, path, " was replaced while being opened")
    return Store(path, index, fd, opened.st_size)


def open_stores(stores: list[tuple[str, int]]) -> list[Store]:
    """Check and open every store, in normalized sorted order; the first failure wins (INT-13).

    S6-ERR-05/06: "Phase 6 default: treat missing store as error (fail), not partial success".
    The caller closes the stores with `close_stores`; on failure they are already closed.
    """
    opened: list[Store] = []
    try:
        for path, index in stores:
            opened.append(_open(path, index))
    except BaseException:
        close_stores(opened)
        raise
    return opened


def _open_existing(stores: list[tuple[str, int]]) -> list[Store]:
    """INT-13/skip-missing-stores-partial: a store with nothing there is left out (a partial
    package from the others); every other failure still fails the call."""
    opened: list[Store] = []
    try:
        for path, index in stores:
            try:
                opened.append(_open(path, index))
            except StoreError as error:
                if error.code != "store_not_found":
                    raise
    except BaseException:
        close_stores(opened)
        raise
    return opened


def _open_in_request_order(stores: list[tuple[str, int]]) -> list[Store]:
    """INT-13/check-request-order: the stores are checked in the order the request names them
    (the first failure in request order wins), then read in normalized sorted order."""
    order = sorted(range(len(stores)), key=lambda position: stores[position][1])
    opened = open_stores([stores[position] for position in order])
    by_position = dict(zip(order, opened, strict=True))
    return [by_position[position] for position in range(len(stores))]


#: INT-13: which stores are checked, in which order, and what a missing one does (the pinned
#: reading first; ``_readings.py``).
STORE_CHECKS: Final[dict[str, Callable[[list[tuple[str, int]]], list[Store]]]] = {
    "sorted-fail": open_stores,
    "request-order-fail": _open_in_request_order,
    "sorted-skip-missing": _open_existing,
}


def _read_as_lf(stores: list[Store]) -> list[Store]:
    """Every store as read: only LF ends a line (the pinned reading, INT-14)."""
    return stores


def _cr_ends_lines(stores: list[Store]) -> list[Store]:
    """INT-14/cr-also-ends-line: a CR not followed by LF ends a line too (universal newlines).

    Each store is read whole (the bytes ``fstat`` gave at open) into an anonymous file in
    which every such CR is an LF: one byte for one byte, so offsets, line bytes and raw-line
    hashes are those of the store, and the passes read it as they read any store.
    """
    copies: list[Store] = []
    try:
        for store in stores:
            data = _CR_ALONE.sub(b"\n", _pread(store, store.size, 0))
            fd = os.memfd_create("store", os.MFD_CLOEXEC)
            copies.append(Store(store.path, store.index, fd, store.size))
            written = 0
            while written < len(data):
                written += os.pwrite(fd, data[written:], written)
    except BaseException:
        close_stores(copies)
        raise
    finally:
        close_stores(stores)  # the caller holds the copies only
    return copies


#: INT-14: which bytes end a line (the pinned reading first; ``_readings.py``).
LINE_BREAKS: Final[dict[str, Callable[[list[Store]], list[Store]]]] = {
    "lf": _read_as_lf,
    "lf-cr": _cr_ends_lines,
}


def close_stores(stores: list[Store]) -> None:
    """Close the descriptors `open_stores` opened."""
    for store in stores:
        os.close(store.fd)


def _pread(store: Store, length: int, offset: int) -> bytes:
    """Read exactly `length` bytes at `offset` (fewer means the file shrank: it changed)."""
    try:
        data = os.pread(store.fd, length, offset)
    except OSError as exc:
        raise _not_readable(store.where, store.path, f": {exc.strerror}") from None
    if len(data) != length:
        raise store_changed(store)
    return data


def _next_line_start(store: Store, position: int) -> int:
    """The offset just after the first LF at or after `position` (the store's size if none)."""
    while position < store.size:
        data = _pread(store, min(_SCAN_BYTES, store.size - position), position)
        found = data.find(b"\n")
        if found >= 0:
            return position + found + 1
        position += len(data)
    return store.size


def plan_chunks(stores: list[Store], chunk_bytes: int) -> list[Chunk]:
    """Cut stores into runs of whole lines of about `chunk_bytes`, in read order.

    Boundaries depend only on the files' bytes: each cut moves forward to the start of the
    next line, so every line belongs to exactly one chunk (the one it starts in).  Each byte is
    scanned at most once, however long the lines.
    """
    chunks: list[Chunk] = []
    for position, store in enumerate(stores):
        start = 0
        while start < store.size:
            end = store.size
            if start + chunk_bytes < store.size:
                end = _next_line_start(store, start + chunk_bytes - 1)
            chunks.append(Chunk(position, start, end))
            start = end
    return chunks


def whole_stores(stores: list[Store]) -> list[Chunk]:
    """One chunk per non-empty store: the sequential reader's plan."""
    return [Chunk(position, 0, store.size) for position, store in enumerate(stores) if store.size]


def read_line(store: Store, offset: int, length: int) -> bytes:
    """Re-read one line (without its LF) found by a `LineReader`, through the descriptor."""
    return _pread(store, length, offset)


def is_blank(line: bytes) -> bool:
    """INT-14: a line that is empty or only JSON whitespace (space, tab, CR) is not a record:
    it is skipped silently and appears nowhere in the package."""
    return not line.strip(_BLANK)


def _too_long(line: bytes, limit: int = MAX_LINE_BYTES) -> bool:
    """INT-18: the line without its terminator (LF, and one CR before it) is too long."""
    return len(line) > limit and len(line) - (line[-1:] == b"\r") > limit


#: What a non-blank line past the limit becomes: (lines to read instead, an invalid line).
PastLimit = Callable[[Store, bytes, Overlong], tuple[list[bytes], Overlong | None]]


def _invalid_line(store: Store, head: bytes, overlong: Overlong) -> tuple[list[bytes], Overlong]:
    """INT-18 (pinned): the line is invalid (invalid_record_schema), hashed as it streamed."""
    return [], overlong


def _truncated_line(store: Store, head: bytes, overlong: Overlong) -> tuple[list[bytes], None]:
    """INT-18/line-past-length-limit (an alternative, ``_readings.py``): the line is read as
    its first MAX_LINE_BYTES bytes (``head``); the rest, up to its LF, is skipped."""
    return [head], None


def _failing_line(store: Store, head: bytes, overlong: Overlong) -> tuple[list[bytes], None]:
    """INT-18/overlong-line-fails-call (an alternative, ``_readings.py``): the call fails."""
    raise _not_readable(store.where, store.path, f" has a line longer than {MAX_LINE_BYTES} bytes")


#: INT-18/go-bufio-scanner: Go's bufio.Scanner holds a token of fewer than MaxScanTokenSize
#: (64 KiB) bytes; the bytes before a line's LF (a CR included) count.
GO_SCANNER_TOKEN_BYTES: Final = 64 << 10


def _any_length(stores: list[Store]) -> None:
    """The stores as they are: the limit is the reader's (``max_bytes``), line by line."""


def _failing_scanner_token(stores: list[Store]) -> None:
    """INT-18/go-bufio-scanner (an alternative, ``_readings.py``): the obvious Go reader
    (``for scanner.Scan() {...}; if err := scanner.Err(); err != nil { return err }``) fails
    the call at the first store, in read order, with a line of GO_SCANNER_TOKEN_BYTES or more
    before its LF (a CR counts, a blank line too, and so does a last line without LF):
    ``Scan()`` stops there with ``bufio.ErrTooLong``."""
    for store in stores:
        run = 0  # bytes since the last LF
        for offset in range(0, store.size, BLOCK_BYTES):
            pieces = _pread(store, min(BLOCK_BYTES, store.size - offset), offset).split(b"\n")
            lengths = [run + len(pieces[0]), *map(len, pieces[1:])]
            run = lengths[-1]
            if max(lengths) >= GO_SCANNER_TOKEN_BYTES:
                raise _not_readable(
                    store.where,
                    store.path,
                    f" has a line of {GO_SCANNER_TOKEN_BYTES} bytes or more",
                )


@dataclass(frozen=True, slots=True)
class LineLimit:
    """INT-18: the longest line read as a line (bytes, without its terminator), what a
    longer non-blank line becomes (a blank one is skipped at any length, INT-14), and a check
    of the opened stores before they are read."""

    max_bytes: int = MAX_LINE_BYTES
    past: PastLimit = _invalid_line
    check: Callable[[list[Store]], None] = _any_length


#: INT-18: the line length limit (the pinned reading first; ``_readings.py``).  "none"
#: (INT-18/length-limit-store-without) holds a line whatever its length.
LINE_LIMITS: Final[dict[str, LineLimit]] = {
    "1mib-invalid": LineLimit(),
    "none": LineLimit(1 << 62),
    "1mib-truncate": LineLimit(MAX_LINE_BYTES, _truncated_line),
    "1mib-fail": LineLimit(MAX_LINE_BYTES, _failing_line),
    "go-scanner": LineLimit(1 << 62, _invalid_line, _failing_scanner_token),
}


class _LineHash:
    """SHA-256 of an overlong line's bytes without its terminator (INT-19), fed as it streams.

    A CR is held back until the next byte shows whether it belongs to a CRLF terminator (or
    ends the file, INT-14).  Whether the line is blank (only JSON whitespace) is tracked too.
    """

    __slots__ = ("blank", "cr", "digest")

    def __init__(self, hashing: bool) -> None:
        self.digest = hashlib.sha256() if hashing else None
        self.cr = False
        self.blank = True

    def feed(self, data: bytes) -> None:
        if not data:
            return
        if self.blank and data.strip(_BLANK):
            self.blank = False
        if self.digest is None:
            return
        if self.cr:
            self.digest.update(b"\r")
        self.cr = data[-1:] == b"\r"
        self.digest.update(data[:-1] if self.cr else data)

    def result(self) -> Overlong | None:
        """The overlong line, or None when it is blank (skipped like any blank line, INT-14)."""
        if self.blank:
            return None
        return Overlong(None if self.digest is None else self.digest.hexdigest())


class LineReader:
    """The whole lines of one chunk, read in fixed blocks through the store's descriptor.

    Lines are yielded without their LF (a CR before it stays: it is JSON whitespace, and the
    raw-line hash removes it, INT-19); blank lines are yielded too (the passes skip them,
    INT-14), except overlong ones.  ``crc`` is the CRC-32 of every byte read (with
    `checksum`), for comparing two reads of the chunk.  At most one line of MAX_LINE_BYTES plus
    one block is held.
    """

    __slots__ = ("checksum", "chunk", "crc", "digest", "hash_overlong", "limit", "store")

    def __init__(
        self,
        store: Store,
        chunk: Chunk,
        *,
        hash_overlong: bool,
        digest: Digest | None = None,
        checksum: bool = True,
        limit: LineLimit = LINE_LIMITS["1mib-invalid"],
    ) -> None:
        self.store = store
        self.limit = limit  # INT-18
        self.chunk = chunk
        self.hash_overlong = hash_overlong
        self.checksum = checksum
        self.crc = 0
        self.digest = digest  # fed every byte read, in order (the assembly record's store hash)

    def _blocks(self) -> Iterator[bytes]:
        position, end = self.chunk.start, self.chunk.end
        while position < end:
            data = _pread(self.store, min(BLOCK_BYTES, end - position), position)
            if self.checksum:
                self.crc = zlib.crc32(data, self.crc)
            if self.digest is not None:
                self.digest.update(data)
            position += len(data)
            yield data

    def _whole(self, line: bytes) -> Overlong | None:
        hashed = _LineHash(self.hash_overlong)
        hashed.feed(line)
        hashed.cr = False  # a CR at the end of a terminated line (or of the file) is dropped
        return hashed.result()

    def _past(self, line: bytes, overlong: Overlong | None) -> tuple[list[bytes], Overlong | None]:
        """A line past the limit as INT-18 reads it ([] and None when it is blank)."""
        if overlong is None:
            return [], None
        return self.limit.past(self.store, line[: self.limit.max_bytes], overlong)

    def _stream(self, head: bytes, blocks: Iterator[bytes]) -> tuple[Overlong | None, bytes, int]:
        """Stream an overlong line to its LF: (the line, bytes after the LF, bytes consumed)."""
        hashed = _LineHash(self.hash_overlong)
        hashed.feed(head)
        consumed = len(head)
        for block in blocks:
            found = block.find(b"\n")
            if found < 0:
                hashed.feed(block)
                consumed += len(block)
                continue
            hashed.feed(block[:found])
            hashed.cr = False  # the CR of the CRLF terminator is not part of the line
            return hashed.result(), block[found + 1 :], consumed + found + 1
        hashed.cr = False  # nor is a CR at the very end of the file
        return hashed.result(), b"", consumed

    def batches(self) -> Iterator[Batch]:
        """Yield (first offset, end offset, lines, None), or (..., [], an overlong line), or
        (..., [], None) for a blank overlong line (one line, not a record: INT-14)."""
        limit = self.limit.max_bytes  # INT-18
        offset = self.chunk.start  # where `rest`, the partial line carried over, starts
        rest = b""
        carry = b""  # bytes after an overlong line's LF, split before the next block
        blocks = self._blocks()
        while True:
            if carry:
                block, carry = carry, b""
            else:
                block = next(blocks, b"")
                if not block:
                    break
            start = offset
            size = len(rest) + len(block)
            lines = block.split(b"\n")
            if rest:  # the partial line carried over joins the block's first piece
                lines[0] = rest + lines[0]
            rest = lines.pop()
            if lines and _too_long(lines[0], limit):  # only the first can have begun earlier
                first = lines.pop(0)
                # A blank overlong line comes as ([], None): skipped, but counted as a line.
                yield offset, offset + len(first) + 1, *self._past(first, self._whole(first))
                offset += len(first) + 1
            end = start + size - len(rest)
            if lines:
                yield offset, end, lines, None
            offset = end
            if len(rest) > limit + 1:  # + 1: the CR of a CRLF may still follow
                overlong, carry, consumed = self._stream(rest, blocks)
                yield offset, offset + consumed, *self._past(rest, overlong)
                offset += consumed
                rest = b""
        if rest:  # a last line without LF (INT-14)
            if _too_long(rest, limit):
                yield offset, offset + len(rest), *self._past(rest, self._whole(rest))
            else:
                yield offset, offset + len(rest), [rest], None


def deduplicated(
    stores: list[Store], memory_id: Callable[[bytes], str | None], keep: str
) -> list[Store]:
    """INT-23/keep-first-last-record and INT-23/keep-last-record: the stores with only the
    "first" (or "last") valid record per memory_id, in read order across all of them; the
    other records with that memory_id are not read at all (they appear nowhere).

    `memory_id` gives a line's memory_id when it is a valid record (None otherwise: invalid,
    blank and overlong lines are kept as they are).  Each store becomes an anonymous temporary
    copy of its kept lines under the same path; the originals are closed.  Never used by the
    pinned readings.
    """
    pieces: list[list[tuple[bytes, str | None]]] = []  # per store: (line with its LF, id)
    owner: dict[str, tuple[int, int]] = {}  # memory_id -> (store, line) of the record kept
    for position, store in enumerate(stores):
        data = _pread(store, store.size, 0)
        lines = data.split(b"\n")
        ends = [b"\n"] * (len(lines) - 1) + [b""]
        if lines[-1] == b"":
            lines.pop()
            ends.pop()
        found: list[tuple[bytes, str | None]] = []
        for number, (line, end) in enumerate(zip(lines, ends, strict=True)):
            record_id = None if is_blank(line) or _too_long(line) else memory_id(line)
            found.append((line + end, record_id))
            if record_id is not None and (keep == "last" or record_id not in owner):
                owner[record_id] = (position, number)
        pieces.append(found)
    winners = set(owner.values())
    copies: list[Store] = []
    try:
        for position, store in enumerate(stores):
            body = b"".join(
                line
                for number, (line, record_id) in enumerate(pieces[position])
                if record_id is None or (position, number) in winners
            )
            fd = os.memfd_create("phase6-store") if hasattr(os, "memfd_create") else -1
            if fd < 0:
                fd, name = tempfile.mkstemp(prefix="phase6-store-")
                os.unlink(name)
            written = 0
            while written < len(body):
                written += os.pwrite(fd, body[written:], written)
            copies.append(Store(store.path, store.index, fd, len(body)))
    except BaseException:
        close_stores(copies)
        raise
    close_stores(stores)
    return copies
