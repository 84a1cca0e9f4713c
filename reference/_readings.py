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

The hashing readings are alike: a record's hash under INT-01, INT-02, INT-17 or INT-47 is a
value the reader takes (``_records.RecordHashing``, None on the pinned fast path), and a
package_hash under INT-01, INT-03 or INT-04's score-less reading is computed again over the
finished package (``_package.package_hash_under``, on the plain path).

An alternative whose words leave a value free ("Only list the first N drops", INT-28; "Round
recency_bonus to a fixed number of decimals", INT-04) takes a *parameter*
(``Alternative.parameter``, declared in the register's ``parameters``): its reading's ID
carries the value, ``INT-28/list-first-n-drops(n=3)``, and ``Readings.of`` sets the field the
parameter names (``dropped_limit``, ``recency_decimals``; None is the pinned reading). The first
N drops are cut on the plain path with INT-28's other readings; the rounded bonus is a scorer
(``_scoring.RoundedBonusScorer``), the pinned scorer untouched.

The harness certifies against these by running the reference under an alternative and
comparing what it produces with what an implementation produced (``conformance.run``,
attribution): a failure one of them reproduces is that reading, shown by its ID.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from reference._alternatives import Alternative, Parameter, UnknownReading, applied, followed
from reference._selection import BUDGET_EXHAUSTED, MAX_ITEMS_REACHED

__all__ = ["ALTERNATIVES", "Alternative", "Readings", "UnknownReading"]


@dataclass(frozen=True)
class Readings:
    """The readings one run follows; every default is the register's pinned reading."""

    # -- canonical JSON, hashing and numbers (INT-01..04, INT-17, INT-47)
    #: INT-01: the canonical form record_hash and package_hash are computed over (a key of
    #: ``_canonical.FORMS``: "jcs", "code-point-keys", "ascii-escapes", "python-json",
    #: "python-json-ascii", "go-json", "go-json-before-1.22"); one alternative sets both.
    record_form: str = "jcs"
    package_form: str = "jcs"
    #: INT-02: record_hash covers the "normalized" record, or (``_records.RecordHashing``)
    #: "store-path" too, "ts-null" when absent, the "stripped-text", or the "raw-line".
    record_preimage: str = "normalized"
    #: INT-03: package_hash covers "all" of the package but itself, or only the "must-list"
    #: fields, or all but query.raw ("no-query-raw").
    package_fields: str = "all"
    #: INT-04: the recency weight is the correctly rounded 2**-exponent (pinned), or the
    #: platform's pow.
    correctly_rounded_pow: bool = True
    #: INT-04: the recency weight is Go's math.Pow(0.5, exponent) (``_gomath.go_pow``).
    go_pow: bool = False
    #: INT-04: the selected items' scores are part of package_hash (pinned), or left out.
    score_hashed: bool = True
    #: INT-04: recency_bonus is the weight (None, pinned), or the weight rounded to this many
    #: decimals (``_scoring.RoundedBonusScorer``; a parameter).
    recency_decimals: int | None = None
    #: INT-17: record numbers are read as "doubles" (pinned), integers kept "exact", or a line
    #: holding an integer beyond +-(2**53 - 1) is invalid ("safe").
    numbers: str = "doubles"
    #: INT-47: a record's SPEC-005 ``hash`` member is "ignored" (pinned) or is the
    #: "record-hash".
    spec005_hash: str = "ignored"

    # -- text, query terms, matching and excerpts (INT-05..11, INT-31, INT-33)
    #: INT-05: whitespace is Unicode "white-space", or what "python"'s str.split()/strip()
    #: or "ecmascript"'s trim() and /\s/ treat as whitespace, or "ascii" whitespace.
    whitespace: str = "white-space"
    #: INT-06: "lower" is the "full" Unicode lowercase mapping, or "case-folding", "ascii"
    #: or the "simple" 1:1 mapping (a key of ``_text.LOWERCASE``).
    lowercase: str = "full"
    #: INT-07: a derived term's length in "code-points", or "utf-16-units" (JavaScript), or
    #: "utf-8-bytes" (Go, Rust), or "grapheme-clusters" (UAX #29).
    term_length: str = "code-points"
    #: INT-08: supplied scoring.query_terms are "normalized" (pinned) or used "verbatim", or
    #: "derived" like the query, or an empty list is absent ("empty-is-absent").
    query_terms: str = "normalized"
    #: INT-09: terms match the "normalized" candidate text, or the "lowercase-only" or
    #: "raw" text, or its whole "words" (a key of ``_scoring.MATCHING``).
    matching: str = "normalized"
    #: INT-10: term_match_count counts "terms", or "occurrences", or "non-overlapping"
    #: matches (a key of ``_scoring.COUNTING``).
    counting: str = "terms"
    #: INT-11: query.raw holds the query "as-given", or "normalized".
    query_raw: str = "as-given"
    #: INT-31: the excerpt is stripped once ("strip-once"), or again after the cut
    #: ("strip-again"), or of ASCII whitespace only ("strip-ascii"): ``_excerpt.EXCERPTS``.
    excerpt: str = "strip-once"
    #: INT-33: the tie-breaks compare strings by "code-points", or by "utf-16" code units
    #: (a key of ``_ordering.TIE_KEYS``).
    order: str = "code-points"

    # -- store paths, the JSONL reader and invalid lines (INT-12..16, INT-18, INT-19)
    #: INT-12: the stores read, in which order (a key of ``_paths.STORE_LISTS``).
    store_list: str = "unique-code-points"
    #: INT-13: how stores are checked before reading (a key of ``_reader.STORE_CHECKS``).
    store_checks: str = "sorted-fail"
    #: INT-14: blank lines and the CR of CRLF (a key of ``_records.LINE_ENDS``), and which
    #: bytes end a line (a key of ``_reader.LINE_BREAKS``).
    line_ends: str = "skip-blank-drop-cr"
    line_breaks: str = "lf"
    #: INT-15: which JSON texts a line may hold (a key of ``_records.JSON_TEXTS``; also
    #: INT-17/javascript-infinity-null's "infinity-null").
    json_text: str = "rfc8259"
    #: INT-16: a member name twice in one object (a key of ``_records.MEMBER_NAMES``).
    member_names: str = "last-wins"
    #: INT-18: the nesting limit of a line (a key of ``_records.DEPTH_LIMITS``).
    depth_limit: str = "64"
    #: INT-18: the line length limit and what a longer line becomes (a key of
    #: ``_reader.LINE_LIMITS``).
    line_limit: str = "1mib-invalid"
    #: INT-19: the dropped entries of invalid lines are "listed" with memory_id "" or the
    #: string member, and the raw-line hash; or have memory_id/record_hash "null"; or are
    #: "omitted" (a key of ``_controller.INVALID_ENTRIES``).
    invalid_entries: str = "listed"

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
    #: INT-25: normalized tags in "code-points" order untrimmed, or "sort-utf-16-code",
    #: "trim-tags", "tags-simple-lowercase" (``_records.MEMBER_REWRITES``, ``TAG_ORDERS``).
    tags: str = "code-points"
    #: INT-35: age_days is "exact" (a future ts_utc gives 1), or "whole-days-floor",
    #: "future-timestamps-get-bonus" (no bonus), "future-timestamps-invalid",
    #: "go-duration-hours" (a key of
    #: ``_scoring.SCORERS``).
    age: str = "exact"

    # -- request, selection, dropped and trust (INT-26..30, INT-34, INT-36..46)
    #: INT-26: at a candidate that would overflow the budget, selection "stop"s or "skip"s it.
    budget_overflow: str = "stop"
    #: INT-27: the drop reason of candidates left out by max_items (None: not listed).
    max_items_reason: str | None = MAX_ITEMS_REACHED
    #: INT-28: dropped in "read" order, or grouped "by-reason", or in "rank" order.
    dropped_order: str = "read"
    #: INT-28: every dropped entry is listed (None, pinned), or only the first this many (read
    #: order; a parameter).
    dropped_limit: int | None = None
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
        # -- canonical JSON, hashing and numbers (INT-01..04, INT-17, INT-47)
        Alternative(
            "INT-01/sort-keys-code-point",
            1,
            "RFC 8785 with member names sorted by code point (UTF-8 bytes), not UTF-16 units",
            {"record_form": "code-point-keys", "package_form": "code-point-keys"},
        ),
        Alternative(
            "INT-01/ensure-ascii-true-escaping",
            2,
            "RFC 8785 with strings escaped as ensure_ascii=True does: \\uxxxx for every "
            "non-ASCII character (a surrogate pair beyond the BMP) and DEL",
            {"record_form": "ascii-escapes", "package_form": "ascii-escapes"},
        ),
        Alternative(
            "INT-01/go-encoding-json",
            4,
            "Go's encoding/json: member names in UTF-8 byte order, <, >, &, U+2028 and U+2029 "
            "written as \\u003c, \\u003e, \\u0026, \\u2028, \\u2029, -0 kept as -0",
            {"record_form": "go-json", "package_form": "go-json"},
        ),
        Alternative(
            "INT-01/go-encoding-json-before-1-22",
            5,
            "Go 1.19 to 1.21's encoding/json: as INT-01/go-encoding-json, but U+0008 and U+000C "
            "written as \\u0008 and \\u000c (the short escapes \\b and \\f came in Go 1.22)",
            {"record_form": "go-json-before-1.22", "package_form": "go-json-before-1.22"},
        ),
        Alternative(
            "INT-02/hash-stripped-text-raw",
            2,
            "the record_hash preimage holds the text stripped of whitespace (as the excerpt is)",
            {"record_preimage": "stripped-text"},
        ),
        Alternative(
            "INT-04/platform-pow",
            0,
            "recency weight = the platform's pow(0.5, exponent), not the correctly rounded "
            "2**-exponent",
            {"correctly_rounded_pow": False},
        ),
        Alternative(
            "INT-04/go-math-pow",
            4,
            "recency weight = Go's math.Pow(0.5, exponent) as Go 1.19 computes it on amd64 "
            "(pow.go over the assembly Exp and Log), not the correctly rounded 2**-exponent",
            {"go_pow": True},
        ),
        Alternative(
            "INT-04/round-recency-bonus-fixed",
            1,
            "recency_bonus = the correctly rounded weight rounded to `decimals` decimals (to the "
            "double nearest the exact value rounded half to even, as Python's round(w, decimals))",
            parameter=Parameter("decimals", "recency_decimals", 0, 30),
        ),
        Alternative(
            "INT-17/keep-integers-exact-python",
            0,
            "integers in a record are kept exact (any size) and hashed as their digits",
            {"numbers": "exact"},
        ),
        Alternative(
            "INT-17/reject-integers-outside-2",
            1,
            "a line holding an integer literal outside +-(2**53 - 1) is invalid, as 1e400 is",
            {"numbers": "safe"},
        ),
        Alternative(
            "INT-47/treat-spec-005-hash",
            3,
            "a record's string SPEC-005 hash member is its record_hash (others are hashed as "
            "pinned)",
            {"spec005_hash": "record-hash"},
        ),
        # -- text, query terms, matching and excerpts (INT-05..11, INT-31, INT-33)
        Alternative(
            "INT-05/ascii-whitespace-space-t",
            0,
            "whitespace is ASCII only: space, \\t, \\n, \\v, \\f, \\r",
            {"whitespace": "ascii"},
        ),
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
            "INT-06/case-folding-str-casefold",
            0,
            "'lower' of the query, supplied terms and candidate text is Unicode case folding "
            "(str.casefold: ß -> ss); tags keep INT-25",
            {"lowercase": "case-folding"},
        ),
        Alternative(
            "INT-06/ascii-lowercasing",
            1,
            "'lower' of the query, supplied terms and candidate text lowercases A-Z only; tags "
            "keep INT-25",
            {"lowercase": "ascii"},
        ),
        Alternative(
            "INT-06/simple-1-1-lowercase",
            2,
            "'lower' of the query, supplied terms and candidate text is the simple 1:1 mapping "
            "(U+0130 -> i, Σ -> σ always: no Final_Sigma); tags keep INT-25",
            {"lowercase": "simple"},
        ),
        Alternative(
            "INT-07/utf-16-units",
            0,
            "a derived term's length counts UTF-16 code units (JavaScript's .length), so one "
            "non-BMP character is long enough",
            {"term_length": "utf-16-units"},
        ),
        Alternative(
            "INT-07/utf-8-bytes",
            1,
            "a derived term's length counts UTF-8 bytes (Go's len, Rust's .len()), so one "
            "non-ASCII character is long enough",
            {"term_length": "utf-8-bytes"},
        ),
        Alternative(
            "INT-07/grapheme-clusters",
            2,
            "a derived term's length counts extended grapheme clusters (UAX #29), so e + U+0301 "
            "is one and too short",
            {"term_length": "grapheme-clusters"},
        ),
        Alternative(
            "INT-08/verbatim",
            0,
            "supplied query_terms used as given (not trimmed, collapsed or lowercased); only "
            "exact duplicates removed",
            {"query_terms": "verbatim"},
        ),
        Alternative(
            "INT-08/apply-derivation-steps-split",
            1,
            "supplied query_terms go through derivation steps 1-5 each: normalized, split on "
            "whitespace, terms shorter than 2 dropped, unique over all",
            {"query_terms": "derived"},
        ),
        Alternative(
            "INT-08/treat-empty-list-absent",
            2,
            "an empty scoring.query_terms list is treated as absent: terms derived from the query",
            {"query_terms": "empty-is-absent"},
        ),
        Alternative(
            "INT-09/lowercase-whitespace-collapse",
            0,
            "terms match the lowercased candidate text, not trimmed or whitespace-collapsed",
            {"matching": "lowercase-only"},
        ),
        Alternative(
            "INT-09/raw-text-case-sensitive",
            1,
            "terms match the raw candidate text (case-sensitive, not trimmed or collapsed)",
            {"matching": "raw"},
        ),
        Alternative(
            "INT-09/tokenize-text-words-match",
            2,
            "terms match whole words of the normalized text (words: split on whitespace; a "
            "phrase term matches consecutive whole words)",
            {"matching": "words"},
        ),
        Alternative(
            "INT-10/count-occurrences",
            0,
            "term_match_count adds every occurrence of every term (non-overlapping per term, "
            "as str.count)",
            {"counting": "occurrences"},
        ),
        Alternative(
            "INT-10/count-non-overlapping-matches",
            1,
            "term_match_count counts the distinct terms of a left-to-right, longest-first scan "
            "whose matches never overlap ('abc' with terms ab, abc: 1)",
            {"counting": "non-overlapping"},
        ),
        Alternative(
            "INT-11/query-raw-holds-normalized",
            0,
            "package.query.raw holds the normalized query (trimmed, collapsed, lowercased)",
            {"query_raw": "normalized"},
        ),
        Alternative(
            "INT-31/strip-again-after-cut",
            0,
            "a cut excerpt is stripped again (no trailing whitespace), tokens counted after",
            {"excerpt": "strip-again"},
        ),
        Alternative(
            "INT-31/strip-ascii-whitespace",
            1,
            "the excerpt is stripped of ASCII whitespace only (U+00A0, U+3000, U+0085 stay)",
            {"excerpt": "strip-ascii"},
        ),
        Alternative(
            "INT-33/utf-16-order-javascript",
            1,
            "tie-breaks 3 and 4 compare store_path and memory_id by UTF-16 code units "
            "(JavaScript's default sort): U+FF5E sorts after U+1F600",
            {"order": "utf-16"},
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
            "INT-15/javascript-keep-lone-surrogates",
            4,
            "an escaped lone surrogate stays in its string (JavaScript's JSON.parse): the line "
            "is a record; canonical JSON and the output write it as JSON.stringify does "
            "(\\udxxx); its UTF-8 length is U+FFFD's, and a cut excerpt decodes it as U+FFFD",
            {"json_text": "keep-surrogates", "record_form": "jcs-lone-escapes"},
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
            "INT-17/javascript-infinity-null",
            2,
            "a number that rounds to infinity (1e400) is JSON.parse's Infinity, not an error: "
            "JSON.stringify writes it null, so in refs it is hashed as null, and a record field "
            "holding it has the wrong type",
            {"json_text": "infinity-null"},
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
            "INT-18/length-limit-store-without",
            2,
            "no line length limit: a line longer than 1 MiB is read (and valid) like any other",
            {"line_limit": "none"},
        ),
        Alternative(
            "INT-18/line-past-length-limit",
            3,
            "a line longer than 1 MiB is truncated: read as its first 1,048,576 bytes (the "
            "register's first behaviour; failing the call is INT-18/overlong-line-fails-call)",
            {"line_limit": "1mib-truncate"},
        ),
        Alternative(
            "INT-18/limit-127-serde",
            4,
            "a line nested deeper than 127 is invalid (serde_json's recursion limit of 128)",
            {"depth_limit": "127"},
        ),
        Alternative(
            "INT-18/overlong-line-fails-call",
            5,
            "a non-blank line longer than 1 MiB fails the call (store_not_readable at the "
            "store's /store_paths entry)",
            {"line_limit": "1mib-fail"},
        ),
        Alternative(
            "INT-18/go-bufio-scanner",
            6,
            "a line of 65,536 bytes or more before its LF (a CR counted, a blank line too, a "
            "last line without LF alike) fails the call: store_not_readable at the first such "
            "store in read order (Go's bufio.Scanner stops with ErrTooLong and the obvious "
            "program returns scanner.Err()); shorter lines are read at any length, and nested "
            "up to 10000 deep (encoding/json's limit)",
            {"line_limit": "go-scanner", "depth_limit": "10000"},
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
            "INT-20/go-time-parse-rfc3339",
            8,
            "ts_utc and now_utc are valid when Go's time.Parse(time.RFC3339, s) reads them with "
            "a zero offset ('-00:00' too, a one-digit hour, '.' or ',' and any number of "
            "fraction digits cut to nanoseconds; no 't'/'z', second 60 or 24:00)",
            {"timestamps": "go-time-parse-rfc3339"},
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
            "INT-25/tags-simple-lowercase",
            2,
            "each tag is lowercased with the simple (1:1) mapping (U+0130 -> i, Σ -> σ always), "
            "as Go's strings.ToLower does; with INT-06/simple-1-1-lowercase, Go's one lowercasing",
            {"tags": "tags-simple-lowercase"},
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
        Alternative(
            "INT-35/go-duration-hours",
            3,
            "age_days is Go's now.Sub(ts).Hours() / 24: whole hours plus the remaining "
            "nanoseconds / 3.6e12, then / 24, each step rounded (the duration saturating at "
            "+-(2**63 - 1) ns)",
            {"age": "go-duration-hours"},
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
            "INT-28/list-first-n-drops",
            2,
            "only the first `n` dropped entries (read order) are listed; the others appear nowhere",
            parameter=Parameter("n", "dropped_limit", 0),
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

#: Alternatives of INT-01..INT-04 that change package_hash or record_hash of (nearly) every
#: package (consulted by ``_records.RecordHashing`` and ``_package.package_hash_under``): every
#: package vector's hashes rest on these entries, so a vector does not list them for this; the
#: label check verifies that they change nothing but the hashes (``hashes_only``).
_HASHES_ONLY: Final[dict[str, Alternative]] = {
    alternative.id: alternative
    for alternative in (
        Alternative(
            "INT-01/python-json-dumps-sort",
            0,
            "hashes over Python's json.dumps(sort_keys=True, separators=(',', ':'), "
            "ensure_ascii=False) of the values as Python's json module reads them (2.0, "
            "1e+16, 1e-06, -0.0, exact integers, code-point key order)",
            {"record_form": "python-json", "package_form": "python-json"},
            hashes_only=True,
        ),
        Alternative(
            "INT-01/python-json-dumps-ascii",
            3,
            "hashes over Python's json.dumps(sort_keys=True, separators=(',', ':')) with its "
            "default ensure_ascii=True: the python-json form with \\uxxxx escapes",
            {"record_form": "python-json-ascii", "package_form": "python-json-ascii"},
            hashes_only=True,
        ),
        Alternative(
            "INT-02/include-store-path-hash",
            0,
            "the record_hash preimage also holds the record's store_path",
            {"record_preimage": "store-path"},
            hashes_only=True,
        ),
        Alternative(
            "INT-02/ts-utc-null-absent",
            1,
            "the record_hash preimage holds ts_utc: null when the record has no valid ts_utc",
            {"record_preimage": "ts-null"},
            hashes_only=True,
        ),
        Alternative(
            "INT-02/hash-raw-line-bytes",
            3,
            "record_hash is the SHA-256 of the line's bytes (without its LF or CRLF), as for "
            "an invalid line",
            {"record_preimage": "raw-line"},
            hashes_only=True,
        ),
        Alternative(
            "INT-03/hash-fields-must-list",
            0,
            "package_hash covers only budget and the selected items' memory_id, record_hash, "
            "store_path, score and excerpt_tokens",
            {"package_fields": "must-list"},
            hashes_only=True,
        ),
        Alternative(
            "INT-03/exclude-query-raw-query",
            1,
            "package_hash covers the package without query.raw",
            {"package_fields": "no-query-raw"},
            hashes_only=True,
        ),
        Alternative(
            "INT-04/exclude-score-package-hash",
            2,
            "package_hash covers the selected items without their scores",
            {"score_hashed": False},
            hashes_only=True,
        ),
    )
}

ALTERNATIVES.update(_HASHES_ONLY)
