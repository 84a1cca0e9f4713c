"""``phase6 probes``: run the behavioural probes and print a per-check table.

phase6 probes [--adapter SPEC] [--probe NAME ...] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import textwrap
from pathlib import Path
from typing import TextIO

from conformance._kit import one_line
from conformance.adapters import reference_adapter_spec
from conformance.cli._common import (
    ADAPTER_HELP,
    EXIT_FAILED,
    EXIT_OK,
    Subparsers,
    check_adapter_spec,
    positive_float,
)
from conformance.probes import (
    DEFAULT_TIMEOUT,
    PROBES,
    ProbeRun,
    clause_rollup,
    run_probes,
    tool_report,
)

__all__ = ["register", "render_table"]


def register(commands: Subparsers) -> None:
    """Add ``probes``."""
    parser = commands.add_parser(
        "probes",
        help="the behavioural probes against an implementation",
        description="Run the SPEC-006 behavioural probes (clock, environment, network, "
        "read-only, receipt, errors-repeat, streaming) against an implementation.",
        epilog="Exit status: 0 no check failed or errored (skips allowed), 1 otherwise, "
        "2 usage error.",
    )
    parser.add_argument("--adapter", help=ADAPTER_HELP)
    parser.add_argument(
        "--probe", action="append", choices=list(PROBES), help="run only this probe (repeatable)"
    )
    parser.add_argument(
        "--timeout", type=positive_float, default=DEFAULT_TIMEOUT, help="seconds per request"
    )
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the results as JSON")
    parser.add_argument("--verbose", "-v", action="store_true", help="show what each probe sees")
    parser.set_defaults(handler=_probes)


def render_table(run: ProbeRun) -> str:
    """The per-check table: probe, check, outcome, clauses, message."""
    rows = [("check", "outcome", "time", "clauses", "message")]
    rows += [
        (
            result.id,
            result.outcome.upper() if result.outcome != "passed" else "passed",
            f"{result.duration_s:.1f}s",
            ",".join(result.clauses),
            one_line(result.message),
        )
        for result in run.results
    ]
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    lines = []
    for row in rows:
        head = "  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row[:4]))
        message = textwrap.shorten(row[4], 160, placeholder=" ...")
        lines.append(f"{head}  {message}")
    lines.insert(1, "-" * min(200, len(lines[0]) + 20))
    return "\n".join(lines)


def _probes(args: argparse.Namespace, out: TextIO) -> int:
    check_adapter_spec(args.adapter)
    adapter = args.adapter or reference_adapter_spec()
    out.write(f"probing {one_line(adapter)}\n")
    for name, state in tool_report().items():
        out.write(f"  {name}: {state}\n")
    run = run_probes(adapter, args.probe, timeout=args.timeout)
    out.write(f"\n{render_table(run)}\n\n")
    rollup = clause_rollup(run.results, args.probe)
    by_outcome: dict[str, list[str]] = {}
    for clause, entry in rollup.items():
        by_outcome.setdefault(entry["outcome"], []).append(clause)
    for outcome, clauses in sorted(by_outcome.items()):
        out.write(f"clauses {outcome}: {', '.join(clauses)}\n")
    out.write(
        f"{len(run.results)} checks, {run.duration_s:.1f} s; "
        + ", ".join(f"{name} {seconds:.1f}s" for name, seconds in run.durations.items())
        + "\n"
    )
    if args.verbose:
        for name in args.probe or PROBES:
            probe = PROBES[name]
            out.write(f"\n{name}: sees {probe.sees}.\n  blind to {probe.blind_to}.\n")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        document = {
            "adapter": adapter,
            "duration_s": round(run.duration_s, 3),
            "tools": tool_report(),
            "results": [r.to_json() for r in run.results],
            "clauses": rollup,
        }
        args.json.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", "utf-8")
    return EXIT_FAILED if run.failed() else EXIT_OK
