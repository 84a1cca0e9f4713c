"""The register's alternative tables (tools/readings.py ``register_problems``): every
alternative is executable or says, with a reason of a fixed kind, why not; ``rejected`` names a
clause; ``runtimes`` names the entry's own alternatives."""

from __future__ import annotations

from typing import Any

import pytest

from tools.readings import register_problems


def entry(**extra: Any) -> dict[str, Any]:
    """A register entry with two alternatives, the first executable."""
    return {
        "id": "INT-99",
        "alternatives": ["One way.", "Another way."],
        "alternative_ids": ["one", "another"],
        "executable": {"INT-99/one": 0},
        **extra,
    }


class TestRegisterProblems:
    def test_a_decided_entry_passes(self) -> None:
        """Executable or not_executable with a known kind, a clause-led rejection, runtimes
        naming the entry's alternatives: no problem."""
        problems = register_problems(
            [
                entry(
                    not_executable={"INT-99/another": "nondeterministic: reads the clock"},
                    rejected={"INT-99/one": "S6-HASH-01: the hash MUST cover it"},
                    runtimes={"python": "pinned", "go": "INT-99/one"},
                )
            ]
        )
        assert problems == []

    def test_an_id_a_report_cannot_name_fails(self) -> None:
        """An alternative ID with a dot (go-1.22) is not a reading ID the report schema takes."""
        dotted = entry(
            alternative_ids=["one", "another-1.22"],
            executable={"INT-99/one": 0, "INT-99/another-1.22": 1},
        )
        (problem,) = register_problems([dotted])
        assert problem.startswith("INT-99/another-1.22: not a reading ID")

    def test_an_undecided_alternative_fails(self) -> None:
        """Neither executable nor not_executable: the check fails, naming it."""
        (problem,) = register_problems([entry()])
        assert problem.startswith("INT-99/another: not executable and no not_executable")

    @pytest.mark.parametrize(
        ("extra", "words"),
        [
            ({"not_executable": {"INT-99/another": "too hard: later"}}, "must be '<kind>: why'"),
            ({"not_executable": {"INT-99/another": "no-output"}}, "must be '<kind>: why'"),
            (
                {
                    "not_executable": {
                        "INT-99/another": "no-output: x",
                        "INT-99/one": "no-output: y",
                    }
                },
                "both executable and not_executable",
            ),
            (
                {
                    "not_executable": {"INT-99/another": "no-output: x"},
                    "rejected": {"INT-99/one": "breaks the spec"},
                },
                "must start with a clause ID",
            ),
            (
                {
                    "not_executable": {"INT-99/another": "no-output: x"},
                    "runtimes": {"cobol": "pinned"},
                },
                "unknown runtime",
            ),
            (
                {
                    "not_executable": {"INT-99/another": "no-output: x"},
                    "runtimes": {"rust": "INT-98/other"},
                },
                "not 'pinned' or one of the entry's alternatives",
            ),
        ],
    )
    def test_malformed_tables_fail(self, extra: dict[str, Any], words: str) -> None:
        """A reason of no known kind, a double decision, a rejection without a clause, an
        unknown runtime or another entry's alternative is a problem the check names."""
        problems = register_problems([entry(**extra)])
        assert any(words in problem for problem in problems), problems


class TestPhase2Register:
    def test_list_form_and_phase2_clauses(self) -> None:
        """The Phase 2 register lists executable IDs and rejects by Phase 2 clause: the same
        check applies, with the Phase 2 clause IDs."""
        phase2 = {
            "id": "P2-INT-99",
            "alternatives": ["One way.", "Another way."],
            "alternative_ids": ["one", "another"],
            "executable": ["P2-INT-99/one", "P2-INT-99/another"],
            "rejected": {"P2-INT-99/one": "P2-BUD-04: never exceed max_tokens"},
        }
        assert register_problems([phase2], {"P2-BUD-04"}) == []
        (problem,) = register_problems([phase2], {"P2-BUD-01"})
        assert "rejected must start with a clause ID" in problem

    def test_missing_alternative_ids(self) -> None:
        """An entry whose alternatives are not all named by alternative_ids fails."""
        phase2 = {"id": "P2-INT-99", "alternatives": ["One way."], "executable": []}
        problems = register_problems([phase2], set())
        assert "P2-INT-99: alternative_ids does not name every alternative" in problems


def int28(**parameter: Any) -> dict[str, Any]:
    """INT-28 with its three alternatives executable and ``parameter`` as the first N drops'."""
    return {
        "id": "INT-28",
        "alternatives": ["Rank order.", "Grouped by reason.", "Only list the first N drops."],
        "alternative_ids": ["rank-order", "by-reason", "list-first-n-drops"],
        "executable": {
            "INT-28/rank-order": 0,
            "INT-28/by-reason": 1,
            "INT-28/list-first-n-drops": 2,
        },
        "parameters": {"INT-28/list-first-n-drops": parameter} if parameter else {},
    }


class TestParameters:
    def test_the_registers_parameter_passes(self) -> None:
        """INT-28's first N drops declared as the reference takes it (n, from 0): no problem."""
        assert register_problems([int28(name="n", min=0, check=[1, 3])]) == []

    @pytest.mark.parametrize(
        ("parameter", "words"),
        [
            ({}, "not in the register's parameters"),
            ({"name": "k", "min": 0, "check": [1]}, "differs from reference/_readings.py's"),
            ({"name": "n", "min": 1, "check": [1]}, "differs from reference/_readings.py's"),
            ({"name": "n", "min": 0, "check": []}, "check must list values"),
            ({"name": "n", "min": 0, "check": [-1]}, "check must list values"),
            ({"min": 0, "check": [1]}, "parameters must be"),
        ],
    )
    def test_a_wrong_parameter_fails(self, parameter: dict[str, Any], words: str) -> None:
        """Undeclared, another name or bounds than the reference's, no or out-of-bounds check
        values, or a table without a name: the check fails, saying which."""
        problems = register_problems([int28(**parameter)])
        assert any(words in problem for problem in problems), problems

    def test_a_parameter_on_an_unparameterized_alternative_fails(self) -> None:
        """``parameters`` naming an alternative the reference runs without a value fails."""
        raw = int28(name="n", min=0, check=[1])
        raw["parameters"]["INT-28/by-reason"] = {"name": "n", "min": 0, "check": [1]}
        problems = register_problems([raw])
        assert any("INT-28/by-reason: parameters names no parameterized" in p for p in problems)
