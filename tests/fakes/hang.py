"""Answers correctly, but never answers the trigger vector (a hang)."""

import time
from typing import Any

from _fake_protocol import TRIGGER, lookup, serve


def answer(message: dict[str, Any]) -> dict[str, Any] | None:
    """Sleep forever on the trigger query."""
    if message["request"]["query"] == TRIGGER:
        while True:
            time.sleep(60)
    return lookup(message)


serve(answer)
