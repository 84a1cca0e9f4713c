"""Independent oracle for SPEC-006 ``memory.read`` (contract phase6-v1); build tooling only.

Written from specs/seeds/SPEC-006.txt, specs/interpretations.toml (INT-xx) and specs/errors.md
only, never from the reference implementation, so that the vector generator can confirm each
expected result a second time. Clarity beats speed: every spec step is one small function with
the text it implements quoted in its docstring or comments.

Shared by construction (imported from :mod:`conformance.readings`, the one definition the
property model, the strategies and the store checker also use): whitespace, case, terms,
timestamps, JSON text rules, record schema and record_hash, request checks, store paths and
trust snapshots. Independent on purpose (computed here and nowhere else in the kit): the
recency weight with an exact ``pow`` (mpmath), scores, the tie-break order, selection under the
budget, excerpts and the package with its hash.

Where the spec and the register still leave a choice that a request can reach, the oracle raises
:class:`OracleUndefined` instead of guessing (callers must not turn such inputs into vectors).

Alternative readings: ``oracle_read(request, root, readings=frozenset({"INT-08/verbatim"}))``
follows the named executable alternatives of the register instead of the pinned readings. Each
is written here from its register entry's text (``alternatives[i]`` of the entry, the index the
entry's ``executable`` table gives), not from the reference: :data:`ALTERNATIVES` says which
value of :class:`Choices` each one sets, and the step the reading belongs to takes that value.
Readings held by :mod:`conformance.readings` (INT-05, INT-07, INT-08, INT-20, INT-36, INT-39,
INT-41) are parameters of those shared functions; the others (INT-04, INT-27, INT-28, INT-38)
are computed here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path
from typing import Any, Final

from conformance.readings import (
    CLAUSE_OF_ERROR,
    MAX_DEPTH,
    SAFE_INT,
    WHITE_SPACE,
    CheckOrder,
    ClassificationCase,
    IntReading,
    MaxItemsReading,
    MembersReading,
    Options,
    RecencyReading,
    RequestError,
    SnapshotText,
    SuppliedTerms,
    TermLength,
    TrustMatch,
    TsGrammar,
    Whitespace,
    canonical,
    check_request,
    derive_terms,
    is_blank,
    is_denied,
    normalize_path,
    normalize_text,
    parse_json_text,
    parse_ts,
    read_line,
    read_stores,
    read_trust_snapshot,
    record_hash,
    require_unicode,
    sha256_hex,
    split_lines,
    split_ws,
    strip_ws,
    supplied_terms,
)
from conformance.readings import Undecided as OracleUndefined

__all__ = [
    "ALTERNATIVES",
    "CLAUSE_OF_ERROR",
    "CONTROLLER_VERSION",
    "MAX_DEPTH",
    "SAFE_INT",
    "WHITE_SPACE",
    "Choices",
    "Options",
    "OracleUndefined",
    "RequestError",
    "UnknownAlternative",
    "canonical",
    "check_request",
    "derive_terms",
    "is_blank",
    "is_denied",
    "make_excerpt",
    "normalize_path",
    "normalize_text",
    "oracle_read",
    "order_key",
    "parse_json_text",
    "parse_ts",
    "platform_pow_half",
    "pow_half",
    "read_candidates",
    "read_line",
    "read_snapshot",
    "read_stores",
    "read_trust_snapshot",
    "recency_bonus",
    "record_hash",
    "score",
    "select",
    "sha256_hex",
    "split_lines",
    "split_ws",
    "strip_ws",
    "supplied_terms",
]

CONTROLLER_VERSION = "phase6-v1"
NS_PER_DAY = 86_400 * 10**9


# ------------------------------------------------------------------------------ readings


class UnknownAlternative(ValueError):
    """A reading ID the oracle does not implement (not a key of :data:`ALTERNATIVES`), or two
    alternatives of one register entry."""


def pow_half(exponent: float) -> float:
    """INT-04: weight = pow(0.5, exponent), which MUST be the correctly rounded double.

    Platform pow is not correctly rounded (glibc misses ~0.1% of exponents, V8 ~10%), so the
    oracle evaluates 2**-exponent with mpmath at 80 digits and rounds once to a double.
    """
    import mpmath  # the generator's dependency group; only recency needs it

    with mpmath.workdps(80):
        return float(mpmath.power(2, -mpmath.mpf(exponent)))


def platform_pow_half(exponent: float) -> float:
    """INT-04/platform-pow: "Use the platform pow" (this interpreter's libm ``pow``)."""
    weight: float = 0.5**exponent
    return weight


@dataclass(frozen=True)
class Choices:
    """The readings one oracle run follows, as the values its steps take; every default is the
    register's pinned reading."""

    # -- canonical JSON, hashing and numbers (INT-01..04, INT-17)
    weight: Callable[[float], float] = pow_half  # INT-04: pow(0.5, exponent)

    # -- text, query terms, matching and excerpts (INT-05..11, INT-31, INT-33)
    whitespace: Whitespace = "white-space"  # INT-05: trim, collapse, split, strip
    term_length: TermLength = "code-points"  # INT-07: a derived term's length
    terms: SuppliedTerms = "normalized"  # INT-08: supplied query_terms

    # -- store paths, the JSONL reader and invalid lines (INT-12..16, INT-18, INT-19)

    # -- records, timestamps, tags and recency age (INT-20..25, INT-35)
    ts_grammar: TsGrammar = "profile"  # INT-20: valid ts_utc and now_utc

    # -- request, selection, dropped and trust (INT-26..30, INT-34, INT-36..46)
    overflow: str = "stop"  # INT-26: at a candidate that does not fit the budget
    max_items_reason: str | None = "max_items_reached"  # INT-27: left out by max_items
    dropped_order: str = "read"  # INT-28: the order of dropped
    score_0: str = "selectable"  # INT-29: candidates with score 0
    max_items: MaxItemsReading = "at-least-1"  # INT-30: the values max_items takes
    budget_per_item: str = "effective"  # INT-30: the per_item the package reports
    store_priority: str = "none"  # INT-34: SPEC-003's source priority
    recency: RecencyReading = "always"  # INT-36: the recency members validated
    snapshot_text: SnapshotText = "document"  # INT-38: the snapshot file's shape
    missing_snapshot: str = "error"  # INT-38: a trust_snapshot_path with nothing there
    empty_id_matches: bool = True  # INT-38: an entry's memory_id ""
    trust_match: TrustMatch = "either"  # INT-39: an entry naming both keys
    classification_case: ClassificationCase = "exact"  # INT-39: classifications compared
    trust_timing: str = "before-selection"  # INT-39: when denied candidates are removed
    order: CheckOrder = "spec"  # INT-40: the order of the request checks
    ints: IntReading = "integral"  # INT-41: a request int
    members: MembersReading = "strict"  # INT-42: unknown and null request members
    receipt_paths: str = "normalized"  # INT-43: the receipt's store_paths

    @classmethod
    def of(cls, ids: frozenset[str]) -> Choices:
        """The pinned readings with the alternatives ``ids`` switched on."""
        choices = cls()
        entries: dict[str, str] = {}
        for alternative_id in sorted(ids):
            if alternative_id not in ALTERNATIVES:
                known = ", ".join(sorted(ALTERNATIVES))
                raise UnknownAlternative(f"no alternative {alternative_id!r} (known: {known})")
            entry = alternative_id.split("/")[0]
            if entry in entries:
                raise UnknownAlternative(
                    f"{entries[entry]!r} and {alternative_id!r} are two readings of {entry}"
                )
            entries[entry] = alternative_id
            choices = replace(choices, **ALTERNATIVES[alternative_id])
        return choices


#: The register's executable alternatives (specs/interpretations.toml, ``executable``), each
#: with the register's words for it and the :class:`Choices` values it sets.
ALTERNATIVES: Final[dict[str, dict[str, Any]]] = {
    # -- canonical JSON, hashing and numbers (INT-01..04, INT-17)
    # INT-04 alternatives[0]: "Use the platform pow (then package_hash differs between runtimes
    # for ~10% of recency inputs)."
    "INT-04/platform-pow": {"weight": platform_pow_half},
    # -- text, query terms, matching and excerpts (INT-05..11, INT-31, INT-33)
    # INT-05 alternatives[1]: "Python str.split() / str.strip() semantics."
    "INT-05/python": {"whitespace": "python"},
    # INT-05 alternatives[2]: "ECMAScript String.prototype.trim and /\s+/."
    "INT-05/ecmascript": {"whitespace": "ecmascript"},
    # INT-07 alternatives[0]: "UTF-16 code units (JavaScript .length)."
    "INT-07/utf-16-units": {"term_length": "utf-16-units"},
    # INT-08 alternatives[0]: "Use supplied terms verbatim."
    "INT-08/verbatim": {"terms": "verbatim"},
    # -- store paths, the JSONL reader and invalid lines (INT-12..16, INT-18, INT-19)
    # -- records, timestamps, tags and recency age (INT-20..25, INT-35)
    # INT-20 alternatives[4]: "Accept what RFC 3339 section 5.6 allows for UTC beyond the
    # profile, and nothing more: a lower-case 't' and 'z', and the offset '-00:00' (normalized
    # as INT-21 says)."
    "INT-20/case-and-minus-zero": {"ts_grammar": "case-and-minus-zero"},
    # -- request, selection, dropped and trust (INT-26..30, INT-34, INT-36..46)
    # INT-26 alternatives[0]: "Skip the over-budget candidate and continue (knapsack-like first
    # fit)."
    "INT-26/skip-over-budget-candidate": {"overflow": "skip"},
    # INT-27 alternatives[0]: "Reuse budget_exhausted."
    "INT-27/budget-exhausted": {"max_items_reason": "budget_exhausted"},
    # INT-27 alternatives[1]: "Do not list them in dropped."
    "INT-27/do-list-dropped": {"max_items_reason": None},
    # INT-28 alternatives[0]: "Rank order."
    "INT-28/rank-order": {"dropped_order": "rank"},
    # INT-28 alternatives[1]: "Grouped by reason."
    "INT-28/by-reason": {"dropped_order": "by-reason"},
    # INT-29 alternatives[0]: "Drop score-0 candidates with a 'no_match' reason."
    "INT-29/drop-score-0-candidates": {"score_0": "no_match"},
    # INT-30 alternatives[0..3]: "Reject max_items > 50.", "Clamp max_items to 50.",
    # "max_items = 0 selects nothing.", "Echo the requested per_item value."
    "INT-30/reject-max-items-50": {"max_items": "reject-over-50"},
    "INT-30/clamp-max-items-50": {"max_items": "clamp-to-50"},
    "INT-30/max-items-0-selects": {"max_items": "zero-allowed"},
    "INT-30/echo-requested-item-value": {"budget_per_item": "requested"},
    # INT-34 alternatives[0]: "Rank episodic stores first (SPEC-003), e.g. by file name."
    "INT-34/rank-episodic-stores-first": {"store_priority": "episodic-first"},
    # INT-36 alternatives[0]: "Validate half-life only when recency is enabled."
    "INT-36/half-life-when-enabled": {"recency": "half-life-when-enabled"},
    # INT-36 alternatives[1]: "Ignore an invalid now_utc (disable recency)."
    "INT-36/ignore-invalid-now": {"recency": "ignore-invalid-now"},
    # INT-38 alternatives[0]: "A JSONL list of classification events."
    "INT-38/jsonl-list-classification-events": {"snapshot_text": "jsonl-events"},
    # INT-38 alternatives[1]: "Ignore a missing snapshot (filtering disabled)."
    "INT-38/ignore-missing": {"missing_snapshot": "no-filter"},
    # INT-38 alternatives[2]: "An entry memory_id \"\" matches nothing (the reading before INT-22
    # accepted empty memory_ids)."
    "INT-38/entry-memory-id-matches": {"empty_id_matches": False},
    # INT-39 alternatives[0]: "An entry naming both keys matches only a candidate equal on both
    # (the reading before the review)."
    "INT-39/both-keys": {"trust_match": "both"},
    # INT-39 alternatives[1]: "Case-insensitive classification match."
    "INT-39/case-insensitive-classification-match": {"classification_case": "case-insensitive"},
    # INT-39 alternatives[2]: "Trust-check after selection."
    "INT-39/trust-check-after-selection": {"trust_timing": "after-selection"},
    # INT-41 alternatives[0]: "Reject any number written with a fraction or exponent."
    "INT-41/written-integer": {"ints": "written-integer"},
    # INT-40 alternatives[1]: "Precedence by JSON member order in the request text."
    "INT-40/precedence-json-member-order": {"order": "text"},
    # INT-41 alternatives[1]: "Coerce numeric strings."
    "INT-41/coerce-numeric-strings": {"ints": "coerce-numeric-strings"},
    # INT-42 alternatives[0], [1]: "Ignore unknown members.", "Treat null as absent."
    "INT-42/ignore-unknown-members": {"members": "ignore-unknown"},
    "INT-42/treat-null-absent": {"members": "null-absent"},
    # INT-42 alternatives[2]: "Ignore unknown members and treat null as absent (both)."
    "INT-42/ignore-unknown-and-null-absent": {"members": "lenient"},
    # INT-43 alternatives[0]: "store_paths as provided."
    "INT-43/store-paths-provided": {"receipt_paths": "provided"},
}


def read_snapshot(
    snapshot_path: str, root: Path, missing: str = "error", text: SnapshotText = "document"
) -> list[dict[str, Any]] | None:
    """errors.md 11-12 (INT-38); ``missing="no-filter"`` is INT-38/ignore-missing: a path that
    does not exist (trust_snapshot_not_found) disables filtering (None) instead of failing."""
    try:
        return read_trust_snapshot(snapshot_path, root, text)
    except RequestError as err:
        if missing == "no-filter" and err.code == "trust_snapshot_not_found":
            return None
        raise


# ------------------------------------------------------------------------------- scoring


def recency_bonus(
    now: tuple[int, int, str],
    ts: tuple[int, int],
    half_life: int,
    weight: Callable[[float], float] = pow_half,
) -> float:
    """'age_days = (now_utc - ts_utc) in days'; 'weight = 0.5 ** (age_days / half_life)'.

    'recency_bonus = weight (bounded [0,1])' (INT-35: clamped). ``weight`` is the INT-04 reading
    of ``pow(0.5, exponent)``.
    """
    elapsed_ns = (now[0] - ts[0]) * 10**9 + (now[1] - ts[1])
    age_days = float(Fraction(elapsed_ns, NS_PER_DAY))  # INT-35: exact, rounded once
    exponent = age_days / half_life  # one rounding (INT-04)
    if exponent <= 0:
        return 1.0  # future (or same-instant) ts: weight >= 1, clamped to 1
    return min(1.0, max(0.0, weight(exponent)))


def score(
    record: dict[str, Any], terms: list[str], opts: Options, choices: Choices | None = None
) -> float:
    """'score = base + tag_bonus + recency_bonus', left to right in doubles (INT-04)."""
    choices = choices or Choices()
    text = normalize_text(record["text"], choices.whitespace)  # INT-09: 'normalized candidate text'
    base = sum(1 for t in terms if t in text)  # INT-10: terms, not occurrences
    tag_bonus = 0.0
    if opts.tag_overlap:  # 'overlap = count of query_terms that exactly match any candidate tag'
        tag_bonus = sum(1 for t in terms if t in record["tags"]) * 0.5  # 'overlap * 0.5'
    bonus = 0.0
    # 'Only allowed if now_utc is provided and candidate ts_utc is valid.' (INT-36)
    if opts.recency and opts.now is not None and "_instant" in record:
        bonus = recency_bonus(opts.now, record["_instant"], opts.half_life, choices.weight)
    return (float(base) + tag_bonus) + bonus


def order_key(cand: dict[str, Any]) -> tuple[float, tuple[int, int, int], str, str, str, int]:
    """TIE-BREAKING 1)-5) plus read order (INT-33)."""
    instant = cand.get("_instant")
    ts_key = (0, -instant[0], -instant[1]) if instant is not None else (1, 0, 0)
    return (
        -cand["score"],  # 1) score descending
        ts_key,  # 2) ts_utc descending (missing ts_utc sorts last)
        cand["store_path"],  # 3) store_path ascending (code points)
        cand["memory_id"],  # 4) memory_id ascending
        cand["record_hash"],  # 5) record_hash ascending
        cand["read_index"],
    )


# --------------------------------------------------------------------------- truncation


def make_excerpt(text: str, per_item: int, ws: Whitespace = "white-space") -> tuple[str, int]:
    """TRUNCATION: strip, cut to per_item * 4 UTF-8 bytes at a code-point boundary."""
    data = strip_ws(text, ws).encode("utf-8")  # INT-31: White_Space strip only (INT-05: ws)
    max_bytes = per_item * 4  # 'Determine max_bytes = per_item_max_excerpt_tokens * 4'
    if len(data) > max_bytes:
        cut = max_bytes
        while cut > 0 and (data[cut] & 0xC0) == 0x80:  # 'cut back to last valid boundary'
            cut -= 1
        data = data[:cut]  # INT-31: not stripped again
    excerpt = data.decode("utf-8", errors="strict")
    return excerpt, -(-len(data) // 4)  # 'excerpt_tokens = ceil(utf8_byte_length(excerpt) / 4)'


# ------------------------------------------------------------------------------ memory.read


def read_candidates(
    stores: list[tuple[str, bytes]],
    entries: list[dict[str, Any]] | None,
    deny: list[str],
    choices: Choices | None = None,
) -> list[dict[str, Any]]:
    """READER: every record line in read order (INT-28), invalid and trust-denied ones marked."""
    choices = choices or Choices()
    lines: list[dict[str, Any]] = []
    for store_path, data in stores:
        for raw in split_lines(data):  # '2) within each store, read in file order (line order)'
            if is_blank(raw):
                continue
            cand = read_line(raw, choices.ts_grammar)  # INT-20
            cand["store_path"] = store_path
            cand["read_index"] = len(lines)
            if "invalid" in cand:  # INT-19
                cand.update(memory_id=cand["invalid"], record_hash=sha256_hex(raw))
                cand["fate"] = "invalid_record_schema"
            elif entries is not None and is_denied(
                cand,
                entries,
                deny,
                choices.trust_match,
                choices.classification_case,
                choices.empty_id_matches,
            ):
                cand["fate"] = "trust_denied"  # removed before selection (INT-39)
            lines.append(cand)
    return lines


def select(
    ranked: list[dict[str, Any]], opts: Options, choices: Choices | None = None
) -> tuple[list[dict[str, Any]], int]:
    """TRUNCATION 'Global selection under budget' with the TOKEN BUDGETING stop rule.

    'Selection MUST stop when: used_excerpt_tokens would exceed max_excerpt_tokens, OR selected
    count reaches max_items' (INT-26: stop, do not skip; INT-27: max_items checked first, its
    drop reason ``choices.max_items_reason``).
    """
    choices = choices or Choices()
    per_item = min(opts.per_item, opts.max_tokens)  # TRUNCATION / INT-30
    used = 0
    selected: list[dict[str, Any]] = []
    stopped = False
    stop_reason: str | None = None  # None: INT-27/do-list-dropped, the fate of an unlisted one
    for cand in ranked:
        if not stopped and len(selected) >= opts.max_items:
            stopped, stop_reason = True, choices.max_items_reason
        if not stopped:
            excerpt, tokens = make_excerpt(cand["text"], per_item, choices.whitespace)
            if used + tokens <= opts.max_tokens:  # 'if used + excerpt_tokens <= max => select'
                used += tokens
                cand["fate"] = "selected"
                keys = ("memory_id", "record_hash", "store_path", "score")
                selected.append({k: cand[k] for k in keys} | {"excerpt": excerpt})
                selected[-1]["excerpt_tokens"] = tokens
                continue
            if choices.overflow == "skip":
                # INT-26/skip-over-budget-candidate: this one is dropped, the next one is tried
                cand["fate"] = "budget_exhausted"
                continue
            stopped, stop_reason = True, "budget_exhausted"  # 'else => drop with reason ...'
        cand["fate"] = stop_reason
    return selected, used


def oracle_read(
    request: object, root: Path, readings: frozenset[str] = frozenset()
) -> dict[str, Any]:
    """SPEC-006 memory.read: the result envelope (INT-44), under the pinned readings or with
    the executable alternatives ``readings`` (IDs of :data:`ALTERNATIVES`) switched on."""
    choices = Choices.of(readings)
    try:
        opts = check_request(
            request,
            ints=choices.ints,
            ts_grammar=choices.ts_grammar,
            recency=choices.recency,
            whitespace=choices.whitespace,
            members=choices.members,
            max_items=choices.max_items,
            order=choices.order,
        )
        stores = read_stores(opts.store_paths, root)  # errors.md 9-10
        entries = None
        if opts.snapshot is not None:  # 'If no snapshot provided, trust filtering is disabled.'
            entries = read_snapshot(
                opts.snapshot, root, choices.missing_snapshot, choices.snapshot_text
            )
    except RequestError as err:
        return err.envelope()

    require_unicode(opts.query, "query")
    normalized_query = normalize_text(opts.query, choices.whitespace)  # INT-05
    query_hash = sha256_hex(normalized_query.encode("utf-8"))  # INT-11
    supplied = opts.query_terms
    if supplied is None:
        terms = derive_terms(opts.query, choices.term_length, choices.whitespace)
    else:
        terms = supplied_terms(supplied, choices.terms, choices.whitespace)

    after = choices.trust_timing == "after-selection"  # INT-39/trust-check-after-selection
    lines = read_candidates(stores, None if after else entries, opts.deny, choices)
    ranked = [c for c in lines if "fate" not in c]
    for cand in ranked:
        cand["score"] = score(cand, terms, opts, choices)
    ranked.sort(key=order_key)  # full sort on the composite key
    if choices.store_priority == "episodic-first":
        # INT-34/rank-episodic-stores-first: a store whose file name says "episodic" (any ASCII
        # case) comes first; the five SPEC-006 keys order each part (a stable sort)
        ranked.sort(key=lambda c: "episodic" not in c["store_path"].split("/")[-1].lower())
    if choices.score_0 == "no_match":
        # INT-29/drop-score-0-candidates: never offered to selection
        for cand in ranked:
            if cand["score"] == 0:
                cand["fate"] = "no_match"
        ranked = [c for c in ranked if c["score"] != 0]
    selected, used = select(ranked, opts, choices)
    if after and entries is not None:
        # INT-39/trust-check-after-selection: the deny check runs on what selection chose; a
        # denied one leaves the selection (trust_denied) and its tokens are no longer used
        chosen = [c for c in ranked if c["fate"] == "selected"]  # the order of `selected`
        kept = []
        for cand, item in zip(chosen, selected, strict=True):
            denied = is_denied(
                cand,
                entries,
                opts.deny,
                choices.trust_match,
                choices.classification_case,
                choices.empty_id_matches,
            )
            if denied:
                cand["fate"] = "trust_denied"
            else:
                kept.append(item)
        selected = kept
        used = sum(item["excerpt_tokens"] for item in selected)

    def entry(c: dict[str, Any]) -> dict[str, Any]:
        return {k: c[k] for k in ("memory_id", "record_hash", "store_path")} | {"reason": c["fate"]}

    # INT-27/do-list-dropped: a candidate left out by max_items (fate None) is not listed
    dropped = [entry(c) for c in lines if c["fate"] not in ("selected", None)]  # INT-28: read order
    if choices.dropped_order == "rank":
        # INT-28/rank-order: "Rank order." The candidates in the order selection visited them;
        # invalid and trust-denied lines (and INT-29's no_match ones) were never ranked: after
        # them, in read order.
        in_rank = [c for c in ranked if c["fate"] not in ("selected", None)]
        ranked_ids = {id(c) for c in ranked}
        never = [c for c in lines if id(c) not in ranked_ids and c["fate"] is not None]
        dropped = [entry(c) for c in in_rank + never]
    if choices.dropped_order == "by-reason":
        # INT-28/by-reason: "Grouped by reason." Groups in code-point order of the reason, read
        # order inside each group (a stable sort of the read-order list).
        dropped.sort(key=lambda entry: entry["reason"])
    package: dict[str, Any] = {
        "query": {"raw": opts.query, "query_hash": query_hash},
        "budget": {  # INT-32
            "max_excerpt_tokens": opts.max_tokens,
            "used_excerpt_tokens": used,
            "remaining_excerpt_tokens": max(0, opts.max_tokens - used),
            # INT-30: the effective per_item, or (INT-30/echo-requested-item-value) the value
            # asked for (max_excerpt_tokens when absent: 'defaults to max_excerpt_tokens')
            "per_item_max_excerpt_tokens": opts.per_item
            if choices.budget_per_item == "requested"
            else min(opts.per_item, opts.max_tokens),
            "max_items": opts.max_items,
        },
        "selection": {"selected": selected, "dropped": dropped},
        "controller_version": CONTROLLER_VERSION,
    }
    package["package_hash"] = sha256_hex(canonical(package))  # INT-03: all but itself
    data = {
        "query_hash": query_hash,
        # INT-43: normalized, deduped, sorted; or (INT-43/store-paths-provided) as the request
        # wrote them
        "store_paths": list(opts.store_paths)
        if choices.receipt_paths == "provided"
        else [path for path, _ in stores],
        "selected_count": len(selected),
        "package_hash": package["package_hash"],
    }
    return {"package": package, "receipt": {"kind": "memory.read", "data": data}}
