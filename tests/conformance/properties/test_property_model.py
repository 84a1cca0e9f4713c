"""The kit's model (conformance.properties._model) agrees with mpmath and with the oracle."""

from __future__ import annotations

import tempfile
from pathlib import Path

import mpmath
from hypothesis import given
from hypothesis import strategies as st
from property_support import KIT_SETTINGS

from conformance.properties import build_model
from conformance.properties._model import pow_half
from conformance.strategies import Scenario, scenarios
from tools import oracle as _oracle


class TestPowHalf:
    """INT-04: "weight = pow(0.5, exponent) and MUST be the correctly rounded double of the
    exact value 2**-exponent" (platform pow is not correctly rounded)."""

    @KIT_SETTINGS
    @given(st.floats(min_value=0.0, max_value=80.0, allow_nan=False, exclude_min=True))
    def test_decimal_pow_is_correctly_rounded(self, exponent: float) -> None:
        """The 60-digit decimal power rounds to the same double as mpmath at 80 digits."""
        with mpmath.workdps(80):
            exact = float(mpmath.power(2, -mpmath.mpf(exponent)))
        assert pow_half(exponent) == exact

    def test_known_hazard(self) -> None:
        """An exponent where glibc's pow is off by one ulp still gets the right double."""
        exponent = 3.8580246913580246e-16
        with mpmath.workdps(80):
            exact = float(mpmath.power(2, -mpmath.mpf(exponent)))
        assert pow_half(exponent) == exact


class TestModelAgreesWithOracle:
    """Two independent readings of SPEC-006 (the property model and the vector oracle) select
    the same candidates with the same scores, excerpts and hashes."""

    @KIT_SETTINGS
    @given(scenarios())
    def test_selection_matches_oracle(self, scenario: Scenario) -> None:
        """The model's stop-rule selection equals the oracle's selected list."""
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            scenario.write(root)
            model = build_model(scenario, root)
            oracle = _oracle.oracle_read(scenario.request, root)
        selected, _ = model.selection()
        mine = [
            {
                "memory_id": line.memory_id,
                "record_hash": line.record_hash,
                "store_path": line.store_path,
                "score": model.score(line),
                "excerpt": model.excerpt(line)[0],
                "excerpt_tokens": model.excerpt(line)[1],
            }
            for line in selected
        ]
        assert mine == oracle["package"]["selection"]["selected"]
        assert model.query_hash == oracle["package"]["query"]["query_hash"]

    @KIT_SETTINGS
    @given(scenarios())
    def test_drop_reasons_match_oracle(self, scenario: Scenario) -> None:
        """The model's reason for every line that is not selected equals the oracle's."""
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            scenario.write(root)
            model = build_model(scenario, root)
            oracle = _oracle.oracle_read(scenario.request, root)
        _, fates = model.selection()
        mine = [
            (line.store_path, line.memory_id, line.record_hash, fates[line.read_index])
            for line in model.lines
            if line.read_index in fates
        ]
        theirs = [
            (d["store_path"], d["memory_id"], d["record_hash"], d["reason"])
            for d in oracle["package"]["selection"]["dropped"]
        ]
        assert mine == theirs
