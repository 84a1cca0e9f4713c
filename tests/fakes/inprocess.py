"""In-process fakes (``python:inprocess:<name>``); the table path is ``$PHASE6_FAKE_TABLE``."""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from pathlib import Path
from typing import Any

TRIGGER = "trigger"


def _table() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(Path(os.environ["PHASE6_FAKE_TABLE"]).read_text("utf-8"))
    return data


def correct(request: dict[str, Any]) -> dict[str, Any]:
    """The right answer, after checking the stores exist relative to the working directory."""
    for store in request["store_paths"]:
        if not Path(store).is_file():
            raise FileNotFoundError(store)
    result: dict[str, Any] = _table()[request["query"]]
    return result


def raises(request: dict[str, Any]) -> dict[str, Any]:
    """Raises on the trigger vector."""
    if request["query"] == TRIGGER:
        raise RuntimeError("implementation bug")
    return correct(request)


def differs_on_pinned(request: dict[str, Any]) -> dict[str, Any]:
    """Wrong only on the pinned vector (its score)."""
    result = correct(request)
    if request["query"] == "alpha pinned":
        result["package"]["selection"]["selected"][0]["score"] = 2.5
    return result


def numbers_as_floats(request: dict[str, Any]) -> dict[str, Any]:
    """Writes every integer as a float (2 -> 2.0): still equal as JSON values (INT-48)."""

    def floats(value: Any) -> Any:
        if isinstance(value, bool):
            return value
        if isinstance(value, int):
            return float(value)
        if isinstance(value, dict):
            return {k: floats(v) for k, v in value.items()}
        if isinstance(value, list):
            return [floats(v) for v in value]
        return value

    result: dict[str, Any] = floats(correct(request))
    return result


def mutates_input(request: dict[str, Any]) -> dict[str, Any]:
    """Answers correctly but scribbles over its request (must not corrupt the corpus)."""
    result = correct(request)
    request["query"] = "scribbled"
    request.clear()
    return result


def hangs(request: dict[str, Any]) -> dict[str, Any]:
    """Never returns on the trigger vector."""
    if request["query"] == TRIGGER:
        while True:
            pass
    return correct(request)


def exits(request: dict[str, Any]) -> dict[str, Any]:
    """Calls sys.exit on the trigger vector."""
    if request["query"] == TRIGGER:
        raise SystemExit(4)
    return correct(request)


def os_exit(request: dict[str, Any]) -> dict[str, Any]:
    """Ends the whole process with status 0 on the trigger vector (no exception to catch)."""
    if request["query"] == TRIGGER:
        os._exit(0)
    return correct(request)


def ignores_signals(request: dict[str, Any]) -> dict[str, Any]:
    """On the trigger vector ignores SIGALRM, SIGTERM and SIGINT, then sleeps forever."""
    if request["query"] == TRIGGER:
        for signum in (signal.SIGALRM, signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, signal.SIG_IGN)
        while True:
            time.sleep(60)
    return correct(request)


def always_exits(request: dict[str, Any]) -> dict[str, Any]:
    """Ends its process on every request."""
    os._exit(3)


def prints(request: dict[str, Any]) -> dict[str, Any]:
    """Prints to stdout (and reads stdin) before answering correctly."""
    print("debug output on stdout", flush=True)
    sys.stdin.read()
    return correct(request)


def deep(request: dict[str, Any]) -> dict[str, Any]:
    """Answers the trigger vector with a value nested 5,000 levels deep."""
    if request["query"] == TRIGGER:
        value: Any = 1
        for _ in range(5000):
            value = [value]
        return {"package": value}
    return correct(request)
