"""Fake: a plain bug, one hot turn short (MEMORY_HOT_TURNS_LIMIT - 1; breaks P2-ASM-08).

No listed reading keeps seven turns of eight: certification must say non-compliant, although
every Phase 2 vector is ``pinned`` and no property sees it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from unittest import mock

from reference.phase2 import Store, Turn
from reference.phase2 import run_vector_call as reference_call
from reference.phase2._hot_turns import select_hot_turns

BREAKS = "P2-ASM-08"


def _hot(store: Store, user_id: str, chat_id: str, limit: int, **_: Any) -> tuple[Turn, ...]:
    return select_hot_turns(store, user_id, chat_id, limit - 1)


def run_vector_call(fixture: Mapping[str, Any], call: Mapping[str, Any]) -> dict[str, Any]:
    """The reference with one hot turn fewer."""
    with mock.patch("reference.phase2._assemble.select_hot_turns", _hot):
        return reference_call(fixture, call)
