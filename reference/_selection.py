"""Selection under the budget (TOKEN BUDGETING; TRUNCATION "Global selection under budget"),
and the shortlist that finds it in one read of the stores with bounded memory.

"Selection MUST stop when: used_excerpt_tokens would exceed max_excerpt_tokens, OR selected
count reaches max_items" (S6-TOK-04/05; INT-26 stop, not skip; INT-27 max_items first).  So
only a prefix of the ranked candidates can matter: the selected ones and the one that stops
selection.  The shortlist keeps a superset of that prefix while the stores are read: every
now and then it orders what it holds exactly and forgets what ranks after the prefix's last
candidate, which no later candidate can bring back.  Its size is bounded by max_items, and by
the budget once the budget is exhausted, never by the stores.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from reference._ordering import (
    HASH,
    HI,
    LO,
    MEMORY_ID,
    STORE,
    TOKENS,
    TS,
    Candidate,
    HashOf,
    TieKey,
    exact_order,
    exact_score,
    reject_below,
    tie_key,
)

__all__ = [
    "BUDGET_EXHAUSTED",
    "INVALID_RECORD",
    "MAX_ITEMS_REACHED",
    "NO_MATCH",
    "OVERFLOW",
    "REASONS",
    "TRUST_DENIED",
    "Budget",
    "Selection",
    "Shortlist",
    "select",
]

#: The closed set of drop reasons (INT-27): spec-given, then the kit's max_items_reached.
INVALID_RECORD: Final = "invalid_record_schema"  # S6-REC-11
TRUST_DENIED: Final = "trust_denied"  # S6-TRUST-08
BUDGET_EXHAUSTED: Final = "budget_exhausted"  # S6-TRUNC-12
MAX_ITEMS_REACHED: Final = "max_items_reached"  # INT-27
REASONS: Final = (INVALID_RECORD, TRUST_DENIED, BUDGET_EXHAUSTED, MAX_ITEMS_REACHED)
#: The reason INT-29/drop-score-0-candidates (an alternative) drops a score-0 candidate with.
NO_MATCH: Final = "no_match"

_MIN_LIMIT: Final = 256


@dataclass(frozen=True, slots=True)
class Budget:
    """The budget a package is assembled under (S6-TRUNC-04 already applied)."""

    max_excerpt_tokens: int
    per_item_max_excerpt_tokens: int
    max_items: int
    #: INT-27: the drop reason of candidates left out by max_items (a reading, _readings.py).
    max_items_reason: str = MAX_ITEMS_REACHED
    #: INT-30: the per_item_max_excerpt_tokens the package reports, when it is not the
    #: effective one (INT-30/echo-requested-item-value, a reading).
    shown_per_item: int | None = None
    #: INT-26: at a candidate that would overflow the budget, "stop" or "skip" (OVERFLOW).
    overflow: str = "stop"
    #: INT-29/drop-score-0-candidates: score-0 candidates dropped no_match (a reading).
    drop_score_0: bool = False
    #: INT-34/rank-episodic-stores-first: each store's priority (0 first), by store position
    #: (None: stores carry no priority, pinned).
    store_priority: tuple[int, ...] | None = None
    #: INT-39/trust-check-after-selection: denies (memory_id, record_hash) of a selected
    #: candidate after selection (None: denied lines never reach selection, pinned).
    denied_after: Callable[[str, str], bool] | None = None


@dataclass(frozen=True, slots=True)
class Selection:
    """What the selection rules make of candidates in rank order."""

    selected: tuple[int, ...]  # positions of the selected candidates, in rank order
    reason: str  # the reason every other candidate is dropped with ...
    reasons: dict[int, str]  # ... unless its position has one here
    kept: int  # the first `kept` candidates can matter; the rest never can
    full: bool  # True when a candidate ranked after those could not be selected either


def select(ranked: Sequence[Candidate], budget: Budget) -> Selection:
    """The selection of candidates in rank order: the pinned rules (`stop_selection`), or
    the alternatives of INT-26, INT-29, INT-34 the budget carries (readings)."""
    if (
        budget.overflow == "stop"
        and not budget.drop_score_0
        and budget.store_priority is None
        and budget.denied_after is None
    ):
        return stop_selection(ranked, budget)
    return _alternative_selection(ranked, budget)


def stop_selection(ranked: Sequence[Candidate], budget: Budget) -> Selection:
    """TRUNCATION "Global selection under budget", S6-TRUNC-09: "Iterate candidates in sorted
    order" -- with TOKEN BUDGETING's stop rules."""
    used = 0
    chosen: list[int] = []
    reasons: dict[int, str] = {}
    for position, item in enumerate(ranked):
        # S6-TOK-05: "Selection MUST stop when ... selected count reaches max_items"; the
        # max_items check comes first (INT-27).
        if len(chosen) == budget.max_items:
            return Selection(tuple(chosen), budget.max_items_reason, reasons, position, True)
        tokens = item[TOKENS]
        # S6-TRUNC-11: "if used + excerpt_tokens <= max_excerpt_tokens => select"; else
        # S6-TOK-04 "Selection MUST stop" -- stop, not skip (INT-26, erratum).
        if used + tokens > budget.max_excerpt_tokens:
            return Selection(tuple(chosen), BUDGET_EXHAUSTED, reasons, position + 1, True)
        used += tokens
        chosen.append(position)
    full = len(chosen) >= budget.max_items
    return Selection(tuple(chosen), budget.max_items_reason, reasons, len(ranked), full)


def _skip_over_budget(ranked: Sequence[Candidate], budget: Budget) -> Selection:
    """INT-26/skip-over-budget-candidate (an alternative; contradicts S6-TOK-04): a candidate
    that would overflow the budget is dropped budget_exhausted and selection goes on with the
    next one; max_items still stops it."""
    used = 0
    chosen: list[int] = []
    reasons: dict[int, str] = {}
    for position, item in enumerate(ranked):
        if len(chosen) >= budget.max_items:  # S6-TOK-05 still stops selection
            reasons.update(dict.fromkeys(range(position, len(ranked)), budget.max_items_reason))
            break
        if used + item[TOKENS] > budget.max_excerpt_tokens:
            reasons[position] = BUDGET_EXHAUSTED
            continue
        used += item[TOKENS]
        chosen.append(position)
    return Selection(tuple(chosen), BUDGET_EXHAUSTED, reasons, len(ranked), False)


#: INT-26: what selection does at a candidate that would overflow the budget: "stop" (pinned,
#: S6-TOK-04) or "skip" it and go on.
OVERFLOW: Final[dict[str, Callable[[Sequence[Candidate], Budget], Selection]]] = {
    "stop": stop_selection,
    "skip": _skip_over_budget,
}


def _alternative_selection(ranked: Sequence[Candidate], budget: Budget) -> Selection:
    """Selection under the alternatives of INT-26, INT-29, INT-34 and INT-39 (readings).

    INT-34/rank-episodic-stores-first (contradicts S6-ORDER-01): the candidates of the stores
    with priority 0 rank before all others, rank order kept within each.
    INT-29/drop-score-0-candidates (contradicts S6-TRUNC-11): a score-0 candidate is never
    selected and is dropped no_match, wherever selection stops.
    The rest go through the INT-26 rule.  INT-39/trust-check-after-selection: a selected
    candidate the snapshot denies is then dropped trust_denied (denied candidates took budget
    and max_items like any other; a denied one not selected keeps the reason it was given).
    Every candidate's reason is explicit and nothing is trimmed (kept = all, not full): these
    readings give up the shortlist's bound.
    """
    order: list[int] = list(range(len(ranked)))
    if budget.store_priority is not None:
        priority = budget.store_priority
        order.sort(key=lambda position: priority[ranked[position][STORE]])  # stable
    unmatched: dict[int, str] = {}
    if budget.drop_score_0:
        unmatched = {p: NO_MATCH for p in order if exact_score(ranked[p]) == 0}
        order = [p for p in order if p not in unmatched]
    found = OVERFLOW[budget.overflow]([ranked[p] for p in order], budget)
    selected = tuple(order[index] for index in found.selected)
    reasons = {order[index]: found.reasons.get(index, found.reason) for index in range(len(order))}
    for position in selected:
        del reasons[position]
    denied = budget.denied_after
    if denied is not None:  # INT-39/trust-check-after-selection: nothing takes their place
        out = {p for p in selected if denied(ranked[p][MEMORY_ID], ranked[p][HASH])}
        reasons.update(dict.fromkeys(out, TRUST_DENIED))
        selected = tuple(p for p in selected if p not in out)
    return Selection(selected, found.reason, reasons | unmatched, len(ranked), False)


class Shortlist:
    """The candidates that may still be selected or stop selection, in bounded memory.

    `floor` and the tie keys let the reader discard most lines before building a candidate:
    a fast score below `floor` ranks after the prefix's last candidate whatever its exact score.
    """

    __slots__ = ("approximate", "budget", "floor", "hash_of", "items", "limit", "reason",
                 "tie_key", "tie_score", "tie_ts")  # fmt: skip

    def __init__(
        self, budget: Budget, hash_of: HashOf, *, approximate: bool, tie_key: TieKey = tie_key
    ) -> None:
        self.budget = budget
        self.hash_of = hash_of
        self.tie_key = tie_key  # keys 2-4 (INT-33)
        self.approximate = approximate  # scores may be inexact (recency is on)
        self.items: list[Candidate] = []
        self.limit = _MIN_LIMIT
        self.floor = -math.inf
        self.tie_score = math.nan  # an exact candidate scoring this ...
        self.tie_ts = 0  # ... with a larger ts key ranks after the prefix
        #: The reason selection would stop with among the candidates seen so far (pass 1
        #: renders entries with it, and pass 2 corrects those rendered before it changed).
        self.reason = budget.max_items_reason

    def add(self, item: Candidate) -> None:
        """Keep a candidate (ordering and trimming when enough have come in)."""
        self.items.append(item)
        if len(self.items) >= self.limit:
            self.ranked()

    def extend(self, items: Sequence[Candidate]) -> None:
        """Keep several candidates (another reader's shortlist)."""
        for item in items:
            self.add(item)

    def ranked(self) -> list[Candidate]:
        """The kept candidates in exact rank order, trimmed to those that can matter."""
        ranked = exact_order(self.items, self.hash_of, self.tie_key)
        stop = select(ranked, self.budget)
        self.reason = stop.reason
        del ranked[stop.kept :]
        self.items = ranked
        self.limit = max(_MIN_LIMIT, 2 * stop.kept)
        if stop.full and ranked:
            last = ranked[-1]
            self.floor = reject_below(last) if self.approximate else last[LO]
            exact = last[LO] == last[HI]
            self.tie_score = last[LO] if exact else math.nan
            self.tie_ts = last[TS]
        return list(ranked)
