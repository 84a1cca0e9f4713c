"""``compare``: several ``report.json`` files side by side (W3C's merged EARL pages).

Rows: the verdict, totals, each area, then every vector whose outcome is not the same in all
reports (``all_vectors=True`` lists every vector). A vector missing from a report shows ``—``.
Reports over different corpora are compared anyway, with a warning line.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from conformance.report._render import _OUTCOME_COLOURS, _VERDICT_COLOURS, _printable
from conformance.report._templates import html_environment, markdown_environment

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
    """The comparison as Markdown (``templates/compare.md.j2``)."""
    template = markdown_environment().get_template("compare.md.j2")
    return _printable(template.render(_view(reports, all_vectors=all_vectors)))


def render_compare_html(reports: Sequence[Mapping[str, Any]], *, all_vectors: bool = False) -> str:
    """The comparison as one self-contained HTML page (``templates/compare.html.j2``)."""
    template = html_environment().get_template("compare.html.j2")
    return _printable(template.render(_view(reports, all_vectors=all_vectors)))


def _view(reports: Sequence[Mapping[str, Any]], *, all_vectors: bool) -> dict[str, Any]:
    """What both renderings show: the table, its second heading, the colours and short
    outcome names."""
    return {
        "table": compare_reports(reports, all_vectors=all_vectors),
        "title": "All vectors" if all_vectors else "Vectors where the implementations differ",
        "short": _SHORT,
        "verdict_colours": _VERDICT_COLOURS,
        "outcome_colours": _OUTCOME_COLOURS,
    }
