"""Clause and interpretation coverage of the corpus (``specs/coverage.md`` / ``coverage.json``).

Rules (issue 3): every clause is covered by at least :data:`MIN_VECTORS` vectors or is verified
by a named property or probe (``verified_by`` in the clause register); every interpretation
is pinned by at least one vector; vectors name only IDs that exist in the registers. The
generated files hold no timestamps, so CI can check that the committed ones are current.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from conformance.corpus import Corpus
from conformance.registers._registers import Clause, Interpretation

__all__ = [
    "MIN_VECTORS",
    "ClauseCoverage",
    "Coverage",
    "InterpretationCoverage",
    "compute_coverage",
    "coverage_json",
    "render_coverage_markdown",
    "store_vector_pins",
]

MIN_VECTORS = 3
COVERAGE_FORMAT = "phase6-coverage/1"
ClauseStatus = Literal["ok", "other", "gap"]


@dataclass(frozen=True)
class ClauseCoverage:
    """One clause: the vectors naming it and whether that is enough."""

    clause: Clause
    vectors: tuple[str, ...]
    status: ClauseStatus

    @property
    def note(self) -> str:
        """Why the status is what it is."""
        count = len(self.vectors)
        if self.status == "ok":
            return f"{count} vectors"
        if self.status == "other":
            return f"{count} vectors; verified by {', '.join(self.clause.by_other)}"
        wanted = "vectors" if self.clause.by_vectors else "a property or probe"
        return (
            f"only {count} vector(s) (< {MIN_VECTORS}) and no property or probe ({wanted} expected)"
        )


@dataclass(frozen=True)
class InterpretationCoverage:
    """One interpretation: the vectors pinning it."""

    interpretation: Interpretation
    vectors: tuple[str, ...]

    @property
    def ok(self) -> bool:
        """At least one vector pins it (or, outside memory.read, a named test does)."""
        return bool(self.vectors or self.interpretation.verified_by)


@dataclass(frozen=True)
class Coverage:
    """The coverage of one corpus against both registers."""

    corpus_digest: str
    vectors: int
    clauses: tuple[ClauseCoverage, ...]
    interpretations: tuple[InterpretationCoverage, ...]
    unknown_clauses: tuple[tuple[str, tuple[str, ...]], ...]
    unknown_interpretations: tuple[tuple[str, tuple[str, ...]], ...]

    @property
    def problems(self) -> tuple[str, ...]:
        """Every reason the coverage check fails (empty when it passes)."""
        out = [f"{c.clause.id}: {c.note}" for c in self.clauses if c.status == "gap"]
        out += [
            f"{i.interpretation.id}: no vector pins it" for i in self.interpretations if not i.ok
        ]
        out += [
            f"unknown clause {cid} named by {', '.join(ids[:5])}"
            for cid, ids in self.unknown_clauses
        ]
        out += [
            f"unknown interpretation {iid} named by {', '.join(ids[:5])}"
            for iid, ids in self.unknown_interpretations
        ]
        return tuple(out)


def store_vector_pins(directory: Path) -> dict[str, list[str]]:
    """Interpretation ID -> IDs of the SPEC-005 store vectors (``phase6-store-vectors/1``,
    under ``vectors/store/``) that pin it: the store-check entries are pinned there."""
    pins: dict[str, list[str]] = defaultdict(list)
    for path in sorted(directory.glob("*.json")):
        document = json.loads(path.read_text("utf-8"))
        if document.get("format") != "phase6-store-vectors/1":
            continue
        for vector in document["vectors"]:
            for interpretation_id in vector.get("interpretations", ()):
                pins[interpretation_id].append(vector["id"])
    return dict(pins)


def compute_coverage(
    corpus: Corpus,
    clauses: Sequence[Clause],
    interpretations: Sequence[Interpretation],
    extra_pins: Mapping[str, Sequence[str]] | None = None,
) -> Coverage:
    """Count, for every clause and interpretation, the vectors that name it.

    `extra_pins` adds vectors of other formats (store vectors) that pin interpretations.
    """
    by_clause: dict[str, list[str]] = defaultdict(list)
    by_interpretation: dict[str, list[str]] = defaultdict(list)
    for interpretation_id, ids in (extra_pins or {}).items():
        by_interpretation[interpretation_id].extend(ids)
    for vector in corpus.vectors:
        for clause_id in vector.clauses:
            by_clause[clause_id].append(vector.id)
        for interpretation_id in vector.interpretations:
            by_interpretation[interpretation_id].append(vector.id)
    clause_rows = []
    for clause in clauses:
        ids = tuple(by_clause.get(clause.id, ()))
        status: ClauseStatus
        if len(ids) >= MIN_VECTORS:
            status = "ok"
        elif clause.by_other:
            status = "other"
        else:
            status = "gap"
        clause_rows.append(ClauseCoverage(clause, ids, status))
    known_clauses = {c.id for c in clauses}
    known_interpretations = {i.id for i in interpretations}
    return Coverage(
        corpus_digest=corpus.digest,
        vectors=len(corpus),
        clauses=tuple(clause_rows),
        interpretations=tuple(
            InterpretationCoverage(i, tuple(by_interpretation.get(i.id, ())))
            for i in interpretations
        ),
        unknown_clauses=tuple(
            (cid, tuple(ids)) for cid, ids in sorted(by_clause.items()) if cid not in known_clauses
        ),
        unknown_interpretations=tuple(
            (iid, tuple(ids))
            for iid, ids in sorted(by_interpretation.items())
            if iid not in known_interpretations
        ),
    )


def coverage_json(coverage: Coverage) -> dict[str, Any]:
    """The ``specs/coverage.json`` document."""
    return {
        "format": COVERAGE_FORMAT,
        "corpus_digest": coverage.corpus_digest,
        "vectors": coverage.vectors,
        "min_vectors": MIN_VECTORS,
        "ok": not coverage.problems,
        "clauses": {
            c.clause.id: {
                "section": c.clause.section,
                "verified_by": list(c.clause.verified_by),
                "vectors": list(c.vectors),
                "status": c.status,
            }
            for c in coverage.clauses
        },
        "interpretations": {
            i.interpretation.id: {"title": i.interpretation.title, "vectors": list(i.vectors)}
            for i in coverage.interpretations
        },
        "problems": list(coverage.problems),
    }


def _sample(ids: Sequence[str], limit: int = 6) -> str:
    shown = ", ".join(f"`{i}`" for i in ids[:limit])
    return shown + (f" … (+{len(ids) - limit})" if len(ids) > limit else "")


def render_coverage_markdown(coverage: Coverage) -> str:
    """The ``specs/coverage.md`` table (generated; do not edit by hand)."""
    ok_clauses = sum(c.status != "gap" for c in coverage.clauses)
    ok_interpretations = sum(i.ok for i in coverage.interpretations)
    out = [
        "# Coverage of SPEC-006 by the phase6-v1 corpus",
        "",
        "Generated by `python -m conformance vectors coverage`; do not edit by hand.",
        f"Corpus `{coverage.corpus_digest}` ({coverage.vectors} vectors). A clause is covered by",
        f"at least {MIN_VECTORS} vectors or verified by a named property or probe; every",
        "interpretation is pinned by at least one vector.",
        "",
        f"- clauses covered: {ok_clauses}/{len(coverage.clauses)}",
        f"- interpretations pinned: {ok_interpretations}/{len(coverage.interpretations)}",
        f"- problems: {len(coverage.problems)}",
        "",
    ]
    if coverage.problems:
        out += ["## Problems", ""] + [f"- {p}" for p in coverage.problems] + [""]
    out += [
        "## Clauses",
        "",
        "| clause | section | verified by | vectors | status | some vectors |",
        "|---|---|---|---:|---|---|",
    ]
    for row in coverage.clauses:
        out.append(
            f"| {row.clause.id} | {row.clause.section} | {', '.join(row.clause.verified_by)} "
            f"| {len(row.vectors)} | {row.status} | {_sample(row.vectors)} |"
        )
    out += [
        "",
        "## Interpretations",
        "",
        "| interpretation | title | vectors | some vectors |",
        "|---|---|---:|---|",
    ]
    for entry in coverage.interpretations:
        title = entry.interpretation.title.replace("|", "\\|")
        count, sample = len(entry.vectors), _sample(entry.vectors)
        out.append(f"| {entry.interpretation.id} | {title} | {count} | {sample} |")
    return "\n".join(out) + "\n"
