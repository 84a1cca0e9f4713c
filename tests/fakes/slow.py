"""Takes ``sys.argv[2]`` seconds over every request (just under the timeout), then answers
with an internal error, or correctly when ``sys.argv[3]`` is ``correct``: it never times out,
yet a failing run costs what a run of timeouts costs."""

import sys
import time
from typing import Any

from _fake_protocol import lookup, serve

DELAY = float(sys.argv[2])
CORRECT = len(sys.argv) > 3 and sys.argv[3] == "correct"


def answer(message: dict[str, Any]) -> dict[str, Any] | None:
    """Sleep, then fail (or answer)."""
    time.sleep(DELAY)
    if CORRECT:
        return lookup(message)
    return {"seq": message["seq"], "internal_error": {"message": "gave up just in time"}}


serve(answer)
