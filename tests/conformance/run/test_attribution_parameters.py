"""Parameterized readings in attribution (conformance/run/_attribution.py): the values a
parameterized alternative is tried with are read from what the implementation returned on its
failing vectors, and the register's parameters are read and checked."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conformance._errors import UsageError
from conformance.cli._certify import read_declared_readings
from conformance.corpus import Vector, vector_from_json
from conformance.registers import load_interpretations, parse_parameter, split_reading_id
from conformance.run._attribution import (
    INFERENCES,
    _declared_value,
    _first_drops,
    _score_decimals,
    _values,
    reading_parameters,
)


def _drop(memory_id: str, reason: str = "budget_exhausted") -> dict[str, str]:
    return {"memory_id": memory_id, "record_hash": f"h{memory_id}", "store_path": "s",
            "reason": reason}  # fmt: skip


def _package(selected: list[dict[str, Any]], dropped: list[dict[str, str]]) -> dict[str, Any]:
    return {"package": {"selection": {"selected": selected, "dropped": dropped}}}


def _vector(expect: dict[str, Any], vector_id: str = "v1") -> Vector:
    raw = {
        "id": vector_id,
        "description": "d",
        "clauses": [],
        "interpretations": [],
        "level": "pinned",
        "input": {"request": {}, "files": {}},
        "expect": expect,
    }
    return vector_from_json(raw, area="t", file="", source="test")


FIVE_DROPS = [_drop(f"m{i}") for i in range(5)]


class TestFirstDrops:
    """INT-28/list-first-n-drops: n is the length of a dropped list cut short."""

    def test_a_proper_prefix_gives_its_length(self) -> None:
        """Three of the five expected drops, the first three in order: n = 3."""
        vector = _vector(_package([], FIVE_DROPS))
        assert _first_drops(vector, _package([], FIVE_DROPS[:3])) == {3}

    def test_an_empty_list_gives_zero(self) -> None:
        """No drop listed of five: n = 0."""
        assert _first_drops(_vector(_package([], FIVE_DROPS)), _package([], [])) == {0}

    @pytest.mark.parametrize(
        "dropped",
        [FIVE_DROPS, FIVE_DROPS[1:4], [*FIVE_DROPS, _drop("m9")]],
        ids=["whole", "not-a-prefix", "longer"],
    )
    def test_anything_else_gives_nothing(self, dropped: list[dict[str, str]]) -> None:
        """The whole list, a list that is not its start, or a longer one suggest no n."""
        assert _first_drops(_vector(_package([], FIVE_DROPS)), _package([], dropped)) == set()

    def test_an_error_gives_nothing(self) -> None:
        """An error result has no dropped list to read."""
        vector = _vector(_package([], FIVE_DROPS))
        assert _first_drops(vector, {"error": {"code": "invalid_query"}}) == set()


class TestScoreDecimals:
    """INT-04/round-recency-bonus-fixed: the decimals a score was rounded to."""

    def test_six_decimals(self) -> None:
        """1 + 2**(-1/3) = 1.7937005259840998 returned as 1.793701: rounded to 6 decimals
        (5 would be 1.7937, 7 would be 1.7937005)."""
        vector = _vector(_package([{"memory_id": "a", "score": 1.7937005259840998}], []))
        found = _score_decimals(vector, _package([{"memory_id": "a", "score": 1.793701}], []))
        assert 6 in found
        assert not found & {5, 7}

    def test_every_differing_score_must_agree(self) -> None:
        """Two scores: 0.79 fits 2 decimals, 0.5000001 (of 0.50000012) fits 7 only; no one
        number of decimals gives both."""
        expected = [{"memory_id": "a", "score": 0.7937005259840998},
                    {"memory_id": "b", "score": 0.50000012}]  # fmt: skip
        got = [{"memory_id": "a", "score": 0.79}, {"memory_id": "b", "score": 0.5000001}]
        assert _score_decimals(_vector(_package(expected, [])), _package(got, [])) == set()

    def test_equal_scores_suggest_nothing(self) -> None:
        """A failure elsewhere (not in the scores) suggests no number of decimals."""
        selected = [{"memory_id": "a", "score": 1.25}]
        assert _score_decimals(_vector(_package(selected, [])), _package(selected, [])) == set()


#: Replies a stranger may send that are legal JSON but not the package's shapes.
ODD_REPLIES: list[Any] = [
    None, [], "package", {"package": []}, {"package": {"selection": "x"}},
    {"package": {"selection": {"selected": {"a": 1}, "dropped": "m0"}}},
    {"package": {"selection": {"selected": [1, None, "a"], "dropped": [1, None, "m0"]}}},
    {"package": {"selection": {"selected": [{"memory_id": "a", "score": True}],
                               "dropped": [{"memory_id": ["m0"]}]}}},
    {"package": {"selection": {"selected": [{"memory_id": "a", "score": "1.79"}],
                               "dropped": []}}, "error": "not an object"},
]  # fmt: skip


@pytest.mark.parametrize("reply", ODD_REPLIES, ids=lambda r: type(r).__name__)
def test_odd_but_legal_json_suggests_no_value(reply: Any) -> None:
    """Whatever shape a stranger's reply has, neither inference raises; none suggests a value
    from parts that are not a dropped list of entries or a numeric score."""
    vector = _vector(_package([{"memory_id": "a", "score": 1.7937005259840998}], FIVE_DROPS))
    assert _score_decimals(vector, reply) == set()
    drops = _first_drops(vector, reply)
    assert drops <= {0}  # an empty dropped list is a cut to zero; nothing else is read


class TestValues:
    """The values tried: those most failing vectors suggest, a few at most, as reading IDs."""

    def test_most_suggested_value_first(self) -> None:
        """Two vectors cut to 3 drops and one to 2: n=3 is tried first, then n=2."""
        parameters = reading_parameters()
        candidates = [
            (_vector(_package([], FIVE_DROPS), "v1"), _package([], FIVE_DROPS[:3])),
            (_vector(_package([], FIVE_DROPS), "v2"), _package([], FIVE_DROPS[:3])),
            (_vector(_package([], FIVE_DROPS), "v3"), _package([], FIVE_DROPS[:2])),
        ]
        readings, sources = _values(parameters, candidates)
        assert readings["INT-28/list-first-n-drops"] == [
            "INT-28/list-first-n-drops(n=3)",
            "INT-28/list-first-n-drops(n=2)",
        ]
        assert sources["INT-28/list-first-n-drops(n=3)"] == {"v1", "v2"}

    @pytest.mark.parametrize(
        ("reading", "valid"),
        [
            ("INT-28/list-first-n-drops(n=3)", True),
            ("INT-28/list-first-n-drops(n=03)", False),
            ("INT-28/list-first-n-drops(k=3)", False),
            ("INT-28/list-first-n-drops", False),
            ("INT-04/round-recency-bonus-fixed(decimals=31)", False),
            ("INT-08/verbatim(n=1)", False),
        ],
    )
    def test_a_declared_value_is_checked(self, reading: str, valid: bool) -> None:
        """A declared reading with a value is tried only when its parameter takes it."""
        assert _declared_value(reading, reading_parameters()) is valid


class TestRegisterParameters:
    """The register's ``parameters`` tables."""

    def test_every_parameter_has_an_inference(self) -> None:
        """Each parameterized alternative of the register is one the certifier reads a value
        for, and its checked values are values it takes."""
        parameters = reading_parameters()
        assert set(parameters) == set(INFERENCES)
        for parameter in parameters.values():
            assert parameter.check
            assert all(parameter.takes(v) for v in parameter.check)

    def test_instances_carry_the_checked_values(self) -> None:
        """An entry's instances name a parameterized alternative once per checked value."""
        entry = next(e for e in load_interpretations() if e.id == "INT-28")
        assert [i for i in entry.instances() if i.startswith("INT-28/list-first-n-drops")] == [
            "INT-28/list-first-n-drops(n=1)",
            "INT-28/list-first-n-drops(n=3)",
        ]

    @pytest.mark.parametrize(
        ("reading", "split"),
        [
            ("INT-28/list-first-n-drops(n=3)", ("INT-28/list-first-n-drops", "n", 3)),
            ("INT-08/verbatim", ("INT-08/verbatim", None, None)),
            ("INT-28/list-first-n-drops(n=-3)", ("INT-28/list-first-n-drops(n=-3)", None, None)),
        ],
    )
    def test_split_reading_id(self, reading: str, split: tuple[Any, ...]) -> None:
        """A reading ID splits into its alternative, parameter and value (none when absent or
        not written as a decimal int)."""
        assert split_reading_id(reading) == split

    @pytest.mark.parametrize(
        "raw",
        [{"min": 0}, {"name": "n", "min": "0"}, {"name": "n", "check": ["1"]}, "n"],
    )
    def test_malformed_parameter_is_refused(self, raw: Any) -> None:
        """A parameter without a name, with non-int bounds or checks, or not a table, is an
        error."""
        with pytest.raises((KeyError, TypeError)):
            parse_parameter(raw)


class TestDeclared:
    """``--readings FILE`` accepts a parameterized reading with its value."""

    def test_a_reading_with_a_value_is_read(self, tmp_path: Path) -> None:
        """A line ``INT-28/list-first-n-drops(n=3)`` is one declared reading."""
        path = tmp_path / "readings.txt"
        path.write_text("INT-28/list-first-n-drops(n=3)  # ours\nINT-08/verbatim\n", "utf-8")
        assert read_declared_readings(path) == ("INT-28/list-first-n-drops(n=3)", "INT-08/verbatim")

    @pytest.mark.parametrize(
        "line", ["INT-28/list-first-n-drops(n=)", "INT-28/x(n=3", "INT-28/x()"]
    )
    def test_a_malformed_value_is_a_usage_error(self, tmp_path: Path, line: str) -> None:
        """A value that is not ``(name=digits)`` is refused with the line it is on."""
        path = tmp_path / "readings.txt"
        path.write_text(line + "\n", "utf-8")
        with pytest.raises(UsageError, match="line 1"):
            read_declared_readings(path)
