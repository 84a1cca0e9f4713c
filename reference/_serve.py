"""`python -m reference serve`: the reference behind the adapter protocol phase6-adapter/1.

The harness certifies the reference through this entry point exactly as it certifies any
other implementation (specs/protocol.md).  One JSON object per line in, one per line out,
stdout flushed after every line; logs go to stderr.  A result is streamed into its reply
line as it is produced (`memory_read_to`), so a large package is never held in memory.
Nothing a message holds stops the loop: a failure is an ``internal_error`` reply.
"""

from __future__ import annotations

import io
import os
import sys
import traceback
from typing import IO, Any, Final

from reference._controller import PINNED, write_result
from reference._envelope import Envelope, dumps
from reference._readings import Readings, UnknownReading
from reference._request_json import loads_request

__all__ = ["CAPABILITIES", "PROTOCOL", "serve"]

PROTOCOL: Final = "phase6-adapter/1"
#: memory.read, and the SPEC-003 assembly record on request (specs/protocol.md, specs/audit.md).
CAPABILITIES: Final = ("memory.read", "audit")
IMPLEMENTATION: Final = {
    "name": "adamos-phase6-reference",
    "version": "1.0.0",
    "language": "python",
    "contract": "phase6-v1",
}


def _internal_error(seq: Any, exc: BaseException) -> dict[str, Any]:
    return {
        "seq": seq,
        "internal_error": {"message": repr(exc), "traceback": traceback.format_exc()},
    }


#: ``serve --readings-per-run``: a run may name its own readings. Not part of
#: phase6-adapter/1 (an implementation never sees it): the kit's attribution keeps one
#: reference process for every set of alternatives it tries, instead of starting one each.
READINGS_MEMBER: Final = "readings"


def _chosen(message: dict[str, Any], readings: Readings, per_run: bool) -> Readings:
    """The readings one run is answered under: the server's, or, with ``per_run``, those the
    message names (``"readings": [ID, ...]``; an unknown ID is this run's internal error)."""
    if not per_run or READINGS_MEMBER not in message:
        return readings
    ids = message[READINGS_MEMBER]
    if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
        raise UnknownReading(f"{READINGS_MEMBER!r} must be a list of reading IDs, got {ids!r}")
    return Readings.of(ids)


def _run(
    message: dict[str, Any], out: IO[bytes], readings: Readings = PINNED, per_run: bool = False
) -> None:
    """Answer one ``run`` message with ``{"seq": N, "result": <envelope>}`` (plus
    ``"audit": <assembly record>`` when the message asks for it: capability ``audit``)."""
    seq = message.get("seq")
    record = io.BytesIO() if message.get("audit") is True else None
    suffix = b"}\n" if record is None else b""
    envelope = Envelope(out, prefix=b'{"seq":' + dumps(seq) + b',"result":', suffix=suffix)
    try:
        chosen = _chosen(message, readings, per_run)
        previous = os.getcwd()
        os.chdir(message["root"])  # paths resolve against the vector root (protocol 2.)
        try:
            write_result(message["request"], envelope, record, chosen)
        finally:
            os.chdir(previous)
        if record is not None:
            out.write(b',"audit":' + record.getvalue().rstrip(b"\n") + b"}\n")
    except Exception as exc:  # an internal failure is reported, never fatal
        if envelope.started:  # the reply line was cut short and ended: it is not a result
            print(f"reference serve: seq {seq!r}: {exc!r}", file=sys.stderr)
        else:
            _reply(out, _internal_error(seq, exc))
    out.flush()


def _reply(out: IO[bytes], message: dict[str, Any]) -> None:
    out.write(dumps(message) + b"\n")
    out.flush()


def _answer(
    message: Any, out: IO[bytes], readings: Readings = PINNED, per_run: bool = False
) -> int | None:
    """Handle one message; an exit status when the loop must end."""
    command = message.get("cmd") if isinstance(message, dict) else None
    if command == "start":
        if message.get("protocol") != PROTOCOL:
            _reply(out, {"ok": False, "error": f"unsupported protocol, speaks {PROTOCOL}"})
            return 1
        reply = {"ok": True, "protocol": PROTOCOL, "implementation": IMPLEMENTATION}
        _reply(out, {**reply, "capabilities": list(CAPABILITIES)})
    elif command == "run":
        _run(message, out, readings, per_run)
    elif command == "stop":
        _reply(out, {"ok": True})
        return 0
    else:
        print(f"reference serve: unknown command {command!r}", file=sys.stderr)
    return None


def serve(
    stdin: IO[bytes] | None = None,
    stdout: IO[bytes] | None = None,
    readings: Readings = PINNED,
    *,
    per_run: bool = False,
) -> int:
    """Answer protocol messages until `stop` or end of input; return the exit status.

    `readings` (default: the pinned ones) is what every request is run under: the harness
    serves the reference under an executable alternative to see whether it reproduces what an
    implementation produced (``reference/_readings.py``). With `per_run`, a run naming its
    own ``readings`` is answered under those instead (:data:`READINGS_MEMBER`).
    """
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
        try:
            status = _answer(message, out, readings, per_run)
        except Exception as exc:  # never let one message stop the loop
            print(f"reference serve: {exc!r}", file=sys.stderr)
            continue
        if status is not None:
            return status
    return 0
