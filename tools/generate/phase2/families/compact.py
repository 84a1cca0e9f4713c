"""Generated: memory.compact on random tables around the cutoff."""

# ruff: noqa: E501

from __future__ import annotations

import random

from tools.generate.phase2.families._case import Case, words

FAMILY = "compact"
DESCRIPTION = "Generated: inbox items of several users seconds and days around now - 30 days, with summaries, entities, links and events that must survive; random event ids."
_NOWS = [
    "2024-06-30T12:00:00Z",
    "2024-03-01T00:00:00Z",
    "2023-03-01T00:00:00Z",
    "2025-01-15T08:30:45Z",
]


def _stamp(seconds: int) -> str:
    import datetime

    moment = datetime.datetime(1970, 1, 1) + datetime.timedelta(seconds=seconds)
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def _seconds(text: str) -> int:
    import calendar
    import time

    return calendar.timegm(time.strptime(text, "%Y-%m-%dT%H:%M:%SZ"))


def cases() -> list[Case]:
    """30 cases."""
    rng = random.Random(7_006)
    out = []
    for index in range(1, 31):
        now = rng.choice(_NOWS)
        cutoff = _seconds(now) - 30 * 86400
        offsets = [-86400 * 40, -86400, -1, 0, 1, 86400, 86400 * 29, 86400 * 31]
        turns = [
            {
                "id": tid,
                "user_id": rng.choice(["u1", "u2"]),
                "chat_id": rng.choice(["c1", "c2"]),
                "text": words(rng, 1, 3),
                "created_at": _stamp(cutoff + rng.choice(offsets)),
            }
            for tid in rng.sample(range(1, 50), rng.randint(0, 10))
        ]
        old = _stamp(cutoff - 86400 * 100)
        events = [
            {
                "id": eid,
                "user_id": "u1",
                "chat_id": "c1",
                "event_type": "inbox_item_received",
                "payload": {"text": words(rng, 1, 2)},
                "created_at": old,
            }
            for eid in rng.sample(range(1, 30), rng.randint(0, 4))
        ]
        fixture = {
            "inbox_items": turns,
            "event_log": events,
            "memory_summaries": [
                {
                    "id": 1,
                    "user_id": "u1",
                    "chat_id": "c1",
                    "summary_text": "kept",
                    "facts_json": {"k": 1},
                    "source_event_ids": [1],
                    "created_at": old,
                }
            ]
            if index % 2
            else [],
            "entities": [
                {"id": 1, "user_id": "u1", "kind": "goal", "title": "kept", "updated_at": old}
            ]
            if index % 3
            else [],
            "entity_links": [{"id": 1, "from_entity_id": 1, "to_entity_id": 1}]
            if index % 3
            else [],
        }
        out.append(
            Case(
                f"p2-compact-g{index:03d}",
                "Compaction deletes exactly the inbox items older than the cutoff and logs its counts.",
                (
                    "P2-CMP-01",
                    "P2-CMP-02",
                    "P2-CMP-03",
                    "P2-CMP-04",
                    "P2-CMP-05",
                    "P2-CMP-06",
                    "P2-CFG-04",
                ),
                ("P2-INT-21", "P2-INT-22", "P2-INT-23"),
                fixture,
                {"op": "compact", "now": now},
            )
        )
    return out
