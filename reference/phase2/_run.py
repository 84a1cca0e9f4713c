"""One vector call against a fresh database: the in-process entry of certification.

    >>> from reference.phase2 import run_vector_call
    >>> run_vector_call(fixture, {"op": "context", "params": [["chat_id", "c1"], ["query", "q"]]})
    {"status": 200, "body": {...}, "state": {...}}

The fixture is loaded into a fresh in-memory SQLite database (nothing is shared between calls),
the call runs exactly as the service runs it (the endpoint's parameter handling on a read-only
connection, or the job), and the outcome comes back with the whole state after the call
(specs/schemas/phase2/observed.schema.json; specs/protocol.md, Phase 2).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from reference.phase2._config import DEFAULTS, Config
from reference.phase2._endpoint import preview_context
from reference.phase2._jobs import run_job
from reference.phase2._readings import PINNED, Readings
from reference.phase2._store import Store, open_store

__all__ = ["observe_call", "run_vector_call"]


def observe_call(
    store: Store,
    call: Mapping[str, Any],
    *,
    config: Config = DEFAULTS,
    readings: Readings = PINNED,
) -> dict[str, Any]:
    """Perform ``call`` on an open, loaded ``store``; return the outcome and the state after."""
    if call.get("op") == "context":
        store.set_read_only()  # P2-API-10: the preview endpoint cannot write
        status, body = preview_context(store, call["params"], config=config, readings=readings)
        return {"status": status, "body": body, "state": store.dump()}
    result = run_job(store, call, config=config, readings=readings)
    return {"result": result, "state": store.dump()}


def run_vector_call(
    fixture: Mapping[str, Any], call: Mapping[str, Any], *, readings: Readings = PINNED
) -> dict[str, Any]:
    """Load ``fixture`` into a fresh in-memory database and observe ``call`` on it, under
    ``readings`` (default: the pinned ones)."""
    with open_store(":memory:") as store:
        store.load(fixture)
        return observe_call(store, call, readings=readings)
