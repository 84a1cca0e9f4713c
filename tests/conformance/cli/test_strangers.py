"""Certifying strangers (tests/fakes/stranger.py) that follow executable alternatives:
alone, combined, in part, declared or not, and plain bugs no listed reading explains. Every
failure must be reproduced by the reference under exactly the alternatives the verdict names.

The tag-bonus bug's failures are one signature, whose reproduce command reruns one vector in
seconds and leaves the report intact (read from the same certification as its attribution).
The one-reading strangers (with properties and probes) and the triage of the SPEC-005 stranger
are in ``test_strangers_one_reading.py``.
"""

from __future__ import annotations

import json
import shlex
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from strangers import certify_all, phase6, stranger

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
    # two readings whose roundings cancel on a few vectors: consistent as a whole profile
    "gopowage": ["INT-04/go-math-pow", "INT-35/go-duration-hours"],
}
#: plain bugs: no listed reading reproduces any of their failures
BUGS = ("round2", "excerpt1", "tagbonus")


#: Every vector run once, no fresh-process sample: what these tests read (the attribution and
#: the verdict) does not rest on the repeat, which the triage and one-reading runs keep.
ONCE = ["--repeat", "1", "--fresh-every", "0"]
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
    # the one run with sections (minutes, the others seconds) first, so that none runs alone
    longest_first = sorted(EVIDENCE_RUNS.items(), key=lambda run: "--sections" not in run[1][1])
    for label, (variant, extra) in longest_first:
        report_dir = tmp_path_factory.mktemp(label)
        options = [option.format(int08=declared) for option in extra]
        sections = (
            ["--section-option", "examples=100"] if "--sections" in options else ["--no-sections"]
        )
        options = [option for option in options if option != "--sections"]
        argv = [
            sys.executable, "-m", "conformance", "certify", "--adapter", stranger(*variant),
            "--report-dir", str(report_dir), "-q", "-j", "1", *ONCE, *sections, *options,
        ]  # fmt: skip
        running[label] = (argv, report_dir)
    return certify_all(running)


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
            c.startswith("INT-27/budget-exhausted, which it does not declare")
            for c in attribution["contradictions"]
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


@pytest.mark.slow  # reads the tag-bonus stranger's one certification of the evidence runs
class TestTriage:
    def test_one_wrong_term_is_one_signature(
        self, with_evidence: dict[str, tuple[int, str, Path]]
    ) -> None:
        """tag_bonus = overlap * 0.25: every failure has the one signature of the score."""
        code, _, report_dir = with_evidence["tagbonus"]
        report = json.loads((report_dir / "report.json").read_text("utf-8"))
        assert code == 1
        (signature,) = report["failure_signatures"]
        assert signature["signature"] == "mismatch /package/selection/selected/*/score: value"
        assert signature["count"] == report["footer"]["totals"]["failed"]

    def test_reproduce_command_is_fast_and_writes_nothing(
        self, with_evidence: dict[str, tuple[int, str, Path]]
    ) -> None:
        """The reproduce command of a signature reruns its one vector in seconds, with no
        section, and leaves the report it came from untouched."""
        _, _, report_dir = with_evidence["tagbonus"]
        report = json.loads((report_dir / "report.json").read_text("utf-8"))
        before = {p.name: p.read_bytes() for p in report_dir.iterdir()}
        command = shlex.split(report["failure_signatures"][0]["reproduce"])
        assert command[:4] == ["python", "-m", "conformance", "rerun"]
        started = time.monotonic()
        done = phase6(*command[3:])
        elapsed = time.monotonic() - started
        assert done.returncode == 1, done.stdout + done.stderr
        assert "signature: mismatch /package/selection/selected/*/score: value" in done.stdout
        assert elapsed < 30, elapsed  # one vector, where the corpus takes minutes
        assert {p.name: p.read_bytes() for p in report_dir.iterdir()} == before
