"""The candidate order (SCORING tie-breaking, S6-ORDER-01..05) with exact scores (INT-04).

"Candidates MUST be ordered by: 1) score descending 2) ts_utc descending (missing ts_utc sorts
last) 3) store_path ascending 4) memory_id ascending 5) record_hash ascending" (INT-33: ties on
all five keep read order).

The reader ranks with *fast* scores: the platform's 0.5 ** e, at most POW_ULPS ulp from the
correctly rounded weight INT-04 requires.  A candidate therefore carries the interval
[lo, hi] its exact score lies in (a point when the score is exact: no recency, no timestamp,
age <= 0, or a weight too small to change base + tag_bonus).  `exact_order` sorts a list
exactly while computing as little as possible:

1. candidates whose intervals do not overlap are in fast order;
2. in a group of overlapping intervals that all share one base + tag_bonus, the exact score
   is a non-increasing function of age, so the exact order is the timestamp order (newest
   first, missing last) whatever the scores: no pow is needed;
3. in any other group, the uncertain candidates are scored exactly (60-digit pow, memoized);
4. only candidates equal on score, ts_utc, store and memory_id are ordered by their
   record_hash (tie-break 5, `hash_of`); pass 1 hashed every line, so a candidate carries it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Final

from reference._scoring import EXACT, MAX_RECENCY, POW_ULPS, exact_weight, score_of

__all__ = [
    "TIE_KEYS",
    "Candidate",
    "HashOf",
    "TieKey",
    "candidate",
    "exact_order",
    "exact_score",
    "reject_below",
    "tie_key",
]

#: (fast score, lo, hi, base, overlap, fast weight, exponent or EXACT, ts key, store position,
#:  memory_id, byte offset, line length, excerpt_tokens, record_hash)
Candidate = tuple[float, float, float, int, int, float, float, int, int, str, int, int, int, str]
FAST: Final = 0
LO: Final = 1
HI: Final = 2
BASE: Final = 3
OVERLAP: Final = 4
WEIGHT: Final = 5
EXPONENT: Final = 6
TS: Final = 7
STORE: Final = 8
MEMORY_ID: Final = 9
OFFSET: Final = 10
LENGTH: Final = 11
TOKENS: Final = 12
HASH: Final = 13
#: Looks up a candidate's record_hash.
HashOf = Callable[[Candidate], str]
#: Tie-breaks 2-4 as one ascending key (`tie_key`, or an alternative of INT-33).
TieKey = Callable[[Candidate], tuple[object, ...]]
_INF: Final = math.inf


def candidate(
    base: int,
    overlap: int,
    weight: float,
    exponent: float,
    ts_key: int,
    store: int,
    memory_id: str,
    offset: int,
    length: int,
    tokens: int,
    record_hash: str,
) -> Candidate:
    """A candidate with its fast score and the interval its exact score lies in."""
    fast = score_of(base, overlap, weight)
    if exponent == EXACT:
        lo = hi = fast
    else:
        # The exact weight is within POW_ULPS ulp of the fast one, and rounding is monotone,
        # so the exact score lies between these two.
        slack = POW_ULPS * math.ulp(weight)
        lo = score_of(base, overlap, max(0.0, weight - slack))
        hi = score_of(base, overlap, max(weight, min(MAX_RECENCY, weight + slack)))
    return (fast, lo, hi, base, overlap, weight, exponent, ts_key, store, memory_id, offset,
            length, tokens, record_hash)  # fmt: skip


def exact_score(item: Candidate) -> float:
    """The candidate's exact score (INT-04): its interval's point, else with the exact weight."""
    if item[LO] == item[HI]:
        return item[LO]
    return score_of(item[BASE], item[OVERLAP], exact_weight(item[WEIGHT], item[EXPONENT]))


def tie_key(item: Candidate) -> tuple[int, int, str]:
    """S6-ORDER-02..04 as an ascending key: "2) ts_utc descending (missing ts_utc sorts last)
    3) store_path ascending 4) memory_id ascending" (INT-33: code points; stores are numbered
    in sorted path order)."""
    return item[TS], item[STORE], item[MEMORY_ID]


def _code_points(store_paths: list[str]) -> TieKey:
    return tie_key


def _utf16(store_paths: list[str]) -> TieKey:
    """INT-33/utf-16-order-javascript: store_path and memory_id compare by UTF-16 code units
    (big-endian UTF-16 bytes compare as the units do); stores keep their read order."""
    by_units = sorted(range(len(store_paths)), key=lambda i: store_paths[i].encode("utf-16-be"))
    rank = {position: index for index, position in enumerate(by_units)}

    def utf16_key(item: Candidate) -> tuple[object, ...]:
        return item[TS], rank[item[STORE]], item[MEMORY_ID].encode("utf-16-be")

    return utf16_key


#: INT-33: how tie-breaks 3 and 4 compare strings, from the stores' normalized paths in read
#: order (the pinned reading first).  record_hash is lowercase hex: every order agrees on it.
TIE_KEYS: Final[dict[str, Callable[[list[str]], TieKey]]] = {
    "code-points": _code_points,
    "utf-16": _utf16,
}


def reject_below(item: Candidate) -> float:
    """A fast score below this belongs to a candidate certainly ranked after `item`.

    A candidate's exact score is within POW_ULPS ulp of its weight, plus one rounding, of its
    fast score; 4 * POW_ULPS ulp of the bound is a safe margin for every candidate near it.
    """
    lo = item[LO]
    return lo - 4 * POW_ULPS * math.ulp(lo)


def _groups(items: list[Candidate]) -> list[list[Candidate]]:
    """Split into groups of overlapping score intervals, best group first (interval merging)."""
    items.sort(key=lambda item: -item[HI])
    groups: list[list[Candidate]] = []
    floor = _INF  # the lowest lo of the current group
    for item in items:
        if item[HI] < floor:  # entirely below every member of the current group
            groups.append([item])
            floor = item[LO]
        else:
            groups[-1].append(item)
            floor = min(floor, item[LO])
    return groups


def _by_keys(
    group: list[Candidate], scores: list[float] | None, tie_key: TieKey = tie_key
) -> list[Candidate]:
    """Sort by (score desc, tie keys, offset); `scores` None: one base and overlap, where the
    exact score is a non-increasing function of age (step 2)."""
    if scores is None:
        return sorted(group, key=lambda c: (tie_key(c), c[OFFSET]))
    keys = [(-score, tie_key(c), c[OFFSET]) for score, c in zip(scores, group, strict=True)]
    return [group[i] for i in sorted(range(len(group)), key=keys.__getitem__)]


def _hash_ties(
    group: list[Candidate],
    score: Callable[[Candidate], float],
    hash_of: HashOf,
    tie_key: TieKey = tie_key,
) -> list[Candidate]:
    """S6-ORDER-05: candidates equal on the first four keys go by record_hash (then offset)."""
    out: list[Candidate] = []
    start = 0
    while start < len(group):
        key = (score(group[start]), tie_key(group[start]))
        stop = start + 1
        while stop < len(group) and (score(group[stop]), tie_key(group[stop])) == key:
            stop += 1
        run = group[start:stop]
        if len(run) > 1:
            # "5) record_hash ascending"; byte-identical records keep read order (INT-33).
            run.sort(key=lambda c: (hash_of(c), c[OFFSET]))
        out += run
        start = stop
    return out


def exact_order(
    items: list[Candidate], hash_of: HashOf, tie_key: TieKey = tie_key
) -> list[Candidate]:
    """`items` in the exact candidate order of S6-ORDER-01..05 (INT-04, INT-33); `tie_key`
    is keys 2-4 (INT-33: strings by code point)."""
    ordered: list[Candidate] = []
    for group in _groups(items):
        if len(group) == 1:
            ordered += group
        elif len({(item[BASE], item[OVERLAP]) for item in group}) == 1:
            # Step 2: one base and tag bonus -> timestamp order; equal ts keys mean equal
            # ages and therefore equal scores, so the first four keys compare as tie keys.
            ranked = _by_keys(group, None, tie_key)
            ordered += _hash_ties(ranked, lambda c: 0.0, hash_of, tie_key)
        else:
            scores = [exact_score(item) for item in group]  # step 3
            ranked = _by_keys(group, scores, tie_key)
            ordered += _hash_ties(ranked, _ScoreOf(group, scores), hash_of, tie_key)
    return ordered


class _ScoreOf:
    """The exact score of each member of a group, by identity."""

    __slots__ = ("scores",)

    def __init__(self, group: list[Candidate], scores: list[float]) -> None:
        self.scores = dict(zip(map(id, group), scores, strict=True))

    def __call__(self, item: Candidate) -> float:
        return self.scores[id(item)]
