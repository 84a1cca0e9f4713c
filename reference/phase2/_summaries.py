"""The summary layer: ``select_warm_summaries`` (P2-ASM-03, P2-ASM-07, P2-FN-03, P2-INT-06).

P2-ASM-03: "Most recent session summary for `user_id + chat_id`."
P2-ASM-07: "summary = latest_summary(user_id, chat_id)"

One summary at most (erratum P2-INT-06: the function's plural name against the spec's singular
"Most recent session summary"): the latest by created_at, then id. P2-INT-06/several(n=N)
reads the plural name: the N latest, listed oldest first (as the hot turns, P2-INT-05).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from reference.phase2._rows import Key, Summary, newest_first
from reference.phase2._store import Store

__all__ = ["SUMMARY_READINGS", "latest_summary", "select_warm_summaries"]


def _smallest_id_first(summaries: list[Summary]) -> list[Summary]:
    """P2-INT-06/smallest-id: created_at descending, then id ascending."""
    return sorted(summaries, key=lambda summary: (-summary.recency[0], summary.recency[1]))


#: P2-INT-06 (``Readings.summary``) -> the candidates ranked latest first.
SUMMARY_READINGS: Final[dict[str, Callable[[list[Summary]], list[Summary]]]] = {
    "latest": newest_first,
    "smallest-id": _smallest_id_first,
    # P2-INT-06/skip-empty: an empty summary_text is no candidate
    "skip-empty": lambda summaries: newest_first([s for s in summaries if s.summary_text]),
}


def select_warm_summaries(
    store: Store, user_id: Key, chat_id: Key, *, reading: str = "latest", count: int | None = None
) -> tuple[Summary, ...]:
    """The summary layer: ``()`` or the one most recent summary of ``user_id`` in ``chat_id``
    (``reading``: a key of :data:`SUMMARY_READINGS`); with ``count`` (P2-INT-06/several), the
    ``count`` most recent, oldest first."""
    rows = store.rows("memory_summaries", {"user_id": user_id, "chat_id": chat_id})
    ranked = SUMMARY_READINGS[reading]([Summary.from_row(row) for row in rows])
    return tuple(ranked[:1] if count is None else ranked[:count][::-1])


def latest_summary(store: Store, user_id: str, chat_id: str) -> Summary | None:
    """The pseudocode's ``latest_summary(user_id, chat_id)``."""
    found = select_warm_summaries(store, user_id, chat_id)
    return found[0] if found else None
