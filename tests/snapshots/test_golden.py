"""Golden snapshots: reference packages for the sample stores, the corpus and the registers.

Any change to the reference's output on ``adam_os_data/memory/``, to the vector corpus, to the
coverage table or to the property-family table shows up as a snapshot diff in review.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from syrupy.assertion import SnapshotAssertion

from conformance import (
    compute_coverage,
    load_clauses,
    load_corpus,
    load_interpretations,
    open_adapter,
)
from conformance.properties import FAMILIES, INVARIANCES
from conformance.registers._coverage import coverage_json

ROOT = Path(__file__).resolve().parents[2]
MEMORY = "adam_os_data/memory"
EPISODIC = f"{MEMORY}/episodic.jsonl"
SEMANTIC = f"{MEMORY}/semantic.jsonl"
PROCEDURAL = f"{MEMORY}/procedural.jsonl"
LEDGER = f"{MEMORY}/ledger.jsonl"
TRUST = "tests/snapshots/fixtures/trust-deny.json"

#: Realistic requests over the sample stores (paths relative to the repository root).
REQUESTS: dict[str, dict[str, Any]] = {
    "kitchen-renovation": {
        "query": "kitchen renovation quote",
        "store_paths": [SEMANTIC, EPISODIC],
        "budget": {"max_excerpt_tokens": 200, "max_items": 5},
    },
    "weekly-review-sop": {
        "query": "Weekly review",
        "store_paths": [PROCEDURAL],
        "budget": {"max_excerpt_tokens": 64, "per_item_max_excerpt_tokens": 32},
    },
    "half-marathon-recency": {
        "query": "half marathon result",
        "store_paths": [EPISODIC, SEMANTIC],
        "budget": {"max_excerpt_tokens": 120, "max_items": 4},
        "scoring": {"enable_recency_weight": True, "recency_half_life_days": 14},
        "now_utc": "2025-04-01T00:00:00Z",
    },
    "priya-supplied-terms": {
        "query": "What does Priya prefer?",
        "store_paths": [SEMANTIC],
        "budget": {"max_excerpt_tokens": 40},
        "scoring": {"enable_tag_overlap": False, "query_terms": ["Priya", "PREFER"]},
    },
    "phase6-all-stores-tight": {
        "query": "phase 6 memory controller",
        "store_paths": [PROCEDURAL, SEMANTIC, EPISODIC],
        "budget": {"max_excerpt_tokens": 30, "per_item_max_excerpt_tokens": 10},
    },
    "budget-max-items": {
        "query": "budget check-in groceries",
        "store_paths": [EPISODIC],
        "budget": {"max_excerpt_tokens": 10_000, "max_items": 3},
    },
    "kitchen-trust-denied": {
        "query": "kitchen",
        "store_paths": [EPISODIC],
        "budget": {"max_excerpt_tokens": 100, "max_items": 6},
        "trust_filter": {"trust_snapshot_path": TRUST},
    },
    "unicode-whitespace-query": {
        "query": "\u3000 Kitchen\u00a0CONTRACT \t",
        "store_paths": [f"./{EPISODIC}", EPISODIC],
        "budget": {"max_excerpt_tokens": 48},
    },
    "ledger-is-not-a-memory-store": {
        "query": "memory write",
        "store_paths": [LEDGER],
        "budget": {"max_excerpt_tokens": 50},
    },
}


@pytest.fixture(scope="module")
def results() -> dict[str, Any]:
    """The reference's result for every request, through the harness's in-process adapter."""
    adapter = open_adapter("python:reference:memory_read")
    adapter.start()
    try:
        return {name: adapter.run(_json(request), ROOT) for name, request in REQUESTS.items()}
    finally:
        adapter.close()


def _json(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False).encode("utf-8")


class TestSampleStores:
    """SPEC-006 packages for ``adam_os_data/memory`` as the reference computes them."""

    def test_sample_stores_exist(self) -> None:
        """The four sample stores the golden packages read are present and non-empty."""
        for path in (EPISODIC, SEMANTIC, PROCEDURAL, LEDGER):
            assert (ROOT / path).stat().st_size > 0, path

    @pytest.mark.parametrize("name", sorted(REQUESTS))
    def test_golden_package(
        self, name: str, results: dict[str, Any], snapshot_json: SnapshotAssertion
    ) -> None:
        """The whole result (package and receipt) equals its golden snapshot."""
        assert "package" in results[name], results[name]
        assert results[name] == snapshot_json

    @pytest.mark.parametrize("name", sorted(REQUESTS))
    def test_package_hash(
        self, name: str, results: dict[str, Any], snapshot_json: SnapshotAssertion
    ) -> None:
        """package_hash alone equals its snapshot (a one-line diff when anything changes)."""
        digest = results[name]["package"]["package_hash"]
        assert results[name]["receipt"]["data"]["package_hash"] == digest
        assert {"package_hash": digest} == snapshot_json


class TestCorpusAndRegisters:
    """The corpus digest, the coverage table and the property-family table."""

    def test_corpus_digest(self, snapshot_json: SnapshotAssertion) -> None:
        """The corpus digest and every file's digest equal the snapshot (no silent edits)."""
        corpus = load_corpus()
        state = {
            "digest": corpus.digest,
            "vectors": len(corpus),
            "files": {f.path: f.digest for f in corpus.files},
        }
        assert state == snapshot_json

    def test_coverage_table(self, snapshot_json: SnapshotAssertion) -> None:
        """The clause and interpretation coverage of the corpus equals the snapshot."""
        coverage = compute_coverage(load_corpus(), load_clauses(), load_interpretations())
        assert coverage_json(coverage) == snapshot_json

    def test_property_families(self, snapshot_json: SnapshotAssertion) -> None:
        """Which clauses each property family (and each invariance) checks equals the snapshot."""
        table = {
            "families": {
                f.name: {
                    "clauses": list(f.clauses),
                    "interpretations": list(f.interpretations),
                    "examples": f.examples,
                }
                for f in FAMILIES.values()
            },
            "invariances": {
                i.name: {"clauses": list(i.clauses), "scope": i.scope} for i in INVARIANCES.values()
            },
        }
        assert table == snapshot_json
