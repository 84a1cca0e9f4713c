"""Candidate ranking, selection under budget, and the ContextPackage with its hash.

Data flows one way: lines -> records -> trust filter -> scores -> ranking -> selection ->
package.  Every record line ends up exactly once in `selected` (rank order) or in `dropped`
(read order, INT-28).
"""

from __future__ import annotations

import hashlib
import heapq
from array import array
from dataclasses import dataclass
from typing import Any, Final

import orjson

from reference._canonical import jcs_number
from reference._excerpt import excerpt_of
from reference._records import Invalid, parse_record
from reference._reader import iter_lines, read_line_at
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


@dataclass(frozen=True, slots=True)
class Budget:
    """The budget a package is assembled under (S6-TRUNC-04 already applied)."""

    max_excerpt_tokens: int
    per_item_max_excerpt_tokens: int
    max_items: int


# A ranked candidate is a plain tuple whose natural order IS the tie-break order
# (S6-ORDER-01..05, INT-33): (-score, ts key, store index, memory_id, record_hash, read index).
# Stores are read in sorted path order, so store index order == store_path order; the read
# index makes the order total (byte-identical records keep read order).
Ranked = tuple[float, int, int, str, str, int]


def _read(
    stores: list[str], scorer: Scorer, trust: TrustFilter
) -> tuple[list[tuple[Any, ...]], list[Ranked], array[int]]:
    """Read every store once; return the read-order entries, the candidates and offsets."""
    entries: list[tuple[Any, ...]] = []  # a Ranked candidate, or (id, hash, store, reason)
    candidates: list[Ranked] = []
    offsets: array[int] = array("q")
    filtering = trust.active
    score = scorer.score
    for store_index, path in enumerate(stores):
        for offset, raw in iter_lines(path, store_index):
            record = parse_record(raw)
            if type(record) is Invalid:
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
                len(offsets),
            )
            offsets.append(offset)
            candidates.append(ranked)
            entries.append(ranked)
    return entries, candidates, offsets


def _selected_item(
    stores: list[str], offsets: array[int], ranked: Ranked, per_item: int
) -> dict[str, Any]:
    record = parse_record(read_line_at(stores[ranked[2]], offsets[ranked[5]]))
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
    """Select under the budget; return (selected, dropped, used_excerpt_tokens)."""
    entries, candidates, offsets = _read(stores, scorer, trust)
    # Only the best max_items candidates can ever be looked at (S6-TOK-05).
    ranked = heapq.nsmallest(budget.max_items, candidates)
    selected: list[dict[str, Any]] = []
    chosen: set[int] = set()
    used = 0
    stop_reason = MAX_ITEMS_REACHED
    for candidate in ranked:  # S6-TRUNC-09: "Iterate candidates in sorted order."
        item = _selected_item(stores, offsets, candidate, budget.per_item_max_excerpt_tokens)
        # S6-TRUNC-11: "if used + excerpt_tokens <= max_excerpt_tokens => select"
        if used + item["excerpt_tokens"] > budget.max_excerpt_tokens:
            # S6-TOK-04: "Selection MUST stop when used_excerpt_tokens would exceed
            # max_excerpt_tokens" -- stop, not skip (INT-26, erratum).
            stop_reason = BUDGET_EXHAUSTED
            break
        used += item["excerpt_tokens"]
        selected.append(item)
        chosen.add(candidate[5])
    # Every later candidate shares the stop reason; dropped keeps read order (INT-28).
    dropped = [
        {"memory_id": e[3], "record_hash": e[4], "store_path": stores[e[2]], "reason": stop_reason}
        if len(e) == 6
        else {"memory_id": e[0], "record_hash": e[1], "store_path": stores[e[2]], "reason": e[3]}
        for e in entries
        if len(e) != 6 or e[5] not in chosen
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
