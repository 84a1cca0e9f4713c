"""A phase6-adapter/1 adapter around your own Python ``memory_read``: copy this file and go.

The harness (``phase6 certify --adapter "cmd:python adapter.py my_pkg.memory:memory_read"``)
starts this script once and talks to it in newline-delimited JSON on stdin/stdout
(``specs/protocol.md``): a ``start`` handshake, one ``run`` per vector, then ``stop``. Your
function takes the SPEC-006 request (a dict) and returns the result envelope: ``{"package":
..., "receipt": ...}`` or ``{"error": {...}}``. Everything else is handled here:

- each ``run`` executes with the working directory set to the vector's ``root``, so relative
  store paths resolve there (protocol section 2);
- an exception of yours becomes an ``internal_error`` reply (the vector is ``errored``) and the
  adapter stays alive;
- stdout carries protocol lines only, one per reply, flushed; anything your code prints goes to
  stderr, whose tail the harness keeps for its reports;
- messages are read and written as UTF-8 bytes whatever the locale (the environment probe runs
  adapters under several).

Only the standard library is used, so the file works with any Python 3.11+. Edit ``NAME``,
``VERSION`` and ``HOMEPAGE`` below; ``IMPLEMENTATION`` (or the first argument) names your
function. Check it quickly with ``phase6 smoke --adapter "cmd:python adapter.py"`` before a
full ``phase6 certify``.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
import traceback
from collections.abc import Callable
from typing import Any, BinaryIO

PROTOCOL = "phase6-adapter/1"
CONTRACT = "phase6-v1"

#: Your implementation, ``module:callable``; the first command-line argument overrides it.
IMPLEMENTATION = "my_package.memory:memory_read"
#: What the report calls your implementation.
NAME = "my-memory-read"
VERSION = "0.1.0"
HOMEPAGE: str | None = None

MemoryRead = Callable[[dict[str, Any]], dict[str, Any]]


def load(spec: str) -> MemoryRead:
    """Import ``module:callable`` from the directory the harness was started in or PYTHONPATH."""
    module_name, _, attribute = spec.partition(":")
    if not module_name or not attribute:
        raise SystemExit(f"adapter: expected module:callable, got {spec!r}")
    # `python adapter.py` puts this file's directory on sys.path, not the working directory.
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    function: MemoryRead = getattr(importlib.import_module(module_name), attribute)
    return function


def handshake() -> dict[str, Any]:
    """The ``start`` reply: who we are, and the one capability every adapter has."""
    implementation: dict[str, Any] = {
        "name": NAME,
        "version": VERSION,
        "language": "python",
        "contract": CONTRACT,
    }
    if HOMEPAGE:
        implementation["homepage"] = HOMEPAGE
    return {
        "ok": True,
        "protocol": PROTOCOL,
        "implementation": implementation,
        "capabilities": ["memory.read"],
    }


def internal_error(seq: Any, exc: BaseException) -> dict[str, Any]:
    """An internal failure (not a SPEC-006 error): the vector is ``errored``, we stay alive."""
    return {
        "seq": seq,
        "internal_error": {
            "message": f"{type(exc).__name__}: {exc}",
            "traceback": traceback.format_exc(),
        },
    }


def run(memory_read: MemoryRead, message: dict[str, Any]) -> dict[str, Any]:
    """Execute one ``run`` as if the working directory were its ``root``."""
    seq = message.get("seq")
    here = os.getcwd()
    try:
        os.chdir(message["root"])
        return {"seq": seq, "result": memory_read(message["request"])}
    except Exception as exc:
        return internal_error(seq, exc)
    finally:
        os.chdir(here)


def serve(memory_read: MemoryRead, stdin: BinaryIO, stdout: BinaryIO) -> int:
    """Answer the harness's messages until ``stop`` or the end of stdin; the exit status."""

    def reply(obj: dict[str, Any]) -> None:
        # ensure_ascii: a result may hold lone surrogates, which UTF-8 cannot encode raw
        text = json.dumps(obj, ensure_ascii=True, allow_nan=False)
        stdout.write(text.encode("ascii") + b"\n")
        stdout.flush()

    for line in stdin:  # binary lines end at b"\n" only
        if not line.strip():
            continue
        try:
            message = json.loads(line.decode("utf-8"))
        except ValueError as exc:
            print(f"adapter: not JSON, ignored: {exc}", file=sys.stderr)
            continue
        command = message.get("cmd") if isinstance(message, dict) else None
        if command == "start":
            if message.get("protocol") != PROTOCOL:
                reply({"ok": False, "error": f"unsupported protocol {message.get('protocol')!r}"})
                return 1
            reply(handshake())
        elif command == "run":
            try:
                reply(run(memory_read, message))
            except (TypeError, ValueError) as exc:  # a result that is not JSON (NaN, a set)
                reply(internal_error(message.get("seq"), exc))
        elif command == "stop":
            reply({"ok": True})
            return 0
        else:
            print(f"adapter: unknown command {command!r}, ignored", file=sys.stderr)
    return 0


def main(argv: list[str]) -> int:
    """``adapter.py [module:callable]``: serve phase6-adapter/1 on stdin/stdout."""
    # Keep the real stdout for the protocol: whatever the implementation (or a module it
    # imports) prints goes to stderr.
    protocol_out = sys.stdout.buffer
    sys.stdout = sys.stderr
    memory_read = load(argv[0] if argv else IMPLEMENTATION)
    return serve(memory_read, sys.stdin.buffer, protocol_out)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
