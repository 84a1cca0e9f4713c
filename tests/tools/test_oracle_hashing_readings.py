"""The hashes-only alternatives (``hashes_only`` in ``reference/_readings.py``, ``PACKAGE_WIDE``
of ``tools/oracle.py``: they change the hashes of every package, and nothing else), run by both
sides on the hashing, records and package vectors: the reference and the oracle,
each written from the register text, agree, and most packages change."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

import pytest

from conformance.corpus import load_corpus, materialize
from conformance.run import compare_result
from reference import Readings, memory_read
from reference._alternatives import applied
from reference._readings import ALTERNATIVES as _ALL
from tools.oracle import PACKAGE_WIDE as ORACLE_PACKAGE_WIDE
from tools.oracle import OracleUndefined, oracle_read

PACKAGE_WIDE = {key: alt for key, alt in _ALL.items() if alt.hashes_only}

VECTORS = [
    vector
    for vector in load_corpus()
    if vector.id.startswith(("hash", "package-", "records-", "inv-valid-"))
]


def _as_expect(result: dict[str, Any]) -> dict[str, Any]:
    if "error" in result:
        return {"error": {k: result["error"][k] for k in ("code", "path")}}
    return result


def test_both_sides_hold_back_the_same() -> None:
    """The oracle holds back exactly the alternatives the reference holds back."""
    assert set(ORACLE_PACKAGE_WIDE) == set(PACKAGE_WIDE)


@pytest.mark.parametrize("alternative", sorted(PACKAGE_WIDE))
def test_reference_and_oracle_agree(alternative: str, tmp_path: Path) -> None:
    """Under the alternative the two agree on every vector, and most packages' expected output
    (the pinned readings') changes."""
    readings = applied(Readings(), [alternative], PACKAGE_WIDE)[0]
    disagreements, unchanged = [], []
    for index, vector in enumerate(VECTORS):
        root = tmp_path / str(index)
        materialize(vector, root)
        with contextlib.chdir(root):
            expected = memory_read(vector.request, readings=readings)
        try:
            actual = oracle_read(vector.request, root, readings=frozenset([alternative]))
        except OracleUndefined:
            continue
        difference = compare_result(_as_expect(expected), actual)
        if difference is not None:
            disagreements.append(f"{vector.id}: {difference.describe()}")
        if "package" in vector.expect and compare_result(vector.expect, actual) is None:
            unchanged.append(vector.id)
    assert not disagreements, "\n".join(disagreements)
    packages = sum("package" in vector.expect for vector in VECTORS)
    assert len(unchanged) < packages / 2, unchanged
