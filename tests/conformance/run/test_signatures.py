"""Failure signatures: one bug, one signature, however many vectors it breaks."""

from __future__ import annotations

import pytest

from conformance.run import (
    ErrorDetail,
    ErrorKind,
    Failure,
    FailureKind,
    Outcome,
    VectorResult,
    failure_signatures,
    first_difference,
    fix_first,
    signature_of,
)
from conformance.run._signatures import generalize_path, mask_message


def result(
    vector_id: str,
    *,
    failure: Failure | None = None,
    error: ErrorDetail | None = None,
    level: str = "pinned",
    clauses: tuple[str, ...] = ("S6-OUT-01",),
    interpretations: tuple[str, ...] = ("INT-01",),
) -> VectorResult:
    """A failed (or errored) result of a synthetic vector."""
    outcome = Outcome.ERRORED if error else Outcome.FAILED if failure else Outcome.PASSED
    return VectorResult(
        vector_id,
        "area",
        level,
        clauses,
        interpretations,
        "area.json",
        outcome,
        failures=(failure,) if failure else (),
        error=error,
        reproduce=f"python -m conformance rerun {vector_id}",
    )


def mismatch(path: str, expected: str, actual: str) -> Failure:
    """A mismatch failure at ``path`` (texts as the executor shows them)."""
    return Failure(
        FailureKind.MISMATCH, f"differs at {path}", ("S6-OUT-01",), path, expected, actual
    )


class TestPaths:
    @pytest.mark.parametrize(
        ("path", "general"),
        [
            ("/package/selection/selected/3/score", "/package/selection/selected/*/score"),
            ("/package/selection/dropped/12", "/package/selection/dropped/*"),
            ("/error/code", "/error/code"),
            ("", "/"),
            ("/a/10/b/2", "/a/*/b/*"),
        ],
    )
    def test_indices_are_generalized(self, path: str, general: str) -> None:
        """Array indices become '*'; member names stay."""
        assert generalize_path(path) == general

    @pytest.mark.parametrize(
        ("message", "masked"),
        [
            ("KeyError: 'type'", "KeyError: <q>"),
            ('no store "stores/a.jsonl" at line 12', "no store <q> at line <n>"),
            ("cannot open stores/x/a.jsonl (errno 2)", "cannot open <path> (errno <n>)"),
            ("run 2: timed out after 5.0 s", "run <n>: timed out after <n> s"),
            ("hash " + "ab" * 32 + " unknown", "hash <hex> unknown"),
        ],
    )
    def test_messages_are_masked(self, message: str, masked: str) -> None:
        """Quoted values, paths, hex digests and numbers are masked."""
        assert mask_message(message) == masked


class TestKinds:
    @pytest.mark.parametrize(
        ("failure", "signature"),
        [
            (
                mismatch("/package/selection/selected/0/score", "1.5", "1.25"),
                "mismatch /package/selection/selected/*/score: value",
            ),
            (
                mismatch("/package/budget", '{"a":1}', "<missing>"),
                "mismatch /package/budget: missing member",
            ),
            (mismatch("/package/x", "<missing>", "1"), "mismatch /package/x: extra member"),
            (
                mismatch("/package/selection/dropped/4", '{"a":1}', "<missing>"),
                "mismatch /package/selection/dropped/*: missing element",
            ),
            (
                mismatch("/package/selection/selected/0/score", "1", '"1"'),
                "mismatch /package/selection/selected/*/score: type number -> string",
            ),
            (
                mismatch("/error", '{"code":"x"}', "<missing>"),
                "mismatch /error: expected an error, got a package",
            ),
            (
                mismatch("/error", "<missing>", '{"code":"x","message":"bad line 7 of /a/b"}'),
                "mismatch /error: expected a package, got an error: x bad line <n> of <path>",
            ),
            (
                mismatch("/error", "<missing>", '{"message":"no code"}'),
                "mismatch /error: expected a package, got an error: (no code) no code",
            ),
            (
                mismatch("/error/code", '"invalid_budget"', '"invalid_request"'),
                'mismatch /error/code: error code -> "invalid_request"',
            ),
            (
                mismatch("/error/code", '"invalid_scoring"', '"invalid_request"'),
                'mismatch /error/code: error code -> "invalid_request"',
            ),
            (
                mismatch("/package/selection/dropped/2/reason", '"a"', '"b"'),
                'mismatch /package/selection/dropped/*/reason: reason "a" -> "b"',
            ),
        ],
    )
    def test_difference_kinds(self, failure: Failure, signature: str) -> None:
        """The kind of difference: value, missing/extra member or element, type, error vs
        package (by the error returned), error code (the code returned, whatever was
        expected), reason (closed sets keep their values)."""
        assert signature_of(result("v", failure=failure)) == signature

    def test_errors_by_kind_and_masked_message(self) -> None:
        """Errored vectors: the error kind and the masked message, not the run number."""
        first = ErrorDetail(ErrorKind.INTERNAL, "KeyError: 'type'")
        later = ErrorDetail(ErrorKind.INTERNAL, "run 2: KeyError: 'source'")
        assert signature_of(result("a", error=first)) == "errored internal-error: KeyError: <q>"
        assert signature_of(result("b", error=later)) == signature_of(result("a", error=first))

    def test_passed_has_no_signature(self) -> None:
        """Only failed and errored vectors have a signature."""
        assert signature_of(result("v")) is None


class TestGrouping:
    def test_one_bug_one_signature(self) -> None:
        """Vectors failing at the same generalized path group into one signature with counts
        per level, the clauses and interpretations they all share, the smallest example."""
        results = [
            result(
                f"v{i}",
                failure=mismatch(f"/package/selection/selected/{i % 3}/score", "1.5", "1.25"),
                level="required" if i == 4 else "pinned",
                clauses=("S6-SCORE-11", f"S6-X-{i}"),
                interpretations=("INT-10", "INT-29"),
            )
            for i in range(6)
        ] + [result("w", error=ErrorDetail(ErrorKind.TIMEOUT, "timed out after 5.0 s"))]
        sizes = {"v3": 1}
        signatures = failure_signatures(results, size=lambda i: sizes.get(i, 100))
        top = signatures[0]
        assert top.signature == "mismatch /package/selection/selected/*/score: value"
        assert top.count == 6
        assert dict(top.by_level) == {"pinned": 5, "required": 1}
        assert top.clauses == ("S6-SCORE-11",)
        assert top.interpretations == ("INT-10", "INT-29")
        assert top.example == "v3"
        assert top.reproduce == "python -m conformance rerun v3"
        assert [s.count for s in signatures] == [6, 1]

    def test_fix_first_puts_required_first(self) -> None:
        """What to fix first: signatures holding a required vector first, then by count."""
        pinned = [result(f"p{i}", failure=mismatch("/package/a", "1", "2")) for i in range(5)]
        required = [result("r", failure=mismatch("/package/b", "1", "2"), level="required")]
        signatures = failure_signatures([*pinned, *required])
        assert [s.count for s in signatures] == [5, 1]
        assert [s.count for s in fix_first(signatures)] == [1, 5]

    def test_readings_split_groups_and_bugs_come_first(self) -> None:
        """With attribution, vectors a reading reproduces are grouped apart and named; the
        group no reading explains comes first, even before a larger reading group."""
        same = mismatch("/package/selection/dropped/0/reason", '"a"', '"b"')
        read = [result(f"r{i}", failure=same) for i in range(5)]
        bug = [result("b", failure=same)]
        explained = {f"r{i}": ("INT-27/budget-exhausted",) for i in range(5)}
        signatures = failure_signatures([*read, *bug], explained=explained)
        by_count = {s.count: s for s in signatures}
        assert by_count[5].reading == ("INT-27/budget-exhausted",)
        assert by_count[1].reading == ()
        assert by_count[1].unexplained
        assert [s.count for s in fix_first(signatures)] == [1, 5]
        assert by_count[5].to_json()["reading"] == ["INT-27/budget-exhausted"]

    def test_a_rejected_reading_is_named_and_listed_with_the_bugs(self) -> None:
        """A group a rejected alternative reproduces names it, says it is rejected, and comes
        before a larger group of a reading the register accepts."""
        same = mismatch("/package/package_hash", '"a"', '"b"')
        accepted = [result(f"a{i}", failure=same) for i in range(5)]
        refused = [result(f"x{i}", failure=same) for i in range(2)]
        explained = {
            **{f"a{i}": ("INT-27/budget-exhausted",) for i in range(5)},
            **{f"x{i}": ("INT-04/exclude-score",) for i in range(2)},
        }
        signatures = failure_signatures(
            [*accepted, *refused], explained=explained, rejected=["INT-04/exclude-score"]
        )
        by_count = {s.count: s for s in signatures}
        assert by_count[2].rejected == ("INT-04/exclude-score",)
        assert by_count[2].fault
        assert not by_count[2].unexplained
        assert by_count[5].rejected == ()
        assert not by_count[5].fault
        assert [s.count for s in fix_first(signatures)] == [2, 5]
        assert by_count[2].to_json()["rejected"] == ["INT-04/exclude-score"]

    def test_without_attribution_no_reading_is_claimed(self) -> None:
        """Without attribution a signature names no reading and claims no bug."""
        (signature,) = failure_signatures([result("v", failure=mismatch("/x", "1", "2"))])
        assert signature.reading is None
        assert not signature.unexplained

    def test_example_shows_what_was_returned(self) -> None:
        """The example message shows what the implementation returned, not only the path."""
        returned = '{"code":"JsonlReaderError","message":"bad"}'
        (signature,) = failure_signatures(
            [result("v", failure=mismatch("/error", "<missing>", returned))]
        )
        assert returned in signature.example_message

    def test_report_form(self) -> None:
        """The report form names everything the schema asks for."""
        (signature,) = failure_signatures([result("v", failure=mismatch("/x/1", "1", "2"))])
        form = signature.to_json()
        assert form["signature"] == "mismatch /x/*: value"
        assert form["count"] == 1
        assert form["vectors"] == ["v"]


class TestCausesFirst:
    def test_score_before_identity_and_hash_last(self) -> None:
        """A wrong score is reported at the score, not at package_hash or the budget."""
        expected = {
            "package": {
                "budget": {"used_excerpt_tokens": 2},
                "package_hash": "a",
                "selection": {"selected": [{"memory_id": "m1", "score": 1.5}]},
            }
        }
        actual = {
            "package": {
                "budget": {"used_excerpt_tokens": 3},
                "package_hash": "b",
                "selection": {"selected": [{"memory_id": "m2", "score": 1.25}]},
            }
        }
        diff = first_difference(expected, actual)
        assert diff is not None
        assert diff.path == "/package/selection/selected/0/score"

    def test_hash_alone(self) -> None:
        """When only package_hash differs, that is the difference."""
        diff = first_difference({"package_hash": "a", "x": 1}, {"package_hash": "b", "x": 1})
        assert diff is not None
        assert diff.path == "/package_hash"
