"""The ``memory.compact`` job (P2-CMP-*, P2-INT-21, P2-INT-22, P2-INT-23).

P2-CMP-02: "Identify `inbox_items` older than `TRANSCRIPT_RETENTION_DAYS`."
P2-CMP-03: "Retain structured entities and summaries."
P2-CMP-04: "Remove or archive old raw turns according to existing DB policy."
P2-CMP-05: "Write compaction stats to `event_log`."

1. cutoff = now - TRANSCRIPT_RETENTION_DAYS * 86400 s (``now`` is given: no clock);
2. old = inbox items with created_at < cutoff, strictly, every user and chat;
3. delete them (no archive table: P2-INT-22); nothing else changes;
4. log memory_compaction_completed with the counts, also when nothing was removed;
all in one transaction.
"""

from __future__ import annotations

from typing import Any

from reference.phase2._config import DEFAULTS, Config
from reference.phase2._errors import JobError
from reference.phase2._events import COMPACTION_COMPLETED, log_event
from reference.phase2._store import Store
from reference.phase2._timestamps import DAY_SECONDS, format_timestamp, parse_timestamp

__all__ = ["compact"]


def compact(store: Store, now: str, *, config: Config = DEFAULTS) -> dict[str, Any]:
    """Run memory.compact at ``now``; return the event's payload (the job's result)."""
    try:
        now_seconds = parse_timestamp(now)
    except ValueError as exc:
        raise JobError("now", f"now must be YYYY-MM-DDTHH:MM:SSZ: {exc}") from None
    days = config.transcript_retention_days
    cutoff = now_seconds - days * DAY_SECONDS
    with store.transaction():
        items = store.rows("inbox_items")
        old = sorted(
            int(item["id"]) for item in items if parse_timestamp(item["created_at"]) < cutoff
        )
        store.delete_ids("inbox_items", old)
        payload = {
            "retention_days": days,
            "cutoff": format_timestamp(cutoff),
            "inbox_items_removed": len(old),
            "inbox_items_retained": len(items) - len(old),
        }
        log_event(store, COMPACTION_COMPLETED, payload, now)
    return payload
