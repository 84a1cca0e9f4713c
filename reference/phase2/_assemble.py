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

from typing import Any

from reference.phase2._budget import Block, Draft, Layer, enforce_budget
from reference.phase2._config import DEFAULTS, Config
from reference.phase2._entities import select_related_entities
from reference.phase2._errors import ParameterError
from reference.phase2._hot_turns import select_hot_turns
from reference.phase2._readings import PINNED, POLICY_SNIPPET, Readings
from reference.phase2._store import Store
from reference.phase2._summaries import select_warm_summaries
from reference.phase2._tokens import WHITE_SPACE_TABLES

__all__ = ["POLICY_SNIPPET", "applied_budget", "assemble_context", "build_draft", "envelope"]


def applied_budget(max_tokens: int | None, config: Config) -> int:
    """P2-BUD-05 "cfg_max = min(max_tokens, MEMORY_CONTEXT_MAX_TOKENS)"; P2-INT-13 when absent."""
    if max_tokens is None:
        return config.context_max_tokens
    return min(max_tokens, config.context_max_tokens)


def build_draft(
    store: Store,
    user_id: str,
    chat_id: str,
    query: str,
    config: Config,
    readings: Readings = PINNED,
) -> Draft:
    """The untrimmed draft, layer by layer, in the spec's order."""
    summaries = select_warm_summaries(store, user_id, chat_id)
    hot = select_hot_turns(store, user_id, chat_id, config.hot_turns_limit)
    related = select_related_entities(
        store, user_id, query, config.related_entities_limit, reading=readings.related
    )
    white_space = WHITE_SPACE_TABLES[readings.white_space]  # P2-INT-02

    def block(layer: Layer, row_id: int | None, text: str) -> Block:
        return Block.of(layer, row_id, text, white_space)

    return Draft(
        policy=block("policy", None, readings.policy),  # P2-INT-04
        summary=block("summary", summaries[0].id, summaries[0].summary_text) if summaries else None,
        hot=tuple(block("hot_turn", turn.id, turn.text) for turn in hot),
        entities=tuple(
            block("entity", r.entity.id, f"{r.entity.kind}: {r.entity.title}") for r in related
        ),  # P2-INT-03: an entity reads "kind: title"
        query=block("query", None, query),
    )


def envelope(draft: Draft, requested: int | None, applied: int) -> dict[str, Any]:
    """The envelope of a (trimmed) draft: budget, sources counted from it, context."""
    blocks = draft.blocks()
    return {
        "budget": {"requested": requested, "applied": applied, "estimated_used": draft.total},
        "sources": {  # P2-INT-18: what the returned context holds
            "hot_turns": len(draft.hot),
            "summaries": 0 if draft.summary is None else 1,
            "entities": len(draft.entities),
        },
        "context": [block.to_json() for block in blocks],
    }


def assemble_context(
    store: Store,
    user_id: str,
    chat_id: str,
    query: str,
    max_tokens: int | None,
    *,
    config: Config = DEFAULTS,
    readings: Readings = PINNED,
) -> dict[str, Any]:
    """Assemble the token-bounded context of ``user_id`` in ``chat_id`` for ``query``.

    ``max_tokens`` is the requested budget (``None``: absent). Returns the envelope.
    """
    if max_tokens is not None and (type(max_tokens) is not int or max_tokens < 1):
        raise ParameterError(
            "invalid_parameter", "max_tokens", f"not a positive integer: {max_tokens!r}"
        )
    applied = applied_budget(max_tokens, config)
    draft = enforce_budget(build_draft(store, user_id, chat_id, query, config, readings), applied)
    return envelope(draft, max_tokens, applied)
