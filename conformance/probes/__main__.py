"""``python -m conformance.probes``: run the behavioural probes and print a per-check table.

    python -m conformance.probes [--adapter SPEC] [--probe NAME ...] [--json FILE]

Exit status: 0 nothing failed or errored (skips allowed), 1 a check failed or errored,
2 usage error.
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path

from conformance import reference_adapter_spec
from conformance.probes import (
    DEFAULT_TIMEOUT,
    PROBES,
    ProbeRun,
    clause_rollup,
    run_probes,
    tool_report,
)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m conformance.probes",
        description="Run the SPEC-006 behavioural probes (clock, environment, network, "
        "read-only, receipt, errors-repeat, streaming) against an implementation.",
        epilog="Exit status: 0 no check failed or errored, 1 otherwise, 2 usage error.",
    )
    parser.add_argument(
        "--adapter", help="'cmd:<command line>' or 'python:pkg.mod:fn' (default: the reference)"
    )
    parser.add_argument(
        "--probe", action="append", choices=list(PROBES), help="run only this probe (repeatable)"
    )
    parser.add_argument(
        "--timeout", type=float, default=DEFAULT_TIMEOUT, help="seconds per request"
    )
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the results as JSON")
    parser.add_argument("--verbose", "-v", action="store_true", help="show what each probe sees")
    return parser


def render_table(run: ProbeRun) -> str:
    """The per-check table: probe, check, outcome, clauses, message."""
    rows = [("check", "outcome", "time", "clauses", "message")]
    rows += [
        (
            result.id,
            result.outcome.upper() if result.outcome != "passed" else "passed",
            f"{result.duration_s:.1f}s",
            ",".join(result.clauses),
            result.message,
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


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point."""
    args = _parser().parse_args(argv)
    adapter = args.adapter or reference_adapter_spec()
    print(f"probing {adapter}")
    for name, state in tool_report().items():
        print(f"  {name}: {state}")
    run = run_probes(adapter, args.probe, timeout=args.timeout)
    print()
    print(render_table(run))
    print()
    rollup = clause_rollup(run.results, args.probe)
    by_outcome: dict[str, list[str]] = {}
    for clause, entry in rollup.items():
        by_outcome.setdefault(entry["outcome"], []).append(clause)
    for outcome, clauses in sorted(by_outcome.items()):
        print(f"clauses {outcome}: {', '.join(clauses)}")
    print(
        f"{len(run.results)} checks, {run.duration_s:.1f} s; "
        + ", ".join(f"{name} {seconds:.1f}s" for name, seconds in run.durations.items())
    )
    if args.verbose:
        for name in args.probe or PROBES:
            probe = PROBES[name]
            print(f"\n{name}: sees {probe.sees}.\n  blind to {probe.blind_to}.")
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
    return 1 if run.failed() else 0


if __name__ == "__main__":
    sys.exit(main())
