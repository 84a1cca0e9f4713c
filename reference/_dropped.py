"""The dropped entries (INT-28: read order), rendered by pass 1 and finished by pass 2.

"Every record line appears exactly once: in selected (rank order) or in dropped" (INT-28,
dropped in read order).  A line's dropped entry is invalid_record_schema (INT-19: memory_id as
far as known, the raw-line hash), trust_denied (S6-TRUST-08), or the reason selection stopped
with (INT-26/INT-27: budget_exhausted or max_items_reached), which only the end of pass 1
knows.  Each entry is serialized twice: as the package prints it and in RFC 8785 form for
package_hash (INT-01, INT-03).

Pass 1 (`_candidates`) validates and hashes every line once and renders its entry on the spot
into a `Spool` (memory while the input is small, an unnamed temporary file otherwise, so memory
never grows with the stores), giving a line that cannot be selected the reason selection would
stop with among the candidates seen so far: each run of entries records that guess.  Lines
offered to the shortlist are kept apart as `Candidate` parts: only they can be selected, or be
dropped with a reason of their own.  Pass 2 (`finish_chunk`) reads a chunk's parts back in
order, rewrites the runs whose guess was not the final stop reason, and gives the candidates
their entries: it never reads a store again, so every dropped entry comes from the one read
pass 1 made.

With an assembly record (`_audit`), every record line also gets its candidate row (store, line
number, memory_id, record_hash, outcome; INT-53), rendered the same way.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import tempfile
from dataclasses import dataclass
from typing import Any, Final

import orjson

from reference._canonical import lone_escaped

__all__ = [
    "SELECTED",
    "Candidate",
    "ChunkParts",
    "DroppedChunk",
    "Layout",
    "Marks",
    "Part",
    "Spool",
    "finish_chunk",
    "render_dropped",
]

#: The assembly record's outcome of a selected line (every other outcome is a drop reason).
SELECTED: Final = "selected"

_SORT: Final = orjson.OPT_SORT_KEYS
_INDENT: Final = orjson.OPT_INDENT_2
#: Spools of at most this many bytes stay in memory; larger ones go to a temporary file.
_MEMORY_SPOOL_BYTES: Final = 16 << 20
#: (printed form, canonical form, assembly-record rows); each form is its entries joined by
#: their separators, without the enclosing brackets (b"" for none).
DroppedChunk = tuple[bytes, bytes, bytes]


def render_dropped(entries: list[dict[str, str]], indent: bytes | None) -> tuple[bytes, bytes]:
    """(printed, canonical) bytes of dropped entries, without the enclosing brackets.

    Printed: the keys in OUTPUT CONTRACT order, as orjson prints the whole result: compact,
    or with OPT_INDENT_2 as list items at depth 4 (`indent` is the indentation beyond the
    list's own two spaces).  Canonical: RFC 8785, sorted ASCII keys (orjson writes strings
    exactly as JCS does).
    """
    if not entries:
        return b"", b""
    try:
        canonical = orjson.dumps(entries, option=_SORT)[1:-1]
    except orjson.JSONEncodeError:  # a lone surrogate (INT-15/javascript-keep-lone-surrogates)
        return _lone_rendered(entries, indent)
    if indent is None:
        return orjson.dumps(entries)[1:-1], canonical
    # "[\n  {...},\n  {...}\n]" -> the items, each line re-indented to sit at `indent`.
    body = orjson.dumps(entries, option=_INDENT)[2:-2]
    return indent + body.replace(b"\n", b"\n" + indent), canonical


def _lone_rendered(entries: list[dict[str, str]], indent: bytes | None) -> tuple[bytes, bytes]:
    """`render_dropped` of entries holding a lone surrogate, which orjson cannot write (only
    INT-15/javascript-keep-lone-surrogates lets one through): printed with \\uXXXX escapes
    (ASCII JSON), canonical as JSON.stringify writes it (``_canonical.lone_escaped``)."""
    canonical = b",".join(lone_escaped(entry) for entry in entries)
    if indent is None:
        return json.dumps(entries, separators=(",", ":")).encode("ascii")[1:-1], canonical
    body = json.dumps(entries, indent=2).encode("ascii")[2:-2]
    return indent + body.replace(b"\n", b"\n" + indent), canonical


#: The shortlisted lines of one store that pass 2 treats apart, by byte offset: a selected
#: line (None: it has no dropped entry), or a candidate dropped with another reason than the
#: one selection stopped with.
Marks = dict[int, str | None]


_UNMARKED: Final = "unmarked"


@dataclass(frozen=True, slots=True)
class Candidate:
    """A line pass 1 offered to the shortlist: its entry waits for the selection."""

    offset: int
    memory_id: str
    record_hash: str
    line: int  # its 1-based line number (INT-53), 0 without an assembly record


#: A run of rendered entries (where it starts in the spool, its three forms' lengths, and the
#: stop reason its entries were given), or a candidate.
Part = tuple[int, int, int, int, str] | Candidate


class Spool:
    """Where pass 1 writes rendered entries (appending) and pass 2 reads them back (at the
    offsets pass 1 noted): memory for small inputs, else a private, unnamed temporary file,
    never a store.  Forked readers each write their own spool, opened by the parent before
    it forks, which reads them all in pass 2."""

    __slots__ = ("file", "size")

    def __init__(self, input_bytes: int, *, shared: bool = False) -> None:
        # Rendered entries take about as many bytes as the lines they come from.
        self.file: Any = io.BytesIO()
        self.size = 0
        if shared or input_bytes > _MEMORY_SPOOL_BYTES:
            with contextlib.suppress(OSError):  # where no file can be created: memory
                self.file = tempfile.TemporaryFile()  # noqa: SIM115 - closed by `close`

    @property
    def shareable(self) -> bool:
        """Whether a forked process can write it for this one to read (a file)."""
        return not isinstance(self.file, io.BytesIO)

    def write(self, data: bytes) -> int:
        """Append bytes; where they start."""
        start = self.size
        self.file.write(data)
        self.size += len(data)
        return start

    def flush(self) -> None:
        """Hand buffered writes to the file (before the process that wrote them exits)."""
        self.file.flush()

    def read(self, offset: int, size: int) -> bytes:
        """`size` bytes from `offset`."""
        if not size:
            return b""
        if isinstance(self.file, io.BytesIO):
            return self.file.getbuffer()[offset : offset + size].tobytes()
        self.file.flush()
        data = os.pread(self.file.fileno(), size, offset)
        if len(data) != size:
            raise OSError(f"spool ended after {offset + len(data)} bytes")
        return data

    def close(self) -> None:
        """Free the memory or delete the file."""
        self.file.close()


class ChunkParts:
    """Pass 1's record of one chunk: its rendered runs and candidates, in read order."""

    __slots__ = ("audit", "entries", "indent", "parts", "path", "position", "rows", "spool",
                 "stop")  # fmt: skip

    def __init__(
        self, spool: Spool, path: str, position: int, indent: bytes | None, audit: bool
    ) -> None:
        self.spool = spool
        self.path = path
        self.position = position
        self.indent = indent
        self.audit = audit
        self.parts: list[Part] = []
        self.entries: list[dict[str, str]] = []  # the current run, not rendered yet
        self.rows: list[dict[str, Any]] = []
        self.stop = ""  # the stop reason the current run's entries are given

    def flush(self) -> None:
        """Render the current run into the spool."""
        if not self.entries and not self.rows:
            return
        printed, canonical = render_dropped(self.entries, self.indent)
        rows = orjson.dumps(self.rows)[1:-1] if self.rows else b""
        start = self.spool.write(printed + canonical + rows)
        self.parts.append((start, len(printed), len(canonical), len(rows), self.stop))
        self.entries = []
        self.rows = []

    def candidate(self, offset: int, memory_id: str, record_hash: str, line: int) -> None:
        """A line offered to the shortlist."""
        self.flush()
        self.parts.append(Candidate(offset, memory_id, record_hash, line))


def _member(key: str, reason: str, pretty: bool) -> bytes:
    """A rendered reason member: the key (with the separator its form uses) and the reason."""
    return orjson.dumps(key) + (b": " if pretty else b":") + orjson.dumps(reason)


class _Corrections:
    """Rewrites runs rendered with a stop reason other than the final one.  The rendered member
    (key included) occurs nowhere else in a run: a string's quotes are always escaped, and a
    run's other entries have fixed reasons (invalid_record_schema, trust_denied)."""

    __slots__ = ("final", "indent", "memo")

    def __init__(self, final: str, indent: bytes | None) -> None:
        self.final = final
        self.indent = indent
        self.memo: dict[str, tuple[tuple[bytes, bytes], ...]] = {}

    def pairs(self, guess: str) -> tuple[tuple[bytes, bytes], ...]:
        """(wrong, right) members of the printed, canonical and row forms."""
        if guess not in self.memo:
            pretty = self.indent is not None
            self.memo[guess] = tuple(
                (_member(key, guess, form_pretty), _member(key, self.final, form_pretty))
                for key, form_pretty in (("reason", pretty), ("reason", False), ("outcome", False))
            )
        return self.memo[guess]


@dataclass(frozen=True, slots=True)
class Layout:
    """How a chunk's entries and rows are written: its store, the indentation, the record."""

    path: str
    position: int
    indent: bytes | None
    audit: bool


def finish_chunk(
    spool: Spool,
    parts: list[Part],
    layout: Layout,
    marks: Marks,
    stop_reason: str,
    found: dict[int, int] | None = None,
) -> DroppedChunk:
    """Pass 2 for one chunk: its dropped entries (and rows) with the stop reason written in.

    A selected candidate has no dropped entry (its row says "selected"); a candidate the
    selection gave another reason is dropped with it; every other line with the stop reason
    (INT-26, INT-27).  `found`, when given, receives each candidate's line number by offset.
    """
    indent, path, position, audit = layout.indent, layout.path, layout.position, layout.audit
    corrections = _Corrections(stop_reason, indent)
    printed: list[bytes] = []
    canonical: list[bytes] = []
    rows: list[bytes] = []
    waiting: list[dict[str, str]] = []  # candidates' entries, rendered together
    waiting_rows: list[dict[str, Any]] = []

    def render_waiting() -> None:
        if waiting:
            shown, hashed = render_dropped(waiting, indent)
            printed.append(shown)
            canonical.append(hashed)
            waiting.clear()
        if waiting_rows:
            rows.append(orjson.dumps(waiting_rows)[1:-1])
            waiting_rows.clear()

    for part in parts:
        if isinstance(part, Candidate):
            mark = marks.get(part.offset, _UNMARKED)
            if found is not None:
                found[part.offset] = part.line
            # A selected line is in the record, not in dropped.
            reason = SELECTED if mark is None else stop_reason if mark is _UNMARKED else mark
            if mark is not None:
                waiting.append({"memory_id": part.memory_id, "record_hash": part.record_hash,
                                "store_path": path, "reason": reason})  # fmt: skip
            if audit:
                waiting_rows.append({"store": position, "line": part.line,
                                     "memory_id": part.memory_id,
                                     "record_hash": part.record_hash,
                                     "outcome": reason})  # fmt: skip
            continue
        render_waiting()
        start, printed_size, canonical_size, rows_size, guess = part
        data = spool.read(start, printed_size + canonical_size + rows_size)
        middle = printed_size + canonical_size
        forms = [data[:printed_size], data[printed_size:middle], data[middle:]]
        if guess != stop_reason:  # INT-26/INT-27: the reason selection finally stopped with
            for index, (wrong, right) in enumerate(corrections.pairs(guess)):
                forms[index] = forms[index].replace(wrong, right)
        if forms[0]:
            printed.append(forms[0])
            canonical.append(forms[1])
        if forms[2]:
            rows.append(forms[2])
    render_waiting()
    separator = b"," if indent is None else b",\n"
    return separator.join(printed), b",".join(canonical), b",".join(rows)
