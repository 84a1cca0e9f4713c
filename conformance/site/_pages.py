"""The site's pages, one template each (``conformance/site/templates/``): implementations,
readings matrix, clauses matrix, vectors (the drill-down loads on demand) and history, for one
profile.

The rendering habits of the report (:mod:`conformance.report`): the pages come from templates
of the report's HTML environment, which caps, makes printable and escapes every value, whoever
supplied it; this module prepares the data. Pages are plain HTML and CSS with one small script
(``assets/site.js``) used by the vectors page only. Links are relative, so the site works from
``file://`` and from any static host.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from conformance.registers import split_reading_id
from conformance.report._templates import html_environment
from conformance.site._model import Entry, Implementation, Profile, Registers, Run

__all__ = [
    "PAGES",
    "TABLE_COLUMNS",
    "Cell",
    "VectorRow",
    "implementation_row",
    "reading_cells",
    "render_clauses",
    "render_history",
    "render_implementations",
    "render_readings",
    "render_vectors",
]

#: file name -> navigation label, in navigation order.
PAGES = {
    "index.html": "Implementations",
    "readings.html": "Readings",
    "clauses.html": "Clauses",
    "vectors.html": "Vectors",
    "history.html": "History",
}
#: The implementations table: the page and ``api/v1/implementations.json`` say the same.
TABLE_COLUMNS = ("name", "language", "version", "verdict", "profile", "kit", "corpus", "date")
_PINNED = "pinned"
_VERDICT_COLOURS = {
    "compliant": "#2e8540",
    "compliant-required-only": "#b58105",
    "non-compliant": "#c62828",
    "adapter-broken": "#616161",
}
#: A partial run's point in the history chart: the grey of its badge.
_PARTIAL_COLOUR = "#9e9e9e"


def _page(template: str, profile: Profile, others: Sequence[Profile], **data: Any) -> str:
    """``template`` (``<page>.html.j2``) rendered for ``profile``, with the navigation."""
    environment = html_environment("conformance.site")
    return environment.get_template(template).render(
        profile=profile,
        others=others,
        base="../" if profile.directory else "",
        pages=PAGES,
        pinned=_PINNED,
        **data,
    )


def implementation_row(run: Run) -> dict[str, str]:
    """One row of the implementations table (:data:`TABLE_COLUMNS`), from its newest run."""
    return {
        "name": run.name,
        "language": run.language,
        "version": run.version,
        "verdict": run.verdict,
        "profile": ", ".join(run.profile) or _PINNED,
        "kit": run.kit_version,
        "corpus": run.corpus_digest.removeprefix("sha256:")[:12],
        "date": run.date[:10],
    }


def render_implementations(
    profile: Profile, implementations: Sequence[Implementation], others: Sequence[Profile]
) -> str:
    """The implementations page: each implementation's newest run, its badge, its report."""
    rows = [
        {"key": i.key, "run": i.latest, "cells": implementation_row(i.latest)}
        for i in implementations
    ]
    aside = [i for i in implementations if i.set_aside]
    return _page("index.html.j2", profile, others, rows=rows, columns=TABLE_COLUMNS, aside=aside)


@dataclass(frozen=True)
class Cell:
    """One cell of the readings matrix: what one implementation follows for one entry."""

    #: The alternative IDs it follows, or ``("pinned",)``.
    readings: tuple[str, ...]
    #: Vectors naming the entry that failed in a way no alternative reading explains.
    failing: int


def reading_cells(entry: Entry, implementations: Sequence[Implementation]) -> list[Cell]:
    """For each implementation's newest run: the alternatives of ``entry`` it follows (its
    profile), else the pinned reading with the count of this entry's vectors it fails that no
    alternative explains (``footer.attribution.unexplained``)."""
    cells = []
    for implementation in implementations:
        run = implementation.latest
        ids = {alt.id for alt in entry.executable}  # a parameterized one with its value
        followed = tuple(r for r in run.profile if split_reading_id(r)[0] in ids)
        unexplained = set(run.unexplained)
        failing = sum(
            1
            for vector, result in run.not_passed.items()
            if vector in unexplained and entry.id in (result.get("interpretations") or ())
        )
        cells.append(Cell(followed or (_PINNED,), 0 if followed else failing))
    return cells


def _entry_hover(entry: Entry) -> str:
    lines = [entry.question, "", "Alternatives:"]
    lines.extend(f"{i}. {alt}" for i, alt in enumerate(entry.alternatives))
    return "\n".join(lines)


def _cell_view(cell: Cell, texts: dict[str, str]) -> dict[str, Any]:
    """A readings cell as the template shows it: pinned (failing or not), or the alternatives
    followed, each with its text on hover."""
    return {
        "pinned": cell.readings == (_PINNED,),
        "css": "fail" if cell.failing else "pinned",
        "note": f" · {cell.failing} failing" if cell.failing else "",
        "readings": cell.readings,
        "shown": [
            (texts.get(split_reading_id(r)[0], ""), r.partition("/")[2] or r) for r in cell.readings
        ],
    }


def render_readings(
    profile: Profile,
    registers: Registers,
    implementations: Sequence[Implementation],
    others: Sequence[Profile],
) -> str:
    """The readings matrix: every register entry × implementation, entries where they disagree
    first; the entry's question and alternatives on hover."""
    rows = []
    for index, entry in enumerate(registers.entries):
        cells = reading_cells(entry, implementations)
        disagree = len({cell.readings for cell in cells}) > 1
        texts = {alt.id: alt.text for alt in entry.executable}
        row = {
            "entry": entry,
            "disagree": disagree,
            "hover": _entry_hover(entry),
            "cells": [_cell_view(cell, texts) for cell in cells],
        }
        rows.append((not disagree, index, row))
    rows.sort(key=lambda row: row[:2])
    disagreeing = sum(1 for row in rows if not row[0])
    return _page(
        "readings.html.j2",
        profile,
        others,
        rows=[row for _, _, row in rows],
        disagreeing=disagreeing,
        implementations=implementations,
    )


def render_clauses(
    profile: Profile,
    registers: Registers,
    implementations: Sequence[Implementation],
    others: Sequence[Profile],
) -> str:
    """The clauses matrix: every clause × implementation, passed/total, the clause's text."""
    rows = []
    for clause in registers.clauses:
        cells: list[dict[str, int] | None] = []
        for implementation in implementations:
            counts = implementation.latest.by_clause.get(clause.id)
            if not counts or not counts.get("total"):
                cells.append(None)
                continue
            cells.append(
                {
                    "bad": int(counts.get("failed", 0)) + int(counts.get("errored", 0)),
                    "passed": int(counts.get("passed", 0)),
                    "total": int(counts["total"]),
                }
            )
        rows.append((clause, cells))
    return _page("clauses.html.j2", profile, others, rows=rows, implementations=implementations)


@dataclass(frozen=True)
class VectorRow:
    """One vector as the vectors page lists it."""

    id: str
    area: str
    level: str
    #: Its data file, relative to the page.
    src: str
    #: Names of the implementations whose newest run did not pass it.
    failing: tuple[str, ...]


def render_vectors(
    profile: Profile, vectors: Sequence[VectorRow], others: Sequence[Profile]
) -> str:
    """The vectors page: one row per vector, those some implementation fails first; a click
    loads its input, expected result and each implementation's result (``#v=ID``)."""
    ordered = sorted(vectors, key=lambda v: (not v.failing, v.id))
    failing = sum(1 for v in vectors if v.failing)
    return _page("vectors.html.j2", profile, others, vectors=ordered, failing=failing)


def _colour(verdict: str) -> str:
    return _VERDICT_COLOURS.get(verdict, "#616161")


def _chart(implementation: Implementation) -> dict[str, Any]:
    """An SVG line chart's geometry: passed vectors per version, each point in its verdict's
    colour. The axis runs from a little below the fewest passed to the most vectors run, so
    that a few vectors fixed or broken show."""
    runs = implementation.runs
    width, height, left, top_pad, bottom = max(240, 90 * len(runs) + 60), 170, 50, 22, 30
    passed = [r.totals.get("passed", 0) for r in runs]
    high = max((r.totals.get("total", 0) for r in runs), default=0) or 1
    low = max(0, min(passed) - max(10, (high - min(passed)) // 5))
    span = (high - low) or 1
    points = []
    for index, (run, count) in enumerate(zip(runs, passed, strict=True)):
        x = left + 20 + index * 90
        y = top_pad + (height - bottom - top_pad) * (high - count) / span
        points.append(
            {
                "x": f"{x:.1f}",
                "y": f"{y:.1f}",
                "label_y": f"{y - 9:.1f}",
                "run": run,
                "count": count,
                "total": run.totals.get("total", 0),
                "colour": _PARTIAL_COLOUR if run.partial else _colour(run.verdict),
            }
        )
    return {
        "name": implementation.name,
        "width": width,
        "height": height,
        "left": left,
        "top": top_pad,
        "axis": height - bottom,
        "high": high,
        "low": low,
        "line": " ".join(f"{p['x']},{p['y']}" for p in points),
        "points": points,
    }


def _changes(old: Run, new: Run) -> list[dict[str, Any]]:
    """What changed from ``old`` to ``new``: verdict, profile, vectors fixed and broken."""
    items: list[dict[str, Any]] = []
    if old.verdict != new.verdict:
        items.append({"kind": "verdict", "old": old.verdict, "new": new.verdict})
    for sign, readings in (
        ("+", sorted(set(new.profile) - set(old.profile))),
        ("−", sorted(set(old.profile) - set(new.profile))),
    ):
        items.extend({"kind": "reading", "sign": sign, "reading": r} for r in readings)
    fixed = sorted(v for v in old.not_passed if new.outcomes.get(v) == "passed")
    broken = sorted(v for v in new.not_passed if old.outcomes.get(v) == "passed")
    for label, ids in (("fixed", fixed), ("broken", broken)):
        if ids:
            items.append({"kind": "vectors", "label": label, "ids": ids})
    return items or [{"kind": "none"}]


def render_history(
    profile: Profile, implementations: Sequence[Implementation], others: Sequence[Profile]
) -> str:
    """The history page: per implementation, passed vectors and verdict across versions (a
    chart), each version's row, and what changed between consecutive versions."""
    blocks = [
        {
            "implementation": implementation,
            "chart": _chart(implementation),
            "changes": [
                (old, new, _changes(old, new))
                for old, new in zip(implementation.runs, implementation.runs[1:], strict=False)
            ],
        }
        for implementation in implementations
    ]
    return _page("history.html.j2", profile, others, blocks=blocks)
