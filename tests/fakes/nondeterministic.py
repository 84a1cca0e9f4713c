"""Answers correctly the first time a query is asked, differently the second time."""

from typing import Any

from _fake_protocol import lookup, serve

seen: set[str] = set()


def answer(message: dict[str, Any]) -> dict[str, Any] | None:
    """Change a score on repeated queries."""
    reply = lookup(message)
    query = message["request"]["query"]
    if query in seen and "package" in reply.get("result", {}):
        for item in reply["result"]["package"]["selection"]["selected"]:
            item["score"] += 1e-9
    seen.add(query)
    return reply


serve(answer)
