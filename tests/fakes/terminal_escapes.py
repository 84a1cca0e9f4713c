"""Names itself with terminal escape sequences and writes them to stderr; answers the trigger
vector with an internal error whose message holds them too. Nothing of it may reach a terminal
raw."""

import sys
from typing import Any

import _fake_protocol
from _fake_protocol import TRIGGER, lookup, serve

ESCAPES = "\x1b]0;owned\x07\x1b[2J\x1b[31m\r\u202e"
_fake_protocol.IMPLEMENTATION = {**_fake_protocol.IMPLEMENTATION, "name": "fake" + ESCAPES}


def answer(message: dict[str, Any]) -> dict[str, Any] | None:
    """Say escapes on stderr; fail the trigger query with more."""
    sys.stderr.write(f"log {ESCAPES} line\n")
    sys.stderr.flush()
    if message["request"]["query"] == TRIGGER:
        return {"seq": message["seq"], "internal_error": {"message": f"boom {ESCAPES}"}}
    return lookup(message)


serve(answer)
