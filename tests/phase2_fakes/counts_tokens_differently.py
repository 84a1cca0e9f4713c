"""Fake: counts UTF-8 bytes / 4 instead of max(words, code points / 4) (breaks P2-TOK-01)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from unittest import mock

from reference.phase2 import run_vector_call as reference_call

BREAKS = "P2-TOK-01"


def _estimate(text: str, white_space: frozenset[str] = frozenset()) -> int:
    return (len(text.encode("utf-8")) + 3) // 4


def run_vector_call(fixture: Mapping[str, Any], call: Mapping[str, Any]) -> dict[str, Any]:
    """The reference with a byte-based estimator."""
    with mock.patch.dict("reference.phase2._tokens.ESTIMATORS", {"max-words-quarter": _estimate}):
        return reference_call(fixture, call)
