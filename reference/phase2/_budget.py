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
from dataclasses import dataclass
from typing import Any, Literal

from reference.phase2._tokens import WHITE_SPACE, estimate_tokens

__all__ = ["Block", "Draft", "Layer", "enforce_budget"]

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
        cls, layer: Layer, row_id: int | None, text: str, white_space: frozenset[str] = WHITE_SPACE
    ) -> Block:
        """A block whose tokens are ``estimate_tokens(text)`` (P2-INT-03), words split by
        ``white_space`` (P2-INT-02)."""
        return cls(layer, row_id, text, estimate_tokens(text, white_space))

    def to_json(self) -> dict[str, Any]:
        """The block as the envelope lists it: exactly layer, id, text, tokens."""
        return {"layer": self.layer, "id": self.id, "text": self.text, "tokens": self.tokens}


@dataclass(frozen=True)
class Draft:
    """``draft = [policy, summary, hot, entities, query]`` (P2-ASM-10); hot oldest first,
    entities most relevant first."""

    policy: Block
    summary: Block | None
    hot: tuple[Block, ...]
    entities: tuple[Block, ...]
    query: Block

    def blocks(self) -> list[Block]:
        """The blocks in layer order (P2-ASM-01)."""
        summary = [self.summary] if self.summary is not None else []
        return [self.policy, *summary, *self.hot, *self.entities, self.query]

    @property
    def total(self) -> int:
        """estimate_tokens(draft): the sum of the blocks' tokens (P2-INT-03)."""
        return sum(block.tokens for block in self.blocks())


def enforce_budget(draft: Draft, budget: int) -> Draft:
    """Trim ``draft`` until its total fits ``budget`` or nothing trimmable is left."""
    while draft.total > budget:
        if draft.hot:  # P2-BUD-07: "trim hot oldest-first"
            draft = dataclasses.replace(draft, hot=draft.hot[1:])
        elif draft.entities:  # P2-BUD-08: "trim entities lowest-relevance-first"
            draft = dataclasses.replace(draft, entities=draft.entities[:-1])
        elif draft.summary is not None:  # P2-INT-11: the summary goes last, whole
            draft = dataclasses.replace(draft, summary=None)
        else:  # P2-BUD-09 "else: break"; P2-INT-12: policy + query stay, over budget
            break
    return draft
