"""``phase6 site collect`` and ``phase6 site build``: the interoperability site.

``collect`` certifies one implementation through ``phase6 certify`` (every argument after ``--``
goes to it), or takes an existing report (``--report``), and keeps its report with its metadata
in a collection directory; ``build`` combines any number of reports (files, report directories,
collections) into a static site (:mod:`conformance.site`).
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path
from typing import TextIO

from conformance._errors import UsageError
from conformance._kit import one_line
from conformance.cli import _certify
from conformance.cli._common import EXIT_OK, EXIT_USAGE, Subparsers, bounded_int
from conformance.site import build_site, collect_report

__all__ = ["register"]


def register(commands: Subparsers) -> None:
    """Add ``site`` with ``collect`` and ``build``."""
    site = commands.add_parser(
        "site",
        help="the interoperability site: collect reports, build the static site",
        description="Collect certifications of many implementations and versions; build a "
        "static site (works from file://) with a JSON API and badges.",
    )
    actions = site.add_subparsers(dest="site_command", required=True, metavar="ACTION")
    collect = actions.add_parser(
        "collect",
        help="certify one implementation (or take its report) into a collection",
        description="Certify one implementation (arguments after -- go to 'phase6 certify') or "
        "take an existing report (--report), and keep report.json with meta.json in "
        "COLLECTION/<implementation>/<version>/.",
    )
    collect.add_argument("collection", type=Path, help="the collection directory")
    collect.add_argument(
        "--report", type=Path, help="an existing report.json (or its directory): no certification"
    )
    collect.add_argument(
        "certify_args",
        nargs="*",
        metavar="CERTIFY-ARG",
        help="arguments of 'phase6 certify' (e.g. -- --adapter 'cmd:...')",
    )
    collect.set_defaults(handler=_collect)
    build = actions.add_parser(
        "build",
        help="combine reports into the static site",
        description="Combine report.json files (or directories holding them, e.g. a "
        "collection) of several versions of each implementation into a static site.",
    )
    build.add_argument("reports", type=Path, nargs="+", help="report.json files or directories")
    build.add_argument("--out", type=Path, required=True, help="the site's directory")
    build.add_argument(
        "--history", type=Path, action="append", default=[], help="earlier reports (repeatable)"
    )
    build.add_argument(
        "--jobs", "-j", type=bounded_int(1, 64), default=None, help="worker processes"
    )
    build.set_defaults(handler=_build)


def _collect(args: argparse.Namespace, out: TextIO) -> int:
    certify_args: list[str] = args.certify_args
    if args.report is not None:
        if certify_args:
            raise UsageError("--report takes an existing report: no certify arguments")
        collected = collect_report(args.report, args.collection)
    else:
        with tempfile.TemporaryDirectory(prefix="phase6-collect-") as scratch:
            certify = _certify.parse_certify([*certify_args, "--report-dir", scratch])
            code: int = certify.handler(certify, out)
            if code == EXIT_USAGE or not (Path(scratch) / "report.json").is_file():
                return EXIT_USAGE
            collected = collect_report(Path(scratch), args.collection)
    out.write(
        f"collected {collected.implementation} {collected.version} ({collected.verdict}) "
        f"into {collected.directory}\n"
    )
    return EXIT_OK


def _build(args: argparse.Namespace, out: TextIO) -> int:
    built = build_site(args.reports, args.out, history=args.history, jobs=args.jobs)
    for aside in built.set_aside:
        run = aside.run
        out.write(
            f"set aside {one_line(run.source)} ({one_line(run.name)} "
            f"{one_line(run.version)}): {one_line(aside.reason)}; kept "
            f"{one_line(aside.kept.source)}\n"
        )
    out.write(
        f"built {built.out}: {built.implementations} implementation(s), {built.runs} report(s), "
        f"{built.files} files in {built.duration_s:.1f} s; open {built.out / 'index.html'}\n"
    )
    return EXIT_OK
