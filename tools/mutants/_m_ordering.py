"""Mutants of the candidate order (SCORING tie-breaking; INT-21, INT-33).

The reference orders candidates by exact score, then by one tie key (``_ordering.tie_key``:
the timestamp key of ``_timestamps.sort_key``, the store, the memory_id), then by record_hash;
each mutant changes one of those.
"""

from __future__ import annotations

from tools.mutants._registry import SourcePatch, mutant, patch

_TIE_KEY = "    return item[TS], item[STORE], item[MEMORY_ID]\n"
_TS_KEY = "    return sort_key_missing if ts is None else -ts[1] - 1\n"


@mutant("tiebreak-store-and-memory-id-swapped", clauses=("S6-ORDER-03", "S6-ORDER-04"))
def _() -> SourcePatch:
    """Ties are broken by memory_id before store_path (keys 3 and 4 swapped)."""
    return patch("_ordering.py", _TIE_KEY, "    return item[TS], item[MEMORY_ID], item[STORE]\n")


@mutant("missing-ts-first", clauses=("S6-ORDER-02",))
def _() -> SourcePatch:
    """Among equal scores, candidates without ts_utc come first instead of last."""
    return patch(
        "_timestamps.py", "sort_key_missing: Final = 1", "sort_key_missing: Final = -(10**40)"
    )


@mutant("ts-ascending", clauses=("S6-ORDER-02",))
def _() -> SourcePatch:
    """Among equal scores, older ts_utc comes first (ascending instead of descending)."""
    return patch(
        "_timestamps.py", _TS_KEY, "    return sort_key_missing if ts is None else ts[1] - 2**200\n"
    )


@mutant("record-hash-descending", clauses=("S6-ORDER-05",))
def _() -> SourcePatch:
    """The last tie-break, record_hash, is descending."""
    return patch(
        "_ordering.py",
        "run.sort(key=lambda c: (hash_of(c), c[OFFSET]))",
        "run.sort(key=lambda c: (tuple(-ord(ch) for ch in hash_of(c)), c[OFFSET]))",
    )


@mutant("memory-id-utf16-order", clauses=("S6-ORDER-04",), interpretations=("INT-33",))
def _() -> SourcePatch:
    """memory_id is compared by UTF-16 code units (JavaScript's default), not code points."""
    return patch(
        "_ordering.py",
        _TIE_KEY,
        '    return item[TS], item[STORE], item[MEMORY_ID].encode("utf-16-be", "surrogatepass")\n',
    )


@mutant("score-tie-ignores-ts", clauses=("S6-ORDER-02", "S6-ORDER-03"))
def _() -> SourcePatch:
    """Tie-break key 2 (ts_utc) is skipped: equal scores go straight to store_path."""
    return patch("_ordering.py", _TIE_KEY, "    return item[STORE], item[MEMORY_ID]\n")


@mutant("ts-compared-as-strings", clauses=("S6-ORDER-02",), interpretations=("INT-21",))
def _() -> SourcePatch:
    """ts_utc is compared as normalized strings ('...05.5Z' < '...05Z'), not as instants."""
    return patch(
        "_timestamps.py",
        _TS_KEY,
        "    if ts is None:\n        return sort_key_missing\n"
        '    return -int.from_bytes(ts[0].encode("ascii").ljust(40, b"\\0"), "big") - 1\n',
    )
