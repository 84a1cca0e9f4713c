"""Mutants of scoring: base, tag bonus, recency (SCORING; INT-04, INT-09, INT-10, INT-35,
INT-36, INT-37)."""

from __future__ import annotations

from tools.mutants._registry import SourcePatch, mutant, patch

_HAYSTACK = "        haystack = normalize if self.phrases else str.lower"
_NOW = "        recency_now_ns=now[1] if recency and now is not None else None,"
#: Nanoseconds from 0001-01-01T00:00:00Z (the reference's timestamp origin) to the Unix epoch.
_UNIX_EPOCH_NS = "62_135_596_800 * 10**9"


@mutant("tag-bonus-one", clauses=("S6-SCORE-11",))
def _() -> SourcePatch:
    """Each query term equal to a tag adds 1.0 instead of 0.5."""
    return patch("_scoring.py", "TAG_BONUS: Final = 0.5", "TAG_BONUS: Final = 1.0")


@mutant(
    "base-counts-occurrences", clauses=("S6-SCORE-07", "S6-SCORE-08"), interpretations=("INT-10",)
)
def _() -> SourcePatch:
    """The base score counts every occurrence of every term, not the terms that occur."""
    return patch(
        "_scoring.py",
        "        return len([term for term in terms if term in haystack])",
        "        return sum(haystack.count(term) for term in terms)",
    )


@mutant("text-not-lowercased-for-matching", clauses=("S6-SCORE-07",), interpretations=("INT-09",))
def _() -> SourcePatch:
    """Terms are matched against the collapsed candidate text without lowercasing it."""
    return patch(
        "_scoring.py",
        _HAYSTACK,
        "        from reference._text import collapse\n\n        haystack = collapse",
    )


@mutant("text-not-collapsed-for-matching", clauses=("S6-SCORE-07",), interpretations=("INT-09",))
def _() -> SourcePatch:
    """Terms are matched against the lowercased text without collapsing whitespace runs."""
    return patch("_scoring.py", _HAYSTACK, "        haystack = str.lower")


@mutant("tag-overlap-ignores-switch", clauses=("S6-SCORE-09", "S6-INPUT-10"))
def _() -> SourcePatch:
    """The tag bonus is applied even when enable_tag_overlap is false."""
    return patch(
        "_scoring.py",
        "        return self.enable_tag_overlap and bool(self.terms)",
        "        return bool(self.terms)",
    )


@mutant(
    "recency-ignores-switch", clauses=("S6-SCORE-12", "S6-INPUT-07"), interpretations=("INT-36",)
)
def _() -> SourcePatch:
    """Recency applies whenever now_utc is given, even with enable_recency_weight false."""
    return patch(
        "_controller.py",
        "    recency = request.enable_recency_weight and now is not None",
        "    recency = now is not None",
    )


@mutant(
    "recency-without-now-uses-epoch",
    clauses=("S6-INPUT-15", "S6-SCORE-13"),
    interpretations=("INT-36",),
)
def _() -> SourcePatch:
    """With recency enabled and no now_utc, 'now' defaults to 1970-01-01 instead of disabling it."""
    return patch(
        "_controller.py",
        _NOW,
        "        recency_now_ns=now[1] if recency and now is not None else "
        f"({_UNIX_EPOCH_NS} if request.enable_recency_weight else None),",
    )


@mutant(
    "clock-defaults-now",
    clauses=("S6-DET-02", "S6-INPUT-15"),
    interpretations=("INT-37",),
    probes=("clock",),
)
def _() -> SourcePatch:
    """With recency enabled and no now_utc, 'now' is read from the system clock."""
    return patch(
        "_controller.py",
        _NOW,
        "        recency_now_ns=now[1] if recency and now is not None else "
        f'(__import__("time").time_ns() + {_UNIX_EPOCH_NS} '
        "if request.enable_recency_weight else None),",
    )


@mutant("half-life-fixed-30", clauses=("S6-SCORE-16", "S6-INPUT-08"))
def _() -> SourcePatch:
    """recency_half_life_days is ignored: the half-life is always 30 days."""
    return patch(
        "_controller.py",
        "        half_life_days=request.recency_half_life_days,",
        "        half_life_days=30,",
    )


@mutant("recency-future-unclamped", clauses=("S6-SCORE-17",), interpretations=("INT-35",))
def _() -> SourcePatch:
    """A future ts_utc gets a weight above 1 (0.5 ** negative age is not clamped)."""
    return patch("_scoring.py", "        if age_days <= 0:", "        if age_days == 0:")


@mutant("age-in-whole-days", clauses=("S6-SCORE-14",), interpretations=("INT-35",))
def _() -> SourcePatch:
    """age_days is floored to whole days."""
    return patch(
        "_scoring.py",
        "        age_days = (self.recency_now_ns - ts[1]) / _NS_PER_DAY",
        "        age_days = (self.recency_now_ns - ts[1]) // _NS_PER_DAY",
    )


@mutant("platform-pow", clauses=("S6-SCORE-16", "S6-SCORE-01"), interpretations=("INT-04",))
def _() -> SourcePatch:
    """The recency weight uses the platform's pow (0.5 ** e), not the correctly rounded value."""
    return patch(
        "_scoring.py",
        "    try:\n        return _exact_memo[exponent]",
        "    return float(0.5**exponent)\n    try:\n        return _exact_memo[exponent]",
    )


@mutant("score-sum-reordered", clauses=("S6-SCORE-18",), interpretations=("INT-04",))
def _() -> SourcePatch:
    """The score is summed as base + (tag_bonus + recency_bonus), not left to right."""
    return patch(
        "_scoring.py",
        "    return (base + overlap * TAG_BONUS) + weight",
        "    return base + (overlap * TAG_BONUS + weight)",
    )
