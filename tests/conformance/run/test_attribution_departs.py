"""Which misses count against an alternative (conformance/run/_attribution.py ``_departs``): a
failure the alternative changes but does not reproduce is evidence against it only where the
implementation departs from it on what it changes, not where another difference shows."""

from __future__ import annotations

from typing import Any

import pytest

from conformance.corpus import Vector, vector_from_json
from conformance.run._attribution import _departs


def _vector(expect: dict[str, Any]) -> Vector:
    raw = {
        "id": "v1",
        "description": "d",
        "clauses": [],
        "interpretations": [],
        "level": "pinned",
        "input": {"request": {}, "files": {}},
        "expect": expect,
    }
    return vector_from_json(raw, area="t", file="", source="test")


def _error(code: str, path: str) -> dict[str, Any]:
    return {"error": {"code": code, "path": path, "message": "m"}}


def _scored(score: float, excerpt: str = "a") -> dict[str, Any]:
    item = {"memory_id": "m1", "score": score, "excerpt": excerpt}
    return {"package": {"selection": {"selected": [item]}}, "receipt": {}}


NOW = _vector({"error": {"code": "invalid_now_utc", "path": "/now_utc"}})
SCORED = _vector({"package": _scored(0.5)["package"]})


@pytest.mark.parametrize(
    ("vector", "output", "actual", "departs"),
    [
        pytest.param(
            NOW, _error("invalid_trust_snapshot", "/trust_filter"), _scored(0.5), False,
            id="now-ignored-then-another-fault-read-otherwise",
        ),
        pytest.param(
            NOW, _scored(0.5), _error("store_not_found", "/store_paths"), False,
            id="now-ignored-then-another-error",
        ),
        pytest.param(
            NOW, _scored(0.5), _error("invalid_input", "/now_utc"), True,
            id="still-rejects-what-the-alternative-accepts",
        ),
        pytest.param(
            SCORED, _error("invalid_query", "/query"), _scored(0.5, "b"), True,
            id="accepts-what-the-alternative-rejects",
        ),
        pytest.param(
            SCORED, _error("invalid_query", "/query"), _error("other", "/query"), False,
            id="rejects-the-same-member-otherwise",
        ),
        pytest.param(
            SCORED, _scored(0.25), _scored(0.3), True,
            id="a-third-value-where-the-alternative-acts",
        ),
        pytest.param(
            SCORED, _scored(0.25), _scored(0.5), True,
            id="the-pinned-value-where-the-alternative-acts",
        ),
        pytest.param(
            SCORED, _scored(0.25), _scored(0.25, "b"), False,
            id="the-alternatives-value-another-difference-elsewhere",
        ),
    ],
)  # fmt: skip
def test_departs(vector: Vector, output: Any, actual: Any, departs: bool) -> None:
    """A miss is counter-evidence exactly when the implementation differs from the
    alternative's output on the member the alternative changes."""
    assert _departs(vector, output, actual) is departs
