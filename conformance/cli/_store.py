"""``phase6 store``: check SPEC-005 memory stores and their SPEC-006 readability."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TextIO

from conformance.cli._common import EXIT_OK, EXIT_USAGE, Subparsers, non_negative_int
from conformance.store import (
    CODES,
    MAX_LINE_BYTES,
    MAX_LISTED_LINES,
    Options,
    codes_json,
    render_codes,
    run_check,
)

__all__ = ["register"]


def _line_limit(text: str) -> int:
    """An argparse type: a line limit in bytes, >= 1."""
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be >= 1, got {value}")
    return value


def register(commands: Subparsers) -> None:
    """Add ``store check`` and ``store codes``."""
    parser = commands.add_parser(
        "store",
        help="SPEC-005 store tools: 'store check PATH...', 'store codes'",
        description="Check SPEC-005 memory stores and their SPEC-006 readability.",
    )
    actions = parser.add_subparsers(dest="store_command", required=True, metavar="ACTION")
    check = actions.add_parser(
        "check",
        help="check store files (exit 1 on any violation)",
        description="Report every SPEC-005 finding of every line in one pass, and each line's "
        "SPEC-006 verdict. Findings at level 'required' are violations; 'pinned' ones (a hash "
        "under another canonical form INT-47 names) are notices unless --strict; 'info' ones "
        "(e.g. no ts_utc) are notices, summarized once per store. Streams each store; refuses "
        "FIFOs, devices and directories unopened; never writes.",
        epilog="Exit status: 0 no violation (notices allowed), 1 any (non-ignored) violation, "
        "2 usage error or a path that could not be checked (the other paths are still checked "
        "and reported).",
    )
    check.add_argument("paths", nargs="+", metavar="PATH", help="JSONL store files")
    check.add_argument("--json", action="store_true", help="print the JSON report")
    check.add_argument(
        "--all", action="store_true", help="list every line and every notice, not only violations"
    )
    check.add_argument(
        "--strict",
        action="store_true",
        help="pinned notices (hash-alternative-form) become violations",
    )
    check.add_argument(
        "--ignore",
        action="append",
        default=[],
        metavar="CODE",
        help="do not report this code (repeatable)",
    )
    check.add_argument(
        "--max-line-bytes",
        type=_line_limit,
        default=MAX_LINE_BYTES,
        metavar="N",
        help=f"longest line read (default {MAX_LINE_BYTES}); a longer one is reported "
        "line-too-long, unread",
    )
    check.add_argument(
        "--list",
        type=non_negative_int,
        default=MAX_LISTED_LINES,
        metavar="N",
        dest="max_listed",
        help=f"lines of a store listed finding by finding in the text report, and line by "
        f"line in the JSON report (default {MAX_LISTED_LINES}; 0: all); the counts always "
        "include every line",
    )
    check.set_defaults(handler=_check)
    codes = actions.add_parser("codes", help="list the finding codes and their levels")
    codes.add_argument("--json", action="store_true", help="print the table as JSON")
    codes.set_defaults(handler=_codes)


def _check(args: argparse.Namespace, out: TextIO) -> int:
    unknown = sorted(set(args.ignore) - CODES.keys())
    if unknown:
        sys.stderr.write(
            f"phase6 store check: unknown code(s) for --ignore: {', '.join(unknown)}\n"
        )
        return EXIT_USAGE
    options = Options(frozenset(args.ignore), args.strict, args.max_line_bytes)
    return run_check(
        args.paths,
        options,
        out,
        as_json=args.json,
        every_line=args.all,
        max_listed=args.max_listed,
    )


def _codes(args: argparse.Namespace, out: TextIO) -> int:
    if args.json:
        out.write(json.dumps(codes_json(), indent=2, ensure_ascii=False) + "\n")
    else:
        out.write(render_codes())
    return EXIT_OK
