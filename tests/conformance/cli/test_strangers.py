"""Certifying strangers (tests/fakes/stranger.py): implementations written by someone else.

- Five differ from the kit on exactly one pinned reading each: every one is certified
  ``compliant-required-only`` naming that interpretation and nothing else, in the vectors, the
  properties and the probes alike.
- One demands SPEC-005's extra record fields, one gets one score term wrong: each failure
  comes out as one top signature, first in the console, report.md and report.html.
- A report's reproduce command reruns one vector in seconds and leaves the report intact.
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from paths import FAKES, REPO


def stranger(variant: str, *declared: str) -> str:
    """The cmd: adapter of a variant of tests/fakes/stranger.py (declaring ``declared``)."""
    return "cmd:" + shlex.join([sys.executable, str(FAKES / "stranger.py"), variant, *declared])


def phase6(*argv: str) -> subprocess.CompletedProcess[str]:
    """``python -m conformance ...`` from the checkout; the completed process."""
    return subprocess.run(
        [sys.executable, "-m", "conformance", *argv],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )


def certify(variant: str, report_dir: Path, *extra: str) -> tuple[int, str, dict[str, Any]]:
    """Certify a stranger; (exit code, stdout, report.json)."""
    done = phase6(
        "certify", "--adapter", stranger(variant), "--report-dir", str(report_dir), "-q", *extra
    )
    report = json.loads((report_dir / "report.json").read_text("utf-8"))
    return done.returncode, done.stdout, report


def _certify_all(
    runs: dict[str, tuple[list[str], Path]], parallel: int = 2
) -> dict[str, tuple[int, str, Path]]:
    """Run the certifications ``runs`` (label -> argv, report directory), ``parallel`` at a
    time (one per core: more would make timing-sensitive probes fail for load, not for the
    implementation); label -> (exit code, stdout, report directory)."""
    done: dict[str, tuple[int, str, Path]] = {}
    waiting = list(runs.items())
    running: dict[str, tuple[subprocess.Popen[str], Path]] = {}
    while waiting or running:
        while waiting and len(running) < parallel:
            label, (argv, report_dir) = waiting.pop(0)
            running[label] = (
                subprocess.Popen(
                    argv, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
                ),
                report_dir,
            )
        label = next(iter(running))
        process, report_dir = running.pop(label)
        out, _ = process.communicate(timeout=1800)
        done[label] = (process.returncode, out, report_dir)
    return done


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
    return _certify_all(running)


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


#: stranger variant -> the executable alternatives that reproduce its failures
WITH_EVIDENCE = {
    "int27": ["INT-27/budget-exhausted"],
    "int08": ["INT-08/verbatim"],
    "int07": ["INT-07/utf-16-units"],
    "int04": ["INT-04/platform-pow"],
    "int05py": ["INT-05/python"],
    "int05js": ["INT-05/ecmascript"],
    "int36now": ["INT-36/ignore-invalid-now"],
    "int36half": ["INT-36/half-life-when-enabled"],
    "int08int27": ["INT-08/verbatim", "INT-27/budget-exhausted"],
    "combo3": ["INT-08/verbatim", "INT-27/budget-exhausted", "INT-41/written-integer"],
}
#: plain bugs: no listed reading reproduces any of their failures
BUGS = ("round2", "excerpt1", "tagbonus")


#: run label -> (stranger argv, extra certify options): the runs the evidence tests read
EVIDENCE_RUNS: dict[str, tuple[list[str], list[str]]] = {
    **{variant: ([variant], []) for variant in WITH_EVIDENCE},
    **{bug: ([bug], []) for bug in BUGS},
    "round2-partial": (["round2"], ["--select", "area:scoring"]),
    "excerpt1-full": (["excerpt1"], ["--sections"]),
    "int27some": (["int27some"], []),
    "int27-declared": (["int27", "INT-27/budget-exhausted"], []),
    "pinned-declares-int27": (["pinned", "INT-27/budget-exhausted"], []),
    "int08int27-declares-int08": (["int08int27"], ["--readings", "{int08}"]),
    # parameterized readings: the value read from the outputs (a few areas: CI time)
    "first3": (["first3"], ["--select", "area:budget"]),
    "bonus6": (["bonus6"], ["--select", "area:scoring"]),
}


@pytest.fixture(scope="module")
def with_evidence(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[int, str, Path]]:
    """The strangers following executable alternatives (declared or not), following one in
    part, and the rounding bug, certified on the vectors (no sections): label -> (exit code,
    stdout, report directory)."""
    declared = tmp_path_factory.mktemp("declared") / "readings.txt"
    declared.write_text("# what int08int27 says it follows\nINT-08/verbatim\n", "utf-8")
    running = {}
    for label, (variant, extra) in EVIDENCE_RUNS.items():
        report_dir = tmp_path_factory.mktemp(label)
        options = [option.format(int08=declared) for option in extra]
        sections = (
            ["--section-option", "examples=100"] if "--sections" in options else ["--no-sections"]
        )
        options = [option for option in options if option != "--sections"]
        argv = [
            sys.executable, "-m", "conformance", "certify", "--adapter", stranger(*variant),
            "--report-dir", str(report_dir), "-q", "-j", "1", *sections, *options,
        ]  # fmt: skip
        running[label] = (argv, report_dir)
    return _certify_all(running)


def _footer(run: tuple[int, str, Path]) -> dict[str, Any]:
    footer: dict[str, Any] = json.loads((run[2] / "report.json").read_text("utf-8"))["footer"]
    return footer


@pytest.mark.slow  # the whole corpus through a subprocess stranger, then the attribution
class TestReadingsWithEvidence:
    @pytest.mark.parametrize("variant", list(WITH_EVIDENCE))
    def test_the_reproducing_alternatives_are_named(
        self, variant: str, with_evidence: dict[str, tuple[int, str, Path]]
    ) -> None:
        """A stranger following executable alternatives (alone or combined) has every failure
        reproduced by the reference under exactly those alternatives, which the verdict names."""
        _, out, report_dir = with_evidence[variant]
        report = json.loads((report_dir / "report.json").read_text("utf-8"))
        attribution = report["footer"]["attribution"]
        assert attribution["profile"] == WITH_EVIDENCE[variant], out
        assert attribution["unexplained"] == [], out
        assert attribution["faults"] == []
        verdict = report["footer"]["verdict"]
        assert verdict["value"] == "compliant-required-only", out
        assert verdict["differs_on"] == WITH_EVIDENCE[variant], out
        assert f"follows {', '.join(WITH_EVIDENCE[variant])}" in out

    @pytest.mark.parametrize("label", [*BUGS, "round2-partial", "excerpt1-full"])
    def test_a_bug_is_reproduced_by_no_reading(
        self, label: str, with_evidence: dict[str, tuple[int, str, Path]]
    ) -> None:
        """Scores rounded to 2 decimals, an excerpt cut one character short, a wrong tag
        bonus: no listed reading reproduces a failure; the run is non-compliant (exit 1), not a
        difference of reading, in a full certification and in a partial one, and the bug is the
        first signature of what to fix first, said to be explained by no listed reading."""
        code, out, report_dir = with_evidence[label]
        report = json.loads((report_dir / "report.json").read_text("utf-8"))
        attribution = report["footer"]["attribution"]
        assert attribution["profile"] == []
        assert attribution["explained"] == {}
        assert len(attribution["unexplained"]) == report["footer"]["totals"]["failed"] > 0
        assert report["footer"]["verdict"]["value"] == "non-compliant", out
        assert code == 1
        assert "no listed reading explains this" in out.split("what to fix first", 1)[1]
        assert report["failure_signatures"][0]["reading"] == []

    def test_a_declared_reading_it_follows(
        self, with_evidence: dict[str, tuple[int, str, Path]]
    ) -> None:
        """Declaring in the handshake the reading it follows: certified under it, exit 4."""
        code, out, _ = with_evidence["int27-declared"]
        footer = _footer(with_evidence["int27-declared"])
        assert footer["attribution"]["declared"] == ["INT-27/budget-exhausted"]
        assert footer["attribution"]["contradictions"] == []
        assert footer["verdict"]["value"] == "compliant-required-only", out
        assert code == 4

    def test_a_declared_reading_it_does_not_follow(
        self, with_evidence: dict[str, tuple[int, str, Path]]
    ) -> None:
        """The pinned reference declaring INT-27's alternative contradicts its declaration on
        every vector that alternative changes: non-compliant, and the report says where."""
        code, out, _ = with_evidence["pinned-declares-int27"]
        footer = _footer(with_evidence["pinned-declares-int27"])
        assert footer["attribution"]["inconsistent"]["INT-27/budget-exhausted"]
        assert any("although it declares it" in c for c in footer["attribution"]["contradictions"])
        assert footer["verdict"]["value"] == "non-compliant", out
        assert code == 1

    def test_an_undeclared_reading_contradicts_the_declaration(
        self, with_evidence: dict[str, tuple[int, str, Path]]
    ) -> None:
        """Declaring (with --readings FILE) only INT-08's alternative while also following
        INT-27's: the INT-27 failures are a contradiction of the declaration, not a reading."""
        code, out, _ = with_evidence["int08int27-declares-int08"]
        attribution = _footer(with_evidence["int08int27-declares-int08"])["attribution"]
        assert attribution["declared"] == ["INT-08/verbatim"]
        assert attribution["profile"] == ["INT-08/verbatim"]
        assert any(
            c.startswith("follows INT-27/budget-exhausted") for c in attribution["contradictions"]
        )
        assert code == 1, out

    def test_a_reading_followed_in_part(
        self, with_evidence: dict[str, tuple[int, str, Path]]
    ) -> None:
        """INT-27's alternative followed only when max_items is 1: the vectors it answers
        the pinned way make it inconsistent, non-compliant (no listed reading is that)."""
        code, out, _ = with_evidence["int27some"]
        attribution = _footer(with_evidence["int27some"])["attribution"]
        assert attribution["profile"] == ["INT-27/budget-exhausted"]
        assert attribution["inconsistent"]["INT-27/budget-exhausted"]
        assert code == 1, out


@pytest.mark.slow  # a subprocess stranger over a few areas, then the attribution
class TestParameterizedReadings:
    def test_first_three_drops_is_a_reading_with_its_value(
        self, with_evidence: dict[str, tuple[int, str, Path]]
    ) -> None:
        """Listing only the first three drops: every failure reproduced by the reference under
        INT-28/list-first-n-drops with n = 3 read from the outputs, and nothing else; compliant
        on required, following that reading with its value."""
        code, out, _ = with_evidence["first3"]
        footer = _footer(with_evidence["first3"])
        reading = "INT-28/list-first-n-drops(n=3)"
        assert footer["attribution"]["profile"] == [reading], out
        assert footer["attribution"]["unexplained"] == []
        assert footer["attribution"]["contradictions"] == []
        assert footer["verdict"]["differs_on"] == [reading], out
        assert f"follows {reading}" in out
        assert code == 4

    def test_a_rounded_bonus_is_named_with_its_decimals(
        self, with_evidence: dict[str, tuple[int, str, Path]]
    ) -> None:
        """Rounding recency_bonus to 6 decimals: reproduced under the rejected reading with
        decimals = 6, which the verdict and the top signature name; non-compliant (S6-SCORE-17)."""
        code, out, report_dir = with_evidence["bonus6"]
        report = json.loads((report_dir / "report.json").read_text("utf-8"))
        reading = "INT-04/round-recency-bonus-fixed(decimals=6)"
        assert report["footer"]["attribution"]["profile"] == [reading], out
        assert report["footer"]["attribution"]["unexplained"] == []
        assert report["footer"]["verdict"]["value"] == "non-compliant", out
        assert report["failure_signatures"][0]["rejected"] == [reading]
        assert f"follows {reading}, a reading the register rejects" in out
        assert "S6-SCORE-17" in out
        assert code == 1


@pytest.mark.slow  # every vector through a subprocess stranger, twice
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

    def test_one_wrong_term_is_one_signature(self, tmp_path: Path) -> None:
        """tag_bonus = overlap * 0.25: every failure has the one signature of the score."""
        code, _, report = certify("tagbonus", tmp_path, "--no-sections")
        assert code == 1
        (signature,) = report["failure_signatures"]
        assert signature["signature"] == "mismatch /package/selection/selected/*/score: value"
        assert signature["count"] == report["footer"]["totals"]["failed"]

    def test_console_lists_a_handful_and_the_rest_on_request(self, tmp_path: Path) -> None:
        """Without -q the progress lists at most five failures; -v lists them all."""
        done = phase6(
            "certify", "--adapter", stranger("tagbonus"), "--no-sections", "--no-report",
        )  # fmt: skip
        listed = [line for line in done.stderr.splitlines() if line.startswith("FAIL ")]
        assert len(listed) == 5
        assert "further vectors that do not pass are not listed" in done.stderr
        verbose = phase6(
            "certify", "--adapter", stranger("tagbonus"), "--no-sections", "--no-report", "-v",
        )  # fmt: skip
        assert len([x for x in verbose.stderr.splitlines() if x.startswith("FAIL ")]) > 5

    def test_reproduce_command_is_fast_and_writes_nothing(self, tmp_path: Path) -> None:
        """The reproduce command of a signature reruns its one vector in seconds, with no
        section, and leaves the report it came from untouched."""
        _, _, report = certify("tagbonus", tmp_path, "--no-sections")
        before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
        command = shlex.split(report["failure_signatures"][0]["reproduce"])
        assert command[:4] == ["python", "-m", "conformance", "rerun"]
        started = time.monotonic()
        done = phase6(*command[3:])
        elapsed = time.monotonic() - started
        assert done.returncode == 1, done.stdout + done.stderr
        assert "signature: mismatch /package/selection/selected/*/score: value" in done.stdout
        assert elapsed < 10, elapsed
        assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before
