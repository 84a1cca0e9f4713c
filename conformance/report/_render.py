"""Renderings of a ``report.json``: Markdown, one self-contained HTML page, JUnit XML, a badge.

Every function takes the parsed report (a mapping) and returns text; none reads anything else
but the kit's own registers (``specs/clauses.toml``, ``specs/interpretations.toml``), whose
clause and interpretation text the HTML shows on hover and in-page (no link leaves the page, so
it reads offline), so ``phase6 report`` re-renders them from ``report.json`` alone. Sections
added by others are rendered generically (title, status, summary, items table).

The markup lives in templates (``templates/*.j2``, :mod:`conformance.report._templates`): this
module prepares what each rendering shows as plain data, and the templates' environment
escapes every value for its format, so no call site escapes by hand.

Markdown and HTML open with the verdict and "What to fix first" (the top failure signatures,
required ones first) before any table. Whatever an implementation sent is shown, escaped for
the format: control characters and lone surrogates as visible ``\\xNN`` / ``\\udNNN``
escapes, XML-illegal characters likewise in JUnit, and any string longer than
:data:`_SHOWN` characters cut with a note (report.json keeps it whole). A partial run (not the
published corpus, a selection, sections not run) says so first in every format, and its badge
says ``partial``, never a verdict.
"""

from __future__ import annotations

import functools
import html
import re
from collections.abc import Mapping
from typing import Any

from conformance.registers import load_clauses, load_interpretations
from conformance.report._templates import (
    SHOWN,
    cap,
    code_span,
    html_environment,
    markdown_environment,
    md_cell,
    printable,
    xml_environment,
    xml_legal,
)
from conformance.run import Outcome

__all__ = [
    "badge_fields",
    "escape_html",
    "partial_reasons",
    "render_badge",
    "render_html",
    "render_junit",
    "render_markdown",
]

_OUTCOMES = tuple(o.value for o in Outcome)
_MAX_LISTED = 200
#: Signatures shown under "What to fix first", and vectors named per signature.
_FIX_FIRST = 5
_NAMED = 30
#: Longest string shown in a rendering (report.json keeps every character).
_SHOWN = SHOWN
_VERDICT_COLOURS = {
    "compliant": "#2e8540",
    "compliant-required-only": "#b58105",
    "non-compliant": "#c62828",
    "adapter-broken": "#616161",
}
#: contract -> the prefix of its JUnit names (``phase6.<area>``); the contract names every
#: rendering (titles, badge label), so a Phase 2 report never reads as a SPEC-006 one.
_JUNIT_PREFIXES = {"phase6-v1": "phase6", "phase2-context/1": "phase2"}
_OUTCOME_COLOURS = {
    "passed": "#2e8540",
    "failed": "#c62828",
    "errored": "#e65100",
    "skipped": "#9e9e9e",
    "expected-failure": "#b58105",
}


_printable = printable
_cap = cap
_md_cell = md_cell
_code = code_span


def _implementation(report: Mapping[str, Any]) -> tuple[str, str, str]:
    implementation = report["header"]["adapter"].get("implementation") or {}
    if not isinstance(implementation, Mapping):
        implementation = {}
    return (
        _cap(implementation.get("name", "unknown implementation"), 200),
        _cap(implementation.get("version", "?"), 100),
        _cap(implementation.get("language", "?"), 100),
    )


def _contract(report: Mapping[str, Any]) -> str:
    """The contract certified: ``phase6-v1`` (also for reports that predate profiles) or
    ``phase2-context/1``."""
    contract = report["header"].get("contract")
    return contract if contract in _JUNIT_PREFIXES else "phase6-v1"


def _subject(report: Mapping[str, Any]) -> str:
    """What was certified, in words: ``SPEC-006 memory.read`` or the Phase 2 memory engine."""
    if _contract(report) == "phase2-context/1":
        return "Phase 2 memory engine (phase2-context)"
    return "SPEC-006 memory.read"


def _sandbox_line(sandbox: Mapping[str, Any]) -> str:
    """The header's sandbox in words: ``sandboxed: <how>`` or ``not sandboxed: <why>``."""
    if sandbox.get("sandboxed"):
        return f"sandboxed ({sandbox.get('mode')}): {sandbox.get('summary')}"
    return f"not sandboxed ({sandbox.get('mode')}): {sandbox.get('reason')}"


def partial_reasons(report: Mapping[str, Any]) -> list[str]:
    """Why the run certifies nothing (empty for a certification): ``footer.partial_reasons``, or
    the selection of a report that says ``partial`` without reasons."""
    footer = report["footer"]
    reasons = [str(r) for r in footer.get("partial_reasons") or []]
    if footer.get("partial") and not reasons:
        reasons = [f"selection {', '.join(report['header']['selection']['patterns'])}"]
    return reasons


def _fix_first(report: Mapping[str, Any], limit: int = _FIX_FIRST) -> list[Mapping[str, Any]]:
    """The top failure signatures: those no listed reading explains (bugs) and readings the
    register rejects first, then those holding a required vector, then readings, each by
    count."""
    signatures = list(report.get("failure_signatures") or [])
    signatures.sort(
        key=lambda s: (
            s.get("reading") != [] and not s.get("rejected"),
            not s.get("by_level", {}).get("required"),
            bool(s.get("reading")),
            -s["count"],
            s["signature"],
        )
    )
    return signatures[:limit]


def _reading_note(signature: Mapping[str, Any]) -> str:
    """What attribution says of a signature (empty without attribution)."""
    reading = signature.get("reading")
    if signature.get("rejected"):
        return (
            f"reproduced by the reference under {', '.join(reading or ())}, a reading the "
            "register rejects (it contradicts a MUST): a fault, see the verdict"
        )
    if reading:
        return f"a reading: reproduced by the reference under {', '.join(reading)}"
    if reading == []:
        return "no listed reading explains this: a bug (or a reading the register does not list)"
    return ""


def verdict_text(verdict: Mapping[str, Any]) -> str:
    """The verdict's sentence without repeating its value (``all 1899 vectors passed``, not
    ``compliant: all ...`` under a heading that says ``compliant``)."""
    text = str(verdict.get("text", ""))
    prefix = f"{verdict.get('value')}: "
    return text[len(prefix) :] if text.startswith(prefix) else text


def failing_section_items(report: Mapping[str, Any]) -> list[tuple[str, Mapping[str, Any]]]:
    """(section name, item) for each failed or errored item of a section that counts toward
    the verdict: a failing probe or property, named next to the failure signatures."""
    return [
        (name, item)
        for name, section in (report.get("sections") or {}).items()
        if section.get("affects_verdict", True)
        for item in section.get("items") or []
        if item.get("outcome") in ("failed", "errored")
    ]


def _bad_count(report: Mapping[str, Any]) -> int:
    totals = report["footer"]["totals"]
    return int(totals["failed"]) + int(totals["errored"])


def _not_passed(report: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return [r for r in report["results"] if r["outcome"] != "passed" or r.get("unexpected_pass")]


def _clause_status(counts: Mapping[str, int]) -> str:
    for outcome in ("failed", "errored", "expected-failure", "skipped"):
        if counts.get(outcome):
            return outcome
    return "passed"


# ------------------------------------------------------------------------------ markdown


def _readings(report: Mapping[str, Any]) -> tuple[list[str], list[str]]:
    """The reading profile as (lines, contradictions): each alternative the evidence names,
    with the failures it reproduces; empty without attribution or a profile."""
    attribution = report["footer"].get("attribution") or {}
    counts = attribution.get("counts") or {}
    lines = [
        f"{alternative}: reproduces {n} failing vector(s)" for alternative, n in counts.items()
    ]
    declared = attribution.get("declared")
    if declared is not None:
        lines.append(f"declared by the implementation: {', '.join(declared) or '(none)'}")
    return lines, list(attribution.get("contradictions") or [])


def render_markdown(report: Mapping[str, Any]) -> str:
    """A Markdown summary fit for a pull-request comment (``templates/report.md.j2``)."""
    text = markdown_environment().get_template("report.md.j2").render(_markdown(report))
    return _printable(text.rstrip() + "\n")


def _markdown(report: Mapping[str, Any]) -> dict[str, Any]:
    """What the Markdown summary shows, as plain data: the template only lays it out."""
    header, footer = report["header"], report["footer"]
    name, version, language = _implementation(report)
    verdict = footer["verdict"]
    partial = partial_reasons(report)
    top = _fix_first(report)
    readings, contradictions = _readings(report)
    return {
        "report": report,
        "contract": _contract(report),
        "name": name,
        "version": version,
        "language": language,
        "partial": partial,
        "partial_text": "; ".join(partial),
        "verdict_text": verdict_text(verdict),
        "meaning": verdict_meaning(report),
        "hint": enable_hint(list(verdict["skipped"])) if verdict.get("skipped") else "",
        "failing": failing_section_items(report),
        "fix_first": top,
        "bad_count": _bad_count(report),
        "signature_count": len(report.get("failure_signatures") or []),
        "covered": sum(s["count"] for s in top),
        "readings": readings,
        "contradictions": contradictions,
        "sandbox_line": _sandbox_line(header["sandbox"]) if "sandbox" in header else "",
        "compliance": f"{footer['totals']['compliance'] * 100:.2f}",
        "bad_clauses": [
            (clause, _clause_status(counts), counts)
            for clause, counts in footer["by_clause"].items()
            if _clause_status(counts) != "passed"
        ],
        "not_passed": _listed_in_order(report),
        "outcomes": _OUTCOMES,
        "max_listed": _MAX_LISTED,
        "item_level": _item_level,
        "reading_note": _reading_note,
    }


def _item_level(item: Mapping[str, Any]) -> str:
    """``required``, or ``pinned INT-x, INT-y`` for a check resting on pinned readings."""
    interpretations = item.get("interpretations") or []
    if item.get("level") == "pinned" and interpretations:
        return "pinned " + ", ".join(str(i) for i in interpretations)
    return str(item.get("level") or "required")


def _listed_in_order(report: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The vectors that did not pass, by signature (fix-first order), then the rest by ID."""
    rank = {s["signature"]: i for i, s in enumerate(_fix_first(report, limit=10**9))}
    bad = _not_passed(report)
    return sorted(bad, key=lambda r: (rank.get(str(r.get("signature")), len(rank)), r["id"]))


# ------------------------------------------------------------------------------ html


def _e(value: Any, limit: int = _SHOWN) -> str:
    return html.escape(_cap(value, limit), quote=True)


@functools.cache
def _registers() -> tuple[dict[str, Any], dict[str, Any]]:
    """The kit's clause and interpretation registers by ID (empty when they cannot be read:
    a rendering never fails for want of them)."""
    try:
        clauses = {c.id: c for c in load_clauses()}
        interpretations = {i.id: i for i in load_interpretations()}
    except Exception:  # the registers are the kit's own data; a report renders without them
        return {}, {}
    return clauses, interpretations


def clause_text(clause_id: str) -> str:
    """A clause's register text for a tooltip: its kind, summary and the spec's own words."""
    clause = _registers()[0].get(clause_id)
    if clause is None:
        return clause_id
    return f"{clause_id} ({clause.kind}): {clause.summary} Spec: \u201c{clause.quote}\u201d"


def interpretation_text(interpretation_id: str) -> str:
    """An interpretation's (or a reading's) register title for a tooltip."""
    base = interpretation_id.split("/", 1)[0]
    entry = _registers()[1].get(base)
    if entry is None:
        return interpretation_id
    if base != interpretation_id:
        return f"{interpretation_id}: an alternative reading of {base} ({entry.title})"
    return f"{interpretation_id}: {entry.title}"


def _anchor(kind: str, identifier: str) -> str:
    """The in-page anchor of a clause or an interpretation."""
    return f"{kind}-" + re.sub(r"[^A-Za-z0-9-]", "-", identifier)


def _links(identifiers: Any) -> list[dict[str, str]]:
    """Clause and interpretation IDs as links to their entries in the page (``href`` empty for
    anything else, shown as text), each with its register text for the hover."""
    links = []
    for identifier in identifiers:
        text = str(identifier)
        if re.fullmatch(r"(P2-)?INT-[0-9]+(/[a-z0-9-]+(\([a-z_]+=[0-9]+\))?)?", text):
            href, title = _anchor("int", text.split("/", 1)[0]), interpretation_text(text)
        elif re.fullmatch(r"S[0-9]+-[A-Z0-9]+-[0-9]+", text):
            href, title = _anchor("clause", text), clause_text(text)
        else:
            href, title = "", ""
        links.append({"text": text, "href": href, "title": title})
    return links


def escape_html(value: Any, limit: int = _SHOWN) -> str:
    """``value`` as HTML text or attribute value: escaped, cut to ``limit`` characters with a
    note (as the templates' environment escapes every value; for HTML built outside them)."""
    return _e(value, limit)


def _bar_spans(counts: Mapping[str, int]) -> list[dict[str, Any]]:
    """The spans of an outcome bar: each outcome present, its width in percent and colour."""
    total = counts.get("total", 0) or 1
    return [
        {
            "width": f"{counts[o] * 100 / total:.3f}",
            "colour": _OUTCOME_COLOURS[o],
            "outcome": o,
            "count": counts[o],
        }
        for o in _OUTCOMES
        if counts.get(o)
    ]


def _diff_lines(diff: str) -> list[tuple[str, str]]:
    """A diff's lines, each with its class (``add``, ``del`` or none)."""
    return [
        ("add" if line.startswith("+") else "del" if line.startswith("-") else "", line)
        for line in diff.splitlines()
    ]


#: What the report's words mean, shown under the verdict (a definition list).
_LEGEND = (
    ("compliant", "every required and pinned check passed: vectors, probes and properties."),
    (
        "compliant-required-only",
        "every required check passed; what failed rests only on pinned readings of ambiguous "
        "clauses (exit 4). The reading profile names the alternative each failure follows.",
    ),
    ("non-compliant", "a required check failed, or a failure no listed reading explains (exit 1)."),
    ("adapter-broken", "the implementation could not be run (handshake, crashes, timeouts)."),
    ("required", "a check the spec text alone decides: failing it is a bug."),
    (
        "pinned",
        "a check that rests on the kit's reading (an INT-nn interpretation) of an ambiguous "
        "clause: failing it means the implementation reads the clause another way.",
    ),
    (
        "section",
        "a block of checks beside the vectors: probes (behaviour over several calls, the clock, "
        "the store left untouched), properties (generated inputs), audit (an optional "
        "capability). Suite strength is about the kit, not the implementation.",
    ),
    (
        "signature",
        "failed vectors that differ the same way: one signature is usually one bug.",
    ),
)


#: What a partial run's banner means (it is not a verdict, so it has no glossary entry).
_PARTIAL_MEANING = (
    "this run certifies nothing; certify the published corpus with every section for a verdict."
)

#: A tool a skipped check says is not installed -> its Debian/Ubuntu package (the reasons come
#: from ``conformance/probes/_tools.py``; the README's "Fresh machine: the probe tools" installs
#: every one, ``tests/conformance/report/test_report_in_browser.py`` holds it to this table).
TOOL_PACKAGES = (("faketime", "faketime"), ("strace", "strace"), ("unshare", "util-linux"))


def verdict_meaning(report: Mapping[str, Any]) -> str:
    """The banner's one-line meaning: the glossary's definition of the verdict's value (or
    what a partial run means)."""
    if partial_reasons(report):
        return _PARTIAL_MEANING
    return dict(_LEGEND).get(str(report["footer"]["verdict"]["value"]), "")


def _register_clauses(report: Mapping[str, Any]) -> list[Any]:
    """The register's clauses of the spec this report certifies."""
    spec = "SPEC-006" if _contract(report) == "phase6-v1" else None
    clauses = _registers()[0].values()
    return [c for c in clauses if spec is None or c.spec == spec] if spec else []


def _clause_matrix(report: Mapping[str, Any]) -> dict[str, Any]:
    """One tile per clause the vectors check (its text on hover), then the clauses verified
    otherwise (a probe, a property, a test of the kit), which have no tile, then the clauses of
    other specs the sections name."""
    by_clause = report["footer"]["by_clause"]
    tiles = [
        {
            "clause": clause,
            "anchor": _anchor("clause", clause),
            "status": _clause_status(counts),
            "text": clause_text(clause),
            "tally": ", ".join(f"{o} {counts[o]}" for o in _OUTCOMES if counts[o]),
            "passed": counts["passed"],
            "total": counts["total"],
        }
        for clause, counts in by_clause.items()
    ]
    untiled = [c for c in _register_clauses(report) if c.id not in by_clause]
    named = {
        str(c)
        for section in (report.get("sections") or {}).values()
        for item in section.get("items") or []
        for c in item.get("clauses") or []
    }
    anchored = set(by_clause) | {c.id for c in untiled}
    registers = _registers()[0]
    others = sorted(c for c in named - anchored if c in registers)
    return {
        "tiles": tiles,
        "untiled": [
            {
                "id": c.id,
                "anchor": _anchor("clause", c.id),
                "text": clause_text(c.id),
                "verified_by": ", ".join(c.verified_by),
                "summary": c.summary,
            }
            for c in untiled
        ],
        "other_clauses": [
            {
                "id": c,
                "anchor": _anchor("clause", c),
                "spec": registers[c].spec,
                "summary": registers[c].summary,
            }
            for c in others
        ],
    }


def _referenced_interpretations(report: Mapping[str, Any]) -> list[str]:
    """Every interpretation ID the report mentions (results, signatures, section items)."""
    found: set[str] = set()
    for result in report.get("results") or []:
        found.update(str(i) for i in result.get("interpretations") or [])
    for signature in report.get("failure_signatures") or []:
        found.update(str(i) for i in signature.get("interpretations") or [])
        found.update(str(i) for i in signature.get("reading") or [])
    for section in (report.get("sections") or {}).values():
        for item in section.get("items") or []:
            found.update(str(i) for i in item.get("interpretations") or [])
    return sorted({i.split("/", 1)[0] for i in found})


def _interpretations(report: Mapping[str, Any]) -> list[dict[str, str]]:
    """The interpretations the report mentions, with their register titles (the targets of
    the INT links)."""
    entries = _registers()[1]
    return [
        {"id": i, "anchor": _anchor("int", i), "title": entries[i].title if i in entries else ""}
        for i in _referenced_interpretations(report)
    ]


#: A section's item outcomes in its own words: mutants are killed or survive.
_ITEM_WORDS = {"suite_strength": {"passed": "killed", "failed": "survived"}}
#: Section items listed before the rest collapse.
_OPEN_ITEMS = 20


def _section_view(
    name: str, section: Mapping[str, Any], *, collapse_passed: bool = False
) -> dict[str, Any]:
    """One section: title, status, summary and its items, rows grouped by clause set (the
    audit's 475 records check the same six clauses), what did not pass first, long lists
    (and, with ``collapse_passed``, every passed row) collapsed after ``visible`` rows."""
    words = _ITEM_WORDS.get(name, {})
    status = str(section["status"])
    groups: dict[tuple[str, str, tuple[str, ...], str], list[Mapping[str, Any]]] = {}
    for item in section.get("items") or []:
        key = (
            str(item["outcome"]),
            _item_level(item),
            tuple(str(c) for c in item.get("clauses") or []),
            str(item.get("message", "")),
        )
        groups.setdefault(key, []).append(item)
    rows: list[dict[str, Any]] = [
        {
            "passed": outcome == "passed",
            "ids": [str(item["id"]) for item in items],
            "colour": _OUTCOME_COLOURS.get(outcome, "#616161"),
            "word": words.get(outcome, outcome),
            "level": level,
            "clauses": clauses,
            "message": message,
        }
        for (outcome, level, clauses, message), items in groups.items()
    ]
    rows.sort(key=lambda row: row["passed"])  # what did not pass first
    visible = _OPEN_ITEMS if rows else 0
    if collapse_passed and len(rows) > _OPEN_ITEMS:
        visible = min(visible, sum(1 for row in rows if not row["passed"]))
    return {
        "name": name,
        "title": section["title"],
        "status": words.get(status, status),
        "summary": section.get("summary"),
        "rows": rows,
        "visible": visible,
    }


#: A failing check's message under "What to fix first" is cut here (two lines of the first
#: screen; the section's table below and report.json have it whole).
_FIRST_SCREEN_MESSAGE = 160
#: Skipped checks listed open in the first screen; the rest are collapsed.
_SKIPPED_OPEN = 4


def enable_hint(skipped: list[str]) -> str:
    """How to enable the skipped checks: the packages of the tools they say are not installed,
    and what to do about a tool that is installed but refused (plain text)."""
    packages = sorted(
        {
            package
            for line in skipped
            if "not installed" in line
            for tool, package in TOOL_PACKAGES
            if re.search(rf"\b{tool}\b", line)
        }
    )
    steps = []
    if packages:
        steps.append(f"as root on Debian or Ubuntu, apt-get install -y {' '.join(packages)}")
    if any("not installed" not in line for line in skipped) or not packages:
        steps.append("run where what each one names is installed and permitted")
    return "; ".join(steps) + ", then certify again"


def _skipped_groups(skipped: list[str]) -> list[str]:
    """The skipped checks (``section check: reason``, :attr:`Certification.skipped_checks`),
    those of one section skipped for one reason on one line: ``probes a, b: reason``."""
    groups: dict[tuple[str, str], list[str]] = {}
    for line in skipped:
        parsed = re.fullmatch(r"(\S+) (\S+): (.*)", line, re.S)
        section, check, reason = parsed.groups() if parsed else ("", "", line)
        groups.setdefault((section, reason), []).append(check)
    return [
        f"{section} {', '.join(checks)}: {reason}" if section else reason
        for (section, reason), checks in groups.items()
    ]


def _skipped_view(skipped: list[str]) -> dict[str, Any]:
    """The checks that could not run here (the first few open, the rest collapsed), and how to
    enable them: the hint in parts, the ``apt-get`` command a code part."""
    lines = _skipped_groups(skipped)
    shown, hidden = lines, []
    if len(lines) > _SKIPPED_OPEN:
        shown, hidden = lines[: _SKIPPED_OPEN - 1], lines[_SKIPPED_OPEN - 1 :]
    hint = _cap(enable_hint(skipped)) if skipped else ""
    parts = re.split(r"(apt-get install -y [a-z0-9 -]+)", hint)
    return {
        "skipped": skipped,
        "skipped_shown": shown,
        "skipped_hidden": hidden,
        "hint": [(index % 2 == 1, part) for index, part in enumerate(parts) if part],
    }


def render_html(report: Mapping[str, Any]) -> str:
    """One self-contained page: verdict, what to fix first, per-area bars, clause matrix,
    failures with diffs (``templates/report.html.j2``)."""
    return _printable(html_environment().get_template("report.html.j2").render(_html(report)))


def _html(report: Mapping[str, Any]) -> dict[str, Any]:
    """What the HTML page shows, as plain data: the template only lays it out."""
    header, footer = report["header"], report["footer"]
    name, version, language = _implementation(report)
    verdict = footer["verdict"]
    partial = partial_reasons(report)
    sections = report.get("sections") or {}
    top = _fix_first(report)
    areas = footer["by_area"]
    return {
        "report": report,
        "contract": _contract(report),
        "subject": _subject(report),
        "name": name,
        "version": version,
        "language": language,
        "partial": partial,
        "partial_text": "; ".join(partial),
        "colour": "#616161" if partial else _VERDICT_COLOURS.get(verdict["value"], "#616161"),
        "verdict_text": verdict_text(verdict),
        "meaning": verdict_meaning(report),
        "adapter_kind": header["adapter"].get("kind"),
        "kit": f"{header['kit']['name']} {header['kit']['version']}",
        "published": header["corpus"].get("published"),  # absent from reports that predate it
        **_skipped_view([str(line) for line in verdict.get("skipped") or []]),
        "legend": _LEGEND,
        "failing": failing_section_items(report),
        "fix_first": top,
        "bad_count": _bad_count(report),
        "signature_count": len(report.get("failure_signatures") or []),
        "covered": sum(s["count"] for s in top),
        "readings": _readings(report)[0],
        "contradictions": _readings(report)[1],
        "sandbox_line": _sandbox_line(header["sandbox"]) if "sandbox" in header else "",
        "compliance": f"{footer['totals']['compliance'] * 100:.2f}",
        "bad_areas": sum(1 for c in areas.values() if c.get("passed") != c.get("total")),
        **_clause_matrix(report),
        "not_passed": _listed_in_order(report),
        "verdict_sections": [
            _section_view(n, s) for n, s in sections.items() if s.get("affects_verdict", True)
        ],
        "other_sections": [
            _section_view(n, s, collapse_passed=True)
            for n, s in sections.items()
            if not s.get("affects_verdict", True)
        ],
        "interpretations": _interpretations(report),
        # what the templates' macros use
        "outcomes": _OUTCOMES,
        "outcome_colours": _OUTCOME_COLOURS,
        "max_listed": _MAX_LISTED,
        "first_screen_message": _FIRST_SCREEN_MESSAGE,
        "links": _links,
        "bar_spans": _bar_spans,
        "diff_lines": _diff_lines,
        "item_level": _item_level,
        "reading_note": _reading_note,
    }


# ------------------------------------------------------------------------------ junit

_x = xml_legal


def _element(tag: str, text: str | None = None, **attributes: str) -> dict[str, Any]:
    """One element of a testcase (failure, error, skipped, system-err) as plain data."""
    return {"tag": tag, "attributes": list(attributes.items()), "text": text}


def _suite(name: str, tests: int) -> dict[str, Any]:
    return {"attributes": [("name", _x(name)), ("tests", str(tests))], "cases": []}


def _case(suite: dict[str, Any], *children: dict[str, Any], **attributes: str) -> None:
    suite["cases"].append({"attributes": list(attributes.items()), "children": list(children)})


def _junit_vectors(report: Mapping[str, Any]) -> list[dict[str, Any]]:
    by_area: dict[str, list[Mapping[str, Any]]] = {}
    for result in report["results"]:
        by_area.setdefault(str(result["area"]), []).append(result)
    suites = []
    for area, results in sorted(by_area.items()):
        suite = _suite(area, len(results))
        counts = {"failures": 0, "errors": 0, "skipped": 0}
        elapsed = 0.0
        for result in results:
            elapsed += result.get("duration_ms", 0) / 1000
            case = {
                "classname": _x(f"{_JUNIT_PREFIXES[_contract(report)]}.{area}"),
                "name": _x(result["id"]),
                "time": f"{result.get('duration_ms', 0) / 1000:.4f}",
            }
            outcome = result["outcome"]
            children = []
            if result.get("unexpected_pass"):
                counts["failures"] += 1
                children.append(
                    _element(
                        "failure",
                        _x(result.get("expected_failure_reason") or ""),
                        type="unexpected-pass",
                        message="listed as expected failure but passed",
                    )
                )
            elif outcome == "failed":
                counts["failures"] += 1
                first = result["failures"][0]
                text = (
                    f"signature: {result.get('signature', '')}\n\n"
                    + "\n\n".join(
                        f"{f['kind']}: {f['message']}\n{f.get('diff') or ''}"
                        for f in result["failures"]
                    )
                    + f"\n\nreproduce: {result.get('reproduce')}"
                )
                children.append(
                    _element(
                        "failure",
                        _x(text),
                        type=_x(first["kind"]),
                        message=_x(first["message"], 500),
                    )
                )
            elif outcome == "errored":
                counts["errors"] += 1
                error = result["error"]
                text = (
                    f"signature: {result.get('signature', '')}\n{error.get('detail') or ''}"
                    f"\n\nreproduce: {result.get('reproduce')}"
                )
                children.append(
                    _element(
                        "error", _x(text), type=_x(error["kind"]), message=_x(error["message"], 500)
                    )
                )
                if error.get("stderr_tail"):
                    children.append(_element("system-err", _x(error["stderr_tail"])))
            elif outcome in ("skipped", "expected-failure"):
                counts["skipped"] += 1
                reason = result.get("skip_reason") or (
                    f"expected failure: {result.get('expected_failure_reason')}"
                )
                children.append(_element("skipped", message=_x(reason, 2000)))
            _case(suite, *children, **case)
        suite["attributes"] += [(key, str(value)) for key, value in counts.items()]
        suite["attributes"].append(("time", f"{elapsed:.3f}"))
        suites.append(suite)
    return suites


def _junit_sections(report: Mapping[str, Any]) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """One testsuite per section, one testcase per item (a property family, a probe check):
    failed, errored or skipped (with the reason) as they were; in a section that does not
    affect the verdict (suite strength), a failure is skipped with its message, since it says
    something about the kit, not the implementation. Returns the suites and the added counts."""
    suites = []
    added = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for name, section in (report.get("sections") or {}).items():
        items = section.get("items") or []
        suite = _suite(f"section.{name}", max(1, len(items)))
        counts = {"failures": 0, "errors": 0, "skipped": 0}
        if not items:  # a section with no items (a provider that failed) is one testcase
            items = [
                {
                    "id": name,
                    "outcome": section.get("status", "errored"),
                    "message": section.get("summary", ""),
                }
            ]
        informational = section.get("affects_verdict") is False
        for item in items:
            outcome = str(item.get("outcome"))
            message = str(item.get("message", ""))
            level = _item_level(item)
            children = []
            if informational and outcome in ("failed", "errored"):
                # about the kit (e.g. a mutant the corpus misses), not the implementation
                counts["skipped"] += 1
                reason = f"{outcome}, does not affect the verdict: {message}"
                children.append(_element("skipped", message=_x(reason, 2000)))
            elif outcome == "failed":
                counts["failures"] += 1
                text = f"{level}: {message}\nclauses: {', '.join(item.get('clauses', []))}"
                children.append(
                    _element("failure", _x(text), type=_x(level), message=_x(message, 500))
                )
            elif outcome == "errored":
                counts["errors"] += 1
                children.append(
                    _element("error", _x(message), type="errored", message=_x(message, 500))
                )
            elif outcome != "passed":
                counts["skipped"] += 1
                children.append(_element("skipped", message=_x(message or outcome, 2000)))
            _case(
                suite,
                *children,
                classname=_x(f"{_JUNIT_PREFIXES[_contract(report)]}.section.{name}"),
                name=_x(item["id"]),
            )
        suite["attributes"] += [(key, str(value)) for key, value in counts.items()]
        suites.append(suite)
        added["tests"] += len(items)
        for key, value in counts.items():
            added[key] += value
    return suites, added


def _junit_verdict(report: Mapping[str, Any]) -> tuple[dict[str, Any], int, int]:
    """A testcase for the verdict itself: failed unless compliant, skipped for a partial run.

    Returns the suite and the (failures, skipped) added."""
    verdict = report["footer"]["verdict"]
    partial = partial_reasons(report)
    verdict_name = f"{_JUNIT_PREFIXES[_contract(report)]}.verdict"
    suite = _suite(verdict_name, 1)
    case = {"classname": verdict_name, "name": "certification"}
    if partial:
        message = f"partial run, no verdict: {'; '.join(partial)}; on what ran: {verdict['value']}"
        skipped = _element("skipped", _junit_details(report), message=_x(message, 2000))
        _case(suite, skipped, **case)
        suite["attributes"].append(("skipped", "1"))
        return suite, 0, 1
    if verdict["value"] != "compliant":
        failure = _element(
            "failure",
            _junit_details(report),
            type=_x(verdict["value"]),
            message=_x(verdict["text"], 500),
        )
        _case(suite, failure, **case)
        suite["attributes"].append(("failures", "1"))
        return suite, 1, 0
    _case(suite, **case)
    return suite, 0, 0


def _junit_details(report: Mapping[str, Any]) -> str:
    """The verdict, what to fix first (bugs first, each with its reading) and the profile."""
    fix = [
        f"{rank}. {s['count']} vector(s): {s['signature']}"
        + (f" -- {_reading_note(s)}" if _reading_note(s) else "")
        for rank, s in enumerate(_fix_first(report), 1)
    ]
    readings, contradictions = _readings(report)
    lines = [
        report["footer"]["verdict"]["text"],
        *(["", "What to fix first:", *fix] if fix else []),
        *(["", "Reading profile:", *readings] if readings else []),
        *(["", "Contradictions:", *contradictions] if contradictions else []),
    ]
    return _x("\n".join(lines))


def render_junit(report: Mapping[str, Any]) -> str:
    """JUnit XML (``templates/junit.xml.j2``): one testsuite per area (a testcase per vector),
    one per section (a testcase per property family and per probe check), and the verdict as a
    testcase of its own."""
    name, version, _ = _implementation(report)
    totals = report["footer"]["totals"]
    sections, added = _junit_sections(report)
    verdict, verdict_failures, verdict_skipped = _junit_verdict(report)
    failures = totals["failed"] + totals["unexpected_pass"] + added["failures"] + verdict_failures
    skipped = totals["skipped"] + totals["expected-failure"] + added["skipped"] + verdict_skipped
    root = [
        ("name", _x(f"{_contract(report)} {name} {version}")),
        ("tests", str(totals["total"] + added["tests"] + 1)),
        ("failures", str(failures)),
        ("errors", str(totals["errored"] + added["errors"])),
        ("skipped", str(skipped)),
        ("time", f"{report['footer'].get('duration_s', 0):.3f}"),
    ]
    suites = [*_junit_vectors(report), *sections, verdict]
    return xml_environment().get_template("junit.xml.j2").render(root=root, suites=suites)


# ------------------------------------------------------------------------------ badge


def _text_width(text: str) -> int:
    return int(sum(7.2 if c.isupper() or c in "mw%" else 6.1 for c in text)) + 10


def badge_fields(report: Mapping[str, Any]) -> tuple[str, str, str]:
    """The badge's ``(label, message, colour)``: the contract, the verdict (``non-compliant``
    with its pass rate) and its colour; a partial run says ``partial: N/M passed``, never a
    verdict (the SVG badge and the site's shields.io endpoint JSON say the same)."""
    verdict = report["footer"]["verdict"]["value"]
    totals = report["footer"]["totals"]
    if partial_reasons(report):
        value = f"partial: {totals['passed']}/{totals['total']} passed"
        colour = "#9e9e9e"
    else:
        value = verdict
        if verdict == "non-compliant":
            value = f"non-compliant {totals['compliance'] * 100:.1f}%"
        colour = _VERDICT_COLOURS.get(verdict, "#616161")
    return _contract(report), value, colour


def render_badge(report: Mapping[str, Any]) -> str:
    """A flat SVG badge: ``<contract> | <verdict>`` (``phase6-v1 | compliant``,
    ``phase2-context/1 | compliant``); a partial run never shows a verdict
    (``templates/badge.svg.j2``)."""
    label, value, colour = badge_fields(report)
    return (
        html_environment()
        .get_template("badge.svg.j2")
        .render(
            label=label,
            value=value,
            colour=colour,
            left=_text_width(label),
            right=_text_width(value),
        )
    )
