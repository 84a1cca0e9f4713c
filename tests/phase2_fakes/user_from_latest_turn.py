"""Reading: without user_id, the user is whoever wrote the chat's latest turn
(P2-INT-16/latest-inbox-owner).

An outside team read "the endpoint's parameters are chat_id, query, max_tokens" and took the
user from the chat's most recent inbox item. Its own code resolves the user before the call;
the rest is the reference engine.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from reference.phase2 import run_vector_call as reference_call

FOLLOWS = "P2-INT-16/latest-inbox-owner"


def run_vector_call(fixture: Mapping[str, Any], call: Mapping[str, Any]) -> dict[str, Any]:
    """The reference, given the user of the chat's latest turn when the call names none."""
    params = [list(pair) for pair in call.get("params", [])]
    names = [name for name, _ in params]
    if call.get("op") == "context" and "user_id" not in names and names.count("chat_id") == 1:
        chat = next(value for name, value in params if name == "chat_id")
        turns = [row for row in fixture.get("inbox_items", []) if row["chat_id"] == chat]
        if turns:  # timestamps are YYYY-MM-DDTHH:MM:SSZ: text order is time order
            latest = max(turns, key=lambda row: (row["created_at"], row["id"]))
            params.append(["user_id", latest["user_id"]])
    return reference_call(fixture, {**call, "params": params})
