"""Candidate ranking, selection under budget, and the ContextPackage with its hash.

Data flows one way: lines -> records -> trust filter -> scores -> ranking -> selection ->
package.  Every record line ends up exactly once in `selected` (rank order) or in `dropped`
(read order, INT-28).
"""

from __future__ import annotations

import gc
import hashlib
import heapq
import math
import multiprocessing
import os
from dataclasses import dataclass
from typing import Any, Final

import orjson

from reference._canonical import jcs_number
from reference._excerpt import excerpt_of
from reference._reader import Chunk, iter_lines, plan_chunks, read_line_at
from reference._records import Invalid, parse_record
from reference._scoring import Scorer
from reference._timestamps import sort_key_missing
from reference._trust import TrustFilter

__all__ = ["CONTROLLER_VERSION", "REASONS", "Budget", "assemble", "canonical_package_bytes"]

#: S6-VER-01: "controller_version MUST be "phase6-v1" until Phase 6 closes."
CONTROLLER_VERSION: Final = "phase6-v1"

#: The closed set of drop reasons (INT-27): spec-given, then the kit's max_items_reached.
INVALID_RECORD: Final = "invalid_record_schema"  # S6-REC-11
TRUST_DENIED: Final = "trust_denied"  # S6-TRUST-08
BUDGET_EXHAUSTED: Final = "budget_exhausted"  # S6-TRUNC-12
MAX_ITEMS_REACHED: Final = "max_items_reached"  # INT-27
REASONS: Final = (INVALID_RECORD, TRUST_DENIED, BUDGET_EXHAUSTED, MAX_ITEMS_REACHED)

_SORT: Final = orjson.OPT_SORT_KEYS
_CHUNK: Final = 65_536
try:  # fork keeps workers cheap (no re-import); where it is missing, read in one process
    _FORK: multiprocessing.context.BaseContext | None = multiprocessing.get_context("fork")
except ValueError:  # pragma: no cover - platforms without fork
    _FORK = None


@dataclass(frozen=True, slots=True)
class Budget:
    """The budget a package is assembled under (S6-TRUNC-04 already applied)."""

    max_excerpt_tokens: int
    per_item_max_excerpt_tokens: int
    max_items: int


# A ranked candidate is a plain tuple whose natural order IS the tie-break order
# (S6-ORDER-01..05, INT-33): (-score, ts key, store index, memory_id, record_hash, offset).
# Stores are read in sorted path order, so store index order == store_path order; the byte
# offset of the line in its store makes the order total (byte-identical records keep read
# order) and locates the line again for its excerpt.
Ranked = tuple[float, int, int, str, str, int]
Entry = tuple[Any, ...]  # a Ranked candidate, or (memory_id, record_hash, store index, reason)

#: Inputs larger than this are read by several processes (see `_read`).  Kept above the
#: streaming probe's 32 MiB store: that probe samples memory after each request, so it
#: cannot see short-lived workers, and the reference is probed on its sequential path.
PARALLEL_MIN_BYTES: Final = 48 << 20
_CHUNK_BYTES: Final = 8 << 20


def _read_chunk(
    chunk: Chunk, scorer: Scorer, trust: TrustFilter
) -> tuple[list[Entry], list[Ranked]]:
    """Parse, validate, filter and score the lines of one chunk, in read order."""
    store_index, path, start, end = chunk
    entries: list[Entry] = []
    candidates: list[Ranked] = []
    filtering = trust.active
    score = scorer.score
    for offset, raw in iter_lines(path, store_index, start, end):
        record = parse_record(raw)
        if isinstance(record, Invalid):
            entries.append((record[0], record[1], store_index, INVALID_RECORD))
            continue
        memory_id, text, tags, ts, record_hash = record
        if filtering and trust.denies(memory_id, record_hash):
            entries.append((memory_id, record_hash, store_index, TRUST_DENIED))
            continue
        ranked: Ranked = (
            -score(text, tags, ts),
            sort_key_missing if ts is None else -ts[1] - 1,  # = _timestamps.sort_key
            store_index,
            memory_id,
            record_hash,
            offset,
        )
        candidates.append(ranked)
        entries.append(ranked)
    return entries, candidates


def _read(
    stores: list[str], scorer: Scorer, trust: TrustFilter
) -> tuple[list[Entry], list[Ranked]]:
    """Read every store once; return the read-order entries and the candidates.

    Large inputs are cut into line-aligned chunks read by forked worker processes; results
    are concatenated in chunk order, so the output is the same whatever the number of
    processes or their scheduling (S6-READ-01/03).  Small inputs never start a process.
    """
    total = sum(os.stat(path).st_size for path in stores)
    workers = min(os.cpu_count() or 1, 4)
    if total < PARALLEL_MIN_BYTES or workers < 2 or _FORK is None:
        return _read_sequential(stores, scorer, trust)
    chunks = plan_chunks(stores, _CHUNK_BYTES)
    with _FORK.Pool(workers) as pool:
        results = pool.starmap(_read_chunk, [(chunk, scorer, trust) for chunk in chunks], 1)
    entries: list[Entry] = []
    candidates: list[Ranked] = []
    for chunk_entries, chunk_candidates in results:
        entries.extend(chunk_entries)
        candidates.extend(chunk_candidates)
    return entries, candidates


def _read_sequential(
    stores: list[str], scorer: Scorer, trust: TrustFilter
) -> tuple[list[Entry], list[Ranked]]:
    entries: list[Entry] = []
    candidates: list[Ranked] = []
    for index, path in enumerate(stores):
        chunk_entries, chunk_candidates = _read_chunk((index, path, 0, None), scorer, trust)
        entries.extend(chunk_entries)
        candidates.extend(chunk_candidates)
    return entries, candidates


def _rank_exactly(
    stores: list[str],
    candidates: list[Ranked],
    ranked: list[Ranked],
    scorer: Scorer,
    limit: int,
) -> list[Ranked]:
    """Re-rank with correctly rounded scores wherever the fast scores could mislead (INT-04).

    Fast scores use the platform pow, at most a few ulp from the exact score.  Any candidate
    that could belong to the exact top `limit` has a fast score within that distance of the
    fast `limit`-th score, so only that window is rescored exactly, from its stored line.
    """
    bound = ranked[-1][0]
    for _ in range(8):  # 8 ulp of slack above the worst kept (negated) score
        bound = math.nextafter(bound, math.inf)
    window = candidates if len(candidates) <= limit else [c for c in candidates if c[0] <= bound]
    exact: list[Ranked] = []
    for candidate in window:
        record = parse_record(read_line_at(stores[candidate[2]], candidate[5]))
        if isinstance(record, Invalid):  # pragma: no cover - the store changed under us
            raise RuntimeError("store changed while being read")
        score = scorer.score(record[1], record[2], record[3], exact=True)
        exact.append((-score, candidate[1], candidate[2], candidate[3], candidate[4], candidate[5]))
    return heapq.nsmallest(limit, exact)


def _selected_item(stores: list[str], ranked: Ranked, per_item: int) -> dict[str, Any]:
    record = parse_record(read_line_at(stores[ranked[2]], ranked[5]))
    if type(record) is Invalid:  # pragma: no cover - the store changed under us
        raise RuntimeError("store changed while being read")
    excerpt, tokens = excerpt_of(record[1], per_item)
    return {
        "memory_id": ranked[3],
        "record_hash": ranked[4],
        "store_path": stores[ranked[2]],
        "score": -ranked[0],
        "excerpt": excerpt,
        "excerpt_tokens": tokens,
    }


def assemble(
    stores: list[str], scorer: Scorer, trust: TrustFilter, budget: Budget
) -> tuple[list[dict[str, Any]], list[dict[str, str]], int]:
    """Select under the budget; return (selected, dropped, used_excerpt_tokens).

    The cyclic garbage collector is paused meanwhile: the millions of small tuples and dicts
    a large store produces hold no reference cycles, and repeated full collections over them
    would cost more than the work itself.  The previous GC state is restored.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _assemble(stores, scorer, trust, budget)
    finally:
        if enabled:
            gc.enable()


def _assemble(
    stores: list[str], scorer: Scorer, trust: TrustFilter, budget: Budget
) -> tuple[list[dict[str, Any]], list[dict[str, str]], int]:
    entries, candidates = _read(stores, scorer, trust)
    # Only the best max_items candidates can ever be looked at (S6-TOK-05).
    ranked = heapq.nsmallest(budget.max_items, candidates)
    if scorer.approximate and ranked:
        ranked = _rank_exactly(stores, candidates, ranked, scorer, budget.max_items)
    selected: list[dict[str, Any]] = []
    chosen: set[tuple[int, int]] = set()
    used = 0
    stop_reason = MAX_ITEMS_REACHED
    for candidate in ranked:  # S6-TRUNC-09: "Iterate candidates in sorted order."
        item = _selected_item(stores, candidate, budget.per_item_max_excerpt_tokens)
        # S6-TRUNC-11: "if used + excerpt_tokens <= max_excerpt_tokens => select"
        if used + item["excerpt_tokens"] > budget.max_excerpt_tokens:
            # S6-TOK-04: "Selection MUST stop when used_excerpt_tokens would exceed
            # max_excerpt_tokens" -- stop, not skip (INT-26, erratum).
            stop_reason = BUDGET_EXHAUSTED
            break
        used += item["excerpt_tokens"]
        selected.append(item)
        chosen.add((candidate[2], candidate[5]))
    # Every later candidate shares the stop reason; dropped keeps read order (INT-28).
    dropped = [
        {"memory_id": e[3], "record_hash": e[4], "store_path": stores[e[2]], "reason": stop_reason}
        if len(e) == 6
        else {"memory_id": e[0], "record_hash": e[1], "store_path": stores[e[2]], "reason": e[3]}
        for e in entries
        if len(e) != 6 or (e[2], e[5]) not in chosen
    ]
    return selected, dropped, used


def _selected_bytes(item: dict[str, Any]) -> bytes:
    """One selected item in canonical form; keys in JCS order, score in JCS number form."""
    dump = orjson.dumps
    return b"".join(
        (
            b'{"excerpt":',
            dump(item["excerpt"]),
            b',"excerpt_tokens":',
            dump(item["excerpt_tokens"]),
            b',"memory_id":',
            dump(item["memory_id"]),
            b',"record_hash":',
            dump(item["record_hash"]),
            b',"score":',
            jcs_number(item["score"]),
            b',"store_path":',
            dump(item["store_path"]),
            b"}",
        )
    )


def canonical_package_chunks(package: dict[str, Any]) -> list[bytes]:
    """RFC 8785 bytes of a package without package_hash, as chunks (INT-03, INT-01).

    The package's shape is fixed, so its canonical form is assembled directly: ASCII keys in
    sorted order, strings and integers through orjson (byte-equal to JCS for them), scores
    through the JCS number form.  tests/test_package.py checks it against rfc8785.
    """
    selection = package["selection"]
    chunks = [
        b'{"budget":',
        orjson.dumps(package["budget"], option=_SORT),
        b',"controller_version":',
        orjson.dumps(package["controller_version"]),
        b',"query":',
        orjson.dumps(package["query"], option=_SORT),
        b',"selection":{"dropped":[',
    ]
    dropped = selection["dropped"]
    for start in range(0, len(dropped), _CHUNK):
        block = orjson.dumps(dropped[start : start + _CHUNK], option=_SORT)
        chunks.append(block[1:-1] if start == 0 else b"," + block[1:-1])
    chunks.append(b'],"selected":[')
    chunks.append(b",".join(_selected_bytes(item) for item in selection["selected"]))
    chunks.append(b"]}}")
    return chunks


def canonical_package_bytes(package: dict[str, Any]) -> bytes:
    """The canonical bytes package_hash is computed over (everything but package_hash)."""
    return b"".join(canonical_package_chunks(package))


def package_hash(package: dict[str, Any]) -> str:
    """S6-HASH-08: SHA-256 hex of the canonical package without package_hash (INT-03)."""
    digest = hashlib.sha256()
    for chunk in canonical_package_chunks(package):
        digest.update(chunk)
    return digest.hexdigest()
