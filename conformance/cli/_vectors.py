"""``phase6 vectors``: list, show and check the corpus; write the coverage table and the
rendered registers."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TextIO

from conformance._errors import CorpusError, HarnessError
from conformance._kit import dumps_pretty, specs_dir
from conformance.cli._common import EXIT_FAILED, EXIT_OK, Subparsers
from conformance.corpus import Corpus, load_corpus, select_vectors
from conformance.registers import (
    compute_coverage,
    coverage_json,
    load_clauses,
    load_interpretations,
    render_clauses_markdown,
    render_coverage_markdown,
    render_interpretations_markdown,
    store_vector_pins,
)

__all__ = ["register"]


def register(commands: Subparsers) -> None:
    """Add ``vectors`` with its actions."""
    parser = commands.add_parser(
        "vectors",
        help="list, show and check the corpus",
        description="List, show and check the vector corpus; write specs/coverage.* and the "
        "rendered registers.",
    )
    parser.add_argument("--vectors", type=Path, help="corpus directory (default: the kit's)")
    parser.add_argument(
        "--specs", type=Path, help="specs directory with the registers (default: the kit's)"
    )
    actions = parser.add_subparsers(dest="vectors_command", required=True, metavar="ACTION")
    listing = actions.add_parser("list", help="one line per vector")
    listing.add_argument("--select", action="append", default=[], metavar="PATTERN")
    listing.set_defaults(handler=_list)
    show = actions.add_parser("show", help="print one vector as JSON")
    show.add_argument("id")
    show.set_defaults(handler=_show)
    check = actions.add_parser("check", help="schema, ID uniqueness and register references")
    check.set_defaults(handler=_check)
    coverage = actions.add_parser(
        "coverage",
        help="write specs/coverage.{md,json} and the rendered registers; exit 1 on any gap",
    )
    coverage.add_argument(
        "--check", action="store_true", help="write nothing; also fail if the files are out of date"
    )
    coverage.add_argument("--no-write", action="store_true", help="print only")
    coverage.set_defaults(handler=_coverage)


def _list(args: argparse.Namespace, out: TextIO) -> int:
    for vector in select_vectors(load_corpus(args.vectors).vectors, args.select):
        out.write(
            f"{vector.id}\t{vector.area}\t{vector.level}\t{','.join(vector.clauses)}\t"
            f"{vector.description}\n"
        )
    return EXIT_OK


def _show(args: argparse.Namespace, out: TextIO) -> int:
    corpus = load_corpus(args.vectors)
    if args.id not in corpus:
        raise HarnessError(f"no vector with id {args.id!r}")
    vector = corpus.get(args.id)
    out.write(f"// {vector.file}\n{dumps_pretty(vector.to_json())}\n")
    return EXIT_OK


def _check(args: argparse.Namespace, out: TextIO) -> int:
    try:
        corpus = load_corpus(args.vectors, cached=False)  # the check validates every file
    except CorpusError as exc:
        out.write(f"corpus invalid: {exc}\n")
        return EXIT_FAILED
    problems = _unknown_register_ids(corpus, args.specs or specs_dir())
    out.write(f"{len(corpus.files)} files, {len(corpus)} vectors, digest {corpus.digest}\n")
    for path, kind in corpus.foreign:
        out.write(f"not a vector file, passed over: {path} ({kind})\n")
    for problem in problems:
        out.write(f"problem: {problem}\n")
    return EXIT_FAILED if problems else EXIT_OK


def _unknown_register_ids(corpus: Corpus, specs: Path) -> list[str]:
    clauses = {c.id for c in load_clauses(specs / "clauses.toml")}
    interpretations = {i.id for i in load_interpretations(specs / "interpretations.toml")}
    problems = []
    for vector in corpus.vectors:
        unknown = [c for c in vector.clauses if c not in clauses]
        unknown += [i for i in vector.interpretations if i not in interpretations]
        if unknown:
            problems.append(f"{vector.id} ({vector.file}) names unknown IDs {', '.join(unknown)}")
    return problems


def _coverage(args: argparse.Namespace, out: TextIO) -> int:
    corpus = load_corpus(args.vectors)
    specs = args.specs or specs_dir()
    coverage = compute_coverage(
        corpus,
        load_clauses(specs / "clauses.toml"),
        load_interpretations(specs / "interpretations.toml"),
        store_vector_pins(corpus.root / "store"),
    )
    targets = {
        specs / "coverage.md": render_coverage_markdown(coverage),
        specs / "coverage.json": dumps_pretty(coverage_json(coverage)) + "\n",
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
    return EXIT_FAILED if coverage.problems or stale else EXIT_OK
