"""ContextPackage assembly: two passes, the package streamed with its hash.

Data flows one way: lines -> records -> trust filter -> scores -> ranking -> selection ->
package.  Every record line ends up exactly once in `selected` (rank order) or in `dropped`
(read order, INT-28), and memory stays bounded by max_items, not by the stores:

1. pass 1 (`_candidates`) reads every line once: it validates and hashes it, renders its
   dropped entry into a spool (`_dropped`: the stop reason left open) or offers it to a
   shortlist (`_selection`) of the candidates that can still be selected or stop selection;
2. the shortlist, ordered exactly (`_ordering`), gives the selection and the reason every
   other candidate is dropped with; the selected lines are re-read through the stores'
   descriptors for their excerpts, and must hash as they did in pass 1;
3. the package is written: query, budget and selected (OUTPUT CONTRACT order), then pass 2
   (`_dropped.finish_chunk`) reads the spool back chunk by chunk, writing in the stop reason,
   each chunk's entries fed to package_hash's SHA-256 in canonical form as they go (INT-03),
   then package_hash and the receipt.

Pass 2 never reads the stores: the dropped entries all come from pass 1's one read, so a
package never mixes two versions of a store.  Large inputs are read by forked readers
(`_workers`), with the same chunks and the same results.
"""

from __future__ import annotations

import hashlib
import os
import threading
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Final

import orjson

from reference._audit import AuditWriter, StoreIdentity
from reference._candidates import scan_chunk
from reference._canonical import FORMS, jcs_number, lone_escaped
from reference._dropped import (
    SELECTED,
    ChunkParts,
    Layout,
    Marks,
    Part,
    Spool,
    finish_chunk,
)
from reference._envelope import Envelope
from reference._ordering import (
    HASH,
    LENGTH,
    MEMORY_ID,
    OFFSET,
    STORE,
    TIE_KEYS,
    TS,
    Candidate,
    exact_score,
)
from reference._reader import (
    BLOCK_BYTES,
    Store,
    plan_chunks,
    read_line,
    store_changed,
    whole_stores,
)
from reference._receipt import build_receipt
from reference._records import PINNED_LINES, Invalid, LineRules, Record
from reference._scoring import Scorer
from reference._selection import (
    BUDGET_EXHAUSTED,
    INVALID_RECORD,
    MAX_ITEMS_REACHED,
    REASONS,
    TRUST_DENIED,
    Budget,
    Selection,
    Shortlist,
    select,
)
from reference._trust import TrustFilter
from reference._workers import Readers

__all__ = [
    "BUDGET_EXHAUSTED",
    "CONTROLLER_VERSION",
    "INVALID_RECORD",
    "MAX_ITEMS_REACHED",
    "PARALLEL_MIN_BYTES",
    "REASONS",
    "TRUST_DENIED",
    "Audit",
    "Budget",
    "PackageHash",
    "assemble",
    "canonical_package_bytes",
    "package_hash",
    "package_hash_under",
]

#: S6-VER-01: "controller_version MUST be "phase6-v1" until Phase 6 closes."
CONTROLLER_VERSION: Final = "phase6-v1"

_SORT: Final = orjson.OPT_SORT_KEYS
#: Inputs of at least this many bytes are read by forked readers, in chunks of _CHUNK_BYTES.
PARALLEL_MIN_BYTES: Final = 16 << 20
_CHUNK_BYTES: Final = 8 << 20
_MAX_READERS: Final = 4
_NO_MARKS: Final[Marks] = {}


def _selected_bytes(item: dict[str, Any]) -> bytes:
    """One selected item in canonical form; keys in JCS order, score in JCS number form."""
    try:
        return _selected_jcs(item)
    except orjson.JSONEncodeError:  # a lone surrogate (INT-15/javascript-keep-lone-surrogates)
        return lone_escaped(item)


def _selected_jcs(item: dict[str, Any]) -> bytes:
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


class PackageHash:
    """S6-HASH-08: SHA-256 of the canonical package without package_hash (INT-03, INT-01),
    fed in the canonical member order: budget, controller_version, query, selection (dropped,
    then selected).  The package's shape is fixed, so its RFC 8785 form is assembled directly:
    ASCII keys in sorted order, strings and integers through orjson (byte-equal to JCS for
    them), scores through the JCS number form."""

    __slots__ = ("digest", "entries")

    def __init__(self, query: dict[str, Any], budget: dict[str, Any]) -> None:
        self.digest = hashlib.sha256()
        self.entries = False
        self.digest.update(
            b'{"budget":'
            + orjson.dumps(budget, option=_SORT)
            + b',"controller_version":'
            + orjson.dumps(CONTROLLER_VERSION)
            + b',"query":'
            + orjson.dumps(query, option=_SORT)
            + b',"selection":{"dropped":['
        )

    def dropped(self, canonical: bytes | bytearray) -> None:
        """Dropped entries in canonical form, joined by commas (b"" for none)."""
        if canonical:
            if self.entries:
                self.digest.update(b",")
            self.digest.update(canonical)
            self.entries = True

    def finish(self, selected: list[dict[str, Any]]) -> str:
        """Close with the selected items; the lowercase hex digest."""
        self.digest.update(
            b'],"selected":[' + b",".join(_selected_bytes(item) for item in selected) + b"]}}"
        )
        return self.digest.hexdigest()


def canonical_package_bytes(package: dict[str, Any]) -> bytes:
    """The canonical bytes package_hash is computed over (everything but package_hash)."""
    selection = package["selection"]
    dropped = orjson.dumps(selection["dropped"], option=_SORT)[1:-1]
    return b"".join(
        (
            b'{"budget":',
            orjson.dumps(package["budget"], option=_SORT),
            b',"controller_version":',
            orjson.dumps(package["controller_version"]),
            b',"query":',
            orjson.dumps(package["query"], option=_SORT),
            b',"selection":{"dropped":[',
            dropped,
            b'],"selected":[',
            b",".join(_selected_bytes(item) for item in selection["selected"]),
            b"]}}",
        )
    )


def package_hash(package: dict[str, Any]) -> str:
    """package_hash of a whole package held as a dict (the streamed hash, for checking)."""
    return hashlib.sha256(canonical_package_bytes(package)).hexdigest()


#: INT-03: which members of the package package_hash covers, given the package without
#: package_hash (the pinned reading first: all of them, ``canonical_package_bytes``).
_MUST_LIST: Final = ("memory_id", "record_hash", "store_path", "score", "excerpt_tokens")
PACKAGE_FIELDS: Final[dict[str, Any]] = {
    "all": lambda package: package,
    # S6-HASH-10/11: "selected items (memory_id, record_hash, store_path, score,
    # excerpt_tokens)" and "budget fields", nothing else.
    "must-list": lambda package: {
        "budget": package["budget"],
        "selection": {
            "selected": [
                {name: item[name] for name in _MUST_LIST if name in item}
                for item in package["selection"]["selected"]
            ]
        },
    },
    "no-query-raw": lambda package: (
        package | {"query": {k: v for k, v in package["query"].items() if k != "raw"}}
    ),
}


def package_hash_under(package: dict[str, Any], form: str, fields: str, score: bool) -> str:
    """package_hash under alternative readings: canonical `form` (INT-01, a key of
    ``_canonical.FORMS``), the members `fields` names (INT-03), with or without the selected
    items' scores (INT-04/exclude-score-package-hash)."""
    whole = {name: value for name, value in package.items() if name != "package_hash"}
    if not score:
        selection = whole["selection"]
        selected = [
            {k: v for k, v in item.items() if k != "score"} for item in selection["selected"]
        ]
        whole["selection"] = selection | {"selected": selected}
    return hashlib.sha256(FORMS[form](PACKAGE_FIELDS[fields](whole))).hexdigest()


def _record_hash(item: Candidate) -> str:
    return item[HASH]


#: What pass 1 over some chunks gives: the shortlist, each chunk's parts and checksum.
Pass1Result = tuple[list[Candidate], dict[int, list[Part]], dict[int, int]]


class _Passes:
    """Pass 1 over a fixed plan of chunks, in this process or in forked readers, then pass 2
    here, from the spools."""

    def __init__(
        self,
        stores: list[Store],
        scorer: Scorer,
        trust: TrustFilter,
        budget: Budget,
        indent: bytes | None,
        *,
        audit: bool = False,
        lines: LineRules = PINNED_LINES,
    ) -> None:
        self.stores = stores
        self.lines = lines
        self.scorer = scorer
        self.trust = trust
        self.budget = budget
        self.indent = indent
        self.audit = audit
        #: With an assembly record: SHA-256 of each store's bytes, fed as pass 1 reads them.
        self.digests = [hashlib.sha256() for _ in stores] if audit else []
        total = sum(store.size for store in stores)
        readers = _reader_count() if total >= PARALLEL_MIN_BYTES else 1
        self.chunks = plan_chunks(stores, _CHUNK_BYTES) if readers > 1 else whole_stores(stores)
        readers = max(1, min(readers, len(self.chunks)))
        #: One spool per reader (forked readers need files the parent can read back).
        self.spools = [Spool(total // readers, shared=readers > 1) for _ in range(readers)]
        self.parallel = readers > 1 and all(spool.shareable for spool in self.spools)
        if readers > 1 and not self.parallel:  # no temporary files: one process, in memory
            for spool in self.spools:
                spool.close()
            self.chunks = whole_stores(stores)
            self.spools = [Spool(0)]
        #: Pass 1's parts and checksum of every chunk.
        self.parts: dict[int, list[Part]] = {}
        self.crcs: dict[int, int] = {}
        #: Each chunk's first line number (INT-53), known before pass 1 reads it.
        self.first_lines = dict.fromkeys(range(len(self.chunks)), 1)  # one chunk a store
        if audit and self.parallel:
            self.first_lines = self._count_lines()
        self.readers = (
            Readers(len(self.spools), len(self.chunks), self._pass1) if self.parallel else None
        )

    def _count_lines(self) -> dict[int, int]:
        """The number of each chunk's first line in its store (chunks start lines)."""
        first: dict[int, int] = {}
        lines = 1
        position = -1
        for index, chunk in enumerate(self.chunks):
            if chunk.position != position:
                position, lines = chunk.position, 1
            first[index] = lines
            offset = chunk.start
            while offset < chunk.end:  # reads of _CHUNK_BYTES at most: memory stays bounded
                size = min(_CHUNK_BYTES, chunk.end - offset)
                lines += read_line(self.stores[position], offset, size).count(b"\n")
                offset += size
        return first

    def record(self, item: Candidate) -> Record:
        """A candidate's record, re-read; a line that no longer hashes as it did in pass 1
        means a changed store."""
        store = self.stores[item[STORE]]
        record = self.scorer.parse_line(
            read_line(store, item[OFFSET], item[LENGTH]),
            store_path=store.path,
            parse_ts=self.scorer.parse_ts,
            hashing=self.scorer.hashing,
        )
        if isinstance(record, Invalid) or (record[0], self.scorer.ts_key(record[3]), record[4]) != (
            item[MEMORY_ID],
            item[TS],
            item[HASH],
        ):
            raise store_changed(store)
        return record

    def shortlist(self) -> Shortlist:
        tie_key = TIE_KEYS[self.scorer.order]([store.path for store in self.stores])  # INT-33
        return Shortlist(
            self.budget, _record_hash, approximate=self.scorer.approximate, tie_key=tie_key
        )

    def _pass1(self, number: int, mine: list[int]) -> Pass1Result:
        """Pass 1 over the chunks `mine`, writing to spool `number`."""
        shortlist = self.shortlist()
        per_item = self.budget.per_item_max_excerpt_tokens
        # Alone, this process reads every chunk in order: the store hashes are fed as it reads.
        hashing = self.audit and not self.parallel
        spool = self.spools[number]
        parts: dict[int, list[Part]] = {}
        crcs: dict[int, int] = {}
        for index in mine:
            chunk = self.chunks[index]
            store = self.stores[chunk.position]
            found = ChunkParts(spool, store.path, chunk.position, self.indent, self.audit)
            digest = self.digests[chunk.position] if hashing else None
            crcs[index] = scan_chunk(self.stores, chunk, self.scorer, self.trust, per_item,
                                     shortlist, found, self.first_lines[index],
                                     digest, self.lines)  # fmt: skip
            parts[index] = found.parts
        spool.flush()
        return shortlist.ranked(), parts, crcs

    def _hash_in_parent(self) -> dict[int, int]:
        """With forked readers, the parent hashes the stores while they run pass 1 (it would
        otherwise wait): each chunk's bytes in order; returns each chunk's checksum."""
        crcs: dict[int, int] = {}
        for index, chunk in enumerate(self.chunks):
            crc = 0
            offset = chunk.start
            while offset < chunk.end:
                size = min(BLOCK_BYTES, chunk.end - offset)
                data = read_line(self.stores[chunk.position], offset, size)
                self.digests[chunk.position].update(data)
                crc = zlib.crc32(data, crc)
                offset += len(data)
            crcs[index] = crc
        return crcs

    def identities(self) -> list[StoreIdentity]:
        """Each store's (path, bytes read, SHA-256 of them), after pass 1 (assembly record)."""
        return [(store.path, store.size, digest.hexdigest())
                for store, digest in zip(self.stores, self.digests, strict=True)]  # fmt: skip

    def candidates(self) -> list[Candidate]:
        """Pass 1: the shortlist of every chunk, merged and ordered exactly."""
        if self.readers is None:
            ranked, self.parts, self.crcs = self._pass1(0, list(range(len(self.chunks))))
            return ranked
        parent = self._hash_in_parent() if self.audit else None
        shortlist = self.shortlist()
        for items, parts, crcs in self.readers.results():
            shortlist.extend(items)
            self.parts.update(parts)
            self.crcs.update(crcs)
        if parent is not None:  # the hashing read and pass 1 must have read the same bytes
            for index, crc in parent.items():
                if crc != self.crcs[index]:
                    raise store_changed(self.stores[self.chunks[index].position])
        return shortlist.ranked()

    def dropped(
        self, marks: dict[int, Marks], reason: str
    ) -> Iterator[tuple[int, bytes, bytes, bytes, dict[int, int] | None]]:
        """Pass 2: every chunk's (store position, printed, canonical, rows, line numbers of its
        candidates by offset), in read order."""
        count = len(self.spools)
        for index, chunk in enumerate(self.chunks):
            store = self.stores[chunk.position]
            layout = Layout(store.path, chunk.position, self.indent, self.audit)
            found: dict[int, int] | None = {} if self.audit else None
            printed, canonical, rows = finish_chunk(
                self.spools[index % count],
                self.parts.pop(index),
                layout,
                marks.get(chunk.position, _NO_MARKS),
                reason,
                found,
            )
            yield chunk.position, printed, canonical, rows, found

    def close(self) -> None:
        if self.readers is not None:
            self.readers.close()
        for spool in self.spools:
            spool.close()


def _reader_count() -> int:
    """Forked readers for a large input: one per usable CPU (at most 4), none when threads run
    (forking a threaded process is unsafe) or fork is missing."""
    if not hasattr(os, "fork") or threading.active_count() > 1:
        return 1
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - platforms without sched_getaffinity
        cpus = os.cpu_count() or 1
    return min(cpus, _MAX_READERS)


def _selected_item(passes: _Passes, item: Candidate, per_item: int) -> dict[str, Any]:
    record = passes.record(item)
    excerpt_of = passes.scorer.excerpt  # INT-31
    excerpt, tokens = excerpt_of(record[1], per_item, passes.scorer.text.strip)  # INT-05
    return {
        "memory_id": record[0],
        "record_hash": record[4],
        "store_path": passes.stores[item[STORE]].path,
        "score": exact_score(item),  # INT-04: the correctly rounded score
        "excerpt": excerpt,
        "excerpt_tokens": tokens,
    }


def assemble(
    stores: list[Store],
    scorer: Scorer,
    trust: TrustFilter,
    budget: Budget,
    query: dict[str, Any],
    envelope: Envelope,
    audit: Audit | None = None,
    rules: LineRules = PINNED_LINES,
    receipt_paths: list[str] | None = None,
) -> dict[str, Any]:
    """Write the package envelope for an opened set of stores; return the receipt.

    With `audit`, the assembly record is written beside it (`_audit`): the package and the
    receipt are the same bytes.  `rules` is how a line is read (INT-14..INT-18).
    `receipt_paths` replaces the stores' normalized paths in the receipt
    (INT-43/store-paths-provided, a reading).
    """
    passes = _Passes(
        stores, scorer, trust, budget, envelope.dropped_indent, audit=audit is not None,
        lines=rules,
    )  # fmt: skip
    try:
        ranked = passes.candidates()
        if audit is not None:
            audit.writer.head(query["query_hash"], passes.identities(), audit.trust,
                              audit.scoring, audit.budget, CONTROLLER_VERSION)  # fmt: skip
        selection = select(ranked, budget)
        chosen = [ranked[position] for position in selection.selected]
        per_item = budget.per_item_max_excerpt_tokens
        selected = [_selected_item(passes, item, per_item) for item in chosen]
        used = sum(item["excerpt_tokens"] for item in selected)  # S6-TOK-02
        budget_json = {
            "max_excerpt_tokens": budget.max_excerpt_tokens,
            "used_excerpt_tokens": used,
            # S6-TOK-03: "remaining = max_excerpt_tokens - used_excerpt_tokens (floor at 0)"
            "remaining_excerpt_tokens": max(budget.max_excerpt_tokens - used, 0),
            "per_item_max_excerpt_tokens": per_item
            if budget.shown_per_item is None
            else budget.shown_per_item,  # INT-30
            "max_items": budget.max_items,
        }
        # Every other candidate shares the stop reason (INT-26, INT-27): pass 2 needs only the
        # selected lines, and any candidate the rules gave another reason.
        marks: dict[int, Marks] = {}
        for position, reason in selection.reasons.items():
            item = ranked[position]
            marks.setdefault(item[STORE], {})[item[OFFSET]] = reason
        for item in chosen:
            marks.setdefault(item[STORE], {})[item[OFFSET]] = None
        digest = PackageHash(query, budget_json)
        envelope.head(query, budget_json, selected)
        lines: dict[tuple[int, int], int] = {}
        for store, printed, canonical, rows, found in passes.dropped(marks, selection.reason):
            envelope.dropped(printed)
            digest.dropped(canonical)
            if audit is not None and found is not None:
                audit.writer.candidates(rows)
                lines.update(((store, offset), line) for offset, line in found.items())
        hashed = digest.finish(selected)
    finally:
        passes.close()
    if audit is not None:
        _audit_tail(audit, ranked, selection, selected, lines, hashed)
    summary = {"query": query, "selection": {"selected": selected}, "package_hash": hashed}
    paths = [store.path for store in stores] if receipt_paths is None else receipt_paths
    receipt = build_receipt(summary, paths)  # INT-43
    envelope.tail(hashed, CONTROLLER_VERSION, receipt)
    return receipt


def _audit_tail(
    audit: Audit,
    ranked: list[Candidate],
    selection: Selection,
    selected: list[dict[str, Any]],
    lines: dict[tuple[int, int], int],
    package_hash: str,
) -> None:
    """The record's ranking (the decided prefix, INT-54), selected items and manifest."""
    chosen = set(selection.selected)
    ranking = []
    for position, item in enumerate(ranked):
        outcome = SELECTED if position in chosen else selection.reasons.get(
            position, selection.reason)  # fmt: skip
        ranking.append({"store": item[STORE], "line": lines[(item[STORE], item[OFFSET])],
                        "rank": position + 1, "score": exact_score(item),
                        "outcome": outcome})  # fmt: skip
    picked = [ranking[position] for position in selection.selected]
    audit.writer.tail(
        ranking,
        selection.reason,
        [{"store": entry["store"], "line": entry["line"], "rank": entry["rank"],
          "score": entry["score"], "excerpt_tokens": item["excerpt_tokens"]}
         for entry, item in zip(picked, selected, strict=True)],
        [{"memory_id": item["memory_id"], "record_hash": item["record_hash"],
          "store_path": item["store_path"], "excerpt_tokens": item["excerpt_tokens"]}
         for item in selected],
        package_hash,
    )  # fmt: skip


@dataclass(frozen=True, slots=True)
class Audit:
    """An assembly record being written: its writer and the parameters its head states."""

    writer: AuditWriter
    trust: dict[str, Any] | None
    scoring: dict[str, Any]
    budget: dict[str, Any]
