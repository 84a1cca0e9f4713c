"""The one command line: ``phase6`` / ``python -m conformance`` with a subcommand for everything.

    phase6 certify     certify an implementation and write its report
    phase6 smoke       handshake and a handful of vectors, plainly told
    phase6 rerun       one vector again, alone: what differs (writes nothing)
    phase6 properties  the hypothesis property suite alone (also a section of certify)
    phase6 probes      the behavioural probes alone (also a section of certify)
    phase6 report      re-render md/html/junit/badge from a report.json
    phase6 compare     several reports side by side
    phase6 site        collect reports; build the static interoperability site
    phase6 ci          the CI recipes' script: certify, job summary, verdict policy
    phase6 vectors     list, show and check the corpus; write the coverage table
    phase6 store       SPEC-005 store check
    phase6 audit       SPEC-003 assembly records: verify one, replaying its read
    phase6 serve       put a Python callable behind the adapter protocol

Each subcommand lives in its own small module that registers its parser and its handler
(:data:`COMMANDS`); ``--help`` works on every level. Exit codes are shared: 0 success or
compliant, 1 not compliant (or a check failed), 2 usage or harness error; ``certify`` adds 3 (a
partial run in which nothing failed) and 4 (``compliant-required-only``: every required check
passed, the failures are readings of ambiguous clauses).

May import anything in the kit; nothing imports it.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import TextIO

from conformance._errors import HarnessError
from conformance._kit import kit_version, terminal_safe
from conformance.cli import (
    _audit,
    _certify,
    _ci,
    _probes,
    _properties,
    _reports,
    _rerun,
    _serve,
    _site,
    _store,
    _vectors,
)
from conformance.cli._common import EXIT_OK, EXIT_USAGE

__all__ = ["COMMANDS", "main"]

#: Registration order = the order ``phase6 --help`` lists the subcommands in.
COMMANDS = (
    _certify,
    _rerun,
    _properties,
    _probes,
    _reports,
    _site,
    _ci,
    _vectors,
    _store,
    _audit,
    _serve,
)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="phase6",
        description="Certify implementations of SPEC-006 memory.read (contract phase6-v1).",
        epilog="Exit codes: 0 compliant / success, 1 not compliant / a check failed, "
        "2 usage or harness error; certify adds 3 partial run (a selection, another corpus or "
        "sections not run) in which nothing failed, 4 compliant-required-only (every required "
        "check passed; the failures are readings of ambiguous clauses). Each command's --help "
        "lists its own.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {kit_version()}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in COMMANDS:
        module.register(commands)
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the command line; returns the exit code."""
    out = out or sys.stdout
    try:
        args = _parser().parse_args(argv)
    except SystemExit as exc:  # argparse: --help (0) or a usage error (2)
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE
    try:
        code: int = args.handler(args, out)
    except HarnessError as exc:  # may quote a stranger's file or implementation: made safe
        sys.stderr.write(f"phase6: error: {terminal_safe(str(exc))}\n")
        return EXIT_USAGE
    except BrokenPipeError:  # `phase6 vectors list | head`
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except KeyboardInterrupt:  # Ctrl-C or SIGTERM before a run could keep a partial result
        sys.stderr.write(
            "phase6: interrupted before any result could be kept: nothing was written (a "
            "certification interrupted while it runs keeps a partial report instead)\n"
        )
        return EXIT_USAGE
    return code
