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
    #: INT-20: a ts_utc string that is not a valid timestamp leaves the record with
    #: "no-timestamp", or makes it invalid ("invalid-ts-utc-makes"), or is hashed as written
    #: ("keep-raw-invalid-string"); the values of this field and the next four name the
    #: ``_records`` tables (``record_parser``).
    invalid_ts: str = "no-timestamp"
    #: INT-21: the normalized ts_utc has its fraction "trimmed" of trailing zeros, or
    #: "always-6-3-fraction" (six digits), "python-isoformat", "javascript-toisostring",
    #: "java-instant-tostring" (a key of ``_records.TS_FORMS``).
    ts_form: str = "trimmed"
    #: INT-21: tie-break 2 by the "instant", or "order-raw-string-05" (the raw string,
    #: descending; a key of ``_timestamps.TS_KEYS``).
    ts_order: str = "instant"
    #: INT-22: record member types are "strict", or "treat-null-absent",
    #: "reject-empty-memory-id", "drop-non-string-tags".
    record_types: str = "strict"
    #: INT-23: unknown record members are "ignored", or "reject-records-unknown-fields".
    unknown_fields: str = "ignored"
    #: INT-23: records with one memory_id are all "kept", or only the "first" or "last" one
    #: (``_reader.deduplicated``; the package is then assembled from deduplicated copies).
    duplicates: str = "kept"
    #: INT-24: SPEC-005's members are "ignored", or "read-created-utc-ts", "wrap-string-refs-ref".
    spec005: str = "ignored"
    #: INT-25: normalized tags in "code-points" order untrimmed, or "sort-utf-16-code", "trim-tags".
    tags: str = "code-points"
    #: INT-35: age_days is "exact" (a future ts_utc gives 1), or "whole-days-floor",
    #: "future-timestamps-get-bonus" (no bonus), "future-timestamps-invalid" (a key of
    #: ``_scoring.SCORERS``).
    age: str = "exact"

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

    @property
    def records(self) -> tuple[str, ...]:
        """The readings of the record contract (``_records.record_parser``)."""
        return (self.invalid_ts, self.ts_form, self.record_types, self.unknown_fields,
                self.spec005, self.tags)  # fmt: skip

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
            "INT-20/invalid-ts-utc-makes",
            0,
            "a ts_utc string that is not a valid UTC timestamp makes the record "
            "invalid_record_schema",
            {"invalid_ts": "invalid-ts-utc-makes"},
        ),
        Alternative(
            "INT-20/keep-raw-invalid-string",
            1,
            "a ts_utc string that is not a valid UTC timestamp is kept, as written, in "
            "record_hash (the candidate still has no timestamp)",
            {"invalid_ts": "keep-raw-invalid-string"},
        ),
        Alternative(
            "INT-20/accept-rfc-3339-date",
            2,
            "ts_utc and now_utc may be any RFC 3339 date-time in UTC: lower-case 't'/'z', "
            "'-00:00', second 60 (one second after 59) and any number of fraction digits "
            "(all hashed; the instant cut to nanoseconds)",
            {"timestamps": "accept-rfc-3339-date"},
        ),
        Alternative(
            "INT-20/accept-iso-8601-forms",
            3,
            "ts_utc and now_utc may also use ISO 8601 basic format, a decimal comma, a space "
            "for 'T', and other offsets (±hh:mm, ±hhmm, ±hh), converted to UTC",
            {"timestamps": "accept-iso-8601-forms"},
        ),
        Alternative(
            "INT-20/case-and-minus-zero",
            4,
            "ts_utc and now_utc may also use a lower-case 't'/'z' or the offset '-00:00'",
            {"timestamps": "case-and-minus-zero"},
        ),
        Alternative(
            "INT-20/python-fromisoformat",
            5,
            "ts_utc and now_utc are valid when Python 3.11's datetime.fromisoformat reads them "
            "with a zero UTC offset (basic format, week dates, 't', ...); instants to the "
            "microsecond",
            {"timestamps": "python-fromisoformat"},
        ),
        Alternative(
            "INT-20/java-instant-parse",
            6,
            "ts_utc and now_utc are valid when Java's Instant.parse reads them ('t'/'z', offsets "
            "up to 18:00 converted, 24:00:00, 23:59:60 as :59, 0-9 fraction digits)",
            {"timestamps": "java-instant-parse"},
        ),
        Alternative(
            "INT-21/always-6-3-fraction",
            0,
            "the normalized ts_utc always has 6 fraction digits (zeros added, digits after the "
            "6th cut), so record_hash differs; the instant is unchanged",
            {"ts_form": "always-6-3-fraction"},
        ),
        Alternative(
            "INT-21/order-raw-string-05",
            1,
            "tie-break 2 compares the raw ts_utc strings (descending, code-point order) instead "
            "of the instants",
            {"ts_order": "order-raw-string-05"},
        ),
        Alternative(
            "INT-21/python-isoformat",
            2,
            "the normalized ts_utc is Python's isoformat(): 6 fraction digits or none, '+00:00'",
            {"ts_form": "python-isoformat"},
        ),
        Alternative(
            "INT-21/javascript-toisostring",
            3,
            "the normalized ts_utc is JavaScript's toISOString(): always 3 fraction digits",
            {"ts_form": "javascript-toisostring"},
        ),
        Alternative(
            "INT-21/java-instant-tostring",
            4,
            "the normalized ts_utc is Java's Instant.toString(): 0, 3, 6 or 9 fraction digits",
            {"ts_form": "java-instant-tostring"},
        ),
        Alternative(
            "INT-22/treat-null-absent",
            0,
            "a record member whose value is null is read as absent",
            {"record_types": "treat-null-absent"},
        ),
        Alternative(
            "INT-22/reject-empty-memory-id",
            1,
            "a record whose memory_id is the empty string is invalid_record_schema",
            {"record_types": "reject-empty-memory-id"},
        ),
        Alternative(
            "INT-22/drop-non-string-tags",
            2,
            "tags that are not strings are left out instead of making the record invalid",
            {"record_types": "drop-non-string-tags"},
        ),
        Alternative(
            "INT-23/reject-records-unknown-fields",
            0,
            "a record with a member other than memory_id, text, tags, refs, ts_utc is "
            "invalid_record_schema",
            {"unknown_fields": "reject-records-unknown-fields"},
        ),
        Alternative(
            "INT-23/keep-first-last-record",
            1,
            "only the first valid record per memory_id (read order across the stores) is read; "
            "later ones appear nowhere",
            {"duplicates": "first"},
        ),
        Alternative(
            "INT-23/keep-last-record",
            2,
            "only the last valid record per memory_id (read order across the stores) is read; "
            "earlier ones appear nowhere",
            {"duplicates": "last"},
        ),
        Alternative(
            "INT-24/read-created-utc-ts",
            0,
            "without ts_utc, a record's created_at_utc is read as its ts_utc",
            {"spec005": "read-created-utc-ts"},
        ),
        Alternative(
            "INT-24/wrap-string-refs-ref",
            1,
            'a string ref s is read as {"ref": s} instead of making the record invalid',
            {"spec005": "wrap-string-refs-ref"},
        ),
        Alternative(
            "INT-25/sort-utf-16-code",
            0,
            "normalized tags are sorted by UTF-16 code units (JavaScript's default sort)",
            {"tags": "sort-utf-16-code"},
        ),
        Alternative(
            "INT-25/trim-tags",
            1,
            "each tag is stripped of White_Space before lowercasing and deduplication",
            {"tags": "trim-tags"},
        ),
        Alternative(
            "INT-35/whole-days-floor",
            0,
            "age_days is the whole number of days (floor)",
            {"age": "whole-days-floor"},
        ),
        Alternative(
            "INT-35/future-timestamps-get-bonus",
            1,
            "a ts_utc after now_utc gets no recency bonus (0 instead of 1)",
            {"age": "future-timestamps-get-bonus"},
        ),
        Alternative(
            "INT-35/future-timestamps-invalid",
            2,
            "where recency applies, a ts_utc after now_utc is not a valid timestamp (no "
            "recency, sorts last, left out of record_hash)",
            {"age": "future-timestamps-invalid"},
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
