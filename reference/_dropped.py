"""Pass 2: the dropped entries of a chunk, in read order (INT-28), in their two JSON forms.

"Every record line appears exactly once: in selected (rank order) or in dropped" (INT-28,
dropped in read order).  Once the selection is known, every record line that was not selected
is read again and given its entry: invalid_record_schema (INT-19: memory_id as far as known,
the raw-line hash), trust_denied (S6-TRUST-08), or the reason selection stopped with
(INT-26/INT-27: budget_exhausted or max_items_reached).  A chunk's entries are serialized
twice: as the package prints them and in RFC 8785 form for package_hash (INT-01, INT-03).
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from typing import Any, Final

import orjson

from reference._reader import Chunk, LineReader, Store, is_blank
from reference._records import Invalid, parse_record
from reference._selection import INVALID_RECORD, TRUST_DENIED
from reference._trust import TrustFilter

__all__ = [
    "SELECTED",
    "AuditChunk",
    "DroppedChunk",
    "Marks",
    "drop_chunk",
    "drop_chunk_audited",
    "render_dropped",
]

#: The assembly record's outcome of a selected line (every other outcome is a drop reason).
SELECTED: Final = "selected"

_SORT: Final = orjson.OPT_SORT_KEYS
_INDENT: Final = orjson.OPT_INDENT_2
#: (printed form, canonical form, CRC-32 of the chunk's bytes); the forms are the entries
#: joined by their separators, without the enclosing brackets (b"" for no entry).
DroppedChunk = tuple[bytes, bytes, int]


def render_dropped(entries: list[dict[str, str]], indent: bytes | None) -> tuple[bytes, bytes]:
    """(printed, canonical) bytes of dropped entries, without the enclosing brackets.

    Printed: the keys in OUTPUT CONTRACT order, as orjson prints the whole result: compact,
    or with OPT_INDENT_2 as list items at depth 4 (`indent` is the indentation beyond the
    list's own two spaces).  Canonical: RFC 8785, sorted ASCII keys (orjson writes strings
    exactly as JCS does).
    """
    if not entries:
        return b"", b""
    canonical = orjson.dumps(entries, option=_SORT)[1:-1]
    if indent is None:
        return orjson.dumps(entries)[1:-1], canonical
    # "[\n  {...},\n  {...}\n]" -> the items, each line re-indented to sit at `indent`.
    body = orjson.dumps(entries, option=_INDENT)[2:-2]
    return indent + body.replace(b"\n", b"\n" + indent), canonical


class Marks:
    """The shortlisted lines of one store that pass 2 treats apart, by byte offset: a selected
    line (None: it has no dropped entry), or a candidate dropped with another reason than the
    one selection stopped with."""

    __slots__ = ("offsets", "reasons")

    def __init__(self, reasons: dict[int, str | None]) -> None:
        self.reasons = reasons
        self.offsets = sorted(reasons)

    def within(self, start: int, end: int) -> bool:
        """True when some marked line starts in [start, end)."""
        index = bisect.bisect_left(self.offsets, start)
        return index < len(self.offsets) and self.offsets[index] < end


_NO_MARKS: Final = Marks({})
_UNMARKED: Final = "unmarked"


def drop_chunk(
    stores: list[Store],
    chunk: Chunk,
    trust: TrustFilter,
    marks: Marks,
    stop_reason: str,
    indent: bytes | None,
) -> DroppedChunk:
    """The dropped entries of one chunk: every record line but the selected ones.

    Entries are serialized a read block at a time (small lists stay in the CPU caches).
    """
    store = stores[chunk.position]
    path = store.path
    reader = LineReader(store, chunk, hash_overlong=True)
    printed: list[bytes] = []
    canonical: list[bytes] = []
    filtering = trust.active
    for first, end, lines, overlong in reader.batches():
        entries: list[dict[str, str]] = []
        append = entries.append
        # Offsets are tracked line by line only where a marked line may be.
        watch = marks.within(first, end)
        offset = first
        mark: str | None = _UNMARKED
        for line in lines:
            if watch:
                mark = marks.reasons.get(offset, _UNMARKED)
                offset += len(line) + 1
                if mark is None:  # selected: not dropped
                    continue
            if line[:1] != b"{" and is_blank(line):
                continue  # INT-14: not a record
            record = parse_record(line, store_path=path)
            if isinstance(record, Invalid):
                # S6-REC-11: "counted as dropped with reason: invalid_record_schema" (INT-19)
                append({"memory_id": record[0], "record_hash": record[1], "store_path": path,
                        "reason": INVALID_RECORD})  # fmt: skip
                continue
            memory_id, record_hash = record[0], record[4]
            if filtering and trust.denies(memory_id, record_hash, record[2]):
                reason = TRUST_DENIED
            else:  # INT-26/INT-27: the reason selection stopped with
                reason = stop_reason if mark is _UNMARKED or mark is None else mark
            append({"memory_id": memory_id, "record_hash": record_hash, "store_path": path,
                    "reason": reason})  # fmt: skip
        if overlong is not None:  # INT-18: too long to be a record, hashed as it streamed
            append({"memory_id": "", "record_hash": overlong.raw_hash or "", "store_path": path,
                    "reason": INVALID_RECORD})  # fmt: skip
        if entries:
            shown, hashed = render_dropped(entries, indent)
            printed.append(shown)
            canonical.append(hashed)
    separator = b"," if indent is None else b",\n"
    return separator.join(printed), b",".join(canonical), reader.crc


@dataclass(frozen=True, slots=True)
class AuditChunk:
    """What pass 2 needs to write a chunk's part of the assembly record (`_audit`)."""

    first_line: int  # the 1-based number of the chunk's first line (INT-53)
    wanted: frozenset[int]  # offsets of ranked lines whose line numbers the record needs


def drop_chunk_audited(
    stores: list[Store],
    chunk: Chunk,
    trust: TrustFilter,
    marks: Marks,
    stop_reason: str,
    indent: bytes | None,
    audit: AuditChunk,
) -> tuple[bytes, bytes, int, bytes, dict[int, int]]:
    """`drop_chunk`, plus the chunk's candidate entries of the assembly record (identifiers
    only: store, line, memory_id, record_hash, outcome; INT-53) and the line numbers of the
    `wanted` offsets.  The dropped entries are the ones `drop_chunk` gives, byte for byte."""
    store = stores[chunk.position]
    path = store.path
    position = chunk.position
    reader = LineReader(store, chunk, hash_overlong=True)
    printed: list[bytes] = []
    canonical: list[bytes] = []
    audited: list[bytes] = []
    found: dict[int, int] = {}
    filtering = trust.active
    wanted = audit.wanted
    number = audit.first_line
    for first, _, lines, overlong in reader.batches():
        entries: list[dict[str, str]] = []
        rows: list[dict[str, Any]] = []
        offset = first
        if not lines:  # an overlong line: one line, a record only when not blank
            if overlong is not None:  # INT-18
                entry = {"memory_id": "", "record_hash": overlong.raw_hash or "",
                         "store_path": path, "reason": INVALID_RECORD}  # fmt: skip
                entries.append(entry)
                rows.append({"store": position, "line": number, "memory_id": "",
                             "record_hash": entry["record_hash"],
                             "outcome": INVALID_RECORD})  # fmt: skip
            number += 1
        for line in lines:
            start = offset
            offset += len(line) + 1
            here = number
            number += 1
            if line[:1] != b"{" and is_blank(line):
                continue  # INT-14: not a record
            mark = marks.reasons.get(start, _UNMARKED)
            if start in wanted:
                found[start] = here
            record = parse_record(line, store_path=path)
            if isinstance(record, Invalid):
                entries.append({"memory_id": record[0], "record_hash": record[1],
                                "store_path": path, "reason": INVALID_RECORD})  # fmt: skip
                rows.append({"store": position, "line": here, "memory_id": record[0],
                             "record_hash": record[1], "outcome": INVALID_RECORD})  # fmt: skip
                continue
            memory_id, record_hash = record[0], record[4]
            if mark is None:  # selected: in the record, not in dropped
                rows.append({"store": position, "line": here, "memory_id": memory_id,
                             "record_hash": record_hash, "outcome": SELECTED})  # fmt: skip
                continue
            if filtering and trust.denies(memory_id, record_hash, record[2]):
                reason = TRUST_DENIED
            else:
                reason = stop_reason if mark is _UNMARKED else mark
            entries.append({"memory_id": memory_id, "record_hash": record_hash,
                            "store_path": path, "reason": reason})  # fmt: skip
            rows.append({"store": position, "line": here, "memory_id": memory_id,
                         "record_hash": record_hash, "outcome": reason})  # fmt: skip
        if entries:
            shown, hashed = render_dropped(entries, indent)
            printed.append(shown)
            canonical.append(hashed)
        if rows:
            audited.append(orjson.dumps(rows)[1:-1])
    separator = b"," if indent is None else b",\n"
    return (separator.join(printed), b",".join(canonical), reader.crc, b",".join(audited),
            found)  # fmt: skip
