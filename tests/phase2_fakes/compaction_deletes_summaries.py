"""Fake: compaction also deletes summaries older than the cutoff (breaks P2-CMP-03)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from unittest import mock

from reference.phase2 import Config, Store
from reference.phase2 import run_vector_call as reference_call
from reference.phase2._compact import compact as reference_compact
from reference.phase2._timestamps import DAY_SECONDS, parse_timestamp

BREAKS = "P2-CMP-03"


def _compact(store: Store, now: str, *, config: Config, **readings: Any) -> dict[str, Any]:
    payload = reference_compact(store, now, config=config, **readings)
    cutoff = parse_timestamp(now) - config.transcript_retention_days * DAY_SECONDS
    with store.transaction():
        old = [
            int(row["id"])
            for row in store.rows("memory_summaries")
            if parse_timestamp(row["created_at"]) < cutoff
        ]
        store.delete_ids("memory_summaries", old)
    return payload


def run_vector_call(fixture: Mapping[str, Any], call: Mapping[str, Any]) -> dict[str, Any]:
    """The reference whose compaction removes old summaries too."""
    with mock.patch("reference.phase2._jobs.compact", _compact):
        return reference_call(fixture, call)
