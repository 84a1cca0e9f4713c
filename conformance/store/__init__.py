"""SPEC-005 store tooling: ``phase6 store check`` on real memory stores.

Owns the SPEC-005 rules table (codes, clauses), the per-line checks (fields, types, UTC-only
timestamps, the record hash) with each line's SPEC-006 verdict, the store-level checks
(duplicate ids, corrections, the final newline) and the ``store-check`` JSON report.

May import: ``conformance._kit``, ``conformance._errors``, :mod:`conformance.readings` (the
same timestamp and JSON readings the rest of the kit uses).
"""

from __future__ import annotations

from conformance.store._check import (
    FORMAT,
    CheckReport,
    LineResult,
    StoreReport,
    Violation,
    check_bytes,
    check_paths,
    check_store,
    codes_json,
    render_codes,
    render_text,
)
from conformance.store._rules import CODES, S5_CLAUSES, Code

__all__ = [
    "CODES",
    "FORMAT",
    "S5_CLAUSES",
    "CheckReport",
    "Code",
    "LineResult",
    "StoreReport",
    "Violation",
    "check_bytes",
    "check_paths",
    "check_store",
    "codes_json",
    "render_codes",
    "render_text",
]
