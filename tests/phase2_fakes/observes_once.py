"""Control: the one allowed observability event, memory_context_previewed (P2-INT-20).

Not a fake: it must pass every vector, proving the no-writes rule allows exactly this.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from reference.phase2 import CONTEXT_PREVIEWED, observe_call, open_store

BREAKS = ""


def run_vector_call(fixture: Mapping[str, Any], call: Mapping[str, Any]) -> dict[str, Any]:
    """The reference, plus one memory_context_previewed row per context call."""
    with open_store(":memory:") as store:
        store.load(fixture)
        if call.get("op") == "context":
            with store.transaction():
                store.insert(
                    "event_log",
                    [{"id": store.next_id("event_log"), "user_id": None, "chat_id": None,
                      "event_type": CONTEXT_PREVIEWED, "payload": {},
                      "created_at": "2024-01-01T00:00:00Z"}],
                )  # fmt: skip
        return observe_call(store, call)
