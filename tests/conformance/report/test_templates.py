"""The renderings come from templates that escape by default (issue 23): a value reaches
report.html, report.md and junit.xml escaped for its format without a call site escaping it, and
no template opens an escape hatch the allow-list does not name."""

from __future__ import annotations

import html
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from harness_corpus import fake_spec, write_corpus

from conformance import build_report, certify
from conformance.report import _templates
from conformance.report._render import render_html, render_junit, render_markdown
from conformance.report._templates import (
    SHOWN,
    html_environment,
    markdown_environment,
    printable,
    xml_environment,
    xml_legal,
)

TEMPLATES = Path(_templates.__file__).parent / "templates"
#: Template folders -> the package whose HTML environment loads them (the site's pages come
#: from the report's environment, its macros beside theirs).
FOLDERS = {
    TEMPLATES: "conformance.report",
    TEMPLATES.parents[1] / "site" / "templates": "conformance.site",
}
#: Each ``|safe`` a template may write (template name -> how many), with the reason the value is
#: already safe. None today: fragments are macros (their output is escaped inside them).
SAFE_ALLOWED: dict[str, tuple[int, str]] = {}
#: Ways a Jinja2 template turns escaping off for a value or a block (comments aside).
ESCAPE_HATCHES = re.compile(r"\|\s*safe\b|autoescape\s+false")
COMMENT = re.compile(r"\{#.*?#\}", re.S)

#: What a stranger may put in any string it sends: HTML, an attribute break-out, Markdown
#: images and links, terminal controls, a lone surrogate.
HOSTILE = {
    "script": "<script>alert(1)</script>",
    "img": '<img src=x onerror="alert(2)">',
    "attribute": '" onmouseover="alert(3)',
    "single-quote": "' onfocus='alert(4)",
    "md-link": "[docs](javascript:alert(5))",
    "md-image": "![t](https://tracker.example/p.png)",
    "md-table": "a | b\n| c",
    "control": "a\x1b]0;owned\x07\x1b[2Jb\x00",
    "surrogate": "x\ud800y\udfff",
    "ampersand": "&lt;already&gt;",
}


def _templates_found() -> list[Path]:
    return sorted(p for folder in FOLDERS for p in folder.iterdir() if p.suffix == ".j2")


class TestNoEscapeHatch:
    def test_templates_exist_for_every_format(self) -> None:
        """HTML, Markdown and JUnit each have their template (and nothing else renders them)."""
        names = {path.name for path in _templates_found()}
        assert {"report.html.j2", "report.md.j2", "junit.xml.j2", "badge.svg.j2"} <= names
        assert {"index.html.j2", "history.html.j2"} <= names  # the site's pages

    @pytest.mark.parametrize("path", _templates_found(), ids=lambda path: path.name)
    def test_safe_only_where_allowed(self, path: Path) -> None:
        """A template marks a value safe (``|safe``, ``autoescape false``) only as often as
        the allow-list says, with its reason."""
        source = COMMENT.sub("", path.read_text("utf-8"))
        found = len(ESCAPE_HATCHES.findall(source))
        allowed = SAFE_ALLOWED.get(path.name, (0, ""))[0]
        assert found == allowed, f"{path.name}: {found} escape hatch(es)"

    @pytest.mark.parametrize("path", _templates_found(), ids=lambda path: path.name)
    def test_each_template_has_an_escaping_environment(self, path: Path) -> None:
        """Every template is named for a format whose environment escapes: HTML (and SVG) and
        XML autoescape, Markdown escapes in its finalize."""
        suffix = path.name.removesuffix(".j2").rsplit(".", 1)[-1]
        assert suffix in ("html", "svg", "md", "xml")
        if suffix in ("html", "svg"):
            environment = html_environment(FOLDERS[path.parent])
        else:
            environment = {"md": markdown_environment, "xml": xml_environment}[suffix]()
        assert environment.finalize is not None
        if suffix != "md":
            assert environment.autoescape is True
        environment.get_template(path.name)  # it parses

    def test_style_sheet_is_static(self) -> None:
        """The style sheet the HTML template includes holds no template syntax (it is text)."""
        css = (TEMPLATES / "report.css").read_text("utf-8")
        assert not re.search(r"\{[{%#]", css)
        assert not re.search(r"[<>&\"']", css)


class TestRawValueEndsEscaped:
    """A value handed to a template as it came, with no escaping at the call site."""

    @pytest.mark.parametrize("value", HOSTILE.values(), ids=HOSTILE.keys())
    def test_html(self, value: str) -> None:
        """In text and in an attribute: HTML specials and quotes escaped, controls and lone
        surrogates shown as escapes; unescaped it reads as the printable value."""
        template = html_environment().from_string('<p title="{{ v }}">{{ v }}</p>')
        out = template.render(v=value)
        match = re.fullmatch(r'<p title="([^"<>]*)">([^<>]*)</p>', out)
        assert match is not None, out
        assert html.unescape(match[1]) == html.unescape(match[2]) == printable(value)
        out.encode("utf-8")  # no lone surrogate left

    @pytest.mark.parametrize("value", HOSTILE.values(), ids=HOSTILE.keys())
    def test_markdown(self, value: str) -> None:
        """As prose: no HTML, no image, no link, no table break, one line, printable."""
        out = markdown_environment().from_string("| {{ v }} |").render(v=value)
        assert not re.search(r"[<>\n]|!\[|\]\(|(?<!\\)\|(?! *$)", out.removeprefix("| ")), out
        assert out == f"| {_templates.md_cell(value)} |"
        assert not set(out) & {"\x00", "\x07", "\x1b"}

    @pytest.mark.parametrize("value", HOSTILE.values(), ids=HOSTILE.keys())
    def test_junit(self, value: str) -> None:
        """In an attribute and as text: the document parses and gives back the value, its
        XML-illegal characters shown as escapes."""
        template = xml_environment().from_string('<a b="{{ v }}">{{ v|text }}</a>')
        element = ET.fromstring(template.render(v=value))
        assert element.get("b") == element.text == xml_legal(value)

    def test_macro_output_is_escaped_once(self) -> None:
        """A macro's output (a fragment) is not escaped again by its caller; its values are."""
        template = html_environment().from_string(
            "{% macro bold(v) %}<b>{{ v }}</b>{% endmacro %}{{ bold(v) }}"
        )
        assert template.render(v="<i>") == "<b>&lt;i&gt;</b>"

    def test_long_value_is_cut_with_a_note(self) -> None:
        """A value longer than the shown limit is cut with a note (Markdown prose at 300
        characters unless the template says otherwise)."""
        value = "x" * (SHOWN + 7)
        out = html_environment().from_string("{{ v }}").render(v=value)
        assert out.endswith("x… (7 more characters in report.json)")
        out = markdown_environment().from_string("{{ v }}").render(v=value)
        assert out == "x" * 300 + f"… ({SHOWN + 7 - 300} more characters in report.json)"


def _poisoned(value: Any, key: str = "") -> Any:
    """Every string of a report (but its enumerations and timestamps) with hostile text
    appended, passed to the renderers as it is."""
    if isinstance(value, dict):
        return {k: _poisoned(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [_poisoned(v, key) for v in value]
    if isinstance(value, str) and key not in {"outcome", "level", "status", "kind", "value"}:
        return value + "".join(HOSTILE.values())
    return value


@pytest.fixture(scope="module")
def hostile_report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A failing certification's report, every string of it hostile."""
    vectors, table = write_corpus(tmp_path_factory.mktemp("corpus"))
    spec = fake_spec("wrong_hash", table)
    certification = certify(spec, vectors_dir=vectors, jobs=1, sections={})
    report: dict[str, Any] = _poisoned(json.loads(json.dumps(build_report(certification))))
    return report


class TestHostileReport:
    def test_html_has_no_markup_of_theirs(self, hostile_report: dict[str, Any]) -> None:
        """report.html holds none of the hostile markup, only its escaped text."""
        out = render_html(hostile_report)
        assert "<script" not in out
        assert "<img" not in out
        assert 'onmouseover="' not in out
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in out
        assert not set(out) & {"\x00", "\x07", "\x1b"}
        out.encode("utf-8")

    def test_markdown_has_no_markup_outside_code(self, hostile_report: dict[str, Any]) -> None:
        """report.md: outside code spans and fences (shown literally), no HTML, image or link."""
        out = render_markdown(hostile_report)
        prose = re.sub(r"^(`{3,}).*?^\1", "", out, flags=re.M | re.S)
        prose = re.sub(r"(`+).*?\1", "", prose)
        assert "&lt;script&gt;" in prose
        assert not re.search(r"<script|<img|!\[|\]\(", prose)
        assert not set(out) & {"\x00", "\x07", "\x1b"}
        out.encode("utf-8")

    def test_junit_parses_and_keeps_the_text(self, hostile_report: dict[str, Any]) -> None:
        """junit.xml parses; the hostile name is an attribute value, legal and whole."""
        out = render_junit(hostile_report)
        root = ET.fromstring(out)
        assert "<script>alert(1)</script>" in (root.get("name") or "")
        assert "<script" not in out
        assert "\\x1b" in out
