"""``assemble_context``: the draft, the budget and the envelope (P2-ASM-*, P2-FN-01).

P2-ASM-01: "`assemble_context` must build context in this order:"
  1. System memory policy snippet (fixed).               -> readings.policy (P2-INT-04)
  2. Most recent session summary for `user_id + chat_id`. -> select_warm_summaries
  3. Hot turns from latest inbox window.                  -> select_hot_turns
  4. Related entities by recency + link proximity.        -> select_related_entities
  5. Current user query.                                  -> the query as received
Then enforce budget (enforce_budget) and return the envelope (P2-INT-05):
``{"budget": {requested, applied, estimated_used}, "sources": {...}, "context": [...]}``.
Every stage takes the :class:`~reference.phase2._readings.Readings` it consults (defaults: the
pinned readings).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, Final

from reference.phase2._budget import COUNTED, Block, Draft, Layer, enforce_budget
from reference.phase2._config import DEFAULTS, Config
from reference.phase2._entities import select_related_entities
from reference.phase2._errors import ParameterError
from reference.phase2._hot_turns import select_hot_turns
from reference.phase2._readings import PINNED, POLICY_SNIPPET, Readings
from reference.phase2._rows import Entity, Key
from reference.phase2._store import Store
from reference.phase2._summaries import select_warm_summaries
from reference.phase2._tokens import ESTIMATORS, WHITE_SPACE_TABLES

__all__ = [
    "ENTITY_TEXT",
    "HOT_ORDER",
    "POLICY_SNIPPET",
    "SMALL_BUDGET",
    "SOURCES",
    "applied_budget",
    "assemble_context",
    "build_draft",
    "concatenated_estimate",
    "envelope",
]

#: P2-INT-03 (``Readings.entity_text``) -> an entity block's text: "kind: title" (pinned, e.g.
#: "task: Renew passport") or the title alone (P2-INT-03/entity-title).
ENTITY_TEXT: Final[dict[str, Callable[[Entity], str]]] = {
    "kind-title": lambda entity: f"{entity.kind}: {entity.title}",
    "title": lambda entity: entity.title,
}
#: P2-INT-05 (``Readings.hot_order``) -> whether the hot turns are listed newest first.
HOT_ORDER: Final[dict[str, bool]] = {"oldest-first": False, "newest-first": True}
#: P2-INT-12 (``Readings.small_budget``): what policy + query over the budget does: stay over it
#: (pinned), refuse (P2-INT-12/refuse-4xx), or raise applied to them (P2-INT-12/raise-applied).
SMALL_BUDGET: Final = ("over-budget", "refuse", "raise-applied")
#: P2-INT-18 (``Readings.sources``) -> whether sources counts the untrimmed draft.
SOURCES: Final[dict[str, bool]] = {"returned": False, "drafted": True}


def applied_budget(max_tokens: int | None, config: Config) -> int:
    """P2-BUD-05 "cfg_max = min(max_tokens, MEMORY_CONTEXT_MAX_TOKENS)"; P2-INT-13 when absent."""
    if max_tokens is None:
        return config.context_max_tokens
    return min(max_tokens, config.context_max_tokens)


def build_draft(
    store: Store,
    user_id: Key,
    chat_id: Key,
    query: str,
    config: Config,
    readings: Readings = PINNED,
) -> Draft:
    """The untrimmed draft, layer by layer, in the spec's order."""
    summaries = select_warm_summaries(
        store, user_id, chat_id, reading=readings.summary, count=readings.warm_summaries
    )
    hot = select_hot_turns(
        store, user_id, chat_id, config.hot_turns_limit, reading=readings.hot_turns
    )
    related = select_related_entities(
        store,
        user_id,
        query,
        config.related_entities_limit,
        reading=readings.related,
        ranking=readings.ranking,
    )
    white_space = WHITE_SPACE_TABLES[readings.white_space]  # P2-INT-02
    estimate = ESTIMATORS[readings.estimator]  # P2-INT-01
    entity_text = ENTITY_TEXT[readings.entity_text]  # P2-INT-03

    def block(layer: Layer, row_id: int | None, text: str) -> Block:
        return Block.of(layer, row_id, text, white_space, estimate)

    return Draft(
        policy=block("policy", None, readings.policy),  # P2-INT-04
        summaries=tuple(block("summary", s.id, s.summary_text) for s in summaries),
        hot=tuple(block("hot_turn", turn.id, turn.text) for turn in hot),
        entities=tuple(
            block("entity", r.entity.id, entity_text(r.entity)) for r in related
        ),  # P2-INT-03: an entity reads "kind: title"
        query=block("query", None, query),
    )


def _overhead(draft: Draft, readings: Readings) -> int:
    """P2-INT-03/block-overhead(tokens=K): K per block the budget counts (the policy's only
    when it is counted, P2-INT-04)."""
    if readings.block_overhead is None:
        return 0
    blocks = len(draft.blocks()) - (1 if readings.policy_budget == "outside" else 0)
    return readings.block_overhead * blocks


def concatenated_estimate(draft: Draft, readings: Readings = PINNED) -> int:
    """P2-INT-03/concatenated: the estimate of the draft's texts joined with nothing between
    (word runs merge across blocks)."""
    text = "".join(block.text for block in draft.blocks())
    return ESTIMATORS[readings.estimator](text, WHITE_SPACE_TABLES[readings.white_space])


def envelope(
    draft: Draft,
    requested: int | None,
    applied: int,
    readings: Readings = PINNED,
    *,
    drafted: Draft | None = None,
) -> dict[str, Any]:
    """The envelope of a (trimmed) draft: budget, sources counted from it (or from the
    untrimmed ``drafted``, P2-INT-18/before-trimming), context."""
    counted = drafted if SOURCES[readings.sources] and drafted is not None else draft
    used = draft.total - (draft.policy.tokens if readings.policy_budget == "outside" else 0)
    if readings.draft_estimate == "concatenated":  # P2-INT-03/concatenated
        used = concatenated_estimate(draft, readings)
    used += _overhead(draft, readings)  # P2-INT-03/block-overhead
    if HOT_ORDER[readings.hot_order]:  # P2-INT-05/newest-first
        draft = dataclasses.replace(draft, hot=draft.hot[::-1])
    return {
        "budget": {"requested": requested, "applied": applied, "estimated_used": used},
        "sources": {  # P2-INT-18: what the returned context holds
            "hot_turns": len(counted.hot),
            "summaries": len(counted.summaries),
            "entities": len(counted.entities),
        },
        "context": [block.to_json() for block in draft.blocks()],
    }


def assemble_context(
    store: Store,
    user_id: Key,
    chat_id: Key,
    query: str,
    max_tokens: int | None,
    *,
    config: Config = DEFAULTS,
    readings: Readings = PINNED,
) -> dict[str, Any]:
    """Assemble the token-bounded context of ``user_id`` in ``chat_id`` for ``query`` (each a
    stored value, or several: :data:`~reference.phase2._rows.Key`).

    ``max_tokens`` is the requested budget (``None``: absent). Returns the envelope.
    """
    if max_tokens is not None and (type(max_tokens) is not int or max_tokens < 1):
        raise ParameterError(
            "invalid_parameter", "max_tokens", f"not a positive integer: {max_tokens!r}"
        )
    applied = applied_budget(max_tokens, config)
    drafted = build_draft(store, user_id, chat_id, query, config, readings)
    fixed = drafted.policy.tokens + drafted.query.tokens
    if readings.policy_budget == "outside":  # P2-INT-04/outside-budget
        fixed -= drafted.policy.tokens
    if readings.block_overhead is not None:  # P2-INT-03/block-overhead: policy and query
        fixed += readings.block_overhead * (1 if readings.policy_budget == "outside" else 2)
    if fixed > applied and readings.small_budget == "refuse":  # P2-INT-12/refuse-4xx
        raise ParameterError(
            "budget_too_small", "max_tokens", f"policy + query need {fixed} tokens > {applied}"
        )
    if readings.small_budget == "raise-applied":  # P2-INT-12/raise-applied
        applied = max(applied, fixed)
    draft = enforce_budget(
        drafted,
        applied,
        step=readings.trim_step,
        order=readings.summary_trim,
        counted=readings.policy_budget,
        measure=(
            (lambda draft: concatenated_estimate(draft, readings))
            if readings.draft_estimate == "concatenated"
            else (lambda draft: COUNTED[readings.policy_budget](draft) + _overhead(draft, readings))
            if readings.block_overhead is not None
            else None
        ),
    )
    if readings.ranking == "limit-after-trim":  # P2-INT-09/limit-after-trim
        draft = dataclasses.replace(draft, entities=draft.entities[: config.related_entities_limit])
    if readings.absent_max_tokens == "cap" and max_tokens is None:  # P2-INT-13/requested-cap
        max_tokens = config.context_max_tokens
    return envelope(draft, max_tokens, applied, readings, drafted=drafted)
