"""Budget and selection (TOKEN BUDGETING, 'Global selection under budget', INT-26, INT-27,
INT-29, INT-30, INT-32): exact fit and off-by-one budgets, zero-token excerpts, the stop rule
with a later item that would fit, max_items 1..N and its precedence over the budget, per-item
caps larger than the budget, score-0 candidates.

Records "m1", "m2", ... have texts of exactly 4n ASCII bytes (n tokens) and score 0 unless a row
says otherwise, so they rank in memory_id order; the intent is the list of selected memory_ids,
worked out from the rules.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from tools.generate.families._case import Case, Json, line, make_request, store

__all__ = ["DESCRIPTION", "cases", "spec_selection"]

DESCRIPTION = (
    "Generated: exact-fit and off-by-one budgets, zero-token excerpts, the stop rule, max_items."
)


def _text(mid: str, tokens: int) -> str:
    """Exactly ``4 * tokens`` ASCII bytes (empty for 0)."""
    return (mid + "-" + "x" * (4 * tokens))[: 4 * tokens] if tokens else ""


def _mid(index: int, count: int) -> str:
    """memory_id of the index-th record: m1..m9, or m01..m99 so code-point order is rank order."""
    return f"m{index + 1:02d}" if count >= 10 else f"m{index + 1}"


def spec_selection(sizes: Sequence[int], maximum: int, max_items: int = 50) -> tuple[str, ...]:
    """The selected memory_ids per TOKEN BUDGETING + INT-26 (stop) + INT-27 (max_items first).

    Each item is first cut to the per-item cap, which defaults to ``maximum`` (S6-INPUT-04).
    """
    used, chosen = 0, list[str]()
    for index, size in enumerate(sizes):
        tokens = min(size, maximum)
        if len(chosen) >= max_items or used + tokens > maximum:
            break
        used += tokens
        chosen.append(_mid(index, len(sizes)))
    return tuple(chosen)


def _store(sizes: Sequence[int], texts: dict[int, str] | None = None) -> dict[str, Json]:
    texts = texts or {}
    count = len(sizes)
    return {
        "stores/s.jsonl": store(
            *[
                line(_mid(i, count), texts.get(i, _text(_mid(i, count), n)))
                for i, n in enumerate(sizes)
            ]
        )
    }


FITS: tuple[tuple[int, ...], ...] = (
    (1,),
    (2,),
    (1, 1),
    (3, 5),
    (1, 2, 3),
    (4, 4, 4),
    (1, 1, 1, 1, 1),
    (7, 1, 2),
    (10, 3),
    (2, 2, 2, 2, 2, 2, 2, 2),
)


def _fits() -> Iterator[Case]:
    for sizes in FITS:
        total = sum(sizes)
        tag = "-".join(map(str, sizes))
        for delta, slug, what in (
            (0, "exact", "exactly"),
            (-1, "under", "one under"),
            (1, "over", "one over"),
        ):
            maximum = total + delta
            if maximum <= 0:
                continue
            yield Case(
                id=f"budget-fit-{tag}-{slug}",
                description=f"Budget {what} the sum of excerpt_tokens {list(sizes)}.",
                comment=f"excerpt_tokens {list(sizes)} (sum {total}) in rank order; max {maximum}.",
                clauses=(
                    "S6-TRUNC-11",
                    "S6-TOK-04",
                    "S6-TOK-02",
                    "S6-TOK-03",
                    "S6-OUT-04",
                    "S6-OUT-05",
                    "S6-OUT-06",
                )
                + (("S6-TRUNC-12",) if delta < 0 else ()),
                interpretations=("INT-32",) + (("INT-26",) if delta < 0 else ()),
                request=make_request("zz", tokens=maximum),
                files=_store(sizes),
                selected=spec_selection(sizes, maximum),
            )


#: slug -> (sizes, max, zero-token texts by index, what)
ZEROS: tuple[tuple[str, tuple[int, ...], int, dict[int, str], str], ...] = (
    ("after-full", (3, 0), 3, {}, "a 0-token excerpt fits when the budget is used up"),
    ("first", (0, 3), 3, {}, "a 0-token excerpt first"),
    ("ws-only", (3, 0), 3, {1: "   "}, "whitespace-only text: 0 tokens"),
    ("unicode-ws", (3, 0), 3, {1: "\u3000\u2029\u00a0"}, "Unicode whitespace only: 0 tokens"),
    ("newlines", (3, 0), 3, {1: "\n\r\n\t"}, "line breaks only: 0 tokens"),
    ("only-zero", (0, 0, 0), 1, {}, "only 0-token excerpts: used 0, remaining 1"),
    ("after-stop", (3, 5, 0), 4, {}, "a 0-token excerpt after the stop is dropped (INT-26)"),
    ("after-stop-ws", (3, 5, 0), 4, {2: " "}, "whitespace-only after the stop is dropped"),
    ("many", (0,) * 7, 1, {}, "seven 0-token excerpts"),
)

#: slug -> (sizes, max, what)
STOPS: tuple[tuple[str, tuple[int, ...], int, str], ...] = (
    ("later-fits", (2, 5, 1), 4, "m3 would fit after m2 overflows, but selection stopped"),
    ("first-cut", (5, 1), 4, "the first candidate is cut to the budget; m2 then overflows"),
    ("middle", (1, 1, 9, 1, 1), 5, "two later 1-token items dropped"),
    ("neither", (3, 2, 2), 4, "m2 overflows, m3 would too"),
    ("one-token-left", (3, 2, 1), 4, "1 token left; m2 needs 2; m3 needs 1 but comes after"),
    ("long-tail", (1,) + (2,) * 4 + (1,) * 5, 8, "budget stops in a long list"),
)


def _zeros_and_stops() -> Iterator[Case]:
    for slug, sizes, maximum, texts, what in ZEROS:
        yield Case(
            id=f"budget-zero-{slug}",
            description=f"Zero-token excerpts: {what}.",
            comment=f"excerpt_tokens {list(sizes)}; max {maximum}; texts {texts!r}.",
            clauses=("S6-TRUNC-03", "S6-TRUNC-11", "S6-TOK-02", "S6-REC-06"),
            interpretations=(("INT-26",) if "stop" in slug else ("INT-31",))
            # INT-05: whitespace that is not ASCII is stripped too
            + (("INT-05",) if any(not t.isascii() for t in texts.values()) else ()),
            request=make_request("zz", tokens=maximum),
            files=_store(sizes, texts),
            selected=spec_selection(sizes, maximum),
        )
    for slug, sizes, maximum, what in STOPS:
        yield Case(
            id=f"budget-stop-{slug}",
            description=f"Stop rule: {what}.",
            comment=f"excerpt_tokens {list(sizes)} in rank order; max {maximum}.",
            clauses=("S6-TOK-04", "S6-TRUNC-12", "S6-TRUNC-11"),
            interpretations=("INT-26",),
            request=make_request("zz", tokens=maximum),
            files=_store(sizes),
            selected=spec_selection(sizes, maximum),
        )


def _max_items() -> Iterator[Case]:
    sizes = (1,) * 6
    for k in range(1, 8):
        yield Case(
            id=f"budget-items-{k}-of-6",
            description=f"max_items {k} with 6 candidates and an ample budget.",
            comment=f"six 1-token candidates; max 100; max_items {k}.",
            clauses=("S6-TOK-05", "S6-INPUT-06", "S6-OUT-08"),
            interpretations=("INT-30",),
            request=make_request("zz", budget={"max_items": k}),
            files=_store(sizes),
            selected=spec_selection(sizes, 100, k),
        )
    rows: tuple[tuple[str, tuple[int, ...], int, int, str], ...] = (
        ("before-overflow", (1, 1, 9, 1), 3, 2, "max_items reached before the overflowing item"),
        ("budget-first", (1, 9, 1), 3, 2, "the budget stops selection before max_items"),
        ("both-at-once", (2, 2, 5), 4, 2, "budget used up and max_items reached together"),
        ("one-and-over", (1, 5), 3, 1, "max_items 1 reached; the next would also overflow"),
    )
    for slug, row_sizes, maximum, items, what in rows:
        yield Case(
            id=f"budget-items-{slug}",
            description=f"max_items vs budget: {what}.",
            comment=f"excerpt_tokens {list(row_sizes)}; max {maximum}; max_items {items}.",
            clauses=("S6-TOK-05", "S6-TOK-04", "S6-INPUT-06"),
            interpretations=("INT-27", "INT-26"),
            request=make_request("zz", tokens=maximum, budget={"max_items": items}),
            files=_store(row_sizes),
            selected=spec_selection(row_sizes, maximum, items),
        )
    sizes_items: tuple[tuple[int, int | None], ...] = (
        (55, None),
        (55, 51),
        (55, 50),
        (3, 2**53 - 1),
    )
    for count, cap in sizes_items:
        row = (1,) * count
        budget = {} if cap is None else {"max_items": cap}
        label = "default" if cap is None else str(cap)
        yield Case(
            id=f"budget-items-{label}-of-{count}",
            description=f"max_items {label} with {count} candidates.",
            comment=f"{count} one-token candidates in memory_id order; max 1000.",
            clauses=("S6-INPUT-05", "S6-TOK-05", "S6-OUT-08")
            + (("S6-DET-01",) if cap in (None, 50) else ()),
            interpretations=("INT-30",),
            request=make_request("zz", tokens=1000, budget=budget),
            files=_store(row),
            check=_selected_count(min(count, cap or 50)),
            relations=(("budget-items-50-of-55", "same"),) if cap is None else (),
        )


def _selected_count(wanted: int) -> Callable[[Json], str | None]:
    def check(result: Json) -> str | None:
        got = len(result["package"]["selection"]["selected"])
        return None if got == wanted else f"selected {got}, intended {wanted}"

    return check


def _scores_and_caps() -> Iterator[Case]:
    yield Case(
        id="budget-score0-all",
        description="Score-0 candidates are selected when budget and max_items allow.",
        comment="three records, no term matches; max 100.",
        clauses=("S6-TRUNC-11", "S6-TRUNC-09"),
        interpretations=("INT-29",),
        request=make_request("nomatch"),
        files=_store((1, 2, 3)),
        selected=("m1", "m2", "m3"),
    )
    yield Case(
        id="budget-score0-after-matches",
        description="Score-0 candidates follow the matching ones and are still selected.",
        comment="m3 matches 'alpha'; m1, m2 score 0; max 100.",
        clauses=("S6-TRUNC-11", "S6-ORDER-01"),
        # INT-09: alpha matches inside the word alpha-xx
        interpretations=(
            "INT-09",
            "INT-29",
        ),
        request=make_request("alpha"),
        files=_store((1, 1, 2), {2: "alpha-xx"}),
        selected=("m3", "m1", "m2"),
    )
    yield Case(
        id="budget-score0-stop",
        description="The budget stop applies to score-0 candidates like any other.",
        comment="m3 matches (2 tokens); m1 (3), m2 (1) score 0; max 4: m3, then m1 overflows.",
        clauses=("S6-TOK-04", "S6-TRUNC-12"),
        # INT-09: alpha matches inside the word alpha-xx
        interpretations=("INT-09", "INT-29", "INT-26"),
        request=make_request("alpha", tokens=4),
        files=_store((3, 1, 2), {2: "alpha-xx"}),
        selected=("m3",),
    )
    rows: tuple[tuple[str, int, int, int, tuple[str, ...], str], ...] = (
        ("cap-fits", 40, 3, 2, ("m1",), "a 10-token text cut to 2 tokens fits a 3-token budget"),
        (
            "cap-above-max",
            40,
            4,
            9,
            ("m1",),
            "per-item 9 above max 4: effective 4, fills the budget",
        ),
        ("cap-one", 40, 2, 1, ("m1", "m2"), "per-item 1: two cut items fill 2 tokens"),
        ("cap-uncut-overflow", 40, 9, 100, ("m1",), "without a cap m1 (10 tokens) would not fit"),
    )
    for slug, size_bytes, maximum, per_item, selected, what in rows:
        texts = {0: "a" * size_bytes, 1: "b" * size_bytes}
        yield Case(
            id=f"budget-{slug}",
            description=f"The budget check uses the truncated excerpt: {what}.",
            comment=f"two {size_bytes}-byte texts; max {maximum}; per_item {per_item}.",
            clauses=("S6-TRUNC-10", "S6-TRUNC-04", "S6-TRUNC-11"),
            interpretations=("INT-30", "INT-26"),
            request=make_request(
                "zz", tokens=maximum, budget={"per_item_max_excerpt_tokens": per_item}
            ),
            files=_store((0, 0), texts),
            selected=selected,
        )


def cases() -> Iterator[Case]:
    """Fits, zero-token, stop rule, max_items, score-0 and caps."""
    yield from _fits()
    yield from _zeros_and_stops()
    yield from _max_items()
    yield from _scores_and_caps()
