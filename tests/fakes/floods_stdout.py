"""Answers correctly, but on the trigger vector writes to stdout without ever ending the line
(1 MiB chunks, forever)."""

import sys
from typing import Any

from _fake_protocol import TRIGGER, lookup, serve

CHUNK = b"x" * (1 << 20)


def answer(message: dict[str, Any]) -> dict[str, Any] | None:
    """Flood stdout on the trigger query."""
    if message["request"]["query"] == TRIGGER:
        while True:
            sys.stdout.buffer.write(CHUNK)
            sys.stdout.buffer.flush()
    return lookup(message)


serve(answer)
