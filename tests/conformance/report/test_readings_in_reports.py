"""The reading profile in every rendering: a stranger following INT-27's alternative, certified
on the budget vectors, is shown as following it in report.json, report.md, report.html and the
JUnit verdict, each signature saying which reading reproduces it."""

from __future__ import annotations

import shlex
import sys
import xml.etree.ElementTree as ET
from typing import Any

import pytest
from paths import FAKES

from conformance import build_report, certify
from conformance.report._render import render_html, render_junit, render_markdown
from conformance.report._report import validate_report

ALTERNATIVE = "INT-27/budget-exhausted"


@pytest.fixture(scope="module")
def report() -> dict[str, Any]:
    """The report of the int27 stranger on the budget area, no sections."""
    spec = "cmd:" + shlex.join([sys.executable, str(FAKES / "stranger.py"), "int27"])
    certification = certify(spec, select=["area:budget"], sections={}, jobs=1)
    built: dict[str, Any] = build_report(certification)
    return built


class TestReadingsInReports:
    def test_json_keeps_the_evidence(self, report: dict[str, Any]) -> None:
        """footer.attribution names the alternative and the failures it explains; it validates."""
        validate_report(report)
        attribution = report["footer"]["attribution"]
        assert attribution["profile"] == [ALTERNATIVE]
        assert attribution["unexplained"] == []
        assert attribution["counts"][ALTERNATIVE] == len(attribution["explained"]) > 0
        assert all(s["reading"] == [ALTERNATIVE] for s in report["failure_signatures"])

    def test_markdown_and_html_show_the_profile(self, report: dict[str, Any]) -> None:
        """report.md and report.html have a reading profile and say the signature is a reading."""
        markdown, html = render_markdown(report), render_html(report)
        for text in (markdown, html):
            assert "Reading profile" in text
            assert f"reproduced by the reference under {ALTERNATIVE}" in text

    def test_junit_verdict_lists_what_to_fix_first(self, report: dict[str, Any]) -> None:
        """The JUnit verdict testcase (skipped: this run is partial) carries what to fix first
        and the reading profile."""
        root = ET.fromstring(render_junit(report))
        verdict = root.find(".//testcase[@name='certification']/skipped")
        assert verdict is not None
        assert verdict.text is not None
        assert "What to fix first:" in verdict.text
        assert f"{ALTERNATIVE}: reproduces" in verdict.text
