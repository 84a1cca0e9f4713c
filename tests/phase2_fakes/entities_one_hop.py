"""Reading: related entities are the seeds and their direct neighbours (P2-INT-08/one-hop).

An outside team read "link proximity" as "linked to an entity the query names": seeds, then
the entities one link away, each group most recently updated first. Its own code selects the
entity layer; the rest is the reference engine.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any
from unittest import mock

from reference.phase2 import Entity, RelatedEntity, Store
from reference.phase2 import run_vector_call as reference_call

FOLLOWS = "P2-INT-08/one-hop"
_WORD = re.compile(r"[a-z0-9]+")


def _words(text: str) -> set[str]:
    return set(_WORD.findall(text.encode("ascii", "replace").decode("ascii").lower()))


def _related(
    store: Store, user_id: str, query: str, limit: int, **_: Any
) -> tuple[RelatedEntity, ...]:
    mine = {int(row["id"]): Entity.from_row(row) for row in store.rows("entities")}
    mine = {key: entity for key, entity in mine.items() if entity.user_id == user_id}
    wanted = _words(query)
    seeds = {key for key, entity in mine.items() if _words(entity.title) & wanted}
    near: set[int] = set()
    for link in store.rows("entity_links"):
        a, b = int(link["from_entity_id"]), int(link["to_entity_id"])
        if a in mine and b in mine:
            near |= {b} if a in seeds else set()
            near |= {a} if b in seeds else set()
    found = [RelatedEntity(mine[key], 0) for key in seeds]
    found += [RelatedEntity(mine[key], 1) for key in near - seeds]
    found.sort(key=lambda r: (r.distance, r.entity.updated_at, r.entity.id), reverse=True)
    found.sort(key=lambda r: r.distance)  # stable: newest first inside each distance
    return tuple(found[:limit])


def run_vector_call(fixture: Mapping[str, Any], call: Mapping[str, Any]) -> dict[str, Any]:
    """The reference with a one-hop entity layer."""
    with mock.patch("reference.phase2._assemble.select_related_entities", _related):
        return reference_call(fixture, call)
