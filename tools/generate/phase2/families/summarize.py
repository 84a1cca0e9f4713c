"""Generated: memory.summarize on random event logs with earlier summaries."""

# ruff: noqa: E501

from __future__ import annotations

import random

from tools.generate.phase2.families._case import Case, words

FAMILY = "summarize"
DESCRIPTION = "Generated: event logs of two users and chats with engine events and summaries already covering some events; the new summary's sources, ids and event."
_TYPES = [
    "inbox_item_received",
    "task_created",
    "goal_updated",
    "memory_summary_created",
    "memory_compaction_completed",
    "memory_context_previewed",
]
_T = "2024-05-01T10:00:00Z"


def cases() -> list[Case]:
    """25 cases."""
    rng = random.Random(7_007)
    out = []
    for index in range(1, 26):
        ids = rng.sample(range(1, 40), rng.randint(0, 12))
        events = [
            {
                "id": eid,
                "user_id": rng.choice(["u1", "u1", "u2"]),
                "chat_id": rng.choice(["c1", "c1", "c2"]),
                "event_type": rng.choice(_TYPES),
                "payload": rng.choice(
                    [{}, {"text": words(rng, 1, 8) + ". " + words(rng, 1, 3)}, {"n": 1}]
                ),
                "created_at": _T,
            }
            for eid in ids
        ]
        summaries = [
            {
                "id": sid,
                "user_id": rng.choice(["u1", "u2"]),
                "chat_id": rng.choice(["c1", "c2"]),
                "summary_text": "earlier",
                "facts_json": [],
                "source_event_ids": sorted(rng.sample(ids, min(len(ids), rng.randint(0, 4)))),
                "created_at": _T,
            }
            for sid in rng.sample(range(1, 20), rng.randint(0, 3))
        ]
        out.append(
            Case(
                f"p2-summarize-g{index:03d}",
                "Summarize: uncovered non-engine events of the user in the chat become the sources.",
                (
                    "P2-SUM-01",
                    "P2-SUM-02",
                    "P2-SUM-04",
                    "P2-SUM-06",
                    "P2-SUM-07",
                    "P2-SUM-08",
                    "P2-SUM-09",
                ),
                ("P2-INT-24", "P2-INT-25"),
                {"event_log": events, "memory_summaries": summaries},
                {
                    "op": "summarize",
                    "user_id": "u1",
                    "chat_id": "c1",
                    "now": "2024-06-01T00:00:00Z",
                },
            )
        )
    return out
