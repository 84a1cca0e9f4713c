"""Answers the handshake, then never answers a request."""

import time
from typing import Any

from _fake_protocol import serve


def answer(message: dict[str, Any]) -> dict[str, Any] | None:
    """Sleep forever."""
    while True:
        time.sleep(60)


serve(answer)
