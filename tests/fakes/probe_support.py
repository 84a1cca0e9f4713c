"""The reference controller behind the adapter protocol, with one hook per broken probe fake.

Each ``probe_*.py`` fake breaks ONE behavioural rule the probes check (Bowtie's miniatures):
it calls :func:`serve` with a ``before`` hook (runs before each request, may rewrite it) and/or
an ``after`` hook (may rewrite the result or do something it must not).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from reference import memory_read

PROTOCOL = "phase6-adapter/1"
IMPLEMENTATION = {
    "name": "probe-fake",
    "version": "0.0.1",
    "language": "python",
    "contract": "phase6-v1",
}

Before = Callable[[dict[str, Any]], Any]
After = Callable[[Any, Any], Any]


def _send(message: Any) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def serve(before: Before | None = None, after: After | None = None) -> None:
    """Answer protocol messages until ``stop``; ``before(message) -> request`` and
    ``after(request, result) -> result`` change one thing."""
    for line in sys.stdin:
        message = json.loads(line)
        if message["cmd"] == "start":
            reply = {"ok": True, "protocol": PROTOCOL, "implementation": IMPLEMENTATION}
            _send({**reply, "capabilities": ["memory.read"]})
        elif message["cmd"] == "run":
            previous = os.getcwd()
            os.chdir(message["root"])
            try:
                request = before(message) if before else message["request"]
                result = memory_read(request)
                if after:
                    result = after(request, result)
            finally:
                os.chdir(previous)
            _send({"seq": message["seq"], "result": result})
        elif message["cmd"] == "stop":
            _send({"ok": True})
            return


def store_paths(request: Any) -> list[str]:
    """The request's store paths that name files (relative to the current directory)."""
    paths = request.get("store_paths") if isinstance(request, dict) else None
    if not isinstance(paths, list):
        return []
    return [p for p in paths if isinstance(p, str) and os.path.isfile(p)]
