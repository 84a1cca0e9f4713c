"""Answers correctly and appends every root it is sent (one per line) to the file named by
``$PHASE6_FAKE_ROOTS``: what an implementation learns from the paths it is given."""

import os
from typing import Any

from _fake_protocol import lookup, serve


def answer(message: dict[str, Any]) -> dict[str, Any] | None:
    """Note the root, then answer from the table."""
    with open(os.environ["PHASE6_FAKE_ROOTS"], "a", encoding="utf-8") as handle:
        handle.write(message["root"] + "\n")
    return lookup(message)


serve(answer)
