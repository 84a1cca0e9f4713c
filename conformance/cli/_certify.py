"""``phase6 certify`` and ``phase6 smoke``: certify an implementation; check an adapter quickly.

``--profile`` says what is certified: SPEC-006 ``memory.read`` (``phase6-v1``, the default,
:func:`conformance.run.certify`) or the Phase 2 memory engine (``phase2-context``,
:func:`conformance.phase2.certify_phase2`, with the ``http:`` adapter's ``--load``, ``--dump``
and ``--job``). Both end the same way: the same console summary, report files and exit codes.

The console says, in this order: the totals, each section by name with its status, the top
failure signatures ("what to fix first") with their reproduce commands, and the verdict line,
which names the checks skipped on this machine and says "PARTIAL RUN, no verdict" for anything
but the published corpus with every section. Whatever the implementation wrote is printed
through :func:`conformance._kit.one_line`.

Exit codes: 0 compliant (or, with --expected-failures, nothing unexpected), 1 not compliant,
2 usage or harness error, 3 partial run with nothing failed, 4 compliant on required checks
with failures that are readings of ambiguous clauses (compliant-required-only).
"""

from __future__ import annotations

import argparse
import dataclasses
import re
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from conformance._errors import ReportError, UsageError
from conformance._kit import one_line, read_bounded, slugify
from conformance.adapters import (
    DEFAULT_MAX_LINE_BYTES,
    DEFAULT_TIMEOUT,
    SANDBOX_MODES,
    reference_adapter_spec,
    sandbox_run,
    spec_name,
)
from conformance.cli._common import (
    ADAPTER_HELP,
    ADAPTER_KINDS,
    EXIT_FAILED,
    EXIT_OK,
    EXIT_PARTIAL,
    EXIT_READINGS,
    EXIT_USAGE,
    MAX_JOBS,
    MAX_REPEAT,
    Subparsers,
    bounded_int,
    byte_size,
    check_adapter_spec,
    check_paths,
    max_processes_option,
    non_negative_int,
    positive_float,
    sandbox_limits,
    sandbox_option,
    sandboxed,
    terminate_as_interrupt,
)
from conformance.corpus import load_corpus
from conformance.phase2 import PROFILE as PHASE2_PROFILE
from conformance.phase2 import certify_phase2, check_workers
from conformance.report import (
    build_report,
    default_report_dir,
    other_adapter,
    prepare_report_dir,
    previous_run,
    write_report,
)
from conformance.run import (
    SECTION_PROVIDERS,
    Certification,
    Outcome,
    Section,
    SectionItem,
    Verdict,
    VerdictValue,
    certify,
    default_temp_parent,
    fix_first,
    make_progress,
    parse_section_option,
    smoke,
)

#: Failure signatures printed on the console (the report has them all).
_SIGNATURES = 5
#: ``--profile`` values; the first is the default.
PROFILES = ("phase6-v1", PHASE2_PROFILE)
PHASE2_ADAPTER_HELP = (
    "; with --profile phase2-context: 'python:package.module:callable' (callable(fixture, "
    "call)), 'cmd:<command line>' speaking the Phase 2 protocol (default: the reference engine, "
    "'cmd:python -m reference.phase2 serve-protocol'), or 'http:<base URL>' of a live service "
    "with --load, --dump and --job"
)

__all__ = ["parse_certify", "register"]


def register(commands: Subparsers) -> None:
    """Add ``certify`` and ``smoke``."""
    parser = commands.add_parser(
        "certify",
        help="certify an implementation, write its report",
        description="Run the corpus (and the properties, probes and suite-strength sections) "
        "against an implementation and write its compliance report.",
        epilog="Exit codes: 0 compliant (or, with --expected-failures, nothing unexpected), "
        "1 not compliant, 2 usage or harness error, 3 partial run (a selection, another corpus "
        "or sections not run) in which nothing failed: only the published corpus with every "
        "section certifies, 4 compliant-required-only: every required check passed and the "
        "failures are readings of ambiguous clauses (named by ID where the reference, run "
        "under an executable alternative, reproduces them).",
    )
    parser.add_argument(
        "--profile",
        choices=PROFILES,
        default=PROFILES[0],
        help="what is certified: SPEC-006 memory.read (phase6-v1, the default) or the Phase 2 "
        "memory engine (phase2-context: its own corpus, adapters and report)",
    )
    parser.add_argument("--adapter", help=ADAPTER_HELP + PHASE2_ADAPTER_HELP)
    phase2 = parser.add_argument_group(
        "the http: adapter of --profile phase2-context (specs/protocol.md, P2.4)"
    )
    phase2.add_argument(
        "--load",
        metavar="CMD",
        help="command replacing the service's database by the fixture in the file named as its "
        "last argument (required with http:)",
    )
    phase2.add_argument(
        "--dump",
        metavar="CMD",
        help="command printing the service's database state as JSON (required with http:)",
    )
    phase2.add_argument(
        "--job",
        metavar="CMD",
        help="command running the job call read as JSON on stdin and printing its result; "
        "without it, compact and summarize vectors are not run",
    )
    parser.add_argument(
        "--name",
        metavar="NAME",
        help="the implementation's name in the console and the report (default: the handshake's; "
        "an http: service or a python: module names none of its own)",
    )
    parser.add_argument(
        "--implementation-version",
        "--version",
        dest="implementation_version",
        metavar="VERSION",
        help="the implementation's version in the console and the report (default: the "
        "handshake's; for python: the installed distribution's, when the module belongs to one)",
    )
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
        "--readings",
        type=Path,
        metavar="FILE",
        help="the alternative readings the implementation follows, one ID per line "
        "(INT-08/verbatim; for --profile phase2-context P2-INT-08/one-hop, and "
        "P2-INT-04/implementation-text for its own policy text; '#' comments): it is certified "
        "against them, and any contradiction of the declaration is reported (default: the "
        "handshake's readings, else inferred)",
    )
    parser.add_argument(
        "--jobs",
        "-j",
        type=bounded_int(0, MAX_JOBS),
        default=None,
        help="worker processes (default: CPUs); with --profile phase2-context, services "
        "(default 1): an http: adapter whose base URL, --load and --dump name {worker}, each "
        "worker's number (1 to N), so that each worker has a service and a database of its own",
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
        help="stop the run as 'adapter broken' after N vectors in a row timed out, crashed or "
        "failed after half the timeout, or 3/4 of the last 2N did (0: never; default: "
        "%(default)s)",
    )
    parser.add_argument(
        "--sandbox",
        choices=SANDBOX_MODES,
        default=SANDBOX_MODES[0],
        help="run the adapter in a bubblewrap sandbox: own PID and network namespaces, the "
        "filesystem read-only but the run's vector roots and a private /tmp, resource limits "
        "(auto: when it works here, else say why; require: exit 2 without one; off: never; "
        "default: %(default)s)",
    )
    max_processes_option(parser)
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress output")
    parser.add_argument(
        "--verbose",
        "-v",
        action="store_true",
        help="list every vector that does not pass (default: the first few; the failure "
        "signatures group the rest)",
    )
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
    sandbox_option(smoke_parser, "the adapter")
    smoke_parser.set_defaults(handler=_smoke)


def parse_certify(argv: Sequence[str]) -> argparse.Namespace:
    """``argv`` parsed as ``phase6 certify ARGV`` (for commands that run a certification in
    this process: ``site collect``, ``ci``); argparse's usage error is its ``SystemExit``."""
    parser = argparse.ArgumentParser(prog="phase6")
    register(parser.add_subparsers(dest="command"))
    return parser.parse_args(["certify", *argv])


def _check(args: argparse.Namespace) -> None:
    """Everything about the arguments that can be checked before the run, checked."""
    phase2 = args.profile == PHASE2_PROFILE
    check_adapter_spec(args.adapter, kinds=ADAPTER_KINDS + (("http:",) if phase2 else ()))
    http = bool(args.adapter and args.adapter.startswith("http:"))
    for option in ("load", "dump", "job"):
        if getattr(args, option) is not None and not http:
            raise UsageError(
                f"--{option} names a command of the http: adapter "
                f"(--profile {PHASE2_PROFILE} --adapter http:...)"
            )
    if http and (args.load is None or args.dump is None):
        raise UsageError("the http: adapter needs --load CMD and --dump CMD")
    if phase2 and args.section:
        raise UsageError(
            f"--profile {PHASE2_PROFILE} runs its own section (properties): --section does "
            "not apply"
        )
    if phase2 and args.jobs is not None and args.jobs > 1:
        check_workers(args.adapter or "", args.jobs, load=args.load, dump=args.dump, job=args.job)
    check_paths(
        directories=[("--vectors", args.vectors), ("--temp-dir", args.temp_dir)],
        writable=[("--temp-dir", args.temp_dir)]
        + ([] if args.no_report else [("--report-dir", args.report_dir)]),
        files=[
            ("--expected-failures", args.expected_failures),
            ("--readings", args.readings),
        ],
    )
    if args.readings is not None:
        args.declared_readings = read_declared_readings(args.readings)
    for option in args.section_option:
        if "=" not in option or not option.partition("=")[0]:
            raise UsageError(f"--section-option {option!r}: expected KEY=VALUE")


def _report_dir(args: argparse.Namespace) -> Path | None:
    """Check where the report goes before anything runs (``None``: no report)."""
    if args.no_report:
        return None
    # The default directory is named after the implementation, known after the handshake;
    # its parent is checked now, the directory itself when it is written.
    return prepare_report_dir(args.report_dir if args.report_dir else Path("reports"))


#: Section items listed per section under "what to fix first".
_ITEMS = 5
#: Lines of an errored example's stderr shown under its signature, from each end (the report
#: keeps its last 4000 characters): the error is the first line of a Node.js, Go or Java
#: trace and the last of a Python traceback.
_STDERR_LINES = 6


def _ends(lines: list[str], each: int) -> list[str]:
    """The first and the last ``each`` of ``lines``, with a line saying how many are left out."""
    if len(lines) <= 2 * each + 1:
        return lines
    return [*lines[:each], f"... ({len(lines) - 2 * each} lines)", *lines[-each:]]


def _tally(section: Section) -> str:
    """``21 passed, 1 skipped``; for a section about the kit (suite strength), its mutants as
    ``114/114 mutants killed`` (a killed mutant is the suite passing)."""
    counts: dict[str, int] = {}
    for item in section.items:
        counts[item.outcome] = counts.get(item.outcome, 0) + 1
    if section.name == "suite_strength" and section.items:
        killed = counts.get(Outcome.PASSED, 0)
        return f"{killed}/{len(section.items)} mutants killed"
    return ", ".join(f"{n} {outcome}" for outcome, n in sorted(counts.items())) or "no items"


def _section_line(section: Section) -> str:
    """One line per section: the implementation's sections by status and tally, a section
    about the kit itself (``affects_verdict`` false) said to be so."""
    if not section.affects_verdict:
        stale = " (computed on another corpus: stale)" if section.data.get("stale") else ""
        what = (
            "the kit's own strength"
            if section.name == "suite_strength"
            else "an optional capability"
            if section.optional
            else "information"
        )
        return (
            f"section {section.name} ({what}, not part of the verdict): {section.status}, "
            f"{_tally(section)}{stale}"
        )
    pinned = section.pinned_interpretations
    note = f"; pinned-only failures on {', '.join(pinned)}" if pinned else ""
    return f"section {section.name}: {section.status} ({_tally(section)}{note})"


def _failing_items(result: Certification) -> list[tuple[Section, list[SectionItem]]]:
    """The failed or errored items of each section that counts toward the verdict."""
    return [
        (section, bad)
        for section in result.sections.values()
        if section.affects_verdict
        for bad in [[item for item in section.items if item.bad]]
        if bad
    ]


def _print_fix_first(result: Certification, out: TextIO) -> None:
    """The top failure signatures, then every failing probe or property by name."""
    totals = result.totals
    top = fix_first(result.signatures, _SIGNATURES)
    failing = _failing_items(result)
    if not top and not failing:
        return
    bad = totals.failed + totals.errored
    out.write(
        f"what to fix first: {bad} vector(s) failed or errored, in "
        f"{len(result.signatures)} signature(s)"
        + (
            f"; {sum(len(items) for _, items in failing)} check(s) of the sections"
            if failing
            else ""
        )
        + ":\n"
    )
    by_id = {r.id: r for r in result.results}
    for rank, signature in enumerate(top, 1):
        levels = ", ".join(f"{n} {level}" for level, n in signature.by_level.items())
        out.write(
            f"  {rank}. {signature.count} vector(s) ({levels}): {one_line(signature.signature)}\n"
        )
        if signature.rejected:
            out.write(
                f"     reproduced under {', '.join(signature.reading or ())}, a reading the "
                "register rejects (it contradicts a MUST): a fault\n"
            )
        elif signature.reading:
            out.write(f"     a reading: reproduced under {', '.join(signature.reading)}\n")
        elif signature.unexplained:
            out.write("     no listed reading explains this: a bug (or an unlisted reading)\n")
        out.write(
            f"     example {signature.example}: {one_line(signature.example_message)[:240]}\n"
        )
        stderr = by_id[signature.example].error if signature.example in by_id else None
        if stderr is not None and stderr.stderr_tail.strip():  # why it crashed, in its words
            out.write("     its stderr (the end the report keeps):\n")
            for line in _ends(stderr.stderr_tail.strip("\n").splitlines(), _STDERR_LINES):
                out.write(f"       | {one_line(line)[:240]}\n")
        if signature.reproduce:
            out.write(f"     reproduce: {one_line(signature.reproduce)}\n")
    for section, items in failing:
        for item in items[:_ITEMS]:
            level = (
                "pinned " + ", ".join(item.interpretations)
                if not item.fails_required
                else "required"
            )
            clauses = f" [{', '.join(item.clauses)}]" if item.clauses else ""
            out.write(
                f"  - {section.name} {one_line(item.id)}: {item.outcome} ({level}){clauses}: "
                f"{one_line(item.message)[:240]}\n"
            )
        if len(items) > _ITEMS:
            out.write(f"  - ... and {len(items) - _ITEMS} more {section.name} check(s) (report)\n")
        reproduce = section.data.get("reproduce")
        if isinstance(reproduce, str) and reproduce:
            out.write(f"     reproduce: {one_line(reproduce)}\n")


def _print_summary(result: Certification, out: TextIO) -> None:
    totals = result.totals
    out.write(
        f"{one_line(result.implementation_name)}: {totals.passed}/{totals.total} passed, "
        f"{totals.failed} failed, {totals.errored} errored, {totals.skipped} skipped, "
        f"{totals.expected_failure} expected failures, {totals.unexpected_pass} unexpected passes "
        f"({result.duration_s:.1f} s)\n"
    )
    for section in result.sections.values():
        out.write(_section_line(section) + "\n")
    for entry in result.stale_expected_failures:
        out.write(
            f"stale expected-failure entry (line {entry.line}): "
            f"{one_line(entry.pattern)!r} matches no vector\n"
        )
    _print_fix_first(result, out)
    for fault in result.harness_faults:
        out.write(f"harness fault: {one_line(fault.splitlines()[0])}\n")


def verdict_line(verdict: Verdict) -> str:
    """The verdict once: ``compliant: all 1899 vectors passed``, not ``compliant — compliant:
    all ...`` (a verdict text that starts by naming its value is not prefixed by it again)."""
    line = verdict.line
    doubled = f"{verdict.value.value} — {verdict.value.value}"
    if doubled in line:
        line = line.replace(doubled, verdict.value.value, 1)
    return line


def _certify(args: argparse.Namespace, out: TextIO) -> int:
    _check(args)
    if args.profile == PHASE2_PROFILE:
        return _certify_phase2(args, out)
    sections: dict[str, str] | None
    if args.no_sections:
        sections = {}
    elif args.section:
        sections = {**SECTION_PROVIDERS, **dict(parse_section_option(s) for s in args.section)}
    else:
        sections = None
    options = dict(o.partition("=")[::2] for o in args.section_option)
    adapter = args.adapter or reference_adapter_spec()
    report_dir = _report_dir(args)
    with (
        terminate_as_interrupt(),
        sandbox_run(
            args.sandbox,
            temp_parent=args.temp_dir or default_temp_parent(),
            limits=sandbox_limits(args),
        ) as box,
    ):
        _require_sandbox(args, box.reason)
        scratch = box.sandbox.scratch if box.sandbox else None
        result = _certify_run(args, adapter, sections, options, scratch)
    return _finish(named(result, args.name, args.implementation_version), args, report_dir, out)


def _require_sandbox(args: argparse.Namespace, reason: str | None) -> None:
    """``--sandbox require`` without a sandbox is a usage error, before anything runs."""
    if args.sandbox == "require" and reason is not None:
        raise UsageError(f"--sandbox require: no sandbox can be made: {reason}")


def _certify_run(
    args: argparse.Namespace,
    adapter: str,
    sections: dict[str, str] | None,
    options: dict[str, str],
    scratch: str | None,
) -> Certification:
    """The SPEC-006 certification the arguments ask for (vector roots in ``scratch`` when
    sandboxed)."""
    return certify(
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
        progress=make_progress(quiet=args.quiet, verbose=args.verbose),
        temp_dir=scratch or args.temp_dir,
        max_line_bytes=args.max_line_bytes,
        max_consecutive_failures=args.max_consecutive_failures,
        declared_readings=getattr(args, "declared_readings", None),
    )


def read_declared_readings(path: Path) -> tuple[str, ...]:
    """A ``--readings`` file: one reading ID per line, ``#`` starts a comment (UsageError
    for a file that cannot be read or a line that is not an ID)."""
    try:
        text = read_bounded(path, 1 << 20).decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"--readings {str(path)!r}: cannot read: {exc}") from None
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        entry = line.split("#", 1)[0].strip()
        if not entry:
            continue
        if not _READING_ID.fullmatch(entry):
            raise UsageError(
                f"--readings {str(path)!r} line {number}: {entry!r} is not a reading ID "
                "(such as INT-08/verbatim, or INT-28/list-first-n-drops(n=3) for one with a value)"
            )
        found.append(entry)
    return tuple(dict.fromkeys(found))


#: A reading ID as the register names it: ``INT-08/verbatim``, or a parameterized alternative
#: with its value, ``INT-28/list-first-n-drops(n=3)`` (checked against the register when run).
_READING_ID = re.compile(r"(P2-)?INT-[0-9]{2}/[a-z0-9][a-z0-9-]*(\([a-z_]+=[0-9]+\))?")


def _certify_phase2(args: argparse.Namespace, out: TextIO) -> int:
    """``certify --profile phase2-context``: the same options, report and exit codes."""
    options = dict(o.partition("=")[::2] for o in args.section_option)
    report_dir = _report_dir(args)
    refused = f"not available for --profile {PHASE2_PROFILE} (its engine and service keep state)"
    with terminate_as_interrupt(), sandbox_run(args.sandbox, refused=refused) as box:
        _require_sandbox(args, box.reason)
        result = _certify_phase2_run(args, options)
    return _finish(named(result, args.name, args.implementation_version), args, report_dir, out)


def named(result: Certification, name: str | None, version: str | None) -> Certification:
    """``result`` with the implementation named by ``--name`` / ``--implementation-version``
    (what the handshake said is kept as ``handshake_name`` / ``handshake_version``)."""
    if name is None and version is None:
        return result
    implementation = dict(result.adapter.get("implementation") or {})
    for key, value in (("name", name), ("version", version)):
        if value is not None:
            if key in implementation:
                implementation[f"handshake_{key}"] = implementation[key]
            implementation[key] = value
            implementation[f"{key}_source"] = (
                f"--{'name' if key == 'name' else 'implementation-version'}"
            )
    implementation.setdefault("name", spec_name(str(result.adapter.get("spec", ""))))
    implementation.setdefault("version", "unknown")
    implementation.setdefault("language", "unknown")
    return dataclasses.replace(result, adapter={**result.adapter, "implementation": implementation})


def _certify_phase2_run(args: argparse.Namespace, options: dict[str, str]) -> Certification:
    """The Phase 2 certification the arguments ask for (never sandboxed)."""
    return certify_phase2(
        args.adapter,
        load=args.load,
        dump=args.dump,
        job=args.job,
        vectors_dir=args.vectors,
        select=args.select,
        expected_failures=args.expected_failures,
        timeout=args.timeout,
        repeat=max(1, args.repeat),
        fresh_every=args.fresh_every,
        validate_protocol=args.validate_protocol,
        sections=not args.no_sections,
        section_options=options,
        progress=make_progress(quiet=args.quiet, verbose=args.verbose),
        temp_dir=args.temp_dir,
        max_line_bytes=args.max_line_bytes,
        max_consecutive_failures=args.max_consecutive_failures,
        declared_readings=getattr(args, "declared_readings", None),
        jobs=args.jobs or 1,
    )


def _finish(
    result: Certification, args: argparse.Namespace, report_dir: Path | None, out: TextIO
) -> int:
    """Print the summary and the verdict, write the report, and say the exit code."""
    verdict = result.verdict
    _print_summary(result, out)
    sandbox = result.adapter.get("sandbox")
    if isinstance(sandbox, dict):
        out.write(f"sandbox: {one_line(str(sandbox.get('summary')))}\n")
    out.write(f"verdict: {one_line(verdict_line(verdict))}\n")
    report_failed = False
    if report_dir is not None:
        try:
            target = args.report_dir or _own_report_dir(result, report_dir, out)
        except ReportError as exc:  # both names hold other adapters' reports: keep them
            out.write(f"report: not written: {one_line(exc)}\n")
            report_failed = True
        else:
            note = previous_run(target, build_report(result))
            if note is not None:
                out.write(f"note: {one_line(note)}\n")
            try:
                written = write_report(result, target)
                out.write(_report_lines(written))
            except ReportError as exc:
                out.write(f"report: not complete: {one_line(exc)}\n")
                report_failed = True
    if result.interrupted or result.harness_faults or report_failed:
        return EXIT_USAGE
    failed = verdict.value is not VerdictValue.COMPLIANT and not (
        result.expected_failures_file is not None and result.clean
    )
    if failed:
        if verdict.value is VerdictValue.COMPLIANT_REQUIRED_ONLY:
            return EXIT_READINGS
        return EXIT_FAILED
    if result.partial:
        out.write(
            "partial run: nothing failed, but only the published corpus with every section "
            "certifies (exit 3)\n"
        )
        return EXIT_PARTIAL
    if verdict.value is not VerdictValue.COMPLIANT:
        out.write("every failure is a listed expected failure: exit 0 (not compliant)\n")
    return EXIT_OK


def _report_lines(written: dict[str, Path]) -> str:
    """Where the report went: the page to open first, then the directory and its other files."""
    html = written.get("report.html")
    others = ", ".join(name for name in written if name != "report.html")
    lines = f"report: open {html}\n" if html is not None else ""
    directory = written["report.json"].parent
    return lines + f"report files: {directory}/ ({others})\n"


def _own_report_dir(result: Certification, base: Path, out: TextIO) -> Path:
    """``reports/<name>/``, or another directory, said loudly, when that one holds the report
    of another adapter calling itself by the same name (never replaced)."""
    target = default_report_dir(result, base)
    plain = base / slugify(result.implementation_name)
    if target != plain:
        holder = other_adapter(plain, str(result.adapter.get("spec", "")))
        out.write(
            f"warning: {one_line(plain)}/ holds the report of another adapter "
            f"({one_line(holder)}) calling itself {one_line(result.implementation_name)!r} "
            f"too: not replaced; this report goes to {one_line(target)}/\n"
        )
    return target


def _smoke(args: argparse.Namespace, out: TextIO) -> int:
    check_adapter_spec(args.adapter)
    check_paths(directories=[("--vectors", args.vectors)])
    adapter = args.adapter or reference_adapter_spec()
    corpus = load_corpus(args.vectors)
    with sandboxed(args.sandbox, out, sandbox_limits(args)):
        return smoke(adapter, corpus, out, count=max(1, args.count), timeout=args.timeout)
