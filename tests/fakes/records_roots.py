"""Answers correctly and appends every root it is sent, with a digest of the request, to the
file named by ``$PHASE6_FAKE_ROOTS`` (``<root> <sha256 of the request>`` per line): what an
implementation learns from the paths it is given and from the order of the requests."""

import hashlib
import json
import os
from typing import Any

from _fake_protocol import lookup, serve


def answer(message: dict[str, Any]) -> dict[str, Any] | None:
    """Note the root and the request, then answer from the table."""
    request = json.dumps(message.get("request"), sort_keys=True).encode("utf-8")
    with open(os.environ["PHASE6_FAKE_ROOTS"], "a", encoding="utf-8") as handle:
        handle.write(f"{message['root']} {hashlib.sha256(request).hexdigest()}\n")
    return lookup(message)


serve(answer)
