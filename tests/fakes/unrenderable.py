"""Answers correctly, but on the trigger vector answers (argv[2]) with JSON nested ``deep-N``
levels, a member name that is a lone surrogate (``surrogate-key``) or a string that holds one
(``surrogate-value``)."""

import json
import sys
from typing import Any

from _fake_protocol import TRIGGER, lookup, serve

MODE = sys.argv[2]


def answer(message: dict[str, Any]) -> dict[str, Any] | None:
    """Misbehave on the trigger query."""
    reply = lookup(message)
    if message["request"]["query"] != TRIGGER:
        return reply
    if MODE.startswith("deep-"):
        depth = int(MODE.removeprefix("deep-"))
        nested = "[" * depth + "1" + "]" * depth
        text = f'{{"seq":{message["seq"]},"result":{{"package":{nested}}}}}'
        sys.stdout.write(text + "\n")
        sys.stdout.flush()
        return None
    if MODE == "surrogate-key":
        reply["result"] = {"\ud800": 1}
    elif MODE == "surrogate-value":
        reply["result"]["package"]["query"]["raw"] = "\udcff\x1b[2J"
    sys.stdout.write(json.dumps(reply) + "\n")  # ensure_ascii: the surrogate travels escaped
    sys.stdout.flush()
    return None


serve(answer)
