"""Results of a certification: per-vector outcomes, failure details, totals and the verdict.

Outcomes (Bowtie's, plus protobuf's expected failures): ``passed``, ``failed`` (the
implementation answered, wrongly), ``errored`` (it crashed, hung, broke the protocol or raised),
``skipped`` (not run; never counts as a pass) and ``expected-failure`` (failed or errored and
listed in the expected-failures file). A listed vector that passes keeps ``passed`` and is
flagged ``unexpected_pass``: the list is stale and the run is not compliant.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from conformance.registers import split_reading_id

__all__ = [
    "FAILURE_CLAUSES",
    "ErrorDetail",
    "ErrorKind",
    "Failure",
    "FailureKind",
    "Outcome",
    "Totals",
    "VectorResult",
    "Verdict",
    "VerdictValue",
    "compute_verdict",
    "pinned_cover",
    "worst_outcome",
]


class Outcome(StrEnum):
    """The outcome of one checked thing: a vector, a property family, a probe check, a section.

    The one definition of outcome names in the kit; everything that reports an outcome uses it.
    """

    PASSED = "passed"
    FAILED = "failed"
    ERRORED = "errored"
    SKIPPED = "skipped"
    EXPECTED_FAILURE = "expected-failure"


#: Outcomes from best to worst, for roll-ups: a skip beats only a pass, an expected failure is
#: no better than an error, a failure is the worst.
_SEVERITY = (
    Outcome.PASSED,
    Outcome.SKIPPED,
    Outcome.EXPECTED_FAILURE,
    Outcome.ERRORED,
    Outcome.FAILED,
)


def worst_outcome(outcomes: Iterable[Outcome | str]) -> Outcome:
    """The worst of several outcomes (``passed`` for none)."""
    return max((Outcome(o) for o in outcomes), key=_SEVERITY.index, default=Outcome.PASSED)


class FailureKind(StrEnum):
    """Why a vector failed."""

    MISMATCH = "mismatch"  # the result differs from `expect`
    DETERMINISM = "determinism"  # two runs (same or fresh process) differ
    STORE_MUTATED = "store-mutated"  # a file under the vector root changed


class ErrorKind(StrEnum):
    """Why a vector errored (kinds of :class:`~conformance._errors.AdapterError`)."""

    SPAWN = "spawn"
    HANDSHAKE = "handshake"
    CRASH = "crash"
    TIMEOUT = "timeout"
    PROTOCOL = "protocol"
    INTERNAL = "internal-error"


#: Clauses a failure kind violates whatever the vector is about (IDs from specs/clauses.toml).
#: S6-ACC-01: "Re-running with the same input and store bytes yields a byte-identical
#: ContextPackage"; S6-OUT-24/25: record_hash / package_hash "MUST be stable across runs";
#: S6-ERR-07: "The same invalid inputs MUST produce the same error type and message";
#: S6-SEC-01 / S6-SEC-03 / S6-ACC-04: "No store mutation occurs".
FAILURE_CLAUSES: Mapping[FailureKind, Mapping[str, tuple[str, ...]]] = {
    FailureKind.DETERMINISM: {
        "package": ("S6-ACC-01", "S6-OUT-24", "S6-OUT-25"),
        "error": ("S6-ACC-01", "S6-ERR-07"),
    },
    FailureKind.STORE_MUTATED: {
        "package": ("S6-SEC-01", "S6-SEC-03", "S6-ACC-04"),
        "error": ("S6-SEC-01", "S6-SEC-03", "S6-ACC-04"),
    },
}


@dataclass(frozen=True)
class Failure:
    """One reason a vector failed: where the first difference is and what was on each side.

    ``expected`` / ``actual`` are short JSON texts of the values at ``path``; ``diff`` a capped
    unified diff of the whole results (mismatch) or of the two runs (determinism).
    """

    kind: FailureKind
    message: str
    clauses: tuple[str, ...]
    path: str | None = None
    expected: str | None = None
    actual: str | None = None
    diff: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The report form."""
        return {
            "kind": self.kind.value,
            "message": self.message,
            "clauses": list(self.clauses),
            "path": self.path,
            "expected": self.expected,
            "actual": self.actual,
            "diff": self.diff,
        }


@dataclass(frozen=True)
class ErrorDetail:
    """Context for an errored vector: what happened, the stderr tail, the exit status."""

    kind: ErrorKind
    message: str
    stderr_tail: str = ""
    exit_status: int | None = None
    detail: str = ""

    def to_json(self) -> dict[str, Any]:
        """The report form."""
        return {
            "kind": self.kind.value,
            "message": self.message,
            "stderr_tail": self.stderr_tail,
            "exit_status": self.exit_status,
            "detail": self.detail,
        }


@dataclass(frozen=True)
class VectorResult:
    """The outcome of one vector, with the vector's metadata so a report stands alone."""

    id: str
    area: str
    level: str
    clauses: tuple[str, ...]
    interpretations: tuple[str, ...]
    file: str
    outcome: Outcome
    failures: tuple[Failure, ...] = ()
    error: ErrorDetail | None = None
    duration_s: float = 0.0
    runs: int = 0
    expected_failure_reason: str | None = None
    unexpected_pass: bool = False
    skip_reason: str | None = None
    reproduce: str | None = None
    #: What the implementation returned on a vector it failed (compact JSON, at most
    #: :data:`MAX_KEPT_ACTUAL` bytes): the evidence attribution compares with the reference
    #: run under each alternative reading. Not in the report.
    actual: bytes | None = field(default=None, repr=False, compare=False)

    @property
    def ok(self) -> bool:
        """Passed and not a surprise."""
        return self.outcome is Outcome.PASSED and not self.unexpected_pass

    def to_json(self) -> dict[str, Any]:
        """The report form (``specs/schemas/report.schema.json#/$defs/result``)."""
        return {
            "id": self.id,
            "area": self.area,
            "level": self.level,
            "clauses": list(self.clauses),
            "interpretations": list(self.interpretations),
            "file": self.file,
            "outcome": self.outcome.value,
            "failures": [f.to_json() for f in self.failures],
            "error": self.error.to_json() if self.error else None,
            "duration_ms": round(self.duration_s * 1000, 3),
            "runs": self.runs,
            "expected_failure_reason": self.expected_failure_reason,
            "unexpected_pass": self.unexpected_pass,
            "skip_reason": self.skip_reason,
            "reproduce": self.reproduce,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> VectorResult:
        """Rebuild from the report form."""
        error = data.get("error")
        return cls(
            id=data["id"],
            area=data["area"],
            level=data["level"],
            clauses=tuple(data["clauses"]),
            interpretations=tuple(data["interpretations"]),
            file=data.get("file", ""),
            outcome=Outcome(data["outcome"]),
            failures=tuple(
                Failure(
                    kind=FailureKind(f["kind"]),
                    message=f["message"],
                    clauses=tuple(f["clauses"]),
                    path=f.get("path"),
                    expected=f.get("expected"),
                    actual=f.get("actual"),
                    diff=f.get("diff"),
                )
                for f in data.get("failures", ())
            ),
            error=ErrorDetail(
                kind=ErrorKind(error["kind"]),
                message=error["message"],
                stderr_tail=error.get("stderr_tail", ""),
                exit_status=error.get("exit_status"),
                detail=error.get("detail", ""),
            )
            if error
            else None,
            duration_s=data.get("duration_ms", 0.0) / 1000,
            runs=data.get("runs", 0),
            expected_failure_reason=data.get("expected_failure_reason"),
            unexpected_pass=data.get("unexpected_pass", False),
            skip_reason=data.get("skip_reason"),
            reproduce=data.get("reproduce"),
        )


@dataclass(frozen=True)
class Totals:
    """Counts per outcome, plus unexpected passes."""

    total: int = 0
    passed: int = 0
    failed: int = 0
    errored: int = 0
    skipped: int = 0
    expected_failure: int = 0
    unexpected_pass: int = 0

    @classmethod
    def of(cls, results: Iterable[VectorResult]) -> Totals:
        """Count ``results``."""
        counts: Counter[str] = Counter()
        unexpected = 0
        total = 0
        for result in results:
            total += 1
            counts[result.outcome.value] += 1
            unexpected += result.unexpected_pass
        return cls(
            total=total,
            passed=counts["passed"],
            failed=counts["failed"],
            errored=counts["errored"],
            skipped=counts["skipped"],
            expected_failure=counts["expected-failure"],
            unexpected_pass=unexpected,
        )

    def counts(self) -> dict[str, int]:
        """Counts per outcome name (every outcome, zeros included) plus ``total``."""
        return {
            Outcome.PASSED.value: self.passed,
            Outcome.FAILED.value: self.failed,
            Outcome.ERRORED.value: self.errored,
            Outcome.SKIPPED.value: self.skipped,
            Outcome.EXPECTED_FAILURE.value: self.expected_failure,
            "total": self.total,
        }

    @property
    def compliance(self) -> float:
        """Passed / total (Bowtie: a skip or an expected failure is never a pass)."""
        return self.passed / self.total if self.total else 0.0

    def to_json(self) -> dict[str, Any]:
        """The report form."""
        return {
            "total": self.total,
            "passed": self.passed,
            "failed": self.failed,
            "errored": self.errored,
            "skipped": self.skipped,
            "expected-failure": self.expected_failure,
            "unexpected_pass": self.unexpected_pass,
            "compliance": round(self.compliance, 6),
        }


class VerdictValue(StrEnum):
    """The verdict of a certification run."""

    COMPLIANT = "compliant"
    COMPLIANT_REQUIRED_ONLY = "compliant-required-only"
    NON_COMPLIANT = "non-compliant"
    ADAPTER_BROKEN = "adapter-broken"


@dataclass(frozen=True)
class Verdict:
    """The verdict, a sentence saying it, and what it rests on.

    ``differs_on``: the pinned interpretations the implementation reads differently (from the
    pinned vectors that did not pass, :func:`pinned_cover`, and the section items whose failure
    rests only on pinned readings). ``partial``: why this run cannot certify anything (a
    selection, another corpus, sections not run, an interruption, a harness fault); the value
    then speaks only of what ran. ``skipped``: checks that could not run here, with the reason.
    """

    value: VerdictValue
    text: str
    differs_on: tuple[str, ...] = ()
    reasons: tuple[str, ...] = field(default=())
    partial: tuple[str, ...] = ()
    skipped: tuple[str, ...] = ()

    @property
    def certifies(self) -> bool:
        """Whether this verdict is a certification (not partial)."""
        return not self.partial

    @property
    def line(self) -> str:
        """The one-line form the console and the reports lead with."""
        if self.partial:
            head = f"PARTIAL RUN, no verdict ({'; '.join(self.partial)}) — on what ran: "
        else:
            head = ""
        tail = f" [skipped here: {'; '.join(self.skipped)}]" if self.skipped else ""
        return f"{head}{self.value.value} — {self.text}{tail}"

    def to_json(self) -> dict[str, Any]:
        """The report form."""
        return {
            "value": self.value.value,
            "text": self.text,
            "differs_on": list(self.differs_on),
            "reasons": list(self.reasons),
            "partial": list(self.partial),
            "skipped": list(self.skipped),
        }


def pinned_cover(results: Iterable[VectorResult]) -> tuple[str, ...]:
    """The fewest pinned interpretations that explain every pinned vector that did not pass.

    A vector lists every interpretation its expected result depends on, so one wrong reading
    fails vectors that also name others (INT-29 is on most of the corpus). Greedy set cover:
    repeatedly take the interpretation naming the most unexplained failing vectors; on a tie,
    the one with the larger share of its own vectors failing (a reading the implementation
    differs on fails most of its vectors, a bystander few). Sorted by ID.
    """
    results = list(results)
    bad = [r for r in results if r.level != "required" and not r.ok and r.interpretations]
    total: Counter[str] = Counter(i for r in results for i in set(r.interpretations))
    failing: Counter[str] = Counter(i for r in bad for i in set(r.interpretations))
    uncovered = list(bad)
    chosen: list[str] = []
    while uncovered:
        counts: Counter[str] = Counter(i for r in uncovered for i in set(r.interpretations))
        best = max(counts, key=lambda i: (counts[i], failing[i] / total[i], i))
        chosen.append(best)
        uncovered = [r for r in uncovered if best not in r.interpretations]
    return tuple(sorted(chosen))


def compute_verdict(
    results: Iterable[VectorResult],
    *,
    broken_reason: str | None = None,
    section_failures: Iterable[str] = (),
    section_pinned: Iterable[str] = (),
    interrupted: bool = False,
    harness_faults: Iterable[str] = (),
    partial: Iterable[str] = (),
    skipped: Iterable[str] = (),
    explained: Mapping[str, tuple[str, ...]] | None = None,
    contradictions: Iterable[str] = (),
    rejected: Mapping[str, str] | None = None,
) -> Verdict:
    """The verdict over ``results`` (and the sections that affect it).

    - ``adapter-broken``: the handshake failed (``broken_reason``) or every vector errored;
    - ``compliant``: every required and pinned vector passed, no unexpected pass, no failing
      verdict-relevant section;
    - ``compliant-required-only``: only pinned vectors, and section checks resting only on
      pinned readings (``section_pinned``: their interpretations), fail: "compliant on
      required, differs on pinned interpretations INT-x, INT-y";
    - ``non-compliant``: anything else (``section_failures`` names sections whose failure
      rests on a required check).

    ``partial`` and ``skipped`` are carried into the verdict (see :class:`Verdict`).

    ``explained`` (attribution, :mod:`conformance.run._attribution`): failing vector ID -> the
    executable alternative readings that *reproduce* what the implementation returned. Such a
    failure is that reading, whatever the vector's level, and ``differs_on`` names those
    alternatives by ID (``INT-27/budget-exhausted``). A failure no alternative reproduces is
    a bug (or a reading the register does not list, which is not certified), whatever its
    level: non-compliant. Without ``explained`` (no attribution ran: the Phase 2 profile),
    pinned failures are attributed from the vectors' labels (:func:`pinned_cover`).

    ``rejected``: alternatives the register lists but rejects (``rejected`` in the register:
    the clause each contradicts). A failure one of them reproduces is named by its ID, and it
    makes the implementation non-compliant: the register considered that reading and found it
    breaks a MUST.
    """
    evidence = explained is not None
    explained = dict(explained or {})
    results = list(results)
    partial, skipped, section_pinned = tuple(partial), tuple(skipped), tuple(section_pinned)
    if broken_reason is not None:
        return Verdict(
            VerdictValue.ADAPTER_BROKEN,
            f"adapter broken: {broken_reason}",
            partial=partial,
            skipped=skipped,
        )
    totals = Totals.of(results)
    if totals.total and totals.errored == totals.total:
        first = next((r.error for r in results if r.error), None)
        why = first.message if first else "every vector errored"
        return Verdict(
            VerdictValue.ADAPTER_BROKEN,
            f"adapter broken: every vector errored (first: {why})",
            partial=partial,
            skipped=skipped,
        )
    reasons: list[str] = ["the run was interrupted"] if interrupted else []
    reasons += [f"harness fault: {fault}" for fault in harness_faults]
    required_bad = [
        r for r in results if r.level == "required" and not r.ok and r.id not in explained
    ]
    pinned_bad = [r for r in results if r.level != "required" and not r.ok]
    # Section items attributed by evidence name alternatives (INT-27/budget-exhausted); the
    # others name register entries from hand-kept tables (unverified).
    evidenced = {i for i in section_pinned if "/" in i}
    section_pinned = tuple(i for i in section_pinned if "/" not in i)
    reproduced = sorted(
        {*evidenced, *(a for r in results if not r.ok for a in explained.get(r.id, ()))}
    )
    inferred = () if evidence else pinned_cover(results)
    if required_bad:
        reasons.append(f"{len(required_bad)} required vector(s) did not pass")
    # A crash, a hang, a protocol error, a store mutation or a nondeterministic reply is never
    # a reading of an ambiguous clause, whatever the vector's level.
    misbehaved = [
        r
        for r in pinned_bad
        if r.outcome is Outcome.ERRORED
        or (
            r.outcome is Outcome.FAILED
            and any(f.kind is not FailureKind.MISMATCH for f in r.failures)
        )
    ]
    if misbehaved:
        reasons.append(
            f"{len(misbehaved)} pinned vector(s) errored or failed a check no reading explains "
            "(a crash, a timeout, a protocol error, a store mutation, nondeterminism)"
        )
    if evidence:
        bugs = [
            r
            for r in pinned_bad
            if r.outcome is Outcome.FAILED and r not in misbehaved and r.id not in explained
        ]
        if bugs:
            reasons.append(
                f"{len(bugs)} pinned vector(s) failed in a way no listed reading reproduces "
                "(a bug, or a reading the register does not list yet: propose it as an "
                "executable alternative, CONTRIBUTING.md)"
            )
    for alternative in reproduced:
        base = split_reading_id(alternative)[0]  # a parameterized reading: its alternative
        if base in (rejected or {}):
            reasons.append(
                f"follows {alternative}, a reading the register rejects: it contradicts "
                f"{(rejected or {})[base]}"
            )
    # Readings followed only in part, or against the implementation's own declaration: the
    # first here, every one in the report's reading profile.
    contradictions = list(contradictions)
    if contradictions:
        more = len(contradictions) - 1
        reasons.append(
            f"readings: {contradictions[0]}"
            + (f" (and {more} more contradiction(s): the report's reading profile)" if more else "")
        )
    unexpected = [r.id for r in results if r.unexpected_pass]
    if unexpected:
        reasons.append(f"{len(unexpected)} unexpected pass(es) of listed expected failures")
    failed_sections = list(section_failures)
    reasons.extend(f"section {name!r} failed" for name in failed_sections)
    if totals.total == 0:
        reasons.append("no vector was run")
    differs_on = tuple(sorted({*reproduced, *inferred, *section_pinned}))
    if reasons:
        if pinned_bad:
            reasons.append(f"{len(pinned_bad)} pinned vector(s) did not pass")
        return Verdict(
            VerdictValue.NON_COMPLIANT,
            "non-compliant: " + "; ".join(reasons),
            differs_on,
            tuple(reasons),
            partial,
            skipped,
        )
    if differs_on or pinned_bad or explained:
        because = [f"{len(pinned_bad)} pinned vector(s) did not pass"] if pinned_bad else []
        parts = []
        if reproduced:
            count = sum(1 for r in results if not r.ok and r.id in explained)
            parts.append(f"follows {', '.join(reproduced)}")
            because.append(
                f"{count} failing vector(s) and {len(evidenced)} section reading(s) reproduced "
                f"by the reference under {', '.join(reproduced)}"
            )
        unverified = sorted({*inferred, *section_pinned})
        if unverified:
            parts.append(f"differs on pinned interpretations {', '.join(unverified)}")
            if explained or inferred:
                because.append(
                    "no executable alternative reproduces the failures naming "
                    f"{', '.join(inferred) or '(none)'}: inferred from labels, unverified"
                )
        section_only = sorted(set(section_pinned) - set(inferred))
        if section_only:
            because.append(f"pinned section checks differ on {', '.join(section_only)}")
        return Verdict(
            VerdictValue.COMPLIANT_REQUIRED_ONLY,
            f"compliant on required, {'; '.join(parts) or 'differs on (none named)'}",
            differs_on,
            tuple(because),
            partial,
            skipped,
        )
    return Verdict(
        VerdictValue.COMPLIANT,
        f"compliant: all {totals.total} vectors passed",
        partial=partial,
        skipped=skipped,
    )
