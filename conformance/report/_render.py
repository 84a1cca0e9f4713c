"""Renderings of a ``report.json``: Markdown, one self-contained HTML page, JUnit XML, a badge.

Every function takes the parsed report (a mapping) and returns text; none reads anything else
but the kit's own registers (``specs/clauses.toml``, ``specs/interpretations.toml``), whose
clause and interpretation text the HTML shows on hover and in-page (no link leaves the page, so
it reads offline), so ``phase6 report`` re-renders them from ``report.json`` alone. Sections
added by others are rendered generically (title, status, summary, items table).

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
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from typing import Any

from conformance.registers import load_clauses, load_interpretations
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
_SHOWN = 20_000
_UNPRINTABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")
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


def _printable(text: str) -> str:
    """Control characters (but newline, tab and CR) and lone surrogates as visible escapes."""

    def escape(match: re.Match[str]) -> str:
        code = ord(match.group())
        return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"

    return _UNPRINTABLE.sub(escape, text)


def _cap(value: Any, limit: int = _SHOWN) -> str:
    """``value`` as text, cut to ``limit`` characters with a note saying how many more."""
    text = str(value)
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text) - limit} more characters in report.json)"


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


def _md_line(text: Any, limit: int) -> str:
    """``text`` cut to ``limit`` on one line that cannot break a table row (the raw characters,
    for a code span, where Markdown shows everything literally)."""
    return _cap(text, limit).replace("|", "\\|").replace("\n", " ").replace("\r", " ")


#: What Markdown would turn into markup from plain text: the HTML specials (a raw ``<script>``
#: or ``<img onerror>`` in an implementation's name is HTML to GitHub and to most renderers),
#: and ``![`` (an image the reader's browser would load). Each becomes an entity or an escape
#: that renders as the character itself.
_MD_MARKUP = re.compile(r"[&<>]|!\[")
_MD_ESCAPES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", "![": "!\\["}


def _md_cell(text: Any, limit: int = 300) -> str:
    """``text`` as one line of Markdown prose: no table break, no HTML, no image."""
    return _MD_MARKUP.sub(lambda m: _MD_ESCAPES[m.group()], _md_line(text, limit))


def _code(text: Any, limit: int = 300) -> str:
    """An inline code span that survives backticks in ``text`` (a code span shows HTML as
    text, so nothing in it is escaped but the table's ``|``)."""
    body = _md_line(text, limit)
    ticks = "`"
    while ticks in body:
        ticks += "`"
    pad = " " if body.startswith("`") or body.endswith("`") else ""
    return f"{ticks}{pad}{body}{pad}{ticks}"


def _fence(text: str, lang: str = "") -> str:
    ticks = "```"
    while ticks in text:
        ticks += "`"
    return f"{ticks}{lang}\n{text}\n{ticks}"


# ------------------------------------------------------------------------------ markdown


def _md_failing_items(report: Mapping[str, Any]) -> list[str]:
    """The probes and properties that failed, by name."""
    failing = failing_section_items(report)
    if not failing:
        return []
    out = [f"{len(failing)} check(s) of the probes and properties failed:", ""]
    out += [
        f"- {_md_cell(name)} {_code(item['id'])}: {_md_cell(item['outcome'])} "
        f"({_md_cell(_item_level(item))}): {_md_cell(item.get('message', ''), 300)}"
        for name, item in failing
    ]
    return [*out, ""]


def _md_fix_first(report: Mapping[str, Any]) -> list[str]:
    top = _fix_first(report)
    if not top:
        items = _md_failing_items(report)
        return ["## What to fix first", "", *items] if items else []
    signatures = report.get("failure_signatures") or []
    bad = _bad_count(report)
    covered = sum(s["count"] for s in top)
    out = [
        "## What to fix first",
        "",
        f"{bad} vector(s) failed or errored, in {len(signatures)} signature(s); the "
        f"{len(top)} below cover {covered}. One signature is usually one bug: fix its example, "
        "then certify again.",
        "",
        *_md_failing_items(report),
    ]
    for rank, signature in enumerate(top, 1):
        levels = ", ".join(f"{n} {level}" for level, n in signature["by_level"].items())
        out += [
            f"{rank}. **{signature['count']} vector(s)** ({levels}): "
            f"{_code(signature['signature'], 400)}",
            f"   - example (smallest): {_code(signature['example'])} — "
            f"{_md_cell(signature.get('example_message', ''), 300)}",
        ]
        if _reading_note(signature):
            out.append(f"   - {_reading_note(signature)}")
        if signature.get("clauses"):
            out.append(f"   - every one checks {', '.join(signature['clauses'][:12])}")
        if signature.get("interpretations"):
            out.append(f"   - every one depends on {', '.join(signature['interpretations'][:12])}")
        if signature.get("reproduce"):
            out.append(f"   - reproduce: {_code(signature['reproduce'], 1000)}")
    out.append("")
    return out


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


def _md_readings(report: Mapping[str, Any]) -> list[str]:
    lines, contradictions = _readings(report)
    if not lines and not contradictions:
        return []
    out = [
        "## Reading profile",
        "",
        "Each alternative reading below was run by the reference on the failing vectors and "
        "gave exactly what the implementation returned (`specs/interpretations.md` says what "
        "each one means).",
        "",
    ]
    out += [f"- `{_md_cell(line, 300)}`" for line in lines]
    out += [f"- **contradiction:** {_md_cell(c, 500)}" for c in contradictions]
    return [*out, ""]


def _html_readings(report: Mapping[str, Any]) -> list[str]:
    lines, contradictions = _readings(report)
    if not lines and not contradictions:
        return []
    items = [f"<li><code>{_e(line)}</code></li>" for line in lines]
    items += [f"<li><strong>contradiction:</strong> {_e(c)}</li>" for c in contradictions]
    return [
        "<h2>Reading profile</h2>",
        "<p>Each alternative reading below was run by the reference on the failing vectors and "
        "gave exactly what the implementation returned.</p>",
        "<ul>",
        *items,
        "</ul>",
    ]


def render_markdown(report: Mapping[str, Any]) -> str:
    """A Markdown summary fit for a pull-request comment."""
    return _printable(_markdown(report))


def _markdown(report: Mapping[str, Any]) -> str:
    header, footer = report["header"], report["footer"]
    name, version, language = _implementation(report)
    verdict = footer["verdict"]
    totals = footer["totals"]
    partial = partial_reasons(report)
    out = [f"# {_contract(report)} compliance: {_md_cell(name)} {_md_cell(version)}", ""]
    if partial:
        out += [
            f"**Partial run, no verdict** ({_md_cell('; '.join(partial), 2000)}). On what ran: "
            f"`{verdict['value']}` — {_md_cell(verdict_text(verdict), 2000)}",
            "",
        ]
    else:
        out += [f"**Verdict: `{verdict['value']}`** — {_md_cell(verdict_text(verdict), 2000)}", ""]
    out += [f"What it means: {_md_cell(verdict_meaning(report), 2000)}", ""]
    if verdict.get("skipped"):
        out += [
            "Skipped on this machine: " + _md_cell("; ".join(verdict["skipped"]), 2000),
            "",
            f"How to enable: {_md_cell(enable_hint(list(verdict['skipped'])), 2000)}.",
            "",
        ]
    for fault in footer.get("harness_faults") or []:
        out += ["**Harness fault** (exit 2; what ran is kept):", "", _fence(_cap(fault)), ""]
    out += _md_fix_first(report)
    out += _md_readings(report)
    out += [
        "| | |",
        "|---|---|",
        f"| Implementation | {_md_cell(name)} {_md_cell(version)} ({_md_cell(language)}) |",
        f"| Adapter | {_code(header['adapter']['spec'], 500)} |",
        f"| Kit | {header['kit']['name']} {header['kit']['version']} |",
        f"| Corpus | `{header['corpus']['digest'][:19]}…` ({header['corpus']['vectors']} vectors, "
        f"{header['selection']['selected']} run) |",
        f"| Run | {header['started']} → {footer['finished']} ({footer.get('duration_s', 0)} s) |",
    ]
    if "sandbox" in header:
        out.append(f"| Sandbox | {_md_cell(_sandbox_line(header['sandbox']), 2000)} |")
    if header["selection"]["patterns"]:
        patterns = ", ".join(_code(p) for p in header["selection"]["patterns"])
        out.append(f"| Selection | {patterns} (partial run) |")
    if partial:
        out.append(f"| Partial | {_md_cell('; '.join(partial), 2000)} |")
    if not footer["complete"]:
        out.append("| Complete | **no: the run was interrupted** |")
    out += [
        "",
        "## Totals",
        "",
        "| passed | failed | errored | skipped | expected failure | unexpected pass | compliance |",
        "|---:|---:|---:|---:|---:|---:|---:|",
        f"| {totals['passed']} | {totals['failed']} | {totals['errored']} | {totals['skipped']} "
        f"| {totals['expected-failure']} | {totals['unexpected_pass']} "
        f"| {totals['compliance'] * 100:.2f} % |",
        "",
    ]
    for title, key in (("By level", "by_level"), ("By area", "by_area")):
        out += [
            f"## {title}",
            "",
            "| | passed | failed | errored | skipped | expected failure | total |",
            "|---|---:|---:|---:|---:|---:|---:|",
        ]
        for group, counts in footer[key].items():
            cells = " | ".join(str(counts[o]) for o in _OUTCOMES)
            out.append(f"| {_md_cell(group)} | {cells} | {counts['total']} |")
        out.append("")
    bad_clauses = {c: n for c, n in footer["by_clause"].items() if _clause_status(n) != "passed"}
    if bad_clauses:
        out += ["## Clauses not fully passed", "", "| clause | status | failed | errored | total |"]
        out.append("|---|---|---:|---:|---:|")
        for clause, counts in bad_clauses.items():
            out.append(
                f"| {_md_cell(clause)} | {_clause_status(counts)} | {counts['failed']} | "
                f"{counts['errored']} | {counts['total']} |"
            )
        out.append("")
    if footer.get("unexpected_passes") or footer.get("stale_expected_failures"):
        out += ["## Expected-failures list", ""]
        for vector_id in footer.get("unexpected_passes", []):
            out.append(f"- **unexpected pass**: {_code(vector_id)} is listed but passed")
        for entry in footer.get("stale_expected_failures", []):
            out.append(
                f"- **stale entry** (line {entry['line']}): {_code(entry['entry'])} "
                "matches no vector"
            )
        out.append("")
    bad = _listed_in_order(report)
    if bad:
        out += [f"## Vectors not passed ({len(bad)}), most common signature first", ""]
        for result in bad[:_MAX_LISTED]:
            out += _md_result(result)
        if len(bad) > _MAX_LISTED:
            out.append(f"... and {len(bad) - _MAX_LISTED} more (see report.json)")
            out.append("")
    for section_name, section in report.get("sections", {}).items():
        out += [
            f"## {_md_cell(section['title'])} ({_code(section_name)}): {section['status']}",
            "",
        ]
        if section.get("summary"):
            out += [_md_cell(section["summary"], 4000), ""]
        items = section.get("items", [])
        if items:
            out += ["| item | outcome | level | clauses | message |", "|---|---|---|---|---|"]
            for item in items[:_MAX_LISTED]:
                clauses = ", ".join(item.get("clauses", []))
                level = _item_level(item)
                message = _md_cell(item.get("message", ""), 200)
                out.append(
                    f"| {_md_cell(item['id'])} | {_md_cell(item['outcome'])} | {level} | "
                    f"{_md_cell(clauses)} | {message} |"
                )
            out.append("")
    return "\n".join(out).rstrip() + "\n"


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


def _md_result(result: Mapping[str, Any]) -> list[str]:
    label = "unexpected pass" if result.get("unexpected_pass") else result["outcome"]
    out = [
        f"### {_code(result['id'])} — {label}",
        "",
        f"{_md_cell(result['area'])} · {result['level']} · clauses "
        f"{_md_cell(', '.join(result['clauses']))}"
        + (
            f" · {_md_cell(', '.join(result['interpretations']))}"
            if result["interpretations"]
            else ""
        ),
        "",
    ]
    if result.get("signature"):
        out += [f"Signature: {_code(result['signature'], 400)}", ""]
    if result.get("expected_failure_reason"):
        out += [f"Expected failure: {_md_cell(result['expected_failure_reason'])}", ""]
    if result.get("skip_reason"):
        out += [f"Skipped: {_md_cell(result['skip_reason'])}", ""]
    error = result.get("error")
    if error:
        out += [f"**{error['kind']}**: {_md_cell(error['message'], 2000)}", ""]
        if error.get("exit_status") is not None:
            out += [f"exit status {error['exit_status']}", ""]
        if error.get("stderr_tail"):
            out += ["stderr (tail):", "", _fence(str(error["stderr_tail"])[-1500:]), ""]
    for failure in result.get("failures", []):
        out += [f"**{failure['kind']}**: {_md_cell(failure['message'], 2000)}", ""]
        if failure.get("path") is not None:
            out += [
                f"- at {_code(failure['path'] or '/')}",
                f"- expected: {_code(failure.get('expected'))}",
                f"- actual: {_code(failure.get('actual'))}",
                "",
            ]
        if failure.get("diff"):
            out += [_fence(_cap(failure["diff"]), "diff"), ""]
    if result.get("reproduce"):
        out += [f"Reproduce: {_code(result['reproduce'], 2000)}", ""]
    return out


# ------------------------------------------------------------------------------ html

_CSS = """
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0;
color:#1d1d1f;background:#f6f7f9}
main{max-width:1100px;margin:0 auto;padding:16px 24px 24px}
h1{font-size:22px;margin:0}h2{font-size:17px;margin:28px 0 10px}
.top{display:flex;flex-wrap:wrap;align-items:baseline;gap:0 14px}
.verdict{padding:12px 20px;border-radius:10px;color:#fff;margin:12px 0 8px}
.verdict b{font-size:20px;display:block}.verdict span{display:block}
.verdict .meaning{font-size:13px;opacity:.92;margin-top:2px}
.facts{display:grid;grid-template-columns:max-content 1fr;gap:4px 12px;margin:8px 0;
background:#fff;border:1px solid #e0e0e0;border-radius:6px;padding:8px 12px}
.facts dt{color:#555}.facts dd{margin:0;overflow-wrap:anywhere}
.facts ul{margin:2px 0;padding-left:20px}.facts p,.facts details{margin:2px 0}
.facts details{border:0;padding:0;margin:0;background:none}.warn b{color:#8a5a00}
#fix-first h2{margin:14px 0 4px}#fix-first p{margin:4px 0}#fix-first ul{margin:2px 0}
#fix-first th{white-space:nowrap}#fix-first code{overflow-wrap:anywhere}
#fix-first td:nth-child(3){width:38%}#fix-first td:nth-child(4){width:38%}
#fix-first .reproduce td{border-top:0;padding-top:0}
table{border-collapse:collapse;background:#fff;width:100%;margin:6px 0}
td,th{border:1px solid #e0e0e0;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#fafafa}td.n{text-align:right;font-variant-numeric:tabular-nums}
.bar{display:flex;height:16px;border-radius:4px;overflow:hidden;background:#eee;min-width:200px}
.bar span{display:block;height:100%}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(112px,1fr));gap:4px}
.cell{color:#fff;border-radius:4px;padding:4px 6px;font-size:12px}
.cell small{display:block;opacity:.85}
.legend span{display:inline-block;padding:1px 8px;border-radius:3px;color:#fff;margin-right:6px;
font-size:12px}
details{background:#fff;border:1px solid #e0e0e0;border-radius:6px;margin:6px 0;padding:6px 10px}
summary{cursor:pointer}
pre{background:#1e1e1e;color:#eee;padding:8px;border-radius:4px;overflow:auto;font-size:12px;max-height:420px}
code{background:#eef;padding:0 3px;border-radius:3px}
.meta td:first-child{width:160px;color:#555}
.add{color:#8fd18f}.del{color:#f08c8c}
summary h2{display:inline;margin:0}h3{font-size:15px;margin:18px 0 6px}
.glossary dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:6px 0}
.glossary dt{font-weight:600}.glossary dd{margin:0}
a{color:#1a5fb4}.cell a,.cell{text-decoration:none}
"""


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


def _id_links(identifiers: Any) -> str:
    """Clause and interpretation IDs, each linking to its entry in this page (text on hover)."""
    links = []
    for identifier in identifiers:
        text = str(identifier)
        if re.fullmatch(r"(P2-)?INT-[0-9]+(/[a-z0-9-]+(\([a-z_]+=[0-9]+\))?)?", text):
            href, title = _anchor("int", text.split("/", 1)[0]), interpretation_text(text)
        elif re.fullmatch(r"S[0-9]+-[A-Z0-9]+-[0-9]+", text):
            href, title = _anchor("clause", text), clause_text(text)
        else:
            links.append(_e(text))
            continue
        links.append(f'<a href="#{href}" title="{_e(title)}">{_e(text)}</a>')
    return ", ".join(links)


def _level_links(level: str) -> str:
    """``required``, or ``pinned`` with each interpretation linked (:func:`_item_level`)."""
    word, _, interpretations = level.partition(" ")
    if not interpretations:
        return _e(level)
    return f"{_e(word)} {_id_links(interpretations.split(', '))}"


def escape_html(value: Any, limit: int = _SHOWN) -> str:
    """``value`` as HTML text or attribute value: escaped, cut to ``limit`` characters with a
    note (every page built from reports escapes this way, the site's too)."""
    return _e(value, limit)


def _bar(counts: Mapping[str, int]) -> str:
    total = counts.get("total", 0) or 1
    spans = "".join(
        f'<span style="width:{counts[o] * 100 / total:.3f}%;background:{_OUTCOME_COLOURS[o]}" '
        f'title="{o}: {counts[o]}"></span>'
        for o in _OUTCOMES
        if counts.get(o)
    )
    return f'<div class="bar">{spans}</div>'


def _diff_html(diff: str) -> str:
    lines = []
    for line in diff.splitlines():
        css = "add" if line.startswith("+") else "del" if line.startswith("-") else ""
        lines.append(f'<span class="{css}">{_e(line)}</span>' if css else _e(line))
    return "<pre>" + "\n".join(lines) + "</pre>"


def _html_counts_table(groups: Mapping[str, Mapping[str, int]], label: str) -> list[str]:
    out = [
        f"<table><tr><th>{label}</th><th>outcomes</th>"
        + "".join(f"<th>{o}</th>" for o in _OUTCOMES)
        + "<th>total</th></tr>"
    ]
    for group, counts in groups.items():
        cells = "".join(f'<td class="n">{counts[o]}</td>' for o in _OUTCOMES)
        out.append(
            f"<tr><td>{_e(group)}</td><td>{_bar(counts)}</td>{cells}"
            f'<td class="n">{counts["total"]}</td></tr>'
        )
    out.append("</table>")
    return out


def _html_fix_first(report: Mapping[str, Any]) -> list[str]:
    """What to fix first (in the first screen, under the verdict): the failing probes and
    properties, then the top failure signatures; empty when nothing failed."""
    out = _html_fix_first_parts(report)
    return ['<div id="fix-first">', *out, "</div>"] if out else []


def _html_fix_first_parts(report: Mapping[str, Any]) -> list[str]:
    top = _fix_first(report)
    failing = failing_section_items(report)
    if not top:
        return ["<h2>What to fix first</h2>", *_html_failing_items(failing)] if failing else []
    signatures = report.get("failure_signatures") or []
    covered = sum(s["count"] for s in top)
    out = [
        "<h2>What to fix first</h2>",
        *_html_failing_items(failing),
        f"<p>{_bad_count(report)} vector(s) failed or errored, in {len(signatures)} "
        f"signature(s); the {len(top)} below cover {covered}. One signature is usually one "
        "bug: fix its example, then certify again.</p>",
        "<table><tr><th>#</th><th>vectors</th><th>signature</th><th>example (smallest)</th>"
        "<th>shared by every one</th></tr>",
    ]
    for rank, signature in enumerate(top, 1):
        levels = "<br>".join(f"{n}&nbsp;{_e(level)}" for level, n in signature["by_level"].items())
        shared = _id_links([*signature.get("clauses", [])[:12], *signature["interpretations"][:12]])
        out.append(
            f'<tr><td class="n">{rank}</td><td class="n">{signature["count"]}<br>'
            f"<small>{levels}</small></td><td><code>{_e(signature['signature'], 400)}"
            f"</code><br><small>{_e(_reading_note(signature))}</small></td><td><code>"
            f"{_e(signature['example'])}</code><br><small>"
            f"{_e(signature.get('example_message', ''), 300)}</small></td>"
            f"<td>{shared}</td></tr>"
        )
        if signature.get("reproduce"):
            out.append(
                '<tr class="reproduce"><td></td><td colspan="4"><small>reproduce the example: '
                f"<code>{_e(signature['reproduce'])}</code></small></td></tr>"
            )
    out.append("</table>")
    return out


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


def _html_legend() -> list[str]:
    """A short glossary next to the verdict."""
    entries = "".join(f"<dt>{_e(term)}</dt><dd>{_e(text)}</dd>" for term, text in _LEGEND)
    return [
        '<details class="glossary"><summary>What the verdict, levels and sections mean</summary>',
        f"<dl>{entries}</dl>",
        "<p>Hover a clause or an interpretation ID for its text; the registers are "
        "<code>specs/clauses.md</code> and <code>specs/interpretations.md</code> in the kit.</p>",
        "</details>",
    ]


def _register_clauses(report: Mapping[str, Any]) -> list[Any]:
    """The register's clauses of the spec this report certifies."""
    spec = "SPEC-006" if _contract(report) == "phase6-v1" else None
    clauses = _registers()[0].values()
    return [c for c in clauses if spec is None or c.spec == spec] if spec else []


def _html_clause_matrix(report: Mapping[str, Any]) -> list[str]:
    """One tile per clause the vectors check (its text on hover), then the clauses verified
    otherwise (a probe, a property, a test of the kit), which have no tile."""
    by_clause = report["footer"]["by_clause"]
    not_passed = sum(1 for counts in by_clause.values() if _clause_status(counts) != "passed")
    tiles = []
    for clause, counts in by_clause.items():
        status = _clause_status(counts)
        tally = ", ".join(f"{o} {counts[o]}" for o in _OUTCOMES if counts[o])
        tiles.append(
            f'<div class="cell" id="{_anchor("clause", clause)}" '
            f'style="background:{_OUTCOME_COLOURS[status]}" '
            f'title="{_e(clause_text(clause))}&#10;{status}: {tally}">{_e(clause)}'
            f"<small>{counts['passed']}/{counts['total']} passed</small></div>"
        )
    out = [
        f"<details open><summary><h2>Clause matrix</h2> {len(by_clause)} clauses checked by "
        f"vectors, {not_passed} not fully passed</summary>",
        "<p>One tile per clause the corpus checks, coloured by its worst outcome; hover a tile "
        "for the clause's text.</p>",
        '<div class="grid">',
        *tiles,
        "</div>",
    ]
    untiled = [c for c in _register_clauses(report) if c.id not in by_clause]
    if untiled:
        rows = "".join(
            f'<tr id="{_anchor("clause", c.id)}"><td title="{_e(clause_text(c.id))}">{_e(c.id)}'
            f"</td><td>{_e(', '.join(c.verified_by))}</td><td>{_e(c.summary)}</td></tr>"
            for c in untiled
        )
        total = len(untiled) + len(by_clause)
        out += [
            f"<p>{len(by_clause)} tiles for {total} clauses: the other {len(untiled)} are "
            "verified by a probe, a property or a test of the kit only (no vector checks "
            "them), so they have no tile; the probes and properties sections give their "
            "outcome.</p>",
            f"<details><summary>The {len(untiled)} clauses without a tile</summary>",
            f"<table><tr><th>clause</th><th>verified by</th><th>text</th></tr>{rows}</table>",
            "</details>",
        ]
    named = {
        str(c)
        for section in (report.get("sections") or {}).values()
        for item in section.get("items") or []
        for c in item.get("clauses") or []
    }
    anchored = set(by_clause) | {c.id for c in untiled}
    registers = _registers()[0]
    others = sorted(c for c in named - anchored if c in registers)
    if others:
        rows = "".join(
            f'<tr id="{_anchor("clause", c)}"><td>{_e(c)}</td><td>{_e(registers[c].spec)}</td>'
            f"<td>{_e(registers[c].summary)}</td></tr>"
            for c in others
        )
        out += [
            f"<details><summary>{len(others)} clauses of other specs the sections check</summary>",
            f"<table><tr><th>clause</th><th>spec</th><th>text</th></tr>{rows}</table>",
            "</details>",
        ]
    out.append("</details>")
    return out


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


def _html_interpretations(report: Mapping[str, Any]) -> list[str]:
    """The interpretations the report mentions, with their register titles (the targets of
    the INT links)."""
    referenced = _referenced_interpretations(report)
    if not referenced:
        return []
    entries = _registers()[1]
    rows = "".join(
        f'<tr id="{_anchor("int", i)}"><td>{_e(i)}</td><td>'
        f"{_e(entries[i].title) if i in entries else ''}</td></tr>"
        for i in referenced
    )
    return [
        f"<details><summary><h2>Interpretations</h2> the {len(referenced)} this report "
        "mentions</summary>",
        "<p>The kit's readings of ambiguous clauses; the whole entries are in "
        "<code>specs/interpretations.md</code>.</p>",
        f"<table><tr><th>interpretation</th><th>reading</th></tr>{rows}</table>",
        "</details>",
    ]


#: A section's item outcomes in its own words: mutants are killed or survive.
_ITEM_WORDS = {"suite_strength": {"passed": "killed", "failed": "survived"}}
#: Section items listed before the rest collapse.
_OPEN_ITEMS = 20


def _html_section(
    name: str, section: Mapping[str, Any], *, collapse_passed: bool = False
) -> list[str]:
    """One section: title, status, summary and its items, rows grouped by clause set (the
    audit's 475 records check the same six clauses), what did not pass first, long lists
    (and, with ``collapse_passed``, every passed row) collapsed."""
    words = _ITEM_WORDS.get(name, {})
    status = str(section["status"])
    out = [
        f"<h3>{_e(section['title'])} <small>({_e(name)}: {_e(words.get(status, status))})"
        "</small></h3>"
    ]
    if section.get("summary"):
        out.append(f"<p>{_e(section['summary'])}</p>")
    groups: dict[tuple[str, str, tuple[str, ...], str], list[Mapping[str, Any]]] = {}
    for item in section.get("items") or []:
        key = (
            str(item["outcome"]),
            _item_level(item),
            tuple(str(c) for c in item.get("clauses") or []),
            str(item.get("message", "")),
        )
        groups.setdefault(key, []).append(item)
    if not groups:
        return out
    rows = []
    for (outcome, level, clauses, message), items in groups.items():
        colour = _OUTCOME_COLOURS.get(outcome, "#616161")
        ids = [str(item["id"]) for item in items]
        if len(ids) == 1:
            shown = _e(ids[0])
        else:
            listed = ", ".join(_e(i, 200) for i in ids[:_MAX_LISTED])
            more = f" … and {len(ids) - _MAX_LISTED} more" if len(ids) > _MAX_LISTED else ""
            shown = f"<details><summary>{len(ids)} items</summary>{listed}{more}</details>"
        rows.append(
            (
                outcome == "passed",
                f"<tr><td>{shown}</td>"
                f'<td style="color:{colour}">{_e(words.get(outcome, outcome))}</td>'
                f"<td>{_level_links(level)}</td><td>{_id_links(clauses)}</td>"
                f"<td>{_e(message, 2000)}</td></tr>",
            )
        )
    rows.sort(key=lambda row: row[0])  # what did not pass first
    visible = _OPEN_ITEMS
    if collapse_passed and len(rows) > _OPEN_ITEMS:
        visible = min(visible, sum(1 for passed, _ in rows if not passed))
    head = (
        "<table><tr><th>item</th><th>outcome</th><th>level</th><th>clauses</th>"
        "<th>message</th></tr>"
    )
    if visible:
        out += [head, *(row for _, row in rows[:visible]), "</table>"]
    if len(rows) > visible:
        out += [
            f"<details><summary>{len(rows) - visible} {'more ' if visible else ''}rows</summary>",
            head,
            *(row for _, row in rows[visible:]),
            "</table></details>",
        ]
    return out


def _html_sections(report: Mapping[str, Any]) -> list[str]:
    """The implementation's sections, then, apart, those that do not affect the verdict
    (suite strength: the kit's own strength; an optional capability)."""
    sections = report.get("sections") or {}
    verdict = {n: s for n, s in sections.items() if s.get("affects_verdict", True)}
    other = {n: s for n, s in sections.items() if n not in verdict}
    out = []
    if verdict:
        out.append("<h2>Sections of the verdict</h2>")
        for name, section in verdict.items():
            out += _html_section(name, section)
    if other:
        out += [
            "<h2>Not part of the verdict</h2>",
            "<p>These sections do not decide the verdict. Suite strength measures the kit "
            "itself: how many deliberately broken copies of the reference (mutants) the corpus "
            "kills.</p>",
        ]
        for name, section in other.items():
            out += _html_section(name, section, collapse_passed=True)
    return out


#: A failing check's message under "What to fix first" is cut here (two lines of the first
#: screen; the section's table below and report.json have it whole).
_FIRST_SCREEN_MESSAGE = 160


def _html_failing_items(failing: list[tuple[str, Mapping[str, Any]]]) -> list[str]:
    """The probes and properties that failed, by name, before the vector signatures."""
    if not failing:
        return []
    rows = "".join(
        f"<li><b>{_e(name)} <code>{_e(item['id'])}</code></b> {_e(item['outcome'])} "
        f"({_level_links(_item_level(item))}; {_id_links(item.get('clauses') or [])}): "
        f"{_e(item.get('message', ''), _FIRST_SCREEN_MESSAGE)}</li>"
        for name, item in failing
    )
    return [f"<p>{len(failing)} check(s) of the probes and properties failed:</p><ul>{rows}</ul>"]


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


def _html_skipped(skipped: list[str]) -> str:
    """The checks that could not run here, and how to enable them."""
    if not skipped:
        return "nothing: no check was skipped on this machine"
    items = [f"<li>{_e(line)}</li>" for line in _skipped_groups(skipped)]
    more = ""
    if len(items) > _SKIPPED_OPEN:
        hidden = items[_SKIPPED_OPEN - 1 :]
        items = items[: _SKIPPED_OPEN - 1]
        more = f"<details><summary>{len(hidden)} more</summary><ul>{''.join(hidden)}</ul></details>"
    hint = _e(enable_hint(skipped))
    hint = re.sub(r"apt-get install -y [a-z0-9 -]+", lambda m: f"<code>{m.group()}</code>", hint)
    return (
        f"<b>{len(skipped)} check(s) could not run on this machine</b> (never counted as "
        f'passed). <span class="enable">How to enable: {hint}.</span>'
        f"<ul>{''.join(items)}</ul>{more}"
    )


def _html_certified(report: Mapping[str, Any]) -> list[str]:
    """What was certified, against which corpus, and what was skipped here: the first screen,
    with the verdict above."""
    header = report["header"]
    name, version, language = _implementation(report)
    corpus = header["corpus"]
    kit = f"{header['kit']['name']} {header['kit']['version']}"
    published = corpus.get("published")  # absent from reports that predate it
    if published is True:
        source = f"the published {_contract(report)} corpus of kit {_e(kit)}"
    elif published is False:
        source = f"a {_contract(report)} corpus other than the one kit {_e(kit)} publishes"
    else:
        source = f"a {_contract(report)} corpus (kit {_e(kit)})"
    skipped = [str(line) for line in report["footer"]["verdict"].get("skipped") or []]
    kind = header["adapter"].get("kind")
    via = f", through a {_e(kind)}: adapter, see Adapter below" if kind else ""
    return [
        '<dl class="facts" id="certified">',
        f'<dt>Certified</dt><dd id="implementation"><b>{_e(name)} {_e(version)}</b> '
        f"({_e(language)}{via})</dd>",
        f'<dt>Against</dt><dd id="corpus">{source}: <b>{corpus["vectors"]} vectors</b> '
        f"({header['selection']['selected']} run), digest <code>{_e(corpus['digest'])}</code>"
        "</dd>",
        f'<dt>Skipped</dt><dd id="skipped"{" class=warn" if skipped else ""}>'
        f"{_html_skipped(skipped)}</dd>",
        "<dt>Terms</dt><dd>",
        *_html_legend(),
        "</dd></dl>",
    ]


def render_html(report: Mapping[str, Any]) -> str:
    """One self-contained page: verdict, what to fix first, per-area bars, clause matrix,
    failures with diffs."""
    return _printable(_html(report))


def _html(report: Mapping[str, Any]) -> str:
    header, footer = report["header"], report["footer"]
    name, version, language = _implementation(report)
    verdict = footer["verdict"]
    totals = footer["totals"]
    partial = partial_reasons(report)
    colour = "#616161" if partial else _VERDICT_COLOURS.get(verdict["value"], "#616161")
    if partial:
        banner = (
            f"<b>partial run, no verdict</b><span>{_e('; '.join(partial))}</span><span>on what "
            f"ran: {_e(verdict['value'])} — {_e(verdict_text(verdict))}</span>"
        )
    else:
        banner = f"<b>{_e(verdict['value'])}</b><span>{_e(verdict_text(verdict))}</span>"
    banner += f'<span class="meaning">What it means: {_e(verdict_meaning(report))}</span>'
    faults = "".join(
        f"<p><b>Harness fault</b> (exit 2; what ran is kept):</p><pre>{_e(fault)}</pre>"
        for fault in footer.get("harness_faults") or []
    )
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width,initial-scale=1">',
        f"<title>{_contract(report)} compliance: {_e(name)} {_e(version)}</title>",
        f"<style>{_CSS}</style></head><body><main>",
        f'<header class="top"><h1>{_contract(report)} compliance: {_e(name)} {_e(version)}</h1>',
        f"<span>{_e(_subject(report))} · {_e(language)} · kit {_e(header['kit']['name'])} "
        f"{_e(header['kit']['version'])}</span></header>",
        f'<div class="verdict" id="verdict" style="background:{colour}">{banner}</div>',
        *_html_certified(report),
        faults,
        *_html_fix_first(report),
        *_html_readings(report),
        '<table class="meta">',
        f"<tr><td>Adapter</td><td><code>{_e(header['adapter']['spec'])}</code></td></tr>",
        f"<tr><td>Run</td><td>{_e(header['started'])} → {_e(footer['finished'])} "
        f"({_e(footer.get('duration_s', 0))} s, {header['options']['jobs']} jobs)</td></tr>",
        *(
            [f"<tr><td>Sandbox</td><td>{_e(_sandbox_line(header['sandbox']))}</td></tr>"]
            if "sandbox" in header
            else []
        ),
        f"<tr><td>Totals</td><td>{_bar(totals)}"
        + " ".join(f"{o}: {totals[o]}" for o in _OUTCOMES)
        + f" · unexpected passes: {totals['unexpected_pass']}"
        + f" · compliance {totals['compliance'] * 100:.2f} %</td></tr>",
    ]
    if header["selection"]["patterns"]:
        out.append(
            "<tr><td>Selection</td><td>partial run: "
            + ", ".join(f"<code>{_e(p)}</code>" for p in header["selection"]["patterns"])
            + "</td></tr>"
        )
    if partial:
        out.append(f"<tr><td>Partial</td><td>{_e('; '.join(partial))}</td></tr>")
    if not footer["complete"]:
        out.append("<tr><td>Complete</td><td><b>no: the run was interrupted</b></td></tr>")
    out.append("</table>")
    out.append(
        '<p class="legend">'
        + "".join(f'<span style="background:{_OUTCOME_COLOURS[o]}">{o}</span>' for o in _OUTCOMES)
        + "</p>"
    )
    out.append("<h2>By level</h2>")
    out += _html_counts_table(footer["by_level"], "level")
    areas = footer["by_area"]
    bad_areas = sum(1 for counts in areas.values() if counts.get("passed") != counts.get("total"))
    out.append(
        f"<details{' open' if bad_areas else ''}><summary><h2>By area</h2> {len(areas)} areas, "
        f"{bad_areas} not fully passed</summary>"
    )
    out += _html_counts_table(areas, "area")
    out.append("</details>")
    out += _html_clause_matrix(report)
    if footer.get("unexpected_passes") or footer.get("stale_expected_failures"):
        out.append("<h2>Expected-failures list</h2><ul>")
        for vector_id in footer.get("unexpected_passes", []):
            out.append(
                f"<li><b>unexpected pass</b>: <code>{_e(vector_id)}</code> is listed "
                "but passed</li>"
            )
        for entry in footer.get("stale_expected_failures", []):
            out.append(
                f"<li><b>stale entry</b> (line {entry['line']}): <code>{_e(entry['entry'])}</code> "
                "matches no vector</li>"
            )
        out.append("</ul>")
    bad = _listed_in_order(report)
    if bad:
        out.append(f"<h2>Vectors not passed ({len(bad)}), most common signature first</h2>")
        for result in bad[:_MAX_LISTED]:
            out += _html_result(result)
        if len(bad) > _MAX_LISTED:
            out.append(f"<p>... and {len(bad) - _MAX_LISTED} more (see report.json)</p>")
    out += _html_sections(report)
    out += _html_interpretations(report)
    out.append(f"<p><small>Generated from report.json ({_e(report['format'])}).</small></p>")
    out.append("</main></body></html>")
    return "\n".join(out) + "\n"


def _html_result(result: Mapping[str, Any]) -> list[str]:
    label = "unexpected pass" if result.get("unexpected_pass") else result["outcome"]
    colour = _OUTCOME_COLOURS["failed" if result.get("unexpected_pass") else result["outcome"]]
    out = [
        f'<details><summary><b style="color:{colour}">{_e(label)}</b> '
        f"<code>{_e(result['id'])}</code> · {_e(result['area'])} · {_e(result['level'])} · "
        f"{_id_links(result['clauses'])}</summary>"
    ]
    if result.get("signature"):
        out.append(f"<p>signature: <code>{_e(result['signature'])}</code></p>")
    if result.get("expected_failure_reason"):
        out.append(f"<p>Expected failure: {_e(result['expected_failure_reason'])}</p>")
    if result.get("skip_reason"):
        out.append(f"<p>Skipped: {_e(result['skip_reason'])}</p>")
    error = result.get("error")
    if error:
        out.append(f"<p><b>{_e(error['kind'])}</b>: {_e(error['message'])}</p>")
        if error.get("exit_status") is not None:
            out.append(f"<p>exit status {_e(error['exit_status'])}</p>")
        if error.get("stderr_tail"):
            out.append(f"<p>stderr (tail):</p><pre>{_e(str(error['stderr_tail'])[-3000:])}</pre>")
        if error.get("detail"):
            out.append(f"<pre>{_e(str(error['detail'])[-3000:])}</pre>")
    for failure in result.get("failures", []):
        out.append(f"<p><b>{_e(failure['kind'])}</b>: {_e(failure['message'])}</p>")
        if failure.get("path") is not None:
            out.append(
                f"<p>at <code>{_e(failure['path'] or '/')}</code><br>expected "
                f"<code>{_e(failure.get('expected'))}</code><br>actual "
                f"<code>{_e(failure.get('actual'))}</code></p>"
            )
        if failure.get("diff"):
            out.append(_diff_html(_cap(failure["diff"])))
    if result.get("interpretations"):
        out.append(f"<p>interpretations: {_id_links(result['interpretations'])}</p>")
    if result.get("reproduce"):
        out.append(f"<p>reproduce: <code>{_e(result['reproduce'])}</code></p>")
    out.append("</details>")
    return out


# ------------------------------------------------------------------------------ junit

_XML_INVALID = re.compile("[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
#: Longest text put into one JUnit element or attribute.
_JUNIT_TEXT = 64_000


def _x(text: Any, limit: int = _JUNIT_TEXT) -> str:
    """Text XML 1.0 can carry: illegal characters (NUL, most C0 controls, lone surrogates,
    U+FFFE/U+FFFF) as visible escapes; cut to ``limit``."""

    def escape(match: re.Match[str]) -> str:
        code = ord(match.group())
        return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"

    return _XML_INVALID.sub(escape, _cap(text, limit))


def _junit_vectors(root: ET.Element, report: Mapping[str, Any]) -> None:
    by_area: dict[str, list[Mapping[str, Any]]] = {}
    for result in report["results"]:
        by_area.setdefault(str(result["area"]), []).append(result)
    for area, results in sorted(by_area.items()):
        suite = ET.SubElement(root, "testsuite", name=_x(area), tests=str(len(results)))
        counts = {"failures": 0, "errors": 0, "skipped": 0}
        elapsed = 0.0
        for result in results:
            elapsed += result.get("duration_ms", 0) / 1000
            case = ET.SubElement(
                suite,
                "testcase",
                classname=_x(f"{_JUNIT_PREFIXES[_contract(report)]}.{area}"),
                name=_x(result["id"]),
                time=f"{result.get('duration_ms', 0) / 1000:.4f}",
            )
            outcome = result["outcome"]
            if result.get("unexpected_pass"):
                counts["failures"] += 1
                element = ET.SubElement(
                    case,
                    "failure",
                    type="unexpected-pass",
                    message="listed as expected failure but passed",
                )
                element.text = _x(result.get("expected_failure_reason") or "")
            elif outcome == "failed":
                counts["failures"] += 1
                first = result["failures"][0]
                element = ET.SubElement(
                    case, "failure", type=_x(first["kind"]), message=_x(first["message"], 500)
                )
                element.text = _x(
                    f"signature: {result.get('signature', '')}\n\n"
                    + "\n\n".join(
                        f"{f['kind']}: {f['message']}\n{f.get('diff') or ''}"
                        for f in result["failures"]
                    )
                    + f"\n\nreproduce: {result.get('reproduce')}"
                )
            elif outcome == "errored":
                counts["errors"] += 1
                error = result["error"]
                element = ET.SubElement(
                    case, "error", type=_x(error["kind"]), message=_x(error["message"], 500)
                )
                element.text = _x(
                    f"signature: {result.get('signature', '')}\n{error.get('detail') or ''}"
                    f"\n\nreproduce: {result.get('reproduce')}"
                )
                if error.get("stderr_tail"):
                    ET.SubElement(case, "system-err").text = _x(error["stderr_tail"])
            elif outcome in ("skipped", "expected-failure"):
                counts["skipped"] += 1
                reason = result.get("skip_reason") or (
                    f"expected failure: {result.get('expected_failure_reason')}"
                )
                ET.SubElement(case, "skipped", message=_x(reason, 2000))
        for key, value in counts.items():
            suite.set(key, str(value))
        suite.set("time", f"{elapsed:.3f}")


def _junit_sections(root: ET.Element, report: Mapping[str, Any]) -> tuple[int, int, int, int]:
    """One testsuite per section, one testcase per item (a property family, a probe check):
    failed, errored or skipped (with the reason) as they were; in a section that does not
    affect the verdict (suite strength), a failure is skipped with its message, since it says
    something about the kit, not the implementation. Returns the added counts."""
    added = failures = errors = skipped = 0
    for name, section in (report.get("sections") or {}).items():
        items = section.get("items") or []
        suite = ET.SubElement(
            root, "testsuite", name=_x(f"section.{name}"), tests=str(max(1, len(items)))
        )
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
            case = ET.SubElement(
                suite,
                "testcase",
                classname=_x(f"{_JUNIT_PREFIXES[_contract(report)]}.section.{name}"),
                name=_x(item["id"]),
            )
            outcome = str(item.get("outcome"))
            message = str(item.get("message", ""))
            level = _item_level(item)
            if informational and outcome in ("failed", "errored"):
                # about the kit (e.g. a mutant the corpus misses), not the implementation
                counts["skipped"] += 1
                reason = f"{outcome}, does not affect the verdict: {message}"
                ET.SubElement(case, "skipped", message=_x(reason, 2000))
            elif outcome == "failed":
                counts["failures"] += 1
                element = ET.SubElement(case, "failure", type=_x(level), message=_x(message, 500))
                element.text = _x(
                    f"{level}: {message}\nclauses: {', '.join(item.get('clauses', []))}"
                )
            elif outcome == "errored":
                counts["errors"] += 1
                element = ET.SubElement(case, "error", type="errored", message=_x(message, 500))
                element.text = _x(message)
            elif outcome != "passed":
                counts["skipped"] += 1
                ET.SubElement(case, "skipped", message=_x(message or outcome, 2000))
        for key, value in counts.items():
            suite.set(key, str(value))
        added += len(items)
        failures += counts["failures"]
        errors += counts["errors"]
        skipped += counts["skipped"]
    return added, failures, errors, skipped


def _junit_verdict(root: ET.Element, report: Mapping[str, Any]) -> tuple[int, int]:
    """A testcase for the verdict itself: failed unless compliant, skipped for a partial run.

    Returns (failures, skipped) added."""
    verdict = report["footer"]["verdict"]
    partial = partial_reasons(report)
    verdict_name = f"{_JUNIT_PREFIXES[_contract(report)]}.verdict"
    suite = ET.SubElement(root, "testsuite", name=verdict_name, tests="1")
    case = ET.SubElement(suite, "testcase", classname=verdict_name, name="certification")
    if partial:
        skipped = ET.SubElement(
            case,
            "skipped",
            message=_x(
                f"partial run, no verdict: {'; '.join(partial)}; on what ran: {verdict['value']}",
                2000,
            ),
        )
        skipped.text = _junit_details(report)
        suite.set("skipped", "1")
        return 0, 1
    if verdict["value"] != "compliant":
        element = ET.SubElement(
            case, "failure", type=_x(verdict["value"]), message=_x(verdict["text"], 500)
        )
        element.text = _junit_details(report)
        suite.set("failures", "1")
        return 1, 0
    return 0, 0


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
    """JUnit XML: one testsuite per area (a testcase per vector), one per section (a testcase
    per property family and per probe check), and the verdict as a testcase of its own."""
    name, version, _ = _implementation(report)
    totals = report["footer"]["totals"]
    root = ET.Element("testsuites", name=_x(f"{_contract(report)} {name} {version}"))
    _junit_vectors(root, report)
    tests, failures, errors, skipped = _junit_sections(root, report)
    verdict_failures, verdict_skipped = _junit_verdict(root, report)
    root.set("tests", str(totals["total"] + tests + 1))
    root.set(
        "failures",
        str(totals["failed"] + totals["unexpected_pass"] + failures + verdict_failures),
    )
    root.set("errors", str(totals["errored"] + errors))
    root.set(
        "skipped", str(totals["skipped"] + totals["expected-failure"] + skipped + verdict_skipped)
    )
    root.set("time", f"{report['footer'].get('duration_s', 0):.3f}")
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


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
    ``phase2-context/1 | compliant``); a partial run never shows a verdict."""
    label, value, colour = badge_fields(report)
    left, right = _text_width(label), _text_width(value)
    width = left + right
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="20" role="img" '
        f'aria-label="{_e(label)}: {_e(value)}"><title>{_e(label)}: {_e(value)}</title>'
        f'<rect width="{left}" height="20" fill="#555"/>'
        f'<rect x="{left}" width="{right}" height="20" fill="{colour}"/>'
        '<g fill="#fff" text-anchor="middle" '
        'font-family="Verdana,DejaVu Sans,sans-serif" font-size="11">'
        f'<text x="{left / 2:.1f}" y="14">{_e(label)}</text>'
        f'<text x="{left + right / 2:.1f}" y="14">{_e(value)}</text></g></svg>\n'
    )
