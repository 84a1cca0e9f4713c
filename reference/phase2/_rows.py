"""Rows the engine reads, as frozen dataclasses, and every ordering key in one table.

Ordering keys (P2-INT-06, P2-INT-07, P2-INT-09, P2-INT-19): "latest" and "recency" compare
parsed timestamps, and on equal timestamps the greater id is the later row.

| what                          | order                                          | entry     |
|-------------------------------|------------------------------------------------|-----------|
| the most recent summary       | created_at desc, id desc (first wins)          | P2-INT-06 |
| hot-turn selection            | created_at desc, id desc (first LIMIT win)     | P2-INT-07 |
| hot turns in the context      | created_at asc, id asc                         | P2-INT-05 |
| related entities (relevance)  | distance asc, updated_at desc, id desc         | P2-INT-09 |
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from reference.phase2._timestamps import parse_timestamp

#: A user or chat the stages select rows of: one stored value, or several (``Store.rows``
#: matches any of them): every user of the chat (P2-INT-16/every-user), the stored spellings of
#: one numeric chat_id (P2-INT-17/numeric-chat-id).
Key = str | tuple[str, ...]

__all__ = [
    "Entity",
    "Key",
    "RelatedEntity",
    "Summary",
    "Turn",
    "newest_first",
    "relevance_order",
]


@dataclass(frozen=True)
class Summary:
    """A memory_summaries row."""

    id: int
    user_id: str
    chat_id: str
    summary_text: str
    facts_json: Any
    source_event_ids: tuple[int, ...]
    created_at: str

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> Summary:
        """From a row dict of the store."""
        return cls(
            id=int(row["id"]),
            user_id=row["user_id"],
            chat_id=row["chat_id"],
            summary_text=row["summary_text"],
            facts_json=row["facts_json"],
            source_event_ids=tuple(row["source_event_ids"]),
            created_at=row["created_at"],
        )

    @property
    def recency(self) -> tuple[int, int]:
        """The recency key: (created_at seconds, id); greater is more recent."""
        return parse_timestamp(self.created_at), self.id


@dataclass(frozen=True)
class Turn:
    """An inbox_items row: one raw turn."""

    id: int
    user_id: str
    chat_id: str
    text: str
    created_at: str

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> Turn:
        """From a row dict of the store."""
        return cls(int(row["id"]), row["user_id"], row["chat_id"], row["text"], row["created_at"])

    @property
    def recency(self) -> tuple[int, int]:
        """The recency key: (created_at seconds, id); greater is more recent."""
        return parse_timestamp(self.created_at), self.id


@dataclass(frozen=True)
class Entity:
    """An entities row: a task, goal or problem."""

    id: int
    user_id: str
    kind: str
    title: str
    updated_at: str

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> Entity:
        """From a row dict of the store."""
        return cls(int(row["id"]), row["user_id"], row["kind"], row["title"], row["updated_at"])

    @property
    def recency(self) -> tuple[int, int]:
        """The recency key: (updated_at seconds, id); greater is more recent."""
        return parse_timestamp(self.updated_at), self.id


_Recent = TypeVar("_Recent", Summary, Turn)


@dataclass(frozen=True)
class RelatedEntity:
    """An entity with its link distance from the nearest seed (P2-INT-08)."""

    entity: Entity
    distance: int


def newest_first(rows: list[_Recent]) -> list[_Recent]:
    """P2-INT-06, P2-INT-07: created_at descending, then id descending."""
    return sorted(rows, key=lambda row: row.recency, reverse=True)


def relevance_order(related: list[RelatedEntity]) -> list[RelatedEntity]:
    """P2-INT-09: distance ascending, then updated_at descending, then id descending."""
    return sorted(related, key=lambda r: (r.distance, -r.entity.recency[0], -r.entity.recency[1]))
