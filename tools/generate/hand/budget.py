"""Hand vectors: token budget, the stop rule and max_items (family ``budget``)."""

# ruff: noqa: E501

from __future__ import annotations

from tools.generate.hand._dsl import L, also, bud, drop, lines, ok, package, rec, sel, vec

DESCRIPTION = "Hand-written: exact-fit and off-by-one budgets, the stop rule (INT-26), max_items (INT-27), zero-token excerpts."
S = "s.jsonl"


def _req(query: str, budget: dict[str, object]) -> dict[str, object]:
    return {"query": query, "store_paths": [S], "budget": budget}


# Two candidates used by h001..h003: A 'aa bb' (score 2, 5 bytes -> 2 tokens), B 'aa xxxxxxx' (score 1, 10 bytes -> 3 tokens).
_A = rec("a", "aa bb")
_B = rec("b", "aa xxxxxxx")
_AB_FILES = {S: lines(L(memory_id="b", text="aa xxxxxxx"), L(memory_id="a", text="aa bb"))}
_AB = (
    "query 'aa bb' -> [aa, bb]. a 'aa bb' -> 2, 5 bytes -> 2 tokens; b 'aa xxxxxxx' -> 1, 10 bytes -> 3 tokens. "
    "Rank a, b. per_item defaults to max_excerpt_tokens (>= 4 -> max_bytes >= 16, no cut). "
)

_h001 = vec(
    "budget-h001",
    "Exact fit: used + excerpt_tokens == max_excerpt_tokens is selected.",
    comment=_AB
    + "max 5: a 0 + 2 = 2 <= 5 -> selected; b 2 + 3 = 5 <= 5 -> selected. used 5, remaining 0.",
    clauses=["S6-TRUNC-11", "S6-TOK-01", "S6-TOK-02", "S6-TOK-03", "S6-TOK-04"],
    interpretations=["INT-46"],
    request=_req("aa bb", {"max_excerpt_tokens": 5}),
    files=_AB_FILES,
    expect=ok(
        package(
            "aa bb",
            "aa bb",
            bud(5, 5, 0, 5, 50),
            [sel(_A, S, 2, "aa bb", 2), sel(_B, S, 1, "aa xxxxxxx", 3)],
            [],
        ),
        [S],
    ),
)
_h002 = vec(
    "budget-h002",
    "One token short: the second candidate is dropped budget_exhausted.",
    comment=_AB
    + "max 4: a 0 + 2 = 2 <= 4 -> selected; b 2 + 3 = 5 > 4 -> dropped 'budget_exhausted'. used 2, remaining 2.",
    clauses=["S6-TRUNC-11", "S6-TRUNC-12", "S6-TOK-04", "S6-OUT-20"],
    request=_req("aa bb", {"max_excerpt_tokens": 4}),
    files=_AB_FILES,
    expect=ok(
        package(
            "aa bb",
            "aa bb",
            bud(4, 2, 2, 4, 50),
            [sel(_A, S, 2, "aa bb", 2)],
            [drop(_B, S, "budget_exhausted")],
        ),
        [S],
    ),
)
_h003 = vec(
    "budget-h003",
    "One token spare: both selected, remaining 1.",
    comment=_AB
    + "max 6: a 2 <= 6; b 2 + 3 = 5 <= 6 -> both selected. used 5, remaining 6 - 5 = 1.",
    clauses=["S6-TRUNC-11", "S6-TOK-01", "S6-TOK-02", "S6-TOK-03"],
    interpretations=["INT-46"],
    request=_req("aa bb", {"max_excerpt_tokens": 6}),
    files=_AB_FILES,
    expect=ok(
        package(
            "aa bb",
            "aa bb",
            bud(6, 5, 1, 6, 50),
            [sel(_A, S, 2, "aa bb", 2), sel(_B, S, 1, "aa xxxxxxx", 3)],
            [],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- budget-h004
_r4a = rec("a", "aa bb cc zz")
_r4b = rec("b", "aa bb yyyy")
_r4c = rec("c", "aa")
_h004 = vec(
    "budget-h004",
    "Stop rule: after the first overflow, a later candidate that would fit is dropped too.",
    comment=(
        "query 'aa bb cc'. Lines: c 'aa' (score 1, 2 bytes -> 1 token), a 'aa bb cc zz' (3, 11 bytes -> 3 tokens), b 'aa bb "
        "yyyy' (2, 10 bytes -> 3 tokens). Rank a, b, c. max 5: a 0+3 = 3 -> selected; b 3+3 = 6 > 5 -> selection stops "
        "(INT-26): b and every later candidate are budget_exhausted, including c although 3+1 = 4 <= 5 (first-fit would "
        "select c). dropped in read order (INT-28): c (line 0), b (line 2). used 3, remaining 2."
    ),
    clauses=["S6-TOK-04", "S6-TRUNC-12", "S6-TRUNC-09"],
    interpretations=["INT-26", "INT-28"],
    request=_req("aa bb cc", {"max_excerpt_tokens": 5}),
    files={
        S: lines(
            L(memory_id="c", text="aa"),
            L(memory_id="a", text="aa bb cc zz"),
            L(memory_id="b", text="aa bb yyyy"),
        )
    },
    expect=ok(
        package(
            "aa bb cc",
            "aa bb cc",
            bud(5, 3, 2, 5, 50),
            [sel(_r4a, S, 3, "aa bb cc zz", 3)],
            [drop(_r4c, S, "budget_exhausted"), drop(_r4b, S, "budget_exhausted")],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- budget-h005
_r5a = rec("a", "aa bb zzzz")
_r5b = rec("b", "aa yyyyyyy")
_r5c = rec("c", "")
_h005 = vec(
    "budget-h005",
    "Stop rule: a zero-token candidate after the overflow is budget_exhausted as well.",
    comment=(
        "query 'aa bb'. a 'aa bb zzzz' -> 2, 10 bytes -> 3 tokens; b 'aa yyyyyyy' -> 1, 10 bytes -> 3 tokens; c '' -> 0, "
        "excerpt '' -> 0 tokens. max 5: a selected (3); b 3+3 = 6 > 5 -> stop (INT-26) -> b and c budget_exhausted, c even "
        "though 3+0 <= 5. dropped read order: b, c. used 3, remaining 2."
    ),
    clauses=["S6-TOK-04", "S6-TRUNC-12", "S6-TRUNC-03", "S6-REC-06"],
    interpretations=["INT-26", "INT-28", "INT-29"],
    request=_req("aa bb", {"max_excerpt_tokens": 5}),
    files={
        S: lines(
            L(memory_id="a", text="aa bb zzzz"),
            L(memory_id="b", text="aa yyyyyyy"),
            L(memory_id="c", text=""),
        )
    },
    expect=ok(
        package(
            "aa bb",
            "aa bb",
            bud(5, 3, 2, 5, 50),
            [sel(_r5a, S, 2, "aa bb zzzz", 3)],
            [drop(_r5b, S, "budget_exhausted"), drop(_r5c, S, "budget_exhausted")],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- budget-h006
_r6a = rec("a", "note")
_r6b = rec("b", "   ")
_h006 = vec(
    "budget-h006",
    "A zero-token excerpt is still selected when the budget is exactly used up.",
    comment=(
        "max 1. a 'note' -> 1, 1 token: 0+1 <= 1 -> selected. b '   ' -> score 0, stripped to '' -> 0 tokens: 1+0 = 1 <= 1 -> "
        "selected (no overflow, so no stop). used 1, remaining 0, per_item 1."
    ),
    clauses=["S6-TRUNC-03", "S6-TRUNC-11", "S6-TOK-04"],
    interpretations=["INT-02", "INT-29"],
    request=_req("note", {"max_excerpt_tokens": 1}),
    files={S: lines(L(memory_id="b", text="   "), L(memory_id="a", text="note"))},
    expect=ok(
        package(
            "note",
            "note",
            bud(1, 1, 0, 1, 50),
            [sel(_r6a, S, 1, "note", 1), sel(_r6b, S, 0, "", 0)],
            [],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- budget-h007
_r7a = rec("a", "aa bb cc")
_r7b = rec("b", "aa bb")
_r7c = rec("c", "aa")
_h007 = vec(
    "budget-h007",
    "max_items reached: the rest are dropped max_items_reached.",
    comment=(
        "query 'aa bb cc'. a 'aa bb cc' -> 3, 8 bytes -> 2 tokens; b 'aa bb' -> 2, 2 tokens; c 'aa' -> 1, 1 token. max 100, "
        "max_items 2: a, b selected (count reaches 2) -> selection stops -> c 'max_items_reached' (INT-27). used 4, "
        "remaining 96, max_items 2."
    ),
    clauses=["S6-TOK-05", "S6-INPUT-06", "S6-OUT-08"],
    interpretations=["INT-27"],
    request=_req("aa bb cc", {"max_excerpt_tokens": 100, "max_items": 2}),
    files={
        S: lines(
            L(memory_id="a", text="aa bb cc"),
            L(memory_id="b", text="aa bb"),
            L(memory_id="c", text="aa"),
        )
    },
    expect=ok(
        package(
            "aa bb cc",
            "aa bb cc",
            bud(100, 4, 96, 100, 2),
            [sel(_r7a, S, 3, "aa bb cc", 2), sel(_r7b, S, 2, "aa bb", 2)],
            [drop(_r7c, S, "max_items_reached")],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- budget-h008
_r8a = rec("a", "aa bb")
_r8b = rec("b", "aa xx")
_h008 = vec(
    "budget-h008",
    "max_items is checked before the budget: the next candidate is max_items_reached even if it would overflow.",
    comment=(
        "query 'aa bb'. a 'aa bb' -> 2, 2 tokens; b 'aa xx' -> 1, 2 tokens. max 2, max_items 1. a selected (used 2 = max). "
        "Count has reached 1 -> stop before b is looked at -> b 'max_items_reached', not budget_exhausted (2+2 > 2 would also "
        "overflow) (INT-27). used 2, remaining 0, per_item 2, max_items 1."
    ),
    clauses=["S6-TOK-05", "S6-TOK-04"],
    interpretations=["INT-27"],
    request=_req("aa bb", {"max_excerpt_tokens": 2, "max_items": 1}),
    files={S: lines(L(memory_id="a", text="aa bb"), L(memory_id="b", text="aa xx"))},
    expect=ok(
        package(
            "aa bb",
            "aa bb",
            bud(2, 2, 0, 2, 1),
            [sel(_r8a, S, 2, "aa bb", 2)],
            [drop(_r8b, S, "max_items_reached")],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- budget-h009
_r9 = rec("m1", "note")
_h009 = vec(
    "budget-h009",
    "max_items above 50 is accepted and reported as given.",
    comment=(
        "budget.max_items 100: any integer >= 1 is accepted ('hard cap' is not a limit of 50 on the parameter, INT-30); the "
        "package reports 100. m1 'note' -> 1, 1 token. used 1, remaining 9, per_item 10."
    ),
    clauses=["S6-INPUT-05", "S6-INPUT-06", "S6-OUT-08"],
    interpretations=["INT-30", "INT-32"],
    request=_req("note", {"max_excerpt_tokens": 10, "max_items": 100}),
    files={S: lines(L(memory_id="m1", text="note"))},
    expect=ok(
        package("note", "note", bud(10, 1, 9, 10, 100), [sel(_r9, S, 1, "note", 1)], []), [S]
    ),
)

# ---------------------------------------------------------------- budget-h010
_r10 = {m: rec(m, "") for m in ("e1", "e2", "e3", "e4", "e5")}
_h010 = vec(
    "budget-h010",
    "max_items caps zero-token candidates too; dropped in read order.",
    comment=(
        "Five records with text '' (0 tokens, score 0), file order e5, e4, e3, e2, e1. Rank by memory_id: e1, e2, e3, e4, e5. "
        "max_items 3: e1, e2, e3 selected (0 tokens each) -> count 3 -> e4, e5 max_items_reached (INT-27). dropped in read "
        "order (INT-28): e5 (line 0), e4 (line 1). used 0, remaining 100."
    ),
    clauses=["S6-INPUT-06", "S6-TOK-05", "S6-TRUNC-03", "S6-REC-06"],
    interpretations=["INT-27", "INT-28", "INT-29"],
    request=_req("zz", {"max_excerpt_tokens": 100, "max_items": 3}),
    files={S: lines(*(L(memory_id=m, text="") for m in ("e5", "e4", "e3", "e2", "e1")))},
    expect=ok(
        package(
            "zz",
            "zz",
            bud(100, 0, 100, 100, 3),
            [sel(_r10[m], S, 0, "", 0) for m in ("e1", "e2", "e3")],
            [drop(_r10[m], S, "max_items_reached") for m in ("e5", "e4")],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- budget-h011
_r11a = rec("a", "abcd")
_r11b = rec("b", "e")
_h011 = vec(
    "budget-h011",
    "The smallest budget: max_excerpt_tokens 1.",
    comment=(
        "query 'abcd'. a 'abcd' -> 1, 4 bytes -> 1 token; b 'e' -> 0, 1 byte -> 1 token. max 1 (per_item 1, max_bytes 4): "
        "a 0+1 <= 1 -> selected; b 1+1 = 2 > 1 -> budget_exhausted. used 1, remaining 0."
    ),
    clauses=["S6-INPUT-03", "S6-TRUNC-12", "S6-TOK-04"],
    interpretations=["INT-26", "INT-29"],
    request=_req("abcd", {"max_excerpt_tokens": 1}),
    files={S: lines(L(memory_id="b", text="e"), L(memory_id="a", text="abcd"))},
    expect=ok(
        package(
            "abcd",
            "abcd",
            bud(1, 1, 0, 1, 50),
            [sel(_r11a, S, 1, "abcd", 1)],
            [drop(_r11b, S, "budget_exhausted")],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- budget-h012
_r12 = rec("m1", "abcdefghijklmnop")
_h012 = vec(
    "budget-h012",
    "Budget fields: request values echoed, used/remaining computed.",
    comment=(
        "budget {max 10, per_item 3, max_items 7}: per_item min(3, 10) = 3 -> max_bytes 12. m1 'abcdefghijklmnop' (16 bytes) "
        "-> 'abcdefghijkl' -> 3 tokens. query 'abc' -> 1. Package budget: max_excerpt_tokens 10, used 3, remaining 7, "
        "per_item 3, max_items 7 (INT-32)."
    ),
    clauses=[
        "S6-OUT-04",
        "S6-OUT-05",
        "S6-OUT-06",
        "S6-OUT-07",
        "S6-OUT-08",
        "S6-TOK-02",
        "S6-TOK-03",
        "S6-HASH-11",
        "S6-TRUNC-04",
    ],
    interpretations=["INT-32"],
    request=_req(
        "abc", {"max_excerpt_tokens": 10, "per_item_max_excerpt_tokens": 3, "max_items": 7}
    ),
    files={S: lines(L(memory_id="m1", text="abcdefghijklmnop"))},
    expect=ok(
        package("abc", "abc", bud(10, 3, 7, 3, 7), [sel(_r12, S, 1, "abcdefghijkl", 3)], []), [S]
    ),
)

# ---------------------------------------------------------------- budget-h013
_r13 = {m: rec(m, "note") for m in ("m1", "m2", "m3")}
_h013 = vec(
    "budget-h013",
    "max_items 1 with plenty of budget selects exactly one.",
    comment=(
        "m1, m2, m3 'note' -> score 1 each, 1 token each; rank m1, m2, m3. max 100, max_items 1 -> m1 selected; m2, m3 "
        "max_items_reached (INT-27), read order. used 1, remaining 99, max_items 1."
    ),
    clauses=["S6-INPUT-06", "S6-TOK-05"],
    interpretations=["INT-27", "INT-28"],
    request=_req("note", {"max_excerpt_tokens": 100, "max_items": 1}),
    files={S: lines(*(L(memory_id=m, text="note") for m in ("m1", "m2", "m3")))},
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 1, 99, 100, 1),
            [sel(_r13["m1"], S, 1, "note", 1)],
            [drop(_r13[m], S, "max_items_reached") for m in ("m2", "m3")],
        ),
        [S],
    ),
)

VECTORS = [
    _h001,
    _h002,
    _h003,
    _h004,
    _h005,
    _h006,
    _h007,
    _h008,
    _h009,
    _h010,
    _h011,
    _h012,
    _h013,
]

# INT-09: a term matches inside a longer word (no word boundaries)
VECTORS = also(
    VECTORS,
    {
        "budget-h012": ["INT-09"],
    },
)
