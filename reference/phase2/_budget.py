"""The draft and ``enforce_budget`` (P2-BUD-*, P2-FN-05, P2-INT-10, P2-INT-11, P2-INT-12).

    while estimate_tokens(draft) > cfg_max:                       # P2-BUD-06
      if hot not empty: trim hot oldest-first                     # P2-BUD-02, P2-BUD-07
      elif entities not empty: trim entities lowest-relevance-first  # P2-BUD-03, P2-BUD-08
      else: break                                                 # P2-BUD-09

One block per iteration (P2-INT-10). Before the break, the summary goes whole (erratum
P2-INT-11: "Never exceed `max_tokens` after trimming" against a pseudocode that never trims
it). Policy and query are never trimmed (P2-BUD-01), so the draft may stay over budget when
they alone exceed it (erratum P2-INT-12).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, Literal

from reference.phase2._tokens import WHITE_SPACE, estimate_tokens

__all__ = ["COUNTED", "STEPS", "TRIM_ORDERS", "Block", "Draft", "Layer", "enforce_budget"]

Layer = Literal["policy", "summary", "hot_turn", "entity", "query"]


@dataclass(frozen=True)
class Block:
    """One block of the context (P2-INT-05): its layer, row id, text and estimated tokens."""

    layer: Layer
    id: int | None
    text: str
    tokens: int

    @classmethod
    def of(
        cls,
        layer: Layer,
        row_id: int | None,
        text: str,
        white_space: frozenset[str] = WHITE_SPACE,
        estimate: Callable[[str, frozenset[str]], int] = estimate_tokens,
    ) -> Block:
        """A block whose tokens are ``estimate(text)`` (P2-INT-01, P2-INT-03), words split by
        ``white_space`` (P2-INT-02)."""
        return cls(layer, row_id, text, estimate(text, white_space))

    def to_json(self) -> dict[str, Any]:
        """The block as the envelope lists it: exactly layer, id, text, tokens."""
        return {"layer": self.layer, "id": self.id, "text": self.text, "tokens": self.tokens}


@dataclass(frozen=True)
class Draft:
    """``draft = [policy, summary, hot, entities, query]`` (P2-ASM-10); hot oldest first,
    entities most relevant first."""

    policy: Block
    summaries: tuple[Block, ...]  # at most one, but P2-INT-06/several: oldest first
    hot: tuple[Block, ...]
    entities: tuple[Block, ...]
    query: Block

    def blocks(self) -> list[Block]:
        """The blocks in layer order (P2-ASM-01)."""
        return [self.policy, *self.summaries, *self.hot, *self.entities, self.query]

    @property
    def total(self) -> int:
        """estimate_tokens(draft): the sum of the blocks' tokens (P2-INT-03)."""
        return sum(block.tokens for block in self.blocks())


#: P2-INT-04 (``Readings.policy_budget``) -> the tokens the budget counts of a draft: every
#: block (pinned), or every block but the policy (P2-INT-04/outside-budget).
COUNTED: Final[dict[str, Callable[[Draft], int]]] = {
    "inside": lambda draft: draft.total,
    "outside": lambda draft: draft.total - draft.policy.tokens,
}
#: P2-INT-11 (``Readings.summary_trim``) -> the layers trimmed, in order: the summary last
#: (pinned), never (P2-INT-11/keep-summary), or first (P2-INT-11/summary-first).
TRIM_ORDERS: Final[dict[str, tuple[str, ...]]] = {
    "last": ("hot", "entities", "summary"),
    "keep": ("hot", "entities"),
    "first": ("summary", "hot", "entities"),
}


def _one_block(draft: Draft, layer: str) -> Draft:
    """P2-INT-10: remove one block of ``layer``: the oldest hot turn, the last entity, the
    summary (the oldest of several, P2-INT-06/several)."""
    if layer == "hot":  # P2-BUD-07: "trim hot oldest-first"
        return dataclasses.replace(draft, hot=draft.hot[1:])
    if layer == "entities":  # P2-BUD-08: "trim entities lowest-relevance-first"
        return dataclasses.replace(draft, entities=draft.entities[:-1])
    return dataclasses.replace(draft, summaries=draft.summaries[1:])


def _whole_layer(draft: Draft, layer: str) -> Draft:
    """P2-INT-10/whole-layer: remove every block of ``layer`` at once."""
    if layer == "hot":
        return dataclasses.replace(draft, hot=())
    if layer == "entities":
        return dataclasses.replace(draft, entities=())
    return dataclasses.replace(draft, summaries=())


#: P2-INT-10 (``Readings.trim_step``) -> what one iteration removes from a layer.
STEPS: Final[dict[str, Callable[[Draft, str], Draft]]] = {
    "one-block": _one_block,
    "whole-layer": _whole_layer,
}


def _holds(draft: Draft, layer: str) -> bool:
    if layer == "hot":
        return bool(draft.hot)
    if layer == "entities":
        return bool(draft.entities)
    return bool(draft.summaries)


def enforce_budget(
    draft: Draft,
    budget: int,
    *,
    step: str = "one-block",
    order: str = "last",
    counted: str = "inside",
    measure: Callable[[Draft], int] | None = None,
) -> Draft:
    """Trim ``draft`` until its total fits ``budget`` or nothing trimmable is left.

    ``step`` (P2-INT-10), ``order`` (P2-INT-11) and ``counted`` (P2-INT-04) are keys of
    :data:`STEPS`, :data:`TRIM_ORDERS` and :data:`COUNTED`; ``measure`` replaces the draft's
    estimate (P2-INT-03/concatenated); the defaults are the pinned readings.
    """
    remove, layers = STEPS[step], TRIM_ORDERS[order]
    count = COUNTED[counted] if measure is None else measure  # P2-INT-03/concatenated
    while count(draft) > budget:
        layer = next((layer for layer in layers if _holds(draft, layer)), None)
        if layer is None:  # P2-BUD-09 "else: break"; P2-INT-12: policy + query stay, over budget
            break
        draft = remove(draft, layer)
    return draft
