"""Answers the trigger query with two reply lines at once (the right one, then a copy), every
other query correctly: the extra line must be blamed on the trigger, not the next vector."""

import sys
from typing import Any

from _fake_protocol import TRIGGER, lookup, send, serve


def answer(message: dict[str, Any]) -> dict[str, Any] | None:
    """One reply, or two for the trigger."""
    reply = lookup(message)
    if message["request"]["query"] == TRIGGER:
        send(reply, flush=False)
        send(reply, flush=False)
        sys.stdout.flush()
        return None
    return reply


serve(answer)
