"""event_log rows the engine writes: the event types, and the one writer (P2-INT-20, -23, -25).

New rows take the greatest event_log id + 1 (1 for an empty table) and the job's explicit
``now`` as created_at: no clock, no sequence, the same ids on SQLite and PostgreSQL.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from reference.phase2._store import Store

__all__ = [
    "COMPACTION_COMPLETED",
    "CONTEXT_PREVIEWED",
    "ENGINE_EVENT_TYPES",
    "SUMMARY_CREATED",
    "log_event",
]

#: P2-SUM-09 "`event_log` entry `memory_summary_created` must include summary ID + source count"
SUMMARY_CREATED: Final = "memory_summary_created"
#: P2-CMP-06 "Compaction job logs a `memory_compaction_completed` event with counts."
COMPACTION_COMPLETED: Final = "memory_compaction_completed"
#: P2-API-10 "No writes beyond optional observability log entry." (P2-INT-20; the reference
#: never writes it, the name is the one a checker allows)
CONTEXT_PREVIEWED: Final = "memory_context_previewed"
#: Event types the engine writes; never a summary's source (P2-INT-24).
ENGINE_EVENT_TYPES: Final = frozenset({SUMMARY_CREATED, COMPACTION_COMPLETED, CONTEXT_PREVIEWED})


def log_event(
    store: Store,
    event_type: str,
    payload: Mapping[str, Any],
    created_at: str,
    *,
    user_id: str | None = None,
    chat_id: str | None = None,
) -> int:
    """Append one event_log row inside the caller's transaction; return its id."""
    event_id = store.next_id("event_log")
    row = {
        "id": event_id,
        "user_id": user_id,
        "chat_id": chat_id,
        "event_type": event_type,
        "payload": dict(payload),
        "created_at": created_at,
    }
    store.insert("event_log", [row])
    return event_id
