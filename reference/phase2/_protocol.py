"""``python -m reference.phase2 serve-protocol``: the engine behind phase6-adapter/1, profile
phase2-context/1 (specs/protocol.md, Phase 2).

One JSON object per line in, one per line out, stdout flushed after every line; logs go to
stderr. Each ``run`` loads its fixture into a fresh in-memory SQLite database.
"""

from __future__ import annotations

import json
import sys
import traceback
from typing import IO, Any, Final

from reference.phase2._readings import PINNED, Readings
from reference.phase2._run import run_vector_call

__all__ = ["CAPABILITIES", "CONTRACT", "PROTOCOL", "serve_protocol"]

PROTOCOL: Final = "phase6-adapter/1"
CONTRACT: Final = "phase2-context/1"
CAPABILITIES: Final = ("phase2.context", "phase2.compact", "phase2.summarize")
IMPLEMENTATION: Final = {
    "name": "adamos-phase2-reference",
    "version": "1.0.0",
    "language": "python",
    "contract": CONTRACT,
}


#: ``serve-protocol --readings-per-run``: a run may name its own readings and policy text.
#: Not part of the protocol (an implementation never sees these members): the kit's
#: attribution keeps one reference process for every set of readings it tries.
READINGS_MEMBERS: Final = ("readings", "policy")


def _chosen(message: dict[str, Any], readings: Readings, per_run: bool) -> Readings:
    """The readings one run is answered under: the server's, or, with ``per_run``, those the
    message names (``"readings": [ID, ...]``, ``"policy": text or null``)."""
    if not per_run or not any(member in message for member in READINGS_MEMBERS):
        return readings
    ids, policy = message.get("readings", []), message.get("policy")
    if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
        raise ValueError(f"'readings' must be a list of reading IDs, got {ids!r}")
    if policy is not None and not isinstance(policy, str):
        raise ValueError(f"'policy' must be a string or null, got {policy!r}")
    return Readings.of(ids, policy=policy)


def _run(message: dict[str, Any], readings: Readings, per_run: bool = False) -> dict[str, Any]:
    seq = message.get("seq")
    try:
        chosen = _chosen(message, readings, per_run)
        result = run_vector_call(message["fixture"], message["call"], readings=chosen)
    except Exception as exc:  # an internal failure is reported, never fatal
        return {
            "seq": seq,
            "internal_error": {"message": repr(exc), "traceback": traceback.format_exc()},
        }
    return {"seq": seq, "result": result}


def _reply(out: IO[bytes], message: dict[str, Any]) -> None:
    out.write(json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode() + b"\n")
    out.flush()


def serve_protocol(
    stdin: IO[bytes] | None = None,
    stdout: IO[bytes] | None = None,
    *,
    readings: Readings = PINNED,
    per_run: bool = False,
) -> int:
    """Answer protocol messages until ``stop`` or end of input, under ``readings`` (default:
    the pinned ones; with ``per_run``, a run naming its own readings is answered under those:
    :data:`READINGS_MEMBERS`); return the exit status."""
    source = stdin if stdin is not None else sys.stdin.buffer
    out = stdout if stdout is not None else sys.stdout.buffer
    for line in source:
        if not line.strip():
            continue
        try:
            message = json.loads(line)
        except ValueError as exc:
            print(
                f"reference.phase2 serve-protocol: ignoring non-JSON input: {exc}", file=sys.stderr
            )
            continue
        command = message.get("cmd") if isinstance(message, dict) else None
        if command == "start":
            if message.get("protocol") != PROTOCOL:
                _reply(out, {"ok": False, "error": f"unsupported protocol, speaks {PROTOCOL}"})
                return 1
            _reply(
                out,
                {
                    "ok": True,
                    "protocol": PROTOCOL,
                    "implementation": IMPLEMENTATION,
                    "capabilities": list(CAPABILITIES),
                },
            )
        elif command == "run":
            _reply(out, _run(message, readings, per_run))
        elif command == "stop":
            _reply(out, {"ok": True})
            return 0
        else:
            print(f"reference.phase2 serve-protocol: unknown command {command!r}", file=sys.stderr)
    return 0
