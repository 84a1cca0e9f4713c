"""The verdict under attribution (conformance/run/_results.py): a failure a listed reading
reproduces is that reading, and one a *rejected* reading reproduces is named but non-compliant."""

from __future__ import annotations

from conformance.run import Failure, FailureKind, Outcome, VectorResult
from conformance.run._results import VerdictValue, compute_verdict


def failed(vector_id: str, level: str = "pinned") -> VectorResult:
    """A result whose package differs from the vector's expectation."""
    failure = Failure(
        FailureKind.MISMATCH, "differs", ("S6-HASH-01",), "/package/package_hash", '"a"', '"b"'
    )
    return VectorResult(
        vector_id,
        "area",
        level,
        ("S6-HASH-01",),
        ("INT-04",),
        "area.json",
        Outcome.FAILED,
        failures=(failure,),
    )


def passed(vector_id: str) -> VectorResult:
    """A result that matched."""
    return VectorResult(
        vector_id, "area", "pinned", ("S6-OUT-01",), (), "area.json", Outcome.PASSED
    )


class TestRejectedReadings:
    def test_an_accepted_reading_is_compliant_under_it(self) -> None:
        """Failures one executable alternative reproduces: compliant under that reading."""
        verdict = compute_verdict(
            [failed("v1"), passed("v2")], explained={"v1": ("INT-04/platform-pow",)}, rejected={}
        )
        assert verdict.value is VerdictValue.COMPLIANT_REQUIRED_ONLY
        assert verdict.differs_on == ("INT-04/platform-pow",)

    def test_a_rejected_reading_is_named_and_non_compliant(self) -> None:
        """The same evidence for a reading the register rejects: non-compliant, and the reason
        names the reading and the clause it contradicts."""
        verdict = compute_verdict(
            [failed("v1"), passed("v2")],
            explained={"v1": ("INT-04/exclude-score",)},
            rejected={"INT-04/exclude-score": "S6-HASH-02: score MUST be hashed"},
        )
        assert verdict.value is VerdictValue.NON_COMPLIANT
        assert "INT-04/exclude-score" in verdict.differs_on
        assert any(
            "INT-04/exclude-score" in reason and "S6-HASH-02" in reason
            for reason in verdict.reasons
        )


class TestContradictions:
    def test_the_verdict_line_names_the_first_and_counts_the_rest(self) -> None:
        """Twenty contradictions make one reason: the first, and how many more the report's
        reading profile lists (the verdict stays one readable line)."""
        said = [f"INT-18/alt-{n} reproduces 1 failing vector(s)" for n in range(20)]
        verdict = compute_verdict(
            [failed("v1"), passed("v2")],
            explained={"v1": ("INT-04/platform-pow",)},
            rejected={},
            contradictions=said,
        )
        assert verdict.value is VerdictValue.NON_COMPLIANT
        about = [reason for reason in verdict.reasons if reason.startswith("readings: ")]
        assert about == [
            f"readings: {said[0]} (and 19 more contradiction(s): the report's reading profile)"
        ]
        assert said[1] not in verdict.text
