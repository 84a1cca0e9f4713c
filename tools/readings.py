"""``python -m tools readings [--check]``: what each executable alternative reading changes.

For every vector of the corpus and every executable alternative of the interpretation register
(``reference/_readings.py``), the reference is run under that alternative alone and its result
compared with the vector's ``expect`` exactly as a certification compares (``compare_result``).

- An alternative that changes no vector's expected output cannot be told from the pinned
  reading by the corpus: the check fails (issue 21: every executable alternative is exercised
  by at least one vector whose expected output differs under it).
- A vector whose expected output an alternative changes must list that alternative's entry in
  its ``interpretations``: the labels are checked against what the readings actually do, so a
  vector's list of interpretations is derived, not trusted. A missing label fails the check.
  The one exception is a *hashes-only* alternative (``Alternative.hashes_only``: INT-01..04
  readings of the canonical form that change the hashes of nearly every package): every
  package vector rests on those entries, so a vector need not list them where nothing but
  ``package_hash``/``record_hash`` changes (checked: anything else changing needs the label).
  A *rejected* alternative (it contradicts a MUST) needs no label either: the vectors it
  changes rest on the spec text, not on a reading.

- Every alternative of the register is executable, or ``not_executable`` with a reason of a
  fixed kind (``conformance.registers.NOT_EXECUTABLE_KINDS``: it changes no memory.read
  output, belongs to another contract, cannot be reproduced by running it, names an output
  outside the result schema, or is a family with a free value): an undecided one fails the
  check (issue 21: "every alternative that changes an output is executable; CI fails on one
  that is not"). ``rejected`` (a reading that contradicts a MUST) names a clause;
  ``runtimes`` names the entry's own alternatives.
- A *parameterized* alternative (one whose words leave a value free, "the first N drops") is
  run with each value its register ``parameters`` table lists under ``check``
  (``INT-28/list-first-n-drops(n=1)``, ``(n=3)``): each such reading must change a vector, and
  the vectors it changes must list the entry. The register's parameter (name, bounds) must be
  the reference's and the oracle's, and the certifier must know how to read its value from an
  output (``conformance.run._attribution.INFERENCES``).

The table goes to ``specs/readings-coverage.md`` (``--check``: fail when it is stale, or on
any problem above).

``--profile phase2-context`` does the same for the Phase 2 profile: every vector of
``vectors/phase2-context/`` under every executable alternative of
``specs/phase2/interpretations.toml`` (``reference/phase2/_readings.py``; the parameter
``P2-INT-04/implementation-text`` with another policy text), the same two checks, and the table
``specs/phase2/readings-coverage.md``. A vector a parameter alternative changes depends on the
entry too: its expectation holds a value the implementation supplies.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import json
import multiprocessing
import os
import re
import sys
import tempfile
import tomllib
from collections.abc import Iterator, Mapping
from collections.abc import Set as AbstractSet
from pathlib import Path
from typing import Any, Final

from conformance.corpus import Vector, load_corpus, materialize
from conformance.phase2._attribution import INFERENCES as PHASE2_INFERENCES
from conformance.registers import (
    NOT_EXECUTABLE_KINDS,
    RUNTIMES,
    load_clauses,
    load_interpretations,
    parse_parameter,
    split_reading_id,
)
from conformance.run import compare_result
from conformance.run._attribution import INFERENCES
from reference import ALTERNATIVES, Readings, memory_read
from reference._alternatives import Alternative
from reference.phase2 import ALTERNATIVES as PHASE2_ALTERNATIVES
from tools.generate.phase2.build import ANOTHER_POLICY, alternative_changes, read_corpus
from tools.oracle import PARAMETERS as ORACLE_PARAMETERS
from tools.phase2_oracle import PARAMETERS as PHASE2_ORACLE_PARAMETERS

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "specs" / "readings-coverage.md"
PHASE2_OUT = ROOT / "specs" / "phase2" / "readings-coverage.md"
#: ``--profile`` values: the names ``certify --profile`` takes.
PROFILES = ("phase6-v1", "phase2-context")


@contextlib.contextmanager
def _inside(root: Path) -> Iterator[None]:
    previous = os.getcwd()
    os.chdir(root)
    try:
        yield
    finally:
        os.chdir(previous)


#: The members a hashes-only alternative may change (``Alternative.hashes_only``).
HASH_MEMBERS = frozenset({"package_hash", "record_hash"})


def without_hashes(value: Any) -> Any:
    """``value`` with every ``package_hash`` and ``record_hash`` member set to null."""
    if isinstance(value, dict):
        return {
            key: None if key in HASH_MEMBERS else without_hashes(item)
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [without_hashes(item) for item in value]
    return value


def checked_readings() -> list[str]:
    """The readings the check runs: every executable alternative, a parameterized one once per
    value of its register ``check`` (``INT-28/list-first-n-drops(n=1)``), in table order."""
    declared = {a: p for entry in load_interpretations() for a, p in entry.parameters.items()}
    return [
        declared[alternative].instance(alternative, value) if value is not None else alternative
        for alternative, found in ALTERNATIVES.items()
        for value in (
            (declared[alternative].check if alternative in declared else ())
            if found.parameter is not None
            else (None,)
        )
    ]


def _base(reading_id: str) -> str:
    """The alternative of a reading ID (``INT-28/list-first-n-drops`` of ``...(n=3)``)."""
    return split_reading_id(reading_id)[0]


def _changes_in(part: int, parts: int) -> list[tuple[int, str, bool]]:
    """``(vector index, alternative, only hashes changed)`` for every vector of the corpus whose
    index is ``part`` modulo ``parts`` and every alternative that changes its expected output
    (one worker's share; the reference runs in this process)."""
    corpus = load_corpus()
    readings = {reading: Readings.of([reading]) for reading in checked_readings()}
    found: list[tuple[int, str, bool]] = []
    with tempfile.TemporaryDirectory(prefix="tmp") as scratch:
        for index, vector in enumerate(corpus.vectors):
            if index % parts != part:
                continue
            root = Path(scratch, str(index))
            materialize(vector, root)
            with _inside(root):
                for alternative, reading in readings.items():
                    result = memory_read(vector.request, readings=reading)
                    if compare_result(vector.expect, result) is not None:
                        blank = without_hashes(vector.expect)
                        hashes = compare_result(blank, without_hashes(result)) is None
                        found.append((index, alternative, hashes))
    return found


def changed_by() -> tuple[dict[str, list[Vector]], set[tuple[str, str]]]:
    """(alternative ID -> the vectors whose expected output it changes, in corpus order;
    the ``(alternative, vector ID)`` pairs where only hashes change). The corpus is shared out
    over one process per core (each vector runs under every alternative: ~200,000 runs)."""
    corpus = load_corpus()
    parts = max(1, min(os.cpu_count() or 1, 4))
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(parts, mp_context=context) as pool:
        shares = list(pool.map(_changes_in, range(parts), [parts] * parts))
    changes = sorted(change for share in shares for change in share)
    found: dict[str, list[Vector]] = {reading: [] for reading in checked_readings()}
    only_hashes: set[tuple[str, str]] = set()
    for index, alternative, hashes in changes:
        vector = corpus.vectors[index]
        found[alternative].append(vector)
        if hashes:
            only_hashes.add((alternative, vector.id))
    return found, only_hashes


def missing_labels(
    found: dict[str, list[Vector]], only_hashes: AbstractSet[tuple[str, str]] = frozenset()
) -> list[str]:
    """``vector-id: ALTERNATIVE`` for every vector an alternative changes that does not list
    the alternative's entry, except where a hashes-only alternative changes only the hashes
    (every package rests on those entries), and for a rejected alternative (it contradicts a
    MUST: the expected output rests on the spec text, not on a reading)."""
    rejected = {a for entry in _register() for a in (entry.get("rejected") or {})}
    return [
        f"{vector.id}: {alternative}"
        for alternative, vectors in found.items()
        for vector in vectors
        if ALTERNATIVES[_base(alternative)].entry not in vector.interpretations
        and not (
            ALTERNATIVES[_base(alternative)].hashes_only and (alternative, vector.id) in only_hashes
        )
        and _base(alternative) not in rejected
    ]


REGISTER = ROOT / "specs" / "interpretations.toml"
PHASE2_REGISTER = ROOT / "specs" / "phase2" / "interpretations.toml"
PHASE2_CLAUSES = ROOT / "specs" / "phase2" / "clauses.toml"


def _register(path: Path = REGISTER) -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = tomllib.loads(path.read_text("utf-8"))["entry"]
    return entries


def _phase2_clauses() -> set[str]:
    """The clause IDs of the Phase 2 clause register (what a Phase 2 ``rejected`` names)."""
    document = tomllib.loads(PHASE2_CLAUSES.read_text("utf-8"))
    return {str(clause["id"]) for clause in document["clause"]}


def _alternative_ids(entry: dict[str, Any]) -> list[tuple[str, str]]:
    """``(ID, register text)`` of every alternative of ``entry``, in register order."""
    ids = entry.get("alternative_ids", [])
    return [
        (f"{entry['id']}/{ids[index]}" if index < len(ids) else f"{entry['id']}/#{index}", text)
        for index, text in enumerate(entry.get("alternatives", []))
    ]


def undecided(entries: list[dict[str, Any]] | None = None) -> list[tuple[str, str]]:
    """``(ID, register text)`` of every alternative neither executable nor declared
    ``not_executable`` with a reason."""
    return [
        (alternative_id, text)
        for entry in (_register() if entries is None else entries)
        for alternative_id, text in _alternative_ids(entry)
        if alternative_id not in (entry.get("executable") or {})
        and alternative_id not in (entry.get("not_executable") or {})
    ]


#: An alternative's ID as a certification report names it (``report.schema.json``: no dots).
_ALTERNATIVE_ID: Final = re.compile(r"(P2-)?INT-[0-9]{2}/[a-z0-9][a-z0-9-]*")


def register_problems(
    entries: list[dict[str, Any]] | None = None, clauses: set[str] | None = None
) -> list[str]:
    """What is wrong with the register's alternative tables (issue 21: every alternative that
    changes an output is executable, and CI fails on one that is not).

    Every alternative is either executable (the reference runs it) or ``not_executable`` with a
    reason of a fixed kind (:data:`NOT_EXECUTABLE_KINDS`); ``rejected`` names a clause of
    ``clauses`` (default: ``specs/clauses.toml``); ``runtimes`` maps a known runtime to
    ``"pinned"`` or one of the entry's own alternatives. The same check serves the Phase 2
    register (``entries`` and ``clauses`` from ``specs/phase2/``), whose ``executable`` is a
    list of IDs rather than a table of IDs to indexes.
    """
    if clauses is None:
        clauses = {clause.id for clause in load_clauses()}
    problems = []
    for entry in _register() if entries is None else entries:
        ids = {alternative_id for alternative_id, _ in _alternative_ids(entry)}
        runs = entry.get("executable") or {}
        not_run = entry.get("not_executable") or {}
        if len(entry.get("alternative_ids", [])) != len(entry.get("alternatives", [])):
            problems.append(f"{entry['id']}: alternative_ids does not name every alternative")
        problems += [f"{entry['id']}: executable names unknown {a}" for a in runs if a not in ids]
        problems += [
            f"{a}: not a reading ID (a report names readings as INT-nn/[a-z0-9][a-z0-9-]*)"
            for a in sorted(ids)
            if "/#" not in a and not _ALTERNATIVE_ID.fullmatch(a)
        ]
        for alternative_id, text in _alternative_ids(entry):
            if alternative_id in runs and alternative_id in not_run:
                problems.append(f"{alternative_id}: both executable and not_executable")
            elif alternative_id not in runs and alternative_id not in not_run:
                words = " ".join(text.split())[:60]
                problems.append(
                    f"{alternative_id}: not executable and no not_executable reason ({words})"
                )
        for alternative_id, why in not_run.items():
            kind = why.split(":", 1)[0]
            if alternative_id not in ids:
                problems.append(f"{entry['id']}: not_executable names unknown {alternative_id}")
            elif kind not in NOT_EXECUTABLE_KINDS or not why.split(":", 1)[1:]:
                kinds = ", ".join(NOT_EXECUTABLE_KINDS)
                problems.append(f"{alternative_id}: not_executable must be '<kind>: why' ({kinds})")
        for alternative_id, why in (entry.get("rejected") or {}).items():
            clause = why.split(":", 1)[0]
            if alternative_id not in ids:
                problems.append(f"{entry['id']}: rejected names unknown {alternative_id}")
            elif clause not in clauses:
                problems.append(
                    f"{alternative_id}: rejected must start with a clause ID, not {clause!r}"
                )
        problems += (
            parameter_problems(entry, runs, **_PHASE2_PARAMETER_TABLES)
            if entry["id"].startswith("P2-")
            else parameter_problems(entry, runs)
        )
        hashes_only = {a for a, alt in ALTERNATIVES.items() if alt.hashes_only}
        differ = set(entry.get("hashes_only") or ()) ^ {
            a for a in hashes_only if a.split("/", 1)[0] == entry["id"]
        }
        problems.extend(
            f"{alternative_id}: hashes_only in the register and in reference/_readings.py differ"
            for alternative_id in sorted(differ)
        )
        for runtime, named in (entry.get("runtimes") or {}).items():
            reading = named if named == "pinned" or "/" in named else f"{entry['id']}/{named}"
            if runtime not in RUNTIMES:
                problems.append(f"{entry['id']}: runtimes names unknown runtime {runtime!r}")
            elif reading != "pinned" and reading not in ids:
                problems.append(
                    f"{entry['id']}: runtimes.{runtime} is {reading!r}, not 'pinned' or one of "
                    "the entry's alternatives"
                )
    return problems


#: The Phase 2 profile's tables for :func:`parameter_problems` (reference/phase2/_readings.py,
#: tools/phase2_oracle.py, conformance/phase2/_attribution.py).
_PHASE2_PARAMETER_TABLES: Final[dict[str, Any]] = {
    "reference": PHASE2_ALTERNATIVES,
    "oracle": PHASE2_ORACLE_PARAMETERS,
    "inferences": PHASE2_INFERENCES,
}


def parameter_problems(
    entry: dict[str, Any],
    runs: Any,
    *,
    reference: Mapping[str, Alternative] = ALTERNATIVES,
    oracle: Mapping[str, tuple[str, str, int, int | None]] = ORACLE_PARAMETERS,
    inferences: Mapping[str, Any] = INFERENCES,
) -> list[str]:
    """What is wrong with an entry's ``parameters``: each names an executable alternative, as
    ``{ name, min, max?, check, means }``, the same parameter the reference (``Alternative
    .parameter``) and the oracle (``PARAMETERS``) take, with check values it takes and a way
    for the certifier to read the value from an output (``INFERENCES``); and every
    parameterized alternative of the reference is declared. The tables default to SPEC-006's
    (the Phase 2 profile passes its own)."""
    problems = []
    raw = entry.get("parameters") or {}
    for alternative_id, table in raw.items():
        try:
            declared = parse_parameter(table)
        except (KeyError, TypeError) as exc:
            problems.append(
                f"{alternative_id}: parameters must be {{ name, min, max?, check }}: {exc}"
            )
            continue
        found = reference.get(alternative_id)
        mine = found.parameter if found is not None else None
        if alternative_id not in runs or mine is None:
            problems.append(
                f"{alternative_id}: parameters names no parameterized executable alternative of "
                "reference/_readings.py"
            )
            continue
        if (declared.name, declared.low, declared.high) != (mine.name, mine.low, mine.high):
            problems.append(
                f"{alternative_id}: the register's parameter differs from reference/_readings.py's "
                f"({mine.name}, {mine.low}..{mine.high})"
            )
        theirs = oracle.get(alternative_id)
        if theirs is None or (theirs[0], theirs[2], theirs[3]) != (
            declared.name,
            declared.low,
            declared.high,
        ):
            problems.append(
                f"{alternative_id}: the register's parameter differs from tools/oracle.py's "
                "PARAMETERS"
            )
        if not declared.check or not all(declared.takes(v) for v in declared.check):
            problems.append(f"{alternative_id}: check must list values the parameter takes")
        if alternative_id not in inferences:
            problems.append(
                f"{alternative_id}: the certifier cannot read its value from an output "
                "(conformance/run/_attribution.py INFERENCES)"
            )
    problems += [
        f"{alternative_id}: parameterized in reference/_readings.py, not in the register's "
        "parameters"
        for alternative_id, alternative in reference.items()
        if alternative.entry == entry["id"]
        and alternative.parameter is not None
        and alternative_id not in raw
    ]
    return problems


def render(found: dict[str, list[Vector]]) -> str:
    """The markdown table (deterministic: corpus order, no timings)."""
    lines = [
        "# Executable alternative readings: what each one changes",
        "",
        "Generated by `python -m tools readings` (checked by `--check` in CI): for every "
        "executable alternative of `specs/interpretations.toml` (`reference/_readings.py`), the "
        "vectors whose expected output differs when the reference runs under it alone. "
        "`certify` runs the same alternatives on every failing vector and names the ones that "
        "reproduce what the implementation returned. A vector changed by an alternative lists "
        "the alternative's entry in its `interpretations` (checked).",
        "",
        "| alternative | register text | vectors changed | examples |",
        "|---|---|---:|---|",
    ]
    for alternative, vectors in found.items():
        ids = ", ".join(f"`{v.id}`" for v in vectors[:5])
        more = f" and {len(vectors) - 5} more" if len(vectors) > 5 else ""
        summary = ALTERNATIVES[_base(alternative)].summary.replace("|", "\\|")
        lines.append(f"| `{alternative}` | {summary} | {len(vectors)} | {ids}{more} |")
    lines += _register_sections(_register(), set(ALTERNATIVES), "SPEC-006")
    return "\n".join(lines) + "\n"


def _register_sections(entries: list[dict[str, Any]], executable: set[str], spec: str) -> list[str]:
    """The rejected, not-executable (by kind), undecided and runtimes sections of a coverage
    table, for either profile's register (``executable``: the IDs the reference runs)."""
    lines: list[str] = []
    rejected = {a: why for entry in entries for a, why in (entry.get("rejected") or {}).items()}
    if rejected:
        lines += [
            "",
            f"## Rejected readings ({len(rejected)})",
            "",
            f"These alternatives contradict a MUST of {spec}. `certify` still runs the "
            "executable ones, so a failure they reproduce is named, but it is not a reading the "
            "kit certifies: the implementation is non-compliant, and the report says which "
            "clause it breaks.",
            "",
            "| alternative | executable | contradicts |",
            "|---|---|---|",
        ]
        for alternative_id, why in rejected.items():
            runs = "yes" if alternative_id in executable else "no"
            lines.append(f"| `{alternative_id}` | {runs} | {_cell(why)} |")
    by_kind = [
        (alternative_id, why.split(":", 1)[0], why.split(":", 1)[-1], text)
        for entry in entries
        for alternative_id, text in _alternative_ids(entry)
        for why in [(entry.get("not_executable") or {}).get(alternative_id)]
        if why is not None
    ]
    lines += [
        "",
        f"## Not executable, and why ({len(by_kind)})",
        "",
        "An alternative stays out of the reference only for one of these reasons (checked: any "
        "other alternative must be executable): "
        + "; ".join(f"`{kind}`: {text}" for kind, text in NOT_EXECUTABLE_KINDS.items())
        + ".",
        "",
        "| alternative | kind | why | register text |",
        "|---|---|---|---|",
    ]
    for alternative_id, kind, why, text in sorted(
        by_kind, key=lambda row: (row[1], _order(row[0]))
    ):
        lines.append(f"| `{alternative_id}` | {kind} | {_cell(why)} | {_cell(text)} |")
    waiting = undecided(entries)
    if waiting:
        lines += [
            "",
            f"## Not decided yet ({len(waiting)}: `--check` fails)",
            "",
            'A failure that follows one of these is reported as "no listed reading explains '
            'this" (non-compliant). CONTRIBUTING.md, "Proposing a reading", says how to make '
            "one executable.",
            "",
            "| alternative | register text |",
            "|---|---|",
        ]
        lines += [f"| `{alternative_id}` | {_cell(text)} |" for alternative_id, text in waiting]
    surveyed = [entry for entry in entries if entry.get("runtimes")]
    if surveyed:
        lines += [
            "",
            "## What the obvious code does, per runtime",
            "",
            "For the entries whose answer depends on a standard library: the reading an "
            "implementer's obvious code follows in each runtime (`pinned`, or an alternative, "
            "which is executable or says why not). Empty: not recorded.",
            "",
            "| entry | " + " | ".join(RUNTIMES) + " | the obvious code |",
            "|---|" + "---|" * len(RUNTIMES) + "---|",
        ]
        for entry in surveyed:
            cells = [
                _short(entry["id"], (entry.get("runtimes") or {}).get(runtime, ""))
                for runtime in RUNTIMES
            ]
            note = _cell(entry.get("runtimes_note", ""))
            lines.append(f"| {entry['id']} | " + " | ".join(cells) + f" | {note} |")
    return lines


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _order(alternative_id: str) -> tuple[int, str]:
    entry, _, name = alternative_id.partition("/")
    return int(entry.rsplit("-", 1)[1]), name


def _short(entry: str, reading: str) -> str:
    """A runtimes cell: ``pinned``, or the alternative's name without its entry."""
    return f"`{reading.removeprefix(entry + '/')}`" if reading else ""


def phase2_changed_by() -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """(Phase 2 alternative ID -> the IDs of the vectors whose expected output it changes,
    vector ID -> its interpretations), over the committed vectors/phase2-context/."""
    vectors = read_corpus()
    labels = {vector["id"]: list(vector["interpretations"]) for vector in vectors}
    return alternative_changes(vectors), labels


def phase2_missing_labels(found: dict[str, list[str]], labels: dict[str, list[str]]) -> list[str]:
    """``vector-id: ALTERNATIVE`` for every Phase 2 vector an alternative changes that does not
    list the alternative's entry (a parameter alternative included)."""
    return [
        f"{vector_id}: {alternative}"
        for alternative, ids in found.items()
        for vector_id in ids
        if alternative.split("/", 1)[0] not in labels[vector_id]
    ]


def phase2_render(found: dict[str, list[str]]) -> str:
    """specs/phase2/readings-coverage.md (deterministic: corpus order, no timings)."""
    lines = [
        "# Phase 2 executable alternative readings: what each one changes",
        "",
        "Generated by `python -m tools readings --profile phase2-context` (checked by `--check` "
        "in CI): for every executable alternative of `specs/phase2/interpretations.toml` "
        "(`reference/phase2/_readings.py`), the vectors of `vectors/phase2-context/` whose "
        "expected output differs when the reference engine runs under it alone "
        "(`P2-INT-04/implementation-text`, a parameter the implementation supplies, with the "
        f"policy text {json.dumps(ANOTHER_POLICY)}). `certify --profile phase2-context` runs the "
        "same alternatives on every failing vector and names the ones that reproduce what the "
        "implementation returned. A vector changed by an alternative lists the alternative's "
        "entry in its `interpretations` (derived by the corpus builder, checked here).",
        "",
        "| alternative | register text | vectors changed | examples |",
        "|---|---|---:|---|",
    ]
    for alternative, ids in found.items():
        shown = ", ".join(f"`{i}`" for i in ids[:5])
        more = f" and {len(ids) - 5} more" if len(ids) > 5 else ""
        summary = PHASE2_ALTERNATIVES[_base(alternative)].summary.replace("|", "\\|")
        lines.append(f"| `{alternative}` | {summary} | {len(ids)} | {shown}{more} |")
    lines += _register_sections(_register(PHASE2_REGISTER), set(PHASE2_ALTERNATIVES), "PHASE2")
    return "\n".join(lines) + "\n"


def _outcome(profile: str) -> tuple[list[str], str, Path]:
    """(problems, the table, where it goes) for one profile."""
    if profile == "phase2-context":
        found2, labels = phase2_changed_by()
        problems = [f"{a}: changes no vector's expected output" for a, v in found2.items() if not v]
        problems += [f"label missing: {line}" for line in phase2_missing_labels(found2, labels)]
        problems += [
            f"register: {problem}"
            for problem in register_problems(_register(PHASE2_REGISTER), _phase2_clauses())
        ]
        return problems, phase2_render(found2), PHASE2_OUT
    found, only_hashes = changed_by()
    problems = [f"{a}: changes no vector's expected output" for a, v in found.items() if not v]
    problems += [f"label missing: {line}" for line in missing_labels(found, only_hashes)]
    problems += [f"register: {problem}" for problem in register_problems()]
    return problems, render(found), OUT


def main(argv: list[str] | None = None) -> int:
    """Write (or ``--check``) the profile's readings coverage table; exit 1 on a problem."""
    parser = argparse.ArgumentParser(prog="python -m tools readings", description=__doc__)
    parser.add_argument("--check", action="store_true", help="fail when stale or incomplete")
    parser.add_argument(
        "--profile",
        choices=PROFILES,
        default=PROFILES[0],
        help="the corpus and register checked (default: %(default)s)",
    )
    args = parser.parse_args(argv)
    problems, text, out = _outcome(args.profile)
    if args.check:
        if not out.exists() or out.read_text("utf-8") != text:
            command = "python -m tools readings" + (
                f" --profile {args.profile}" if args.profile != PROFILES[0] else ""
            )
            problems.append(f"{out.relative_to(ROOT)} is stale: run {command}")
    else:
        out.write_text(text, "utf-8")
        print(f"wrote {out.relative_to(ROOT)}")
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
