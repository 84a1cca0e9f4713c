"""``python -m conformance.properties``: the property suite alone, for any adapter.

    python -m conformance.properties --adapter "cmd:node impl.js"          # certification run
    python -m conformance.properties --adapter "cmd:node impl.js" --deep   # long fuzzing run

Writes ``reports/<implementation>/properties.json`` (the ``properties`` section as ``certify``
would report it) and, when a property fails, the shrunk counterexamples as a vector file under
``reports/<implementation>/counterexamples/``. Exit codes: 0 every family passed, 1 a family
failed or errored (or the adapter is broken), 2 usage error.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from conformance import DEFAULT_TIMEOUT, HarnessError, reference_adapter_spec
from conformance.properties._engine import (
    DEEP_FACTOR,
    DEFAULT_SEED,
    FamilyResult,
    PropertySettings,
    run_properties,
)
from conformance.properties._families import FAMILIES
from conformance.properties._section import write_properties_report

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m conformance.properties",
        description="Run the SPEC-006 property suite (hypothesis) against an implementation.",
        epilog="Exit codes: 0 all families passed, 1 a family failed or errored, 2 usage error.",
    )
    parser.add_argument(
        "--adapter",
        help="'python:package.module:callable' or 'cmd:<command line>' "
        "(default: the bundled reference through its subprocess entry)",
    )
    parser.add_argument(
        "--deep",
        action="store_true",
        help=f"fuzzing run: {DEEP_FACTOR}x the examples, a fresh seed unless --seed is given",
    )
    parser.add_argument("--seed", type=int, help=f"hypothesis seed (default {DEFAULT_SEED})")
    parser.add_argument("--examples", type=int, help="examples per family (default: per family)")
    parser.add_argument(
        "--family",
        action="append",
        default=[],
        choices=list(FAMILIES),
        help="run only this family (repeatable)",
    )
    parser.add_argument(
        "--timeout", type=float, default=DEFAULT_TIMEOUT, help="seconds per request"
    )
    parser.add_argument(
        "--report-dir", type=Path, help="where to write (default reports/<implementation>/)"
    )
    parser.add_argument("--no-report", action="store_true", help="write no files")
    parser.add_argument("--quiet", "-q", action="store_true", help="print only the summary")
    return parser


def _line(result: FamilyResult) -> str:
    text = f"{result.id:24s} {result.outcome:8s} {result.calls:6d} calls {result.duration_s:6.1f} s"
    if result.outcome != "passed":
        text += f"\n    [{result.check}] {', '.join(result.failed_clauses)}: {result.message}"
        for vector in result.counterexamples:
            text += f"\n    counterexample vector: {vector['id']}"
    return text


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the CLI; returns the exit code."""
    out = out or sys.stdout
    try:
        args = _parser().parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    settings = PropertySettings(
        seed=args.seed if args.seed is not None else (None if args.deep else DEFAULT_SEED),
        examples=args.examples,
        deep=args.deep,
        families=tuple(args.family),
        timeout=args.timeout,
    ).resolved()
    spec = args.adapter or reference_adapter_spec()
    out.write(f"property suite: {spec} (seed {settings.seed}{', deep' if args.deep else ''})\n")

    def report(result: FamilyResult) -> None:
        if not args.quiet:
            out.write(_line(result) + "\n")
            out.flush()

    try:
        run = run_properties(spec, settings, on_result=report)
        if run.broken is not None:
            out.write(f"adapter broken: {run.broken}\n")
        passed = sum(r.outcome == "passed" for r in run.results)
        out.write(
            f"{passed}/{len(run.results)} families passed in {run.duration_s:.1f} s; "
            f"{len(run.counterexamples)} counterexample vector(s)\n"
        )
        if not args.no_report:
            target = write_properties_report(run, args.report_dir)
            out.write(f"report: {target}\n")
    except HarnessError as exc:
        sys.stderr.write(f"properties: error: {exc}\n")
        return 2
    return 0 if run.passed else 1
