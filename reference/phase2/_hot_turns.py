"""The hot-turn layer: ``select_hot_turns`` (P2-ASM-04, P2-ASM-08, P2-FN-02, P2-INT-07).

P2-ASM-04: "Hot turns from latest inbox window (bounded by `MEMORY_HOT_TURNS_LIMIT`)."
P2-ASM-08: "hot = select_hot_turns(user_id, chat_id, MEMORY_HOT_TURNS_LIMIT)"

The latest ``limit`` inbox items of this user in this chat (created_at, then id), no time
window; returned oldest first, the order of the context (P2-INT-05) and of trimming (P2-BUD-07).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from reference.phase2._rows import Key, Turn, newest_first
from reference.phase2._store import Store

__all__ = ["HOT_TURN_READINGS", "select_hot_turns"]


def _smallest_id_later(turns: list[Turn]) -> list[Turn]:
    """P2-INT-07/smallest-id: created_at descending, then id ascending."""
    return sorted(turns, key=lambda turn: (-turn.recency[0], turn.recency[1]))


#: P2-INT-07 (``Readings.hot_turns``) -> (whether the user filters the chat's items, the
#: ranking latest first).
HOT_TURN_READINGS: Final[dict[str, tuple[bool, Callable[[list[Turn]], list[Turn]]]]] = {
    "user-latest": (True, newest_first),
    "every-user": (False, newest_first),  # P2-INT-07/every-user: group chats
    "smallest-id": (True, _smallest_id_later),
}


def select_hot_turns(
    store: Store, user_id: Key, chat_id: Key, limit: int, *, reading: str = "user-latest"
) -> tuple[Turn, ...]:
    """The ``limit`` most recent turns of ``user_id`` in ``chat_id``, oldest first
    (``reading``: a key of :data:`HOT_TURN_READINGS`)."""
    by_user, ranked = HOT_TURN_READINGS[reading]
    where: dict[str, Key] = (
        {"user_id": user_id, "chat_id": chat_id} if by_user else {"chat_id": chat_id}
    )
    latest = ranked([Turn.from_row(row) for row in store.rows("inbox_items", where)])[:limit]
    return tuple(reversed(latest))
