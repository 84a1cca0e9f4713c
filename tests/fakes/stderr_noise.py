"""Correct, but writes a lot to stderr (warnings, progress): never a failure."""

import sys
from typing import Any

from _fake_protocol import lookup, serve

sys.stderr.write("warning: deprecated option\n" * 20000)


def answer(message: dict[str, Any]) -> dict[str, Any] | None:
    """Log 64 KiB per request, then answer."""
    sys.stderr.write("x" * 65536 + "\n")
    return lookup(message)


serve(answer)
