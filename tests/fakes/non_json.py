"""Answers correctly, but prints a log line to stdout (not JSON) for the trigger vector."""

import sys
from typing import Any

from _fake_protocol import TRIGGER, lookup, serve


def answer(message: dict[str, Any]) -> dict[str, Any] | None:
    """Print garbage instead of the trigger's reply."""
    if message["request"]["query"] == TRIGGER:
        sys.stdout.write("INFO reading stores...\n")
        sys.stdout.flush()
        return None
    return lookup(message)


serve(answer)
