"""The hot-turn layer: ``select_hot_turns`` (P2-ASM-04, P2-ASM-08, P2-FN-02, P2-INT-07).

P2-ASM-04: "Hot turns from latest inbox window (bounded by `MEMORY_HOT_TURNS_LIMIT`)."
P2-ASM-08: "hot = select_hot_turns(user_id, chat_id, MEMORY_HOT_TURNS_LIMIT)"

The latest ``limit`` inbox items of this user in this chat (created_at, then id), no time
window; returned oldest first, the order of the context (P2-INT-05) and of trimming (P2-BUD-07).
"""

from __future__ import annotations

from reference.phase2._rows import Turn, newest_first
from reference.phase2._store import Store

__all__ = ["select_hot_turns"]


def select_hot_turns(store: Store, user_id: str, chat_id: str, limit: int) -> tuple[Turn, ...]:
    """The ``limit`` most recent turns of ``user_id`` in ``chat_id``, oldest first."""
    rows = store.rows("inbox_items", {"user_id": user_id, "chat_id": chat_id})
    latest = newest_first([Turn.from_row(row) for row in rows])[:limit]
    return tuple(reversed(latest))
