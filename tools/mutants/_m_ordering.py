"""Mutants of the candidate order (SCORING tie-breaking; INT-21, INT-33).

The reference ranks plain tuples ``(-score, ts key, store index, memory_id, record_hash,
offset)`` with ``heapq.nsmallest``; each mutant ranks them with another key.
"""

from __future__ import annotations

import heapq
import types
from collections.abc import Callable, Iterable
from typing import Any

from tools.mutants._patch import replace, wrap
from tools.mutants._registry import mutant

Key = Callable[[tuple[Any, ...]], Any]


def _rank_by(key: Key) -> None:
    from reference import _package

    def nsmallest(n: int, items: Iterable[Any]) -> list[Any]:
        return heapq.nsmallest(n, items, key=key)

    replace(_package, "heapq", types.SimpleNamespace(nsmallest=nsmallest))


@mutant("tiebreak-store-and-memory-id-swapped", clauses=("S6-ORDER-03", "S6-ORDER-04"))
def _() -> None:
    """Ties are broken by memory_id before store_path (keys 3 and 4 swapped)."""
    _rank_by(lambda c: (c[0], c[1], c[3], c[2], c[4], c[5]))


@mutant("missing-ts-first", clauses=("S6-ORDER-02",))
def _() -> None:
    """Among equal scores, candidates without ts_utc come first instead of last."""
    _rank_by(lambda c: (c[0], 0 if c[1] == 1 else 1, c[1], *c[2:]))


@mutant("ts-ascending", clauses=("S6-ORDER-02",))
def _() -> None:
    """Among equal scores, older ts_utc comes first (ascending instead of descending)."""
    _rank_by(lambda c: (c[0], c[1] == 1, -c[1], *c[2:]))


@mutant("record-hash-descending", clauses=("S6-ORDER-05",))
def _() -> None:
    """The last tie-break, record_hash, is descending."""
    _rank_by(lambda c: (*c[:4], tuple(-ord(ch) for ch in c[4]), c[5]))


@mutant("memory-id-utf16-order", clauses=("S6-ORDER-04",), interpretations=("INT-33",))
def _() -> None:
    """memory_id is compared by UTF-16 code units (JavaScript's default), not code points."""
    _rank_by(lambda c: (*c[:3], c[3].encode("utf-16-be", "surrogatepass"), *c[4:]))


@mutant("score-tie-ignores-ts", clauses=("S6-ORDER-02", "S6-ORDER-03"))
def _() -> None:
    """Tie-break key 2 (ts_utc) is skipped: equal scores go straight to store_path."""
    _rank_by(lambda c: (c[0], *c[2:]))


@mutant("ts-compared-as-strings", clauses=("S6-ORDER-02",), interpretations=("INT-21",))
def _() -> None:
    """ts_utc is compared as normalized strings ('...05.5Z' < '...05Z'), not as instants."""
    from reference import _package
    from reference._reader import read_line_at
    from reference._records import parse_record

    def string_key(ts: str) -> int:
        return -int.from_bytes(ts.encode("ascii").ljust(40, b"\0"), "big") - 1

    def make(original: Any) -> Any:
        def read_chunk(chunk: Any, scorer: Any, trust: Any) -> tuple[list[Any], list[Any]]:
            entries, candidates = original(chunk, scorer, trust)
            path = chunk[1]
            rekeyed = {}
            for c in candidates:
                if c[1] != 1:
                    record: Any = parse_record(read_line_at(path, c[5]))
                    rekeyed[id(c)] = (c[0], string_key(record[3][0]), *c[2:])
            return (
                [rekeyed.get(id(e), e) for e in entries],
                [rekeyed.get(id(c), c) for c in candidates],
            )

        return read_chunk

    wrap(_package, "_read_chunk", make)
