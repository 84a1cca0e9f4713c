"""``phase6 report`` and ``phase6 compare``: re-render a report; put several side by side."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TextIO

from conformance._kit import write_atomic
from conformance.cli._common import EXIT_OK, Subparsers
from conformance.report import (
    load_report,
    render_compare_html,
    render_compare_markdown,
    render_files,
)

__all__ = ["register"]


def register(commands: Subparsers) -> None:
    """Add ``report`` and ``compare``."""
    parser = commands.add_parser(
        "report",
        help="re-render md/html/junit/badge from report.json",
        description="Re-render report.md, report.html, junit.xml and badge.svg from a report.json.",
    )
    parser.add_argument("report", type=Path, help="a report.json (or its directory)")
    parser.add_argument("--out", type=Path, help="output directory (default: beside it)")
    parser.set_defaults(handler=_report)

    compare = commands.add_parser(
        "compare",
        help="several reports side by side",
        description="Put several reports side by side (markdown on stdout, or md + html files).",
    )
    compare.add_argument("reports", type=Path, nargs="+", help="report.json files or directories")
    compare.add_argument("--out", type=Path, help="write compare.md and compare.html here")
    compare.add_argument(
        "--all", action="store_true", help="list every vector, not only differences"
    )
    compare.set_defaults(handler=_compare)


def _report(args: argparse.Namespace, out: TextIO) -> int:
    report = load_report(args.report)
    source = args.report if args.report.is_dir() else args.report.parent
    written = render_files(report, args.out or source)
    for path in written.values():
        out.write(f"wrote {path}\n")
    return EXIT_OK


def _compare(args: argparse.Namespace, out: TextIO) -> int:
    reports = [load_report(p) for p in args.reports]
    markdown = render_compare_markdown(reports, all_vectors=args.all)
    if args.out is None:
        out.write(markdown)
        return EXIT_OK
    args.out.mkdir(parents=True, exist_ok=True)
    write_atomic(args.out, "compare.md", markdown.encode("utf-8"))
    html = render_compare_html(reports, all_vectors=args.all)
    write_atomic(args.out, "compare.html", html.encode("utf-8"))
    out.write(f"wrote {args.out / 'compare.md'} and {args.out / 'compare.html'}\n")
    return EXIT_OK
