"""The commands a user names for the ``http:`` adapter (``--load``, ``--dump``, ``--job``).

Each is a command line split like a POSIX shell (``shlex.split``) and run without a shell, from
the harness's working directory, one run at a time, through the SPEC-006 harness's process
machinery (:class:`~conformance.adapters.ImplementationProcess`): a session and process group
of its own, non-blocking pipes under one deadline, stdout capped, only a stderr tail kept, and
the whole group killed at the end, whatever it started. Nothing it prints is trusted: output
that is too long, not JSON or nested too deeply is a protocol error; a non-zero exit status a
crash; running past the timeout a timeout (specs/protocol.md, P2.4).
"""

from __future__ import annotations

import shlex
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from conformance._errors import (
    AdapterCrashedError,
    AdapterError,
    AdapterTimeoutError,
    ProtocolError,
    SpawnError,
    UsageError,
)
from conformance._kit import json_problem, loads
from conformance.adapters import STDERR_TAIL_BYTES, ImplementationProcess

__all__ = ["UserCommand", "parse_output"]

_SHOWN = 200


def parse_output(data: bytes, what: str) -> Any:
    """``data`` as one JSON document, or :class:`ProtocolError` saying what is wrong."""
    try:
        value = loads(data)
    except ValueError as exc:  # UnicodeDecodeError included
        shown = repr(data[:_SHOWN]) + ("..." if len(data) > _SHOWN else "")
        reason = str(exc)[:_SHOWN]
        raise ProtocolError(
            f"{what} is not JSON ({reason}): {shown}", detail=str(exc)[:2000]
        ) from None
    problem = json_problem(value)
    if problem is not None:
        raise ProtocolError(f"{what} cannot be kept: {problem}")
    return value


@dataclass(frozen=True)
class UserCommand:
    """One named command: the option it came from, its text, its argument vector."""

    option: str
    text: str
    argv: tuple[str, ...]

    @classmethod
    def parse(cls, option: str, text: str) -> UserCommand:
        """Split ``text`` like a POSIX shell; :class:`UsageError` for nothing or bad quoting."""
        if "\0" in text:
            raise UsageError(f"{option}: holds a NUL character")
        try:
            argv = tuple(shlex.split(text))
        except ValueError as exc:
            raise UsageError(f"{option} {text!r}: {exc}") from None
        if not argv:
            raise UsageError(f"{option}: an empty command")
        return cls(option, text, argv)

    def run(
        self,
        *,
        args: Sequence[str] = (),
        stdin: bytes = b"",
        timeout: float,
        max_bytes: int,
    ) -> bytes:
        """Run the command (``args`` appended) with ``stdin``; its stdout once it exited 0.

        Raises :class:`SpawnError` (cannot start), :class:`AdapterTimeoutError`,
        :class:`ProtocolError` (stdout longer than ``max_bytes``) or
        :class:`AdapterCrashedError` (a non-zero exit status), each with the stderr tail.
        """
        what = f"output of the {self.option} command"
        deadline = time.monotonic() + timeout
        try:
            process = ImplementationProcess(
                [*self.argv, *args],
                env=None,
                cwd=None,
                tail_bytes=STDERR_TAIL_BYTES,
                max_line_bytes=max_bytes,
            )
        except OSError as exc:
            raise SpawnError(
                f"cannot start the {self.option} command {self.argv[0]!r}: {exc.strerror or exc}"
            ) from None
        status: int | None = None
        try:
            output = process.run_to_end(stdin, timeout, what=what, max_bytes=max_bytes)
            status = process.exit_status(wait=max(0.0, deadline - time.monotonic()))
            if status is None:
                raise AdapterTimeoutError(
                    f"the {self.option} command closed its stdout but did not exit "
                    f"within {timeout:g} s"
                )
            if status != 0:
                raise AdapterCrashedError(f"the {self.option} command exited with status {status}")
        except AdapterError as exc:
            if status is None:
                status = process.exit_status(wait=0.0)
            process.kill()
            raise type(exc)(
                exc.message,
                stderr_tail=process.stderr_tail()[-4000:],
                exit_status=status,
                detail=exc.detail,
            ) from None
        process.kill()  # whatever it left running in its group
        return output
