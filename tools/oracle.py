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
Readings held by :mod:`conformance.readings` (INT-05, INT-06, INT-07, INT-08, INT-12..INT-16,
INT-18, INT-20, INT-36, INT-39, INT-41) are parameters of those shared functions; the others
(INT-01, INT-02, INT-03, INT-04, INT-09, INT-10, INT-11, INT-17, INT-19, INT-27, INT-28, INT-31,
INT-38, INT-47, and the store_path order of INT-12 in the tie-break) are computed here: the
hashing alternatives by this module's own serializer (:func:`encode`), over values it reads
again with Python's json module where a reading keeps integers exact.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from decimal import ROUND_HALF_EVEN, Context, Decimal
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
    InvalidText,
    Lowercase,
    MaxItemsReading,
    MembersReading,
    Options,
    RecencyReading,
    RequestError,
    SnapshotText,
    SuppliedTerms,
    TermLength,
    TextReading,
    TrustMatch,
    TsGrammar,
    Whitespace,
    canonical,
    check_request,
    derive_terms,
    is_blank,
    is_denied,
    lower,
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
    "go_pow_half",
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


def _fma(a: float, b: float, c: float) -> float:
    """One fused multiply-add (x86 VFMADD): a * b + c exactly, then rounded once."""
    exact = Fraction(a) * Fraction(b) + Fraction(c)
    return float(exact) if exact != 0 else a * b + c


def _go_exp_amd64(x: float) -> float:
    """Go 1.19's math.Exp on amd64 (exp_amd64.s, its FMA branch) for a finite x well inside
    the normal range: k = x / ln 2 rounded to even, r = (x - k ln2_hi - k ln2_lo) / 16, the
    Taylor polynomial of e**r - 1 to r**8 / 8!, squared back four times, times 2**k."""
    k = float(round(x * 1.4426950408889634073599246810018920))
    r = _fma(-0.69314718055966295651160180568695068359375, k, x)
    r = _fma(-0.28235290563031577122588448175013436025525412068e-12, k, r) * 0.0625
    poly = 2.4801587301587301587e-5  # 1/8!, then down to 1/3!, 1/2, 1
    for c in (1.9841269841269841270e-4, 1.3888888888888888889e-3, 8.3333333333333333333e-3,
              4.1666666666666666667e-2, 1.6666666666666666667e-1, 0.5, 1.0):  # fmt: skip
        poly = _fma(poly, r, c)
    e = r * poly  # e**r - 1; (e**2r - 1) = (e**r - 1) * ((e**r - 1) + 2)
    e = e * (e + 2.0)
    e = e * (e + 2.0)
    e = e * (e + 2.0)
    return math.ldexp(_fma(e, e + 2.0, 1.0), int(k))


#: Go's log_amd64.s at x = 0.5: f1 = 0.5 <= sqrt(2)/2, so k = -1 and f = 0, leaving
#: k * Ln2Hi - (0 - (0 + k * Ln2Lo)) = -Ln2Hi - Ln2Lo.
_GO_LOG_HALF: Final = -6.93147180369123816490e-01 - 1.90821492927058770002e-10


def go_pow_half(exponent: float) -> float:
    """INT-04/go-math-pow: "Use Go's math.Pow as Go 1.19 computes it on amd64 with FMA: pow.go
    (Modf, Frexp, Ldexp, the repeated squaring of x for the integer part of y) over exp_amd64.s
    and log_amd64.s for x**frac(y)", for x = 0.5 and y = exponent > 0: y = yi + yf with yf in
    (-1/2, 1/2] (a fraction above 1/2 borrows one from yi), 0.5**yf = Exp(yf * Log(0.5)), and
    0.5**yi scales it by 2**-yi exactly (squarings of 0.5 are powers of two); Ldexp rounds once."""
    if exponent == 1:
        return 0.5
    if exponent == 0.5:
        return math.sqrt(0.5)
    fraction, whole = math.modf(exponent)
    if fraction > 0.5:
        fraction -= 1
        whole += 1
    scaled = _go_exp_amd64(fraction * _GO_LOG_HALF) if fraction != 0 else 1.0
    return math.ldexp(scaled, -int(whole)) if whole < 1 << 20 else 0.0


@dataclass(frozen=True)
class Choices:
    """The readings one oracle run follows, as the values its steps take; every default is the
    register's pinned reading."""

    # -- canonical JSON, hashing and numbers (INT-01..04, INT-17, INT-47)
    form: str = "jcs"  # INT-01: the canonical form of both hashes (see ``encode``)
    preimage: str = "normalized"  # INT-02: what record_hash covers
    package_fields: str = "all"  # INT-03: what package_hash covers
    weight: Callable[[float], float] = pow_half  # INT-04: pow(0.5, exponent)
    score_hashed: bool = True  # INT-04: the scores are part of package_hash
    bonus_decimals: int | None = None  # INT-04: recency_bonus rounded to this many decimals
    numbers: str = "doubles"  # INT-17: how record numbers are read
    spec005_hash: bool = False  # INT-47: a SPEC-005 hash member is the record_hash

    # -- text, query terms, matching and excerpts (INT-05..11, INT-31, INT-33)
    whitespace: Whitespace = "white-space"  # INT-05: trim, collapse, split, strip
    lowercase: Lowercase = "full"  # INT-06: 'lower' of the query, terms and text
    term_length: TermLength = "code-points"  # INT-07: a derived term's length
    terms: SuppliedTerms = "normalized"  # INT-08: supplied query_terms
    matching: str = "normalized"  # INT-09: the text terms are matched against
    counting: str = "terms"  # INT-10: what term_match_count counts
    query_raw: str = "as-given"  # INT-11: query.raw
    excerpt_strip: str = "once"  # INT-31: how the excerpt is stripped
    string_order: str = "code-points"  # INT-33: how tie-break strings compare

    # -- store paths, the JSONL reader and invalid lines (INT-12..16, INT-18, INT-19)
    duplicate_stores: str = "once"  # INT-12: a store named twice is read "once" or "twice"
    store_order: str = "code-points"  # INT-12: how normalized store paths sort
    missing_store: str = "error"  # INT-13: a store that does not exist
    store_checks: str = "sorted"  # INT-13: the order stores are checked in
    blank_lines: str = "skip"  # INT-14: an empty or whitespace-only line
    cr: str = "removed"  # INT-14: the CR before a line's LF
    utf8: str = "strict"  # INT-15: bytes that are not UTF-8
    bom: str = "reject"  # INT-15: a leading BOM
    constants: str = "reject"  # INT-15: NaN, Infinity, -Infinity
    surrogates: str = "reject"  # INT-15: an escaped lone surrogate
    infinity: str = "reject"  # INT-17: a number that rounds to infinity: "reject" or "null"
    duplicates: str = "last"  # INT-16: a member name twice in one object
    max_depth: int | None = MAX_DEPTH  # INT-18: the nesting limit
    long_lines: str = "invalid"  # INT-18: a line over 1 MiB: "invalid", "read", "cut", "fail";
    # "go-scanner": a line of 64 KiB or more fails the call
    invalid_entries: str = "listed"  # INT-19: the dropped entries of invalid lines

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
    tag_lowercase: Lowercase = "full"  # INT-25: 'lowercased' of the tags (INT-06's readings)
    age: str = "exact"  # INT-35: age_days and future timestamps

    # -- request, selection, dropped and trust (INT-26..30, INT-34, INT-36..46)
    overflow: str = "stop"  # INT-26: at a candidate that does not fit the budget
    max_items_reason: str | None = "max_items_reached"  # INT-27: left out by max_items
    dropped_order: str = "read"  # INT-28: the order of dropped
    dropped_first: int | None = None  # INT-28: only the first this many drops are listed
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
        table = ALTERNATIVES | PACKAGE_WIDE
        for reading_id in sorted(ids):
            alternative_id, value = _with_value(reading_id)
            if alternative_id not in table:
                known = ", ".join(sorted(ALTERNATIVES))
                raise UnknownAlternative(f"no alternative {reading_id!r} (known: {known})")
            entry = alternative_id.split("/")[0]
            if entry in entries:
                raise UnknownAlternative(
                    f"{entries[entry]!r} and {reading_id!r} are two readings of {entry}"
                )
            entries[entry] = reading_id
            choices = replace(choices, **table[alternative_id], **value)
        return choices


def _with_value(reading_id: str) -> tuple[str, dict[str, Any]]:
    """(the alternative's ID, the Choices value its parameter sets) of a reading ID such as
    ``INT-28/list-first-n-drops(n=3)``: a value for exactly the alternatives of
    :data:`PARAMETERS`, an int in their bounds written without a sign or leading zeros."""
    alternative_id, _, rest = reading_id.partition("(")
    declared = PARAMETERS.get(alternative_id)
    if declared is None:
        if rest:
            raise UnknownAlternative(f"{alternative_id!r} takes no value: {reading_id!r}")
        return alternative_id, {}
    name, choice, low, high = declared
    digits = rest.removeprefix(f"{name}=").removesuffix(")")
    if (
        not rest.startswith(f"{name}=")
        or not rest.endswith(")")
        or not digits.isascii()
        or not digits.isdigit()
        or (len(digits) > 1 and digits[0] == "0")
        or not low <= int(digits) <= (high if high is not None else int(digits))
    ):
        raise UnknownAlternative(
            f"{reading_id!r}: {alternative_id} takes one value, {name} (an int from {low}"
            f"{'' if high is None else f' to {high}'}), as in {alternative_id}({name}={low})"
        )
    return alternative_id, {choice: int(digits)}


# ------------------------------------------------------------------------------- hashing


def _utf16(name: str) -> list[int]:
    """A member name as UTF-16 code units (RFC 8785 section 3.2.3 sorts on these)."""
    units: list[int] = []
    for char in name:
        point = ord(char)
        if point < 0x10000:
            units.append(point)
        else:
            point -= 0x10000
            units += [0xD800 + (point >> 10), 0xDC00 + (point & 0x3FF)]
    return units


_SHORT = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}

#: Go 1.19 to 1.21's encoding/json has short escapes for these only (\b and \f came in 1.22).
_GO_OLD_SHORT = frozenset('"\\\t\n\r')


_GO_HTML = frozenset("<>&\u2028\u2029")


def _string(
    text: str, ascii_only: bool, go: bool = False, lone: bool = False, old_go: bool = False
) -> str:
    """RFC 8785 section 3.2.2.2: '"', '\\' and U+0000..U+001F escaped (short forms where JSON
    has them); ``ascii_only`` (ensure_ascii=True) also escapes every character outside
    U+0020..U+007E, a non-BMP one as its surrogate pair; ``lone``: a lone surrogate is written
    as JSON.stringify writes it, the escape \\udxxx (otherwise it is an error); ``old_go``:
    U+0008 and U+000C as \\u0008 and \\u000c, as Go before 1.22 writes them."""
    if not lone:
        require_unicode(text, "string")
    out = ['"']
    for char in text:
        point = ord(char)
        if 0xD800 <= point <= 0xDFFF:  # only with ``lone``: lowercase hex, as JSON.stringify
            out.append(f"\\u{point:04x}")
        elif char in _SHORT and (not old_go or char in _GO_OLD_SHORT):
            out.append(_SHORT[char])
        elif point < 0x20 or (ascii_only and point > 0x7E) or (go and char in _GO_HTML):
            out.extend(f"\\u{unit:04x}" for unit in _utf16(char))
        else:
            out.append(char)
    out.append('"')
    return "".join(out)


def _jcs_like(
    value: Any,
    names: Callable[[str], Any],
    ascii_only: bool,
    go: bool = False,
    lone: bool = False,
    old_go: bool = False,
) -> str:
    """RFC 8785 with member names ordered by ``names``; integers written as their digits;
    ``go``: Go's escapes, and -0 keeps its sign; ``lone``: lone surrogates as \\udxxx;
    ``old_go``: Go 1.19 to 1.21's \\u0008 and \\u000c."""
    if isinstance(value, dict):
        members = sorted(value, key=names)
        parts = [_string(k, ascii_only, go, lone, old_go) + ":"
                 + _jcs_like(value[k], names, ascii_only, go, lone, old_go)
                 for k in members]  # fmt: skip
        return "{" + ",".join(parts) + "}"
    if isinstance(value, list):
        items = (_jcs_like(item, names, ascii_only, go, lone, old_go) for item in value)
        return "[" + ",".join(items) + "]"
    if isinstance(value, str):
        return _string(value, ascii_only, go, lone, old_go)
    if value is None or isinstance(value, bool):
        return {None: "null", True: "true", False: "false"}[value]
    if isinstance(value, int):
        return str(value)
    if go and value == 0 and str(value).startswith("-"):
        return "-0"
    return canonical(value).decode("ascii")  # a double: ECMAScript Number::toString


def encode(value: Any, form: str = "jcs") -> bytes:
    """INT-01: ``value`` in canonical ``form``: "jcs" (pinned, RFC 8785), "code-point-keys"
    (member names sorted by code point), "ascii-escapes" (RFC 8785 with ensure_ascii=True
    escaping), "go-json" (Go json.Marshal: code-point names, HTML-safe escapes, -0),
    "go-json-1.19" (the same as Go 1.19 to 1.21 escape U+0008 and U+000C),
    "python-json" / "python-json-ascii" (Python's json.dumps with sort_keys=True,
    separators=(',', ':'), ensure_ascii False / True)."""
    if form.startswith("python-json"):
        text = json.dumps(value, sort_keys=True, separators=(",", ":"),
                          ensure_ascii=form == "python-json-ascii", allow_nan=False)  # fmt: skip
        return text.encode("utf-8")
    names: Callable[[str], Any] = (
        _utf16 if form in ("jcs", "ascii-escapes", "jcs-lone-escapes") else str
    )
    lone = form == "jcs-lone-escapes"  # INT-15/javascript-keep-lone-surrogates: JSON.stringify
    go = form in ("go-json", "go-json-1.19")
    written = _jcs_like(value, names, form == "ascii-escapes", go, lone, form == "go-json-1.19")
    return written.encode("utf-8", "surrogatepass" if lone else "strict")


def _exact(raw: bytes) -> Any:
    """The line as Python's json module reads it: integers exact, the last duplicate winning."""
    return json.loads(raw.decode("utf-8"))


def _go_refs(raw: bytes, refs: list[Any]) -> list[Any]:
    """INT-01/go-encoding-json*: refs as Go's json.Unmarshal into an ``any`` reads them, every
    number with strconv.ParseFloat: the literal -0 is the double -0.0 (Python's json reads the
    integer 0); every other number is the double ``refs`` already holds."""
    if b"-0" not in raw:
        return refs
    go_read = json.loads(raw.decode("utf-8"), parse_int=float).get("refs", [])

    def signed(doubles: Any, value: Any) -> Any:
        if isinstance(value, list):
            return [signed(d, v) for d, v in zip(doubles, value, strict=True)]
        if isinstance(value, dict):
            return {k: signed(doubles[k], v) for k, v in value.items()}
        if isinstance(doubles, float) and doubles == 0 and math.copysign(1, doubles) < 0:
            return doubles
        return value

    return signed(go_read, refs)  # type: ignore[no-any-return]


def _unsafe_integer(raw: bytes) -> bool:
    """INT-17/reject-integers-outside-2: some integer of the line's text, in a member that a
    later duplicate overwrites too, lies outside +-(2**53-1)."""
    found: list[int] = []

    def pairs(members: list[tuple[str, Any]]) -> dict[str, Any]:
        found.extend(v for _, v in members if type(v) is int)
        return dict(members)

    value = json.loads(raw.decode("utf-8"), object_pairs_hook=pairs)
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, list):
            found.extend(v for v in item if type(v) is int)
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
    if type(value) is int:
        found.append(value)
    return any(abs(number) > SAFE_INT for number in found)


def _hashing(choices: Choices) -> tuple[str, str, str, bool]:
    """The readings a record's hash depends on."""
    return choices.form, choices.preimage, choices.numbers, choices.spec005_hash


def hash_record(raw: bytes, cand: dict[str, Any], store_path: str, choices: Choices) -> str:
    """record_hash of a valid candidate under ``choices`` (INT-01, INT-02, INT-17, INT-47)."""
    if choices.spec005_hash:  # INT-47: "Treat SPEC-005 hash as record_hash."
        stored = _exact(raw).get("hash")
        if isinstance(stored, str):
            return stored
    if choices.preimage == "raw-line":  # the line's bytes, its terminator already removed
        return sha256_hex(raw)
    exact = choices.numbers == "exact" or choices.form.startswith("python-json")
    hashed = {"memory_id": cand["memory_id"], "tags": cand["tags"], "text": cand["text"]}
    hashed["refs"] = _exact(raw).get("refs", []) if exact else cand["refs"]
    if choices.form.startswith("go-json") and choices.numbers == "doubles":
        hashed["refs"] = _go_refs(raw, cand["refs"])
    if "ts_utc" in cand:
        hashed["ts_utc"] = cand["ts_utc"]
    elif choices.preimage == "ts-null":
        hashed["ts_utc"] = None
    if choices.preimage == "stripped-text":
        hashed["text"] = strip_ws(cand["text"], choices.whitespace)
    elif choices.preimage == "store-path":
        hashed["store_path"] = store_path
    return sha256_hex(encode(hashed, choices.form))


def hash_package(package: dict[str, Any], choices: Choices) -> str:
    """package_hash: INT-03 what it covers, INT-04 whether scores are in, INT-01 the form."""
    hashed = {k: v for k, v in package.items() if k != "package_hash"}  # "all but itself"
    selected = hashed["selection"]["selected"]
    if not choices.score_hashed:
        selected = [{k: v for k, v in item.items() if k != "score"} for item in selected]
        hashed["selection"] = {**hashed["selection"], "selected": selected}
    if choices.package_fields == "must-list":
        keys = ("memory_id", "record_hash", "store_path", "score", "excerpt_tokens")
        items = [{k: item[k] for k in keys if k in item} for item in selected]
        hashed = {"budget": hashed["budget"], "selection": {"selected": items}}
    elif choices.package_fields == "no-query-raw":
        hashed["query"] = {"query_hash": hashed["query"]["query_hash"]}
    return sha256_hex(encode(hashed, choices.form))


#: The register's executable alternatives (specs/interpretations.toml, ``executable``), each
#: with the register's words for it and the :class:`Choices` values it sets.
ALTERNATIVES: Final[dict[str, dict[str, Any]]] = {
    # -- canonical JSON, hashing and numbers (INT-01..04, INT-17, INT-47)
    # INT-01 alternatives[1]: "Sort keys by code point / UTF-8 bytes (differs from JCS only for
    # keys mixing non-BMP characters with U+E000..U+FFFF)."
    "INT-01/sort-keys-code-point": {"form": "code-point-keys"},
    # INT-01 alternatives[2]: "ensure_ascii=True escaping (\uXXXX for all non-ASCII)."
    "INT-01/ensure-ascii-true-escaping": {"form": "ascii-escapes"},
    # INT-01 alternatives[4]: "Go encoding/json.Marshal of the decoded value: map keys sorted
    # by their UTF-8 bytes; the HTML-safe escapes \u003c, \u003e, \u0026 for <, >, & and
    # \u2028, \u2029 for the line and paragraph separators; a negative zero written -0; ..."
    "INT-01/go-encoding-json": {"form": "go-json"},
    # INT-01 alternatives[5]: "Go encoding/json.Marshal as in Go 1.19 to 1.21: as the fifth
    # alternative, but U+0008 and U+000C written \u0008 and \u000c"
    "INT-01/go-encoding-json-before-1-22": {"form": "go-json-1.19"},
    # INT-02 alternatives[2]: "Hash the stripped text, or the raw line bytes." (the stripped
    # text; the raw bytes are alternatives[3])
    "INT-02/hash-stripped-text-raw": {"preimage": "stripped-text"},
    # INT-04 alternatives[0]: "Use the platform pow (then package_hash differs between runtimes
    # for ~10% of recency inputs)."
    "INT-04/platform-pow": {"weight": platform_pow_half},
    # INT-04 alternatives[4]: "Use Go's math.Pow as Go 1.19 computes it on amd64 with FMA"
    "INT-04/go-math-pow": {"weight": go_pow_half},
    # INT-17 alternatives[0]: "Keep integers exact (Python int) - hashes then differ from JCS
    # libraries."
    "INT-17/keep-integers-exact-python": {"numbers": "exact"},
    # INT-17 alternatives[1]: "Reject integers outside +-(2**53-1)."
    "INT-17/reject-integers-outside-2": {"numbers": "safe"},
    # INT-47 alternatives[3]: "Treat SPEC-005 hash as record_hash."
    "INT-47/treat-spec-005-hash": {"spec005_hash": True},
    # -- text, query terms, matching and excerpts (INT-05..11, INT-31, INT-33)
    # INT-05 alternatives[0]: "ASCII whitespace only (space, \t, \n, \v, \f, \r)."
    "INT-05/ascii-whitespace-space-t": {"whitespace": "ascii"},
    # INT-05 alternatives[1]: "Python str.split() / str.strip() semantics."
    "INT-05/python": {"whitespace": "python"},
    # INT-05 alternatives[2]: "ECMAScript String.prototype.trim and /\s+/."
    "INT-05/ecmascript": {"whitespace": "ecmascript"},
    # INT-06 alternatives[0]: "Case folding (str.casefold()): ß -> ss, ﬁ -> fi."
    "INT-06/case-folding-str-casefold": {"lowercase": "case-folding"},
    # INT-06 alternatives[1]: "ASCII-only lowercasing."
    "INT-06/ascii-lowercasing": {"lowercase": "ascii"},
    # INT-06 alternatives[2]: "Simple (1:1) lowercase mapping without Final_Sigma."
    "INT-06/simple-1-1-lowercase": {"lowercase": "simple"},
    # INT-07 alternatives[0]: "UTF-16 code units (JavaScript .length)."
    "INT-07/utf-16-units": {"term_length": "utf-16-units"},
    # INT-07 alternatives[1]: "UTF-8 bytes."
    "INT-07/utf-8-bytes": {"term_length": "utf-8-bytes"},
    # INT-07 alternatives[2]: "Grapheme clusters."
    "INT-07/grapheme-clusters": {"term_length": "grapheme-clusters"},
    # INT-08 alternatives[0]: "Use supplied terms verbatim."
    "INT-08/verbatim": {"terms": "verbatim"},
    # INT-08 alternatives[1]: "Apply all derivation steps (split, length filter) to supplied
    # terms."
    "INT-08/apply-derivation-steps-split": {"terms": "derived"},
    # INT-08 alternatives[2]: "Treat an empty list as absent and derive from the query."
    "INT-08/treat-empty-list-absent": {"terms": "empty-is-absent"},
    # INT-09 alternatives[0]: "Lowercase only, no whitespace collapse."
    "INT-09/lowercase-whitespace-collapse": {"matching": "lowercase-only"},
    # INT-09 alternatives[1]: "Raw text (case-sensitive)."
    "INT-09/raw-text-case-sensitive": {"matching": "raw"},
    # INT-09 alternatives[2]: "Tokenize text into words and match whole words." (words: the
    # normalized text split on whitespace; a term's own words must appear consecutively)
    "INT-09/tokenize-text-words-match": {"matching": "words"},
    # INT-10 alternatives[0]: "Count occurrences." (of each term, left to right, an occurrence
    # starting after the previous one ends)
    "INT-10/count-occurrences": {"counting": "occurrences"},
    # INT-10 alternatives[1]: "Count only non-overlapping matches." (a left-to-right scan taking
    # the longest term at each position; the distinct terms so matched are counted)
    "INT-10/count-non-overlapping-matches": {"counting": "non-overlapping"},
    # INT-11 alternatives[0]: "query.raw holds the normalized query."
    "INT-11/query-raw-holds-normalized": {"query_raw": "normalized"},
    # INT-31 alternatives[0]: "Strip again after the cut."
    "INT-31/strip-again-after-cut": {"excerpt_strip": "again"},
    # INT-31 alternatives[1]: "Strip ASCII whitespace only."
    "INT-31/strip-ascii-whitespace": {"excerpt_strip": "ascii"},
    # INT-33 alternatives[1]: "UTF-16 order (JavaScript default)."
    "INT-33/utf-16-order-javascript": {"string_order": "utf-16"},
    # -- store paths, the JSONL reader and invalid lines (INT-12..16, INT-18, INT-19)
    # INT-12 alternatives[1]: "Keep duplicates and read them twice."
    "INT-12/keep-duplicates-read-twice": {"duplicate_stores": "twice"},
    # INT-12 alternatives[2]: "Sort by UTF-16 code units."
    "INT-12/sort-utf-16-code": {"store_order": "utf-16-units"},
    # INT-13 alternatives[0]: "Skip missing stores (partial success)."
    "INT-13/skip-missing-stores-partial": {"missing_store": "skip"},
    # INT-13 alternatives[1]: "Check in request order."
    "INT-13/check-request-order": {"store_checks": "request"},
    # INT-14 alternatives[0]: "Blank lines dropped as invalid_record_schema."
    "INT-14/blank-lines-dropped-invalid": {"blank_lines": "invalid"},
    # INT-14 alternatives[1]: "CR kept as part of the line (then a CRLF line still parses: CR
    # is JSON whitespace)."
    "INT-14/cr-kept-part-line": {"cr": "kept"},
    # INT-14 alternatives[2]: "A CR not followed by LF also ends a line (universal newlines)."
    "INT-14/cr-also-ends-line": {"cr": "line-break"},
    # INT-15 alternatives[0]: "Strip a leading BOM."
    "INT-15/strip-leading-bom": {"bom": "strip"},
    # INT-15 alternatives[1]: "Accept NaN/Infinity like Python's json module."
    "INT-15/accept-nan-infinity-like": {"constants": "accept"},
    # INT-15 alternatives[2]: "Replace lone surrogates with U+FFFD."
    "INT-15/replace-lone-surrogates-u": {"surrogates": "replace"},
    # INT-15 alternatives[3]: "Invalid UTF-8 inside a string (one U+FFFD for each byte that
    # starts no valid sequence) and escaped lone surrogates read as U+FFFD, like Go's
    # encoding/json."
    "INT-15/go-replace-invalid-utf-8": {"utf8": "go", "surrogates": "replace"},
    # INT-15 alternatives[4]: "JavaScript's JSON.parse: an escaped lone surrogate stays in the
    # string ... canonical JSON (record_hash, package_hash) and the output write it as
    # JSON.stringify does, the escape \\udxxx" (the excerpt: ``make_excerpt``).
    "INT-15/javascript-keep-lone-surrogates": {"surrogates": "keep", "form": "jcs-lone-escapes"},
    # INT-16 alternatives[0]: "First occurrence wins."
    "INT-16/first-occurrence-wins": {"duplicates": "first"},
    # INT-16 alternatives[1]: "invalid_record_schema (I-JSON: names MUST be unique)."
    "INT-16/invalid-record-schema-i": {"duplicates": "reject"},
    # INT-16 alternatives[2]: "A record field (memory_id, text, tags, refs, ts_utc) named twice
    # in the top-level object makes the line invalid_record_schema with memory_id ""; any
    # other duplicate: the last wins (serde_json deserializing into a struct)."
    "INT-16/duplicate-record-field-invalid": {"duplicates": "record-fields"},
    # INT-17 alternatives[2]: "JavaScript's JSON.parse: a number literal whose magnitude rounds
    # to infinity ... reads as Infinity ...; JSON.stringify ... writes it null".
    "INT-17/javascript-infinity-null": {"infinity": "null"},
    # INT-18 alternatives[0]: "No limit (implementation-defined behaviour)."
    "INT-18/limit-implementation-defined-behaviour": {"max_depth": None},
    # INT-18 alternatives[1]: "Limit 1000 or 1024." (1000)
    "INT-18/limit-1000-1024": {"max_depth": 1000},
    # INT-18 alternatives[4]: "Limit 127: a line nested 128 deep is invalid (serde_json's
    # default recursion limit of 128)."
    "INT-18/limit-127-serde": {"max_depth": 127},
    # INT-18 alternatives[2]: "No length limit: a store without newlines must fit in memory."
    "INT-18/length-limit-store-without": {"long_lines": "read"},
    # INT-18 alternatives[3]: "A line past the length limit is truncated, or fails the call
    # (store_not_readable)." -- its first behaviour; alternatives[5] is the second.
    "INT-18/line-past-length-limit": {"long_lines": "cut"},
    # INT-18 alternatives[5]: "A line past the length limit fails the call (store_not_readable)."
    "INT-18/overlong-line-fails-call": {"long_lines": "fail"},
    # INT-18 alternatives[6]: "Go's bufio.Scanner with its default buffer: a line of 65,536
    # bytes or more before its LF ... the call fails (store_not_readable) ...; a line nested
    # deeper than 10,000 is invalid (encoding/json's limit)".
    "INT-18/go-bufio-scanner": {"long_lines": "go-scanner", "max_depth": 10_000},
    # INT-19 alternatives[0]: "memory_id and record_hash null."
    "INT-19/memory-id-record-hash": {"invalid_entries": "null"},
    # INT-19 alternatives[1]: "Omit invalid lines from dropped (contradicts 'counted as
    # dropped')."
    "INT-19/omit-invalid-lines-dropped": {"invalid_entries": "omitted"},
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
    # INT-20 alternatives[8]: "Go's time.Parse(time.RFC3339, s) (Go 1.19) with a zero UTC
    # offset ..." (the grammar in conformance/readings/_timestamps.py).
    "INT-20/go-time-parse-rfc3339": {"ts_grammar": "go-time-parse-rfc3339"},
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
    # INT-25 alternatives[2]: "Lowercase each tag with the simple (1:1) mapping, without
    # Final_Sigma (U+0130 -> i, every capital sigma -> U+03C3), as INT-06's third alternative
    # lowercases the query and text."
    "INT-25/tags-simple-lowercase": {"tag_lowercase": "simple"},
    # INT-35 alternatives[0]: "Whole days (floor)."
    "INT-35/whole-days-floor": {"age": "floor"},
    # INT-35 alternatives[1]: "Future timestamps get no bonus."
    "INT-35/future-timestamps-get-bonus": {"age": "future-zero"},
    # INT-35 alternatives[2]: "Future timestamps are invalid." (where recency applies)
    "INT-35/future-timestamps-invalid": {"age": "future-invalid"},
    # INT-35 alternatives[3]: "Go's now.Sub(ts).Hours() / 24: the duration in nanoseconds
    # (saturating at +-(2**63 - 1) ns, about 292 years), its whole hours plus the remaining
    # nanoseconds / 3.6e12 added as doubles, then divided by 24 (three roundings, not one)."
    "INT-35/go-duration-hours": {"age": "go-hours"},
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

#: INT-01..INT-04 alternatives that change (nearly) every package's hashes and nothing else
#: (``hashes_only`` in the reference): written here like the others, compared with the
#: reference by tests/tools/test_oracle_hashing_readings.py.
PACKAGE_WIDE: Final[dict[str, dict[str, Any]]] = {
    # INT-01 alternatives[0]: "Python json.dumps(sort_keys=True, separators=(',', ':'),
    # ensure_ascii=False) ..."
    "INT-01/python-json-dumps-sort": {"form": "python-json"},
    # INT-01 alternatives[3]: the same with ensure_ascii=True.
    "INT-01/python-json-dumps-ascii": {"form": "python-json-ascii"},
    # INT-02 alternatives[0]: "Include store_path (hash identifies a location, not content)."
    "INT-02/include-store-path-hash": {"preimage": "store-path"},
    # INT-02 alternatives[1]: "ts_utc: null when absent."
    "INT-02/ts-utc-null-absent": {"preimage": "ts-null"},
    # INT-02 alternatives[3]: "Hash the raw line bytes (without its LF or CRLF ...)."
    "INT-02/hash-raw-line-bytes": {"preimage": "raw-line"},
    # INT-03 alternatives[0]: "Hash only the fields the MUST list names (selected memory_id,
    # record_hash, store_path, score, excerpt_tokens + budget); excerpt and dropped excluded."
    "INT-03/hash-fields-must-list": {"package_fields": "must-list"},
    # INT-03 alternatives[1]: "Exclude query.raw (only query_hash)."
    "INT-03/exclude-query-raw-query": {"package_fields": "no-query-raw"},
    # INT-04 alternatives[2]: "Exclude score from package_hash (contradicts HASHING's MUST list)."
    "INT-04/exclude-score-package-hash": {"score_hashed": False},
}
ALTERNATIVES.update(PACKAGE_WIDE)  # executable like the others (hashes_only in the reference)

#: Alternatives whose words leave a value free, a parameter of the reading (its ID then carries
#: the value, ``INT-28/list-first-n-drops(n=3)``): ID -> (the parameter's name, the
#: :class:`Choices` field it sets, its least value, its greatest or None), as the register's
#: ``parameters`` declare them.
PARAMETERS: Final[dict[str, tuple[str, str, int, int | None]]] = {
    # INT-04 alternatives[1]: "Round recency_bonus to a fixed number of decimals before adding
    # (contradicts 'recency_bonus = weight')."
    "INT-04/round-recency-bonus-fixed": ("decimals", "bonus_decimals", 0, 30),
    # INT-28 alternatives[2]: "Only list the first N drops."
    "INT-28/list-first-n-drops": ("n", "dropped_first", 0, None),
}
ALTERNATIVES.update({key: {} for key in PARAMETERS})  # the value comes with the ID


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
    elif age == "go-hours":  # INT-35/go-duration-hours: "now.Sub(ts).Hours() / 24"
        d = max(-(2**63), min(2**63 - 1, elapsed_ns))
        whole = int(Fraction(d, 3_600_000_000_000))  # int() truncates toward zero, as Go's /
        rest = d - whole * 3_600_000_000_000  # Go's %: the sign of d
        age_days = (float(whole) + float(rest) / 3.6e12) / 24
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
    base = term_match_count(record["text"], terms, choices)
    tag_bonus = 0.0
    if opts.tag_overlap:  # 'overlap = count of query_terms that exactly match any candidate tag'
        tag_bonus = sum(1 for t in terms if t in record["tags"]) * 0.5  # 'overlap * 0.5'
    bonus = 0.0
    # 'Only allowed if now_utc is provided and candidate ts_utc is valid.' (INT-36)
    if opts.recency and opts.now is not None and "_instant" in record:
        bonus = recency_bonus(
            opts.now, record["_instant"], opts.half_life, choices.weight, choices.age
        )
        if choices.bonus_decimals is not None:
            # INT-04/round-recency-bonus-fixed: "Round recency_bonus to a fixed number of
            # decimals before adding": the weight's exact value to that many decimals (half to
            # even), then the double nearest that decimal
            places = Decimal(1).scaleb(-choices.bonus_decimals)
            exact = Context(prec=100, rounding=ROUND_HALF_EVEN)
            bonus = float(Decimal(bonus).quantize(places, context=exact))
    return (float(base) + tag_bonus) + bonus


def _occurrences(text: str, term: str) -> int:
    """INT-10/count-occurrences: occurrences of ``term`` found left to right, each starting
    where the previous one ended (an empty term occurs before every code point and at the end)."""
    if term == "":
        return len(text) + 1
    found, start = 0, 0
    while (at := text.find(term, start)) >= 0:
        found += 1
        start = at + len(term)
    return found


def _non_overlapping(text: str, terms: list[str]) -> int:
    """INT-10/count-non-overlapping-matches: the distinct terms matched by a left-to-right scan
    that takes, at each position, the longest term starting there and resumes after it."""
    matched: set[str] = set()
    position = 0
    while position < len(text):
        starting = [t for t in terms if t and text[position : position + len(t)] == t]
        if starting:
            longest = max(starting, key=len)
            matched.add(longest)
            position += len(longest)
        else:
            position += 1
    return len(matched)


def term_match_count(text: str, terms: list[str], choices: Choices) -> int:
    """'term_match_count = number of query_terms that appear as substrings in normalized
    candidate text' (INT-09 which text, INT-10 what is counted)."""
    if choices.matching == "lowercase-only":  # INT-09: lowercased, not trimmed or collapsed
        haystack = lower(text, choices.lowercase)
    elif choices.matching == "raw":  # INT-09: the text as read, case-sensitive
        haystack = text
    else:  # INT-09: 'normalized candidate text'
        haystack = normalize_text(text, choices.whitespace, choices.lowercase)
    if choices.matching == "words":  # INT-09: whole words, a phrase as consecutive words
        words = haystack.split(" ")

        def has(term: str) -> bool:
            pieces = term.split(" ")
            return any(words[i : i + len(pieces)] == pieces for i in range(len(words)))

        if choices.counting != "terms":
            raise OracleUndefined("INT-09/tokenize-text-words-match with INT-10's alternatives")
        return sum(1 for t in terms if has(t))
    if choices.counting == "occurrences":
        return sum(_occurrences(haystack, t) for t in terms)
    if choices.counting == "non-overlapping":
        return _non_overlapping(haystack, terms)
    return sum(1 for t in terms if t in haystack)  # INT-10: terms, not occurrences


def utf16_units(s: str) -> list[int]:
    """The UTF-16 code units of ``s``: a code point above U+FFFF is a surrogate pair."""
    units: list[int] = []
    for ch in s:
        cp = ord(ch)
        if cp > 0xFFFF:
            cp -= 0x10000
            units += [0xD800 + (cp >> 10), 0xDC00 + (cp & 0x3FF)]
        else:
            units.append(cp)
    return units


#: INT-12: how two store paths compare ("Sort by UTF-16 code units": everywhere paths are
#: ordered, the read order and the store_path tie-break alike).
STORE_KEYS: Final[dict[str, Callable[[str], Any]]] = {
    "code-points": str,
    "utf-16-units": utf16_units,
}


def order_key(
    cand: dict[str, Any],
    strings: str = "code-points",
    store_key: Callable[[str], Any] = str,
    ts_order: str = "instant",
) -> tuple[Any, ...]:
    """TIE-BREAKING 1)-5) plus read order (INT-33: strings by code point, or with
    ``strings="utf-16"`` by UTF-16 code units, INT-33/utf-16-order-javascript); ``store_key``
    is the INT-12 path order; ``ts_order`` the INT-21 reading of 2): by the instant, or
    ``"raw"`` (INT-21/order-raw-string-05: the ts_utc strings as read, compared by code point,
    descending)."""
    instant = cand.get("_instant")
    ts_key: tuple[Any, ...] = (0, -instant[0], -instant[1]) if instant is not None else (1, 0, 0)
    if ts_order == "raw" and instant is not None:
        # descending string order: each code point negated, and an end marker above them all
        ts_key = (0, (*(-ord(c) for c in cand["_raw_ts"]), 1))
    key: Callable[[str], Any] = utf16_units if strings == "utf-16" else str
    return (
        -cand["score"],  # 1) score descending
        ts_key,  # 2) ts_utc descending (missing ts_utc sorts last)
        (key if strings == "utf-16" else store_key)(cand["store_path"]),  # 3) store_path
        key(cand["memory_id"]),  # 4) memory_id ascending
        key(cand["record_hash"]),  # 5) record_hash ascending
        cand["read_index"],
    )


# --------------------------------------------------------------------------- truncation


def make_excerpt(
    text: str, per_item: int, ws: Whitespace = "white-space", strip: str = "once"
) -> tuple[str, int]:
    """TRUNCATION: strip, cut to per_item * 4 UTF-8 bytes at a code-point boundary.

    ``strip`` is the INT-31 reading: "once" (pinned), "again" (INT-31/strip-again-after-cut:
    the cut excerpt is stripped once more) or "ascii" (INT-31/strip-ascii-whitespace: only
    space, tab, LF, VT, FF and CR are stripped).
    """
    if strip == "ascii":
        ws = "ascii"
    stripped = strip_ws(text, ws)  # INT-31: White_Space strip only (INT-05: ws)
    # INT-15/javascript-keep-lone-surrogates: "its UTF-8 length, where one is taken (an excerpt
    # and its tokens), is that of U+FFFD (Buffer.from, TextEncoder: 3 bytes), and an excerpt
    # that is cut is decoded from those bytes ... while one that needs no cut keeps it".
    fffd = "".join("\ufffd" if 0xD800 <= ord(char) <= 0xDFFF else char for char in stripped)
    data = fffd.encode("utf-8")
    max_bytes = per_item * 4  # 'Determine max_bytes = per_item_max_excerpt_tokens * 4'
    if len(data) <= max_bytes and fffd != stripped:
        return stripped, -(-len(data) // 4)
    if len(data) > max_bytes:
        cut = max_bytes
        while cut > 0 and (data[cut] & 0xC0) == 0x80:  # 'cut back to last valid boundary'
            cut -= 1
        data = data[:cut]  # INT-31: not stripped again
        if strip == "again":
            data = strip_ws(data.decode("utf-8", errors="strict"), ws).encode("utf-8")
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
    raw: bytes,
    choices: Choices,
    now: tuple[int, int, str] | None = None,
    text: TextReading | None = None,
) -> dict[str, Any]:
    """One non-blank line -> a candidate or {'invalid': memory_id} (INT-15, INT-19, INT-22), as
    the chosen readings of the record contract (INT-20..25, INT-35) read it; under the pinned
    readings this is :func:`conformance.readings.read_line`; ``text`` is the INT-15/16/18
    reading of the JSON text (:func:`conformance.readings.parse_json_text`)."""
    try:
        value = parse_json_text(raw, text) if text is not None else parse_json_text(raw)
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
    if choices.tag_lowercase != "full":  # INT-25: "Lowercase each tag with the simple (1:1) ..."
        tags = obj.get("tags", [])
        record["tags"] = sorted({lower(tag, choices.tag_lowercase) for tag in tags})
    if choices.tag_sort == "utf-16":  # INT-25: "Sort by UTF-16 code units."
        record["tags"] = sorted(record["tags"], key=lambda tag: tag.encode("utf-16-be"))
    if "_instant" in record:
        record["_raw_ts"] = obj["ts_utc"]  # INT-21/order-raw-string-05 orders by it
    # INT-15/javascript-keep-lone-surrogates: RFC 8785 cannot write a lone surrogate; its
    # record_hash is computed under its own form (``hash_record``, in read_candidates).
    record["record_hash"] = "" if choices.surrogates == "keep" else record_hash(record)
    return record


#: INT-18: 'a line longer than 1,048,576 bytes (1 MiB, not counting its LF or CRLF terminator)
#: is invalid (invalid_record_schema) whatever it holds, with memory_id ""'.
MAX_LINE_BYTES: Final = 1_048_576


def _over_limit(raw: bytes) -> bool:
    """INT-18: ``raw`` (a line without its LF) is longer than the limit, a CR at its end (the
    CRLF terminator's) not counted."""
    return len(raw) - raw.endswith(b"\r") > MAX_LINE_BYTES


def _fail_on_long_lines(
    stores: list[tuple[str, bytes]], store_paths: list[str], choices: Choices
) -> None:
    """INT-18/overlong-line-fails-call: the first store (in read order) holding a non-blank
    line over the limit fails the call, at the first request entry naming it."""
    for store_path, data in stores:
        for raw in split_lines(data, choices.cr):
            if _over_limit(raw) and not is_blank(raw):
                index = [normalize_path(sp) for sp in store_paths].index(store_path)
                where = f"/store_paths/{index}"
                raise RequestError(
                    "store_not_readable", where, f"{store_path!r}: a line over 1 MiB"
                )


#: INT-18/go-bufio-scanner: bufio.MaxScanTokenSize, the default buffer of Go's bufio.Scanner.
GO_MAX_SCAN_TOKEN: Final = 65_536


def _fail_on_scanner_tokens(stores: list[tuple[str, bytes]], store_paths: list[str]) -> None:
    """INT-18/go-bufio-scanner: "a line of 65,536 bytes or more before its LF (a CR counted, a
    blank line too, a last line without LF alike) ... the call fails (store_not_readable) at
    the first such store in read order"."""
    for store_path, data in stores:
        if any(len(segment) >= GO_MAX_SCAN_TOKEN for segment in data.split(b"\n")):
            index = [normalize_path(sp) for sp in store_paths].index(store_path)
            raise RequestError(
                "store_not_readable", f"/store_paths/{index}", f"{store_path!r}: token too long"
            )


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
    text = TextReading(
        utf8=choices.utf8,
        bom=choices.bom,
        constants=choices.constants,
        surrogates=choices.surrogates,
        duplicates=choices.duplicates,
        infinity=choices.infinity,
        max_depth=choices.max_depth,
    )
    lines: list[dict[str, Any]] = []
    for store_path, data in stores:
        # '2) within each store, read in file order (line order)'; INT-14 (choices.cr)
        for line in split_lines(data, choices.cr):
            if is_blank(line) and choices.blank_lines == "skip":
                continue  # INT-14/blank-lines-dropped-invalid: not JSON, so invalid below
            raw, too_long = line, _over_limit(line) and choices.long_lines == "invalid"
            if choices.long_lines == "cut" and _over_limit(line):
                raw = line[:MAX_LINE_BYTES]  # INT-18/line-past-length-limit: its first 1 MiB
            invalid: dict[str, Any] = {"invalid": ""}  # INT-18: whatever it holds
            # INT-20..25, INT-35, INT-15/16/18
            cand = invalid if too_long else read_record(raw, choices, now, text)
            if "invalid" not in cand and choices.numbers == "safe" and _unsafe_integer(raw):
                cand = {"invalid": ""}  # INT-17: unreadable, like 1e400
            elif "invalid" not in cand and _hashing(choices) != _hashing(Choices()):
                cand["record_hash"] = hash_record(raw, cand, store_path, choices)
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
    stopped = False
    stop_reason: str | None = None  # None: INT-27/do-list-dropped, the fate of an unlisted one
    for cand in ranked:
        if not stopped and len(selected) >= opts.max_items:
            stopped, stop_reason = True, choices.max_items_reason
        if not stopped:
            excerpt, tokens = make_excerpt(
                cand["text"], per_item, choices.whitespace, choices.excerpt_strip
            )
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
        stores = read_stores(  # errors.md 9-10, INT-12, INT-13
            opts.store_paths,
            root,
            duplicates=choices.duplicate_stores,
            order=choices.store_order,
            missing=choices.missing_store,
            checks=choices.store_checks,
        )
        entries = None
        if opts.snapshot is not None:  # 'If no snapshot provided, trust filtering is disabled.'
            entries = read_snapshot(
                opts.snapshot, root, choices.missing_snapshot, choices.snapshot_text
            )
        if choices.long_lines == "fail":
            _fail_on_long_lines(stores, opts.store_paths, choices)  # INT-18
        if choices.long_lines == "go-scanner":
            _fail_on_scanner_tokens(stores, opts.store_paths)  # INT-18/go-bufio-scanner
    except RequestError as err:
        return err.envelope()

    require_unicode(opts.query, "query")
    normalized_query = normalize_text(opts.query, choices.whitespace, choices.lowercase)  # INT-05
    query_hash = sha256_hex(normalized_query.encode("utf-8"))  # INT-11
    supplied = opts.query_terms
    if supplied is None or (choices.terms == "empty-is-absent" and supplied == []):
        terms = derive_terms(opts.query, choices.term_length, choices.whitespace, choices.lowercase)
    else:
        terms = supplied_terms(
            supplied, choices.terms, choices.whitespace, choices.lowercase, choices.term_length
        )

    after = choices.trust_timing == "after-selection"  # INT-39/trust-check-after-selection
    recency_now = opts.now if opts.recency else None
    lines = read_candidates(stores, None if after else entries, opts.deny, choices, recency_now)
    ranked = [c for c in lines if "fate" not in c]
    for cand in ranked:
        cand["score"] = score(cand, terms, opts, choices)
    store_key = STORE_KEYS[choices.store_order]  # INT-12
    ranked.sort(  # full sort on the composite key
        key=lambda cand: order_key(cand, choices.string_order, store_key, choices.ts_order)
    )
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
    if choices.invalid_entries == "null":
        # INT-19/memory-id-record-hash: "memory_id and record_hash null."
        for item in dropped:
            if item["reason"] == "invalid_record_schema":
                item.update(memory_id=None, record_hash=None)
    elif choices.invalid_entries == "omitted":
        # INT-19/omit-invalid-lines-dropped: "Omit invalid lines from dropped."
        dropped = [item for item in dropped if item["reason"] != "invalid_record_schema"]
    if choices.dropped_order == "by-reason":
        # INT-28/by-reason: "Grouped by reason." Groups in code-point order of the reason, read
        # order inside each group (a stable sort of the read-order list).
        dropped.sort(key=lambda entry: entry["reason"])
    if choices.dropped_first is not None:
        # INT-28/list-first-n-drops: "Only list the first N drops." (of those listed, in order)
        dropped = dropped[: choices.dropped_first]
    package: dict[str, Any] = {
        # INT-11: the query as given, or (INT-11/query-raw-holds-normalized) normalized
        "query": {
            "raw": normalized_query if choices.query_raw == "normalized" else opts.query,
            "query_hash": query_hash,
        },
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
    package["package_hash"] = hash_package(package, choices)  # INT-03: all but itself
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
