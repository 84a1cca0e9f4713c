"""Generated: related entities on random link graphs, up to past the limit of 25."""

# ruff: noqa: E501

from __future__ import annotations

import random

from tools.generate.phase2.families._case import Case, pick_ts, vocabulary, words

FAMILY = "entities"
DESCRIPTION = "Generated: random entity graphs of two users (up to 40 entities, random links, unknown ids); seeds by query term, BFS distance, proximity then recency then id, at most 25."
_TIMES = [f"2024-05-{d:02d}T09:00:00Z" for d in (1, 2, 3)] + ["2024-05-02T09:00:01Z"]
_KINDS = ["task", "goal", "problem"]


def cases() -> list[Case]:
    """40 cases; the last ten have 30 to 40 entities, most of them related."""
    rng = random.Random(7_003)
    out = []
    for index in range(1, 41):
        big = index > 30
        count = rng.randint(28, 40) if big else rng.randint(0, 14)
        ids = rng.sample(range(1, 200), count)
        entities = [
            {
                "id": eid,
                "user_id": "u1" if rng.random() < 0.85 else "u2",
                "kind": rng.choice(_KINDS),
                "title": words(rng, 1, 3),
                "updated_at": pick_ts(rng, _TIMES),
            }
            for eid in ids
        ]
        pool = [*ids, 999]  # 999: an unknown id
        links = [
            {"id": lid, "from_entity_id": rng.choice(pool), "to_entity_id": rng.choice(pool)}
            for lid in range(1, rng.randint(0, count * 2 if big else count + 3) + 1)
        ]
        query = " ".join(rng.sample(vocabulary, 1 if big else rng.randint(1, 3)))
        seeded = count // 2 if big else count // 3  # make enough entities seeds
        for row in entities[:seeded]:
            row["title"] = f"{query.split()[0]} {row['title']}"
        out.append(
            Case(
                f"p2-entities-g{index:03d}",
                "Related entities: seeds, undirected link distance, relevance order, the limit.",
                ("P2-ASM-05", "P2-ASM-09", "P2-API-08", *(("P2-CFG-03",) if big else ())),
                ("P2-INT-01", "P2-INT-03", "P2-INT-05", "P2-INT-08", "P2-INT-09"),
                {"entities": entities, "entity_links": links},
                {
                    "op": "context",
                    "params": [
                        ["chat_id", "c1"],
                        ["user_id", "u1"],
                        ["query", query.upper() if index % 4 == 0 else query],
                    ],
                },
            )
        )
    return out
