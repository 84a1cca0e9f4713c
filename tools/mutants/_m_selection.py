"""Mutants of selection under the budget and of dropped entries (TOKEN BUDGETING,
TRUNCATION global selection; INT-26..INT-30).

``_assemble`` below is the reference's selection loop with switches; each mutant turns on one.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import Any

from tools.mutants._patch import replace, wrap
from tools.mutants._registry import mutant


@dataclass(frozen=True)
class _Switches:
    skip_and_continue: bool = False
    budget_from_full_text: bool = False
    dropped_in_rank_order: bool = False
    extra_items: int = 0
    zero_scores_dropped: bool = False


def _assemble_with(switches: _Switches) -> None:
    from reference import _package as p
    from reference._excerpt import tokens_for
    from reference._reader import read_line_at
    from reference._records import parse_record
    from reference._text import strip_white_space

    def assemble(stores: list[str], scorer: Any, trust: Any, budget: Any) -> Any:
        entries, candidates = p._read(stores, scorer, trust)
        limit = budget.max_items + switches.extra_items
        ranked = (
            sorted(candidates) if switches.skip_and_continue else heapq.nsmallest(limit, candidates)
        )
        if scorer.approximate and ranked:
            ranked = p._rank_exactly(stores, candidates, ranked, scorer, len(ranked))
        selected: list[dict[str, Any]] = []
        reasons: dict[tuple[int, int], str] = {}
        used = 0
        stop = p.MAX_ITEMS_REACHED
        for candidate in ranked:
            key = (candidate[2], candidate[5])
            if len(selected) >= limit:
                break
            if switches.zero_scores_dropped and candidate[0] == 0:
                reasons[key] = "no_match"
                continue
            item = p._selected_item(stores, candidate, budget.per_item_max_excerpt_tokens)
            tokens = item["excerpt_tokens"]
            if switches.budget_from_full_text:
                record = parse_record(read_line_at(stores[candidate[2]], candidate[5]))
                tokens = tokens_for(len(strip_white_space(record[1]).encode("utf-8")))
            if used + tokens > budget.max_excerpt_tokens:
                if switches.skip_and_continue:
                    reasons[key] = p.BUDGET_EXHAUSTED
                    continue
                stop = p.BUDGET_EXHAUSTED
                break
            used += item["excerpt_tokens"]
            selected.append(item)
            reasons[key] = "selected"

        def entry(e: Any) -> dict[str, str]:
            if len(e) == 6:
                reason = reasons.get((e[2], e[5]), stop)
                return {
                    "memory_id": e[3],
                    "record_hash": e[4],
                    "store_path": stores[e[2]],
                    "reason": reason,
                }
            return {
                "memory_id": e[0],
                "record_hash": e[1],
                "store_path": stores[e[2]],
                "reason": e[3],
            }

        order = entries
        if switches.dropped_in_rank_order:
            order = [e for e in entries if len(e) != 6] + sorted(e for e in entries if len(e) == 6)
        dropped = [
            entry(e) for e in order if len(e) != 6 or reasons.get((e[2], e[5])) != "selected"
        ]
        return selected, dropped, used

    replace(p, "_assemble", assemble)


@mutant(
    "budget-skip-and-continue", clauses=("S6-TOK-04", "S6-TRUNC-12"), interpretations=("INT-26",)
)
def _() -> None:
    """A candidate over the budget is skipped and selection goes on (first fit), not stopped."""
    _assemble_with(_Switches(skip_and_continue=True))


@mutant("budget-checked-on-full-text", clauses=("S6-TRUNC-10",), interpretations=("INT-31",))
def _() -> None:
    """The budget check uses the tokens of the whole stripped text, not of the truncated excerpt."""
    _assemble_with(_Switches(budget_from_full_text=True))


@mutant("dropped-in-rank-order", clauses=("S6-OUT-16",), interpretations=("INT-28",))
def _() -> None:
    """Unselected candidates are listed in rank order after the invalid and denied lines."""
    _assemble_with(_Switches(dropped_in_rank_order=True))


@mutant("max-items-plus-one", clauses=("S6-INPUT-06", "S6-TOK-05"))
def _() -> None:
    """Selection stops only after max_items + 1 items (off by one past the hard cap)."""
    _assemble_with(_Switches(extra_items=1))


@mutant("zero-scores-dropped", clauses=("S6-TRUNC-09", "S6-OUT-20"), interpretations=("INT-29",))
def _() -> None:
    """Candidates with score 0 are dropped with reason "no_match" instead of being selectable."""
    _assemble_with(_Switches(zero_scores_dropped=True))


@mutant(
    "max-items-labelled-budget-exhausted",
    clauses=("S6-OUT-20", "S6-TOK-05"),
    interpretations=("INT-27",),
)
def _() -> None:
    """Candidates left out by max_items are dropped with reason budget_exhausted."""
    from reference import _package

    replace(_package, "MAX_ITEMS_REACHED", _package.BUDGET_EXHAUSTED)


@mutant(
    "per-item-cap-not-clamped", clauses=("S6-TRUNC-04", "S6-OUT-07"), interpretations=("INT-30",)
)
def _() -> None:
    """per_item_max_excerpt_tokens is used and reported as requested, not capped by the budget."""
    from reference import _controller
    from tools.mutants._patch import shadow_builtin

    shadow_builtin(_controller, "min", lambda requested, budget: requested)


@mutant("remaining-reports-used", clauses=("S6-TOK-03", "S6-OUT-06"), interpretations=("INT-32",))
def _() -> None:
    """budget.remaining_excerpt_tokens reports the used tokens instead of the unused budget."""
    from reference import _controller
    from reference._package import package_hash

    def make(original: Any) -> Any:
        def read_package(request: Any) -> Any:
            package, receipt = original(request)
            budget = package["budget"]
            budget["remaining_excerpt_tokens"] = budget["used_excerpt_tokens"]
            package["package_hash"] = package_hash(package)
            receipt["data"]["package_hash"] = package["package_hash"]
            return package, receipt

        return read_package

    wrap(_controller, "read_package", make)
