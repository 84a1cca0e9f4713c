"""Serve any Python callable over the adapter protocol ``phase6-adapter/1``.

    phase6 serve package.module:callable

turns ``callable(request) -> result envelope`` into a subprocess adapter (``cmd:``), for a Python
implementer who does not want to write the protocol loop. The callable runs with the working
directory set to the request's ``root``; what it prints goes to stderr, never into the protocol.
The loop is the one ``python:`` adapters run in their worker process
(:mod:`conformance.adapters._worker`).
"""

from __future__ import annotations

from conformance._errors import AdapterSpecError, SpawnError
from conformance.adapters._worker import (
    ResolveError,
    private_channel,
    python_metadata,
    resolve,
    serve,
)

__all__ = ["serve", "serve_target"]


def serve_target(target: str) -> int:
    """Serve ``package.module:callable`` on this process's stdin/stdout; the exit status.

    Takes over the process's stdin and stdout (a ``phase6 serve`` process does nothing else).
    Raises :class:`~conformance._errors.SpawnError` when the callable cannot be loaded.
    """
    if ":" not in target:
        raise AdapterSpecError("python:" + target, "expected package.module:callable")
    channel_in, channel_out = private_channel()
    try:
        function = resolve(target)
    except ResolveError as exc:
        raise SpawnError(exc.message, detail=exc.detail) from None
    try:
        return serve(function, python_metadata(target.partition(":")[0]), channel_in, channel_out)
    except BrokenPipeError:  # the harness went away
        return 0
