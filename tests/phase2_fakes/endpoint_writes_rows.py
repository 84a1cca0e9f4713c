"""Fake: the preview endpoint logs every call as a 'memory_context_viewed' row (breaks
P2-API-10: that is not the one allowed observability event)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from reference.phase2 import observe_call, open_store

BREAKS = "P2-API-10"
EVENT = "memory_context_viewed"


def run_vector_call(fixture: Mapping[str, Any], call: Mapping[str, Any]) -> dict[str, Any]:
    """The reference, plus one event_log row written by every context call."""
    with open_store(":memory:") as store:
        store.load(fixture)
        if call.get("op") == "context":
            with store.transaction():
                store.insert(
                    "event_log",
                    [{"id": store.next_id("event_log"), "user_id": None, "chat_id": None,
                      "event_type": EVENT, "payload": {"params": call["params"]},
                      "created_at": "2024-01-01T00:00:00Z"}],
                )  # fmt: skip
        return observe_call(store, call)
