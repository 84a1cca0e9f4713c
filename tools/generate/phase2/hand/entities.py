"""Hand vectors: related entities, terms, link proximity and relevance (family ``entities``)."""

# ruff: noqa: E501

from __future__ import annotations

from tools.generate.phase2._dsl import POLICY, blk, ctx, entity, fixture, link, ok, qry, ts, vec

DESCRIPTION = "Hand-written: seeds by shared ASCII term, undirected link distance, proximity before recency, id ties, other users' entities and links, the limit of 25."
_N = "No max_tokens -> applied 3000, nothing trimmed; policy 19. "
_CL = ["P2-ASM-05", "P2-ASM-09", "P2-API-08"]
_INT = ["P2-INT-01", "P2-INT-03", "P2-INT-05", "P2-INT-08", "P2-INT-09", "P2-INT-13"]

VECTORS = [
    vec(
        "p2-entities-h001",
        "A title sharing a query term (case-insensitive) seeds the layer; others are not related.",
        comment=_N
        + "Query 'PASSPORT renewal': terms {passport, renewal}; C 16 -> 4, W 2 -> 4. Entity 1 task 'Renew passport' terms {renew, passport} -> seed, d 0. Entity 2 goal 'Learn Spanish' shares nothing, no link -> not related. 'task: Renew passport' C 20 -> 5, W 3 -> 5. Used 19 + 5 + 4 = 28.",
        clauses=_CL,
        interpretations=_INT,
        fixture=fixture(
            entities=[
                entity(1, "task", "Renew passport", ts()),
                entity(2, "goal", "Learn Spanish", ts()),
            ]
        ),
        call=ctx("PASSPORT renewal"),
        expect=ok(
            None,
            3000,
            28,
            POLICY,
            blk("entity", 1, "task: Renew passport", 5),
            qry("PASSPORT renewal", 4),
        ),
    ),
    vec(
        "p2-entities-h002",
        "Terms are ASCII runs: 'café' gives 'caf', which matches 'caf' and 'Café' but not 'cafe'.",
        comment=_N
        + "Query 'café': é separates -> terms {caf}; C 4 -> 1. Entity 1 task 'Café visit' (10:00): terms {caf, visit} -> seed. Entity 2 task 'caf' (11:00): {caf} -> seed. Entity 3 task 'cafe': {cafe} -> not. Both seeds d 0; updated_at desc: 2 (11:00), 1 (10:00). 'task: caf' C 9 -> 3, W 2 -> 3; 'task: Café visit' C 16 -> 4, W 3 -> 4. Used 19 + 3 + 4 + 1 = 27.",
        clauses=_CL,
        interpretations=_INT,
        fixture=fixture(
            entities=[
                entity(1, "task", "Café visit", ts(1, 10)),
                entity(2, "task", "caf", ts(1, 11)),
                entity(3, "task", "cafe", ts(1, 12)),
            ]
        ),
        call=ctx("café"),
        expect=ok(
            None,
            3000,
            27,
            POLICY,
            blk("entity", 2, "task: caf", 3),
            blk("entity", 1, "task: Café visit", 4),
            qry("café", 1),
        ),
    ),
    vec(
        "p2-entities-h003",
        "Digits are term characters, punctuation separates, whole terms only; equal updated_at -> greater id first.",
        comment=_N
        + "Query 'Q3-report': terms {q3, report}; C 9 -> 3, W 1 -> 3. Entity 1 problem 'report overdue' -> seed; entity 2 goal 'Q3' -> seed; entity 3 task 'reporting' ({reporting}) -> not. 1 and 2 both d 0, both at 10:00 -> id desc: 2, 1. 'goal: Q3' C 8 -> 2, W 2 -> 2; 'problem: report overdue' C 23 -> 6, W 3 -> 6. Used 19 + 2 + 6 + 3 = 30.",
        clauses=_CL,
        interpretations=[*_INT, "P2-INT-19"],
        fixture=fixture(
            entities=[
                entity(1, "problem", "report overdue", ts()),
                entity(2, "goal", "Q3", ts()),
                entity(3, "task", "reporting", ts()),
            ]
        ),
        call=ctx("Q3-report"),
        expect=ok(
            None,
            3000,
            30,
            POLICY,
            blk("entity", 2, "goal: Q3", 2),
            blk("entity", 1, "problem: report overdue", 6),
            qry("Q3-report", 3),
        ),
    ),
    vec(
        "p2-entities-h004",
        "Links are undirected; proximity comes before recency; unlinked entities are not related.",
        comment=_N
        + "Query 'passport' (2). Entity 1 task 'Renew passport' 10:00 -> seed d 0. Link 1: 2 -> 1, so entity 2 goal 'Travel to Japan' (11:00) is d 1 (undirected). Link 2: 2 -> 3, entity 3 problem 'Visa rules' (12:00) d 2. Entity 4 task 'Buy milk' unlinked -> not related. Order by distance: 1, 2, 3 (although 3 is the most recent). Tokens: 'task: Renew passport' 5; 'goal: Travel to Japan' C 21 -> 6, W 4 -> 6; 'problem: Visa rules' C 19 -> 5, W 3 -> 5. Used 19 + 5 + 6 + 5 + 2 = 37.",
        clauses=_CL,
        interpretations=_INT,
        fixture=fixture(
            entities=[
                entity(1, "task", "Renew passport", ts(1, 10)),
                entity(2, "goal", "Travel to Japan", ts(1, 11)),
                entity(3, "problem", "Visa rules", ts(1, 12)),
                entity(4, "task", "Buy milk", ts(1, 13)),
            ],
            links=[link(1, 2, 1), link(2, 2, 3)],
        ),
        call=ctx("passport"),
        expect=ok(
            None,
            3000,
            37,
            POLICY,
            blk("entity", 1, "task: Renew passport", 5),
            blk("entity", 2, "goal: Travel to Japan", 6),
            blk("entity", 3, "problem: Visa rules", 5),
            qry("passport", 2),
        ),
    ),
    vec(
        "p2-entities-h005",
        "At equal distance the more recently updated entity is more relevant.",
        comment=_N
        + "Query 'passport' (2). Seeds: 1 'passport photo' (10:00), 2 'passport form' (12:00), both d 0. Entity 3 task 'Gym' (13:00) linked to 1 -> d 1. Order: 2 (d 0, 12:00), 1 (d 0, 10:00), 3 (d 1). 'task: passport form' C 19 -> 5; 'task: passport photo' C 20 -> 5; 'task: Gym' C 9 -> 3, W 2 -> 3. Used 19 + 5 + 5 + 3 + 2 = 34.",
        clauses=_CL,
        interpretations=_INT,
        fixture=fixture(
            entities=[
                entity(1, "task", "passport photo", ts(1, 10)),
                entity(2, "task", "passport form", ts(1, 12)),
                entity(3, "task", "Gym", ts(1, 13)),
            ],
            links=[link(1, 3, 1)],
        ),
        call=ctx("passport"),
        expect=ok(
            None,
            3000,
            34,
            POLICY,
            blk("entity", 2, "task: passport form", 5),
            blk("entity", 1, "task: passport photo", 5),
            blk("entity", 3, "task: Gym", 3),
            qry("passport", 2),
        ),
    ),
    vec(
        "p2-entities-h006",
        "Another user's entities are neither candidates nor bridges.",
        comment=_N
        + "Query 'passport' (2), user u1. u1: entity 1 task 'Renew passport' (seed), entity 3 goal 'Holiday'. u2: entity 2 task 'passport'. Links 1-2 and 2-3 touch u2's entity -> ignored (P2-INT-08 step 4), so 3 is unreachable and 2 is not a candidate. Only entity 1 (5). Used 19 + 5 + 2 = 26.",
        clauses=_CL,
        interpretations=_INT,
        fixture=fixture(
            entities=[
                entity(1, "task", "Renew passport", ts()),
                entity(2, "task", "passport", ts(), user="u2"),
                entity(3, "goal", "Holiday", ts()),
            ],
            links=[link(1, 1, 2), link(2, 2, 3)],
        ),
        call=ctx("passport"),
        expect=ok(
            None, 3000, 26, POLICY, blk("entity", 1, "task: Renew passport", 5), qry("passport", 2)
        ),
    ),
    vec(
        "p2-entities-h007",
        "No seed, no related entity, whatever the links.",
        comment=_N
        + "Query 'hello' (C 5 -> 2): terms {hello}. Entities 'Renew passport' and 'Travel' (linked) share no term -> no seed -> empty layer. Used 19 + 2 = 21.",
        clauses=_CL,
        interpretations=_INT,
        fixture=fixture(
            entities=[entity(1, "task", "Renew passport", ts()), entity(2, "goal", "Travel", ts())],
            links=[link(1, 1, 2)],
        ),
        call=ctx("hello"),
        expect=ok(None, 3000, 21, POLICY, qry("hello", 2)),
    ),
    vec(
        "p2-entities-h008",
        "27 related entities: the 25 most recent are kept.",
        comment=_N
        + "Query 'passport' (2). Entities k = 1..27 task 'passport k' updated 10:k (minute k): all seeds d 0. Recency desc: 27, 26, ..., 3 are the first 25 (P2-CFG-03); 2 and 1 are left out. 'task: passport k': k < 10 -> C 16 -> 4 (W 3); k >= 10 -> C 17 -> 5. k = 3..9: 7 x 4 = 28; k = 10..27: 18 x 5 = 90; 118. Used 19 + 118 + 2 = 139.",
        clauses=[*_CL, "P2-CFG-03"],
        interpretations=_INT,
        fixture=fixture(
            entities=[entity(k, "task", f"passport {k}", ts(1, 10, k)) for k in range(1, 28)]
        ),
        call=ctx("passport"),
        expect=ok(
            None,
            3000,
            139,
            POLICY,
            *[
                blk("entity", k, f"task: passport {k}", 5 if k >= 10 else 4)
                for k in range(27, 2, -1)
            ],
            qry("passport", 2),
        ),
    ),
    vec(
        "p2-entities-h009",
        "Entities belong to the user, not to the chat.",
        comment=_N
        + "Call chat c9 (no rows there), user u1, query 'passport' (2). u1's entity 1 'Renew passport' is a seed (entities are selected by user and query only, P2-ASM-09) -> 5. Used 19 + 5 + 2 = 26.",
        clauses=_CL,
        interpretations=_INT,
        fixture=fixture(entities=[entity(1, "task", "Renew passport", ts())]),
        call=ctx("passport", chat="c9"),
        expect=ok(
            None, 3000, 26, POLICY, blk("entity", 1, "task: Renew passport", 5), qry("passport", 2)
        ),
    ),
    vec(
        "p2-entities-h010",
        "A self-link and a link to an unknown id lead nowhere.",
        comment=_N
        + "Query 'passport' (2). Entity 1 task 'passport' seed. Links 1->1 (self), 1->99 and 99->2 (99 unknown -> ignored). Entity 2 goal 'Other' unreachable. Only 1: 'task: passport' C 14 -> 4, W 2 -> 4. Used 19 + 4 + 2 = 25.",
        clauses=_CL,
        interpretations=_INT,
        fixture=fixture(
            entities=[entity(1, "task", "passport", ts()), entity(2, "goal", "Other", ts())],
            links=[link(1, 1, 1), link(2, 1, 99), link(3, 99, 2)],
        ),
        call=ctx("passport"),
        expect=ok(
            None, 3000, 25, POLICY, blk("entity", 1, "task: passport", 4), qry("passport", 2)
        ),
    ),
    vec(
        "p2-entities-h011",
        "Distance is the shortest path: a direct link wins over a longer one.",
        comment=_N
        + "Query 'passport' (2). Entity 1 task 'passport' seed. Links 1-2, 2-3, 3-1: entity 2 d 1, entity 3 d 1 (direct link to 1, not d 2). Both d 1: updated 2 at 10:00, 3 at 09:00 -> 2 then 3. 'task: passport' 4; 'goal: Flights' C 13 -> 4, W 2 -> 4; 'goal: Hotel' C 11 -> 3, W 2 -> 3. Used 19 + 4 + 4 + 3 + 2 = 32.",
        clauses=_CL,
        interpretations=_INT,
        fixture=fixture(
            entities=[
                entity(1, "task", "passport", ts(1, 8)),
                entity(2, "goal", "Flights", ts(1, 10)),
                entity(3, "goal", "Hotel", ts(1, 9)),
            ],
            links=[link(1, 1, 2), link(2, 2, 3), link(3, 3, 1)],
        ),
        call=ctx("passport"),
        expect=ok(
            None,
            3000,
            32,
            POLICY,
            blk("entity", 1, "task: passport", 4),
            blk("entity", 2, "goal: Flights", 4),
            blk("entity", 3, "goal: Hotel", 3),
            qry("passport", 2),
        ),
    ),
]
