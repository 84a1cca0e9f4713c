"""Fake: stops trimming once the hot turns are gone (breaks P2-BUD-04)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any
from unittest import mock

from reference.phase2 import Draft
from reference.phase2 import run_vector_call as reference_call

BREAKS = "P2-BUD-04"


def _enforce_budget(draft: Draft, budget: int, **readings: str) -> Draft:
    while draft.total > budget and draft.hot:
        draft = dataclasses.replace(draft, hot=draft.hot[1:])
    return draft  # entities and the summary are never trimmed: over budget


def run_vector_call(fixture: Mapping[str, Any], call: Mapping[str, Any]) -> dict[str, Any]:
    """The reference that trims hot turns only."""
    with mock.patch("reference.phase2._assemble.enforce_budget", _enforce_budget):
        return reference_call(fixture, call)
