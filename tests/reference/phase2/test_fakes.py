"""Each fake engine fails vectors on the clause it breaks; the control passes everything.

The vectors run through each fake's in-process entry, the way the harness will run any
implementation (specs/protocol.md, P2.3), and are judged by the comparator and the invariants
of the harness (conformance.phase2).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

import pytest
from phase2_fakes import CONTROLS, FAKES

from conformance.phase2 import compare, property_failures, trim_order_failure
from tools.generate.phase2.build import read_corpus

CORPUS = read_corpus()
#: fake -> vectors it must fail (a witness each, checked to name the broken clause) and the
#: property it must break.
WITNESSES = {
    "trims_summary_first": ("p2-budget-h002", "trim-order"),
    "counts_tokens_differently": ("p2-tokens-h004", "sources-match-context"),
    "exceeds_budget": ("p2-budget-h005", "budget"),
    "compaction_deletes_summaries": ("p2-compact-h002", None),
    "endpoint_writes_rows": ("p2-errors-h001", "no-writes"),
}


def _entry(name: str) -> tuple[Callable[[Any, Any], Any], str]:
    module = importlib.import_module(f"phase2_fakes.{name}")
    return module.run_vector_call, module.BREAKS


def _failing(run: Callable[[Any, Any], Any]) -> list[dict[str, Any]]:
    failing = []
    for vector in CORPUS:
        fixture, call = vector["input"]["fixture"], vector["input"]["call"]
        if compare(fixture, call, vector["expect"], run(fixture, call)):
            failing.append(vector)
    return failing


@pytest.mark.parametrize("name", FAKES)
def test_fake_fails_on_its_clause(name: str) -> None:
    """The fake fails vectors, its witness among them, and those vectors name its clause."""
    run, clause = _entry(name)
    failing = _failing(run)
    on_clause = [v["id"] for v in failing if clause in v["clauses"]]
    witness, _ = WITNESSES[name]
    assert witness in on_clause, f"{name}: {len(failing)} failures, none is {witness}"
    assert on_clause, f"{name} fails no vector naming {clause}"


@pytest.mark.parametrize("name", [n for n in FAKES if WITNESSES[n][1] is not None])
def test_fake_breaks_its_property(name: str) -> None:
    """The property table catches the fault without a pinned expectation."""
    run, _ = _entry(name)
    witness, prop = WITNESSES[name]
    vector = next(v for v in CORPUS if v["id"] == witness)
    fixture, call = vector["input"]["fixture"], vector["input"]["call"]
    observed = run(fixture, call)
    if prop == "trim-order":
        untrimmed = {**call, "params": [p for p in call["params"] if p[0] != "max_tokens"]}
        assert trim_order_failure(observed, run(fixture, untrimmed)) is not None
    else:
        assert prop in {name for name, _ in property_failures(fixture, call, observed)}


@pytest.mark.parametrize("name", CONTROLS)
def test_control_passes(name: str) -> None:
    """Writing exactly the allowed memory_context_previewed event fails nothing (P2-INT-20)."""
    run, _ = _entry(name)
    assert [v["id"] for v in _failing(run)] == []
