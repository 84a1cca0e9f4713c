"""The protocol loop every fake adapter shares; each fake changes one thing (Bowtie's
miniatures). A fake answers ``run`` by looking the request's ``query`` up in the table whose
path is ``sys.argv[1]`` (or ``$PHASE6_FAKE_TABLE``)."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

PROTOCOL = "phase6-adapter/1"
TRIGGER = "trigger"
IMPLEMENTATION = {"name": "fake", "version": "0.0.1", "language": "python", "contract": "phase6-v1"}

Answer = Callable[[dict[str, Any]], dict[str, Any] | None]


def table() -> dict[str, Any]:
    """The query -> result table."""
    path = sys.argv[1] if len(sys.argv) > 1 else os.environ["PHASE6_FAKE_TABLE"]
    data: dict[str, Any] = json.loads(Path(path).read_text("utf-8"))
    return data


def lookup(message: dict[str, Any]) -> dict[str, Any]:
    """The correct answer to a ``run`` message (after checking its stores exist under root)."""
    request = message["request"]
    root = Path(message["root"])
    for store in request["store_paths"]:
        if not (root / store).is_file():
            return {"seq": message["seq"], "internal_error": {"message": f"no store {store}"}}
    return {"seq": message["seq"], "result": table()[request["query"]]}


def send(message: Any, *, flush: bool = True) -> None:
    """Write one line to stdout."""
    sys.stdout.write(json.dumps(message) + "\n")
    if flush:
        sys.stdout.flush()


def handshake_reply(protocol: str = PROTOCOL) -> dict[str, Any]:
    """The ``start`` reply."""
    return {
        "ok": True,
        "protocol": protocol,
        "implementation": IMPLEMENTATION,
        "capabilities": ["memory.read"],
    }


def serve(
    answer: Answer = lookup,
    *,
    protocol: str = PROTOCOL,
    flush: bool = True,
) -> None:
    """Read commands until ``stop``; ``answer`` builds each ``run`` reply (None = say nothing)."""
    for line in sys.stdin:
        message = json.loads(line)
        if message["cmd"] == "start":
            send(handshake_reply(protocol), flush=flush)
        elif message["cmd"] == "run":
            reply = answer(message)
            if reply is not None:
                send(reply, flush=flush)
        elif message["cmd"] == "stop":
            send({"ok": True}, flush=flush)
            return
