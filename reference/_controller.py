"""`memory_read`: request -> validate -> stores -> trust -> read/score -> select -> package
-> receipt (SPEC-006), as the result envelope of INT-44.

`memory_read_to` streams the envelope to a binary stream in bounded memory; `memory_read`
returns it as a dict (it streams into memory and parses the bytes, so both forms are one
implementation).
"""

from __future__ import annotations

import contextlib
import gc
import io
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any, Final

import orjson

from reference._audit import SCORING_METHOD, AuditWriter, Rewindable
from reference._canonical import FORMS
from reference._envelope import Envelope, Sink
from reference._errors import MemoryReadError
from reference._excerpt import EXCERPTS
from reference._package import (
    CONTROLLER_VERSION,
    MAX_ITEMS_REACHED,
    TRUST_DENIED,
    Audit,
    Budget,
    assemble,
    package_hash,
    package_hash_under,
)
from reference._paths import STORE_LISTS
from reference._query import QUERY_RAW, SUPPLIED_TERMS, TERM_LENGTHS, derive_terms, query_hash
from reference._reader import LINE_BREAKS, STORE_CHECKS, Store, close_stores, deduplicated
from reference._readings import Readings
from reference._records import (
    RECORD_TIMESTAMPS,
    Invalid,
    LineRules,
    RecordHashing,
    line_rules,
    record_parser,
)
from reference._request import INTEGERS, Request, validate_request
from reference._request_json import loads_request
from reference._scoring import (
    FUTURE_INVALID,
    SCORERS,
    TAG_BONUS,
    Scorer,
    go_math_pow,
    past_only,
    rounded_bonus,
)
from reference._selection import INVALID_RECORD
from reference._text import WHITESPACE, TextRules, text_rules
from reference._timestamps import PARSERS, RAW_ORDERS, TS_KEYS, remembering
from reference._trust import SnapshotIdentity, TrustFilter, load_trust_filter

#: The register's pinned readings (every default).
PINNED: Final = Readings()

__all__ = ["loads_request", "memory_read", "memory_read_to", "read_package", "write_result"]


def _lines(readings: Readings) -> LineRules:
    """How a line of a store is read (INT-14, INT-15, INT-16, INT-18)."""
    return line_rules(
        readings.line_ends,
        readings.json_text,
        readings.member_names,
        readings.depth_limit,
        readings.line_limit,
    )


def _record_parser(readings: Readings) -> Any:
    """The line parser of the record readings (INT-20..25) over the line readings'."""
    lines = _lines(readings)
    return record_parser(readings.records, lines.parse, lines.load)


def _text(readings: Readings) -> TextRules:
    """What whitespace (INT-05) and lowercasing (INT-06) are for this run."""
    return text_rules(readings.whitespace, readings.lowercase)


#: The readings of how a record is hashed or read (INT-01, INT-02, INT-17, INT-47) as pinned.
_PINNED_RECORD_HASHING: Final = (PINNED.record_form, PINNED.record_preimage, PINNED.numbers,
                                 PINNED.spec005_hash)  # fmt: skip


def _record_hashing(readings: Readings) -> RecordHashing | None:
    """How records are hashed under `readings`; None for the pinned readings (the fast path)."""
    hashing = (readings.record_form, readings.record_preimage, readings.numbers,
               readings.spec005_hash)  # fmt: skip
    if hashing == _PINNED_RECORD_HASHING:
        return None
    # INT-01: Python's json forms hash the values as Python's json module reads them.
    exact = readings.record_form.startswith("python-json")
    # INT-01: Go's forms hash them as json.Unmarshal reads them (every number a float64).
    go = readings.record_form.startswith("go-json") and readings.numbers == "doubles"
    return RecordHashing(
        form=FORMS[readings.record_form],
        numbers="exact" if exact else "float64" if go else readings.numbers,
        preimage=readings.record_preimage,
        strip=WHITESPACE[readings.whitespace].strip,  # INT-05
        spec005_hash=readings.spec005_hash == "record-hash",
    )


#: INT-30: the per_item_max_excerpt_tokens a package reports when it is not the effective
#: min(per_item, max_excerpt_tokens) (None: the effective one, pinned).
SHOWN_PER_ITEM: Final[dict[str, Callable[[Request], int | None]]] = {
    "effective": lambda request: None,
    "requested": lambda request: request.per_item_max_excerpt_tokens,
}
#: INT-43: the receipt's store_paths when not the normalized, deduplicated, sorted list
#: (None, pinned): the request's list as given.
RECEIPT_PATHS: Final[dict[str, Callable[[Request], list[str] | None]]] = {
    "normalized": lambda request: None,
    "provided": lambda request: list(request.store_paths),
}


def _denies(trust: TrustFilter) -> Callable[[str, str], bool]:
    """INT-39/trust-check-after-selection: the snapshot's check, for a selected candidate."""
    return lambda memory_id, record_hash: trust.denies(memory_id, record_hash, [])


def _episodic_first(stores: list[Store]) -> tuple[int, ...]:
    """INT-34/rank-episodic-stores-first: priority 0 for a store whose file name (last path
    segment) contains "episodic", ASCII case-insensitively; 1 for the others."""
    return tuple(int("episodic" not in store.path.rsplit("/", 1)[-1].lower()) for store in stores)


#: INT-34: the stores' priorities (None: no store ranks first, pinned).
STORE_PRIORITY: Final[dict[str, Callable[[list[Store]], tuple[int, ...] | None]]] = {
    "none": lambda stores: None,
    "episodic-first": _episodic_first,
}


def _scorer(request: Request, readings: Readings) -> Scorer:
    # S6-INPUT-11: query_terms "if absent, derived deterministically from query" (INT-08).
    text = _text(readings)  # INT-05, INT-06
    length = TERM_LENGTHS[readings.term_length]  # INT-07
    terms = (
        derive_terms(request.query, length, text.normalize)
        if request.query_terms is None
        else SUPPLIED_TERMS[readings.query_terms](
            request.query_terms, text.normalize, length, request.query
        )
    )
    # S6-INPUT-15: now_utc absent => "recency weighting MUST be disabled" (INT-36).
    now = request.now_utc
    recency = request.enable_recency_weight and now is not None
    scorer = SCORERS[readings.age](  # INT-35
        terms=terms,
        enable_tag_overlap=request.enable_tag_overlap,
        recency_now_ns=now[1] if recency and now is not None else None,
        half_life_days=request.recency_half_life_days,
        correctly_rounded_pow=readings.correctly_rounded_pow,
        parse_ts=RECORD_TIMESTAMPS[readings.timestamps],  # INT-20
        text=text,
        hashing=_record_hashing(readings),
        matching=readings.matching,  # INT-09
        counting=readings.counting,  # INT-10
        excerpt=EXCERPTS[readings.excerpt],  # INT-31
        order=readings.order,  # INT-33
        parse_line=_record_parser(readings),  # INT-20..25 over INT-14..18
        ts_key=TS_KEYS[readings.ts_order],  # INT-21
    )
    if readings.recency_decimals is not None:  # INT-04/round-recency-bonus-fixed
        scorer = rounded_bonus(scorer, readings.recency_decimals)
    if readings.go_pow:  # INT-04/go-math-pow
        scorer = go_math_pow(scorer)
    if readings.ts_order in RAW_ORDERS:  # INT-21: the key reads the raw string
        scorer = replace(scorer, parse_ts=remembering(scorer.parse_ts))
    if readings.age in FUTURE_INVALID and scorer.recency_now_ns is not None:  # INT-35
        scorer = replace(scorer, parse_ts=past_only(scorer.parse_ts, scorer.recency_now_ns))
    return scorer


class _Started(Exception):
    """A failure after the package's first bytes were written: it cannot become an error
    envelope any more."""

    def __init__(self, error: BaseException) -> None:
        super().__init__(str(error))
        self.error = error


@contextlib.contextmanager
def _gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector: the many small objects a large store produces hold
    no reference cycles, and repeated full collections over them would cost more than the
    work itself.  The previous state is restored."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _audit_parameters(
    request: Request,
    scorer: Scorer,
    read: list[SnapshotIdentity],
    budget: Budget,
    writer: AuditWriter,
) -> Audit:
    """S3-RET-03 / S3-SCORE-03: every retrieval and scoring parameter actually applied."""
    snapshot = None
    if read:
        path, size, sha256 = read[0]
        snapshot = {"path": path, "bytes": size, "sha256": sha256,
                    "deny_classifications": list(request.deny_classifications)}  # fmt: skip
    now = request.now_utc
    scoring = {
        "method": SCORING_METHOD,
        "terms": list(scorer.terms),
        "terms_from": "query" if request.query_terms is None else "query_terms",
        "term_weight": 1,
        "enable_tag_overlap": request.enable_tag_overlap,
        "tag_bonus": TAG_BONUS,
        "enable_recency_weight": request.enable_recency_weight,
        "recency_applied": scorer.recency_now_ns is not None,
        "recency_half_life_days": request.recency_half_life_days,
        "now_utc": now[0] if now is not None else None,
    }
    budget_json = {
        "max_excerpt_tokens": budget.max_excerpt_tokens,
        "per_item_max_excerpt_tokens": budget.per_item_max_excerpt_tokens,
        "max_items": budget.max_items,
    }
    return Audit(writer, snapshot, scoring, budget_json)


def _write_package(
    request: Request,
    envelope: Envelope,
    writer: AuditWriter | None = None,
    readings: Readings = PINNED,
) -> dict[str, Any]:
    """Write the package envelope of a validated request; return its receipt.

    Raises MemoryReadError before anything is written, _Started after.
    """
    # S6-READ-04/05: "store_paths MUST be normalized and sorted lexicographically before read"
    paths = STORE_LISTS[readings.store_list](list(request.store_paths))  # INT-12
    stores = LINE_BREAKS[readings.line_breaks](STORE_CHECKS[readings.store_checks](paths))
    if readings.duplicates != "kept":  # INT-23: one record per memory_id, from copies
        parse = _record_parser(readings)
        parse_ts = RECORD_TIMESTAMPS[readings.timestamps]

        def memory_id(line: bytes) -> str | None:
            record = parse(line, parse_ts=parse_ts)
            return None if isinstance(record, Invalid) else record[0]

        stores = deduplicated(stores, memory_id, readings.duplicates)
    if writer is not None:  # what a failure record can say of the stores from now on
        writer.stores = [(store.path, store.size, None) for store in stores]
    try:
        read: list[SnapshotIdentity] = []  # the snapshot read, if any (assembly record)
        snapshot, deny = request.trust_snapshot_path, request.deny_classifications
        # Without a record or a reading the call keeps its two-argument form (code that wraps
        # it stays valid).
        trust = (
            load_trust_filter(snapshot, deny)
            if writer is None and readings == PINNED
            else load_trust_filter(
                snapshot,
                deny,
                read,
                match=readings.trust_match,  # INT-39
                missing=readings.missing_snapshot,  # INT-38
                case=readings.classification_case,  # INT-39
                empty_id_matches=readings.empty_id_matches,  # INT-38
                text=readings.snapshot_text,  # INT-38
            )
        )
        budget = Budget(
            max_excerpt_tokens=request.max_excerpt_tokens,
            # S6-TRUNC-04: "per_item_max_excerpt_tokens = min(per_item_max_excerpt_tokens,
            # max_excerpt_tokens)"; the package reports the effective value (INT-30).
            per_item_max_excerpt_tokens=min(
                request.per_item_max_excerpt_tokens, request.max_excerpt_tokens
            ),
            max_items=request.max_items,
            max_items_reason=readings.max_items_reason or MAX_ITEMS_REACHED,
            shown_per_item=SHOWN_PER_ITEM[readings.per_item_shown](request),  # INT-30
            overflow=readings.budget_overflow,  # INT-26
            drop_score_0=not readings.score_0_selectable,  # INT-29
            store_priority=STORE_PRIORITY[readings.store_priority](stores),  # INT-34
            denied_after=_denies(trust) if readings.trust_after_selection else None,  # INT-39
        )
        if readings.trust_after_selection:  # INT-39/trust-check-after-selection
            trust = TrustFilter()
        lines = _lines(readings)  # INT-14, INT-15, INT-16, INT-18
        lines.line_limit.check(stores)  # INT-18: the stores checked before reading, if at all
        normalize = _text(readings).normalize  # INT-05, INT-06
        raw = QUERY_RAW[readings.query_raw](request.query, normalize)  # INT-11
        query = {"raw": raw, "query_hash": query_hash(request.query, normalize)}
        scorer = _scorer(request, readings)
        audit = None
        if writer is not None:
            audit = _audit_parameters(request, scorer, read, budget, writer)
        try:
            with _gc_paused():
                return assemble(stores, scorer, trust, budget, query, envelope, audit, lines,
                                RECEIPT_PATHS[readings.receipt_paths](request))  # fmt: skip
        except BaseException as error:
            if envelope.started:
                raise _Started(error) from error
            raise
    finally:
        close_stores(stores)


def write_result(
    request: Any,
    envelope: Envelope,
    audit_out: Rewindable | None = None,
    readings: Readings = PINNED,
) -> dict[str, Any]:
    """Write the result envelope of a request; return it without the package.

    Returns {"receipt": ...} after a package, {"error": ...} after a structured error.  Raises
    only for a failure after the package's first bytes were written (a store changed in place
    while its dropped entries were being streamed, or an internal failure): the output is
    then ended with a newline, and what was written is not a package.

    With `audit_out`, the assembly record (specs/audit.md) is written there: the package's,
    or the failure record of a structured error or of a store changed while being read.
    """
    if _package_hashing(readings) != _PINNED_PACKAGE_HASHING:
        return _rehashed(request, envelope, audit_out, readings)
    if (
        readings.dropped_order != "read"
        or readings.dropped_limit is not None
        or readings.invalid_entries != "listed"
        or readings.max_items_reason is None
    ):
        return _rewritten(request, envelope, audit_out, readings)
    if readings.duplicates != "kept" and audit_out is not None:
        raise ValueError("an assembly record describes the stores as read (INT-23)")
    writer = AuditWriter(audit_out, request) if audit_out is not None else None
    try:
        valid = validate_request(
            request,
            INTEGERS[readings.integers],  # INT-41
            PARSERS[readings.timestamps],  # INT-20
            readings.recency,  # INT-36
            _text(readings).normalize,  # INT-05, INT-06
            readings.members,  # INT-42
            readings.max_items,  # INT-30
            readings.check_order,  # INT-40
        )
        receipt = _write_package(valid, envelope, writer, readings)
    except MemoryReadError as error:
        envelope.error(error.to_json())
        if writer is not None:
            writer.failure(error.to_json(), CONTROLLER_VERSION)
        return {"error": error.to_json()}
    except _Started as started:
        envelope.out.write(b"\n")
        if writer is not None and isinstance(started.error, MemoryReadError):
            writer.failure(started.error.to_json(), CONTROLLER_VERSION)
        raise started.error from None
    return {"receipt": receipt}


Entry = dict[str, str]
#: The largest request int (INT-41): a budget that never stops selection.
_UNBOUNDED: Final = 2**53 - 1


def _by_reason(request: Any, readings: Readings, dropped: list[Entry]) -> list[Entry]:
    """INT-28/by-reason: grouped by reason, reasons in code-point order (a stable sort keeps
    read order inside each group)."""
    return sorted(dropped, key=lambda entry: entry["reason"])


def _by_rank(request: Any, readings: Readings, dropped: list[Entry]) -> list[Entry]:
    """INT-28/rank-order: the dropped candidates in rank order, then the lines that never were
    candidates (invalid_record_schema, trust_denied: they have no rank) in read order.

    A candidate's rank is its place in the selection under a budget that never stops (every
    candidate selected, in rank order); a line repeated in one store is one key, its copies
    taking that key's ranks in turn."""
    unbounded = dict(request, budget={"max_excerpt_tokens": _UNBOUNDED, "max_items": _UNBOUNDED})
    everything = memory_read(
        unbounded, readings=replace(readings, dropped_order="read", max_items="at-least-1")
    )
    ranks: dict[tuple[str, str, str], list[int]] = {}
    for rank, item in enumerate(everything["package"]["selection"]["selected"]):
        key = (item["store_path"], item["memory_id"], item["record_hash"])
        ranks.setdefault(key, []).append(rank)
    for copies in ranks.values():  # the selected copies are the first of their key's ranks
        copies.reverse()
    package = memory_read(request, readings=replace(readings, dropped_order="read"))["package"]
    for item in package["selection"]["selected"]:
        ranks[(item["store_path"], item["memory_id"], item["record_hash"])].pop()
    order: list[tuple[int, int]] = []
    for index, entry in enumerate(dropped):
        left = ranks.get((entry["store_path"], entry["memory_id"], entry["record_hash"]))
        if entry["reason"] in (INVALID_RECORD, TRUST_DENIED) or not left:
            order.append((1, index))
        else:
            order.append((0, left.pop()))
    return [entry for _, entry in sorted(zip(order, dropped, strict=True))]


#: INT-28: how the dropped entries of a finished package are ordered (read order is the
#: streaming path's own).
DROPPED_ORDERS: Final[dict[str, Callable[[Any, Readings, list[Entry]], list[Entry]]]] = {
    "by-reason": _by_reason,
    "rank": _by_rank,
}


def _invalid_nulled(entry: dict[str, Any]) -> dict[str, Any] | None:
    if entry["reason"] != INVALID_RECORD:
        return entry
    return entry | {"memory_id": None, "record_hash": None}


def _invalid_omitted(entry: dict[str, Any]) -> dict[str, Any] | None:
    return None if entry["reason"] == INVALID_RECORD else entry


#: INT-19: what a finished package's dropped entry becomes ("listed" is the streaming path's
#: own: memory_id "" or the string member, the raw-line hash; None: left out).
INVALID_ENTRIES: Final = {"null": _invalid_nulled, "omitted": _invalid_omitted}


def _rewritten(
    request: Any, envelope: Envelope, audit_out: Rewindable | None, readings: Readings
) -> dict[str, Any]:
    """INT-19's, INT-27/do-list-dropped's and INT-28's alternatives, on the plain path: the
    package assembled whole with the pinned dropped entries in read order, its dropped entries
    left out (INT-27), reordered (INT-28), rewritten (INT-19) and cut to the first n
    (INT-28/list-first-n-drops), package_hash (S6-HASH-08) and the receipt computed again."""
    if audit_out is not None:
        raise ValueError("an assembly record lists pinned dropped entries only (INT-19, INT-28)")
    buffer = io.BytesIO()
    listed = MAX_ITEMS_REACHED if readings.max_items_reason is None else readings.max_items_reason
    streamed = replace(
        readings,
        dropped_order="read",
        dropped_limit=None,
        invalid_entries="listed",
        max_items_reason=listed,
    )
    outcome = write_result(request, Envelope(buffer), None, streamed)
    if "error" in outcome:
        envelope.error(outcome["error"])
        return outcome
    result = _loads(buffer.getvalue())
    package = result["package"]
    dropped = package["selection"]["dropped"]
    if readings.max_items_reason is None:  # INT-27/do-list-dropped: not listed at all
        dropped = [entry for entry in dropped if entry["reason"] != MAX_ITEMS_REACHED]
    if readings.dropped_order != "read":
        dropped = DROPPED_ORDERS[readings.dropped_order](request, streamed, dropped)
    if readings.invalid_entries != "listed":
        rewrite = INVALID_ENTRIES[readings.invalid_entries]
        dropped = [entry for entry in map(rewrite, dropped) if entry is not None]
    if readings.dropped_limit is not None:  # INT-28/list-first-n-drops: "the first N drops"
        dropped = dropped[: readings.dropped_limit]
    package["selection"]["dropped"] = dropped
    package["package_hash"] = package_hash(package)
    receipt = result["receipt"]
    receipt["data"]["package_hash"] = package["package_hash"]
    envelope.whole({"package": package, "receipt": receipt})
    return {"receipt": receipt}


def _package_hashing(readings: Readings) -> tuple[str, str, bool]:
    """The readings package_hash is computed under (INT-01, INT-03, INT-04)."""
    return readings.package_form, readings.package_fields, readings.score_hashed


_PINNED_PACKAGE_HASHING: Final = _package_hashing(PINNED)


def _rehashed(
    request: Any, envelope: Envelope, audit_out: Rewindable | None, readings: Readings
) -> dict[str, Any]:
    """INT-01, INT-03 and INT-04 alternatives of package_hash, on the plain path: the package
    assembled whole (records hashed under `readings`), then package_hash (S6-HASH-08) and the
    receipt computed again under them."""
    if audit_out is not None:
        raise ValueError("an assembly record states the pinned package_hash only (INT-03)")
    buffer = io.BytesIO()
    pinned = replace(
        readings,
        package_form=PINNED.package_form,
        package_fields=PINNED.package_fields,
        score_hashed=PINNED.score_hashed,
    )
    outcome = write_result(request, Envelope(buffer), None, pinned)
    if "error" in outcome:
        envelope.error(outcome["error"])
        return outcome
    result = _loads(buffer.getvalue())
    package = result["package"]
    package["package_hash"] = package_hash_under(package, *_package_hashing(readings))
    receipt = result["receipt"]
    receipt["data"]["package_hash"] = package["package_hash"]
    envelope.whole({"package": package, "receipt": receipt})
    return {"receipt": receipt}


def memory_read_to(
    request: Any,
    stream: Sink,
    *,
    pretty: bool = False,
    audit_out: Rewindable | None = None,
    readings: Readings = PINNED,
) -> dict[str, Any]:
    """SPEC-006 `memory.read`, streamed: write the result envelope (INT-44) as JSON to `stream`.

    The bytes are those of ``orjson.dumps(memory_read(request))`` (``OPT_INDENT_2`` with
    `pretty`) followed by a newline, written as they are produced: memory stays bounded by
    max_items and the request, whatever the size of the stores.  Returns the envelope without
    the package: {"receipt": ...} or {"error": ...}.  Relative paths resolve against the
    current working directory (INT-45).  Never raises for a bad request or store, except for
    a store changed in place while the package was being written (see `write_result`).
    With `audit_out`, the assembly record (specs/audit.md) is written there as one JSON line.
    """
    return write_result(request, Envelope(stream, pretty=pretty), audit_out, readings)


def _loads(data: bytes) -> Any:
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError:  # an error naming a lone surrogate is written escaped
        return loads_request(data)


def read_package(request: Request) -> tuple[dict[str, Any], dict[str, Any]]:
    """Run a validated request; return (package, receipt).  Raises MemoryReadError."""
    buffer = io.BytesIO()
    try:
        _write_package(request, Envelope(buffer))
    except _Started as started:
        raise started.error from None
    result = _loads(buffer.getvalue())
    return result["package"], result["receipt"]


def memory_read(
    request: Any, *, audit: bool = False, readings: Readings = PINNED
) -> dict[str, Any]:
    """SPEC-006 `memory.read`: the result envelope {package, receipt} or {error} (INT-44).

    Relative store and snapshot paths resolve against the current working directory
    (INT-45).  Never raises for a bad request or store: those are structured errors.
    With `audit=True` the envelope also holds the SPEC-003 assembly record, ``audit``
    (specs/audit.md): {package, receipt, audit} or {error, audit}; package and receipt are
    unchanged. `readings` switches on executable alternative readings (``_readings.py``); the
    default is the register's pinned readings.
    """
    buffer = io.BytesIO()
    record = io.BytesIO() if audit else None
    try:
        write_result(request, Envelope(buffer), record, readings)
    except MemoryReadError as error:  # a store changed while it was being read
        result = {"error": error.to_json()}
    else:
        result = _loads(buffer.getvalue())
    if record is not None:
        result["audit"] = _loads(record.getvalue())
    return result
