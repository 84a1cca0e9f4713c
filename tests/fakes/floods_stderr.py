"""Answers every request correctly after writing 64 MiB to stderr (a chatty logger)."""

import sys
from typing import Any

from _fake_protocol import lookup, serve

CHUNK = b"log line that never ends " * 40000


def answer(message: dict[str, Any]) -> dict[str, Any] | None:
    """Flood stderr, then answer."""
    for _ in range(64):
        sys.stderr.buffer.write(CHUNK[: 1 << 20])
    sys.stderr.buffer.flush()
    return lookup(message)


serve(answer)
