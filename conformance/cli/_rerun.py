"""``phase6 rerun``: run one vector (or a few) again, alone, and show what differs.

The command a report prints under "reproduce" for every vector that did not pass::

    python -m conformance rerun --adapter "cmd:node impl.js" trust-both-keys-deny

It runs only the named vectors (twice in one process, as ``certify`` does; ``--fresh`` adds a
run in a fresh process), no property, probe or suite-strength section, and writes nothing
unless ``--report-dir`` asks for a (partial) report, so the full report of the last
certification stays as it was. Only the vector files that hold the named IDs are read, so a
rerun takes about as long as starting the implementation.

Exit codes: 0 every vector passed, 1 one did not, 2 usage error (an unknown ID).
"""

from __future__ import annotations

import argparse
import shlex
from pathlib import Path
from typing import TextIO

from conformance._errors import HandshakeError, UsageError
from conformance._kit import one_line, read_bounded, terminal_safe
from conformance._kit import vectors_dir as kit_vectors_dir
from conformance.adapters import DEFAULT_TIMEOUT, open_adapter, reference_adapter_spec
from conformance.cli._common import (
    ADAPTER_HELP,
    EXIT_FAILED,
    EXIT_OK,
    Subparsers,
    non_negative_int,
    positive_float,
    sandbox_limits,
    sandbox_option,
    sandboxed,
)
from conformance.corpus import (
    MAX_VECTOR_FILE_BYTES,
    Vector,
    load_corpus,
    load_vector_file,
    select_vectors,
)
from conformance.report import write_report
from conformance.run import (
    Executor,
    Outcome,
    RunConfig,
    VectorResult,
    certify,
    importable_cwd,
    reproduce_command,
    signature_of,
    with_fresh_process_check,
)

__all__ = ["find_vectors", "register"]

_DIFF_LINES = 60
#: The format line of a Phase 2 vector file (``specs/phase2/vectors-format.md``).
_PHASE2_FORMAT = b'"phase2-context-vectors/1"'


def register(commands: Subparsers) -> None:
    """Add ``rerun``."""
    parser = commands.add_parser(
        "rerun",
        help="run one vector again, alone (no sections, no files written)",
        description="Run the named vectors against an implementation and show the first "
        "difference, the diff and the error for each. No section runs and nothing is written "
        "unless --report-dir is given: the last full report stays intact.",
        epilog="Exit codes: 0 every vector passed, 1 a vector did not pass, 2 usage error.",
    )
    parser.add_argument("ids", nargs="+", metavar="VECTOR_ID", help="vector IDs (globs allowed)")
    parser.add_argument("--adapter", help=ADAPTER_HELP)
    parser.add_argument("--vectors", type=Path, help="corpus directory (default: the kit's)")
    parser.add_argument(
        "--timeout", type=positive_float, default=DEFAULT_TIMEOUT, help="seconds per request"
    )
    parser.add_argument(
        "--repeat", type=non_negative_int, default=2, help="runs per vector in one process"
    )
    parser.add_argument("--fresh", action="store_true", help="also run once in a fresh process")
    parser.add_argument(
        "--report-dir", type=Path, help="also write a (partial) report there (default: none)"
    )
    sandbox_option(parser, "the adapter")
    parser.set_defaults(handler=_rerun)


class Phase2Vectors(UsageError):
    """The IDs name Phase 2 vectors, which ``certify --profile phase2-context`` reruns."""

    def __init__(self, ids: list[str]):
        super().__init__(f"{', '.join(map(repr, ids))}: Phase 2 vector(s)")
        self.ids = ids


def _phase2_command(ids: list[str], args: argparse.Namespace) -> str:
    """The command that reruns Phase 2 vectors ``ids`` as ``rerun`` was asked to (its
    adapter, when one was given; else the Phase 2 reference): what their report prints."""
    words = ["python", "-m", "conformance", "certify", "--profile", "phase2-context"]
    if args.adapter:
        words += ["--adapter", args.adapter]
    for vector_id in ids:
        words += ["--select", f"id:{vector_id}"]
    return shlex.join([*words, "--no-sections", "--no-report", "-v"])


def find_vectors(ids: list[str], directory: Path | None) -> tuple[Vector, ...]:
    """The vectors named by ``ids``, reading only the files that mention them.

    A glob (``trust-*``) loads the whole corpus. Raises :class:`UsageError` for an ID that
    names no vector.
    """
    root = directory if directory is not None else kit_vectors_dir()
    if any(set(i) & set("*?[") for i in ids):
        corpus = load_corpus(root)
        return select_vectors(corpus.vectors, [f"id:{i}" for i in ids])
    if not root.is_dir():
        raise UsageError(f"no vector directory at {str(root)!r}")
    wanted = {i: f'"{i}"'.encode() for i in ids}
    found: dict[str, Vector] = {}
    phase2: set[str] = set()
    for path in sorted(p for p in root.rglob("*.json") if p.is_file()):
        try:  # a stranger's directory: bounded like the loader's reads
            data = read_bounded(path, MAX_VECTOR_FILE_BYTES)
        except OSError as exc:
            raise UsageError(
                f"cannot read vector file {str(path)!r}: {exc.strerror or exc}"
            ) from None
        if b'"phase6-vectors/1"' not in data[:4096]:
            if _PHASE2_FORMAT in data[:4096]:
                phase2 |= {i for i, needle in wanted.items() if needle in data}
            continue
        if not any(needle in data for i, needle in wanted.items() if i not in found):
            continue
        for vector in load_vector_file(path, root).vectors:
            if vector.id in wanted:
                found[vector.id] = vector
        if len(found) == len(wanted):
            break
    missing = [i for i in ids if i not in found]
    if missing and set(missing) <= phase2:
        raise Phase2Vectors(missing)
    if missing:
        raise UsageError(f"no vector {', '.join(map(repr, missing))} in {str(root)!r}")
    return tuple(found[i] for i in dict.fromkeys(ids))


def _show(vector: Vector, result: VectorResult, out: TextIO) -> None:
    """What a stranger needs to fix one vector."""
    label = "UNEXPECTED PASS" if result.unexpected_pass else result.outcome.value.upper()
    out.write(f"{label} {vector.id} ({vector.area}, {vector.level}): {vector.description}\n")
    out.write(f"  clauses: {', '.join(vector.clauses)}\n")
    if vector.interpretations:
        out.write(f"  interpretations: {', '.join(vector.interpretations)}\n")
    signature = signature_of(result)
    if signature is not None:
        out.write(f"  signature: {one_line(signature)}\n")
    if result.error is not None:
        out.write(f"  [{result.error.kind.value}] {one_line(result.error.message)}\n")
        if result.error.exit_status is not None:
            out.write(f"  exit status: {result.error.exit_status}\n")
        for line in result.error.stderr_tail.rstrip().splitlines()[-15:]:
            out.write(f"  stderr| {one_line(line)}\n")
    for failure in result.failures:
        out.write(f"  [{failure.kind.value}] {one_line(failure.message)}\n")
        if failure.path is not None:
            out.write(f"    at:       {one_line(failure.path or '/')}\n")
            out.write(f"    expected: {one_line(failure.expected)}\n")
            out.write(f"    actual:   {one_line(failure.actual)}\n")
        if failure.diff:
            lines = failure.diff.splitlines()
            for line in lines[:_DIFF_LINES]:
                out.write(f"    {terminal_safe(line).replace(chr(10), ' ')}\n")
            if len(lines) > _DIFF_LINES:
                out.write(f"    ... ({len(lines) - _DIFF_LINES} more diff lines)\n")


def _rerun(args: argparse.Namespace, out: TextIO) -> int:
    try:
        vectors = find_vectors(list(args.ids), args.vectors)  # an unknown ID: at once
    except Phase2Vectors as exc:
        raise UsageError(
            f"{exc}, which rerun does not run; this command does (as their report prints "
            f"it): {_phase2_command(exc.ids, args)}"
        ) from None
    with sandboxed(args.sandbox, out, sandbox_limits(args)):
        return _rerun_vectors(args, vectors, out)


def _rerun_vectors(args: argparse.Namespace, chosen: tuple[Vector, ...], out: TextIO) -> int:
    adapter = args.adapter or reference_adapter_spec()
    importable_cwd(adapter)
    custom = None
    if args.vectors is not None and args.vectors.resolve() != kit_vectors_dir().resolve():
        custom = str(args.vectors)
    if args.report_dir is not None:
        certification = certify(
            adapter,
            vectors_dir=args.vectors,
            select=[f"id:{i}" for i in args.ids],
            jobs=1,
            timeout=args.timeout,
            repeat=max(1, args.repeat),
            fresh_every=1 if args.fresh else 0,
            sections={},
        )
        results = list(certification.results)
        by_id = {vector.id: vector for vector in chosen}
        vectors = tuple(by_id[r.id] for r in results)
        written = write_report(certification, args.report_dir)
        out.write(f"report (partial): {written['report.json'].parent}/\n")
    else:
        vectors = chosen
        config = RunConfig(
            adapter=adapter, timeout=args.timeout, repeat=max(1, args.repeat), fresh_every=0
        )
        sample = frozenset(v.id for v in vectors) if args.fresh else frozenset()
        executor = Executor(config, open_adapter(adapter, timeout=args.timeout), sample=sample)
        try:
            try:
                started = executor.adapter.start()
            except HandshakeError as exc:
                out.write(f"adapter broken: {one_line(exc.message)}\n")
                for line in exc.stderr_tail.rstrip().splitlines()[-15:]:
                    out.write(f"  stderr| {one_line(line)}\n")
                return EXIT_FAILED
            out.write(
                f"adapter: {one_line(started.name)} {one_line(started.version)} "
                f"({one_line(started.language)})\n"
            )
            results = [executor.run_vector(vector) for vector in vectors]
            if args.fresh:
                fresh = {vid: (f, e) for vid, f, e in executor.run_fresh_sample()}
                results = [
                    with_fresh_process_check(r, *fresh.get(r.id, ((), None))) for r in results
                ]
        finally:
            executor.close()
    for vector, result in zip(vectors, results, strict=True):
        _show(vector, result, out)
    bad = [r for r in results if r.outcome is not Outcome.PASSED or r.unexpected_pass]
    out.write(f"{len(results) - len(bad)}/{len(results)} passed\n")
    if bad and custom is None and args.vectors is None:
        out.write(f"again: {one_line(reproduce_command(adapter, bad[0].id))}\n")
    return EXIT_FAILED if bad else EXIT_OK
