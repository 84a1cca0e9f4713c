"""Fake: trims the summary first, then hot turns, then entities (breaks P2-BUD-02)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any
from unittest import mock

from reference.phase2 import Draft
from reference.phase2 import run_vector_call as reference_call

BREAKS = "P2-BUD-02"


def _enforce_budget(draft: Draft, budget: int, **readings: str) -> Draft:
    while draft.total > budget:
        if draft.summaries:
            draft = dataclasses.replace(draft, summaries=())
        elif draft.hot:
            draft = dataclasses.replace(draft, hot=draft.hot[1:])
        elif draft.entities:
            draft = dataclasses.replace(draft, entities=draft.entities[:-1])
        else:
            break
    return draft


def run_vector_call(fixture: Mapping[str, Any], call: Mapping[str, Any]) -> dict[str, Any]:
    """The reference with the summary trimmed before everything else."""
    with mock.patch("reference.phase2._assemble.enforce_budget", _enforce_budget):
        return reference_call(fixture, call)
