"""Deterministic scoring (SCORING): base + tag bonus + recency, as IEEE doubles (INT-04).

S6-SCORE-01: "The scorer MUST be pure deterministic math."
"""

from __future__ import annotations

import decimal
import math
from dataclasses import dataclass, field
from typing import Final

from reference._text import normalize
from reference._timestamps import Timestamp

__all__ = ["POW_ULPS", "Scorer", "exact_half_pow"]

_NS_PER_DAY: Final = 86_400 * 1_000_000_000
_CONTEXT: Final = decimal.Context(prec=60, rounding=decimal.ROUND_HALF_EVEN)
_exact_memo: dict[float, float] = {}
#: How far (in ulp of the result) the platform's 0.5 ** e may be from the correctly rounded
#: weight.  glibc and musl document < 1 ulp; the ranking allows this much slack (INT-04).
POW_ULPS: Final = 8
#: `fast_score` returns this exponent when the weight it returns is exact (0, or 1).
EXACT: Final = -1.0


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
            value = float(_CONTEXT.power(decimal.Decimal(2), -decimal.Decimal(exponent)))
        if len(_exact_memo) < 65_536:
            _exact_memo[exponent] = value
        return value


@dataclass(frozen=True, slots=True)
class Scorer:
    """Scores candidates for one request."""

    terms: tuple[str, ...]
    enable_tag_overlap: bool
    #: now_utc in nanoseconds when recency applies (enabled AND now_utc given), else None.
    recency_now_ns: int | None
    half_life_days: int
    #: True when some term contains a space: only then does whitespace collapsing matter.
    phrases: bool = field(init=False)
    term_set: frozenset[str] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "phrases", any(" " in term for term in self.terms))
        object.__setattr__(self, "term_set", frozenset(self.terms))

    @property
    def approximate(self) -> bool:
        """True when `score(..., exact=False)` may be 1-2 ulp off: recency is active."""
        return self.recency_now_ns is not None

    def recency_bonus(self, ts: Timestamp | None, exact: bool = True) -> float:
        """S6-SCORE-13..17: weight = 0.5 ** (age_days / half_life), bounded to [0, 1].

        exact=False uses the platform pow (fast, for ranking); exact=True the correctly
        rounded value the package reports (INT-04).
        """
        if self.recency_now_ns is None or ts is None:
            return 0.0
        # INT-35: exact duration / 86400 s, rounded once (int / int is correctly rounded).
        age_days = (self.recency_now_ns - ts[1]) / _NS_PER_DAY
        if age_days <= 0:
            return 1.0  # same instant or future: weight >= 1, bounded to 1 (INT-35)
        exponent = age_days / self.half_life_days
        # INT-04: the correctly rounded pow(0.5, exponent); weight <= 1 here, no clamp needed.
        return exact_half_pow(exponent) if exact else 0.5**exponent

    def term_count(self, text: str) -> int:
        """S6-SCORE-07: "term_match_count = number of query_terms that appear as substrings in
        normalized candidate text" (INT-09, INT-10)."""
        # INT-09: terms match the normalized text (trim, collapse, lower).  A term without a
        # space contains no White_Space at all, and collapsing or trimming whitespace never
        # creates or removes a match for such a term, so lowercasing suffices.
        haystack = normalize(text) if self.phrases else text.lower()
        return len([term for term in self.terms if term in haystack])

    def tag_overlap(self, tags: list[str]) -> int:
        """S6-SCORE-10: "overlap = count of query_terms that exactly match any candidate tag"
        (0 when enable_tag_overlap is false).  `tags` may be the tags as read: terms and
        normalized tags are both unique, so this is |terms & lower(tags)|; a tag that is not a
        string raises TypeError (the record is invalid, INT-22)."""
        if not (self.enable_tag_overlap and tags and self.terms):
            return 0
        return len(self.term_set.intersection(map(str.lower, tags)))

    def base_and_tags(self, text: str, tags: list[str]) -> float:
        """base + tag_bonus (S6-SCORE-07..11): tag_bonus = overlap * 0.5."""
        return self.term_count(text) + self.tag_overlap(tags) * 0.5

    def fast_weight(self, ts: Timestamp | None) -> tuple[float, float]:
        """(weight, exponent) for ranking: the platform pow (within POW_ULPS of the exact
        weight) and the exponent to compute the exact one from, or EXACT when the weight
        returned is exact already (no recency, no timestamp, age <= 0)."""
        if self.recency_now_ns is None or ts is None:
            return 0.0, EXACT
        age_days = (self.recency_now_ns - ts[1]) / _NS_PER_DAY  # INT-35
        if age_days <= 0:
            return 1.0, EXACT
        exponent = age_days / self.half_life_days
        return 0.5**exponent, exponent

    @staticmethod
    def exact_score(base_and_tags: float, weight: float, exponent: float) -> float:
        """S6-SCORE-18: the score with the correctly rounded weight (INT-04), left to right."""
        if exponent == EXACT:
            return base_and_tags + weight
        return base_and_tags + exact_half_pow(exponent)

    def score(self, text: str, tags: list[str], ts: Timestamp | None, exact: bool = False) -> float:
        """S6-SCORE-18: "score = base + tag_bonus + recency_bonus", left to right (INT-04)."""
        return self.base_and_tags(text, tags) + self.recency_bonus(ts, exact)
