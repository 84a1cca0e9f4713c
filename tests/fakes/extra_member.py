"""Answers the trigger vector with an extra top-level member (a protocol error)."""

from typing import Any

from _fake_protocol import TRIGGER, lookup, serve


def answer(message: dict[str, Any]) -> dict[str, Any] | None:
    """Add a member the protocol does not define."""
    reply = lookup(message)
    if message["request"]["query"] == TRIGGER:
        reply["debug"] = {"elapsed_ms": 3}
    return reply


serve(answer)
