"""The entity layer: ``select_related_entities`` (P2-ASM-05, P2-ASM-09, P2-FN-04).

P2-ASM-05: "Related entities (tasks/goals/problems) by recency + link proximity."
P2-ASM-09: "entities = select_related_entities(user_id, query, MEMORY_RELATED_ENTITIES_LIMIT)"

P2-INT-08, step by step:
1. terms(s): maximal runs of ASCII letters and digits, ASCII-lowercased;
2. candidates: the user's entities (any kind; the chat plays no part);
3. seeds: candidates whose title shares a term with the query;
4. the link graph: undirected, only links whose two ends are candidates;
5. distance: breadth-first from all seeds at once; related = reachable.
P2-INT-09: ranked by distance, then updated_at descending, then id descending; the first
``limit`` are the layer, most relevant first.
"""

from __future__ import annotations

import re
from collections import deque
from typing import Final

from reference.phase2._rows import Entity, RelatedEntity, relevance_order
from reference.phase2._store import Store

__all__ = ["link_distances", "select_related_entities", "terms"]

_TERM: Final = re.compile(r"[A-Za-z0-9]+")


def terms(text: str) -> frozenset[str]:
    """P2-INT-08 step 1: the ASCII alphanumeric runs of ``text``, ASCII-lowercased."""
    return frozenset(run.lower() for run in _TERM.findall(text))


def link_distances(seeds: set[int], neighbours: dict[int, set[int]]) -> dict[int, int]:
    """P2-INT-08 step 5: the least number of links from any seed, for every reachable id."""
    distance = dict.fromkeys(seeds, 0)
    queue = deque(sorted(seeds))
    while queue:
        current = queue.popleft()
        for nxt in sorted(neighbours.get(current, ())):
            if nxt not in distance:
                distance[nxt] = distance[current] + 1
                queue.append(nxt)
    return distance


def select_related_entities(
    store: Store, user_id: str, query: str, limit: int
) -> tuple[RelatedEntity, ...]:
    """The ``limit`` entities most related to ``query`` for ``user_id``, most relevant first."""
    candidates = {
        entity.id: entity
        for entity in (Entity.from_row(row) for row in store.rows("entities", {"user_id": user_id}))
    }
    wanted = terms(query)
    seeds = {eid for eid, entity in candidates.items() if terms(entity.title) & wanted}
    neighbours: dict[int, set[int]] = {}
    for link in store.rows("entity_links"):
        a, b = int(link["from_entity_id"]), int(link["to_entity_id"])
        if a in candidates and b in candidates and a != b:
            neighbours.setdefault(a, set()).add(b)
            neighbours.setdefault(b, set()).add(a)
    distances = link_distances(seeds, neighbours)
    related = [RelatedEntity(candidates[eid], d) for eid, d in distances.items()]
    return tuple(relevance_order(related)[:limit])
