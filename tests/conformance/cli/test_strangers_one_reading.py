"""Certifying strangers (tests/fakes/stranger.py): implementations written by someone else.

- Five differ from the kit on exactly one pinned reading each: every one is certified
  ``compliant-required-only`` naming that interpretation and nothing else, in the vectors, the
  properties and the probes alike.
- One demands SPEC-005's extra record fields: its failures come out as one top signature,
  first in the console, report.md and report.html; the console lists a handful of failures.

The strangers following executable alternatives with evidence, declared readings and plain
bugs are in ``test_strangers.py`` (a file of its own, so the slow suite's workers share the
certifications out), and so are the triage of the tag-bonus bug (one signature) and its
reproduce command, which read that file's one certification of it.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from strangers import certify, certify_all, phase6, stranger

#: stranger variant -> the one alternative reading it follows (reference/_readings.py)
ONE_READING = {
    "int41": "INT-41/written-integer",
    "int39": "INT-39/both-keys",
    "int38": "INT-38/ignore-missing",
    "int20": "INT-20/case-and-minus-zero",
    "int28": "INT-28/by-reason",
}


@pytest.fixture(scope="module")
def one_reading(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[int, str, Path]]:
    """Every one-reading stranger certified (vectors, properties, probes), all at once:
    variant -> (exit code, stdout, report directory)."""
    running = {}
    for variant in ONE_READING:
        report_dir = tmp_path_factory.mktemp(variant)
        argv = [
            sys.executable, "-m", "conformance", "certify", "--adapter", stranger(variant),
            "--report-dir", str(report_dir), "-q", "-j", "1",
            "--section-option", "examples=100",
        ]  # fmt: skip
        running[variant] = (argv, report_dir)
    return certify_all(running)


@pytest.mark.slow  # a whole certification (vectors, properties, probes) per stranger
class TestOneReading:
    @pytest.mark.parametrize("variant", list(ONE_READING))
    def test_compliant_required_only_naming_its_interpretation(
        self, variant: str, one_reading: dict[str, tuple[int, str, Path]]
    ) -> None:
        """An implementation that reads one ambiguous clause differently is compliant on
        required and follows that alternative, reproduced by the reference, and nothing else:
        no required vector, property or probe fails."""
        interpretation = ONE_READING[variant]
        code, out, report_dir = one_reading[variant]
        report = json.loads((report_dir / "report.json").read_text("utf-8"))
        verdict = report["footer"]["verdict"]
        assert verdict["value"] == "compliant-required-only", out
        assert verdict["differs_on"] == [interpretation], out
        assert verdict["partial"] == []
        assert f"follows {interpretation}" in out
        assert code == 4  # compliant-required-only: neither 0 (compliant) nor 1 (a bug)
        required = report["footer"]["by_level"]["required"]
        assert required["passed"] == required["total"]
        for name in ("properties", "probes"):
            for item in report["sections"][name]["items"]:
                if item["outcome"] != "passed":
                    assert item["outcome"] == "failed", item
                    assert item["level"] == "pinned", item
                    assert item["interpretations"] in (
                        [interpretation],
                        [interpretation.split("/")[0]],  # a probe names its entry
                    ), item


@pytest.mark.slow  # every vector through a subprocess stranger; the scoring vectors twice
class TestTriage:
    def test_extra_fields_come_out_as_one_top_signature(self, tmp_path: Path) -> None:
        """A stranger demanding type/source/hash fails almost every vector for that one reason:
        one signature covers most of them, first in the console, report.md and report.html."""
        code, out, report = certify("spec005", tmp_path, "--no-sections")
        assert code == 1
        bad = report["footer"]["totals"]["failed"] + report["footer"]["totals"]["errored"]
        top = report["failure_signatures"][0]
        assert top["count"] >= 0.9 * bad
        assert top["signature"] == (
            "errored internal-error: implementation reported an internal error: KeyError: <q>"
        )
        assert top["by_level"]["required"] > 0
        listing = out.split("what to fix first:", 1)[1]
        assert listing.splitlines()[1].startswith(f"  1. {top['count']} vector(s)")
        assert len([line for line in out.splitlines() if line.startswith("ERROR ")]) == 0  # -q
        markdown = (tmp_path / "report.md").read_text()
        assert markdown.index("## What to fix first") < markdown.index("| |")
        assert f"1. **{top['count']} vector(s)**" in markdown
        html = (tmp_path / "report.html").read_text()
        assert html.index("<h2>What to fix first</h2>") < html.index('<table class="meta">')

    def test_console_lists_a_handful_and_the_rest_on_request(self) -> None:
        """Without -q the progress lists at most five failures; -v lists them all (the scoring
        vectors: dozens of failures, a fraction of the corpus's run time)."""
        scoring = ["--select", "area:scoring", "--no-sections", "--no-report"]
        done = phase6("certify", "--adapter", stranger("tagbonus"), *scoring)
        listed = [line for line in done.stderr.splitlines() if line.startswith("FAIL ")]
        assert len(listed) == 5
        assert "further vectors that do not pass are not listed" in done.stderr
        verbose = phase6("certify", "--adapter", stranger("tagbonus"), *scoring, "-v")
        assert len([x for x in verbose.stderr.splitlines() if x.startswith("FAIL ")]) > 5
