"""Readings with evidence for the Phase 2 profile: the policy text as a parameter, the reading
profile inferred by running the reference under each executable alternative, properties under
that profile, and a verdict in which a failure no listed reading explains is a bug
(conformance/phase2/_attribution.py)."""

from __future__ import annotations

import io
import json
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest
from phase2_fakes import BUGS, READINGS

from conformance.cli import main
from conformance.phase2 import POLICY_SNIPPET, CheckReadings, property_failures, read_policy
from conformance.phase2._attribution import INFERENCES, Evidence, phase2_verdict
from conformance.phase2._registers import executable_alternatives, reading_parameters
from conformance.registers import split_reading_id
from conformance.run import Attribution, Outcome, VectorResult, Verdict, VerdictValue

OTHER = "Answer from the memory below. When facts conflict, trust the newest one."
#: fake -> a selection holding the vectors its reading changes (and others it passes).
SELECTIONS = {
    "own_policy_text": ("id:p2-budget-h00*", "id:p2-errors-h00*"),
    "entities_one_hop": ("id:p2-entities-*",),
    "user_from_latest_turn": ("id:p2-hot-turns-g00*", "id:p2-layers-h*", "id:p2-params-g03*"),
    "trims_query": ("id:p2-params-g0[02]*", "id:p2-tokens-*"),
    "splits_like_python": ("id:p2-tokens-*",),
    "keeps_warm_summaries": ("id:p2-summaries-*", "id:p2-layers-h*"),
    "takes_first_value": ("id:p2-errors-h0[12]*", "id:p2-params-g0[12]*"),
    "hot_turns_one_short": ("id:p2-hot-turns-g00*", "id:p2-layers-h*"),
}


def certify(fake: str, report: Path, *extra: str) -> tuple[int, str, dict[str, Any]]:
    """Certify a fake under the Phase 2 profile quietly; (exit code, stdout, report.json)."""
    out = io.StringIO()
    code = main(
        [
            "certify",
            "--profile",
            "phase2-context",
            "--adapter",
            f"python:phase2_fakes.{fake}:run_vector_call",
            "--report-dir",
            str(report),
            "--quiet",
            *extra,
        ],
        out=out,
    )
    return code, out.getvalue(), json.loads((report / "report.json").read_text("utf-8"))


def selected(fake: str) -> list[str]:
    """``--select`` options of the fake's selection."""
    return [word for pattern in SELECTIONS[fake] for word in ("--select", pattern)]


def _context(texts: list[str], status: int = 200) -> dict[str, Any]:
    blocks = [{"layer": "policy", "id": None, "text": t, "tokens": 1} for t in texts[:1]]
    return {"status": status, "body": {"context": blocks}, "state": {}}


class TestPolicyParameter:
    """P2-INT-04: the policy text is read from the implementation's 200 responses."""

    @pytest.mark.parametrize(
        ("outcomes", "policy", "texts"),
        [
            ([_context([OTHER]), _context([OTHER])], OTHER, (OTHER,)),
            ([_context([OTHER]), _context(["another"])], None, (OTHER, "another")),
            ([_context([OTHER]), _context(["x"], status=400), {"result": 1}], OTHER, (OTHER,)),
            ([_context([])], None, ()),
        ],
    )
    def test_read_policy(
        self, outcomes: list[Any], policy: str | None, texts: tuple[str, ...]
    ) -> None:
        """One text across every 200 response is the parameter; two texts are none (the
        snippet is "fixed"); errors and other ops are not read."""
        assert read_policy(outcomes) == (policy, texts)


class TestCheckReadings:
    """The property checks take the policy text, the whitespace table and trimming from the
    profile; the defaults are the pinned readings."""

    def test_pinned(self) -> None:
        """No profile: the register's snippet, White_Space, the query as received."""
        readings = CheckReadings.of([])
        assert readings == CheckReadings()
        assert (readings.policy, readings.estimate("a\x1fb"), readings.query_text(" q ")) == (
            POLICY_SNIPPET,
            1,
            " q ",
        )

    def test_profile(self) -> None:
        """P2-INT-02/python splits on U+001F; P2-INT-17/trim trims; the policy is given."""
        readings = CheckReadings.of(["P2-INT-02/python", "P2-INT-17/trim"], policy=OTHER)
        assert (readings.policy, readings.estimate("a\x1fb"), readings.query_text("\x1fq ")) == (
            OTHER,
            2,
            "q",
        )

    def test_properties_follow_the_profile(self) -> None:
        """A trimmed query and another policy text break policy-query-present under the pinned
        readings and hold under the profile that names them."""
        call = {"op": "context", "params": [["chat_id", "c1"], ["query", " q "]]}
        context = [
            {"layer": "policy", "id": None, "text": OTHER, "tokens": 18},
            {"layer": "query", "id": None, "text": "q", "tokens": 1},
        ]
        body = {
            "budget": {"requested": None, "applied": 3000, "estimated_used": 19},
            "sources": {"hot_turns": 0, "summaries": 0, "entities": 0},
            "context": context,
        }
        observed = {"status": 200, "body": body, "state": {}}
        pinned = {name for name, _ in property_failures({}, call, observed)}
        assert pinned == {"policy-query-present"}
        profile = CheckReadings.of(["P2-INT-17/trim"], policy=OTHER)
        assert property_failures({}, call, observed, readings=profile) == []


def _result(vector_id: str, outcome: Outcome) -> VectorResult:
    return VectorResult(vector_id, "phase2-context", "pinned", (), ("P2-INT-08",), "f", outcome)


class TestVerdict:
    """phase2_verdict: evidence decides between a reading and a bug."""

    def test_unexplained_is_a_bug(self) -> None:
        """A failure no listed reading explains makes the run non-compliant, said first."""
        base = Verdict(VerdictValue.COMPLIANT_REQUIRED_ONLY, "compliant on required, ...")
        evidence = Evidence(Attribution(("P2-INT-08/one-hop",), (), {}, ("v1",)))
        verdict = phase2_verdict(base, evidence, [_result("v1", Outcome.FAILED)])
        assert verdict.value is VerdictValue.NON_COMPLIANT
        assert "no listed reading explains" in verdict.reasons[0]
        assert verdict.differs_on == ()  # evidence only: no interpretation guessed from labels

    def test_explained_is_a_reading(self) -> None:
        """Every failure explained: compliant on required, naming the alternative by ID."""
        base = Verdict(VerdictValue.COMPLIANT_REQUIRED_ONLY, "compliant on required, ...")
        attribution = Attribution(
            ("P2-INT-08/one-hop",), ("P2-INT-08/one-hop",), {"v1": ("P2-INT-08/one-hop",)}
        )
        verdict = phase2_verdict(base, Evidence(attribution), [_result("v1", Outcome.FAILED)])
        assert verdict.value is VerdictValue.COMPLIANT_REQUIRED_ONLY
        assert verdict.differs_on == ("P2-INT-08/one-hop",)

    def test_policy_alone_is_named(self) -> None:
        """Every vector passed under the implementation's own policy text: the verdict still
        names P2-INT-04/implementation-text, and shows the text."""
        base = Verdict(VerdictValue.COMPLIANT, "compliant: all 1 vectors passed")
        profile = ("P2-INT-04/implementation-text",)
        evidence = Evidence(Attribution(profile, profile), OTHER)
        verdict = phase2_verdict(base, evidence, [_result("v1", Outcome.PASSED)])
        assert verdict.value is VerdictValue.COMPLIANT_REQUIRED_ONLY
        assert verdict.differs_on == profile
        assert OTHER in " ".join(verdict.reasons)

    def test_pinned_stays_compliant(self) -> None:
        """Nothing failed and the register's text: compliant, unchanged."""
        base = Verdict(VerdictValue.COMPLIANT, "compliant: all 1 vectors passed")
        assert phase2_verdict(base, Evidence(), [_result("v1", Outcome.PASSED)]) is base


class TestFakes:
    """Fakes following one alternative each are compliant under exactly it; a plain bug is not
    (a partial run here: a selection, no sections; tests below: the whole certification)."""

    @pytest.mark.parametrize("fake", sorted(READINGS))
    def test_reading_in_a_partial_run(self, tmp_path: Path, fake: str) -> None:
        """compliant-required-only (exit 4, also in a partial run) naming exactly its
        alternative; every failure explained."""
        code, out, report = certify(fake, tmp_path, *selected(fake), "--no-sections")
        assert code == 4, out
        assert report["footer"]["partial_reasons"]
        footer = report["footer"]
        assert footer["verdict"]["value"] == "compliant-required-only", footer["verdict"]
        assert footer["verdict"]["differs_on"] == [READINGS[fake]]
        assert footer["attribution"]["profile"] == [READINGS[fake]]
        assert footer["attribution"]["unexplained"] == []

    @pytest.mark.parametrize("fake", BUGS)
    def test_bug_in_a_partial_run(self, tmp_path: Path, fake: str) -> None:
        """non-compliant (exit 1, also in a partial run), the unexplained failures first among
        the reasons."""
        code, out, report = certify(fake, tmp_path, *selected(fake), "--no-sections")
        assert code == 1, out
        verdict, attribution = report["footer"]["verdict"], report["footer"]["attribution"]
        assert verdict["value"] == "non-compliant"
        assert "no listed reading explains" in verdict["reasons"][0]
        assert attribution["profile"] == []
        assert attribution["unexplained"]

    def test_own_policy_passes_the_vectors(self, tmp_path: Path) -> None:
        """Another policy text is a parameter: the vectors it changes pass, judged against the
        reference with that text."""
        _, _, report = certify("own_policy_text", tmp_path, *selected("own_policy_text"))
        outcomes = {r["outcome"] for r in report["results"]}
        assert outcomes == {"passed"}
        assert report["sections"]["properties"]["data"]["policy_text"] == OTHER
        assert report["sections"]["properties"]["status"] == "passed"

    @pytest.mark.slow
    @pytest.mark.parametrize("fake", sorted(READINGS))
    def test_reading_certified(self, tmp_path: Path, fake: str) -> None:
        """The whole corpus and every property: exit 4, compliant under exactly its reading."""
        code, out, report = certify(fake, tmp_path)
        assert code == 4, out
        footer = report["footer"]
        assert footer["verdict"]["value"] == "compliant-required-only"
        assert footer["verdict"]["differs_on"] == [READINGS[fake]]
        assert footer["attribution"]["unexplained"] == []
        assert report["sections"]["properties"]["status"] == "passed"

    @pytest.mark.slow
    @pytest.mark.parametrize("fake", BUGS)
    def test_bug_certified(self, tmp_path: Path, fake: str) -> None:
        """The whole corpus and every property: exit 1, non-compliant on evidence (every
        property passes: only the unexplained vectors decide)."""
        code, out, report = certify(fake, tmp_path)
        assert code == 1, out
        assert report["footer"]["verdict"]["value"] == "non-compliant"
        assert report["sections"]["properties"]["status"] == "passed"


def declare(tmp_path: Path, *readings: str) -> list[str]:
    """``--readings FILE`` options declaring ``readings``."""
    path = tmp_path / "readings.txt"
    path.write_text("# declared\n" + "".join(f"{r}\n" for r in readings), "utf-8")
    return ["--readings", str(path)]


class TestDeclared:
    """A declaration (``--readings FILE`` or ``readings`` in the start reply) is the profile;
    where the implementation contradicts it, the run is non-compliant and says where."""

    def test_declared_and_followed(self, tmp_path: Path) -> None:
        """The fake declares the one alternative it follows: compliant under exactly it."""
        fake = "entities_one_hop"
        declared = declare(tmp_path, READINGS[fake])
        code, out, report = certify(
            fake, tmp_path / "r", *selected(fake), "--no-sections", *declared
        )
        attribution = report["footer"]["attribution"]
        assert code == 4, out
        assert attribution["declared"] == [READINGS[fake]]
        assert attribution["profile"] == [READINGS[fake]]
        assert attribution["contradictions"] == []

    def test_follows_an_undeclared_reading(self, tmp_path: Path) -> None:
        """Declaring nothing while following one-hop: each failure it reproduces is a
        contradiction of the declaration, not a reading."""
        fake = "entities_one_hop"
        code, out, report = certify(
            fake, tmp_path / "r", *selected(fake), "--no-sections", *declare(tmp_path)
        )
        attribution = report["footer"]["attribution"]
        assert code == 1, out
        assert attribution["declared"] == []
        assert attribution["profile"] == []
        assert any(
            c.startswith(f"{READINGS[fake]}, which it does not declare, reproduces ")
            for c in attribution["contradictions"]
        ), attribution["contradictions"]
        assert report["footer"]["verdict"]["value"] == "non-compliant"

    def test_declared_but_not_followed(self, tmp_path: Path) -> None:
        """The reference engine declaring one-hop answers the pinned way on the vectors one-hop
        changes: a contradiction (step 5), although nothing failed."""
        declared = declare(tmp_path, "P2-INT-08/one-hop")
        code, out, report = certify(
            "entities_one_hop", tmp_path / "r", "--no-sections", *declared,
            "--select", "id:p2-entities-*",
            "--adapter", "python:reference.phase2:run_vector_call",
        )  # fmt: skip
        attribution = report["footer"]["attribution"]
        assert code == 1, out
        assert {r["outcome"] for r in report["results"]} == {"passed"}
        assert "P2-INT-08/one-hop" in attribution["inconsistent"]
        assert any("although it declares it" in c for c in attribution["contradictions"])

    def test_policy_text_against_the_declaration(self, tmp_path: Path) -> None:
        """Its own policy text without declaring the parameter is a contradiction; declaring
        it with the register's text is one too."""
        fake = "own_policy_text"
        _, _, report = certify(
            fake, tmp_path / "a", *selected(fake), "--no-sections", *declare(tmp_path)
        )
        said = report["footer"]["attribution"]["contradictions"]
        assert any("without declaring P2-INT-04/implementation-text" in c for c in said), said
        declared = declare(tmp_path, "P2-INT-04/implementation-text")
        _, _, report = certify(
            fake, tmp_path / "b", *selected(fake), "--no-sections", *declared,
            "--adapter", "python:reference.phase2:run_vector_call",
        )  # fmt: skip
        said = report["footer"]["attribution"]["contradictions"]
        assert said == [
            "declares P2-INT-04/implementation-text, but its policy block holds the register's text"
        ]

    @pytest.mark.parametrize(
        ("declared", "code"),
        [("P2-INT-06/several(n=3)", 4), ("P2-INT-06/several(n=2)", 1), ("P2-INT-06/several", 1)],
    )
    def test_declared_value(self, tmp_path: Path, declared: str, code: int) -> None:
        """A reading with a value is declared with it: the fake's own value is its profile;
        another value, or none, explains nothing it did."""
        fake = "keeps_warm_summaries"
        got, out, report = certify(
            fake, tmp_path / "r", *selected(fake), "--no-sections", *declare(tmp_path, declared)
        )
        attribution = report["footer"]["attribution"]
        assert got == code, out
        assert attribution["declared"] == [declared]
        if code == 4:
            assert attribution["profile"] == [declared]
            assert attribution["contradictions"] == []
        elif "(" not in declared:
            assert attribution["contradictions"][0] == (
                "declares 'P2-INT-06/several', which is not an executable alternative of "
                "specs/phase2/interpretations.toml without its value (P2-INT-06/several(n=2) "
                "for example)"
            )
        else:
            assert any(
                c.startswith("P2-INT-06/several(n=3), which it does not declare, reproduces ")
                for c in attribution["contradictions"]
            ), attribution["contradictions"]

    def test_unknown_reading(self, tmp_path: Path) -> None:
        """A declared ID that is not an executable Phase 2 alternative is a contradiction."""
        _, _, report = certify(
            "entities_one_hop", tmp_path / "r", "--no-sections", "--select", "id:p2-layers-h001",
            *declare(tmp_path, "INT-08/verbatim"),
            "--adapter", "python:reference.phase2:run_vector_call",
        )  # fmt: skip
        said = report["footer"]["attribution"]["contradictions"]
        assert said == [
            "declares 'INT-08/verbatim', which is not an executable alternative of "
            "specs/phase2/interpretations.toml"
        ]

    @pytest.mark.parametrize(
        ("declared", "code"), [("P2-INT-08/one-hop", 4), ("P2-INT-17/trim", 1)]
    )
    def test_handshake(self, tmp_path: Path, declared: str, code: int) -> None:
        """``readings`` in the start reply is a declaration like ``--readings``."""
        script = Path(__file__).resolve().parents[2] / "phase2_fakes" / "declaring.py"
        adapter = f"cmd:{shlex.join([sys.executable, str(script), 'entities_one_hop', declared])}"
        got, out, report = certify(
            "entities_one_hop", tmp_path, *selected("entities_one_hop"), "--no-sections",
            "--adapter", adapter,
        )  # fmt: skip
        assert got == code, out
        assert report["footer"]["attribution"]["declared"] == [declared]


class TestSignatures:
    """Phase 2 failure signatures are grouped by reading and say which one (signatures v2)."""

    def test_reading_named(self, tmp_path: Path) -> None:
        """Every signature of a fake following one alternative names it."""
        fake = "entities_one_hop"
        _, _, report = certify(fake, tmp_path, *selected(fake), "--no-sections")
        signatures = report["failure_signatures"]
        assert signatures
        assert all(s["reading"] == [READINGS[fake]] for s in signatures), signatures

    def test_bug_first(self, tmp_path: Path) -> None:
        """A plain bug's signature says no listed reading explains it, first in the report."""
        fake = "hot_turns_one_short"
        _, _, report = certify(fake, tmp_path, *selected(fake), "--no-sections")
        assert report["failure_signatures"][0]["reading"] == []
        markdown = (tmp_path / "report.md").read_text("utf-8")
        assert "no listed reading explains this" in markdown


class TestInferences:
    """A reading with a value is tried with the values the failing outputs suggest."""

    @staticmethod
    def _reply(tokens: list[int], layers: list[str], used: int) -> dict[str, Any]:
        blocks = [
            {"layer": la, "id": None, "text": "", "tokens": t}
            for la, t in zip(layers, tokens, strict=True)
        ]
        return {"status": 200, "body": {"budget": {"estimated_used": used}, "context": blocks}}

    def test_summary_blocks(self) -> None:
        """P2-INT-06/several: n is the number of summary blocks (none: no value)."""
        infer = INFERENCES["P2-INT-06/several"]
        layers = ["policy", "summary", "summary", "summary", "query"]
        assert infer(None, self._reply([1] * 5, layers, 5)) == {3}  # type: ignore[arg-type]
        assert infer(None, self._reply([1, 1], ["policy", "query"], 2)) == set()  # type: ignore[arg-type]
        assert infer(None, {"status": 400, "body": {}}) == set()  # type: ignore[arg-type]

    def test_block_overhead(self) -> None:
        """P2-INT-03/block-overhead: K is estimated_used less the blocks' tokens, per block,
        when that divides evenly."""
        infer = INFERENCES["P2-INT-03/block-overhead"]
        layers = ["policy", "summary", "query"]
        assert infer(None, self._reply([19, 1, 1], layers, 33)) == {4}  # type: ignore[arg-type]
        assert infer(None, self._reply([19, 1, 1], layers, 22)) == set()  # type: ignore[arg-type]
        assert infer(None, self._reply([19, 1, 1], layers, 21)) == set()  # type: ignore[arg-type]


def test_register_names_the_fakes() -> None:
    """Each fake follows an alternative the register lists as executable (one with a value:
    the alternative, its parameter declared in the register)."""
    bases = {split_reading_id(reading)[0] for reading in READINGS.values()}
    assert bases <= set(executable_alternatives())
    assert "P2-INT-06/several" in reading_parameters()
