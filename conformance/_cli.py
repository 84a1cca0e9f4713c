"""Command line: ``python -m conformance`` / ``phase6``.

Exit codes: 0 compliant (or, with ``--expected-failures``, nothing unexpected), 1 not
compliant (including adapter broken), 2 usage or harness error.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from conformance._adapters import DEFAULT_TIMEOUT, reference_adapter_spec
from conformance._certify import certify
from conformance._coverage import (
    compute_coverage,
    coverage_json,
    render_coverage_markdown,
    store_vector_pins,
)
from conformance._errors import CorpusError, HarnessError
from conformance._kit import dumps_pretty, kit_version, specs_dir
from conformance._progress import make_progress
from conformance._register_docs import render_clauses_markdown, render_interpretations_markdown
from conformance._registers import load_clauses, load_interpretations
from conformance._report import load_report, render_files, write_report
from conformance._report_compare import render_compare_html, render_compare_markdown
from conformance._results import VerdictValue
from conformance._sections import SECTION_PROVIDERS, parse_section_option
from conformance._select import select_vectors
from conformance._smoke import smoke
from conformance._vectors import Corpus, load_corpus

__all__ = ["main"]

EXIT_OK, EXIT_NON_COMPLIANT, EXIT_USAGE = 0, 1, 2


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be >= 0, got {value}")
    return value


def _positive_float(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be > 0, got {text!r}")
    return value


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="phase6",
        description="Certify implementations of SPEC-006 memory.read (contract phase6-v1).",
        epilog="Exit codes: 0 compliant, 1 not compliant, 2 usage or harness error.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {kit_version()}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    adapter_help = (
        "implementation under test: 'python:package.module:callable' or 'cmd:<command line>' "
        "(default: the bundled reference, 'cmd:python -m reference serve')"
    )
    certify_p = commands.add_parser("certify", help="certify an implementation, write its report")
    certify_p.add_argument("--adapter", help=adapter_help)
    certify_p.add_argument(
        "--select",
        action="append",
        default=[],
        metavar="PATTERN",
        help="run only matching vectors: id:GLOB, clause:GLOB, interp:GLOB, area:NAME, "
        "level:NAME, or a bare ID glob / clause / INT-nn / area / level (repeatable)",
    )
    certify_p.add_argument(
        "--expected-failures",
        type=Path,
        metavar="FILE",
        help="known failures, '<vector id>  # reason' per line; the exit code then says whether "
        "anything unexpected happened",
    )
    certify_p.add_argument(
        "--jobs", "-j", type=_positive_int, default=None, help="worker processes (default: CPUs)"
    )
    certify_p.add_argument(
        "--timeout", type=_positive_float, default=DEFAULT_TIMEOUT, help="seconds per request"
    )
    certify_p.add_argument(
        "--report-dir", type=Path, help="where to write the report (default reports/<name>/)"
    )
    certify_p.add_argument("--no-report", action="store_true", help="write no report files")
    certify_p.add_argument("--vectors", type=Path, help="corpus directory (default: the kit's)")
    certify_p.add_argument(
        "--repeat", type=_positive_int, default=2, help="runs per vector in one process (>= 1)"
    )
    certify_p.add_argument(
        "--fresh-every",
        type=_positive_int,
        default=20,
        help="also run every Nth vector (by ID) in a fresh process; 0 = never",
    )
    certify_p.add_argument(
        "--validate-protocol", action="store_true", help="validate every message against its schema"
    )
    certify_p.add_argument(
        "--section",
        action="append",
        default=[],
        metavar="NAME=MODULE:CALLABLE",
        help="add a report section provider (repeatable)",
    )
    certify_p.add_argument(
        "--no-sections", action="store_true", help="run no section providers (vectors only)"
    )
    certify_p.add_argument(
        "--section-option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="an option passed to every section provider (e.g. seed=0, deep=1)",
    )
    certify_p.add_argument(
        "--temp-dir",
        metavar="DIR",
        help="where vector roots are materialized (default: $PHASE6_TMPDIR, /dev/shm or the "
        "system temp directory)",
    )
    certify_p.add_argument("--quiet", "-q", action="store_true", help="no progress output")

    smoke_p = commands.add_parser("smoke", help="handshake + a handful of vectors, plainly told")
    smoke_p.add_argument("--adapter", help=adapter_help)
    smoke_p.add_argument("--count", type=_positive_int, default=5, help="vectors to run")
    smoke_p.add_argument(
        "--timeout", type=_positive_float, default=DEFAULT_TIMEOUT, help="seconds per request"
    )
    smoke_p.add_argument("--vectors", type=Path, help="corpus directory (default: the kit's)")

    report_p = commands.add_parser("report", help="re-render md/html/junit/badge from report.json")
    report_p.add_argument("report", type=Path, help="a report.json (or its directory)")
    report_p.add_argument("--out", type=Path, help="output directory (default: beside it)")

    compare_p = commands.add_parser("compare", help="several reports side by side")
    compare_p.add_argument("reports", type=Path, nargs="+", help="report.json files or directories")
    compare_p.add_argument("--out", type=Path, help="write compare.md and compare.html here")
    compare_p.add_argument(
        "--all", action="store_true", help="list every vector, not only differences"
    )

    store_p = commands.add_parser(
        "store", add_help=False, help="SPEC-005 store tools: 'store check PATH...', 'store codes'"
    )
    store_p.add_argument("store_args", nargs=argparse.REMAINDER)
    vectors_p = commands.add_parser("vectors", help="list, show and check the corpus")
    vectors_p.add_argument("--vectors", type=Path, help="corpus directory (default: the kit's)")
    vectors_p.add_argument(
        "--specs", type=Path, help="specs directory with the registers (default: the kit's)"
    )
    vector_commands = vectors_p.add_subparsers(
        dest="vectors_command", required=True, metavar="ACTION"
    )
    list_p = vector_commands.add_parser("list", help="one line per vector")
    list_p.add_argument("--select", action="append", default=[], metavar="PATTERN")
    show_p = vector_commands.add_parser("show", help="print one vector as JSON")
    show_p.add_argument("id")
    vector_commands.add_parser("check", help="schema, ID uniqueness and register references")
    coverage_p = vector_commands.add_parser(
        "coverage", help="write specs/coverage.{md,json}; exit 1 on any coverage gap"
    )
    coverage_p.add_argument(
        "--check", action="store_true", help="write nothing; also fail if the files are out of date"
    )
    coverage_p.add_argument("--no-write", action="store_true", help="print only")
    return parser


# ------------------------------------------------------------------------------ commands


def _cmd_certify(args: argparse.Namespace, out: TextIO) -> int:
    sections: dict[str, str] | None
    if args.no_sections:
        sections = {}
    elif args.section:
        sections = {**SECTION_PROVIDERS, **dict(parse_section_option(s) for s in args.section)}
    else:
        sections = None
    options = dict(o.partition("=")[::2] for o in args.section_option)
    adapter = args.adapter or reference_adapter_spec()
    progress = make_progress(quiet=args.quiet)
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
        progress=progress,
        temp_dir=args.temp_dir,
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
    return EXIT_NON_COMPLIANT


def _corpus(args: argparse.Namespace) -> Corpus:
    return load_corpus(args.vectors)


def _cmd_smoke(args: argparse.Namespace, out: TextIO) -> int:
    adapter = args.adapter or reference_adapter_spec()
    return smoke(adapter, _corpus(args), out, count=max(1, args.count), timeout=args.timeout)


def _cmd_report(args: argparse.Namespace, out: TextIO) -> int:
    report = load_report(args.report)
    source = args.report if args.report.is_dir() else args.report.parent
    written = render_files(report, args.out or source)
    for path in written.values():
        out.write(f"wrote {path}\n")
    return EXIT_OK


def _cmd_compare(args: argparse.Namespace, out: TextIO) -> int:
    reports = [load_report(p) for p in args.reports]
    markdown = render_compare_markdown(reports, all_vectors=args.all)
    if args.out is None:
        out.write(markdown)
        return EXIT_OK
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "compare.md").write_text(markdown, "utf-8")
    (args.out / "compare.html").write_text(
        render_compare_html(reports, all_vectors=args.all), "utf-8"
    )
    out.write(f"wrote {args.out / 'compare.md'} and {args.out / 'compare.html'}\n")
    return EXIT_OK


def _cmd_vectors(args: argparse.Namespace, out: TextIO) -> int:
    action = args.vectors_command
    if action == "check":
        try:
            corpus = _corpus(args)
        except CorpusError as exc:
            out.write(f"corpus invalid: {exc}\n")
            return EXIT_NON_COMPLIANT
        problems = _reference_problems(corpus, args.specs or specs_dir())
        out.write(f"{len(corpus.files)} files, {len(corpus)} vectors, digest {corpus.digest}\n")
        for path, kind in corpus.foreign:
            out.write(f"not a vector file, passed over: {path} ({kind})\n")
        for problem in problems:
            out.write(f"problem: {problem}\n")
        return EXIT_NON_COMPLIANT if problems else EXIT_OK
    corpus = _corpus(args)
    if action == "list":
        for vector in select_vectors(corpus.vectors, args.select):
            out.write(
                f"{vector.id}\t{vector.area}\t{vector.level}\t{','.join(vector.clauses)}\t"
                f"{vector.description}\n"
            )
        return EXIT_OK
    if action == "show":
        if args.id not in corpus:
            raise HarnessError(f"no vector with id {args.id!r}")
        vector = corpus.get(args.id)
        out.write(f"// {vector.file}\n{dumps_pretty(vector.to_json())}\n")
        return EXIT_OK
    return _cmd_coverage(args, corpus, out)


def _reference_problems(corpus: Corpus, specs: Path) -> list[str]:
    clauses = {c.id for c in load_clauses(specs / "clauses.toml")}
    interpretations = {i.id for i in load_interpretations(specs / "interpretations.toml")}
    problems = []
    for vector in corpus.vectors:
        unknown = [c for c in vector.clauses if c not in clauses]
        unknown += [i for i in vector.interpretations if i not in interpretations]
        if unknown:
            problems.append(f"{vector.id} ({vector.file}) names unknown IDs {', '.join(unknown)}")
    return problems


def _cmd_coverage(args: argparse.Namespace, corpus: Corpus, out: TextIO) -> int:
    specs = args.specs or specs_dir()
    coverage = compute_coverage(
        corpus,
        load_clauses(specs / "clauses.toml"),
        load_interpretations(specs / "interpretations.toml"),
        store_vector_pins(corpus.root / "store"),
    )
    markdown = render_coverage_markdown(coverage)
    document = dumps_pretty(coverage_json(coverage)) + "\n"
    targets = {
        specs / "coverage.md": markdown,
        specs / "coverage.json": document,
        specs / "interpretations.md": render_interpretations_markdown(
            specs / "interpretations.toml", coverage
        ),
        specs / "clauses.md": render_clauses_markdown(coverage),
    }
    stale = []
    if args.check:
        for path, text in targets.items():
            current = path.read_text("utf-8") if path.is_file() else None
            if current != text:
                stale.append(f"{path} is out of date: run `python -m conformance vectors coverage`")
    elif not args.no_write:
        for path, text in targets.items():
            path.write_text(text, "utf-8")
            out.write(f"wrote {path}\n")
    covered = sum(c.status != "gap" for c in coverage.clauses)
    out.write(
        f"clauses covered {covered}/{len(coverage.clauses)}, interpretations pinned "
        f"{sum(i.ok for i in coverage.interpretations)}/{len(coverage.interpretations)}, "
        f"{len(corpus)} vectors\n"
    )
    for problem in (*coverage.problems, *stale):
        out.write(f"problem: {problem}\n")
    return EXIT_NON_COMPLIANT if coverage.problems or stale else EXIT_OK


def _cmd_store(args: argparse.Namespace, out: TextIO) -> int:
    from conformance.store import main as store_main

    return store_main(args.store_args, stdout=out)


_COMMANDS = {
    "store": _cmd_store,
    "certify": _cmd_certify,
    "smoke": _cmd_smoke,
    "report": _cmd_report,
    "compare": _cmd_compare,
    "vectors": _cmd_vectors,
}


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the CLI; returns the exit code."""
    out = out or sys.stdout
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse: --help (0) or a usage error (2)
        return int(exc.code or 0)
    try:
        return _COMMANDS[args.command](args, out)
    except HarnessError as exc:
        sys.stderr.write(f"phase6: error: {exc}\n")
        return EXIT_USAGE
    except BrokenPipeError:  # `phase6 vectors list | head`
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
