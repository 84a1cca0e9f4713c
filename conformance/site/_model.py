"""What the site is built from: one :class:`Run` per report, grouped into :class:`Implementation`
histories per profile, and each profile's :class:`Registers` (clause text, register entries).

A report is read once; only what the pages need is kept (totals, counts by clause and by
interpretation, each vector's outcome, and the results that did not pass), so a hundred
reports of the full corpus fit in memory.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from conformance._errors import ReportError
from conformance._kit import loads, slugify, specs_dir
from conformance.registers import read_register
from conformance.report import badge_fields, partial_reasons, render_badge, validate_report

__all__ = [
    "PROFILES",
    "Alternative",
    "Clause",
    "Entry",
    "Implementation",
    "Profile",
    "Registers",
    "Run",
    "SetAside",
    "find_reports",
    "group_runs",
    "load_registers",
    "profile_of",
    "read_report",
    "report_digest",
    "run_of",
    "version_key",
]


@dataclass(frozen=True)
class Profile:
    """A certified profile: its contract, where its registers are, its pages' directory."""

    contract: str
    title: str
    #: Where its pages go inside the site ("" = the top level).
    directory: str
    clauses: str
    clauses_format: str
    interpretations: str
    interpretations_format: str


#: Every profile the site knows, the main one first; reports of any other contract are refused.
PROFILES = (
    Profile(
        "phase6-v1",
        "SPEC-006 memory.read (phase6-v1)",
        "",
        "clauses.toml",
        "phase6-clauses/1",
        "interpretations.toml",
        "phase6-interpretations/1",
    ),
    Profile(
        "phase2-context/1",
        "Phase 2 memory engine (phase2-context/1)",
        "phase2",
        "phase2/clauses.toml",
        "phase2-clauses/1",
        "phase2/interpretations.toml",
        "phase2-interpretations/1",
    ),
)
_BY_CONTRACT = {profile.contract: profile for profile in PROFILES}


@dataclass(frozen=True)
class Alternative:
    """An executable alternative reading: its ID (``INT-27/budget-exhausted``) and its text."""

    id: str
    text: str


@dataclass(frozen=True)
class Entry:
    """One interpretation-register entry as the readings matrix shows it."""

    id: str
    title: str
    question: str
    alternatives: tuple[str, ...]
    executable: tuple[Alternative, ...]


@dataclass(frozen=True)
class Clause:
    """One clause as the clauses matrix shows it."""

    id: str
    kind: str
    quote: str
    summary: str


@dataclass(frozen=True)
class Registers:
    """A profile's clause register and interpretation register, in register order."""

    clauses: tuple[Clause, ...]
    entries: tuple[Entry, ...]


def load_registers(profile: Profile, specs: Path | None = None) -> Registers:
    """The registers of ``profile`` (raw TOML: the question and alternatives texts live there;
    ``executable`` maps each alternative's ID to its index in ``alternatives``, or lists them in
    the order of ``alternatives`` in the Phase 2 register)."""
    root = specs or specs_dir()
    clauses = read_register(root / profile.clauses, profile.clauses_format)
    register = read_register(root / profile.interpretations, profile.interpretations_format)
    entries = []
    for raw in register.get("entry", []):
        alternatives = tuple(str(a) for a in raw.get("alternatives", ()))
        executable = raw.get("executable") or {}
        if isinstance(executable, list):  # Phase 2: the i-th names alternatives[i]
            executable = {alt: index for index, alt in enumerate(executable)}
        entries.append(
            Entry(
                id=str(raw["id"]),
                title=str(raw.get("title", "")),
                question=str(raw.get("question", "")),
                alternatives=alternatives,
                executable=tuple(
                    Alternative(str(alt), _alternative_text(alternatives, index))
                    for alt, index in executable.items()
                ),
            )
        )
    return Registers(
        clauses=tuple(
            Clause(
                str(raw["id"]),
                str(raw.get("kind", "")),
                str(raw.get("quote", "")),
                str(raw.get("summary", "")),
            )
            for raw in clauses.get("clause", [])
        ),
        entries=tuple(entries),
    )


def _alternative_text(alternatives: Sequence[str], index: object) -> str:
    if isinstance(index, int) and 0 <= index < len(alternatives):
        return alternatives[index]
    return ""


@dataclass(frozen=True)
class Run:
    """One certification of one version of one implementation, as the site needs it."""

    name: str
    version: str
    language: str
    contract: str
    date: str
    verdict: str
    verdict_text: str
    partial: tuple[str, ...]
    kit_version: str
    corpus_digest: str
    totals: Mapping[str, int]
    #: The alternative readings it follows (``footer.attribution.profile``).
    profile: tuple[str, ...]
    declared: tuple[str, ...] | None
    contradictions: tuple[str, ...]
    unexplained: tuple[str, ...]
    by_clause: Mapping[str, Mapping[str, int]]
    by_interpretation: Mapping[str, Mapping[str, int]]
    #: vector ID -> outcome, every vector run.
    outcomes: Mapping[str, str]
    #: The results that did not pass, whole (the drill-down shows their failures).
    not_passed: Mapping[str, Mapping[str, Any]]
    #: The badge's label, message and colour (:func:`conformance.report.badge_fields`).
    badge: tuple[str, str, str]
    #: The report's SVG badge (:func:`conformance.report.render_badge`).
    badge_svg: str
    source: Path
    #: The full report rendered as HTML, relative to the site's root.
    report_href: str
    #: The report's own digest (:func:`report_digest`): ties between reports are broken by it.
    digest: str


def find_reports(paths: Iterable[Path]) -> list[Path]:
    """``report.json`` files: each path itself, or every one under a directory (sorted)."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found.extend(sorted(path.rglob("report.json")))
        else:
            found.append(path)
    return found


#: Outcomes a result may have (the report schema's enum).
_OUTCOMES = frozenset({"passed", "failed", "errored", "skipped", "expected-failure"})


def read_report(path: Path) -> dict[str, Any]:
    """A ``report.json`` validated for what the site reads, fast: the header, the footer, the
    signatures, the sections and every result that did not pass against the report schema; of
    a passed result, which the site shows only as its ID and outcome, those two.

    (Validating a thousand passed results against the schema takes a second per report; a
    site of a hundred reports would spend most of its build there.)
    """
    try:
        report = loads(path.read_bytes())
    except (OSError, ValueError, RecursionError) as exc:
        raise ReportError(f"cannot read report {str(path)!r}: {exc}") from exc
    if not isinstance(report, dict) or not isinstance(report.get("results"), list):
        raise ReportError(f"{str(path)!r} is not a report object")
    results = report["results"]
    for index, result in enumerate(results):
        if not (
            isinstance(result, dict)
            and isinstance(result.get("id"), str)
            and result.get("outcome") in _OUTCOMES
        ):
            raise ReportError(f"{str(path)!r}: /results/{index} has no ID or no known outcome")
    try:
        validate_report({**report, "results": [r for r in results if r["outcome"] != "passed"]})
    except ReportError as exc:
        raise ReportError(f"{str(path)!r}: {exc}") from exc
    return report


def _strings(value: Any) -> tuple[str, ...]:
    return tuple(str(v) for v in value) if isinstance(value, list) else ()


def report_digest(report: Mapping[str, Any]) -> str:
    """``sha256:<hex>`` of the report's canonical JSON (keys sorted, compact): the same for a
    report and its collected copy, whatever whitespace each file has."""
    try:
        data = orjson.dumps(report, option=orjson.OPT_SORT_KEYS)
    except TypeError:  # big ints, lone surrogates: the stdlib can, with escapes
        data = json.dumps(report, sort_keys=True, separators=(",", ":")).encode("ascii")
    return "sha256:" + hashlib.sha256(data).hexdigest()


def run_of(report: Mapping[str, Any], path: Path, report_href: str) -> Run:
    """The run of one loaded ``report.json`` (:func:`conformance.report.load_report`)."""
    header, footer = report["header"], report["footer"]
    implementation = header["adapter"].get("implementation") or {}
    if not isinstance(implementation, Mapping):
        implementation = {}
    contract = str(header.get("contract") or "phase6-v1")
    if contract not in _BY_CONTRACT:
        raise ReportError(f"{str(path)!r}: a report of contract {contract!r}, which no page shows")
    attribution = footer.get("attribution") or {}
    declared = attribution.get("declared")
    results = report["results"]
    return Run(
        name=str(implementation.get("name") or "unknown implementation"),
        version=str(implementation.get("version") or "?"),
        language=str(implementation.get("language") or "?"),
        contract=contract,
        date=str(header.get("started") or ""),
        verdict=str(footer["verdict"]["value"]),
        verdict_text=str(footer["verdict"].get("text") or ""),
        partial=tuple(partial_reasons(report)),
        kit_version=str(header["kit"]["version"]),
        corpus_digest=str(header["corpus"]["digest"]),
        totals={k: int(v) for k, v in footer["totals"].items() if k != "compliance"},
        profile=_strings(attribution.get("profile")),
        declared=_strings(declared) if isinstance(declared, list) else None,
        contradictions=tuple(str(c) for c in attribution.get("contradictions") or ()),
        unexplained=_strings(attribution.get("unexplained")),
        by_clause=footer.get("by_clause") or {},
        by_interpretation=footer.get("by_interpretation") or {},
        outcomes={r["id"]: r["outcome"] for r in results},
        not_passed={r["id"]: r for r in results if r["outcome"] != "passed"},
        badge=badge_fields(report),
        badge_svg=render_badge(report),
        source=path,
        report_href=report_href,
        digest=report_digest(report),
    )


_NUMBER = re.compile(r"(\d+)")


def version_key(version: str) -> tuple[tuple[int, str], ...]:
    """A natural sort key: ``1.10`` after ``1.9``."""
    return tuple((int(p), "") if p.isdigit() else (-1, p) for p in _NUMBER.split(version) if p)


@dataclass(frozen=True)
class SetAside:
    """A report of a version another report of the same version was kept over, and why."""

    run: Run
    kept: Run
    reason: str


@dataclass(frozen=True)
class Implementation:
    """Every run of one implementation under one profile, oldest first (one per version), and
    the reports of those versions that were set aside."""

    key: str
    name: str
    runs: tuple[Run, ...]
    set_aside: tuple[SetAside, ...] = ()

    @property
    def latest(self) -> Run:
        """The newest version's run: the one the matrices show."""
        return self.runs[-1]


def _preference(run: Run) -> tuple[bool, str, str, str]:
    """Of two reports of one version the greater is kept: a full run over a partial one, then
    the later date (``header.started``), then, for an exact tie, the greater digest; of copies
    of one report (equal digests), the one whose path sorts last."""
    return (not run.partial, run.date, run.digest, str(run.source))


def _why_set_aside(run: Run, kept: Run) -> str:
    """Why ``run`` was set aside for ``kept`` (:func:`_preference`), in words."""
    if run.digest == kept.digest:
        return "the same report as the one kept (equal digests)"
    if run.partial and not kept.partial:
        return "a partial run (" + "; ".join(run.partial) + "); a full run of this version was kept"
    if run.date != kept.date:
        return f"an earlier run of this version ({run.date or 'no date'}; kept: {kept.date})"
    return (
        "a run of this version with the same date and the same completeness: of such reports "
        "the one whose digest sorts last is kept"
    )


def group_runs(runs: Iterable[Run]) -> dict[str, tuple[Implementation, ...]]:
    """contract -> its implementations (by name), each with one run per version, oldest first
    (by date, then version). Of several reports of one version, one is kept whatever order they
    were read in (:func:`_preference`); the others are listed as set aside, with the reason. Keys
    are file-name slugs, unique across the whole site."""
    by_name: dict[tuple[str, str], dict[str, list[Run]]] = {}
    for run in runs:
        versions = by_name.setdefault((run.contract, run.name), {})
        versions.setdefault(run.version, []).append(run)
    used: set[str] = set()
    grouped: dict[str, list[Implementation]] = {}
    for (contract, name), versions in sorted(by_name.items()):
        key = slugify(name)
        if key in used:
            key = slugify(f"{key}-{contract}")
        while key in used:
            key = slugify(f"{key}-x")
        used.add(key)
        kept: list[Run] = []
        aside: list[SetAside] = []
        for candidates in versions.values():
            ranked = sorted(candidates, key=_preference, reverse=True)
            kept.append(ranked[0])
            aside.extend(SetAside(r, ranked[0], _why_set_aside(r, ranked[0])) for r in ranked[1:])
        ordered = sorted(kept, key=lambda r: (r.date, version_key(r.version)))
        aside.sort(key=lambda a: (version_key(a.run.version), _preference(a.run)))
        grouped.setdefault(contract, []).append(
            Implementation(key, name, tuple(ordered), tuple(aside))
        )
    return {c: tuple(grouped[c]) for c in (p.contract for p in PROFILES) if c in grouped}


def profile_of(contract: str) -> Profile:
    """The :class:`Profile` of a contract."""
    return _BY_CONTRACT[contract]
