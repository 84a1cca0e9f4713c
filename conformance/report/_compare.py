"""``compare``: several ``report.json`` files side by side (W3C's merged EARL pages).

Rows: the verdict, totals, each area, then every vector whose outcome is not the same in all
reports (``all_vectors=True`` lists every vector). A vector missing from a report shows ``—``.
Reports over different corpora are compared anyway, with a warning line.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from conformance.report._render import (
    _CSS,
    _OUTCOME_COLOURS,
    _VERDICT_COLOURS,
    _code,
    _md_cell,
    _printable,
)

__all__ = ["Comparison", "compare_reports", "render_compare_html", "render_compare_markdown"]

_SHORT = {
    "passed": "pass",
    "failed": "FAIL",
    "errored": "ERROR",
    "skipped": "skip",
    "expected-failure": "xfail",
}


@dataclass(frozen=True)
class Comparison:
    """The merged table: column titles, summary rows and per-vector rows."""

    columns: tuple[str, ...]
    summary: tuple[tuple[str, tuple[str, ...]], ...]
    vectors: tuple[tuple[str, tuple[str | None, ...]], ...]
    warnings: tuple[str, ...]


def _title(report: Mapping[str, Any]) -> str:
    implementation = report["header"]["adapter"].get("implementation") or {}
    name = implementation.get("name") or report["header"]["adapter"]["spec"]
    version = implementation.get("version", "")
    return f"{name} {version}".strip()


def _outcome(result: Mapping[str, Any]) -> str:
    return "unexpected-pass" if result.get("unexpected_pass") else str(result["outcome"])


def compare_reports(
    reports: Sequence[Mapping[str, Any]], *, all_vectors: bool = False
) -> Comparison:
    """Merge ``reports`` into one :class:`Comparison`."""
    columns = tuple(_title(r) for r in reports)
    warnings = []
    digests = {r["header"]["corpus"]["digest"] for r in reports}
    if len(digests) > 1:
        warnings.append(f"the reports cover {len(digests)} different corpora (digests differ)")
    summary: list[tuple[str, tuple[str, ...]]] = [
        ("verdict", tuple(r["footer"]["verdict"]["value"] for r in reports)),
        (
            "passed",
            tuple(
                f"{r['footer']['totals']['passed']}/{r['footer']['totals']['total']}"
                for r in reports
            ),
        ),
        (
            "compliance",
            tuple(f"{r['footer']['totals']['compliance'] * 100:.2f} %" for r in reports),
        ),
        (
            "language",
            tuple(
                str((r["header"]["adapter"].get("implementation") or {}).get("language", "?"))
                for r in reports
            ),
        ),
        ("kit", tuple(r["header"]["kit"]["version"] for r in reports)),
    ]
    areas = sorted({a for r in reports for a in r["footer"]["by_area"]})
    for area in areas:
        row = []
        for report in reports:
            counts = report["footer"]["by_area"].get(area)
            row.append(f"{counts['passed']}/{counts['total']}" if counts else "—")
        summary.append((f"area {area}", tuple(row)))
    outcomes: list[dict[str, str]] = [
        {res["id"]: _outcome(res) for res in report["results"]} for report in reports
    ]
    ids = sorted({i for table in outcomes for i in table})
    rows = []
    for vector_id in ids:
        cells = tuple(table.get(vector_id) for table in outcomes)
        if all_vectors or len(set(cells)) > 1:
            rows.append((vector_id, cells))
    return Comparison(columns, tuple(summary), tuple(rows), tuple(warnings))


def render_compare_markdown(
    reports: Sequence[Mapping[str, Any]], *, all_vectors: bool = False
) -> str:
    """The comparison as Markdown."""
    table = compare_reports(reports, all_vectors=all_vectors)
    head = "| | " + " | ".join(_md_cell(c, 500) for c in table.columns) + " |"
    rule = "|---|" + "---|" * len(table.columns)
    out = ["# phase6-v1 implementations compared", ""]
    out += [f"> warning: {w}\n" for w in table.warnings]
    out += [head, rule]
    out += [
        f"| {_md_cell(label)} | " + " | ".join(_md_cell(c) for c in cells) + " |"
        for label, cells in table.summary
    ]
    out.append("")
    title = "All vectors" if all_vectors else "Vectors where the implementations differ"
    out += [f"## {title} ({len(table.vectors)})", ""]
    if table.vectors:
        out += [head.replace("| |", "| vector |", 1), rule]
        for vector_id, cells in table.vectors:
            shown = [_SHORT.get(c, c) if c else "—" for c in cells]
            out.append(f"| {_code(vector_id)} | " + " | ".join(shown) + " |")
    else:
        out.append("Every vector has the same outcome in every report.")
    return _printable("\n".join(out) + "\n")


def render_compare_html(reports: Sequence[Mapping[str, Any]], *, all_vectors: bool = False) -> str:
    """The comparison as one self-contained HTML page."""
    table = compare_reports(reports, all_vectors=all_vectors)
    e = html.escape
    head = "<tr><th></th>" + "".join(f"<th>{e(c)}</th>" for c in table.columns) + "</tr>"
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        "<title>phase6-v1 implementations compared</title>",
        f"<style>{_CSS}</style></head><body><main>",
        "<h1>phase6-v1 implementations compared</h1>",
    ]
    out += [f"<p><b>warning:</b> {e(w)}</p>" for w in table.warnings]
    out += ["<table>", head]
    for label, cells in table.summary:
        rendered = []
        for cell in cells:
            colour = _VERDICT_COLOURS.get(cell)
            style = f' style="background:{colour};color:#fff"' if colour else ""
            rendered.append(f"<td{style}>{e(cell)}</td>")
        out.append(f"<tr><td>{e(label)}</td>{''.join(rendered)}</tr>")
    out.append("</table>")
    title = "All vectors" if all_vectors else "Vectors where the implementations differ"
    out.append(f"<h2>{title} ({len(table.vectors)})</h2>")
    if table.vectors:
        out += ["<table>", head.replace("<th></th>", "<th>vector</th>", 1)]
        for vector_id, outcomes in table.vectors:
            shown = []
            for outcome in outcomes:
                colour = _OUTCOME_COLOURS.get(outcome or "", "#c62828" if outcome else "#9e9e9e")
                text = _SHORT.get(outcome, outcome) if outcome else "—"
                shown.append(f'<td style="color:{colour}">{e(text)}</td>')
            out.append(f"<tr><td><code>{e(vector_id)}</code></td>{''.join(shown)}</tr>")
        out.append("</table>")
    else:
        out.append("<p>Every vector has the same outcome in every report.</p>")
    out.append("</main></body></html>")
    return _printable("\n".join(out) + "\n")
