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

``INT-28/by-reason`` changes only the order of a finished package, and INT-19's alternatives
only its invalid lines' dropped entries: the streaming path writes the pinned entries in read
order, and under these readings the package is assembled whole, rewritten and hashed again
(the plain path; ``memory_read_to`` then buffers).  The reader's readings (INT-12..INT-16,
INT-18) are values the stages take: store lists and checks are tables of functions
(``_paths.STORE_LISTS``, ``_reader.STORE_CHECKS``, ``_reader.LINE_BREAKS``), and a line's
readings a ``_records.LineRules`` the passes bind once per chunk, never a branch per line.

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
    #: INT-12: the stores read, in which order (a key of ``_paths.STORE_LISTS``).
    store_list: str = "unique-code-points"
    #: INT-13: how stores are checked before reading (a key of ``_reader.STORE_CHECKS``).
    store_checks: str = "sorted-fail"
    #: INT-14: blank lines and the CR of CRLF (a key of ``_records.LINE_ENDS``), and which
    #: bytes end a line (a key of ``_reader.LINE_BREAKS``).
    line_ends: str = "skip-blank-drop-cr"
    line_breaks: str = "lf"
    #: INT-15: which JSON texts a line may hold (a key of ``_records.JSON_TEXTS``).
    json_text: str = "rfc8259"
    #: INT-16: a member name twice in one object (a key of ``_records.MEMBER_NAMES``).
    member_names: str = "last-wins"
    #: INT-18: the nesting limit of a line (a key of ``_records.DEPTH_LIMITS``).
    depth_limit: str = "64"
    #: INT-19: the dropped entries of invalid lines are "listed" with memory_id "" or the
    #: string member, and the raw-line hash; or have memory_id/record_hash "null"; or are
    #: "omitted" (a key of ``_controller.INVALID_ENTRIES``).
    invalid_entries: str = "listed"

    # -- records, timestamps, tags and recency age (INT-20..25, INT-35)
    #: INT-20: which strings are valid UTC timestamps (a key of ``_timestamps.PARSERS``).
    timestamps: str = "profile"

    # -- request, selection, dropped and trust (INT-26..30, INT-34, INT-36..46)
    #: INT-27: the drop reason of candidates left out by max_items.
    max_items_reason: str = MAX_ITEMS_REACHED
    #: INT-28: dropped in "read" order, or grouped "by-reason".
    dropped_order: str = "read"
    #: INT-36: the recency members are "always" validated, or the half-life only when recency
    #: is enabled ("half-life-when-enabled"), or an invalid now_utc disables recency
    #: ("ignore-invalid-now").
    recency: str = "always"
    #: INT-38: a trust snapshot path with nothing there is an "error", or "no-filter".
    missing_snapshot: str = "error"
    #: INT-39: an entry naming both keys matches a candidate equal on "either", or "both".
    trust_match: str = "either"
    #: INT-41: an int is any "integral" number, or only a "written-integer" (no 10.0, 1e1).
    integers: str = "integral"

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
        Alternative(
            "INT-12/keep-duplicates-read-twice",
            1,
            "store_paths that normalize to the same path are all read, each time they are "
            "named (their records appear once per naming)",
            {"store_list": "keep-duplicates"},
        ),
        Alternative(
            "INT-12/sort-utf-16-code",
            2,
            "store paths compare by UTF-16 code units (JavaScript's sort() and <, Java's "
            "compareTo): in read order and in the store_path tie-break, a non-BMP character "
            "sorts before U+E000..U+FFFF",
            {"store_list": "unique-utf-16-units"},
        ),
        Alternative(
            "INT-13/skip-missing-stores-partial",
            0,
            "a store with nothing there is skipped (a package from the other stores, which "
            "the receipt lists); other store failures still fail the call",
            {"store_checks": "sorted-skip-missing"},
        ),
        Alternative(
            "INT-13/check-request-order",
            1,
            "stores checked in request order (the first failure in request order wins)",
            {"store_checks": "request-order-fail"},
        ),
        Alternative(
            "INT-14/blank-lines-dropped-invalid",
            0,
            "a blank line (empty or only space, tab, CR) is dropped as invalid_record_schema "
            'with memory_id "" and its raw-line hash',
            {"line_ends": "blank-invalid"},
        ),
        Alternative(
            "INT-14/cr-kept-part-line",
            1,
            "the CR of a CRLF line is part of the line: an invalid line's record_hash covers it",
            {"line_ends": "cr-kept"},
        ),
        Alternative(
            "INT-14/cr-also-ends-line",
            2,
            "a CR not followed by LF ends a line too (universal newlines: Python text-mode "
            "files, Java's readLine, Node's readline)",
            {"line_breaks": "lf-cr"},
        ),
        Alternative(
            "INT-15/strip-leading-bom",
            0,
            "a UTF-8 BOM that starts a line is removed before the line is parsed (its "
            "raw-line hash still covers it)",
            {"json_text": "strip-bom"},
        ),
        Alternative(
            "INT-15/accept-nan-infinity-like",
            1,
            "NaN, Infinity and -Infinity read as numbers (Python's json); one inside refs "
            "still makes the line unreadable (RFC 8785 cannot write it)",
            {"json_text": "nan-infinity"},
        ),
        Alternative(
            "INT-15/replace-lone-surrogates-u",
            2,
            "an escaped lone surrogate reads as U+FFFD (Go's encoding/json)",
            {"json_text": "replace-surrogates"},
        ),
        Alternative(
            "INT-15/go-replace-invalid-utf-8",
            3,
            "invalid UTF-8 inside a string (one U+FFFD per byte that starts no valid sequence) "
            "and escaped lone surrogates read as U+FFFD (Go's encoding/json)",
            {"json_text": "go"},
        ),
        Alternative(
            "INT-16/first-occurrence-wins",
            0,
            "a member name that occurs twice in one object: the first occurrence wins",
            {"member_names": "first-wins"},
        ),
        Alternative(
            "INT-16/invalid-record-schema-i",
            1,
            'a member name twice in one object makes the line invalid_record_schema (memory_id "")',
            {"member_names": "unique"},
        ),
        Alternative(
            "INT-16/duplicate-record-field-invalid",
            2,
            "a record field (memory_id, text, tags, refs, ts_utc) twice in the top-level "
            'object makes the line invalid_record_schema (memory_id ""); other duplicates: '
            "the last wins (serde_json into a struct)",
            {"member_names": "record-fields-unique"},
        ),
        Alternative(
            "INT-18/limit-implementation-defined-behaviour",
            0,
            "no nesting limit of its own (only the parser's: orjson's 1024)",
            {"depth_limit": "none"},
        ),
        Alternative(
            "INT-18/limit-1000-1024",
            1,
            "a line nested deeper than 1000 is invalid (not 64)",
            {"depth_limit": "1000"},
        ),
        Alternative(
            "INT-18/limit-127-serde",
            4,
            "a line nested deeper than 127 is invalid (serde_json's recursion limit of 128)",
            {"depth_limit": "127"},
        ),
        Alternative(
            "INT-19/memory-id-record-hash",
            0,
            "an invalid line's dropped entry has memory_id and record_hash null",
            {"invalid_entries": "null"},
        ),
        Alternative(
            "INT-19/omit-invalid-lines-dropped",
            1,
            "invalid lines do not appear in dropped",
            {"invalid_entries": "omitted"},
        ),
        # -- records, timestamps, tags and recency age (INT-20..25, INT-35)
        Alternative(
            "INT-20/case-and-minus-zero",
            4,
            "ts_utc and now_utc may also use a lower-case 't'/'z' or the offset '-00:00'",
            {"timestamps": "case-and-minus-zero"},
        ),
        # -- request, selection, dropped and trust (INT-26..30, INT-34, INT-36..46)
        Alternative(
            "INT-27/budget-exhausted",
            0,
            "candidates left out by max_items are dropped as budget_exhausted",
            {"max_items_reason": BUDGET_EXHAUSTED},
        ),
        Alternative(
            "INT-28/by-reason",
            1,
            "dropped grouped by reason (reasons in code-point order), each group in read order",
            {"dropped_order": "by-reason"},
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
            "INT-38/ignore-missing",
            1,
            "a trust_snapshot_path with nothing there disables filtering instead of failing",
            {"missing_snapshot": "no-filter"},
        ),
        Alternative(
            "INT-39/both-keys",
            0,
            "a trust entry naming memory_id and record_hash denies only a candidate equal on both",
            {"trust_match": "both"},
        ),
        Alternative(
            "INT-41/written-integer",
            0,
            "a request int must be written without a fraction or exponent (10.0 is not an int)",
            {"integers": "written-integer"},
        ),
    )
}
