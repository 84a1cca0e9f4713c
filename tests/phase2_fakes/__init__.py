"""Deliberately wrong Phase 2 engines, one failure mode each (Bowtie's miniatures).

Each module is the reference engine with one fault patched in, and exports
``run_vector_call(fixture, call)`` like the reference (the in-process entry of
specs/protocol.md, P2.3), plus ``BREAKS``: the clause its fault violates. The certification
work uses them to prove that ``certify --profile phase2-context`` says non-compliant on the
right clause; tests/reference/phase2/test_fakes.py proves today that each fails vectors naming it.
``observes_once`` is the control: it writes the one allowed observability event and must pass.
"""

from __future__ import annotations

FAKES = (
    "trims_summary_first",
    "counts_tokens_differently",
    "exceeds_budget",
    "compaction_deletes_summaries",
    "endpoint_writes_rows",
)
CONTROLS = ("observes_once",)
