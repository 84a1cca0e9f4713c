"""Renderings of a ``report.json``: Markdown, one self-contained HTML page, JUnit XML, a badge.

Every function takes the parsed report (a mapping) and returns text; none reads anything else,
so ``phase6 report`` re-renders them from ``report.json`` alone. Sections added by others are
rendered generically (title, status, summary, items table).
"""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from typing import Any

from conformance.run import Outcome

__all__ = ["render_badge", "render_html", "render_junit", "render_markdown"]

_OUTCOMES = tuple(o.value for o in Outcome)
_MAX_LISTED = 200
_VERDICT_COLOURS = {
    "compliant": "#2e8540",
    "compliant-required-only": "#b58105",
    "non-compliant": "#c62828",
    "adapter-broken": "#616161",
}
_OUTCOME_COLOURS = {
    "passed": "#2e8540",
    "failed": "#c62828",
    "errored": "#e65100",
    "skipped": "#9e9e9e",
    "expected-failure": "#b58105",
}


def _implementation(report: Mapping[str, Any]) -> tuple[str, str, str]:
    implementation = report["header"]["adapter"].get("implementation") or {}
    return (
        str(implementation.get("name", "unknown implementation")),
        str(implementation.get("version", "?")),
        str(implementation.get("language", "?")),
    )


def _not_passed(report: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return [r for r in report["results"] if r["outcome"] != "passed" or r.get("unexpected_pass")]


def _clause_status(counts: Mapping[str, int]) -> str:
    for outcome in ("failed", "errored", "expected-failure", "skipped"):
        if counts.get(outcome):
            return outcome
    return "passed"


def _md_cell(text: Any) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _fence(text: str, lang: str = "") -> str:
    ticks = "```"
    while ticks in text:
        ticks += "`"
    return f"{ticks}{lang}\n{text}\n{ticks}"


# ------------------------------------------------------------------------------ markdown


def render_markdown(report: Mapping[str, Any]) -> str:
    """A Markdown summary fit for a pull-request comment."""
    header, footer = report["header"], report["footer"]
    name, version, language = _implementation(report)
    verdict = footer["verdict"]
    totals = footer["totals"]
    out = [
        f"# phase6-v1 compliance: {name} {version}",
        "",
        f"**Verdict: `{verdict['value']}`** — {verdict['text']}",
        "",
        "| | |",
        "|---|---|",
        f"| Implementation | {_md_cell(name)} {_md_cell(version)} ({_md_cell(language)}) |",
        f"| Adapter | `{_md_cell(header['adapter']['spec'])}` |",
        f"| Kit | {header['kit']['name']} {header['kit']['version']} |",
        f"| Corpus | `{header['corpus']['digest'][:19]}…` ({header['corpus']['vectors']} vectors, "
        f"{header['selection']['selected']} run) |",
        f"| Run | {header['started']} → {footer['finished']} ({footer.get('duration_s', 0)} s) |",
    ]
    if header["selection"]["patterns"]:
        patterns = ", ".join(f"`{p}`" for p in header["selection"]["patterns"])
        out.append(f"| Selection | {patterns} (partial run) |")
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
                f"| {clause} | {_clause_status(counts)} | {counts['failed']} | "
                f"{counts['errored']} | {counts['total']} |"
            )
        out.append("")
    if footer.get("unexpected_passes") or footer.get("stale_expected_failures"):
        out += ["## Expected-failures list", ""]
        for vector_id in footer.get("unexpected_passes", []):
            out.append(f"- **unexpected pass**: `{vector_id}` is listed but passed")
        for entry in footer.get("stale_expected_failures", []):
            out.append(
                f"- **stale entry** (line {entry['line']}): `{entry['entry']}` matches no vector"
            )
        out.append("")
    bad = _not_passed(report)
    if bad:
        out += [f"## Vectors not passed ({len(bad)})", ""]
        for result in bad[:_MAX_LISTED]:
            out += _md_result(result)
        if len(bad) > _MAX_LISTED:
            out.append(f"... and {len(bad) - _MAX_LISTED} more (see report.json)")
            out.append("")
    for section_name, section in report.get("sections", {}).items():
        out += [f"## {section['title']} (`{section_name}`): {section['status']}", ""]
        if section.get("summary"):
            out += [section["summary"], ""]
        items = section.get("items", [])
        if items:
            out += ["| item | outcome | clauses | message |", "|---|---|---|---|"]
            for item in items[:_MAX_LISTED]:
                clauses = ", ".join(item.get("clauses", []))
                message = _md_cell(item.get("message", ""))[:200]
                out.append(
                    f"| {_md_cell(item['id'])} | {item['outcome']} | {clauses} | {message} |"
                )
            out.append("")
    return "\n".join(out).rstrip() + "\n"


def _md_result(result: Mapping[str, Any]) -> list[str]:
    label = "unexpected pass" if result.get("unexpected_pass") else result["outcome"]
    out = [
        f"### `{result['id']}` — {label}",
        "",
        f"{result['area']} · {result['level']} · clauses {', '.join(result['clauses'])}"
        + (f" · {', '.join(result['interpretations'])}" if result["interpretations"] else ""),
        "",
    ]
    if result.get("expected_failure_reason"):
        out += [f"Expected failure: {result['expected_failure_reason']}", ""]
    if result.get("skip_reason"):
        out += [f"Skipped: {result['skip_reason']}", ""]
    error = result.get("error")
    if error:
        out += [f"**{error['kind']}**: {error['message']}", ""]
        if error.get("exit_status") is not None:
            out += [f"exit status {error['exit_status']}", ""]
        if error.get("stderr_tail"):
            out += ["stderr (tail):", "", _fence(error["stderr_tail"][-1500:]), ""]
    for failure in result.get("failures", []):
        out += [f"**{failure['kind']}**: {failure['message']}", ""]
        if failure.get("path") is not None:
            out += [
                f"- at `{failure['path'] or '/'}`",
                f"- expected: `{_md_cell(failure.get('expected'))[:300]}`",
                f"- actual: `{_md_cell(failure.get('actual'))[:300]}`",
                "",
            ]
        if failure.get("diff"):
            out += [_fence(failure["diff"], "diff"), ""]
    if result.get("reproduce"):
        out += [f"Reproduce: `{result['reproduce']}`", ""]
    return out


# ------------------------------------------------------------------------------ html

_CSS = """
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0;
color:#1d1d1f;background:#f6f7f9}
main{max-width:1100px;margin:0 auto;padding:24px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 10px}
.verdict{padding:18px 22px;border-radius:10px;color:#fff;margin:16px 0}
.verdict b{font-size:20px;display:block}
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
"""


def _e(value: Any) -> str:
    return html.escape(str(value), quote=True)


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


def render_html(report: Mapping[str, Any]) -> str:
    """One self-contained page: verdict, per-area bars, clause matrix, failures with diffs."""
    header, footer = report["header"], report["footer"]
    name, version, language = _implementation(report)
    verdict = footer["verdict"]
    totals = footer["totals"]
    colour = _VERDICT_COLOURS.get(verdict["value"], "#616161")
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width,initial-scale=1">',
        f"<title>phase6-v1 compliance: {_e(name)} {_e(version)}</title>",
        f"<style>{_CSS}</style></head><body><main>",
        f"<h1>phase6-v1 compliance: {_e(name)} {_e(version)}</h1>",
        f"<div>SPEC-006 memory.read · {_e(language)} · kit {_e(header['kit']['name'])} "
        f"{_e(header['kit']['version'])}</div>",
        f'<div class="verdict" style="background:{colour}"><b>{_e(verdict["value"])}</b>'
        f"{_e(verdict['text'])}</div>",
        '<table class="meta">',
        f"<tr><td>Adapter</td><td><code>{_e(header['adapter']['spec'])}</code></td></tr>",
        f"<tr><td>Corpus</td><td><code>{_e(header['corpus']['digest'])}</code> "
        f"({header['corpus']['vectors']} vectors, {header['selection']['selected']} run)</td></tr>",
        f"<tr><td>Run</td><td>{_e(header['started'])} → {_e(footer['finished'])} "
        f"({_e(footer.get('duration_s', 0))} s, {header['options']['jobs']} jobs)</td></tr>",
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
    out.append("<h2>By area</h2>")
    out += _html_counts_table(footer["by_area"], "area")
    out.append('<h2>Clause matrix</h2><div class="grid">')
    for clause, counts in footer["by_clause"].items():
        status = _clause_status(counts)
        out.append(
            f'<div class="cell" style="background:{_OUTCOME_COLOURS[status]}" '
            f'title="{_e(clause)}: {status}; '
            + ", ".join(f"{o} {counts[o]}" for o in _OUTCOMES if counts[o])
            + f'">{_e(clause)}<small>{counts["passed"]}/{counts["total"]} passed</small></div>'
        )
    out.append("</div>")
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
    bad = _not_passed(report)
    if bad:
        out.append(f"<h2>Vectors not passed ({len(bad)})</h2>")
        for result in bad[:_MAX_LISTED]:
            out += _html_result(result)
        if len(bad) > _MAX_LISTED:
            out.append(f"<p>... and {len(bad) - _MAX_LISTED} more (see report.json)</p>")
    for section_name, section in report.get("sections", {}).items():
        out.append(
            f"<h2>{_e(section['title'])} "
            f"<small>({_e(section_name)}: {_e(section['status'])})</small></h2>"
        )
        if section.get("summary"):
            out.append(f"<p>{_e(section['summary'])}</p>")
        items = section.get("items", [])
        if items:
            out.append(
                "<table><tr><th>item</th><th>outcome</th><th>clauses</th><th>message</th></tr>"
            )
            for item in items[:_MAX_LISTED]:
                colour_item = _OUTCOME_COLOURS.get(item["outcome"], "#616161")
                out.append(
                    f"<tr><td>{_e(item['id'])}</td>"
                    f'<td style="color:{colour_item}">{_e(item["outcome"])}</td>'
                    f"<td>{_e(', '.join(item.get('clauses', [])))}</td>"
                    f"<td>{_e(item.get('message', ''))}</td></tr>"
                )
            out.append("</table>")
    out.append(f"<p><small>Generated from report.json ({_e(report['format'])}).</small></p>")
    out.append("</main></body></html>")
    return "\n".join(out) + "\n"


def _html_result(result: Mapping[str, Any]) -> list[str]:
    label = "unexpected pass" if result.get("unexpected_pass") else result["outcome"]
    colour = _OUTCOME_COLOURS["failed" if result.get("unexpected_pass") else result["outcome"]]
    out = [
        f'<details><summary><b style="color:{colour}">{_e(label)}</b> '
        f"<code>{_e(result['id'])}</code> · {_e(result['area'])} · {_e(result['level'])} · "
        f"{_e(', '.join(result['clauses']))}</summary>"
    ]
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
            out.append(f"<p>stderr (tail):</p><pre>{_e(error['stderr_tail'][-3000:])}</pre>")
        if error.get("detail"):
            out.append(f"<pre>{_e(error['detail'][-3000:])}</pre>")
    for failure in result.get("failures", []):
        out.append(f"<p><b>{_e(failure['kind'])}</b>: {_e(failure['message'])}</p>")
        if failure.get("path") is not None:
            out.append(
                f"<p>at <code>{_e(failure['path'] or '/')}</code><br>expected "
                f"<code>{_e(failure.get('expected'))}</code><br>actual "
                f"<code>{_e(failure.get('actual'))}</code></p>"
            )
        if failure.get("diff"):
            out.append(_diff_html(failure["diff"]))
    if result.get("interpretations"):
        out.append(f"<p>interpretations: {_e(', '.join(result['interpretations']))}</p>")
    if result.get("reproduce"):
        out.append(f"<p>reproduce: <code>{_e(result['reproduce'])}</code></p>")
    out.append("</details>")
    return out


# ------------------------------------------------------------------------------ junit

_XML_INVALID = re.compile("[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _x(text: Any) -> str:
    return _XML_INVALID.sub("\ufffd", str(text))


def render_junit(report: Mapping[str, Any]) -> str:
    """JUnit XML: one testsuite per area, one testcase per vector."""
    name, version, _ = _implementation(report)
    by_area: dict[str, list[Mapping[str, Any]]] = {}
    for result in report["results"]:
        by_area.setdefault(result["area"], []).append(result)
    totals = report["footer"]["totals"]
    root = ET.Element(
        "testsuites",
        name=_x(f"phase6-v1 {name} {version}"),
        tests=str(totals["total"]),
        failures=str(totals["failed"] + totals["unexpected_pass"]),
        errors=str(totals["errored"]),
        skipped=str(totals["skipped"] + totals["expected-failure"]),
        time=f"{report['footer'].get('duration_s', 0):.3f}",
    )
    for area, results in sorted(by_area.items()):
        suite = ET.SubElement(root, "testsuite", name=_x(area), tests=str(len(results)))
        counts = {"failures": 0, "errors": 0, "skipped": 0}
        elapsed = 0.0
        for result in results:
            elapsed += result.get("duration_ms", 0) / 1000
            case = ET.SubElement(
                suite,
                "testcase",
                classname=_x(f"phase6.{area}"),
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
                    case, "failure", type=first["kind"], message=_x(first["message"][:500])
                )
                element.text = _x(
                    "\n\n".join(
                        f"{f['kind']}: {f['message']}\n{f.get('diff') or ''}"
                        for f in result["failures"]
                    )
                    + f"\n\nreproduce: {result.get('reproduce')}"
                )
            elif outcome == "errored":
                counts["errors"] += 1
                error = result["error"]
                element = ET.SubElement(
                    case, "error", type=error["kind"], message=_x(error["message"][:500])
                )
                element.text = _x(error.get("detail") or "")
                if error.get("stderr_tail"):
                    ET.SubElement(case, "system-err").text = _x(error["stderr_tail"])
            elif outcome in ("skipped", "expected-failure"):
                counts["skipped"] += 1
                reason = result.get("skip_reason") or (
                    f"expected failure: {result.get('expected_failure_reason')}"
                )
                ET.SubElement(case, "skipped", message=_x(reason))
        for key, value in counts.items():
            suite.set(key, str(value))
        suite.set("time", f"{elapsed:.3f}")
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


# ------------------------------------------------------------------------------ badge


def _text_width(text: str) -> int:
    return int(sum(7.2 if c.isupper() or c in "mw%" else 6.1 for c in text)) + 10


def render_badge(report: Mapping[str, Any]) -> str:
    """A flat SVG badge: ``phase6-v1 | <verdict>``."""
    verdict = report["footer"]["verdict"]["value"]
    totals = report["footer"]["totals"]
    value = verdict
    if verdict == "non-compliant":
        value = f"non-compliant {totals['compliance'] * 100:.1f}%"
    if report["header"]["selection"]["patterns"]:
        value += " (partial)"
    label = "phase6-v1"
    left, right = _text_width(label), _text_width(value)
    colour = _VERDICT_COLOURS.get(verdict, "#616161")
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
