"""Report section ``suite_strength``: the kill rate and matrix of the last mutants run.

Reads the published kill matrix, ``specs/kill-matrix.json`` in the kit's data (written by
``nox -s mutants -- --write``, checked by ``nox -s mutants``, the same file in a checkout and in
an installed wheel, whatever the working directory); it never runs a mutant, so it costs
milliseconds inside every ``certify``. The section describes the test
suite, not the implementation under test: it never affects the verdict. A matrix computed on
another corpus than the one being certified is reported as stale.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from conformance._kit import data_root, specs_dir
from conformance.run import Outcome, Section, SectionContext, SectionItem

#: A mutant row's status as a section item outcome: a killed mutant is the suite passing.
_ITEM_OUTCOME = {"killed": Outcome.PASSED, "survived": Outcome.FAILED}

__all__ = ["default_matrix_path", "suite_strength_section"]


def default_matrix_path() -> Path:
    """The published kill matrix: ``specs/kill-matrix.json`` of the kit's data."""
    return specs_dir() / "kill-matrix.json"


def suite_strength_section(context: SectionContext) -> Section:
    """Section provider ``suite_strength`` (option ``kill_matrix=PATH`` names another file)."""
    path = Path(context.options.get("kill_matrix") or default_matrix_path())
    title = "Suite strength (mutation gallery)"
    try:
        matrix: dict[str, Any] = json.loads(path.read_text("utf-8"))
    except FileNotFoundError:
        return Section(
            "suite_strength", title, Outcome.SKIPPED,
            f"no kill matrix at {path}: run `nox -s mutants` to measure the suite",
            affects_verdict=False,
        )  # fmt: skip
    except (OSError, ValueError) as exc:
        return Section("suite_strength", title, Outcome.ERRORED, f"cannot read {path}: {exc}",
                       affects_verdict=False)  # fmt: skip
    totals = matrix.get("totals", {})
    corpus = matrix.get("corpus", {})
    stale = corpus.get("digest") != context.corpus.digest
    summary = (
        f"{totals.get('killed', 0)} of {totals.get('mutants', 0)} single-fault mutants of the "
        f"reference killed: each fails certification ({totals.get('kill_rate', 0):.1%}); "
        f"{totals.get('killed_on_target', 0)} on the clause they violate; survivors: "
        f"{', '.join(matrix.get('survivors', [])) or 'none'}. "
        + (
            f"The matrix was computed on corpus {str(corpus.get('digest'))[:19]}... (STALE: this "
            f"run's corpus is {context.corpus.digest[:19]}...)."
            if stale
            else "The matrix was computed on this corpus."
        )
    )
    items = []
    for row in matrix.get("mutants", []):
        first = row.get("failing_vectors", {}).get("first", []) + row.get("failing_probes", [])
        items.append(
            SectionItem(
                id=row["name"],
                outcome=_ITEM_OUTCOME.get(row["status"], Outcome.ERRORED),
                clauses=tuple(row.get("clauses", ())),
                message=f"{row.get('summary', '')} First failing: {', '.join(first[:4]) or '-'}",
                details={
                    "status": row["status"],
                    "on_target": row.get("on_target"),
                    "interpretations": row.get("interpretations", []),
                },
            )
        )
    survivors = matrix.get("survivors") or totals.get("broken")
    status = Outcome.FAILED if survivors else Outcome.PASSED
    return Section(
        "suite_strength",
        title,
        status,
        summary,
        tuple(items),
        data={"matrix": _shown_path(path), "totals": totals, "corpus": corpus, "stale": stale},
        affects_verdict=False,
    )


def _shown_path(path: Path) -> str:
    """The matrix's path as a report shows it: relative to the kit's data when it is the
    published one (a report carries no host path), else as given."""
    try:
        return path.resolve().relative_to(data_root().resolve()).as_posix()
    except ValueError:
        return str(path)
