"""report.html explains itself: a glossary by the verdict, clause and interpretation text on
hover with in-page links, the clauses without a tile accounted for, suite strength worded as
the kit's own and kept apart from the verdict, long sections grouped and collapsed."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from harness_corpus import fake_spec, write_corpus

from conformance import Certification, Section, SectionItem, build_report, certify
from conformance.probes import _tools
from conformance.registers import load_clauses
from conformance.report._render import (
    clause_text,
    enable_hint,
    interpretation_text,
    render_html,
    render_markdown,
    verdict_meaning,
    verdict_text,
)
from conformance.run._results import Outcome

#: Six clauses every audit record checks (as the real audit section's 475 rows do).
AUDIT_CLAUSES = ("S3-AUDIT-01", "S3-RET-03", "S3-ASM-02", "S3-ASM-04", "S3-ASM-05", "S3-ASM-06")


def sections() -> dict[str, Section]:
    """A failing probe section, a suite-strength section of 30 killed mutants and one
    survivor, and an audit section of 475 records checking the same clauses."""
    probes = Section(
        "probes",
        "Behavioural probes",
        Outcome.FAILED,
        "3 checks",
        (
            SectionItem("receipt:shape", Outcome.FAILED, ("S6-RCPT-07",), "excerpts <b>leak</b>"),
            SectionItem("clock:timezone", Outcome.PASSED, ("S6-DET-02",)),
            SectionItem(
                "errors:repeat",
                Outcome.FAILED,
                ("S6-ERR-07",),
                "differs",
                level="pinned",
                interpretations=("INT-08",),
            ),
        ),
    )
    killed = [
        SectionItem(f"mutant-{n:02d}", Outcome.PASSED, ("S6-TRUNC-07",), f"mutant {n}")
        for n in range(30)
    ]
    mutants = (*killed, SectionItem("survivor", Outcome.FAILED, ("S6-HASH-01",), "not killed"))
    strength = Section(
        "suite_strength",
        "Suite strength (mutation gallery)",
        Outcome.FAILED,
        "30 of 31 killed",
        mutants,
        affects_verdict=False,
    )
    audit = Section(
        "audit",
        "Capability audit",
        Outcome.PASSED,
        "475 records",
        tuple(SectionItem(f"record-{n}", Outcome.PASSED, AUDIT_CLAUSES) for n in range(475)),
        affects_verdict=False,
        optional=True,
    )
    return {"probes": probes, "suite_strength": strength, "audit": audit}


@pytest.fixture(scope="module")
def certifications(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Certification]:
    """A correct fake and a wrong-hash fake on the synthetic corpus, with the sections above."""
    vectors, table = write_corpus(tmp_path_factory.mktemp("corpus"))
    run = {
        name: certify(fake_spec(name, table), vectors_dir=vectors, jobs=1, sections={})
        for name in ("correct", "wrong_hash")
    }
    return {name: replace(cert, sections=sections()) for name, cert in run.items()}


@pytest.fixture(scope="module")
def pages(certifications: dict[str, Certification]) -> dict[str, str]:
    """report.html of each."""
    return {name: render_html(build_report(cert)) for name, cert in certifications.items()}


def section_html(page: str, name: str) -> str:
    """The part of the page that renders the section ``name`` (up to the next section)."""
    start = page.index(f"({name}:")
    ends = [page.find(tag, start) for tag in ("<h3>", "<h2>", "<summary><h2>")]
    return page[start : min([e for e in ends if e != -1], default=len(page))]


class TestGlossary:
    @pytest.mark.parametrize(
        "term", ["compliant-required-only", "required", "pinned", "section", "signature"]
    )
    def test_terms_defined_by_the_verdict(self, pages: dict[str, str], term: str) -> None:
        """Every word the verdict and the tables use is defined right after the verdict."""
        page = pages["correct"]
        glossary = page[page.index('class="verdict"') : page.index("<table")]
        assert f"<dt>{term}</dt><dd>" in glossary

    def test_verdict_said_once(self, certifications: dict[str, Certification]) -> None:
        """The banner does not repeat the verdict's value before its sentence."""
        report = build_report(certifications["correct"])
        verdict = report["footer"]["verdict"]
        page = render_html(report)
        banner = page[page.index('class="verdict"') :].split("</div>", 1)[0]
        assert f"{verdict['value']} — {verdict['value']}" not in banner
        assert f"<b>{verdict['value']}</b>{verdict['value']}:" not in banner
        assert verdict_text({"value": "compliant", "text": "compliant: all 3 passed"}) == (
            "all 3 passed"
        )
        assert verdict_text({"value": "non-compliant", "text": "2 failed"}) == "2 failed"


class TestClauses:
    def test_tile_shows_the_clause_text(self, pages: dict[str, str]) -> None:
        """A clause tile's tooltip carries the register's summary and the spec's words."""
        clause = next(c for c in load_clauses() if c.id == "S6-TRUNC-07")
        assert clause.summary in clause_text("S6-TRUNC-07")
        page = pages["correct"]
        tiles = re.findall(r'<div class="cell" id="clause-([^"]+)"[^>]* title="([^"]*)"', page)
        assert tiles
        for clause_id, title in tiles:
            assert title.startswith(f"{clause_id} (")

    def test_clauses_without_a_tile_are_accounted_for(self, pages: dict[str, str]) -> None:
        """Every SPEC-006 clause has a tile or a row saying what verifies it instead."""
        page = pages["correct"]
        spec006 = [c for c in load_clauses() if c.spec == "SPEC-006"]
        anchored = set(re.findall(r'id="clause-([A-Z0-9-]+)"', page))
        assert {c.id for c in spec006} <= anchored
        assert "verified by a probe, a property or a test of the kit only" in page

    def test_ids_link_to_their_entry(self, pages: dict[str, str]) -> None:
        """Each clause and interpretation ID a section names links to an anchor on the page."""
        page = pages["correct"]
        targets = set(re.findall(r'href="#([^"]+)"', page))
        assert {"clause-S6-RCPT-07", "int-INT-08"} <= targets
        anchors = set(re.findall(r'id="([^"]+)"', page))
        assert targets <= anchors
        assert interpretation_text("INT-08/verbatim").startswith(
            "INT-08/verbatim: an alternative reading of INT-08 ("
        )


class TestSections:
    def test_suite_strength_is_the_kits_own(self, pages: dict[str, str]) -> None:
        """Mutants are killed or survive, under a heading apart from the verdict's sections."""
        page = pages["correct"]
        assert page.index("Not part of the verdict") < page.index("(suite_strength:")
        assert page.index("Sections of the verdict") < page.index("(probes:")
        strength = section_html(page, "suite_strength")
        assert ">killed<" in strength
        assert ">survived<" in strength
        assert ">passed<" not in strength
        # the survivor shows; the 30 killed mutants are collapsed
        assert strength.index("survivor") < strength.index("<details>")

    def test_audit_rows_grouped_by_clause_set(self, pages: dict[str, str]) -> None:
        """475 records checking the same clauses make one row, its IDs collapsed."""
        audit = section_html(pages["correct"], "audit")
        assert audit.count("<tr>") == 2  # the header and one group
        assert "<summary>475 items</summary>" in audit

    def test_failing_probe_under_what_to_fix_first(self, pages: dict[str, str]) -> None:
        """A failed probe is named in "What to fix first", escaped, not only in the verdict."""
        page = pages["correct"]
        fix = page[page.index("<h2>What to fix first</h2>") :]
        fix = fix[: fix.index("<h2>", 5)]
        assert "receipt:shape" in fix
        assert "excerpts &lt;b&gt;leak&lt;/b&gt;" in fix
        assert "<b>leak</b>" not in page
        assert "survivor" not in fix  # the kit's own strength is not the implementation's

    def test_markdown_names_failing_probes(self, certifications: dict[str, Certification]) -> None:
        """report.md lists the failing probe under "What to fix first", escaped."""
        text = render_markdown(build_report(certifications["wrong_hash"]))
        fix = text[text.index("## What to fix first") :]
        assert "`receipt:shape`" in fix.split("\n## ", 1)[0]
        assert "<b>leak</b>" not in text


class TestSize:
    def test_long_lists_collapsed(self, pages: dict[str, str]) -> None:
        """The page stays small: no section shows more than twenty rows open."""
        for page in pages.values():
            assert len(page) < 400_000
            for name in ("suite_strength", "audit", "probes"):
                part = section_html(page, name)
                opened = part.split("<details>", 1)[0]
                assert opened.count("<tr>") <= 21


def missing_tools(empty: Path) -> list[str]:
    """The skipped-check lines of a machine without faketime, unshare and strace (the real
    tool checks, run uncached with an empty PATH)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PATH", str(empty))
        return [
            f"probes clock:shifted-clock: {_tools.faketime.__wrapped__().reason}",
            f"probes network:no-namespace: {_tools.unshare.__wrapped__().reason}",
            f"probes network:no-sockets: {_tools.strace.__wrapped__().reason}",
            f"probes read-only:no-exec: {_tools.strace.__wrapped__().reason}",
        ]


class TestSkipped:
    def test_hint_installs_the_named_packages(self, tmp_path: Path) -> None:
        """How to enable names the package each reason names, once, in one apt-get line."""
        skipped = missing_tools(tmp_path)
        named = {
            found.group(1)
            for line in skipped
            if (found := re.search(r"\((?:Debian package )?'?([a-z0-9.+-]+)'?\)", line))
        }
        assert named == {"faketime", "util-linux", "strace"}
        hint = enable_hint(skipped)
        found = re.search(r"apt-get install -y ([a-z0-9 .+-]+),", hint)
        assert found, hint
        assert sorted(found.group(1).split()) == sorted(named)
        assert hint.endswith("then certify again")

    def test_refused_tool_is_not_an_install(self) -> None:
        """A tool that is installed but refused here is not enabled by installing it."""
        hint = enable_hint(["probes network:no-sockets: strace cannot trace here (ptrace denied?)"])
        assert "apt-get" not in hint
        assert "installed and permitted" in hint

    def test_first_screen_groups_by_reason(
        self, certifications: dict[str, Certification], tmp_path: Path
    ) -> None:
        """report.html's Skipped row lists the checks skipped for one reason on one line, with
        how to enable them; report.md says both too."""
        skipped = missing_tools(tmp_path)
        report = build_report(certifications["correct"])
        report["footer"]["verdict"]["skipped"] = skipped
        page = render_html(report)
        row = page[page.index('<dd id="skipped"') :].split("</dd>", 1)[0]
        assert "probes network:no-sockets, read-only:no-exec: strace is not installed" in row
        assert row.count("<li>") == 3
        assert "How to enable: as root on Debian or Ubuntu, <code>apt-get install -y" in row
        text = render_markdown(report)
        assert f"How to enable: {enable_hint(skipped)}." in text
        assert f"What it means: {verdict_meaning(report)}" in text


def test_implementation_strings_escaped(certifications: dict[str, Certification]) -> None:
    """A name and version supplied by the implementation are escaped in the new blocks too."""
    cert = certifications["correct"]
    hostile: dict[str, Any] = {
        **cert.adapter,
        "implementation": {"name": "<script>x</script>", "version": '"><img>', "language": "py"},
    }
    page = render_html(build_report(replace(cert, adapter=hostile)))
    assert "<script>x" not in page
    assert "<img>" not in page
