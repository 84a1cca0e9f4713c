"""The kill matrix as JSON (``kill-matrix.json``) and markdown (``kill-matrix.md``).

Two forms: the run's own matrix (``reports/mutants/``, git-ignored: when it ran, how long, which
tools, every kill's message with the temporary paths it saw) and the *published* matrix
(``specs/kill-matrix.{json,md}``, committed): the reproducible projection of the first, with no
clock, no durations, no messages and no host paths. The ``suite_strength`` section of every
report reads the published one; ``nox -s mutants`` fails when it is stale.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tools.mutants._kill import MutantOutcome

__all__ = [
    "FORMAT",
    "build_matrix",
    "published",
    "render_markdown",
    "render_table",
    "write_matrix",
]

FORMAT = "phase6-kill-matrix/1"


def build_matrix(
    outcomes: Sequence[MutantOutcome],
    *,
    corpus_digest: str,
    corpus_vectors: int,
    mode: str,
    duration_s: float,
    tools: Mapping[str, str],
    kit_version: str,
) -> dict[str, Any]:
    """The JSON document (the harness may read the clock: ``generated``)."""
    killed = [o for o in outcomes if o.status == "killed"]
    broken = [o for o in outcomes if o.status == "broken"]
    valid = len(outcomes) - len(broken)
    return {
        "format": FORMAT,
        "generated": datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z"),
        "kit_version": kit_version,
        "corpus": {"digest": corpus_digest, "vectors": corpus_vectors},
        "mode": mode,
        "duration_s": round(duration_s, 1),
        "tools": dict(tools),
        "totals": {
            "mutants": len(outcomes),
            "killed": len(killed),
            "killed_on_target": sum(1 for o in killed if o.on_target),
            "survived": sum(1 for o in outcomes if o.status == "survived"),
            "broken": len(broken),
            "kill_rate": round(len(killed) / valid, 4) if valid else 0.0,
        },
        "survivors": [o.name for o in outcomes if o.status == "survived"],
        # Killed, but by no vector: behavioural by design, or a hole the vectors could fill.
        "vector_blind": [
            {"name": o.name, "vectors_run": o.vectors_run, "effect": o.effect}
            for o in killed
            if not o.failing_vectors
        ],
        "off_target": [o.name for o in killed if not o.on_target],
        "mutants": [o.to_json() for o in outcomes],
    }


#: What the published matrix leaves out: anything that depends on the clock, the machine or
#: the temporary directories of the run.
_RUN_ONLY = ("generated", "duration_s", "tools")


def published(matrix: Mapping[str, Any]) -> dict[str, Any]:
    """The reproducible projection of a run's matrix (what ``specs/kill-matrix.json`` holds)."""
    document = {key: value for key, value in matrix.items() if key not in _RUN_ONLY}
    document["mutants"] = [
        {
            **{key: value for key, value in row.items() if key != "duration_s"},
            "kills": [{k: v for k, v in kill.items() if k != "message"} for kill in row["kills"]],
        }
        for row in matrix["mutants"]
    ]
    return document


def _killers(row: Mapping[str, Any]) -> str:
    parts = []
    vectors = row["failing_vectors"]
    if vectors["count"]:
        shown = ", ".join(vectors["first"][:4])
        more = f" (+{vectors['count'] - 4})" if vectors["count"] > 4 else ""
        parts.append(f"vectors {shown}{more}")
    if row["failing_probes"]:
        parts.append("probes " + ", ".join(row["failing_probes"][:4]))
    if row["failing_sections"]:
        parts.append("sections " + ", ".join(row["failing_sections"]))
    return "; ".join(parts) or row.get("broken_reason") or "-"


def render_markdown(matrix: Mapping[str, Any]) -> str:
    """The matrix as a markdown page."""
    totals = matrix["totals"]
    out = [
        "# Mutation gallery: kill matrix",
        "",
        f"Corpus `{matrix['corpus']['digest'][:19]}...` ({matrix['corpus']['vectors']} vectors), "
        f"mode {matrix['mode']}"
        + (
            f", {matrix['duration_s']} s, generated {matrix['generated']}."
            if "generated" in matrix
            else " (published form: no clock, durations or messages; see tools/mutants)."
        ),
        "",
        f"**{totals['killed']}/{totals['mutants'] - totals['broken']} mutants killed "
        f"({totals['kill_rate']:.1%})**, {totals['killed_on_target']} on the clause they violate; "
        f"{totals['survived']} survived; {totals['broken']} broken.",
        "",
    ]
    if matrix["survivors"]:
        out += [
            "Survivors (holes in the corpus): " + ", ".join(f"`{s}`" for s in matrix["survivors"]),
            "",
        ]
    blind = matrix.get("vector_blind", [])
    if blind:
        names = ", ".join(f"`{b['name']}` ({b['vectors_run']} vectors run)" for b in blind)
        out += [
            f"Killed by no vector, only by probes or sections: {names}. Side-effect mutants are "
            "invisible to vectors by design; for the others a vector could be added "
            "(`--full` runs every vector against every mutant).",
            "",
        ]
    if matrix["off_target"]:
        out += ["Killed only off target: " + ", ".join(f"`{s}`" for s in matrix["off_target"]), ""]
    out += ["| mutant | violates | killed? | first failing |", "|---|---|---|---|"]
    for row in matrix["mutants"]:
        violates = ", ".join([*row["clauses"], *row["interpretations"]])
        status = row["status"]
        if status == "killed":
            status = "killed" if row["on_target"] else "killed (off target)"
        elif status == "survived":
            status = "**SURVIVED**"
        killers = _killers(row).replace("|", "\\|")
        out.append(f"| `{row['name']}`: {row['summary']} | {violates} | {status} | {killers} |")
    if "tools" in matrix:
        out += ["", "Tools: " + "; ".join(f"{k} {v}" for k, v in matrix["tools"].items())]
    out.append("")
    return "\n".join(out)


def render_table(matrix: Mapping[str, Any]) -> str:
    """A plain-text table for the terminal."""
    rows = [("mutant", "violates", "result", "first failing")]
    for row in matrix["mutants"]:
        status = row["status"] + ("" if row["status"] != "killed" or row["on_target"] else " (off)")
        rows.append((row["name"], ",".join(row["clauses"][:2]), status, _killers(row)[:110]))
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    lines = ["  ".join(r[i].ljust(widths[i]) for i in range(3)) + "  " + r[3] for r in rows]
    lines.insert(1, "-" * (sum(widths) + 40))
    return "\n".join(lines)


def write_matrix(matrix: Mapping[str, Any], directory: Path) -> tuple[Path, Path]:
    """Write kill-matrix.json and kill-matrix.md into ``directory``."""
    directory.mkdir(parents=True, exist_ok=True)
    json_path = directory / "kill-matrix.json"
    md_path = directory / "kill-matrix.md"
    json_path.write_text(json.dumps(matrix, indent=1, ensure_ascii=False) + "\n", "utf-8")
    md_path.write_text(render_markdown(matrix), "utf-8")
    return json_path, md_path
