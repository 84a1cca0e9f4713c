"""Generated: the estimator on random Unicode texts, as the query and as a hot turn."""

# ruff: noqa: E501

from __future__ import annotations

import random

from tools.generate.phase2.families._case import Case, text_of

FAMILY = "tokens"
DESCRIPTION = "Generated: max(words, ceil(code points / 4)) on random texts mixing ASCII, non-BMP, White_Space and non-whitespace look-alikes."
_CL = ("P2-TOK-01", "P2-ASM-06", "P2-API-06", "P2-API-07")
_INT = ("P2-INT-01", "P2-INT-02", "P2-INT-03", "P2-INT-13", "P2-INT-17")


def cases() -> list[Case]:
    """30 cases: a random query, and a random hot-turn text."""
    rng = random.Random(20240601)
    out = []
    for index in range(1, 31):
        query = "q " + text_of(rng, 0, 40)  # never blank
        turn = text_of(rng, 0, 60)
        fixture = {
            "inbox_items": [
                {
                    "id": 1,
                    "user_id": "u1",
                    "chat_id": "c1",
                    "text": turn,
                    "created_at": "2024-05-01T10:00:00Z",
                }
            ]
        }
        params = [["chat_id", "c1"], ["user_id", "u1"], ["query", query]]
        out.append(
            Case(
                f"p2-tokens-g{index:03d}",
                "Random query and turn texts: per-block tokens and their sum.",
                (*_CL, "P2-ASM-04"),
                (*_INT, "P2-INT-07"),
                fixture,
                {"op": "context", "params": params},
            )
        )
    return out
