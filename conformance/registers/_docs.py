"""Rendered registers: ``specs/interpretations.md`` and ``specs/clauses.md``.

The TOML registers are the source; these pages are generated from them plus the corpus (which
vectors pin each entry), so they never drift.  ``python -m conformance vectors coverage``
writes them next to ``coverage.md`` and ``--check`` fails when a committed page is stale.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from conformance.registers._coverage import Coverage
from conformance.registers._registers import Clause

__all__ = ["render_clauses_markdown", "render_interpretations_markdown"]

_SHOWN = 12


def _alternative_line(
    entry: Mapping[str, Any], runs: dict[int, str], ids: list[str], index: int, text: str
) -> str:
    """One alternative: its ID, whether the reference runs it (or why not), whether the
    register rejects it, and the register's words."""
    if index >= len(ids):
        return f"- {text}"
    alternative_id = runs.get(index, f"{entry['id']}/{ids[index]}")
    parameter = (entry.get("parameters") or {}).get(alternative_id)
    if index in runs and isinstance(parameter, Mapping):
        name = parameter.get("name")
        status = (
            f"executable with a parameter, `{name}` ({parameter.get('means', '')}): the ID "
            f"carries its value, `{alternative_id}({name}=...)`, and `certify` reads the value "
            "from the failing outputs"
        )
    elif index in runs:
        status = "executable: the reference runs it, and `certify` tries it on every failure"
    elif alternative_id in (entry.get("not_executable") or {}):
        status = f"not executable, {entry['not_executable'][alternative_id]}"
    else:
        status = "not executable yet"
    rejected = (entry.get("rejected") or {}).get(alternative_id)
    if rejected:
        status += f"; **rejected**, contradicts {rejected}"
    return f"- `{alternative_id}` ({status}) {text}"


def _vector_list(ids: Sequence[str]) -> str:
    if not ids:
        return "**none**"
    shown = ", ".join(f"`{vid}`" for vid in ids[:_SHOWN])
    more = f" and {len(ids) - _SHOWN} more" if len(ids) > _SHOWN else ""
    return f"{len(ids)}: {shown}{more}"


def _paragraphs(text: str) -> str:
    return " ".join(line.strip() for line in text.strip().splitlines())


def render_interpretations_markdown(register: Path, coverage: Coverage) -> str:
    """The interpretation register as a page: errata first, then every entry in full."""
    document: Mapping[str, Any] = tomllib.loads(register.read_text("utf-8"))
    pinned = {item.interpretation.id: item.vectors for item in coverage.interpretations}
    entries: list[Mapping[str, Any]] = document["entry"]
    lines = [
        "# Interpretation register — SPEC-006 (phase6-v1)",
        "",
        "Generated from `specs/interpretations.toml` and the corpus by "
        "`python -m conformance vectors coverage`; do not edit by hand.",
        "",
        "Each entry answers a place where SPEC-006 lets two honest implementations disagree: the "
        "reading the kit pins, why, the alternatives, and the vectors that pin it. Entries marked "
        "**erratum** are contradictions or gaps for the spec's owner. The numbers in *questions* "
        "refer to `shared/spec-questions.md`.",
        "",
        "## Errata",
        "",
        "| ID | title |",
        "|---|---|",
    ]
    lines += [
        f"| [{e['id']}](#{e['id'].lower()}) | {e.get('title', '')} |"
        for e in entries
        if e.get("erratum")
    ]
    lines += ["", "## Entries", ""]
    for entry in entries:
        flag = " — **erratum**" if entry.get("erratum") else ""
        questions = (
            ", ".join(f"Q{n}" for n in entry.get("questions", ())) or "(found while building)"
        )
        lines += [
            f"### {entry['id']}",
            "",
            f"**{entry.get('title', '')}**{flag} · questions: {questions}",
            "",
            f"*Question.* {_paragraphs(entry.get('question', ''))}",
            "",
            f"*Pinned reading.* {_paragraphs(entry.get('reading', ''))}",
            "",
            f"*Rationale.* {_paragraphs(entry.get('rationale', ''))}",
            "",
        ]
        if entry.get("alternatives"):
            lines.append("*Alternatives.*")
            runs = {index: key for key, index in (entry.get("executable") or {}).items()}
            ids = entry.get("alternative_ids") or []
            lines += [
                _alternative_line(entry, runs, ids, index, alternative)
                for index, alternative in enumerate(entry["alternatives"])
            ]
            if entry.get("runtimes"):
                said = ", ".join(
                    f"{runtime}: `{reading}`" for runtime, reading in entry["runtimes"].items()
                )
                note = (
                    f" ({' '.join(entry['runtimes_note'].split())})"
                    if entry.get("runtimes_note")
                    else ""
                )
                lines.append(f"- *What the obvious code does, per runtime:* {said}{note}")
            lines.append("")
        vectors = pinned.get(entry["id"], ())
        if vectors or not entry.get("verified_by"):
            lines += [f"*Pinned by vectors* ({_vector_list(vectors)})", ""]
        if entry.get("verified_by"):
            tests = ", ".join(f"`{test}`" for test in entry["verified_by"])
            lines += [f"*Pinned by tests* {tests}", ""]
    return "\n".join(lines)


def _line(clause: Clause) -> str:
    return str(clause.line) if clause.spec == "SPEC-006" else f"{clause.spec} {clause.line}"


def render_clauses_markdown(coverage: Coverage) -> str:
    """The clause register as a table with each clause's verification and vector count."""
    lines = [
        "# Clause register — SPEC-006 (phase6-v1)",
        "",
        "Generated from `specs/clauses.toml` and the corpus by "
        "`python -m conformance vectors coverage`; do not edit by hand. Quotes are verbatim from "
        "`specs/seeds/SPEC-006.txt` (line numbers given); the `S3-` clauses quote SPEC-003, the "
        "assembly record's contract (specs/audit.md), and are verified by the kit's tests.",
        "",
        "| ID | line | kind | summary | verified by | vectors |",
        "|---|---:|---|---|---|---:|",
    ]
    for item in coverage.clauses:
        clause = item.clause
        lines.append(
            f"| `{clause.id}` | {_line(clause)} | {clause.kind} | {clause.summary} | "
            f"{', '.join(clause.verified_by)} | {len(item.vectors)} |"
        )
    lines.append("")
    return "\n".join(lines)
