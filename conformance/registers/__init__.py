"""The registers: SPEC-006's clauses and the kit's interpretations, and how the corpus covers them.

Owns reading ``specs/clauses.toml`` and ``specs/interpretations.toml``, computing coverage (which
vectors cover each clause, which pin each interpretation; CI fails on a gap) and rendering the
registers and the coverage table to ``specs/*.md``.

May import: ``conformance._kit``, ``conformance._errors``, :mod:`conformance.corpus`.
"""

from __future__ import annotations

from conformance.registers._coverage import (
    MIN_VECTORS,
    ClauseCoverage,
    Coverage,
    InterpretationCoverage,
    compute_coverage,
    coverage_json,
    render_coverage_markdown,
    store_vector_pins,
)
from conformance.registers._docs import render_clauses_markdown, render_interpretations_markdown
from conformance.registers._registers import (
    MAX_REGISTER_BYTES,
    NOT_EXECUTABLE_KINDS,
    RUNTIMES,
    Clause,
    Interpretation,
    ReadingParameter,
    load_clauses,
    load_interpretations,
    parse_parameter,
    read_register,
    split_reading_id,
)

__all__ = [
    "MAX_REGISTER_BYTES",
    "MIN_VECTORS",
    "NOT_EXECUTABLE_KINDS",
    "RUNTIMES",
    "Clause",
    "ClauseCoverage",
    "Coverage",
    "Interpretation",
    "InterpretationCoverage",
    "ReadingParameter",
    "compute_coverage",
    "coverage_json",
    "load_clauses",
    "load_interpretations",
    "parse_parameter",
    "read_register",
    "render_clauses_markdown",
    "render_coverage_markdown",
    "render_interpretations_markdown",
    "split_reading_id",
    "store_vector_pins",
]
