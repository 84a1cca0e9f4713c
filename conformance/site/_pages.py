"""The site's pages, one function each: implementations, readings matrix, clauses matrix,
vectors (the drill-down loads on demand) and history, for one profile.

The rendering habits of the report (:mod:`conformance.report`): every value goes through
:func:`conformance.report.escape_html`, whoever supplied it; pages are plain HTML and CSS with
one small script (``assets/site.js``) used by the vectors page only. Links are relative, so the
site works from ``file://`` and from any static host.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from conformance.registers import split_reading_id
from conformance.report import escape_html as _e
from conformance.site._model import Entry, Implementation, Profile, Registers, Run, SetAside

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
    "verdict_cell",
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


def _page(
    title: str, profile: Profile, here: str, body: Sequence[str], others: Sequence[Profile]
) -> str:
    base = "../" if profile.directory else ""
    nav = "".join(
        f'<a href="{name}"{" class=here" if name == here else ""}>{label}</a>'
        for name, label in PAGES.items()
    )
    switch = "".join(
        f'<a href="{base}{p.directory + "/" if p.directory else ""}index.html"'
        f"{' class=here' if p == profile else ''}>{_e(p.title)}</a>"
        for p in others
    )
    script = f'<script src="{base}assets/site.js"></script>' if here == "vectors.html" else ""
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{_e(title)} — {_e(profile.title)}</title>"
        f'<link rel="stylesheet" href="{base}assets/site.css"></head>\n'
        f'<body><header><span class="profiles">{switch}</span>{nav}</header>\n'
        f"<main><h1>{_e(title)} <small class=note>{_e(profile.title)}</small></h1>\n"
        + "\n".join(body)
        + f"\n</main>{script}</body></html>\n"
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


def verdict_cell(run: Run) -> str:
    """A verdict as a table cell: a full run's verdict; a partial run's marked visibly as such,
    with its reasons, since it certifies nothing (the badge says ``partial`` too)."""
    if not run.partial:
        return f'<td class="{_e(run.verdict)}">{_e(run.verdict)}</td>'
    reasons = "; ".join(run.partial)
    return (
        f'<td class="partial" title="{_e(reasons)}"><strong>partial run</strong>: '
        f"{_e(run.verdict)} on what ran <small>({_e(reasons)})</small></td>"
    )


def _set_aside(items: Sequence[SetAside]) -> str:
    """The reports set aside for another report of the same version, and why."""
    if not items:
        return ""
    rows = "".join(
        f"<li>{_e(a.run.version)}, {_e(a.run.date[:19] or 'no date')}"
        f"{' (partial)' if a.run.partial else ''}, report <code>{_e(a.run.digest[7:19])}</code>"
        f": {_e(a.reason)}</li>"
        for a in items
    )
    return (
        '<p class="note">Reports set aside (another report of the same version was kept):</p>'
        f"<ul>{rows}</ul>"
    )


def render_implementations(
    profile: Profile, implementations: Sequence[Implementation], others: Sequence[Profile]
) -> str:
    """The implementations page: each implementation's newest run, its badge, its report."""
    base = "../" if profile.directory else ""
    head = "".join(f"<th>{c}</th>" for c in TABLE_COLUMNS)
    rows = []
    for implementation in implementations:
        run = implementation.latest
        row = implementation_row(run)
        cells = "".join(
            verdict_cell(run) if c == "verdict" else f"<td>{_e(row[c])}</td>" for c in TABLE_COLUMNS
        )
        rows.append(
            f'<tr id="{implementation.key}">{cells}'
            f'<td><img alt="badge" src="{base}badges/{implementation.key}.svg"></td>'
            f'<td><a href="{base}{run.report_href}">report</a> · '
            f'<a href="{base}api/v1/implementations/{implementation.key}.json">json</a> · '
            f'<a href="history.html#{implementation.key}">history</a></td></tr>'
        )
    aside = [i for i in implementations if i.set_aside]
    body = [
        f"<p>{len(implementations)} implementation(s), each at its newest version. A verdict "
        "<code>compliant-required-only</code> means every required check passed and the "
        "failures are the listed alternative readings (the profile). A <em>partial run</em> "
        "(a selection, sections not run, an interrupted run) certifies nothing: its verdict is "
        "only about what ran, and its badge says <code>partial</code>.</p>",
        f"<table><tr>{head}<th>badge</th><th>links</th></tr>",
        *rows,
        "</table>",
        '<p class="note">The same table as JSON: '
        f'<a href="{base}api/v1/implementations.json">api/v1/implementations.json</a>.</p>',
    ]
    if aside:
        listed = ", ".join(
            f'<a href="history.html#{i.key}">{_e(i.name)}</a> ({len(i.set_aside)})' for i in aside
        )
        body.append(
            f"<p>Reports set aside: {listed}. Of several reports of one version one is kept: a "
            "full run over a partial one, then the later one; the history says which and why.</p>"
        )
    return _page("Implementations", profile, "index.html", body, others)


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


def render_readings(
    profile: Profile,
    registers: Registers,
    implementations: Sequence[Implementation],
    others: Sequence[Profile],
) -> str:
    """The readings matrix: every register entry × implementation, entries where they disagree
    first; the entry's question and alternatives on hover."""
    rows: list[tuple[bool, int, str]] = []
    for index, entry in enumerate(registers.entries):
        cells = reading_cells(entry, implementations)
        disagree = len({cell.readings for cell in cells}) > 1
        texts = {alt.id: alt.text for alt in entry.executable}
        tds = []
        for cell in cells:
            if cell.readings == (_PINNED,):
                note = f" · {cell.failing} failing" if cell.failing else ""
                css = "fail" if cell.failing else "pinned"
                tds.append(f'<td class="{css}" data-reading="pinned">pinned{_e(note)}</td>')
            else:
                shown = "<br>".join(
                    f'<span title="{_e(texts.get(split_reading_id(r)[0], ""))}">'
                    f"{_e(r.partition('/')[2] or r)}</span>"
                    for r in cell.readings
                )
                tds.append(
                    f'<td class="alt" data-reading="{_e(" ".join(cell.readings))}">{shown}</td>'
                )
        alternatives = "".join(
            f'<li title="{_e(alt.text)}"><code>{_e(alt.id)}</code></li>' for alt in entry.executable
        )
        row = (
            f'<tr id="{_e(entry.id)}"{" class=disagree" if disagree else ""}>'
            f'<th class="entry" title="{_e(_entry_hover(entry))}">{_e(entry.id)} <br>'
            f"<small>{_e(entry.title)}</small></th>"
            f"<td><ul>{alternatives}</ul></td>{''.join(tds)}</tr>"
        )
        rows.append((not disagree, index, row))
    rows.sort()
    head = "".join(
        f'<th><a href="index.html#{i.key}">{_e(i.name)}</a><br>'
        f"<small>{_e(i.latest.version)}</small></th>"
        for i in implementations
    )
    disagreeing = sum(1 for row in rows if not row[0])
    body = [
        f"<p>Every entry of the interpretation register ({len(rows)}) × implementation: the "
        "alternative reading each follows (its verdict's profile), or <em>pinned</em> (the "
        f"kit's reading). {disagreeing} entr{'y' if disagreeing == 1 else 'ies'} where "
        "implementations disagree come first. Hover an entry for its question and "
        "alternatives, an alternative for its text.</p>",
        f"<table><tr><th>entry</th><th>executable alternatives</th>{head}</tr>",
        *(row for _, _, row in rows),
        "</table>",
    ]
    return _page("Readings", profile, "readings.html", body, others)


def render_clauses(
    profile: Profile,
    registers: Registers,
    implementations: Sequence[Implementation],
    others: Sequence[Profile],
) -> str:
    """The clauses matrix: every clause × implementation, passed/total, the clause's text."""
    head = "".join(
        f'<th><a href="index.html#{i.key}">{_e(i.name)}</a></th>' for i in implementations
    )
    rows = []
    for clause in registers.clauses:
        tds = []
        for implementation in implementations:
            counts = implementation.latest.by_clause.get(clause.id)
            if not counts or not counts.get("total"):
                tds.append('<td class="none">—</td>')
                continue
            bad = int(counts.get("failed", 0)) + int(counts.get("errored", 0))
            tds.append(
                f'<td class="{"fail" if bad else "pass"}">'
                f"{int(counts.get('passed', 0))}/{int(counts['total'])}</td>"
            )
        rows.append(
            f'<tr id="{_e(clause.id)}"><th title="{_e(clause.quote)}">{_e(clause.id)}</th>'
            f"<td>{_e(clause.kind)}</td><td>{_e(clause.summary)}</td>{''.join(tds)}</tr>"
        )
    body = [
        f"<p>Every clause of the register ({len(rows)}) × implementation: vectors passed of "
        "those naming the clause (newest version); — where no vector names it (a property, "
        "a probe or a kit test verifies it). Hover a clause for the spec's words.</p>",
        f"<table><tr><th>clause</th><th>kind</th><th>summary</th>{head}</tr>",
        *rows,
        "</table>",
    ]
    return _page("Clauses", profile, "clauses.html", body, others)


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
    rows = [
        f'<tr data-vector="{_e(v.id)}" data-src="{_e(v.src)}">'
        f'<td><a href="#v={_e(v.id)}">{_e(v.id)}</a></td><td>{_e(v.area)}</td>'
        f"<td>{_e(v.level)}</td>"
        f'<td class="{"fail" if v.failing else "pass"}">{_e(", ".join(v.failing) or "none")}</td>'
        "</tr>"
        for v in ordered
    ]
    failing = sum(1 for v in vectors if v.failing)
    body = [
        f"<p>{len(vectors)} vectors; {failing} not passed by at least one implementation "
        "(newest versions), listed first. Choose a vector to load its detail.</p>",
        '<div id="drill" class="note">Choose a vector.</div>',
        "<table><tr><th>vector</th><th>area</th><th>level</th><th>not passed by</th></tr>",
        *rows,
        "</table>",
    ]
    return _page("Vectors", profile, "vectors.html", body, others)


def _colour(verdict: str) -> str:
    return _VERDICT_COLOURS.get(verdict, "#616161")


def _chart(implementation: Implementation) -> str:
    """An SVG line chart: passed vectors per version, each point in its verdict's colour. The
    axis runs from a little below the fewest passed to the most vectors run, so that a few
    vectors fixed or broken show."""
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
        points.append((x, y, run, count))
    line = " ".join(f"{x:.1f},{y:.1f}" for x, y, _, _ in points)
    marks = "".join(
        f'<circle cx="{x:.1f}" cy="{y:.1f}" r="5" '
        f'fill="{_PARTIAL_COLOUR if r.partial else _colour(r.verdict)}">'
        f"<title>{_e(r.version)}: {'partial run, ' if r.partial else ''}{_e(r.verdict)}, {count}/"
        f"{r.totals.get('total', 0)} passed</title></circle>"
        f'<text class="version" x="{x:.1f}" y="{height - 10}" text-anchor="middle">'
        f"{_e(r.version, 16)}</text>"
        f'<text x="{x:.1f}" y="{y - 9:.1f}" text-anchor="middle">{count}</text>'
        for x, y, r, count in points
    )
    axis = height - bottom
    return (
        f'<svg class="chart" width="{width}" height="{height}" role="img" '
        f'aria-label="passed vectors per version of {_e(implementation.name)}">'
        f'<line x1="{left}" y1="{axis}" x2="{width - 10}" y2="{axis}" stroke="#999"/>'
        f'<line x1="{left}" y1="{top_pad}" x2="{left}" y2="{axis}" stroke="#999"/>'
        f'<text x="{left - 4}" y="{top_pad + 4}" text-anchor="end">{high}</text>'
        f'<text x="{left - 4}" y="{axis}" text-anchor="end">{low}</text>'
        f'<polyline points="{line}" fill="none" stroke="#1565c0" stroke-width="2"/>'
        f"{marks}</svg>"
    )


def _changes(old: Run, new: Run) -> list[str]:
    """What changed from ``old`` to ``new``: verdict, profile, vectors fixed and broken."""
    items = []
    if old.verdict != new.verdict:
        items.append(f"verdict {_e(old.verdict)} → {_e(new.verdict)}")
    for sign, readings in (
        ("+", sorted(set(new.profile) - set(old.profile))),
        ("−", sorted(set(old.profile) - set(new.profile))),
    ):
        items.extend(f"reading {sign} <code>{_e(r)}</code>" for r in readings)
    fixed = sorted(v for v in old.not_passed if new.outcomes.get(v) == "passed")
    broken = sorted(v for v in new.not_passed if old.outcomes.get(v) == "passed")
    for label, ids in (("fixed", fixed), ("broken", broken)):
        if ids:
            shown = ", ".join(f'<a href="vectors.html#v={_e(v)}">{_e(v)}</a>' for v in ids[:20])
            more = f" and {len(ids) - 20} more" if len(ids) > 20 else ""
            items.append(f"{len(ids)} {label}: {shown}{more}")
    return items or ["no change in verdict, profile or outcomes"]


def _totals(run: Run) -> str:
    t = run.totals
    return f"{t.get('passed', 0)}/{t.get('total', 0)}"


def render_history(
    profile: Profile, implementations: Sequence[Implementation], others: Sequence[Profile]
) -> str:
    """The history page: per implementation, passed vectors and verdict across versions (a
    chart), each version's row, and what changed between consecutive versions."""
    base = "../" if profile.directory else ""
    body = [
        "<p>Each implementation across the versions collected: passed vectors per version (the "
        "point's colour is the verdict), and what changed from one version to the next.</p>"
    ]
    for implementation in implementations:
        rows = "".join(
            f"<tr><td>{_e(r.version)}</td><td>{_e(r.date[:19])}</td>"
            f'{verdict_cell(r)}<td class="num">{_totals(r)}</td>'
            f"<td>{_e(', '.join(r.profile) or _PINNED)}</td>"
            f'<td><a href="{base}{r.report_href}">report</a></td></tr>'
            for r in implementation.runs
        )
        changes = "".join(
            f"<li>{_e(old.version)} → {_e(new.version)}<ul>"
            + "".join(f"<li>{item}</li>" for item in _changes(old, new))
            + "</ul></li>"
            for old, new in zip(implementation.runs, implementation.runs[1:], strict=False)
        )
        body += [
            f'<h2 id="{implementation.key}">{_e(implementation.name)}</h2>',
            _chart(implementation),
            "<table><tr><th>version</th><th>date</th><th>verdict</th><th>passed</th>"
            f"<th>profile</th><th></th></tr>{rows}</table>",
            f"<ul>{changes}</ul>" if changes else "<p class=note>one version collected</p>",
            _set_aside(implementation.set_aside),
        ]
    return _page("History", profile, "history.html", body, others)
