"""``phase6 certify`` and ``phase6 smoke``: certify an implementation; check an adapter quickly."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TextIO

from conformance._errors import UsageError
from conformance.adapters import DEFAULT_MAX_LINE_BYTES, DEFAULT_TIMEOUT, reference_adapter_spec
from conformance.cli._common import (
    ADAPTER_HELP,
    EXIT_FAILED,
    EXIT_OK,
    EXIT_USAGE,
    MAX_JOBS,
    MAX_REPEAT,
    Subparsers,
    bounded_int,
    byte_size,
    check_adapter_spec,
    check_paths,
    non_negative_int,
    positive_float,
)
from conformance.corpus import load_corpus
from conformance.report import write_report
from conformance.run import (
    SECTION_PROVIDERS,
    VerdictValue,
    certify,
    make_progress,
    parse_section_option,
    smoke,
)

__all__ = ["register"]


def register(commands: Subparsers) -> None:
    """Add ``certify`` and ``smoke``."""
    parser = commands.add_parser(
        "certify",
        help="certify an implementation, write its report",
        description="Run the corpus (and the properties, probes and suite-strength sections) "
        "against an implementation and write its compliance report.",
        epilog="Exit codes: 0 compliant (or, with --expected-failures, nothing unexpected), "
        "1 not compliant, 2 usage or harness error.",
    )
    parser.add_argument("--adapter", help=ADAPTER_HELP)
    parser.add_argument(
        "--select",
        action="append",
        default=[],
        metavar="PATTERN",
        help="run only matching vectors: id:GLOB, clause:GLOB, interp:GLOB, area:NAME, "
        "level:NAME, or a bare ID glob / clause / INT-nn / area / level (repeatable)",
    )
    parser.add_argument(
        "--expected-failures",
        type=Path,
        metavar="FILE",
        help="known failures, '<vector id>  # reason' per line; the exit code then says whether "
        "anything unexpected happened",
    )
    parser.add_argument(
        "--jobs",
        "-j",
        type=bounded_int(0, MAX_JOBS),
        default=None,
        help="worker processes (default: CPUs)",
    )
    parser.add_argument(
        "--timeout", type=positive_float, default=DEFAULT_TIMEOUT, help="seconds per request"
    )
    parser.add_argument(
        "--report-dir", type=Path, help="where to write the report (default reports/<name>/)"
    )
    parser.add_argument("--no-report", action="store_true", help="write no report files")
    parser.add_argument("--vectors", type=Path, help="corpus directory (default: the kit's)")
    parser.add_argument(
        "--repeat",
        type=bounded_int(0, MAX_REPEAT),
        default=2,
        help="runs per vector in one process (>= 1)",
    )
    parser.add_argument(
        "--fresh-every",
        type=non_negative_int,
        default=20,
        help="also run every Nth vector (by ID) in a fresh process; 0 = never",
    )
    parser.add_argument(
        "--validate-protocol", action="store_true", help="validate every message against its schema"
    )
    parser.add_argument(
        "--section",
        action="append",
        default=[],
        metavar="NAME=MODULE:CALLABLE",
        help="add a report section provider (repeatable)",
    )
    parser.add_argument(
        "--no-sections", action="store_true", help="run no section providers (vectors only)"
    )
    parser.add_argument(
        "--section-option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="an option passed to every section provider (e.g. seed=0, deep=1)",
    )
    parser.add_argument(
        "--temp-dir",
        metavar="DIR",
        help="where vector roots are materialized (default: $PHASE6_TMPDIR, /dev/shm or the "
        "system temp directory)",
    )
    parser.add_argument(
        "--max-line-bytes",
        type=byte_size,
        default=DEFAULT_MAX_LINE_BYTES,
        metavar="SIZE",
        help="longest protocol line (reply) accepted from the adapter, e.g. 64M; longer is a "
        "protocol error (default: %(default)s bytes)",
    )
    parser.add_argument(
        "--max-consecutive-failures",
        type=non_negative_int,
        default=10,
        metavar="N",
        help="stop the run as 'adapter broken' after N vectors in a row timed out or crashed "
        "(0: never; default: %(default)s)",
    )
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress output")
    parser.set_defaults(handler=_certify)

    smoke_parser = commands.add_parser(
        "smoke",
        help="handshake + a handful of vectors, plainly told",
        description="Check an adapter quickly: it says 'adapter broken' plainly when nothing "
        "works, and prints the first difference with a command that reproduces it.",
    )
    smoke_parser.add_argument("--adapter", help=ADAPTER_HELP)
    smoke_parser.add_argument(
        "--count", type=bounded_int(0, 10_000), default=5, help="vectors to run"
    )
    smoke_parser.add_argument(
        "--timeout", type=positive_float, default=DEFAULT_TIMEOUT, help="seconds per request"
    )
    smoke_parser.add_argument("--vectors", type=Path, help="corpus directory (default: the kit's)")
    smoke_parser.set_defaults(handler=_smoke)


def _check(args: argparse.Namespace) -> None:
    """Everything about the arguments that can be checked before the run, checked."""
    check_adapter_spec(args.adapter)
    check_paths(
        directories=[("--vectors", args.vectors), ("--temp-dir", args.temp_dir)],
        writable=[("--temp-dir", args.temp_dir)]
        + ([] if args.no_report else [("--report-dir", args.report_dir)]),
        files=[("--expected-failures", args.expected_failures)],
    )
    for option in args.section_option:
        if "=" not in option or not option.partition("=")[0]:
            raise UsageError(f"--section-option {option!r}: expected KEY=VALUE")


def _certify(args: argparse.Namespace, out: TextIO) -> int:
    _check(args)
    sections: dict[str, str] | None
    if args.no_sections:
        sections = {}
    elif args.section:
        sections = {**SECTION_PROVIDERS, **dict(parse_section_option(s) for s in args.section)}
    else:
        sections = None
    options = dict(o.partition("=")[::2] for o in args.section_option)
    adapter = args.adapter or reference_adapter_spec()
    result = certify(
        adapter,
        vectors_dir=args.vectors,
        select=args.select,
        expected_failures=args.expected_failures,
        jobs=args.jobs,
        timeout=args.timeout,
        repeat=max(1, args.repeat),
        fresh_every=args.fresh_every,
        validate_protocol=args.validate_protocol,
        sections=sections,
        section_options=options,
        report_dir=args.report_dir,
        progress=make_progress(quiet=args.quiet),
        temp_dir=args.temp_dir,
        max_line_bytes=args.max_line_bytes,
        max_consecutive_failures=args.max_consecutive_failures,
    )
    totals = result.totals
    verdict = result.verdict
    out.write(
        f"{result.implementation_name}: {totals.passed}/{totals.total} passed, "
        f"{totals.failed} failed, {totals.errored} errored, {totals.skipped} skipped, "
        f"{totals.expected_failure} expected failures, {totals.unexpected_pass} unexpected passes "
        f"({result.duration_s:.1f} s)\n"
    )
    for entry in result.stale_expected_failures:
        out.write(
            f"stale expected-failure entry (line {entry.line}): "
            f"{entry.pattern!r} matches no vector\n"
        )
    out.write(f"verdict: {verdict.value} — {verdict.text}\n")
    if not args.no_report:
        written = write_report(result, args.report_dir)
        out.write(f"report: {written['report.json'].parent}/\n")
    if result.interrupted:
        return EXIT_USAGE
    if verdict.value is VerdictValue.COMPLIANT:
        return EXIT_OK
    if result.expected_failures_file is not None and result.clean:
        out.write("every failure is a listed expected failure: exit 0 (not compliant)\n")
        return EXIT_OK
    return EXIT_FAILED


def _smoke(args: argparse.Namespace, out: TextIO) -> int:
    check_adapter_spec(args.adapter)
    check_paths(directories=[("--vectors", args.vectors)])
    adapter = args.adapter or reference_adapter_spec()
    corpus = load_corpus(args.vectors)
    return smoke(adapter, corpus, out, count=max(1, args.count), timeout=args.timeout)
