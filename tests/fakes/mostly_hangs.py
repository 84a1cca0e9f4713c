"""Answers the hand-written vectors and every ``sys.argv[2]``-th generated one (``gamma N``
with N a multiple of it) correctly, and hangs on all the others: with 10, it hangs on 9 vectors
of 10 and never on more than 9 in a row."""

import sys
import time
from typing import Any

from _fake_protocol import lookup, serve

PERIOD = int(sys.argv[2])


def answer(message: dict[str, Any]) -> dict[str, Any] | None:
    """Hang unless the query is not generated or its number is a multiple of PERIOD."""
    query = message["request"]["query"]
    if query.startswith("gamma ") and int(query.split()[1]) % PERIOD:
        while True:
            time.sleep(60)
    return lookup(message)


serve(answer)
