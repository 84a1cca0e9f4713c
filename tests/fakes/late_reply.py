"""Answers the trigger query correctly, then writes a copy of that reply a moment later (from
another thread, after the harness has taken the first): the late line must be blamed on the
trigger, whether the harness finds it before sending the next request or while waiting for
the next reply; every other query is answered correctly."""

import json
import os
import sys
import threading
import time
from typing import Any

from _fake_protocol import TRIGGER, lookup, serve

_LOCK = threading.Lock()


def _later(line: bytes) -> None:
    time.sleep(0.05)
    with _LOCK:
        os.write(sys.stdout.fileno(), line)


def answer(message: dict[str, Any]) -> dict[str, Any] | None:
    """The reply; for the trigger, a second copy 50 ms later."""
    reply = lookup(message)
    if message["request"]["query"] == TRIGGER:
        line = (json.dumps(reply) + "\n").encode()
        with _LOCK:
            sys.stdout.flush()
            os.write(sys.stdout.fileno(), line)
        threading.Thread(target=_later, args=(line,)).start()
        return None
    return reply


serve(answer)
