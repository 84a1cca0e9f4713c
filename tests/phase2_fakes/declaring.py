"""A Phase 2 engine that declares readings in its start reply (specs/protocol.md, P2.1).

    python tests/phase2_fakes/declaring.py FAKE ID,ID

Speaks ``phase6-adapter/1`` on stdin/stdout with the Phase 2 bodies, answers every ``run`` with
``phase2_fakes.FAKE.run_vector_call`` (``reference``: the reference engine's in-process entry)
and says ``"readings": [ID, ...]`` in its start reply: the handshake path of a declaration
(``certify --readings FILE`` is the other).
"""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

TESTS = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(TESTS), str(TESTS.parent)]


def _entry(fake: str) -> Callable[[Any, Any], Any]:
    module = "reference.phase2" if fake == "reference" else f"phase2_fakes.{fake}"
    function: Callable[[Any, Any], Any] = importlib.import_module(module).run_vector_call
    return function


def main() -> int:
    """Answer protocol messages until ``stop`` or end of input."""
    fake, readings = sys.argv[1], [r for r in sys.argv[2].split(",") if r]
    run = _entry(fake)
    for line in sys.stdin:
        message = json.loads(line)
        if message["cmd"] == "start":
            reply: dict[str, Any] = {
                "ok": True,
                "protocol": "phase6-adapter/1",
                "implementation": {
                    "name": f"declaring-{fake}",
                    "version": "1",
                    "language": "python",
                    "contract": "phase2-context/1",
                },
                "capabilities": ["phase2.context", "phase2.compact", "phase2.summarize"],
                "readings": readings,
            }
        elif message["cmd"] == "run":
            reply = {"seq": message["seq"], "result": run(message["fixture"], message["call"])}
        else:
            reply = {"ok": True}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
        if message["cmd"] == "stop":
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
