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

The executable alternatives of P2-INT-08 (``Readings.related``, :data:`RELATEDNESS`) change one
step each: ``all-by-recency`` makes every candidate related at distance 0 (steps 3-5 go),
``unicode-terms`` step 1, ``directed`` step 4, ``one-hop`` step 5 (distance at most 1).
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from reference.phase2._rows import Entity, Key, RelatedEntity, relevance_order
from reference.phase2._store import Store

__all__ = [
    "RANKINGS",
    "RELATEDNESS",
    "link_distances",
    "select_related_entities",
    "terms",
    "unicode_terms",
]

_TERM: Final = re.compile(r"[A-Za-z0-9]+")
_UNICODE_TERM: Final = re.compile(r"[^\W_]+")


def terms(text: str) -> frozenset[str]:
    """P2-INT-08 step 1: the ASCII alphanumeric runs of ``text``, ASCII-lowercased."""
    return frozenset(run.lower() for run in _TERM.findall(text))


def unicode_terms(text: str) -> frozenset[str]:
    """P2-INT-08/unicode-terms, step 1: maximal runs of Unicode letters and digits, case-folded."""
    return frozenset(run.casefold() for run in _UNICODE_TERM.findall(text))


@dataclass(frozen=True)
class Relatedness:
    """One reading of P2-INT-08, as the values its steps take."""

    split_terms: Callable[[str], frozenset[str]] = terms  # step 1
    every_candidate: bool = False  # steps 3-5 replaced: every candidate at distance 0
    directed: bool = False  # step 4: only from_entity_id -> to_entity_id
    max_distance: int | None = None  # step 5: no limit


#: ``Readings.related`` -> the reading of P2-INT-08 it names (the pinned one is ``query-walk``).
RELATEDNESS: Final[dict[str, Relatedness]] = {
    "query-walk": Relatedness(),
    "all-by-recency": Relatedness(every_candidate=True),
    "one-hop": Relatedness(max_distance=1),
    "unicode-terms": Relatedness(split_terms=unicode_terms),
    "directed": Relatedness(directed=True),
}


def _recency_first(related: list[RelatedEntity]) -> list[RelatedEntity]:
    """P2-INT-09/recency-first: updated_at descending, then distance, then id descending."""
    return sorted(related, key=lambda r: (-r.entity.recency[0], r.distance, -r.entity.recency[1]))


#: P2-INT-09 (``Readings.ranking``) -> (the relevance order, whether the limit applies to the
#: selection; P2-INT-09/limit-after-trim applies it to the trimmed layer, ``_assemble``).
RANKINGS: Final[dict[str, tuple[Callable[[list[RelatedEntity]], list[RelatedEntity]], bool]]] = {
    "proximity-first": (relevance_order, True),
    "recency-first": (_recency_first, True),
    "limit-after-trim": (relevance_order, False),
}


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
    store: Store,
    user_id: Key,
    query: str,
    limit: int,
    *,
    reading: str = "query-walk",
    ranking: str = "proximity-first",
) -> tuple[RelatedEntity, ...]:
    """The ``limit`` entities most related to ``query`` for ``user_id``, most relevant first
    (``reading``: a key of :data:`RELATEDNESS`; ``ranking``: of :data:`RANKINGS`, whose
    limit-after-trim returns every related entity)."""
    how = RELATEDNESS[reading]
    candidates = {
        entity.id: entity
        for entity in (Entity.from_row(row) for row in store.rows("entities", {"user_id": user_id}))
    }
    if how.every_candidate:
        distances = dict.fromkeys(candidates, 0)
    else:
        wanted = how.split_terms(query)
        seeds = {
            eid for eid, entity in candidates.items() if how.split_terms(entity.title) & wanted
        }
        neighbours: dict[int, set[int]] = {}
        for link in store.rows("entity_links"):
            a, b = int(link["from_entity_id"]), int(link["to_entity_id"])
            if a in candidates and b in candidates and a != b:
                neighbours.setdefault(a, set()).add(b)
                if not how.directed:
                    neighbours.setdefault(b, set()).add(a)
        distances = link_distances(seeds, neighbours)
        if how.max_distance is not None:
            distances = {eid: d for eid, d in distances.items() if d <= how.max_distance}
    related = [RelatedEntity(candidates[eid], d) for eid, d in distances.items()]
    order, limited = RANKINGS[ranking]
    return tuple(order(related)[:limit] if limited else order(related))
