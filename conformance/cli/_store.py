"""``phase6 store``: check SPEC-005 memory stores and their SPEC-006 readability."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TextIO

from conformance.cli._common import EXIT_OK, EXIT_USAGE, Subparsers
from conformance.store import CODES, check_paths, codes_json, render_codes, render_text

__all__ = ["register"]


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
        description="Report every SPEC-005 violation of every line in one pass, and each "
        "line's SPEC-006 verdict. Never writes.",
        epilog="Exit status: 0 clean, 1 any (non-ignored) violation, 2 usage error or an "
        "unreadable path (the other paths are still checked and reported).",
    )
    check.add_argument("paths", nargs="+", metavar="PATH", help="JSONL store files")
    check.add_argument("--json", action="store_true", help="print the JSON report")
    check.add_argument("--all", action="store_true", help="list every line, not only problems")
    check.add_argument(
        "--ignore",
        action="append",
        default=[],
        metavar="CODE",
        help="do not report this violation code (repeatable)",
    )
    check.set_defaults(handler=_check)
    codes = actions.add_parser("codes", help="list the violation codes")
    codes.add_argument("--json", action="store_true", help="print the table as JSON")
    codes.set_defaults(handler=_codes)


def _check(args: argparse.Namespace, out: TextIO) -> int:
    unknown = sorted(set(args.ignore) - CODES.keys())
    if unknown:
        sys.stderr.write(
            f"phase6 store check: unknown code(s) for --ignore: {', '.join(unknown)}\n"
        )
        return EXIT_USAGE
    report = check_paths(args.paths, ignore=args.ignore)
    if args.json:
        out.write(json.dumps(report.to_json(), indent=2, ensure_ascii=False) + "\n")
    else:
        out.write(render_text(report, every_line=args.all))
    return report.exit_code


def _codes(args: argparse.Namespace, out: TextIO) -> int:
    if args.json:
        out.write(json.dumps(codes_json(), indent=2, ensure_ascii=False) + "\n")
    else:
        out.write(render_codes())
    return EXIT_OK
