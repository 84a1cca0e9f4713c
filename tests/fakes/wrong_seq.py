"""Answers every request with the wrong sequence number."""

from typing import Any

from _fake_protocol import lookup, serve


def answer(message: dict[str, Any]) -> dict[str, Any] | None:
    """The right result, seq off by one."""
    reply = lookup(message)
    reply["seq"] += 1
    return reply


serve(answer)
