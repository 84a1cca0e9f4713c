"""``phase6 audit verify RECORD``: check a SPEC-003 assembly record and replay its read."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TextIO

from conformance.audit import (
    Limits,
    adapter_runner,
    render_summary,
    source_for,
    verify_record,
)
from conformance.cli._common import (
    EXIT_FAILED,
    EXIT_OK,
    Subparsers,
    sandbox_limits,
    sandbox_option,
    sandboxed,
)

__all__ = ["register"]


def register(commands: Subparsers) -> None:
    """Add ``audit verify``."""
    parser = commands.add_parser(
        "audit",
        help="SPEC-003 assembly records: 'audit verify RECORD'",
        description="Work with phase6-audit/1 assembly records (specs/audit.md).",
    )
    actions = parser.add_subparsers(dest="audit_command", required=True, metavar="ACTION")
    verify = actions.add_parser(
        "verify",
        help="check a record's store identities and replay its request",
        description="Check every store identity of an assembly record against the stores "
        "(a store that grew is verified against its recorded-length prefix; a changed prefix "
        "is reported with its first differing line), then run the request again on the "
        "recorded bytes and compare package_hash and ranking. The record and the tree are "
        "treated as someone else's: only relative paths of plain segments are opened, no "
        "symlink is followed, sizes are bounded, and the replay runs on a scratch copy.",
        epilog="Exit status: 0 verified, 1 not verified, 2 usage error (unreadable or "
        "invalid record, unknown git revision, unusable adapter).",
    )
    verify.add_argument("record", type=Path, metavar="RECORD", help="the assembly record (JSON)")
    verify.add_argument(
        "--root",
        type=Path,
        default=Path.cwd(),
        metavar="DIR",
        help="the directory relative store paths resolve against (default: the current one)",
    )
    verify.add_argument(
        "--adapter",
        metavar="SPEC",
        help="replay with this implementation ('cmd:...' or 'python:...'; default: the "
        "bundled reference, which also replays the whole record)",
    )
    sandbox_option(verify, "the replaying implementation (the bundled reference, or --adapter)")
    verify.add_argument(
        "--git-rev",
        metavar="REV",
        help="read the stores as they were at commit REV of the repository holding --root "
        "(git show REV:path)",
    )
    verify.add_argument(
        "--max-record-bytes",
        type=int,
        default=Limits.max_record_bytes,
        metavar="N",
        help="refuse a larger record (default %(default)s: a parsed record costs about 60 "
        "times its size in memory)",
    )
    verify.add_argument(
        "--max-store-bytes",
        type=int,
        default=Limits.max_store_bytes,
        metavar="N",
        help="refuse a record whose stores hold more bytes in all (default %(default)s: the "
        "replay runs on a scratch copy of every recorded byte)",
    )
    verify.add_argument("--json", action="store_true", help="print the result as JSON")
    verify.set_defaults(handler=_verify)


def _verify(args: argparse.Namespace, out: TextIO) -> int:
    source = source_for(args.root.resolve(), args.git_rev)
    runner = adapter_runner(args.adapter) if args.adapter else None
    limits = Limits(args.max_record_bytes, args.max_store_bytes)
    # The bundled reference is the kit's own code, run isolated (python -I); it reads stores
    # someone else wrote, so it runs in the sandbox too, like an --adapter implementation.
    with sandboxed(args.sandbox, None if args.json else out, sandbox_limits(args)):
        verification = verify_record(args.record, source, runner, limits)
    if args.json:
        out.write(json.dumps(verification.to_json(), indent=2) + "\n")
    else:
        out.write(render_summary(verification))
    return EXIT_OK if verification.verified else EXIT_FAILED
