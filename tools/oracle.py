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
    IntReading,
    InvalidText,
    Options,
    RecencyReading,
    RequestError,
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
    normalize_record,
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
    "read_record",
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
    bad_ts: str = "absent"  # INT-20: a ts_utc string outside the grammar
    ts_text: str = "trimmed"  # INT-21: the normalized ts_utc's fraction and offset
    ts_order: str = "instant"  # INT-21: tie-break 2
    null_absent: bool = False  # INT-22: a null member
    empty_id_invalid: bool = False  # INT-22: memory_id ""
    drop_bad_tags: bool = False  # INT-22: a tag that is not a string
    closed_schema: bool = False  # INT-23: members beyond the contract's five
    one_per_id: str = "all"  # INT-23: records sharing a memory_id
    created_at_fallback: bool = False  # INT-24: SPEC-005's created_at_utc
    wrap_string_refs: bool = False  # INT-24: SPEC-005's string refs
    tag_sort: str = "code-points"  # INT-25: the order of normalized tags
    strip_tags: bool = False  # INT-25: tags trimmed
    age: str = "exact"  # INT-35: age_days and future timestamps

    # -- request, selection, dropped and trust (INT-26..30, INT-34, INT-36..46)
    max_items_reason: str = "max_items_reached"  # INT-27: left out by max_items
    dropped_order: str = "read"  # INT-28: the order of dropped
    recency: RecencyReading = "always"  # INT-36: the recency members validated
    missing_snapshot: str = "error"  # INT-38: a trust_snapshot_path with nothing there
    trust_match: TrustMatch = "either"  # INT-39: an entry naming both keys
    ints: IntReading = "integral"  # INT-41: a request int

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
    # INT-20 alternatives[0]: "Any invalid ts_utc makes the record invalid_record_schema."
    "INT-20/invalid-ts-utc-makes": {"bad_ts": "invalid-record"},
    # INT-20 alternatives[1]: "Keep the raw invalid string in the normalized record (and in
    # record_hash)."
    "INT-20/keep-raw-invalid-string": {"bad_ts": "hashed-raw"},
    # INT-20 alternatives[2]: "Accept every RFC 3339 date-time in UTC: lower-case 't'/'z',
    # '-00:00', second 60 and any number of fraction digits."
    "INT-20/accept-rfc-3339-date": {"ts_grammar": "accept-rfc-3339-date"},
    # INT-20 alternatives[3]: "Accept ISO 8601 forms beyond RFC 3339: basic format, a decimal
    # comma, a space instead of 'T'; convert other offsets to UTC."
    "INT-20/accept-iso-8601-forms": {"ts_grammar": "accept-iso-8601-forms"},
    "INT-20/case-and-minus-zero": {"ts_grammar": "case-and-minus-zero"},
    # INT-20 alternatives[5]: "Python's datetime.fromisoformat (3.11) with a zero UTC offset"
    "INT-20/python-fromisoformat": {"ts_grammar": "python-fromisoformat"},
    # INT-20 alternatives[6]: "Java's Instant.parse (JDK 17)"
    "INT-20/java-instant-parse": {"ts_grammar": "java-instant-parse"},
    # INT-21 alternatives[0]: "Always 6 (or 3) fraction digits." (six; the instant unchanged)
    "INT-21/always-6-3-fraction": {"ts_text": "six"},
    # INT-21 alternatives[1]: "Order by the raw string (then '...05.5Z' sorts before '...05Z')."
    "INT-21/order-raw-string-05": {"ts_order": "raw"},
    # INT-21 alternatives[2]: "Python's datetime.isoformat(): 6 fraction digits unless the
    # microseconds are 0 (then none), digits after the sixth cut, and '+00:00' instead of 'Z'."
    "INT-21/python-isoformat": {"ts_text": "isoformat"},
    # INT-21 alternatives[3]: "JavaScript's Date.prototype.toISOString(): always 3 fraction
    # digits (digits after the third cut)."
    "INT-21/javascript-toisostring": {"ts_text": "toisostring"},
    # INT-21 alternatives[4]: "Java's Instant.toString(): 0, 3, 6 or 9 fraction digits, the
    # fewest groups of three that show every non-zero digit."
    "INT-21/java-instant-tostring": {"ts_text": "instant-tostring"},
    # INT-22 alternatives[0]: "Treat null as absent."
    "INT-22/treat-null-absent": {"null_absent": True},
    # INT-22 alternatives[1]: "Reject an empty memory_id (the reading before the review)."
    "INT-22/reject-empty-memory-id": {"empty_id_invalid": True},
    # INT-22 alternatives[2]: "Drop non-string tags instead of rejecting the record."
    "INT-22/drop-non-string-tags": {"drop_bad_tags": True},
    # INT-23 alternatives[0]: "Reject records with unknown fields."
    "INT-23/reject-records-unknown-fields": {"closed_schema": True},
    # INT-23 alternatives[1]: "Keep only the first (or last) record per memory_id." (first)
    "INT-23/keep-first-last-record": {"one_per_id": "first"},
    # INT-23 alternatives[2]: "Keep only the last record per memory_id."
    "INT-23/keep-last-record": {"one_per_id": "last"},
    # INT-24 alternatives[0]: "Read created_at_utc as ts_utc when ts_utc is absent."
    "INT-24/read-created-utc-ts": {"created_at_fallback": True},
    # INT-24 alternatives[1]: "Wrap string refs as {"ref": s}."
    "INT-24/wrap-string-refs-ref": {"wrap_string_refs": True},
    # INT-25 alternatives[0]: "Sort by UTF-16 code units."
    "INT-25/sort-utf-16-code": {"tag_sort": "utf-16"},
    # INT-25 alternatives[1]: "Trim tags."
    "INT-25/trim-tags": {"strip_tags": True},
    # INT-35 alternatives[0]: "Whole days (floor)."
    "INT-35/whole-days-floor": {"age": "floor"},
    # INT-35 alternatives[1]: "Future timestamps get no bonus."
    "INT-35/future-timestamps-get-bonus": {"age": "future-zero"},
    # INT-35 alternatives[2]: "Future timestamps are invalid." (where recency applies)
    "INT-35/future-timestamps-invalid": {"age": "future-invalid"},
    # -- request, selection, dropped and trust (INT-26..30, INT-34, INT-36..46)
    # INT-27 alternatives[0]: "Reuse budget_exhausted."
    "INT-27/budget-exhausted": {"max_items_reason": "budget_exhausted"},
    # INT-28 alternatives[1]: "Grouped by reason."
    "INT-28/by-reason": {"dropped_order": "by-reason"},
    # INT-36 alternatives[0]: "Validate half-life only when recency is enabled."
    "INT-36/half-life-when-enabled": {"recency": "half-life-when-enabled"},
    # INT-36 alternatives[1]: "Ignore an invalid now_utc (disable recency)."
    "INT-36/ignore-invalid-now": {"recency": "ignore-invalid-now"},
    # INT-38 alternatives[1]: "Ignore a missing snapshot (filtering disabled)."
    "INT-38/ignore-missing": {"missing_snapshot": "no-filter"},
    # INT-39 alternatives[0]: "An entry naming both keys matches only a candidate equal on both
    # (the reading before the review)."
    "INT-39/both-keys": {"trust_match": "both"},
    # INT-41 alternatives[0]: "Reject any number written with a fraction or exponent."
    "INT-41/written-integer": {"ints": "written-integer"},
}


def read_snapshot(
    snapshot_path: str, root: Path, missing: str = "error"
) -> list[dict[str, Any]] | None:
    """errors.md 11-12 (INT-38); ``missing="no-filter"`` is INT-38/ignore-missing: a path that
    does not exist (trust_snapshot_not_found) disables filtering (None) instead of failing."""
    try:
        return read_trust_snapshot(snapshot_path, root)
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
    age: str = "exact",
) -> float:
    """'age_days = (now_utc - ts_utc) in days'; 'weight = 0.5 ** (age_days / half_life)'.

    'recency_bonus = weight (bounded [0,1])' (INT-35: clamped). ``weight`` is the INT-04 reading
    of ``pow(0.5, exponent)``, ``age`` the INT-35 reading of age_days.
    """
    elapsed_ns = (now[0] - ts[0]) * 10**9 + (now[1] - ts[1])
    if age == "future-zero" and elapsed_ns < 0:
        return 0.0  # INT-35/future-timestamps-get-bonus: "Future timestamps get no bonus."
    if age == "floor":  # INT-35/whole-days-floor: "Whole days (floor)."
        age_days = float(elapsed_ns // NS_PER_DAY)
    else:
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
        bonus = recency_bonus(
            opts.now, record["_instant"], opts.half_life, choices.weight, choices.age
        )
    return (float(base) + tag_bonus) + bonus


def order_key(
    cand: dict[str, Any], ts_order: str = "instant"
) -> tuple[float, tuple[Any, ...], str, str, str, int]:
    """TIE-BREAKING 1)-5) plus read order (INT-33); ``ts_order`` is the INT-21 reading of
    2): by the instant, or ``"raw"`` (INT-21/order-raw-string-05: the ts_utc strings as read,
    compared by code point, descending)."""
    instant = cand.get("_instant")
    ts_key: tuple[Any, ...] = (0, -instant[0], -instant[1]) if instant is not None else (1, 0, 0)
    if ts_order == "raw" and instant is not None:
        # descending string order: each code point negated, and an end marker above them all
        ts_key = (0, (*(-ord(c) for c in cand["_raw_ts"]), 1))
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


def _member_readings(value: dict[str, Any], choices: Choices) -> dict[str, Any]:
    """The record members as the INT-22, INT-24 and INT-25 alternatives read them."""
    obj = dict(value)
    if choices.null_absent:  # INT-22: "Treat null as absent."
        obj = {name: member for name, member in obj.items() if member is not None}
    if choices.created_at_fallback and "ts_utc" not in obj and "created_at_utc" in obj:
        obj["ts_utc"] = obj["created_at_utc"]  # INT-24: "Read created_at_utc as ts_utc"
    refs = obj.get("refs")
    if choices.wrap_string_refs and isinstance(refs, list):  # INT-24: 'Wrap string refs'
        obj["refs"] = [{"ref": ref} if isinstance(ref, str) else ref for ref in refs]
    tags = obj.get("tags")
    if isinstance(tags, list):
        if choices.drop_bad_tags:  # INT-22: "Drop non-string tags"
            tags = [tag for tag in tags if isinstance(tag, str)]
        if choices.strip_tags:  # INT-25: "Trim tags." (White_Space, INT-05)
            tags = [strip_ws(tag) if isinstance(tag, str) else tag for tag in tags]
        obj["tags"] = tags
    return obj


def _ts_text(clock: str, nanos: int, form: str) -> str:
    """INT-21's alternatives: the normalized ts_utc written from its seconds (``clock``,
    YYYY-MM-DDThh:mm:ss) and nanoseconds; digits past the precision are cut, never rounded."""
    micros, millis = nanos // 1000, nanos // 1_000_000
    if form == "six":  # "Always 6 (or 3) fraction digits": six
        return f"{clock}.{micros:06d}Z"
    if form == "isoformat":  # Python: ".ffffff" only when microsecond != 0, then "+00:00"
        return clock + (f".{micros:06d}" if micros else "") + "+00:00"
    if form == "toisostring":  # JavaScript: always ".sss"
        return f"{clock}.{millis:03d}Z"
    # Java Instant.toString(): nothing, millis, micros or nanos: the shortest exact one
    if nanos == 0:
        return clock + "Z"
    if nanos % 1_000_000 == 0:
        return f"{clock}.{millis:03d}Z"
    if nanos % 1000 == 0:
        return f"{clock}.{micros:06d}Z"
    return f"{clock}.{nanos:09d}Z"


def read_record(
    raw: bytes, choices: Choices, now: tuple[int, int, str] | None = None
) -> dict[str, Any]:
    """One non-blank line -> a candidate or {'invalid': memory_id} (INT-15, INT-19, INT-22), as
    the chosen readings of the record contract (INT-20..25, INT-35) read it; under the pinned
    readings this is :func:`conformance.readings.read_line`."""
    try:
        value = parse_json_text(raw)
    except InvalidText:
        return {"invalid": ""}
    if not isinstance(value, dict):
        return {"invalid": ""}
    obj = _member_readings(value, choices)
    mid = obj.get("memory_id")
    invalid = {"invalid": mid if isinstance(mid, str) else ""}
    try:
        record = normalize_record(obj, choices.ts_grammar)
    except InvalidText:
        return invalid
    if choices.empty_id_invalid and record["memory_id"] == "":
        return invalid  # INT-22: "Reject an empty memory_id"
    if choices.closed_schema and set(obj) - {"memory_id", "text", "tags", "refs", "ts_utc"}:
        return invalid  # INT-23: "Reject records with unknown fields."
    if "ts_utc" in obj and "ts_utc" not in record:  # a ts_utc string outside the grammar
        if choices.bad_ts == "invalid-record":  # INT-20: "makes the record invalid"
            return invalid
        if choices.bad_ts == "hashed-raw":  # INT-20: "Keep the raw invalid string"
            record["ts_utc"] = obj["ts_utc"]
    instant = record.get("_instant")
    future = now is not None and instant is not None and tuple(instant) > now[:2]
    if choices.age == "future-invalid" and future:  # INT-35: "Future timestamps are invalid."
        del record["ts_utc"], record["_instant"]
    if choices.ts_text != "trimmed" and instant is not None and "_instant" in record:
        record["ts_utc"] = _ts_text(record["ts_utc"][:19], instant[1], choices.ts_text)
    if choices.tag_sort == "utf-16":  # INT-25: "Sort by UTF-16 code units."
        record["tags"] = sorted(record["tags"], key=lambda tag: tag.encode("utf-16-be"))
    if "_instant" in record:
        record["_raw_ts"] = obj["ts_utc"]  # INT-21/order-raw-string-05 orders by it
    record["record_hash"] = record_hash(record)
    return record


def read_candidates(
    stores: list[tuple[str, bytes]],
    entries: list[dict[str, Any]] | None,
    deny: list[str],
    choices: Choices | None = None,
    now: tuple[int, int, str] | None = None,
) -> list[dict[str, Any]]:
    """READER: every record line in read order (INT-28), invalid and trust-denied ones marked.

    ``now`` is now_utc where recency applies (INT-35/future-timestamps-invalid reads it)."""
    choices = choices or Choices()
    lines: list[dict[str, Any]] = []
    for store_path, data in stores:
        for raw in split_lines(data):  # '2) within each store, read in file order (line order)'
            if is_blank(raw):
                continue
            cand = read_record(raw, choices, now)
            cand["store_path"] = store_path
            cand["read_index"] = len(lines)
            if "invalid" in cand:  # INT-19
                cand.update(memory_id=cand["invalid"], record_hash=sha256_hex(raw))
                cand["fate"] = "invalid_record_schema"
            elif entries is not None and is_denied(cand, entries, deny, choices.trust_match):
                cand["fate"] = "trust_denied"  # removed before selection (INT-39)
            lines.append(cand)
    if choices.one_per_id != "all":
        # INT-23: "Keep only the first (or last) record per memory_id": the valid records read
        # (trust-denied ones included: the filter comes after reading); the others vanish.
        valid = [c for c in lines if "invalid" not in c]
        if choices.one_per_id == "last":
            valid.reverse()
        keep: dict[str, int] = {}
        for cand in valid:
            keep.setdefault(cand["memory_id"], cand["read_index"])
        lines = [c for c in lines if "invalid" in c or keep[c["memory_id"]] == c["read_index"]]
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
    stop_reason: str | None = None
    for cand in ranked:
        if stop_reason is None and len(selected) >= opts.max_items:
            stop_reason = choices.max_items_reason
        if stop_reason is None:
            excerpt, tokens = make_excerpt(cand["text"], per_item, choices.whitespace)
            if used + tokens <= opts.max_tokens:  # 'if used + excerpt_tokens <= max => select'
                used += tokens
                cand["fate"] = "selected"
                keys = ("memory_id", "record_hash", "store_path", "score")
                selected.append({k: cand[k] for k in keys} | {"excerpt": excerpt})
                selected[-1]["excerpt_tokens"] = tokens
                continue
            stop_reason = "budget_exhausted"  # 'else => drop with reason "budget_exhausted"'
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
        )
        stores = read_stores(opts.store_paths, root)  # errors.md 9-10
        entries = None
        if opts.snapshot is not None:  # 'If no snapshot provided, trust filtering is disabled.'
            entries = read_snapshot(opts.snapshot, root, choices.missing_snapshot)
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

    recency_now = opts.now if opts.recency else None
    lines = read_candidates(stores, entries, opts.deny, choices, recency_now)
    ranked = [c for c in lines if "fate" not in c]
    for cand in ranked:
        cand["score"] = score(cand, terms, opts, choices)
    ranked.sort(key=lambda cand: order_key(cand, choices.ts_order))  # the composite key
    selected, used = select(ranked, opts, choices)

    dropped = [
        {k: c[k] for k in ("memory_id", "record_hash", "store_path")} | {"reason": c["fate"]}
        for c in lines
        if c["fate"] != "selected"
    ]  # INT-28: read order
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
            "per_item_max_excerpt_tokens": min(opts.per_item, opts.max_tokens),
            "max_items": opts.max_items,
        },
        "selection": {"selected": selected, "dropped": dropped},
        "controller_version": CONTROLLER_VERSION,
    }
    package["package_hash"] = sha256_hex(canonical(package))  # INT-03: all but itself
    data = {
        "query_hash": query_hash,
        "store_paths": [path for path, _ in stores],  # INT-43: normalized, deduped, sorted
        "selected_count": len(selected),
        "package_hash": package["package_hash"],
    }
    return {"package": package, "receipt": {"kind": "memory.read", "data": data}}
