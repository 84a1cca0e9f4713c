"""Reading: the engine's own policy snippet (P2-INT-04/implementation-text).

An outside team read "System memory policy snippet (fixed)." as "one fixed text of our
choosing" and wrote its own words; everything else follows the register. Its own code builds
the policy block (text and estimate); the rest is the reference engine.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any
from unittest import mock

from reference.phase2 import Block, Config, Draft, Readings, Store
from reference.phase2 import run_vector_call as reference_call
from reference.phase2._assemble import build_draft as reference_build_draft

FOLLOWS = "P2-INT-04/implementation-text"
#: Our policy: 72 code points, 12 words -> max(12, ceil(72 / 4) = 18) = 18 tokens.
POLICY = "Answer from the memory below. When facts conflict, trust the newest one."


def _tokens(text: str) -> int:
    """max(words, ceil(characters / 4)): the Phase 2 heuristic as we wrote it."""
    return max(len(text.split()), -(-len(text) // 4))


def _build_draft(
    store: Store, user_id: str, chat_id: str, query: str, config: Config, readings: Readings
) -> Draft:
    draft = reference_build_draft(store, user_id, chat_id, query, config, readings)
    return dataclasses.replace(draft, policy=Block("policy", None, POLICY, _tokens(POLICY)))


def run_vector_call(fixture: Mapping[str, Any], call: Mapping[str, Any]) -> dict[str, Any]:
    """The reference with our policy text."""
    with mock.patch("reference.phase2._assemble.build_draft", _build_draft):
        return reference_call(fixture, call)
