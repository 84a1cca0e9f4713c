"""A Python callable behind the adapter protocol ``phase6-adapter/1``, in a process of its own.

Two users, one loop (:func:`serve`):

- ``python:package.module:callable`` adapters: the harness starts this file as a script,
  ``python _worker.py package.module:callable SYS_PATH_JSON [CONTRACT]``, and talks to it like
  to any ``cmd:`` adapter. ``CONTRACT`` (default ``phase6-v1``) says what the callable
  implements (:data:`PROFILES`): ``callable(request)`` run in the request's ``root``, or, for
  the Phase 2 profile ``phase2-context/1``, ``callable(fixture, call)`` (specs/protocol.md,
  P2.3). The callable runs in this worker, not in the harness: ``os._exit``, a
  signal it ignores, a crash of the interpreter or a hang end or stall the worker only, which
  the harness kills (with everything it started) and restarts;
- ``phase6 serve package.module:callable`` (:mod:`conformance.adapters._serve`), for a Python
  implementer who wants a ``cmd:`` adapter without writing the protocol loop.

Stdlib only, and nothing from the kit: as a script this runs before ``sys.path`` is set to the
harness's (``SYS_PATH_JSON``, so the callable imports exactly what it would have imported in
the harness, plus the current directory), which is why the protocol's names live here.

The protocol channel is private: before the callable is imported, the worker keeps its own
copies of stdin and stdout and points file descriptors 0 and 1 at ``/dev/null`` and stderr, so
a callable that prints (or reads stdin) cannot corrupt the exchange; what it prints lands in
the stderr tail the harness keeps.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.metadata
import json
import os
import sys
import traceback
from collections.abc import Callable, Sequence
from typing import IO, Any

__all__ = [
    "CAPABILITY",
    "CONTRACT",
    "PHASE2_CONTRACT",
    "PROFILES",
    "PROTOCOL",
    "ResolveError",
    "main",
    "private_channel",
    "python_metadata",
    "resolve",
    "serve",
]

PROTOCOL = "phase6-adapter/1"
CONTRACT = "phase6-v1"
CAPABILITY = "memory.read"
PHASE2_CONTRACT = "phase2-context/1"
#: contract -> the capabilities a Python callable declares for it (a callable answers every
#: call of its profile).
PROFILES: dict[str, tuple[str, ...]] = {
    CONTRACT: (CAPABILITY,),
    PHASE2_CONTRACT: ("phase2.context", "phase2.compact", "phase2.summarize"),
}
#: What the worker writes to stderr before it exits because the callable tried to end it.
ENDED = "phase6 worker: the callable ended the process"


class ResolveError(Exception):
    """``package.module:callable`` cannot be imported or is not callable (``detail``: traceback)."""

    def __init__(self, message: str, detail: str = ""):
        super().__init__(message)
        self.message = message
        self.detail = detail


def resolve(target: str) -> Callable[[Any], Any]:
    """Import ``package.module`` and return its attribute ``callable`` (dotted names allowed)."""
    module_name, sep, attribute = target.partition(":")
    if not sep or not module_name or not attribute:
        raise ResolveError(f"{target!r}: expected package.module:callable")
    try:
        obj: Any = importlib.import_module(module_name)
    except BaseException as exc:  # an import that calls sys.exit is a failed import too
        raise ResolveError(
            f"cannot import {module_name!r}: {type(exc).__name__}: {exc}",
            traceback.format_exc(limit=8),
        ) from None
    for part in attribute.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise ResolveError(f"{module_name!r} has no attribute {attribute!r}") from None
    if not callable(obj):
        raise ResolveError(f"{target!r} is not callable")
    return obj  # type: ignore[no-any-return]


def python_metadata(module_name: str, contract: str = CONTRACT) -> dict[str, Any]:
    """The ``implementation`` object of the handshake for a Python callable's package (named
    after its top-level package; under another profile than SPEC-006's, after its module)."""
    top = module_name.split(".", maxsplit=1)[0]
    version = "unknown"
    source = (
        f"unknown: {top!r} has no __version__ and belongs to no installed distribution "
        "(certify --implementation-version names it)"
    )
    with contextlib.suppress(Exception):
        dist = importlib.metadata.packages_distributions().get(top, [])[0]
        version = importlib.metadata.version(dist)
        source = f"the installed distribution {dist!r}"
    if version == "unknown":
        with contextlib.suppress(Exception):
            found = getattr(importlib.import_module(top), "__version__", None)
            if isinstance(found, str) and found:
                version, source = found, f"{top}.__version__"
    return {
        "name": top if contract == CONTRACT else module_name,
        "version": version or "unknown",
        "version_source": source,
        "language": "python",
        "contract": contract,
        "runtime": f"{sys.implementation.name} {sys.version.split()[0]}",
    }


def _line(message: dict[str, Any]) -> bytes:
    # ASCII escapes: a lone surrogate in a result travels as \udxxx and the harness decides.
    return json.dumps(message, ensure_ascii=True, allow_nan=False, separators=(",", ":")).encode()


def _run(function: Callable[..., Any], message: dict[str, Any], contract: str = CONTRACT) -> bytes:
    """The reply line to one ``run`` message (the callable runs with cwd = ``root``; a Phase 2
    callable gets the fixture and the call)."""
    seq = message.get("seq")
    old_cwd = os.getcwd()
    try:
        if contract == PHASE2_CONTRACT:
            result = function(message["fixture"], message["call"])
        else:
            os.chdir(message["root"])
            result = function(message["request"])
        return _line({"seq": seq, "result": result})  # not JSON: fails here, not half-written
    except Exception as exc:
        return _line(
            {
                "seq": seq,
                "internal_error": {
                    "message": f"{type(exc).__name__}: {exc}"[:4000],
                    "traceback": traceback.format_exc(limit=20)[-16000:],
                },
            }
        )
    finally:
        with contextlib.suppress(OSError):
            os.chdir(old_cwd)


def serve(
    function: Callable[..., Any] | None,
    implementation: dict[str, Any],
    stdin: IO[bytes] | None = None,
    stdout: IO[bytes] | None = None,
    *,
    refusal: str | None = None,
    contract: str = CONTRACT,
    readings: Sequence[str] | None = None,
) -> int:
    """Answer protocol messages from ``stdin`` until ``stop`` or end of input; exit status.

    With ``refusal`` (the callable could not be loaded) the ``start`` is answered
    ``{"ok": false, "error": refusal}`` and the loop ends with status 1. A callable that raises
    ``SystemExit`` (or any other non-``Exception``) ends the process with that status, after a
    line on stderr saying so: the harness sees a crash, as it would from any implementation.
    ``readings``: the alternative readings the start reply declares (specs/protocol.md).
    """
    stdin = stdin if stdin is not None else sys.stdin.buffer
    stdout = stdout if stdout is not None else sys.stdout.buffer

    def write(data: bytes) -> None:
        stdout.write(data + b"\n")
        stdout.flush()

    for raw in stdin:
        try:
            message = json.loads(raw)
            command = message.get("cmd")
        except (ValueError, AttributeError) as exc:
            error = {"message": f"not a protocol command: {type(exc).__name__}: {exc}"[:500]}
            write(_line({"seq": None, "internal_error": error}))
            continue
        if command == "start":
            if refusal is not None:
                write(_line({"ok": False, "error": refusal}))
                return 1
            if message.get("protocol") != PROTOCOL:
                error_text = f"unsupported protocol {message.get('protocol')!r}"
                write(_line({"ok": False, "error": error_text}))
                return 1
            reply = {
                "ok": True,
                "protocol": PROTOCOL,
                "implementation": implementation,
                "capabilities": list(PROFILES[contract]),
                **({"readings": list(readings)} if readings is not None else {}),
            }
            write(_line(reply))
        elif command == "run" and function is not None:
            try:
                line = _run(function, message, contract)
            except BaseException as exc:  # SystemExit, KeyboardInterrupt: the callable quit
                code = exc.code if isinstance(exc, SystemExit) else 1
                status = code if isinstance(code, int) else 1
                with contextlib.suppress(Exception):
                    sys.stderr.write(f"{ENDED}: {type(exc).__name__}({code!r})\n")
                    sys.stderr.flush()
                os._exit(status)
            write(line)
        elif command == "stop":
            write(_line({"ok": True}))
            return 0
    return 0


def private_channel() -> tuple[IO[bytes], IO[bytes]]:
    """Our own copies of stdin and stdout; fds 0 and 1 then lead to /dev/null and stderr."""
    channel_in = os.fdopen(os.dup(0), "rb")
    channel_out = os.fdopen(os.dup(1), "wb")
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)
    return channel_in, channel_out


def main(argv: list[str]) -> int:
    """``_worker.py TARGET SYS_PATH_JSON [CONTRACT]``: serve ``TARGET`` with the harness's
    ``sys.path``, under the profile of ``CONTRACT`` (default ``phase6-v1``)."""
    target = argv[1]
    sys.path[:] = [str(p) for p in json.loads(argv[2])]
    contract = argv[3] if len(argv) > 3 else CONTRACT
    channel_in, channel_out = private_channel()
    if contract not in PROFILES:
        refusal = f"unknown contract {contract!r}"
        return serve(None, {}, channel_in, channel_out, refusal=refusal, contract=CONTRACT)
    try:
        function: Callable[..., Any] | None = resolve(target)
    except ResolveError as exc:
        sys.stderr.write(exc.detail or exc.message + "\n")
        return serve(None, {}, channel_in, channel_out, refusal=exc.message, contract=contract)
    metadata = python_metadata(target.partition(":")[0], contract)
    try:
        return serve(function, metadata, channel_in, channel_out, contract=contract)
    except BrokenPipeError:  # the harness went away
        return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
