"""Reports: report.json against its schema, and every rendering of it."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from harness_corpus import fake_spec, write_corpus

from conformance import (
    Certification,
    ReportError,
    Section,
    SectionContext,
    SectionItem,
    build_report,
    certify,
    load_report,
    write_report,
)
from conformance.report._compare import (
    compare_reports,
    render_compare_html,
    render_compare_markdown,
)
from conformance.report._render import render_badge, render_html, render_junit, render_markdown
from conformance.report._report import results_of, validate_report
from conformance.run._results import Outcome


def probes_section(context: SectionContext) -> Section:
    """A stand-in section provider, as the probes will register one."""
    return Section(
        name="probes",
        title="Behavioural probes",
        status=Outcome.FAILED,
        summary=f"{len(context.results)} vectors seen",
        items=(
            SectionItem("clock", Outcome.PASSED, ("S6-DET-02",)),
            SectionItem("read-only", Outcome.FAILED, ("S6-SEC-01",), "store reopened for append"),
        ),
        data={"seed": 0},
    )


def as_published(certification: Certification) -> Certification:
    """The same run, as if it were of the published corpus with every expected section run."""
    return replace(
        certification, published_corpus=True, expected_sections=tuple(certification.sections)
    )


def broken_provider(context: SectionContext) -> Section:
    """A provider that raises."""
    raise RuntimeError("provider bug")


@pytest.fixture(scope="module")
def certifications(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Certification]:
    """One certification of a correct fake and one of a wrong-hash fake with a failing section."""
    vectors, table = write_corpus(tmp_path_factory.mktemp("corpus"))
    expected = tmp_path_factory.mktemp("xf") / "expected.txt"
    expected.write_text("beta-0-trigger  # known hash bug\nghost-vector  # removed long ago\n")
    return {
        "correct": certify(fake_spec("correct", table), vectors_dir=vectors, jobs=1, sections={}),
        "wrong": certify(
            fake_spec("wrong_hash", table),
            vectors_dir=vectors,
            jobs=1,
            expected_failures=expected,
            sections={
                "probes": f"{__name__}:probes_section",
                "broken": f"{__name__}:broken_provider",
            },
        ),
        "broken": certify(fake_spec("crash_on_start", table), vectors_dir=vectors, jobs=1),
    }


@pytest.fixture(scope="module")
def reports(certifications: dict[str, Certification]) -> dict[str, dict[str, Any]]:
    """The report documents."""
    return {name: build_report(cert) for name, cert in certifications.items()}


class TestReportJson:
    @pytest.mark.parametrize("name", ["correct", "wrong", "broken"])
    def test_reports_validate(self, reports: dict[str, dict[str, Any]], name: str) -> None:
        """Every report validates against specs/schemas/report.schema.json."""
        validate_report(reports[name])

    def test_header_and_footer(self, reports: dict[str, dict[str, Any]]) -> None:
        """The header names kit, corpus and adapter; the footer holds totals and the verdict."""
        report = reports["correct"]
        assert report["header"]["kit"]["version"]
        assert report["header"]["corpus"]["digest"].startswith("sha256:")
        assert report["header"]["adapter"]["implementation"]["name"] == "fake"
        assert report["header"]["started"].endswith("Z")
        assert report["footer"]["verdict"]["value"] == "compliant"
        assert report["footer"]["totals"]["passed"] == 4
        assert report["footer"]["by_clause"]["S6-OUT-01"]["passed"] == 2

    def test_failures_sections_and_lists(self, reports: dict[str, dict[str, Any]]) -> None:
        """Failures carry path and diff; sections and the expected-failure list are reported."""
        report = reports["wrong"]
        by_id = {r["id"]: r for r in report["results"]}
        assert by_id["alpha-one"]["failures"][0]["path"] == "/package/package_hash"
        assert by_id["beta-0-trigger"]["outcome"] == "expected-failure"
        assert report["sections"]["probes"]["status"] == "failed"
        assert report["sections"]["broken"]["status"] == "errored"
        assert "provider bug" in report["sections"]["broken"]["summary"]
        assert report["footer"]["stale_expected_failures"][0]["entry"] == "ghost-vector"
        assert report["footer"]["verdict"]["value"] == "non-compliant"
        assert any("probes" in r for r in report["footer"]["verdict"]["reasons"])

    def test_truncated_report_is_refused(self, reports: dict[str, dict[str, Any]]) -> None:
        """A report without its footer does not validate."""
        truncated = {k: v for k, v in reports["correct"].items() if k != "footer"}
        with pytest.raises(ReportError, match="footer"):
            validate_report(truncated)

    def test_unknown_section_shape_is_refused(self, reports: dict[str, dict[str, Any]]) -> None:
        """Sections are open by name but not by shape."""
        report = json.loads(json.dumps(reports["correct"]))
        report["sections"]["suite_strength"] = {"title": "x", "status": "great"}
        with pytest.raises(ReportError):
            validate_report(report)

    def test_write_and_reload(
        self, certifications: dict[str, Certification], tmp_path: Path
    ) -> None:
        """write_report writes all five files; results round-trip through report.json."""
        written = write_report(certifications["wrong"], tmp_path / "r")
        assert sorted(written) == [
            "badge.svg",
            "junit.xml",
            "report.html",
            "report.json",
            "report.md",
        ]
        report = load_report(tmp_path / "r")

        def timeless(results: Any) -> list[Any]:
            return [replace(r, duration_s=0.0) for r in results]

        assert timeless(results_of(report)) == timeless(certifications["wrong"].results)

    def test_default_directory_is_named_after_the_implementation(
        self, certifications: dict[str, Certification], tmp_path: Path, monkeypatch: Any
    ) -> None:
        """Without --report-dir the report goes to reports/<implementation>/."""
        monkeypatch.chdir(tmp_path)
        written = write_report(certifications["broken"])
        assert written["report.json"].parent == Path("reports/crash_on_start")


class TestRenderings:
    def test_markdown(
        self, reports: dict[str, dict[str, Any]], certifications: dict[str, Certification]
    ) -> None:
        """Markdown shows the verdict, failures with their diff and reproduce command, sections."""
        text = render_markdown(build_report(as_published(certifications["wrong"])))
        assert "**Verdict: `non-compliant`**" in text
        assert "/package/package_hash" in text
        assert "```diff" in text
        assert "Reproduce: `python -m conformance rerun --adapter" in text
        assert "Behavioural probes" in text
        assert "stale entry" in text

    def test_markdown_of_a_partial_run(self, reports: dict[str, dict[str, Any]]) -> None:
        """A partial run says so before anything else, and gives no verdict."""
        text = render_markdown(reports["wrong"])
        assert "**Partial run, no verdict** (not the published corpus" in text
        assert "**Verdict:" not in text

    def test_html_is_self_contained(self, reports: dict[str, dict[str, Any]]) -> None:
        """One page, inline CSS, no external assets, every value escaped."""
        text = render_html(reports["wrong"])
        assert text.startswith("<!DOCTYPE html>")
        assert "<style>" in text
        assert not re.search(r"<(script|link|img)\b|url\(|src=", text)
        assert "Clause matrix" in text
        assert "S6-OUT-01" in text
        assert "<details>" in text
        ET.fromstring(render_badge(reports["wrong"]))

    def test_junit(self, reports: dict[str, dict[str, Any]]) -> None:
        """JUnit: a suite per area, one per section (a testcase per item), and the verdict;
        failures, errors and skips counted."""
        root = ET.fromstring(render_junit(reports["wrong"]).split("\n", 1)[1])
        assert root.tag == "testsuites"
        assert root.get("tests") == str(4 + 2 + 1 + 1)
        suites = {s.get("name"): s for s in root}
        assert set(suites) == {
            "alpha",
            "beta",
            "section.probes",
            "section.broken",
            "phase6.verdict",
        }
        assert suites["alpha"].get("failures") == "2"
        assert suites["beta"].get("skipped") == "1"
        probes = {case.get("name"): case for case in suites["section.probes"]}
        assert probes["read-only"].find("failure") is not None
        assert probes["clock"].find("failure") is None
        assert suites["section.broken"].get("errors") == "1"
        verdict = suites["phase6.verdict"][0]
        assert verdict.find("skipped") is not None  # a partial run has no verdict
        broken = ET.fromstring(render_junit(reports["broken"]).split("\n", 1)[1])
        assert broken.get("errors") == "4"

    @pytest.mark.parametrize(
        ("name", "text"),
        [("correct", "compliant"), ("wrong", "non-compliant 25.0%"), ("broken", "adapter-broken")],
    )
    def test_badge(self, certifications: dict[str, Certification], name: str, text: str) -> None:
        """The badge of a certification says the verdict (with the pass rate when
        non-compliant)."""
        svg = render_badge(build_report(as_published(certifications[name])))
        assert f"phase6-v1: {text}" in svg
        ET.fromstring(svg)

    @pytest.mark.parametrize("name", ["correct", "wrong", "broken"])
    def test_badge_of_a_partial_run(self, reports: dict[str, dict[str, Any]], name: str) -> None:
        """A partial run's badge never shows a verdict."""
        svg = render_badge(reports[name])
        assert "phase6-v1: partial: " in svg
        assert "compliant" not in svg

    def test_informational_section_failures_are_skipped_in_junit(
        self, certifications: dict[str, Certification]
    ) -> None:
        """A failed item of a section that does not affect the verdict (suite strength) is a
        skipped testcase: it speaks of the kit, and must not turn an implementer's CI red."""
        section = Section(
            "suite_strength",
            "Suite strength",
            Outcome.FAILED,
            "1 survivor",
            (SectionItem("mutant-x", Outcome.FAILED, ("S6-OUT-01",), "survived"),),
            affects_verdict=False,
        )
        report = build_report(replace(certifications["correct"], sections={"s": section}))
        root = ET.fromstring(render_junit(report).split("\n", 1)[1])
        suite = next(s for s in root if s.get("name") == "section.s")
        assert suite.get("failures") == "0"
        assert suite.get("skipped") == "1"
        assert "does not affect the verdict: survived" in suite[0][0].get("message", "")

    def test_stderr_control_characters_are_safe_in_xml(
        self, reports: dict[str, dict[str, Any]]
    ) -> None:
        """Control characters from an adapter's stderr cannot break junit.xml."""
        report = json.loads(json.dumps(reports["broken"]))
        report["results"][0]["error"]["stderr_tail"] = "\x1b[31mred\x00\x07"
        ET.fromstring(render_junit(report).split("\n", 1)[1])


class TestCompare:
    def test_side_by_side(self, reports: dict[str, dict[str, Any]]) -> None:
        """compare lists verdicts, areas and only the vectors whose outcomes differ."""
        table = compare_reports([reports["correct"], reports["wrong"]])
        assert table.columns == ("fake 0.0.1", "fake 0.0.1")
        assert dict(table.summary)["verdict"] == ("compliant", "non-compliant")
        assert [row[0] for row in table.vectors] == ["alpha-one", "alpha-pinned", "beta-0-trigger"]
        markdown = render_compare_markdown([reports["correct"], reports["wrong"]])
        assert "| `alpha-one` | pass | FAIL |" in markdown
        html = render_compare_html([reports["correct"], reports["wrong"]], all_vectors=True)
        assert "beta-error" in html

    def test_outcomes_survive(self, certifications: dict[str, Certification]) -> None:
        """Outcomes in the report are the certification's outcomes."""
        outcomes = {r.outcome for r in certifications["wrong"].results}
        assert outcomes == {Outcome.FAILED, Outcome.PASSED, Outcome.EXPECTED_FAILURE}
