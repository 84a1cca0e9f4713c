"""Reading: the summary layer is the last three summaries (P2-INT-06/several(n=3)).

An outside team read the function name ``select_warm_summaries`` and the plural
``sources.summaries`` literally: "warm" summaries are the last few, and it keeps three. Its own
code selects the summary layer (the user's summaries in the chat sorted by created_at, then id,
the last three, oldest first); the rest is the reference engine.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from unittest import mock

from reference.phase2 import Store, Summary
from reference.phase2 import run_vector_call as reference_call

FOLLOWS = "P2-INT-06/several(n=3)"
_KEPT = 3


def _warm(store: Store, user_id: Any, chat_id: Any, **_: Any) -> tuple[Summary, ...]:
    rows = store.rows("memory_summaries", {"user_id": user_id, "chat_id": chat_id})
    summaries = sorted((Summary.from_row(row) for row in rows), key=lambda s: s.recency)
    return tuple(summaries[-_KEPT:])  # recency: (created_at as a time, id)


def run_vector_call(fixture: Mapping[str, Any], call: Mapping[str, Any]) -> dict[str, Any]:
    """The reference with the last three summaries as the summary layer."""
    with mock.patch("reference.phase2._assemble.select_warm_summaries", _warm):
        return reference_call(fixture, call)
