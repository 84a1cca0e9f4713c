"""Hand vectors: the summary and hot-turn layers and the layer order (family ``layers``)."""

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

DESCRIPTION = "Hand-written: the most recent summary of user + chat, the last 8 turns oldest first, scoping by user and chat, the user_id default, the layer order."
_Q = "Query 'hi' -> 1 token; policy 19; no max_tokens -> applied 3000, nothing trimmed. "
_SUM = ["P2-ASM-03", "P2-ASM-07", "P2-API-08"]
_HOT = ["P2-ASM-04", "P2-ASM-08", "P2-API-08"]
_INT = ["P2-INT-01", "P2-INT-05", "P2-INT-13"]

VECTORS = [
    vec(
        "p2-layers-h001",
        "The summary layer is the latest summary of the user in the chat.",
        comment=_Q
        + "Summaries of u1/c1: id 1 at 05-01 10:00 'old news', id 2 at 05-02 10:00 'new news'. Latest by created_at: id 2. 'new news' C 8 -> 2, W 2 -> 2. Used 19 + 2 + 1 = 22.",
        clauses=_SUM,
        interpretations=[*_INT, "P2-INT-06"],
        fixture=fixture(summaries=[summary(1, "old news", ts(1)), summary(2, "new news", ts(2))]),
        call=ctx("hi"),
        expect=ok(None, 3000, 22, POLICY, blk("summary", 2, "new news", 2), qry("hi", 1)),
    ),
    vec(
        "p2-layers-h002",
        "Equal created_at: the greater id is the later summary; time beats id.",
        comment=_Q
        + "u1/c1 summaries: id 9 at 09:00 'nine old', id 3 at 12:00 'three', id 5 at 12:00 'five'. Latest time 12:00 (ids 3, 5), tie -> greater id 5 (P2-INT-06, P2-INT-19); id 9 is older despite its id. 'five' C 4 -> 1. Used 19 + 1 + 1 = 21.",
        clauses=_SUM,
        interpretations=[*_INT, "P2-INT-06", "P2-INT-19"],
        fixture=fixture(
            summaries=[
                summary(9, "nine old", ts(1, 9)),
                summary(3, "three", ts(1, 12)),
                summary(5, "five", ts(1, 12)),
            ]
        ),
        call=ctx("hi"),
        expect=ok(None, 3000, 21, POLICY, blk("summary", 5, "five", 1), qry("hi", 1)),
    ),
    vec(
        "p2-layers-h003",
        "Another user's or another chat's newer summary is never used.",
        comment=_Q
        + "Summaries: id 1 u1/c1 at 05-01 'mine'; id 2 u2/c1 at 05-03 'theirs'; id 3 u1/c2 at 05-04 'elsewhere'. Only id 1 matches user_id + chat_id. 'mine' C 4 -> 1. Used 21.",
        clauses=_SUM,
        interpretations=[*_INT, "P2-INT-06"],
        fixture=fixture(
            summaries=[
                summary(1, "mine", ts(1)),
                summary(2, "theirs", ts(3), user="u2"),
                summary(3, "elsewhere", ts(4), chat="c2"),
            ]
        ),
        call=ctx("hi"),
        expect=ok(None, 3000, 21, POLICY, blk("summary", 1, "mine", 1), qry("hi", 1)),
    ),
    vec(
        "p2-layers-h004",
        "A summary with empty text is still the summary layer (0 tokens, counted).",
        comment=_Q
        + "u1/c1 summary id 1, summary_text '' -> block of 0 tokens, sources.summaries 1 (P2-INT-06). Used 19 + 0 + 1 = 20.",
        clauses=_SUM,
        interpretations=[*_INT, "P2-INT-06", "P2-INT-18"],
        fixture=fixture(summaries=[summary(1, "", ts())]),
        call=ctx("hi"),
        expect=ok(None, 3000, 20, POLICY, blk("summary", 1, "", 0), qry("hi", 1)),
    ),
    vec(
        "p2-layers-h005",
        "Ten turns: the latest 8 are hot, oldest first.",
        comment=_Q
        + "u1/c1 turns id k at 10:0k / 10:10, text 'tk', k = 1..10. Latest 8 by created_at: ids 10..3; listed oldest first: 3, 4, ..., 10 (P2-INT-07). 't3'..'t9' C 2 -> 1; 't10' C 3 -> 1. 8 tokens. Used 19 + 8 + 1 = 28.",
        clauses=[*_HOT, "P2-CFG-02"],
        interpretations=[*_INT, "P2-INT-07"],
        fixture=fixture(turns=[turn(k, f"t{k}", ts(1, 10, k)) for k in range(1, 11)]),
        call=ctx("hi"),
        expect=ok(
            None,
            3000,
            28,
            POLICY,
            *[blk("hot_turn", k, f"t{k}", 1) for k in range(3, 11)],
            qry("hi", 1),
        ),
    ),
    vec(
        "p2-layers-h006",
        "Hot turns are ordered by created_at, not by id.",
        comment=_Q
        + "u1/c1 turns: id 1 at 10:05 'a', id 2 at 10:01 'b', id 3 at 10:03 'c'. Oldest first: 2 (10:01), 3 (10:03), 1 (10:05). 1 token each. Used 19 + 3 + 1 = 23.",
        clauses=_HOT,
        interpretations=[*_INT, "P2-INT-07"],
        fixture=fixture(
            turns=[
                turn(1, "a", ts(1, 10, 5)),
                turn(2, "b", ts(1, 10, 1)),
                turn(3, "c", ts(1, 10, 3)),
            ]
        ),
        call=ctx("hi"),
        expect=ok(
            None,
            3000,
            23,
            POLICY,
            blk("hot_turn", 2, "b", 1),
            blk("hot_turn", 3, "c", 1),
            blk("hot_turn", 1, "a", 1),
            qry("hi", 1),
        ),
    ),
    vec(
        "p2-layers-h007",
        "Nine turns at one instant: the greater ids are the later; id 1 is left out.",
        comment=_Q
        + "u1/c1 turns id 1..9 all at 05-01 10:00, text 'x'. Ranking created_at desc, id desc: 9, 8, ..., 1; the first 8 are 9..2; listed oldest first (created_at asc, id asc): 2..9. 8 tokens. Used 28.",
        clauses=[*_HOT, "P2-CFG-02"],
        interpretations=[*_INT, "P2-INT-07", "P2-INT-19"],
        fixture=fixture(turns=[turn(k, "x", ts()) for k in range(1, 10)]),
        call=ctx("hi"),
        expect=ok(
            None,
            3000,
            28,
            POLICY,
            *[blk("hot_turn", k, "x", 1) for k in range(2, 10)],
            qry("hi", 1),
        ),
    ),
    vec(
        "p2-layers-h008",
        "Hot turns are this user's in this chat only (group chats, other chats).",
        comment=_Q
        + "Turns: id 1 u1/c1 'mine'; id 2 u2/c1 'theirs' (same chat, other user); id 3 u1/c2 'elsewhere'. Only id 1. 'mine' C 4 -> 1. Used 21.",
        clauses=_HOT,
        interpretations=[*_INT, "P2-INT-07"],
        fixture=fixture(
            turns=[
                turn(1, "mine", ts(1, 10)),
                turn(2, "theirs", ts(1, 11), user="u2"),
                turn(3, "elsewhere", ts(1, 12), chat="c2"),
            ]
        ),
        call=ctx("hi"),
        expect=ok(None, 3000, 21, POLICY, blk("hot_turn", 1, "mine", 1), qry("hi", 1)),
    ),
    vec(
        "p2-layers-h009",
        "Without user_id the user is the chat_id (a Telegram private chat).",
        comment=_Q
        + "Call without user_id, chat_id '42' -> user '42' (P2-INT-16). Summary id 1 of 42/42 'sum' (C 3 -> 1). Turns: id 1 42/42 'hello' (C 5 -> 2); id 2 u1/42 'other' -> another user, left out. Used 19 + 1 + 2 + 1 = 23.",
        clauses=["P2-API-03", "P2-ASM-07", "P2-ASM-08"],
        interpretations=[*_INT, "P2-INT-16", "P2-INT-06", "P2-INT-07"],
        fixture=fixture(
            summaries=[summary(1, "sum", ts(), user="42", chat="42")],
            turns=[
                turn(1, "hello", ts(1, 10), user="42", chat="42"),
                turn(2, "other", ts(1, 11), chat="42"),
            ],
        ),
        call=ctx("hi", chat="42", user=None),
        expect=ok(
            None,
            3000,
            23,
            POLICY,
            blk("summary", 1, "sum", 1),
            blk("hot_turn", 1, "hello", 2),
            qry("hi", 1),
        ),
    ),
    vec(
        "p2-layers-h010",
        "No time window: a turn from years ago is still hot.",
        comment=_Q
        + "u1/c1 turn id 1 at 2019-01-01T00:00:00Z 'old' (C 3 -> 1). The window is the last 8 items, however old (P2-INT-07). Used 21.",
        clauses=_HOT,
        interpretations=[*_INT, "P2-INT-07"],
        fixture=fixture(turns=[turn(1, "old", "2019-01-01T00:00:00Z")]),
        call=ctx("hi"),
        expect=ok(None, 3000, 21, POLICY, blk("hot_turn", 1, "old", 1), qry("hi", 1)),
    ),
    vec(
        "p2-layers-h011",
        "Every layer at once, in the spec's order.",
        comment="Query 'passport' (C 8 -> 2). Summary id 1 's' -> 1. Turns id 1 'a' 10:00, id 2 'b' 10:01 -> 1 each. Entity id 1 task 'Passport': terms {passport} shared with the query -> seed; text 'task: Passport' C 14 -> 4, W 2 -> 4. Order policy, summary, hot (1, 2), entity, query (P2-INT-05). Used 19 + 1 + 1 + 1 + 4 + 2 = 28; applied 3000.",
        clauses=["P2-ASM-01", "P2-ASM-10", "P2-ASM-02", "P2-ASM-06", "P2-API-06", "P2-API-11"],
        interpretations=[*_INT, "P2-INT-03", "P2-INT-08"],
        fixture=fixture(
            summaries=[summary(1, "s", ts())],
            turns=[turn(1, "a", ts(1, 10)), turn(2, "b", ts(1, 10, 1))],
            entities=[entity(1, "task", "Passport", ts())],
        ),
        call=ctx("passport"),
        expect=ok(
            None,
            3000,
            28,
            POLICY,
            blk("summary", 1, "s", 1),
            blk("hot_turn", 1, "a", 1),
            blk("hot_turn", 2, "b", 1),
            blk("entity", 1, "task: Passport", 4),
            qry("passport", 2),
        ),
    ),
    vec(
        "p2-layers-h012",
        "chat_id is an exact string: '007' is not '7'.",
        comment=_Q
        + "Rows of u1 in chat '7' (summary 'seven', turn 'seven'); the call asks chat '007' -> nothing matches (P2-INT-17), context [policy, query]. Used 19 + 1 = 20.",
        clauses=["P2-API-03", "P2-ASM-07", "P2-ASM-08"],
        interpretations=[*_INT, "P2-INT-17"],
        fixture=fixture(
            summaries=[summary(1, "seven", ts(), chat="7")],
            turns=[turn(1, "seven", ts(), chat="7")],
        ),
        call=ctx("hi", chat="007"),
        expect=ok(None, 3000, 20, POLICY, qry("hi", 1)),
    ),
]
