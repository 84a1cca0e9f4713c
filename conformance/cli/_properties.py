"""``phase6 properties``: the property suite alone, for any adapter.

    phase6 properties --adapter "cmd:node impl.js"          # certification run
    phase6 properties --adapter "cmd:node impl.js" --deep   # long fuzzing run

Writes ``reports/<implementation>/properties.json`` (the ``properties`` section as ``certify``
would report it) and, when a property fails, the shrunk counterexamples as a vector file under
``reports/<implementation>/counterexamples/``.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TextIO

from conformance._errors import HarnessError
from conformance._kit import one_line
from conformance.adapters import DEFAULT_TIMEOUT, reference_adapter_spec
from conformance.cli._common import (
    ADAPTER_HELP,
    EXIT_FAILED,
    EXIT_OK,
    EXIT_USAGE,
    MAX_JOBS,
    Subparsers,
    bounded_int,
    check_adapter_spec,
    positive_float,
)
from conformance.properties import (
    DEEP_FACTOR,
    DEFAULT_SEED,
    FAMILIES,
    FamilyResult,
    PropertySettings,
    examples_source,
    run_properties,
    write_properties_report,
)

__all__ = ["register"]


def register(commands: Subparsers) -> None:
    """Add ``properties``."""
    parser = commands.add_parser(
        "properties",
        help="the hypothesis property suite against an implementation",
        description="Run the SPEC-006 property suite (hypothesis) against an implementation.",
        epilog="Exit codes: 0 all families passed, 1 a family failed or errored, 2 usage error.",
    )
    parser.add_argument("--adapter", help=ADAPTER_HELP)
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
        "--timeout", type=positive_float, default=DEFAULT_TIMEOUT, help="seconds per request"
    )
    parser.add_argument(
        "--jobs",
        "-j",
        type=bounded_int(1, MAX_JOBS),
        default=None,
        help="worker processes, each with its own adapter (default: CPUs; 1: serial)",
    )
    parser.add_argument(
        "--report-dir", type=Path, help="where to write (default reports/<implementation>/)"
    )
    parser.add_argument("--no-report", action="store_true", help="write no files")
    parser.add_argument("--quiet", "-q", action="store_true", help="print only the summary")
    parser.set_defaults(handler=_properties)


def _line(result: FamilyResult) -> str:
    text = f"{result.id:24s} {result.outcome:8s} {result.calls:6d} calls {result.duration_s:6.1f} s"
    if result.outcome != "passed":
        if result.level == "pinned":
            text += f"  (only pinned readings: differs on {', '.join(result.differs_on)})"
        message = one_line(result.message)[:600]
        text += f"\n    [{result.check}] {', '.join(result.failed_clauses)}: {message}"
        for vector in result.counterexamples:
            text += f"\n    counterexample vector: {vector['id']}"
    return text


def _jobs(requested: int | None) -> int:
    return requested if requested is not None else (os.cpu_count() or 1)


def _properties(args: argparse.Namespace, out: TextIO) -> int:
    check_adapter_spec(args.adapter)
    settings = PropertySettings(
        seed=args.seed if args.seed is not None else (None if args.deep else DEFAULT_SEED),
        examples=args.examples,
        deep=args.deep,
        families=tuple(args.family),
        timeout=args.timeout,
    ).resolved()
    spec = args.adapter or reference_adapter_spec()
    source = examples_source(seed=settings.seed, examples=settings.examples, deep=settings.deep)
    out.write(
        f"property suite: {spec} (seed {settings.seed}{', deep' if args.deep else ''}, "
        f"{source.label})\n"
    )
    if not source.stored and not args.deep and args.seed is None and args.examples is None:
        out.write(f"  examples generated live: {source.reason}\n")

    def report(result: FamilyResult) -> None:
        if not args.quiet:
            out.write(_line(result) + "\n")
            out.flush()

    try:
        run = run_properties(spec, settings, on_result=report, jobs=_jobs(args.jobs))
        if run.broken is not None:
            out.write(f"adapter broken: {one_line(run.broken)}\n")
        passed = sum(r.outcome == "passed" for r in run.results)
        out.write(
            f"{passed}/{len(run.results)} families passed in {run.duration_s:.1f} s; "
            f"{len(run.counterexamples)} counterexample vector(s)\n"
        )
        if not args.no_report:
            target = write_properties_report(run, args.report_dir)
            out.write(f"report: {target}\n")
    except HarnessError as exc:
        sys.stderr.write(f"phase6 properties: error: {exc}\n")
        return EXIT_USAGE
    return EXIT_OK if run.passed else EXIT_FAILED
