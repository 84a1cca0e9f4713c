"""Hand vectors: the budget, the trimming loop and its two errata (family ``budget``)."""

# ruff: noqa: E501

from __future__ import annotations

from tools.generate.phase2._dsl import (
    POLICY,
    blk,
    ctx,
    entity,
    fixture,
    ok,
    qry,
    summary,
    ts,
    turn,
    vec,
)

DESCRIPTION = "Hand-written: exact fit, trimming hot turns oldest first, then entities from the end, then the summary (erratum P2-INT-11), policy + query over budget (erratum P2-INT-12), the 3000 cap, absent and zero-padded max_tokens."

# Setup A: every layer, 45 tokens untrimmed.
_A = fixture(
    summaries=[summary(1, "summary text here", ts(1, 9))],
    turns=[
        turn(1, "aaaa bbbb", ts(1, 10)),
        turn(2, "cc", ts(1, 10, 1)),
        turn(3, "dddd eeee ffff", ts(1, 10, 2)),
    ],
    entities=[
        entity(1, "task", "passport renewal", ts(1, 10)),
        entity(2, "goal", "passport photo", ts(1, 9)),
    ],
)
_A_WORK = (
    "Setup A, query 'passport' (C 8 -> 2). Policy 19. Summary 1 'summary text here' C 17 -> 5. "
    "Hot turns oldest first: 1 'aaaa bbbb' C 9 -> 3; 2 'cc' -> 1; 3 'dddd eeee ffff' C 14 -> 4 (8 in all). "
    "Entities (both seeds, d 0, by updated_at desc): 1 'task: passport renewal' C 22 -> 6 (10:00), 2 'goal: passport photo' C 20 -> 5 (09:00). "
    "Untrimmed total 19 + 5 + 8 + 11 + 2 = 45. "
)
_S = blk("summary", 1, "summary text here", 5)
_H1, _H2, _H3 = (
    blk("hot_turn", 1, "aaaa bbbb", 3),
    blk("hot_turn", 2, "cc", 1),
    blk("hot_turn", 3, "dddd eeee ffff", 4),
)
_E1, _E2 = (
    blk("entity", 1, "task: passport renewal", 6),
    blk("entity", 2, "goal: passport photo", 5),
)
_Q = qry("passport", 2)
_TRIM = [
    "P2-BUD-02",
    "P2-BUD-03",
    "P2-BUD-06",
    "P2-BUD-07",
    "P2-BUD-08",
    "P2-BUD-04",
    "P2-API-07",
    "P2-API-08",
]
_INT = ["P2-INT-01", "P2-INT-03", "P2-INT-05", "P2-INT-09", "P2-INT-10", "P2-INT-18"]


def _a(
    vid: str,
    description: str,
    max_tokens: str | None,
    working: str,
    expect: dict[str, object],
    clauses: list[str],
    extra: list[str],
) -> dict[str, object]:
    return vec(
        vid,
        description,
        comment=_A_WORK + working,
        clauses=clauses,
        interpretations=[*_INT, *extra],
        fixture=_A,
        call=ctx("passport", max_tokens),
        expect=expect,
    )


VECTORS = [
    _a(
        "p2-budget-h001",
        "Exact fit: a draft of 45 tokens under a budget of 45 is not trimmed.",
        "45",
        "max_tokens 45 -> applied 45; 45 <= 45 -> the loop never runs. Used 45.",
        ok(45, 45, 45, POLICY, _S, _H1, _H2, _H3, _E1, _E2, _Q),
        ["P2-BUD-06", "P2-BUD-05", "P2-API-07", "P2-API-11"],
        ["P2-INT-13"],
    ),
    _a(
        "p2-budget-h002",
        "One token over: the oldest hot turn goes, and trimming stops.",
        "44",
        "applied 44: 45 > 44 -> drop hot 1 (3) -> 42 <= 44, stop. Used 42.",
        ok(44, 44, 42, POLICY, _S, _H2, _H3, _E1, _E2, _Q),
        _TRIM,
        [],
    ),
    _a(
        "p2-budget-h003",
        "Hot turns go one at a time, oldest first, until the draft fits.",
        "41",
        "applied 41: 45 -> drop hot 1 -> 42 > 41 -> drop hot 2 -> 41 <= 41, stop. Hot 3 stays. Used 41.",
        ok(41, 41, 41, POLICY, _S, _H3, _E1, _E2, _Q),
        _TRIM,
        [],
    ),
    _a(
        "p2-budget-h004",
        "Every hot turn goes before any entity.",
        "37",
        "applied 37: drop hot 1 (42), hot 2 (41), hot 3 (37) -> 37 <= 37. Entities untouched. Used 37.",
        ok(37, 37, 37, POLICY, _S, _E1, _E2, _Q),
        _TRIM,
        [],
    ),
    _a(
        "p2-budget-h005",
        "With no hot turn left, the least relevant entity goes first.",
        "36",
        "applied 36: hot all gone -> 37 > 36 -> drop the last entity, 2 (5) -> 32 <= 36. Used 32.",
        ok(36, 36, 32, POLICY, _S, _E1, _Q),
        _TRIM,
        [],
    ),
    _a(
        "p2-budget-h006",
        "Entities go from the end until none is left; the summary stays while it fits.",
        "31",
        "applied 31: ... 32 > 31 -> drop entity 1 (6) -> 26 <= 31. Summary kept. Used 26.",
        ok(31, 31, 26, POLICY, _S, _Q),
        _TRIM,
        ["P2-INT-11"],
    ),
    _a(
        "p2-budget-h007",
        "The summary goes last, whole (erratum P2-INT-11).",
        "25",
        "applied 25: hot and entities gone -> 26 > 25 -> the pseudocode would break here and exceed; P2-INT-11 drops the summary (5) -> 21 <= 25. Used 21.",
        ok(25, 25, 21, POLICY, _Q),
        [*_TRIM, "P2-BUD-09", "P2-BUD-10"],
        ["P2-INT-11"],
    ),
    _a(
        "p2-budget-h008",
        "Policy + query over budget: kept whole, estimated_used exceeds applied (erratum P2-INT-12).",
        "20",
        "applied 20: everything trimmable goes -> 21 > 20 -> break; policy + query stay (P2-BUD-01, P2-INT-12). Used 21 > applied 20, status 200.",
        ok(20, 20, 21, POLICY, _Q),
        ["P2-BUD-01", "P2-BUD-09", "P2-BUD-04", "P2-BUD-10", "P2-API-07"],
        ["P2-INT-11", "P2-INT-12"],
    ),
    _a(
        "p2-budget-h009",
        "A budget of one token still answers policy + query.",
        "1",
        "applied 1: as h008, [policy, query], used 21.",
        ok(1, 1, 21, POLICY, _Q),
        ["P2-BUD-01", "P2-BUD-09", "P2-BUD-10"],
        ["P2-INT-11", "P2-INT-12", "P2-INT-14"],
    ),
    vec(
        "p2-budget-h010",
        "Trim order, not best fit: the hot turn goes even though dropping the entity alone would fit.",
        comment="Query 'passport' (2), policy 19. Hot turn 1 'hi' (1). Entity 1 task 'passport' -> 'task: passport' C 14 -> 4. Total 26. applied 23: 26 > 23 -> drop hot 1 -> 25 > 23 -> drop entity 1 -> 21 <= 23. (Dropping only the entity would give 22 and keep the turn; the spec's order forbids it, P2-INT-10.) Used 21.",
        clauses=["P2-BUD-02", "P2-BUD-03", "P2-BUD-07", "P2-BUD-08"],
        interpretations=["P2-INT-01", "P2-INT-03", "P2-INT-10"],
        fixture=fixture(
            turns=[turn(1, "hi", ts())], entities=[entity(1, "task", "passport", ts())]
        ),
        call=ctx("passport", "23"),
        expect=ok(23, 23, 21, POLICY, _Q),
    ),
    vec(
        "p2-budget-h011",
        "A zero-token hot turn is trimmed too: one block per iteration.",
        comment="Query 'passport' (2), policy 19. Hot oldest first: 1 '' (0) at 10:00, 2 'abcdefgh ijkl' (C 13 -> 4, W 2) at 10:01. Total 25. applied 24: 25 > 24 -> drop hot 1 (0) -> 25 > 24 -> drop hot 2 -> 21 <= 24. Used 21.",
        clauses=["P2-BUD-06", "P2-BUD-07"],
        interpretations=["P2-INT-01", "P2-INT-10"],
        fixture=fixture(turns=[turn(1, "", ts(1, 10)), turn(2, "abcdefgh ijkl", ts(1, 10, 1))]),
        call=ctx("passport", "24"),
        expect=ok(24, 24, 21, POLICY, _Q),
    ),
    _a(
        "p2-budget-h012",
        "max_tokens above the cap: requested 5000, applied 3000.",
        "5000",
        "requested 5000 -> applied min(5000, 3000) = 3000 (P2-CFG-01, P2-BUD-05). 45 <= 3000, nothing trimmed. Used 45.",
        ok(5000, 3000, 45, POLICY, _S, _H1, _H2, _H3, _E1, _E2, _Q),
        ["P2-BUD-05", "P2-API-05", "P2-CFG-01", "P2-API-07"],
        ["P2-INT-13"],
    ),
    _a(
        "p2-budget-h013",
        "No max_tokens: requested null, applied 3000.",
        None,
        "max_tokens absent -> requested null, applied 3000 (P2-INT-13). Used 45.",
        ok(None, 3000, 45, POLICY, _S, _H1, _H2, _H3, _E1, _E2, _Q),
        ["P2-API-05", "P2-CFG-01", "P2-API-07"],
        ["P2-INT-13"],
    ),
    _a(
        "p2-budget-h014",
        "max_tokens equal to the cap.",
        "3000",
        "requested 3000, applied min(3000, 3000) = 3000. Used 45.",
        ok(3000, 3000, 45, POLICY, _S, _H1, _H2, _H3, _E1, _E2, _Q),
        ["P2-BUD-05", "P2-CFG-01"],
        ["P2-INT-13"],
    ),
    _a(
        "p2-budget-h015",
        "Leading zeros are allowed: '0044' is 44.",
        "0044",
        "max_tokens '0044' -> 44 (P2-INT-14); requested 44, applied 44; as h002: drop hot 1 -> 42. Used 42.",
        ok(44, 44, 42, POLICY, _S, _H2, _H3, _E1, _E2, _Q),
        ["P2-API-05", "P2-BUD-07"],
        ["P2-INT-13", "P2-INT-14"],
    ),
]

_TWENTY_SIX = [entity(n, "task", "x", ts()) for n in range(1, 27)]
VECTORS.append(
    vec(
        "p2-budget-h016",
        "The entity limit bounds the selection before trimming: a 26th related entity costs no hot turn.",
        comment="Query 'x' (C 1 -> 1). 26 tasks titled 'x', all seeds (distance 0), same updated_at: ranked id descending 26..1 (P2-INT-09); the limit 25 keeps 26..2 before the budget. Each 'task: x' is C 7 -> 2, W 2 -> 2 tokens. Hot turn 1 'hello' -> C 5 -> 2, W 1 -> 2. max_tokens 72: total 19 + 2 + 25 * 2 + 1 = 72 <= 72, nothing trimmed (P2-BUD-06). Applying the limit after trimming would draft 26 entities (74 > 72), trim the hot turn first, then keep 25: no hot turn.",
        clauses=["P2-CFG-03", "P2-ASM-05", "P2-BUD-06", "P2-BUD-02"],
        interpretations=["P2-INT-08", "P2-INT-09", "P2-INT-10", "P2-INT-13"],
        fixture=fixture(turns=[turn(1, "hello", ts())], entities=_TWENTY_SIX),
        call=ctx("x", "72"),
        expect=ok(
            72,
            72,
            72,
            POLICY,
            blk("hot_turn", 1, "hello", 2),
            *[blk("entity", n, "task: x", 2) for n in range(26, 1, -1)],
            qry("x", 1),
        ),
    )
)
