"""Answers the trigger query with two reply lines in one write (the right one, then a copy),
every other query correctly: the extra line must be blamed on the trigger, not the next vector."""

import json
import os
import sys
from typing import Any

from _fake_protocol import TRIGGER, lookup, serve


def answer(message: dict[str, Any]) -> dict[str, Any] | None:
    """One reply, or two in a single write for the trigger."""
    reply = lookup(message)
    if message["request"]["query"] == TRIGGER:
        line = (json.dumps(reply) + "\n").encode()
        sys.stdout.flush()
        os.write(sys.stdout.fileno(), line + line)
        return None
    return reply


serve(answer)
