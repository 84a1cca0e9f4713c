"""Answers every vector with the right result plus a member ``pad`` holding ``sys.argv[2]``
empty objects (each ~70 bytes to whoever parses and keeps it)."""

import sys
from typing import Any

from _fake_protocol import lookup, serve

COUNT = int(sys.argv[2])


def answer(message: dict[str, Any]) -> dict[str, Any] | None:
    """The right answer, padded."""
    reply = lookup(message)
    if "result" in reply:
        reply["result"]["pad"] = [{} for _ in range(COUNT)]
    return reply


serve(answer)
