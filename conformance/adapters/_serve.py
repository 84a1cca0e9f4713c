"""Serve any Python callable over the adapter protocol ``phase6-adapter/1``.

    phase6 serve package.module:callable

turns ``callable(request) -> result envelope`` into a subprocess adapter (``cmd:``). The harness
uses it to run ``python:`` adapters in a fresh process for the determinism sample; a Python
implementer can use it instead of writing the protocol loop. The callable runs with the working
directory set to the request's ``root``.
"""

from __future__ import annotations

import json
import os
import sys
import traceback
from collections.abc import Callable
from typing import IO, Any

from conformance.adapters._adapters import _python_metadata, _resolve
from conformance.adapters._protocol import CAPABILITY, PROTOCOL

__all__ = ["serve", "serve_target"]


def _write(stdout: IO[bytes], message: dict[str, Any]) -> None:
    data = json.dumps(message, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    stdout.write(data.encode("utf-8", "surrogatepass") + b"\n")
    stdout.flush()


def serve(
    function: Callable[[Any], Any],
    implementation: dict[str, Any],
    stdin: IO[bytes] | None = None,
    stdout: IO[bytes] | None = None,
) -> int:
    """Answer protocol messages from ``stdin`` until ``stop`` or end of input; exit status."""
    stdin = stdin if stdin is not None else sys.stdin.buffer
    stdout = stdout if stdout is not None else sys.stdout.buffer
    for line in stdin:
        message = json.loads(line)
        command = message.get("cmd")
        if command == "start":
            if message.get("protocol") != PROTOCOL:
                _write(
                    stdout,
                    {"ok": False, "error": f"unsupported protocol {message.get('protocol')!r}"},
                )
                return 1
            _write(
                stdout,
                {
                    "ok": True,
                    "protocol": PROTOCOL,
                    "implementation": implementation,
                    "capabilities": [CAPABILITY],
                },
            )
        elif command == "run":
            seq = message["seq"]
            old_cwd = os.getcwd()
            try:
                os.chdir(message["root"])
                result = function(message["request"])
                json.dumps(result, allow_nan=False)  # fail here, not half-way through a line
            except Exception as exc:
                _write(
                    stdout,
                    {
                        "seq": seq,
                        "internal_error": {
                            "message": f"{type(exc).__name__}: {exc}",
                            "traceback": traceback.format_exc(limit=20),
                        },
                    },
                )
            else:
                _write(stdout, {"seq": seq, "result": result})
            finally:
                os.chdir(old_cwd)
        elif command == "stop":
            _write(stdout, {"ok": True})
            return 0
    return 0


def serve_target(target: str) -> int:
    """Serve ``package.module:callable`` on this process's stdin/stdout; the exit status."""
    function = _resolve(target, "python:" + target)
    return serve(function, _python_metadata(target.partition(":")[0]))
