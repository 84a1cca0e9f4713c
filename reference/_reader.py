"""Store access and line streaming (READER CONTRACT, INT-12..INT-14).

S6-READ-02: "Read strategy: streaming line-by-line, no buffering dependent on OS
non-determinism".  Stores are opened read-only ("rb"), never written (S6-SEC-03), and iterated
line by line; the line boundaries depend only on the bytes.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from typing import Final

from reference._errors import StoreError, render_value

__all__ = ["Chunk", "check_stores", "iter_lines", "plan_chunks", "read_line_at"]

_BUFFER: Final = 1 << 20
_BLANK: Final = b" \t\r\n"


def check_stores(stores: list[tuple[str, int]]) -> None:
    """Fail before reading anything if a store is missing or unreadable (INT-13).

    S6-ERR-05/06: "Phase 6 default: treat missing store as error (fail), not partial success".
    Checked in normalized sorted order; the first failure wins.
    """
    for path, index in stores:
        where = f"/store_paths/{index}"
        try:
            info = os.stat(path)
        except (FileNotFoundError, NotADirectoryError, ValueError):  # ValueError: NUL byte
            raise StoreError(
                "store_not_found", where, f"{where}: store {render_value(path)} does not exist"
            ) from None
        except OSError as exc:
            raise StoreError(
                "store_not_readable", where, f"{where}: store {render_value(path)}: {exc.strerror}"
            ) from None
        if not stat.S_ISREG(info.st_mode):
            raise StoreError(
                "store_not_readable",
                where,
                f"{where}: store {render_value(path)} is not a regular file",
            )
        if not os.access(path, os.R_OK):
            raise StoreError(
                "store_not_readable", where, f"{where}: store {render_value(path)} cannot be read"
            )


#: (store index, path, first byte, end byte): a run of whole lines of one store.
Chunk = tuple[int, str, int, int | None]


def plan_chunks(stores: list[str], chunk_bytes: int) -> list[Chunk]:
    """Cut stores into runs of whole lines of about `chunk_bytes`, in read order.

    Boundaries depend only on the files' bytes: each cut moves forward to the start of the
    next line, so every line belongs to exactly one chunk (the one it starts in).
    """
    chunks: list[Chunk] = []
    for index, path in enumerate(stores):
        size = os.stat(path).st_size
        start = 0
        with open(path, "rb") as handle:
            while start < size:
                end = start + chunk_bytes
                if end < size:
                    handle.seek(end - 1)
                    handle.readline()  # finish the line that contains byte end - 1
                    end = handle.tell()
                end = min(end, size)
                chunks.append((index, path, start, end))
                start = end
        if size == 0:
            chunks.append((index, path, 0, 0))
    return chunks


def iter_lines(
    path: str, index: int, start: int = 0, end: int | None = None
) -> Iterator[tuple[int, bytes]]:
    """Yield (byte offset, line) for every record line of a store (or of a chunk of it).

    INT-14: lines end at LF (the yielded line keeps its LF / CRLF terminator); empty and
    whitespace-only lines are skipped; a last line without LF counts.
    """
    offset = start
    try:
        with open(path, "rb", buffering=_BUFFER) as handle:
            if start:
                handle.seek(start)
            for line in handle:
                if end is not None and offset >= end:
                    break
                line_start = offset
                offset += len(line)
                # A record line starts with "{" (possibly after JSON whitespace); only lines
                # that do not are checked for blankness.  The terminator stays on the line:
                # it is JSON whitespace, and parse_record removes it where bytes matter.
                if line[:1] != b"{" and not line.strip(_BLANK):
                    continue
                yield line_start, line
    except OSError as exc:
        where = f"/store_paths/{index}"
        raise StoreError(
            "store_not_readable", where, f"{where}: store {render_value(path)}: {exc.strerror}"
        ) from None


def read_line_at(path: str, offset: int) -> bytes:
    """Re-read one line (without its terminator) at a byte offset found by `iter_lines`."""
    with open(path, "rb") as handle:
        handle.seek(offset)
        line = handle.readline()
    if line[-1:] == b"\n":
        line = line[:-1]
    if line[-1:] == b"\r":
        line = line[:-1]
    return line
