"""Generated: the most recent summary of user + chat among many, with ties."""

# ruff: noqa: E501

from __future__ import annotations

import random

from tools.generate.phase2.families._case import Case, pick_ts, words

FAMILY = "summaries"
DESCRIPTION = "Generated: 0 to 8 summaries over users and chats with equal created_at; the latest of the caller's chat, greater id on ties."
_TIMES = [
    "2024-04-30T23:59:59Z",
    "2024-05-01T00:00:00Z",
    "2024-05-01T00:00:01Z",
    "2025-01-01T00:00:00Z",
]


def cases() -> list[Case]:
    """20 cases."""
    rng = random.Random(7_002)
    out = []
    for index in range(1, 21):
        rows = [
            {
                "id": row_id,
                "user_id": rng.choice(["u1", "u1", "u2"]),
                "chat_id": rng.choice(["c1", "c1", "c2"]),
                "summary_text": words(rng, 0, 6),
                "facts_json": rng.choice([[], {}, [{"fact": "x"}]]),
                "source_event_ids": sorted(rng.sample(range(1, 9), rng.randint(0, 3))),
                "created_at": pick_ts(rng, _TIMES),
            }
            for row_id in rng.sample(range(1, 40), rng.randint(0, 8))
        ]
        out.append(
            Case(
                f"p2-summaries-g{index:03d}",
                "The summary layer is the caller's latest summary in the chat, or nothing.",
                ("P2-ASM-03", "P2-ASM-07", "P2-API-08"),
                ("P2-INT-01", "P2-INT-05", "P2-INT-06", "P2-INT-18", "P2-INT-19"),
                {"memory_summaries": rows},
                {
                    "op": "context",
                    "params": [["chat_id", "c1"], ["user_id", "u1"], ["query", "hi"]],
                },
            )
        )
    return out
