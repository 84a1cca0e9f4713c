"""Generated: every layer at once under budgets that cut into each trimming stage."""

# ruff: noqa: E501

from __future__ import annotations

import random
from typing import Any

from tools.generate.phase2.families._case import Case, pick_ts, vocabulary, words

FAMILY = "budget"
DESCRIPTION = "Generated: a summary, up to 12 turns and up to 12 related entities, with max_tokens spread over every trimming stage, at and around the cap, and absent."
_TIMES = [f"2024-05-01T{h:02d}:00:00Z" for h in range(8, 14)]
_POLICY_TOKENS = 19


def _fixture(rng: random.Random, query: str) -> dict[str, list[dict[str, Any]]]:
    summaries = [
        {
            "id": sid,
            "user_id": "u1",
            "chat_id": "c1",
            "summary_text": words(rng, 0, 25),
            "facts_json": [],
            "source_event_ids": [],
            "created_at": pick_ts(rng, _TIMES),
        }
        for sid in range(1, rng.randint(0, 2) + 1)
    ]
    turns = [
        {
            "id": tid,
            "user_id": "u1",
            "chat_id": "c1",
            "text": words(rng, 0, 12),
            "created_at": pick_ts(rng, _TIMES),
        }
        for tid in range(1, rng.randint(0, 12) + 1)
    ]
    entities = [
        {
            "id": eid,
            "user_id": "u1",
            "kind": rng.choice(["task", "goal", "problem"]),
            "title": (query + " " if rng.random() < 0.6 else "") + words(rng, 1, 6),
            "updated_at": pick_ts(rng, _TIMES),
        }
        for eid in range(1, rng.randint(0, 12) + 1)
    ]
    links = [
        {"id": lid, "from_entity_id": rng.randint(1, 13), "to_entity_id": rng.randint(1, 13)}
        for lid in range(1, rng.randint(0, 8) + 1)
    ]
    return {
        "memory_summaries": summaries,
        "inbox_items": turns,
        "entities": entities,
        "entity_links": links,
    }


def _rough_total(fixture: dict[str, list[dict[str, Any]]], query: str) -> int:
    """About the untrimmed total (ASCII words: tokens ~ max(words, chars / 4) per block), only to
    spread the budgets over every trimming stage; the expectation never depends on it."""

    def rough(text: str) -> int:
        return max(len(text.split()), -(-len(text) // 4))

    texts = [row["summary_text"] for row in fixture["memory_summaries"][-1:]]
    texts += [row["text"] for row in fixture["inbox_items"][-8:]]
    texts += [f"{row['kind']}: {row['title']}" for row in fixture["entities"]]
    return _POLICY_TOKENS + rough(query) + sum(rough(text) for text in texts)


def cases() -> list[Case]:
    """70 cases: 60 budgets below the rough total, 5 above the cap, 5 absent."""
    rng = random.Random(7_004)
    out = []
    for index in range(1, 71):
        query = rng.choice(vocabulary)
        fixture = _fixture(rng, query)
        params = [["chat_id", "c1"], ["user_id", "u1"], ["query", query]]
        clauses = [
            "P2-DET-01",
            "P2-BUD-02",
            "P2-BUD-03",
            "P2-BUD-04",
            "P2-BUD-06",
            "P2-BUD-07",
            "P2-BUD-08",
            "P2-BUD-10",
            "P2-API-07",
            "P2-API-11",
        ]
        interpretations = [
            "P2-INT-01",
            "P2-INT-03",
            "P2-INT-05",
            "P2-INT-09",
            "P2-INT-10",
            "P2-INT-11",
            "P2-INT-12",
            "P2-INT-13",
            "P2-INT-18",
        ]
        if index <= 60:
            params.append(["max_tokens", str(rng.randint(1, _rough_total(fixture, query) + 2))])
        elif index <= 65:
            params.append(["max_tokens", str(rng.randint(3000, 100000))])
            clauses += ["P2-BUD-05", "P2-CFG-01", "P2-API-05"]
        else:
            clauses += ["P2-CFG-01", "P2-API-05"]
        out.append(
            Case(
                f"p2-budget-g{index:03d}",
                "Trimming every layer in the spec's order under a random budget.",
                tuple(clauses),
                tuple(interpretations),
                fixture,
                {"op": "context", "params": params},
            )
        )
    return out
