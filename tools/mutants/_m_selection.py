"""Mutants of selection under the budget and of dropped entries (TOKEN BUDGETING,
TRUNCATION global selection; INT-26..INT-30)."""

from __future__ import annotations

from typing import Any

from tools.mutants._registry import Reader, SourcePatch, Wrapper, mutant, patch

_FIELDS = ("memory_id", "record_hash", "store_path")


def _rehash(package: dict[str, Any], receipt: dict[str, Any]) -> None:
    """Recompute package_hash after a change (INT-03), in the package and the receipt."""
    from reference import canonical_bytes, sha256_hex

    body = {key: value for key, value in package.items() if key != "package_hash"}
    package["package_hash"] = sha256_hex(canonical_bytes(body))
    receipt["data"]["package_hash"] = package["package_hash"]


@mutant(
    "budget-skip-and-continue", clauses=("S6-TOK-04", "S6-TRUNC-12"), interpretations=("INT-26",)
)
def _() -> SourcePatch:
    """A candidate over the budget is skipped and selection goes on (first fit), not stopped."""
    return patch(
        "_selection.py",
        "            return Selection(tuple(chosen), BUDGET_EXHAUSTED, reasons, "
        "position + 1, True)\n",
        "            reasons[position] = BUDGET_EXHAUSTED\n            continue\n",
    )


@mutant("budget-checked-on-full-text", clauses=("S6-TRUNC-10",), interpretations=("INT-31",))
def _() -> SourcePatch:
    """The budget check uses the tokens of the whole stripped text, not of the truncated excerpt."""
    return patch(
        "_candidates.py",
        "            tokens = excerpt_of(text, per_item, strip)[1]\n",
        "            tokens = excerpt_of(text, 2**62, strip)[1]\n",
    )


@mutant("dropped-in-rank-order", clauses=("S6-OUT-16",), interpretations=("INT-28",))
def _() -> Wrapper:
    """Unselected candidates are listed in rank order after the invalid and denied lines."""

    def wrap(read: Reader) -> Reader:
        def deviant(request: Any) -> dict[str, Any]:
            result = read(request)
            if "package" not in result:
                return result
            package = result["package"]
            budget = package["budget"]
            # Every candidate in rank order: the same request with room for all of them (the
            # effective per-item cap kept, so excerpts and scores are the same).
            everything = {
                **request,
                "budget": {
                    "max_excerpt_tokens": 2**53 - 1,
                    "per_item_max_excerpt_tokens": budget["per_item_max_excerpt_tokens"],
                    "max_items": 2**53 - 1,
                },
            }
            ranked = read(everything)["package"]["selection"]["selected"]
            rank: dict[tuple[Any, ...], int] = {}
            for position, item in enumerate(ranked):
                rank.setdefault(tuple(item[k] for k in _FIELDS), position)
            dropped = package["selection"]["dropped"]
            apart = ("invalid_record_schema", "trust_denied")
            kept = [entry for entry in dropped if entry["reason"] in apart]
            candidates = [entry for entry in dropped if entry["reason"] not in apart]
            candidates.sort(key=lambda entry: rank.get(tuple(entry[k] for k in _FIELDS), 0))
            package["selection"]["dropped"] = kept + candidates
            _rehash(package, result["receipt"])
            return result

        return deviant

    return wrap


@mutant("max-items-plus-one", clauses=("S6-INPUT-06", "S6-TOK-05"))
def _() -> SourcePatch:
    """Selection stops only after max_items + 1 items (off by one past the hard cap)."""
    return patch(
        "_selection.py",
        "        if len(chosen) == budget.max_items:\n",
        "        if len(chosen) == budget.max_items + 1:\n",
    )


@mutant("zero-scores-dropped", clauses=("S6-TRUNC-09", "S6-OUT-20"), interpretations=("INT-29",))
def _() -> SourcePatch:
    """Candidates with score 0 are dropped with reason "no_match" instead of being selectable."""
    return patch(
        "_selection.py",
        "        tokens = item[TOKENS]\n",
        "        if item[0] == 0:\n"
        '            reasons[position] = "no_match"\n'
        "            continue\n"
        "        tokens = item[TOKENS]\n",
    )


@mutant(
    "max-items-labelled-budget-exhausted",
    clauses=("S6-OUT-20", "S6-TOK-05"),
    interpretations=("INT-27",),
)
def _() -> SourcePatch:
    """Candidates left out by max_items are dropped with reason budget_exhausted."""
    return patch(
        "_selection.py",
        'MAX_ITEMS_REACHED: Final = "max_items_reached"',
        'MAX_ITEMS_REACHED: Final = "budget_exhausted"',
    )


@mutant(
    "per-item-cap-not-clamped", clauses=("S6-TRUNC-04", "S6-OUT-07"), interpretations=("INT-30",)
)
def _() -> SourcePatch:
    """per_item_max_excerpt_tokens is used and reported as requested, not capped by the budget."""
    return patch(
        "_controller.py",
        "            per_item_max_excerpt_tokens=min(\n"
        "                request.per_item_max_excerpt_tokens, request.max_excerpt_tokens\n"
        "            ),\n",
        "            per_item_max_excerpt_tokens=request.per_item_max_excerpt_tokens,\n",
    )


@mutant("remaining-reports-used", clauses=("S6-TOK-03", "S6-OUT-06"), interpretations=("INT-32",))
def _() -> SourcePatch:
    """budget.remaining_excerpt_tokens reports the used tokens instead of the unused budget."""
    return patch(
        "_package.py",
        '"remaining_excerpt_tokens": max(budget.max_excerpt_tokens - used, 0),',
        '"remaining_excerpt_tokens": used,',
    )
