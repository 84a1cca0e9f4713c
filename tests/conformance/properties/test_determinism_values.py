"""The determinism family asks one question, whether the same input gives the same result: a
result outside RFC 8785's domain (an integer past 2**53, which Go and Java implementations
echo) is judged by its values, not failed for the canonicalizer's limits."""

from __future__ import annotations

from typing import Any, cast

import pytest

from conformance.properties._behaviour import check_determinism
from conformance.properties._probe import Probe, PropertyFailure
from conformance.properties._shape import Case
from conformance.strategies import Scenario

BIG = 2**53  # the first integer RFC 8785 cannot write exactly as a double


class _Replies:
    """A stand-in for the probe: the first run, the second run, the fresh process's run."""

    def __init__(self, *results: Any):
        self._results = list(results)

    def run(self, scenario: Scenario) -> Any:
        return self._results.pop(0)

    def run_fresh(self, scenario: Scenario) -> Any:
        return self._results.pop(0)


def _result(max_items: float) -> dict[str, Any]:
    return {"package": {"budget": {"max_items": max_items}}, "receipt": {"kind": "memory.read"}}


def _check(*results: Any) -> None:
    case = Case(cast(Scenario, None))
    check_determinism(cast(Probe, _Replies(*results)), case)


class TestValuesPastTheCanonicalDomain:
    """Integers RFC 8785 refuses are compared as values."""

    def test_the_same_big_integer_three_times_is_deterministic(self) -> None:
        """2**53 echoed by every run passes: nothing differs."""
        _check(_result(BIG), _result(BIG), _result(BIG))

    def test_a_big_integer_that_changes_is_still_caught(self) -> None:
        """2**53 then 2**53 + 1 in the fresh process fails, naming the member that differs."""
        with pytest.raises(PropertyFailure, match=r"freshly started process.*max_items"):
            _check(_result(BIG), _result(BIG), _result(BIG + 1))

    def test_an_integer_and_a_float_of_one_value_differ(self) -> None:
        """2**53 then 2**53 as a float is another result (strict comparison)."""
        with pytest.raises(PropertyFailure, match="second run"):
            _check(_result(BIG), _result(float(BIG)), _result(BIG))
