"""``python -m tools.mutants``: certify every mutant and write the kill matrix.

    python -m tools.mutants [--jobs N] [--full] [--only NAME ...] [--out DIR]
    python -m tools.mutants --list
    python -m tools.mutants --anchors         # every source patch still applies

Writes the run's ``kill-matrix.json`` and ``kill-matrix.md`` to ``reports/mutants/`` (git-ignored,
or ``--out``) and prints the matrix. Before anything runs, every source patch is applied to the
current reference: an anchor that does not occur exactly once fails the run, naming the mutant,
the file and the anchor (``--anchors`` does only that). ``--check`` also fails when the
published matrix (``specs/kill-matrix.{json,md}``, read by every report's ``suite_strength``
section) differs from this run's reproducible projection; ``--write`` rewrites it. Exit status:
0 every mutant killed (and, with ``--check``, the published matrix current), 1 otherwise, 2 usage
error.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from conformance import __version__ as KIT_VERSION
from conformance import load_corpus
from conformance._kit import specs_dir
from tools.mutants import MUTANTS
from tools.mutants._kill import MutantOutcome, kill_all
from tools.mutants._matrix import (
    build_matrix,
    published,
    render_markdown,
    render_table,
    write_matrix,
)
from tools.mutants._patch import anchor_problems

ROOT = Path(__file__).resolve().parents[2]
PUBLISHED = specs_dir() / "kill-matrix.json"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m tools.mutants",
        description="Certify every mutant of the gallery and print the kill matrix.",
        epilog="Exit status: 0 all mutants killed, 1 a survivor or a broken mutant, 2 usage.",
    )
    parser.add_argument(
        "--jobs", "-j", type=int, default=os.cpu_count() or 1, help="mutants in parallel"
    )
    parser.add_argument(
        "--full", action="store_true",
        help="run every vector and probe against every mutant (default: stop after the phase "
        "that killed it)",
    )  # fmt: skip
    parser.add_argument("--only", action="append", choices=sorted(MUTANTS), metavar="NAME",
                        help="certify only this mutant (repeatable)")  # fmt: skip
    parser.add_argument("--no-probes", action="store_true", help="vectors only")
    parser.add_argument("--timeout", type=float, default=20.0, help="seconds per request")
    parser.add_argument(
        "--out", type=Path, default=Path("reports/mutants"), help="output directory"
    )
    parser.add_argument("--list", action="store_true", help="list the mutants and exit")
    parser.add_argument(
        "--anchors", action="store_true", help="only check that every source patch applies"
    )
    publish = parser.add_mutually_exclusive_group()
    publish.add_argument(
        "--check",
        action="store_true",
        help="fail if the published matrix (specs/kill-matrix.json) differs from this run's",
    )
    publish.add_argument(
        "--write", action="store_true", help="rewrite the published matrix from this run"
    )
    return parser


def _list() -> None:
    for mutant in MUTANTS.values():
        violates = ", ".join([*mutant.clauses, *mutant.interpretations])
        change = mutant.patch
        form = "wrapper" if change is None else f"patch reference/{change.file}"
        print(f"{mutant.name:42} {mutant.stage:10} {violates}\n{'':42} {form}: {mutant.summary}")


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point."""
    args = _parser().parse_args(argv)
    if args.list:
        _list()
        return 0
    names = args.only or list(MUTANTS)
    problems = anchor_problems([MUTANTS[name] for name in names])
    for problem in problems:
        print(f"MUTANT DOES NOT APPLY: {problem}", file=sys.stderr)
    if problems or args.anchors:
        if not problems:
            print(f"all {len(names)} mutants apply to the current reference")
        return 1 if problems else 0
    corpus = load_corpus()
    print(f"certifying {len(names)} mutants against {len(corpus)} vectors, {args.jobs} at a time")
    started = time.perf_counter()

    def progress(outcome: MutantOutcome) -> None:
        mark = {"killed": "x", "survived": "S", "broken": "B"}[outcome.status]
        print(f"  [{mark}] {outcome.name} ({outcome.duration_s:.1f}s)", flush=True)

    outcomes = kill_all(
        names,
        jobs=max(1, args.jobs),
        on_done=progress,
        fast=not args.full,
        timeout=args.timeout,
        probes=not args.no_probes,
    )
    from conformance.probes import tool_report

    matrix = build_matrix(
        outcomes,
        corpus_digest=corpus.digest,
        corpus_vectors=len(corpus),
        mode="full" if args.full else "fast",
        duration_s=time.perf_counter() - started,
        tools=tool_report(),
        kit_version=str(KIT_VERSION),
    )
    json_path, md_path = write_matrix(matrix, args.out)
    whole = not args.only
    stale = _publish(published(matrix), check=args.check and whole, write=args.write and whole)
    print()
    print(render_table(matrix))
    totals = matrix["totals"]
    print(
        f"\n{totals['killed']}/{totals['mutants']} killed ({totals['kill_rate']:.1%}), "
        f"{totals['killed_on_target']} on target, {totals['survived']} survived, "
        f"{totals['broken']} broken; {matrix['duration_s']} s"
    )
    if matrix["survivors"]:
        print("SURVIVORS: " + ", ".join(matrix["survivors"]))
    print(f"wrote {json_path} and {md_path}")
    if stale:
        print(f"{PUBLISHED.relative_to(ROOT)} is stale: run `nox -s mutants -- --write`")
        return 1
    return 0 if totals["killed"] == totals["mutants"] else 1


def _publish(document: dict[str, Any], *, check: bool, write: bool) -> bool:
    """Check or rewrite the published matrix; whether it is stale (in check mode)."""
    text = json.dumps(document, indent=1, ensure_ascii=False) + "\n"
    if write:
        PUBLISHED.write_text(text, "utf-8")
        PUBLISHED.with_suffix(".md").write_text(render_markdown(document), "utf-8")
        print(f"wrote {PUBLISHED.relative_to(ROOT)} and its .md")
        return False
    if check:
        current = PUBLISHED.read_text("utf-8") if PUBLISHED.is_file() else None
        markdown = PUBLISHED.with_suffix(".md")
        current_md = markdown.read_text("utf-8") if markdown.is_file() else None
        return current != text or current_md != render_markdown(document)
    return False


if __name__ == "__main__":
    sys.exit(main())
