"""Generated: hot-turn selection among users, chats, equal timestamps and the limit of 8."""

# ruff: noqa: E501

from __future__ import annotations

import random

from tools.generate.phase2.families._case import Case, pick_ts, words

FAMILY = "hot_turns"
DESCRIPTION = "Generated: 0 to 16 inbox items over two users and two chats with frequent timestamp ties; the latest 8 of the caller, oldest first."
_TIMES = [f"2024-05-0{d}T1{h}:00:00Z" for d in (1, 2) for h in (0, 1, 2)]


def cases() -> list[Case]:
    """30 cases; every fifth one omits user_id (the user is then the chat, P2-INT-16)."""
    rng = random.Random(7_001)
    out = []
    for index in range(1, 31):
        default_user = index % 5 == 0
        me, chat = ("77", "77") if default_user else ("u1", "c1")
        turns = []
        for row_id in rng.sample(range(1, 60), rng.randint(0, 16)):
            user = me if rng.random() < 0.7 else rng.choice(["u2", "u1", "77"])
            where = chat if rng.random() < 0.8 else "c2"
            turns.append(
                {
                    "id": row_id,
                    "user_id": user,
                    "chat_id": where,
                    "text": words(rng, 1, 4),
                    "created_at": pick_ts(rng, _TIMES),
                }
            )
        params = [["chat_id", chat], ["query", "hello"]]
        if not default_user:
            params.insert(1, ["user_id", me])
        out.append(
            Case(
                f"p2-hot-turns-g{index:03d}",
                "The caller's latest 8 turns in the chat, ties broken by id, listed oldest first.",
                ("P2-ASM-04", "P2-ASM-08", "P2-CFG-02", "P2-API-08"),
                ("P2-INT-01", "P2-INT-05", "P2-INT-07", "P2-INT-16", "P2-INT-19"),
                {"inbox_items": turns},
                {"op": "context", "params": params},
            )
        )
    return out
