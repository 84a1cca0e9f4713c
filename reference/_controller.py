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
from collections.abc import Iterator
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
    Audit,
    Budget,
    assemble,
    package_hash,
    package_hash_under,
)
from reference._paths import STORE_LISTS
from reference._query import QUERY_RAW, SUPPLIED_TERMS, TERM_LENGTHS, derive_terms, query_hash
from reference._reader import LINE_BREAKS, STORE_CHECKS, close_stores
from reference._readings import Readings
from reference._records import RECORD_TIMESTAMPS, RecordHashing, line_rules
from reference._request import INTEGERS, Request, validate_request
from reference._request_json import loads_request
from reference._scoring import TAG_BONUS, Scorer
from reference._selection import INVALID_RECORD
from reference._text import WHITESPACE, TextRules, text_rules
from reference._timestamps import PARSERS
from reference._trust import SnapshotIdentity, load_trust_filter

#: The register's pinned readings (every default).
PINNED: Final = Readings()

__all__ = ["loads_request", "memory_read", "memory_read_to", "read_package", "write_result"]


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
    return RecordHashing(
        form=FORMS[readings.record_form],
        numbers="exact" if exact else readings.numbers,
        preimage=readings.record_preimage,
        strip=WHITESPACE[readings.whitespace].strip,  # INT-05
        spec005_hash=readings.spec005_hash == "record-hash",
    )


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
    return Scorer(
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
    )


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
            max_items_reason=readings.max_items_reason,
        )
        normalize = _text(readings).normalize  # INT-05, INT-06
        raw = QUERY_RAW[readings.query_raw](request.query, normalize)  # INT-11
        query = {"raw": raw, "query_hash": query_hash(request.query, normalize)}
        scorer = _scorer(request, readings)
        lines = line_rules(  # INT-14, INT-15, INT-16, INT-18
            readings.line_ends,
            readings.json_text,
            readings.member_names,
            readings.depth_limit,
            readings.line_limit,
        )
        audit = None
        if writer is not None:
            audit = _audit_parameters(request, scorer, read, budget, writer)
        try:
            with _gc_paused():
                return assemble(stores, scorer, trust, budget, query, envelope, audit, lines)
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
    if readings.dropped_order != "read" or readings.invalid_entries != "listed":
        return _rewritten(request, envelope, audit_out, readings)
    writer = AuditWriter(audit_out, request) if audit_out is not None else None
    try:
        valid = validate_request(
            request,
            INTEGERS[readings.integers],  # INT-41
            PARSERS[readings.timestamps],  # INT-20
            readings.recency,  # INT-36
            _text(readings).normalize,  # INT-05, INT-06
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


#: INT-28: how the dropped entries of a finished package are ordered (read order is the
#: streaming path's own; a stable sort keeps read order inside each group).
DROPPED_ORDERS: Final = {"by-reason": lambda entry: entry["reason"]}


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
    """INT-19's and INT-28's alternatives, on the plain path: the package assembled whole with
    the pinned dropped entries in read order, its dropped entries rewritten (INT-19) and
    reordered (INT-28), package_hash (S6-HASH-08) and the receipt computed again."""
    if audit_out is not None:
        raise ValueError("an assembly record lists pinned dropped entries only (INT-19, INT-28)")
    buffer = io.BytesIO()
    pinned = replace(readings, dropped_order="read", invalid_entries="listed")
    outcome = write_result(request, Envelope(buffer), None, pinned)
    if "error" in outcome:
        envelope.error(outcome["error"])
        return outcome
    result = _loads(buffer.getvalue())
    package = result["package"]
    dropped = package["selection"]["dropped"]
    if readings.invalid_entries != "listed":
        rewrite = INVALID_ENTRIES[readings.invalid_entries]
        dropped = [entry for entry in map(rewrite, dropped) if entry is not None]
    if readings.dropped_order != "read":
        dropped = sorted(dropped, key=DROPPED_ORDERS[readings.dropped_order])
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
