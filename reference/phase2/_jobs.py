"""Jobs by call: ``{"op": "compact", "now"}`` or ``{"op": "summarize", "user_id", "chat_id",
"now"}`` (specs/schemas/phase2/call.schema.json) -> the job's result (P2-INT-23, -25, -26).

Used by the ``job`` command (the http adapter's ``--job``), the protocol server and the
in-process vector entry, so every route runs a job the same way.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from reference.phase2._compact import compact
from reference.phase2._config import DEFAULTS, Config
from reference.phase2._errors import JobError
from reference.phase2._readings import PINNED, Readings
from reference.phase2._store import Store
from reference.phase2._summarize import summarize

__all__ = ["JOB_OPS", "run_job"]

JOB_OPS = ("compact", "summarize")


def run_job(
    store: Store,
    call: Mapping[str, Any],
    *,
    config: Config = DEFAULTS,
    readings: Readings = PINNED,
) -> dict[str, Any]:
    """Run the job ``call`` names under ``readings`` (P2-INT-21, -23, -24); an unusable input
    becomes the ``invalid_job`` result."""
    op = call.get("op")
    now: Any = call.get("now")  # checked by the job itself (P2-INT-26)
    user_id: Any = call.get("user_id")
    chat_id: Any = call.get("chat_id")
    try:
        if op == "compact":
            return compact(
                store,
                now,
                config=config,
                cutoff_reading=readings.cutoff,
                log_empty_runs=readings.compaction_event == "always",
            )
        if op == "summarize":
            return summarize(store, user_id, chat_id, now, sources_reading=readings.summary_sources)
        raise JobError("op", f"unknown job {op!r}; expected one of {JOB_OPS}")
    except JobError as exc:
        return exc.result()
