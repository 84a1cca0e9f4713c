"""Deterministic scoring (SCORING): base + tag bonus + recency, as IEEE doubles (INT-04).

S6-SCORE-01: "The scorer MUST be pure deterministic math."
"""

from __future__ import annotations

import decimal
import math
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any, Final

from reference._excerpt import Excerpt, excerpt_of
from reference._gomath import go_pow
from reference._records import LineParser, RecordHashing, normalize_tags, parse_record
from reference._text import PINNED_TEXT, TextRules, normalize
from reference._timestamps import Timestamp, parse_utc, sort_key

__all__ = [
    "COUNTING",
    "EXACT",
    "FUTURE_INVALID",
    "MATCHING",
    "MAX_RECENCY",
    "POW_ULPS",
    "SCORERS",
    "TAG_BONUS",
    "GoPowScorer",
    "RoundedBonusScorer",
    "Scorer",
    "exact_half_pow",
    "exact_weight",
    "go_hours",
    "go_math_pow",
    "past_only",
    "rounded_bonus",
    "score_of",
]

_NS_PER_DAY: Final = 86_400 * 1_000_000_000
_CONTEXT: Final = decimal.Context(prec=60, rounding=decimal.ROUND_HALF_EVEN)
_exact_memo: dict[float, float] = {}
#: How far (in ulp of the result) the platform's 0.5 ** e may be from the correctly rounded
#: weight.  glibc and musl document < 1 ulp; the ranking allows this much slack (INT-04).
POW_ULPS: Final = 8
#: `Scorer.fast_weight` returns this exponent when the weight it returns is exact (0, or 1).
EXACT: Final = -1.0
#: S6-SCORE-11: "tag_bonus = overlap * 0.5".
TAG_BONUS: Final = 0.5
#: S6-SCORE-17: "recency_bonus = weight (bounded [0,1])": the largest recency bonus.
MAX_RECENCY: Final = 1.0


def exact_half_pow(exponent: float) -> float:
    """The correctly rounded double of 0.5 ** exponent (INT-04), via 60-digit arithmetic.

    glibc's pow is within 0.52 ulp and misses the correctly rounded result for about 0.1% of
    exponents; V8's Math.pow differs elsewhere.  60 significant digits, then one correctly
    rounded decimal -> double conversion, gives the exact reading the register pins.
    """
    try:
        return _exact_memo[exponent]
    except KeyError:
        if exponent.is_integer():
            # 2**-n is exact; ldexp rounds it once, ties to even in the subnormal range
            # (2**-1075 is halfway between 0 and 2**-1074 and rounds to 0).  A decimal
            # detour would round twice.  A non-integer exponent gives an irrational power,
            # which is never a tie, so 60 digits and one rounding are exact there.
            value = math.ldexp(1.0, -int(exponent))
        else:
            fixed = _half_pow_fixed(exponent)
            if fixed is None:  # too close to a rounding boundary to tell, or subnormal
                fixed = float(_CONTEXT.power(decimal.Decimal(2), -decimal.Decimal(exponent)))
            value = fixed
        if len(_exact_memo) < 65_536:
            _exact_memo[exponent] = value
        return value


#: Fixed-point precision (bits) of `_half_pow_fixed`, its range reduction, and its error bound
#: in units of 2**-_BITS (a generous bound: the analysis gives below 2**14).
_BITS: Final = 192
_HALVINGS: Final = 8
_SLACK: Final = 1 << 20
_WIDE: Final = decimal.Context(prec=100)
#: floor(ln 2 * 2**_BITS): 58 integer digits, computed with 100 significant ones.
_LN2: Final = int(_WIDE.multiply(_WIDE.ln(decimal.Decimal(2)), decimal.Decimal(1 << _BITS)))
_ONE: Final = 1 << _BITS
_MANTISSA: Final = 53


def _half_pow_fixed(exponent: float) -> float | None:
    """0.5 ** exponent correctly rounded, in integer fixed point; None when undecided.

    exponent = n + f with n an integer and 0 < f < 1, both exact; 2**-f = exp(-f * ln 2) is
    summed as a Taylor series after dividing the argument by 2**8, then squared back 8 times,
    all on 192-bit integers.  The result's top 53 bits and the rest tell on which side of
    the rounding midpoint it lies; within the error bound of it (never seen: a 2**-120
    chance) the caller falls back to 60-digit decimals.  The scaling by 2**-n is exact while
    the result is a normal double.
    """
    whole = math.floor(exponent)
    if whole > 1000:
        return None  # the weight may be subnormal: let the decimal path round it
    fraction = exponent - whole  # exact for doubles
    if fraction < 2.0**-60:
        # 2**-f lies in (1 - f, 1), above the midpoint 1 - 2**-54 below 1.0: it rounds to 1.
        return math.ldexp(1.0, -whole)
    numerator, denominator = fraction.as_integer_ratio()  # denominator is a power of two
    shift = denominator.bit_length() - 1 + _HALVINGS
    x = numerator * _LN2 >> shift  # (f * ln 2) / 2**8, in units of 2**-_BITS
    term = _ONE
    total = _ONE
    index = 1
    while term:
        term = term * x >> _BITS
        term //= index
        total = total - term if index % 2 else total + term
        index += 1
    for _ in range(_HALVINGS):
        total = total * total >> _BITS
    # total ~ 2**-f * 2**_BITS, in [2**(_BITS-1), 2**_BITS): keep 53 bits, look at the rest.
    drop = _BITS - _MANTISSA
    mantissa, rest = total >> drop, total & ((1 << drop) - 1)
    half = 1 << (drop - 1)
    if abs(rest - half) <= _SLACK or total >= _ONE or total < _ONE >> 1:
        return None
    if rest > half:
        mantissa += 1
    return math.ldexp(float(mantissa), -_MANTISSA - whole)


Terms = tuple[str, ...]
Haystack = Callable[[str], str]


def _same(text: str) -> str:
    return text


def _words(haystack: Haystack, text: TextRules, terms: Terms) -> tuple[Haystack, Terms]:
    """INT-09/tokenize-text-words-match: the normalized text as whitespace-separated words,
    a term matching whole words only (a phrase term: consecutive whole words)."""
    return (lambda candidate: f" {text.normalize(candidate)} "), tuple(f" {t} " for t in terms)


#: INT-09: what candidate text terms are matched against, from the pinned haystack, the text
#: rules and the terms (the pinned reading first): the normalized text (trim, collapse,
#: lower), the lowercased text alone, the raw text, or whole words of the normalized text.
MATCHING: Final[dict[str, Callable[[Haystack, TextRules, Terms], tuple[Haystack, Terms]]]] = {
    "normalized": lambda haystack, text, terms: (haystack, terms),
    "lowercase-only": lambda haystack, text, terms: (text.lower, terms),
    "raw": lambda haystack, text, terms: (_same, terms),
    "words": _words,
}


def _count_terms(terms: Terms, haystack_of: Haystack) -> Callable[[str], int]:
    def term_count(text: str) -> int:
        haystack = haystack_of(text)
        return len([term for term in terms if term in haystack])

    return term_count


def _count_occurrences(terms: Terms, haystack_of: Haystack) -> Callable[[str], int]:
    """INT-10/count-occurrences: every occurrence of every term (non-overlapping occurrences
    of one term, left to right, as str.count, String.split, strings.Count count them)."""

    def term_count(text: str) -> int:
        haystack = haystack_of(text)
        return sum(haystack.count(term) for term in terms)

    return term_count


def _count_non_overlapping(terms: Terms, haystack_of: Haystack) -> Callable[[str], int]:
    """INT-10/count-non-overlapping-matches: the text is scanned left to right; at each
    position the longest term found there is a match and the scan goes on after it (so
    matches never overlap); the count is the number of distinct terms matched."""
    longest_first = sorted((term for term in terms if term), key=len, reverse=True)

    def term_count(text: str) -> int:
        haystack = haystack_of(text)
        found: set[str] = set()
        index = 0
        while index < len(haystack):
            for term in longest_first:
                if haystack.startswith(term, index):
                    found.add(term)
                    index += len(term)
                    break
            else:
                index += 1
        return len(found)

    return term_count


#: INT-10: what term_match_count counts (the pinned reading first): the terms that occur,
#: every occurrence, or the distinct terms of non-overlapping matches.
COUNTING: Final[dict[str, Callable[[Terms, Haystack], Callable[[str], int]]]] = {
    "terms": _count_terms,
    "occurrences": _count_occurrences,
    "non-overlapping": _count_non_overlapping,
}


def score_of(base: int, overlap: int, weight: float) -> float:
    """S6-SCORE-18: "score = base + tag_bonus + recency_bonus", in IEEE doubles evaluated left to
    right (INT-04), with S6-SCORE-11 "tag_bonus = overlap * 0.5"."""
    return (base + overlap * TAG_BONUS) + weight


@dataclass(frozen=True, slots=True)
class Scorer:
    """Scores candidates for one request."""

    terms: tuple[str, ...]
    enable_tag_overlap: bool
    #: now_utc in nanoseconds when recency applies (enabled AND now_utc given), else None.
    recency_now_ns: int | None
    half_life_days: int
    #: INT-04: the weight is the correctly rounded 2**-exponent (pinned); False follows the
    #: alternative INT-04/platform-pow (the platform's pow, taken as exact: _readings.py).
    correctly_rounded_pow: bool = True
    #: INT-20: which ts_utc strings are valid timestamps (``_timestamps.PARSERS``).
    parse_ts: Callable[[str], Timestamp | None] = parse_utc
    #: INT-05, INT-06: what whitespace and lowercasing are, for matching and excerpts
    #: (``_text.text_rules``).
    text: TextRules = PINNED_TEXT
    #: INT-01, INT-02, INT-17, INT-47: how records are hashed when not as pinned (None).
    hashing: RecordHashing | None = None
    #: INT-09: what candidate text terms match (a key of ``MATCHING``).
    matching: str = "normalized"
    #: INT-10: what term_match_count counts (a key of ``COUNTING``).
    counting: str = "terms"
    #: INT-31: how an excerpt is built (``_excerpt.EXCERPTS``).
    excerpt: Excerpt = excerpt_of
    #: INT-33: how the tie-breaks compare strings (a key of ``_ordering.TIE_KEYS``).
    order: str = "code-points"
    #: INT-20..25: the line parser both passes read records with (``_records.record_parser``).
    parse_line: LineParser = parse_record
    #: INT-21: the tie-break 2 key of a timestamp (``_timestamps.TS_KEYS``).
    ts_key: Callable[[Timestamp | None], int] = sort_key
    #: True when some term contains a space: only then does whitespace collapsing matter.
    phrases: bool = field(init=False)
    term_set: frozenset[str] = field(init=False)
    #: What candidate text is matched against: the normalized text (INT-09), chosen once.
    haystack: Callable[[str], str] = field(init=False)
    #: S6-SCORE-07: "term_match_count = number of query_terms that appear as substrings in
    #: normalized candidate text" (INT-09, INT-10), a function chosen once.
    term_count: Callable[[str], int] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "phrases", any(" " in term for term in self.terms))
        object.__setattr__(self, "term_set", frozenset(self.terms))
        # INT-09: terms match the normalized text (trim, collapse, lower).  A term without a
        # space contains no White_Space at all, and collapsing or trimming whitespace never
        # creates or removes a match for such a term, so lowercasing suffices.  Another
        # whitespace table (INT-05's alternatives) takes no shortcut.
        if self.text is not PINNED_TEXT:
            haystack = self.text.normalize
        else:
            haystack = normalize if self.phrases else str.lower
        haystack, terms = MATCHING[self.matching](haystack, self.text, self.terms)
        object.__setattr__(self, "haystack", haystack)
        object.__setattr__(self, "term_count", COUNTING[self.counting](terms, haystack))

    @property
    def approximate(self) -> bool:
        """True when fast weights may be a few ulp off the exact ones: recency is active."""
        return self.recency_now_ns is not None

    @property
    def counts_tags(self) -> bool:
        """S6-SCORE-09: the tag bonus applies only "(optional, enable_tag_overlap=true)"."""
        return self.enable_tag_overlap and bool(self.terms)

    def tag_overlap(self, tags: list[Any]) -> int:
        """S6-SCORE-10: "overlap = count of query_terms that exactly match any candidate tag".

        `tags` as read: they are normalized here (INT-25); a tag that is not a string raises
        TypeError (the record is invalid, INT-22).  Terms and tags are both unique.
        """
        if not (tags and self.counts_tags):
            return 0
        return len(self.term_set.intersection(normalize_tags(tags)))

    def fast_weight(self, ts: Timestamp | None) -> tuple[float, float]:
        """S6-SCORE-13..17: (weight, exponent) for ranking.

        weight = 0.5 ** (age_days / recency_half_life_days) with the platform pow, within
        POW_ULPS ulp of the correctly rounded weight INT-04 requires; exponent is what the exact
        weight is computed from, or EXACT when the weight returned is exact already: 0 without
        recency or a valid timestamp (S6-SCORE-12), 1 for an age <= 0 (INT-35: bounded [0, 1]).
        """
        if self.recency_now_ns is None or ts is None:
            return 0.0, EXACT
        # INT-35: the exact duration / 86400 s, rounded once (int / int is correctly rounded).
        age_days = (self.recency_now_ns - ts[1]) / _NS_PER_DAY
        if age_days <= 0:
            return 1.0, EXACT
        exponent = age_days / self.half_life_days
        return 0.5**exponent, exponent if self.correctly_rounded_pow else EXACT


def exact_weight(weight: float, exponent: float) -> float:
    """The correctly rounded weight (INT-04) for a `fast_weight` result."""
    return weight if exponent == EXACT else exact_half_pow(exponent)


# INT-35's alternatives (``_readings.py``): the age and the weight of a timestamp, as scorers
# whose fast_weight reads the age otherwise; the pinned Scorer's is untouched.


@dataclass(frozen=True, slots=True)
class WholeDaysScorer(Scorer):
    """INT-35/whole-days-floor: age_days is the whole number of days, floor((now - ts) / 1 d)."""

    def fast_weight(self, ts: Timestamp | None) -> tuple[float, float]:
        if self.recency_now_ns is None or ts is None:
            return 0.0, EXACT
        age_days = (self.recency_now_ns - ts[1]) // _NS_PER_DAY
        if age_days < 1:  # less than a whole day old, or in the future
            return 1.0, EXACT
        exponent = age_days / self.half_life_days
        return 0.5**exponent, exponent if self.correctly_rounded_pow else EXACT


#: time.Duration's range (int64 nanoseconds): time.Time.Sub saturates at its ends.
_GO_DURATION: Final = (-(2**63), 2**63 - 1)
_NS_PER_HOUR: Final = 3_600 * 1_000_000_000


def go_hours(elapsed_ns: int) -> float:
    """Go's Duration.Hours() of t.Sub(u) (src/time/time.go): the duration saturated to int64
    nanoseconds, then ``float64(d / Hour) + float64(d % Hour) / (60 * 60 * 1e9)``, with Go's
    integer division truncating toward zero."""
    d = min(max(elapsed_ns, _GO_DURATION[0]), _GO_DURATION[1])
    hours = abs(d) // _NS_PER_HOUR * (-1 if d < 0 else 1)
    return float(hours) + float(d - hours * _NS_PER_HOUR) / (60 * 60 * 1e9)


@dataclass(frozen=True, slots=True)
class GoHoursScorer(Scorer):
    """INT-35/go-duration-hours: age_days is ``now.Sub(ts).Hours() / 24`` as Go computes it
    (`go_hours`); an age <= 0 gives weight 1 (Go's Pow(0.5, age) >= 1, clamped)."""

    def fast_weight(self, ts: Timestamp | None) -> tuple[float, float]:
        if self.recency_now_ns is None or ts is None:
            return 0.0, EXACT
        age_days = go_hours(self.recency_now_ns - ts[1]) / 24
        exponent = age_days / self.half_life_days
        if exponent <= 0:  # a future or same-instant ts_utc
            return 1.0, EXACT
        return 0.5**exponent, exponent if self.correctly_rounded_pow else EXACT


@dataclass(frozen=True, slots=True)
class NoFutureBonusScorer(Scorer):
    """INT-35/future-timestamps-get-bonus ("Future timestamps get no bonus"): a ts_utc after
    now_utc (a negative age) gives weight 0; the same instant still gives 1."""

    def fast_weight(self, ts: Timestamp | None) -> tuple[float, float]:
        if self.recency_now_ns is not None and ts is not None and ts[1] > self.recency_now_ns:
            return 0.0, EXACT
        return Scorer.fast_weight(self, ts)


def past_only(
    parse: Callable[[str], Timestamp | None], now_ns: int
) -> Callable[[str], Timestamp | None]:
    """INT-35/future-timestamps-invalid: a ts_utc after now_utc is not a valid timestamp (the
    candidate has none: INT-20), where recency applies."""

    def parse_past(text: str) -> Timestamp | None:
        ts = parse(text)
        return None if ts is None or ts[1] > now_ns else ts

    return parse_past


@dataclass(frozen=True, slots=True)
class RoundedBonusScorer(Scorer):
    """INT-04/round-recency-bonus-fixed(decimals=N) ("Round recency_bonus to a fixed number of
    decimals before adding"; rejected, S6-SCORE-17 "recency_bonus = weight"): the weight another
    scorer gives (``unrounded``, correctly rounded first) rounded to N decimals: the double
    nearest the exact weight rounded half to even, which is Python's ``round(weight, N)``."""

    decimals: int = 0
    unrounded: Callable[[Timestamp | None], tuple[float, float]] | None = None

    def fast_weight(self, ts: Timestamp | None) -> tuple[float, float]:
        assert self.unrounded is not None
        weight, exponent = self.unrounded(ts)
        return round(exact_weight(weight, exponent), self.decimals), EXACT


def rounded_bonus(scorer: Scorer, decimals: int) -> Scorer:
    """``scorer`` with its recency weight rounded to ``decimals`` decimals (INT-04)."""
    given = {f.name: getattr(scorer, f.name) for f in fields(scorer) if f.init}
    return RoundedBonusScorer(**given, decimals=decimals, unrounded=scorer.fast_weight)


@dataclass(frozen=True, slots=True)
class GoPowScorer(Scorer):
    """INT-04/go-math-pow (the platform pow of a Go implementation, "go: math.Pow"): the weight
    is Go's math.Pow(0.5, exponent) (``_gomath.go_pow``) for the exponent another scorer
    (``exponents``, pinned INT-04) gives; a weight that scorer gives exactly (0, 1) is kept."""

    exponents: Callable[[Timestamp | None], tuple[float, float]] | None = None

    def fast_weight(self, ts: Timestamp | None) -> tuple[float, float]:
        assert self.exponents is not None
        weight, exponent = self.exponents(ts)
        return (weight if exponent == EXACT else go_pow(0.5, exponent)), EXACT


def go_math_pow(scorer: Scorer) -> Scorer:
    """``scorer`` with its recency weight computed by Go's math.Pow (INT-04/go-math-pow)."""
    given = {f.name: getattr(scorer, f.name) for f in fields(scorer) if f.init}
    return GoPowScorer(**given, exponents=scorer.fast_weight)


#: INT-35: the readings under which a ts_utc after now_utc is not a valid timestamp.
FUTURE_INVALID: Final = frozenset({"future-timestamps-invalid"})
#: INT-35: the scorer of each reading of age_days and future timestamps (the pinned first);
#: "future-timestamps-invalid" scores as pinned, its timestamps pass through `past_only`.
SCORERS: Final[dict[str, type[Scorer]]] = {
    "exact": Scorer,
    "whole-days-floor": WholeDaysScorer,
    "future-timestamps-get-bonus": NoFutureBonusScorer,
    "future-timestamps-invalid": Scorer,
    "go-duration-hours": GoHoursScorer,
}
