"""Answers correctly, but dies (exit status 17) on the trigger vector."""

import os
import sys
from typing import Any

from _fake_protocol import TRIGGER, lookup, serve


def answer(message: dict[str, Any]) -> dict[str, Any] | None:
    """Die on the trigger query."""
    if message["request"]["query"] == TRIGGER:
        sys.stderr.write("dying on the trigger\n")
        sys.stderr.flush()
        os._exit(17)
    return lookup(message)


serve(answer)
