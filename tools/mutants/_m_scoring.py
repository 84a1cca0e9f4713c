"""Mutants of scoring: base, tag bonus, recency (SCORING; INT-04, INT-09, INT-10, INT-35,
INT-36, INT-37)."""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Callable
from typing import Any

from tools.mutants._patch import replace, wrap
from tools.mutants._registry import mutant

#: Nanoseconds from 0001-01-01T00:00:00Z (the reference's timestamp origin) to the Unix epoch.
_UNIX_EPOCH_NS = 62_135_596_800 * 10**9
_NS_PER_DAY = 86_400 * 10**9


def _score_variant(
    *,
    haystack: Callable[[str], str] | None = None,
    base: Callable[[tuple[str, ...], str], int] | None = None,
    bonus: float = 0.5,
) -> None:
    """Replace Scorer.score by the reference's formula with one part changed."""
    from reference import _scoring
    from reference._text import normalize

    def score(self: Any, text: str, tags: list[str], ts: Any, exact: bool = False) -> float:
        terms = self.terms
        matched = overlap = 0
        if terms:
            hay = haystack(text) if haystack else normalize(text)
            matched = base(terms, hay) if base else len([t for t in terms if t in hay])
            if self.enable_tag_overlap and tags:
                overlap = len(self.term_set.intersection(tags))
        return float((matched + overlap * bonus) + self.recency_bonus(ts, exact))

    replace(_scoring.Scorer, "score", score)


def _scorer_variant(change: Callable[[Any, Any], Any]) -> None:
    """Wrap the controller's scorer factory: ``change(request, scorer) -> scorer``."""
    from reference import _controller

    def make(original: Any) -> Any:
        return lambda request: change(request, original(request))

    wrap(_controller, "_scorer", make)


@mutant("tag-bonus-one", clauses=("S6-SCORE-11",))
def _() -> None:
    """Each query term equal to a tag adds 1.0 instead of 0.5."""
    _score_variant(bonus=1.0)


@mutant(
    "base-counts-occurrences", clauses=("S6-SCORE-07", "S6-SCORE-08"), interpretations=("INT-10",)
)
def _() -> None:
    """The base score counts every occurrence of every term, not the terms that occur."""
    _score_variant(base=lambda terms, hay: sum(hay.count(term) for term in terms))


@mutant("text-not-lowercased-for-matching", clauses=("S6-SCORE-07",), interpretations=("INT-09",))
def _() -> None:
    """Terms are matched against the collapsed candidate text without lowercasing it."""
    from reference._text import collapse

    _score_variant(haystack=collapse)


@mutant("text-not-collapsed-for-matching", clauses=("S6-SCORE-07",), interpretations=("INT-09",))
def _() -> None:
    """Terms are matched against the lowercased text without collapsing whitespace runs."""
    _score_variant(haystack=str.lower)


@mutant("tag-overlap-ignores-switch", clauses=("S6-SCORE-09", "S6-INPUT-10"))
def _() -> None:
    """The tag bonus is applied even when enable_tag_overlap is false."""
    _scorer_variant(lambda request, scorer: dataclasses.replace(scorer, enable_tag_overlap=True))


@mutant(
    "recency-ignores-switch", clauses=("S6-SCORE-12", "S6-INPUT-07"), interpretations=("INT-36",)
)
def _() -> None:
    """Recency applies whenever now_utc is given, even with enable_recency_weight false."""

    def change(request: Any, scorer: Any) -> Any:
        if request.now_utc is not None:
            return dataclasses.replace(scorer, recency_now_ns=request.now_utc[1])
        return scorer

    _scorer_variant(change)


@mutant(
    "recency-without-now-uses-epoch",
    clauses=("S6-INPUT-15", "S6-SCORE-13"),
    interpretations=("INT-36",),
)
def _() -> None:
    """With recency enabled and no now_utc, 'now' defaults to 1970-01-01 instead of disabling it."""

    def change(request: Any, scorer: Any) -> Any:
        if request.enable_recency_weight and request.now_utc is None:
            return dataclasses.replace(scorer, recency_now_ns=_UNIX_EPOCH_NS)
        return scorer

    _scorer_variant(change)


@mutant(
    "clock-defaults-now",
    clauses=("S6-DET-02", "S6-INPUT-15"),
    interpretations=("INT-37",),
    probes=("clock",),
)
def _() -> None:
    """With recency enabled and no now_utc, 'now' is read from the system clock."""

    def change(request: Any, scorer: Any) -> Any:
        if request.enable_recency_weight and request.now_utc is None:
            return dataclasses.replace(scorer, recency_now_ns=time.time_ns() + _UNIX_EPOCH_NS)
        return scorer

    _scorer_variant(change)


@mutant("half-life-fixed-30", clauses=("S6-SCORE-16", "S6-INPUT-08"))
def _() -> None:
    """recency_half_life_days is ignored: the half-life is always 30 days."""
    _scorer_variant(lambda request, scorer: dataclasses.replace(scorer, half_life_days=30))


def _recency_variant(weight: Callable[[float, int], float]) -> None:
    from reference import _scoring

    def recency_bonus(self: Any, ts: Any, exact: bool = True) -> float:
        if self.recency_now_ns is None or ts is None:
            return 0.0
        return weight((self.recency_now_ns - ts[1]) / _NS_PER_DAY, self.half_life_days)

    replace(_scoring.Scorer, "recency_bonus", recency_bonus)


@mutant("recency-future-unclamped", clauses=("S6-SCORE-17",), interpretations=("INT-35",))
def _() -> None:
    """A future ts_utc gets a weight above 1 (0.5 ** negative age is not clamped)."""
    from reference._scoring import exact_half_pow

    _recency_variant(lambda age, half: exact_half_pow(age / half) if age else 1.0)


@mutant("age-in-whole-days", clauses=("S6-SCORE-14",), interpretations=("INT-35",))
def _() -> None:
    """age_days is floored to whole days."""
    from reference._scoring import exact_half_pow

    _recency_variant(lambda age, half: exact_half_pow(math.floor(age) / half) if age > 0 else 1.0)


@mutant("platform-pow", clauses=("S6-SCORE-16", "S6-SCORE-01"), interpretations=("INT-04",))
def _() -> None:
    """The recency weight uses the platform's pow (0.5 ** e), not the correctly rounded value."""
    from reference import _scoring

    replace(_scoring, "exact_half_pow", lambda exponent: 0.5**exponent)


@mutant("score-sum-reordered", clauses=("S6-SCORE-18",), interpretations=("INT-04",))
def _() -> None:
    """The score is summed as base + (tag_bonus + recency_bonus), not left to right."""
    from reference import _scoring
    from reference._text import normalize

    def score(self: Any, text: str, tags: list[str], ts: Any, exact: bool = False) -> float:
        matched = overlap = 0
        if self.terms:
            hay = normalize(text)
            matched = len([t for t in self.terms if t in hay])
            if self.enable_tag_overlap and tags:
                overlap = len(self.term_set.intersection(tags))
        return float(matched + (overlap * 0.5 + self.recency_bonus(ts, exact)))

    replace(_scoring.Scorer, "score", score)
