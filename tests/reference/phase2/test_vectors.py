"""The Phase 2 corpus: well formed, current, covering, and passed by the reference engine
in-process, on SQLite files and on PostgreSQL, and by the independent oracle."""

from __future__ import annotations

from typing import Any

import pytest

from conformance.phase2 import compare, property_failures, trim_order_failure
from reference.phase2 import observe_call, open_store, run_vector_call
from tools.generate.phase2.build import (
    COVERAGE,
    VECTORS,
    build,
    coverage_gaps,
    coverage_markdown,
    read_corpus,
)
from tools.phase2_oracle import oracle_expect

CORPUS = read_corpus()
BY_ID = {vector["id"]: vector for vector in CORPUS}


def _run(vector: dict[str, Any]) -> tuple[Any, Any, Any]:
    return vector["input"]["fixture"], vector["input"]["call"], vector["expect"]


class TestCorpus:
    """Shape, size, identity and coverage."""

    def test_size(self) -> None:
        """At least 300 vectors, at least 60 of them hand-worked; IDs unique."""
        assert len(CORPUS) >= 300
        assert sum(1 for v in CORPUS if "-h" in v["id"]) >= 60
        assert len(BY_ID) == len(CORPUS)

    def test_every_clause_and_interpretation_has_vectors(self) -> None:
        """Every clause verified by vectors is named, every interpretation pinned."""
        assert coverage_gaps(CORPUS) == []

    def test_corpus_is_current(self) -> None:
        """Regenerating gives the committed bytes (never hand-edit generated files)."""
        outputs, vectors = build()
        assert sorted(outputs) == sorted(p.name for p in VECTORS.glob("*.json"))
        for name, data in outputs.items():
            assert (VECTORS / name).read_bytes() == data, name
        assert COVERAGE.read_text("utf-8") == coverage_markdown(vectors)


@pytest.mark.parametrize("vid", sorted(BY_ID))
def test_reference_in_process(vid: str) -> None:
    """The reference passes the vector through its in-process entry, invariants included."""
    fixture, call, expect = _run(BY_ID[vid])
    observed = run_vector_call(fixture, call)
    assert [str(d) for d in compare(fixture, call, expect, observed)] == []
    assert property_failures(fixture, call, observed) == []


def test_oracle_agrees() -> None:
    """The independent oracle expects exactly what every vector records."""
    wrong = [v["id"] for v in CORPUS if oracle_expect(*_run(v)[:2]) != v["expect"]]
    assert wrong == []


def test_every_vector_on_a_database(db_url: str) -> None:
    """The same corpus on a SQLite file and on PostgreSQL: load, call, dump, compare."""
    failures = []
    for vector in CORPUS:
        fixture, call, expect = _run(vector)
        with open_store(db_url) as store:
            store.load(fixture)
            observed = observe_call(store, call)
        differences = compare(fixture, call, expect, observed)
        if differences:
            failures.append(f"{vector['id']}: {differences[0]}")
    assert failures == []


def test_trim_order_property() -> None:
    """Every budget vector, against the same call without max_tokens, keeps the trim order."""
    for vector in CORPUS:
        fixture, call, _ = _run(vector)
        if call["op"] != "context" or not any(name == "max_tokens" for name, _ in call["params"]):
            continue
        untrimmed = {**call, "params": [p for p in call["params"] if p[0] != "max_tokens"]}
        failure = trim_order_failure(
            run_vector_call(fixture, call), run_vector_call(fixture, untrimmed)
        )
        assert failure is None, vector["id"]
