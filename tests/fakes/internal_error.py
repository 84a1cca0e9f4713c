"""Reports an internal error for the trigger vector and stays alive."""

from typing import Any

from _fake_protocol import TRIGGER, lookup, serve


def answer(message: dict[str, Any]) -> dict[str, Any] | None:
    """An internal_error reply for the trigger."""
    if message["request"]["query"] == TRIGGER:
        return {
            "seq": message["seq"],
            "internal_error": {"message": "KeyError: 'text'", "traceback": "Traceback ..."},
        }
    return lookup(message)


serve(answer)
