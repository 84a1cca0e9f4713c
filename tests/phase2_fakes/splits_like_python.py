"""Reading: whitespace is whatever Python's str.split() and str.strip() say (P2-INT-02/python).

An outside team counted words with ``len(text.split())`` and refused a query whose
``strip()`` is empty: Python's whitespace adds U+001C..U+001F to Unicode White_Space. Its own
code counts and checks; the rest is the reference engine.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from unittest import mock

from reference.phase2 import run_vector_call as reference_call

FOLLOWS = "P2-INT-02/python"


def _tokens(text: str, white_space: frozenset[str] = frozenset()) -> int:
    return max(len(text.split()), -(-len(text) // 4))


def _blank(text: str, white_space: frozenset[str] = frozenset()) -> bool:
    return text.strip() == ""


def run_vector_call(fixture: Mapping[str, Any], call: Mapping[str, Any]) -> dict[str, Any]:
    """The reference with Python's whitespace."""
    with (
        mock.patch.dict("reference.phase2._tokens.ESTIMATORS", {"max-words-quarter": _tokens}),
        mock.patch("reference.phase2._endpoint.is_blank", _blank),
    ):
        return reference_call(fixture, call)
