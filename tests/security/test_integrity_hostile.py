"""The harness trusting what an adapter controls (issue 22, high and medium): the report it
writes, the replies it parses, the runs it stamps, the failures it counts, the directories it
writes and the memory it keeps. Each test is one attack that must be held."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hostile_support import certify_fake, synthetic, written

from conformance.report import render_compare_markdown
from conformance.report._render import _code, _md_cell

#: What a Markdown renderer would turn into live HTML or a loaded image.
_LIVE_MARKUP = ("<script", "<img", "![t]")


@pytest.fixture
def paths(tmp_path: Path) -> tuple[Path, Path]:
    """(vectors, table) of the synthetic corpus."""
    return synthetic(tmp_path / "corpus")


class TestMarkdownShowsNoMarkup:
    """report.md carried the handshake's name, version and language raw: ``<script>`` and
    ``<img onerror>`` were HTML to any Markdown renderer (a pull-request comment)."""

    def test_handshake_html_is_escaped_in_report_md(
        self, paths: tuple[Path, Path], tmp_path: Path
    ) -> None:
        """Every handshake field holding HTML comes out of report.md as entities, shown and
        never rendered; report.json keeps the text whole."""
        result = certify_fake(paths, "html_name")
        document = written(result, tmp_path / "report")
        markdown = (tmp_path / "report" / "report.md").read_text("utf-8")
        for markup in _LIVE_MARKUP:
            assert markup not in markdown
        assert "fake&lt;script&gt;alert(1)&lt;/script&gt;" in markdown
        assert "1&lt;img src=x onerror=\"alert(2)\"&gt;" in markdown
        assert "py!\\[t](https://tracker.example/p.png)" in markdown
        assert document["header"]["adapter"]["implementation"]["name"].endswith("</script>")

    def test_compare_markdown_is_escaped_too(
        self, paths: tuple[Path, Path], tmp_path: Path
    ) -> None:
        """The comparison table's column titles and language row are escaped the same way."""
        report: dict[str, Any] = written(certify_fake(paths, "html_name"), tmp_path / "report")
        markdown = render_compare_markdown([report, json.loads(json.dumps(report))])
        for markup in _LIVE_MARKUP:
            assert markup not in markdown
        assert "&lt;script&gt;" in markdown

    def test_code_spans_stay_literal(self) -> None:
        """Text the report shows in a code span is not entity-escaped (a code span shows HTML
        as text already, and would show ``&lt;`` literally)."""
        assert _code("<b>&") == "`<b>&`"
        assert _md_cell("<b>&|") == "&lt;b&gt;&amp;\\|"
