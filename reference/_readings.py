"""Readings: the pinned answer to an ambiguous clause and its executable alternatives, as values.

Every entry of ``specs/interpretations.toml`` pins one reading and lists the alternatives an
honest implementer could take. An alternative listed here is *executable*: it has a stable ID
(``INT-08/verbatim``: the entry, a slash, a name), and :class:`Readings` holds, for each entry
that has one, the value the stage it belongs to consults. The defaults are the pinned readings,
so ``memory_read(request)`` and ``memory_read(request, readings=Readings())`` are the same bytes.

The stages take the value, not a flag to branch on in several places (STYLE: "an alternative
reading is a value the code takes"). Fields and alternatives are grouped by the stage that
consults them, in register order within a group; each field's comment names its entry.
``specs/readings-coverage.md`` lists every alternative with the vectors it changes.

``INT-28/by-reason`` changes only the order of a finished package: the streaming path writes
the pinned order, and under this reading the package is assembled whole, reordered and hashed
again (the plain path; ``memory_read_to`` then buffers).

The harness certifies against these by running the reference under an alternative and
comparing what it produces with what an implementation produced (``conformance.run``,
attribution): a failure one of them reproduces is that reading, shown by its ID.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from reference._alternatives import Alternative, UnknownReading, applied, followed
from reference._selection import BUDGET_EXHAUSTED, MAX_ITEMS_REACHED

__all__ = ["ALTERNATIVES", "Alternative", "Readings", "UnknownReading"]


@dataclass(frozen=True)
class Readings:
    """The readings one run follows; every default is the register's pinned reading."""

    # -- canonical JSON, hashing and numbers (INT-01..04, INT-17)
    #: INT-04: the recency weight is the correctly rounded 2**-exponent (pinned), or the
    #: platform's pow.
    correctly_rounded_pow: bool = True

    # -- text, query terms, matching and excerpts (INT-05..11, INT-31, INT-33)
    #: INT-05: whitespace is Unicode "white-space", or what "python"'s str.split()/strip()
    #: or "ecmascript"'s trim() and /\s/ treat as whitespace.
    whitespace: str = "white-space"
    #: INT-07: a derived term's length in "code-points", or "utf-16-units" (JavaScript).
    term_length: str = "code-points"
    #: INT-08: supplied scoring.query_terms are "normalized" (pinned) or used "verbatim".
    query_terms: str = "normalized"

    # -- store paths, the JSONL reader and invalid lines (INT-12..16, INT-18, INT-19)

    # -- records, timestamps, tags and recency age (INT-20..25, INT-35)
    #: INT-20: which strings are valid UTC timestamps (a key of ``_timestamps.PARSERS``).
    timestamps: str = "profile"

    # -- request, selection, dropped and trust (INT-26..30, INT-34, INT-36..46)
    #: INT-26: at a candidate that would overflow the budget, selection "stop"s or "skip"s it.
    budget_overflow: str = "stop"
    #: INT-27: the drop reason of candidates left out by max_items (None: not listed).
    max_items_reason: str | None = MAX_ITEMS_REACHED
    #: INT-28: dropped in "read" order, or grouped "by-reason", or in "rank" order.
    dropped_order: str = "read"
    #: INT-30: budget.max_items is any int "at-least-1", or "reject-over-50", "clamp-to-50",
    #: "zero-allowed" (a key of ``_request.MAX_ITEMS``).
    max_items: str = "at-least-1"
    #: INT-30: the package's budget.per_item_max_excerpt_tokens is the "effective" value, or
    #: the "requested" one.
    per_item_shown: str = "effective"
    #: INT-29: score-0 candidates are selectable (True), or dropped no_match (False).
    score_0_selectable: bool = True
    #: INT-34: stores carry no priority ("none"), or "episodic-first" (by file name).
    store_priority: str = "none"
    #: INT-36: the recency members are "always" validated, or the half-life only when recency
    #: is enabled ("half-life-when-enabled"), or an invalid now_utc disables recency
    #: ("ignore-invalid-now").
    recency: str = "always"
    #: INT-38: a trust snapshot file is one phase6-trust/1 "document", or "jsonl-events".
    snapshot_text: str = "document"
    #: INT-38: a trust snapshot path with nothing there is an "error", or "no-filter".
    missing_snapshot: str = "error"
    #: INT-38: an entry's memory_id "" names the records whose memory_id is "" (True), or
    #: matches nothing (False).
    empty_id_matches: bool = True
    #: INT-39: an entry naming both keys matches a candidate equal on "either", or "both".
    trust_match: str = "either"
    #: INT-39: classifications compared "exact" or "case-insensitive".
    classification_case: str = "exact"
    #: INT-39: denied candidates are removed before selection (False), or after (True).
    trust_after_selection: bool = False
    #: INT-40: a request's members are checked in "spec" order, or in the request's "text"
    #: order (the first failure wins).
    check_order: str = "spec"
    #: INT-41: an int is any "integral" number, or only a "written-integer" (no 10.0, 1e1), or
    #: also a string holding a number ("coerce-numeric-strings").
    integers: str = "integral"
    #: INT-42: request members "strict", or "ignore-unknown", or "null-absent", or both
    #: ("lenient"; a key of ``_request.PRESENT``).
    members: str = "strict"
    #: INT-43: the receipt's store_paths "normalized" (sorted, deduplicated), or "provided".
    receipt_paths: str = "normalized"

    @classmethod
    def of(cls, ids: list[str] | tuple[str, ...]) -> Readings:
        """The pinned readings with the alternatives ``ids`` switched on (UnknownReading for
        an ID that is not executable, ValueError for two alternatives of one entry)."""
        readings, _ = applied(cls(), ids, ALTERNATIVES)
        return readings

    @property
    def ids(self) -> tuple[str, ...]:
        """The alternatives this value follows (empty for the pinned readings)."""
        return tuple(followed(self, Readings(), ALTERNATIVES))


#: Every executable alternative, by ID. ``index`` points into the entry's ``alternatives``.
ALTERNATIVES: Final[dict[str, Alternative]] = {
    alternative.id: alternative
    for alternative in (
        # -- canonical JSON, hashing and numbers (INT-01..04, INT-17)
        Alternative(
            "INT-04/platform-pow",
            0,
            "recency weight = the platform's pow(0.5, exponent), not the correctly rounded "
            "2**-exponent",
            {"correctly_rounded_pow": False},
        ),
        # -- text, query terms, matching and excerpts (INT-05..11, INT-31, INT-33)
        Alternative(
            "INT-05/python",
            1,
            "whitespace is what Python's str.split()/str.strip() use: White_Space and "
            "U+001C..U+001F",
            {"whitespace": "python"},
        ),
        Alternative(
            "INT-05/ecmascript",
            2,
            "whitespace is what ECMAScript's String.prototype.trim and /\\s/ use: White_Space "
            "without U+0085, with U+FEFF",
            {"whitespace": "ecmascript"},
        ),
        Alternative(
            "INT-07/utf-16-units",
            0,
            "a derived term's length counts UTF-16 code units (JavaScript's .length), so one "
            "non-BMP character is long enough",
            {"term_length": "utf-16-units"},
        ),
        Alternative(
            "INT-08/verbatim",
            0,
            "supplied query_terms used as given (not trimmed, collapsed or lowercased); only "
            "exact duplicates removed",
            {"query_terms": "verbatim"},
        ),
        # -- store paths, the JSONL reader and invalid lines (INT-12..16, INT-18, INT-19)
        # -- records, timestamps, tags and recency age (INT-20..25, INT-35)
        Alternative(
            "INT-20/case-and-minus-zero",
            4,
            "ts_utc and now_utc may also use a lower-case 't'/'z' or the offset '-00:00'",
            {"timestamps": "case-and-minus-zero"},
        ),
        # -- request, selection, dropped and trust (INT-26..30, INT-34, INT-36..46)
        Alternative(
            "INT-26/skip-over-budget-candidate",
            0,
            "a candidate that would overflow the budget is dropped budget_exhausted and "
            "selection goes on with the next (first fit); max_items still stops it",
            {"budget_overflow": "skip"},
        ),
        Alternative(
            "INT-27/budget-exhausted",
            0,
            "candidates left out by max_items are dropped as budget_exhausted",
            {"max_items_reason": BUDGET_EXHAUSTED},
        ),
        Alternative(
            "INT-27/do-list-dropped",
            1,
            "candidates left out by max_items are not listed in dropped at all",
            {"max_items_reason": None},
        ),
        Alternative(
            "INT-28/rank-order",
            0,
            "dropped candidates in rank order, then the lines that never were candidates "
            "(invalid_record_schema, trust_denied) in read order",
            {"dropped_order": "rank"},
        ),
        Alternative(
            "INT-28/by-reason",
            1,
            "dropped grouped by reason (reasons in code-point order), each group in read order",
            {"dropped_order": "by-reason"},
        ),
        Alternative(
            "INT-29/drop-score-0-candidates",
            0,
            'score-0 candidates are never selected: dropped with reason "no_match", wherever '
            "selection stops",
            {"score_0_selectable": False},
        ),
        Alternative(
            "INT-30/reject-max-items-50",
            0,
            "budget.max_items above 50 is an error (invalid_budget at /budget/max_items)",
            {"max_items": "reject-over-50"},
        ),
        Alternative(
            "INT-30/clamp-max-items-50",
            1,
            "budget.max_items above 50 is used (and reported) as 50",
            {"max_items": "clamp-to-50"},
        ),
        Alternative(
            "INT-30/max-items-0-selects",
            2,
            "budget.max_items 0 is accepted and selects nothing (every candidate "
            "max_items_reached)",
            {"max_items": "zero-allowed"},
        ),
        Alternative(
            "INT-30/echo-requested-item-value",
            3,
            "the package's budget.per_item_max_excerpt_tokens is the requested (or defaulted) "
            "value, not min(per_item, max_excerpt_tokens); excerpts still use the min",
            {"per_item_shown": "requested"},
        ),
        Alternative(
            "INT-34/rank-episodic-stores-first",
            0,
            'candidates of stores whose file name contains "episodic" (ASCII case-insensitive) '
            "rank before all others, the SPEC-006 order kept within each group",
            {"store_priority": "episodic-first"},
        ),
        Alternative(
            "INT-36/half-life-when-enabled",
            0,
            "recency_half_life_days is validated only when enable_recency_weight is true",
            {"recency": "half-life-when-enabled"},
        ),
        Alternative(
            "INT-36/ignore-invalid-now",
            1,
            "an invalid now_utc disables recency instead of failing (invalid_now_utc)",
            {"recency": "ignore-invalid-now"},
        ),
        Alternative(
            "INT-38/jsonl-list-classification-events",
            0,
            "the trust snapshot is JSONL: one classification event (an entry: memory_id?, "
            "record_hash?, classification) per non-blank line",
            {"snapshot_text": "jsonl-events"},
        ),
        Alternative(
            "INT-38/ignore-missing",
            1,
            "a trust_snapshot_path with nothing there disables filtering instead of failing",
            {"missing_snapshot": "no-filter"},
        ),
        Alternative(
            "INT-38/entry-memory-id-matches",
            2,
            'a trust entry\'s memory_id "" matches no record (its record_hash, if any, still does)',
            {"empty_id_matches": False},
        ),
        Alternative(
            "INT-39/both-keys",
            0,
            "a trust entry naming memory_id and record_hash denies only a candidate equal on both",
            {"trust_match": "both"},
        ),
        Alternative(
            "INT-39/case-insensitive-classification-match",
            1,
            "an entry's classification matches a deny classification case-insensitively "
            "(both lower-cased)",
            {"classification_case": "case-insensitive"},
        ),
        Alternative(
            "INT-39/trust-check-after-selection",
            2,
            "denied candidates take part in selection (budget, max_items); a selected one the "
            "snapshot denies is then dropped trust_denied, and nothing takes its place",
            {"trust_after_selection": True},
        ),
        Alternative(
            "INT-40/precedence-json-member-order",
            1,
            "a request's members, at the top level and in each group, are checked in the order "
            "the request text writes them (absent required ones after them); the first failure "
            "wins",
            {"check_order": "text"},
        ),
        Alternative(
            "INT-41/written-integer",
            0,
            "a request int must be written without a fraction or exponent (10.0 is not an int)",
            {"integers": "written-integer"},
        ),
        Alternative(
            "INT-41/coerce-numeric-strings",
            1,
            'a request int may also be a string holding a JSON number ("10" is 10, "1e1" is 10)',
            {"integers": "coerce-numeric-strings"},
        ),
        Alternative(
            "INT-42/ignore-unknown-members",
            0,
            "request members the INPUT CONTRACT does not define are ignored, at the top level "
            "and in budget, scoring and trust_filter",
            {"members": "ignore-unknown"},
        ),
        Alternative(
            "INT-42/treat-null-absent",
            1,
            "a request member whose value is null is absent (its default applies; a required "
            "one is missing)",
            {"members": "null-absent"},
        ),
        Alternative(
            "INT-42/ignore-unknown-and-null-absent",
            2,
            "unknown request members are ignored and null members are absent, both (what Go's "
            "encoding/json and serde's derived Deserialize do by default)",
            {"members": "lenient"},
        ),
        Alternative(
            "INT-43/store-paths-provided",
            0,
            "the receipt's store_paths is the request's list as given (order and duplicates kept)",
            {"receipt_paths": "provided"},
        ),
    )
}
