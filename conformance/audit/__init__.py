"""SPEC-003 assembly records (``phase6-audit/1``, specs/audit.md): verification and replay.

Owns ``audit verify``: a record's store identities checked against the stores now or at a git
commit (a store that grew is verified on its recorded-length prefix; a changed prefix is
reported with its first differing line), then the request replayed by the reference or any
adapter and its package_hash and ranking compared.

May import: ``conformance._kit``, ``conformance._errors``, ``conformance._schemas``,
``conformance.readings`` (the record hashes of changed lines), ``conformance.adapters``
(replay by any implementation), ``conformance.corpus`` and ``conformance.run`` (the report
section ``audit``: the capability checked on vectors, `_section`). Never the reference: it is
run as a subprocess.
"""

from __future__ import annotations

from conformance.audit._sources import GitSource, Source, TreeSource, source_for
from conformance.audit._verify import (
    AUDIT_SCHEMA,
    Limits,
    StoreCheck,
    Verification,
    adapter_runner,
    check_record,
    first_differing_line,
    load_record,
    reference_runner,
    render_summary,
    verify_record,
)

__all__ = [
    "AUDIT_SCHEMA",
    "GitSource",
    "Limits",
    "Source",
    "StoreCheck",
    "TreeSource",
    "Verification",
    "adapter_runner",
    "check_record",
    "first_differing_line",
    "load_record",
    "reference_runner",
    "render_summary",
    "source_for",
    "verify_record",
]
