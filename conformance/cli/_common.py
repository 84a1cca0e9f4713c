"""What several subcommands share: exit codes, argument types and checks, the ``--adapter`` help.

Arguments are checked before anything runs (a certification can take minutes; a typo in
``--report-dir`` must not cost them): argparse types refuse bad numbers (``--timeout inf``,
``--timeout nan``, a negative count, an absurd repeat), and :func:`check_paths` refuses
directories that cannot be used, with a :class:`~conformance._errors.UsageError` (exit 2)
naming the option and the reason.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import re
import signal
import threading
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, TextIO, TypeAlias

from conformance._errors import UsageError
from conformance.adapters import SANDBOX_MODES, Limits, SandboxStatus, sandbox_run
from conformance.run import default_temp_parent

__all__ = [
    "ADAPTER_HELP",
    "ADAPTER_KINDS",
    "EXIT_FAILED",
    "EXIT_OK",
    "EXIT_PARTIAL",
    "EXIT_READINGS",
    "EXIT_USAGE",
    "MAX_JOBS",
    "MAX_REPEAT",
    "MAX_TIMEOUT",
    "Subparsers",
    "bounded_int",
    "byte_size",
    "check_adapter_spec",
    "check_paths",
    "max_processes_option",
    "non_negative_int",
    "positive_float",
    "sandbox_limits",
    "sandbox_option",
    "sandboxed",
    "terminate_as_interrupt",
]

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2
#: The longest per-request timeout accepted, in seconds (a day).
MAX_TIMEOUT = 86_400.0
#: The most runs of one vector in one process.
MAX_REPEAT = 100
#: The most worker processes.
MAX_JOBS = 256
#: ``certify``: everything that ran passed, but the run is partial (a selection, another
#: corpus, sections not run): no verdict, so never 0.
EXIT_PARTIAL = 3
#: ``certify``: compliant on the required checks, and the failures are readings of ambiguous
#: clauses (``compliant-required-only``): a CI job can tell a reading from a bug (exit 1).
EXIT_READINGS = 4

if TYPE_CHECKING:
    Subparsers: TypeAlias = argparse._SubParsersAction[argparse.ArgumentParser]
else:
    Subparsers = argparse._SubParsersAction

#: ``--adapter`` prefixes every profile accepts (the Phase 2 profile adds ``http:``).
ADAPTER_KINDS = ("python:", "cmd:")
ADAPTER_HELP = (
    "implementation under test: 'python:package.module:callable' or 'cmd:<command line>' "
    "(default: the bundled reference, 'cmd:python -m reference serve')"
)


def non_negative_int(text: str) -> int:
    """An argparse type: an integer >= 0."""
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be >= 0, got {value}")
    return value


def bounded_int(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: an integer from ``low`` to ``high``."""

    def parse(text: str) -> int:
        value = int(text)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be from {low} to {high}, got {value}")
        return value

    parse.__name__ = "integer"
    return parse


def positive_float(text: str) -> float:
    """An argparse type: a finite number > 0 and at most :data:`MAX_TIMEOUT` (seconds)."""
    value = float(text)
    if not math.isfinite(value) or not value > 0:
        raise argparse.ArgumentTypeError(f"must be a finite number > 0, got {text!r}")
    if value > MAX_TIMEOUT:
        raise argparse.ArgumentTypeError(f"must be at most {MAX_TIMEOUT:g} s, got {text!r}")
    return value


_SIZE = re.compile(r"^\s*([0-9]+)\s*([KMG]?)(?:i?B)?\s*$", re.IGNORECASE)
_UNITS = {"": 1, "K": 1024, "M": 1024**2, "G": 1024**3}


def byte_size(text: str) -> int:
    """An argparse type: a size in bytes, ``1048576`` or ``1M`` / ``64MiB`` (1 KiB to 4 GiB)."""
    match = _SIZE.match(text)
    if match is None:
        raise argparse.ArgumentTypeError(f"not a size (bytes, or with K, M, G): {text!r}")
    value = int(match[1]) * _UNITS[match[2].upper()]
    if not 1024 <= value <= 4 * 1024**3:
        raise argparse.ArgumentTypeError(f"must be from 1K to 4G, got {text!r}")
    return value


def check_adapter_spec(spec: str | None, *, kinds: tuple[str, ...] = ADAPTER_KINDS) -> None:
    """Refuse an ``--adapter`` string that cannot name an implementation, before anything runs
    (``kinds``: the prefixes the profile certified accepts)."""
    if spec is None:
        return
    if not spec.startswith(kinds):
        named = ", ".join(repr(k) for k in kinds[:-1]) + f" or {kinds[-1]!r}"
        raise UsageError(f"--adapter {spec!r}: must start with {named}")
    if "\0" in spec:
        raise UsageError("--adapter: holds a NUL character")


def check_paths(
    *,
    directories: Iterable[tuple[str, Path | str | None]] = (),
    writable: Iterable[tuple[str, Path | str | None]] = (),
    files: Iterable[tuple[str, Path | str | None]] = (),
) -> None:
    """Check path options before a run; :class:`UsageError` naming the option otherwise.

    ``directories`` must exist as directories; ``writable`` must be directories this process
    can create files in, or creatable (their nearest existing parent is a writable directory);
    ``files`` must exist (their content is checked when they are read, with size limits).
    """
    for option, value in directories:
        if value is not None and not Path(value).is_dir():
            raise UsageError(f"{option} {str(value)!r}: not a directory")
    for option, value in writable:
        if value is not None:
            _check_writable(option, Path(value))
    for option, value in files:
        if value is None:
            continue
        path = Path(value)
        if path.is_dir():
            raise UsageError(f"{option} {str(value)!r}: is a directory, not a file")
        if not os.path.lexists(path):
            raise UsageError(f"{option} {str(value)!r}: no such file")
        if not os.access(path, os.R_OK):
            raise UsageError(f"{option} {str(value)!r}: not readable")


def _check_writable(option: str, path: Path) -> None:
    probe = path
    while not os.path.lexists(probe):
        if probe.parent == probe:
            break
        probe = probe.parent
    if not probe.is_dir():
        what = (
            "it exists and is not a directory"
            if probe == path
            else (f"{str(probe)!r} on its way is not a directory")
        )
        raise UsageError(f"{option} {str(path)!r}: cannot be used: {what}")
    if not os.access(probe, os.W_OK | os.X_OK):
        raise UsageError(f"{option} {str(path)!r}: {str(probe)!r} is not writable")


@contextlib.contextmanager
def terminate_as_interrupt() -> Iterator[None]:
    """Within the block, SIGTERM (a CI job cancelled, ``kill PID``) does what Ctrl-C does: it
    raises :class:`KeyboardInterrupt`, so the run stops through the interrupt path (the
    workers and adapters stopped, a partial report written, temporary directories removed)
    instead of dying at once with exit 143 and orphans. Later SIGTERMs are ignored while the
    run winds down; the previous handler comes back at the end. Outside the main thread (where
    no handler can be set) it does nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum: int, frame: object) -> None:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)  # one interruption; let cleanup run
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def sandbox_option(parser: argparse.ArgumentParser, what: str) -> None:
    """Add ``--sandbox auto|require|off`` (the modes of ``certify``) to a command that starts
    ``what``."""
    parser.add_argument(
        "--sandbox",
        choices=SANDBOX_MODES,
        default=SANDBOX_MODES[0],
        help=f"run {what} in a bubblewrap sandbox as certify does (auto: when it works here; "
        "require: exit 2 without one; off: never; default: %(default)s)",
    )
    max_processes_option(parser)


#: The fewest processes ``--sandbox-max-processes`` allows: the sandbox itself takes three
#: (the ``bwrap`` started, its PID 1, the adapter), and an adapter needs room for threads.
MIN_PROCESSES = 8
#: The most: the kernel's ceiling of ``pid_max`` (2^22).
MAX_PROCESSES = 1 << 22


def max_processes_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--sandbox-max-processes N`` (``Limits.processes``)."""
    parser.add_argument(
        "--sandbox-max-processes",
        type=bounded_int(MIN_PROCESSES, MAX_PROCESSES),
        default=Limits.processes,
        metavar="N",
        help="at most N processes and threads for the sandboxed adapters: RLIMIT_NPROC (not "
        "applied to root), and the pids.max of the run's pids cgroup where one can be made "
        f"(from {MIN_PROCESSES}; default: %(default)s)",
    )


def sandbox_limits(args: argparse.Namespace) -> Limits:
    """The sandbox's resource limits the arguments ask for."""
    return Limits(processes=getattr(args, "sandbox_max_processes", Limits.processes))


@contextlib.contextmanager
def sandboxed(
    mode: str, out: TextIO | None = None, limits: Limits | None = None
) -> Iterator[SandboxStatus]:
    """The adapters started in the block run sandboxed as ``mode`` asks (their temporary
    directories in the sandbox's scratch directory); ``require`` without a sandbox is a usage
    error before anything starts; ``out`` is told how the run is sandboxed; ``limits`` are
    the sandbox's resource limits (default: :class:`Limits`)."""
    if mode not in SANDBOX_MODES:
        raise UsageError(f"--sandbox {mode!r}: expected one of {', '.join(SANDBOX_MODES)}")
    with sandbox_run(mode, temp_parent=default_temp_parent(), limits=limits) as box:
        if mode == "require" and box.reason is not None:
            raise UsageError(f"--sandbox require: no sandbox can be made: {box.reason}")
        if out is not None:
            out.write(f"sandbox: {box.summary()}\n")
        yield box
