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

from collections.abc import Callable
from typing import Any, Final

from reference.phase2._config import DEFAULTS, Config
from reference.phase2._errors import JobError
from reference.phase2._events import COMPACTION_COMPLETED, log_event
from reference.phase2._store import Store
from reference.phase2._timestamps import DAY_SECONDS, format_timestamp, parse_timestamp

__all__ = ["CUTOFFS", "compact"]

#: P2-INT-21 (``Readings.cutoff``) -> (the cutoff from now - D days, whether an item exactly
#: at the cutoff is kept): strictly older (pinned), created_at <= cutoff
#: (P2-INT-21/inclusive), or whole calendar days, the cutoff at that day's midnight UTC
#: (P2-INT-21/midnight).
CUTOFFS: Final[dict[str, tuple[Callable[[int], int], bool]]] = {
    "strict": (lambda seconds: seconds, True),
    "inclusive": (lambda seconds: seconds, False),
    "midnight": (lambda seconds: seconds - seconds % DAY_SECONDS, True),
}


def compact(
    store: Store,
    now: str,
    *,
    config: Config = DEFAULTS,
    cutoff_reading: str = "strict",
    log_empty_runs: bool = True,
) -> dict[str, Any]:
    """Run memory.compact at ``now``; return the event's payload (the job's result).

    ``cutoff_reading``: a key of :data:`CUTOFFS` (P2-INT-21); ``log_empty_runs``: whether a
    run that removed nothing logs its event (P2-INT-23; False: P2-INT-23/only-when-removed).
    """
    try:
        now_seconds = parse_timestamp(now)
    except ValueError as exc:
        raise JobError("now", f"now must be YYYY-MM-DDTHH:MM:SSZ: {exc}") from None
    days = config.transcript_retention_days
    day, kept_at_cutoff = CUTOFFS[cutoff_reading]
    cutoff = day(now_seconds - days * DAY_SECONDS)
    with store.transaction():
        items = store.rows("inbox_items")
        old = sorted(
            int(item["id"])
            for item in items
            if parse_timestamp(item["created_at"]) < cutoff
            or (not kept_at_cutoff and parse_timestamp(item["created_at"]) == cutoff)
        )
        store.delete_ids("inbox_items", old)
        payload = {
            "retention_days": days,
            "cutoff": format_timestamp(cutoff),
            "inbox_items_removed": len(old),
            "inbox_items_retained": len(items) - len(old),
        }
        if old or log_empty_runs:
            log_event(store, COMPACTION_COMPLETED, payload, now)
    return payload
