"""`python -m reference serve`: the reference behind the adapter protocol phase6-adapter/1.

The harness certifies the reference through this entry point exactly as it certifies any
other implementation (specs/protocol.md).  One JSON object per line in, one per line out,
stdout flushed after every line; logs go to stderr.
"""

from __future__ import annotations

import os
import sys
import traceback
from typing import IO, Any, Final

import orjson

from reference._controller import loads_request, memory_read

__all__ = ["PROTOCOL", "serve"]

PROTOCOL: Final = "phase6-adapter/1"
IMPLEMENTATION: Final = {
    "name": "adamos-phase6-reference",
    "version": "1.0.0",
    "language": "python",
    "contract": "phase6-v1",
}


def _run(message: dict[str, Any]) -> dict[str, Any]:
    seq = message.get("seq")
    try:
        previous = os.getcwd()
        os.chdir(message["root"])  # paths resolve against the vector root (protocol 2.)
        try:
            result = memory_read(message["request"])
        finally:
            os.chdir(previous)
    except Exception as exc:  # an internal failure is reported, never fatal
        return {
            "seq": seq,
            "internal_error": {"message": repr(exc), "traceback": traceback.format_exc()},
        }
    return {"seq": seq, "result": result}


def _reply(out: IO[bytes], message: dict[str, Any]) -> None:
    out.write(orjson.dumps(message) + b"\n")
    out.flush()


def serve(stdin: IO[bytes] | None = None, stdout: IO[bytes] | None = None) -> int:
    """Answer protocol messages until `stop` or end of input; return the exit status."""
    source = stdin if stdin is not None else sys.stdin.buffer
    out = stdout if stdout is not None else sys.stdout.buffer
    for line in source:
        if not line.strip():
            continue
        try:
            message = loads_request(line)
        except ValueError as exc:
            print(f"reference serve: ignoring non-JSON input: {exc}", file=sys.stderr)
            continue
        command = message.get("cmd") if isinstance(message, dict) else None
        if command == "start":
            if message.get("protocol") != PROTOCOL:
                _reply(out, {"ok": False, "error": f"unsupported protocol, speaks {PROTOCOL}"})
                return 1
            reply = {"ok": True, "protocol": PROTOCOL, "implementation": IMPLEMENTATION}
            _reply(out, {**reply, "capabilities": ["memory.read"]})
        elif command == "run":
            _reply(out, _run(message))
        elif command == "stop":
            _reply(out, {"ok": True})
            return 0
        else:
            print(f"reference serve: unknown command {command!r}", file=sys.stderr)
    return 0
