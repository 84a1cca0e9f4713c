"""Deterministic within one process, different across processes (a per-process token)."""

import os
from typing import Any

from _fake_protocol import lookup, serve

TOKEN = os.urandom(4).hex()


def answer(message: dict[str, Any]) -> dict[str, Any] | None:
    """Errors carry the process token in their message; packages in a first excerpt."""
    reply = lookup(message)
    result = reply.get("result", {})
    if "error" in result:
        result["error"]["message"] += f" [{TOKEN}]"
    elif "package" in result and result["package"]["selection"]["selected"]:
        result["package"]["selection"]["selected"][0]["excerpt"] += TOKEN
    return reply


serve(answer)
