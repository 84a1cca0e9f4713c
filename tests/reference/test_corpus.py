"""The whole vector corpus against the reference, in process: every vector is one test.

This is what ``nox -s certify`` checks through the subprocess adapter, at unit-test speed, so
that ``nox -s tests`` fails on any change of the reference's behaviour with the vector's ID,
its clauses and the first differing JSON path (not only on a snapshot diff).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.corpus import Vector, load_corpus, materialize
from conformance.run import compare_result
from reference import memory_read

CORPUS = load_corpus()


@pytest.fixture
def vector_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh directory the reference runs in (relative store paths resolve against it)."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("vector", CORPUS.vectors, ids=lambda v: v.id)
def test_vector(vector: Vector, vector_root: Path) -> None:
    """The reference's result equals the vector's expectation (INT-48 comparison)."""
    materialize(vector, vector_root)
    difference = compare_result(vector.expect, memory_read(vector.request))
    assert difference is None, (
        f"{vector.id} ({', '.join(vector.clauses + vector.interpretations)}): "
        f"{difference.describe()}"
    )


def test_corpus_is_not_empty() -> None:
    """The corpus this module parametrizes over is the kit's own, with every area present."""
    assert len(CORPUS) >= 1895
    assert {"truncation", "trust", "hashing", "errors"} <= set(CORPUS.areas)
