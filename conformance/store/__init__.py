"""SPEC-005 store tooling: ``phase6 store check`` on real memory stores.

Owns the SPEC-005 rules table (codes, levels, clauses), the canonical forms a record hash is
recognized under (INT-47), the per-line checks (fields, types, UTC-only timestamps, the record
hash) with each line's SPEC-006 verdict, the store-level checks (duplicate ids, corrections,
the final newline), safe streaming reads of untrusted paths, and the ``store-check`` report
(text and JSON, streamed).

Modules, in the order data flows: ``_rules`` (tables) -> ``_forms`` (canonical forms) ->
``_lines`` (one line) -> ``_read`` (opening, splitting) -> ``_check`` (a store, a run, the
report model) -> ``_render`` (output).

May import: ``conformance._kit``, ``conformance._errors``, :mod:`conformance.readings` (the
same timestamp and JSON readings the rest of the kit uses).
"""

from __future__ import annotations

from conformance.store._check import (
    FORMAT,
    CheckReport,
    LineResult,
    NoticeSummary,
    Options,
    StoreReport,
    StoreScan,
    StoreSummary,
    check_bytes,
    check_paths,
    check_store,
)
from conformance.store._forms import FORMS, HashForm
from conformance.store._lines import Finding
from conformance.store._read import MAX_LINE_BYTES, PathError
from conformance.store._render import (
    MAX_LISTED_LINES,
    codes_json,
    render_codes,
    render_json,
    render_text,
    run_check,
)
from conformance.store._rules import CODES, LEVELS, PATH_ERRORS, S5_CLAUSES, Code

__all__ = [
    "CODES",
    "FORMAT",
    "FORMS",
    "LEVELS",
    "MAX_LINE_BYTES",
    "MAX_LISTED_LINES",
    "PATH_ERRORS",
    "S5_CLAUSES",
    "CheckReport",
    "Code",
    "Finding",
    "HashForm",
    "LineResult",
    "NoticeSummary",
    "Options",
    "PathError",
    "StoreReport",
    "StoreScan",
    "StoreSummary",
    "check_bytes",
    "check_paths",
    "check_store",
    "codes_json",
    "render_codes",
    "render_json",
    "render_text",
    "run_check",
]
