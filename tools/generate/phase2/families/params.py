"""Generated: random query strings of the preview endpoint, valid and not."""

# ruff: noqa: E501

from __future__ import annotations

import random

from tools.generate.phase2.families._case import Case

FAMILY = "params"
DESCRIPTION = "Generated: parameter lists with absent, empty, blank, repeated, unknown and malformed members; the first failing check in the order chat_id, query, max_tokens, user_id."
#: name -> (probability of being present, valid values, invalid values)
_VALUES = {
    "chat_id": (0.92, ["c1", "c2"], ["", " c1"]),
    "query": (0.92, ["passport", "a b", "hi", " passport "], ["", " ", "\u3000"]),
    "max_tokens": (
        0.7,
        ["50", "007", "3001", "1", "25"],
        ["0", "-1", "", "1e3", "12 ", "9007199254740992"],
    ),
    "user_id": (0.6, ["u1", "u2"], [""]),
    "debug": (0.3, ["1"], []),
}


def cases() -> list[Case]:
    """30 cases over one small fixture."""
    rng = random.Random(7_005)
    fixture = {
        "inbox_items": [
            {
                "id": 1,
                "user_id": "u1",
                "chat_id": "c1",
                "text": "renew passport",
                "created_at": "2024-05-01T10:00:00Z",
            }
        ],
        "entities": [
            {
                "id": 1,
                "user_id": "u1",
                "kind": "task",
                "title": "passport",
                "updated_at": "2024-05-01T10:00:00Z",
            }
        ],
    }
    out = []
    for index in range(1, 31):
        params: list[list[str]] = []
        for name, (present, valid, invalid) in _VALUES.items():
            if rng.random() > present:
                continue  # absent
            bad = invalid and rng.random() < 0.12
            params.append([name, rng.choice(invalid if bad else valid)])
            if rng.random() < 0.04:
                params.append([name, rng.choice(valid)])  # repeated
        rng.shuffle(params)
        out.append(
            Case(
                f"p2-params-g{index:03d}",
                "Parameter handling: the first failing check answers 400, else the envelope.",
                ("P2-API-01", "P2-API-03", "P2-API-04", "P2-API-05", "P2-API-10"),
                (
                    "P2-INT-14",
                    "P2-INT-15",
                    "P2-INT-16",
                    "P2-INT-17",
                    "P2-INT-20",
                    "P2-INT-01",
                    "P2-INT-13",
                ),
                fixture,
                {"op": "context", "params": params},
            )
        )
    return out
