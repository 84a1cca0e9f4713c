"""The report section ``audit``: the capability ``audit``, checked on the corpus's vectors.

An implementation declaring ``audit`` in its handshake (specs/protocol.md section 4) answers a
run with its SPEC-003 assembly record too; for a sample of the corpus (every
:data:`SAMPLE_EVERY`-th vector in ID order, or every vector with the section option
``audit=all``), the record is compared with what the vector determines (`_expected`). The
section never affects the phase6-v1 verdict and is optional: an implementation without the
capability is reported "not declared", and its certification is not partial for it.

The implementation runs in roots of a private :class:`~conformance.corpus.Workspace` named at
random (an implementation cannot plant a symlink where the next root will be). Its record is
then checked against the vector's own bytes: the store identities and line numbers
(`_expected`) are computed from the files the vector describes (within the corpus's size
caps), never from a directory, and never from whatever the implementation left in its root (a
store swapped for a symlink to a 3 GiB sparse file cost 3.3 GB when it was read from there).
"""

from __future__ import annotations

import secrets

from conformance._errors import AdapterError, CorpusError
from conformance.adapters import SubprocessAdapter, open_adapter
from conformance.audit._expected import fixture_bytes, record_problems
from conformance.corpus import Workspace
from conformance.run import Outcome, Section, SectionContext, SectionItem

__all__ = ["AUDIT_CAPABILITY", "SAMPLE_EVERY", "certify_section"]

AUDIT_CAPABILITY = "audit"
SAMPLE_EVERY = 4
#: The clauses a record check verifies (specs/clauses.toml, S3-*).
CLAUSES = ("S3-AUDIT-01", "S3-RET-03", "S3-ASM-02", "S3-ASM-04", "S3-ASM-05", "S3-ASM-06")
_TITLE = "Capability audit: SPEC-003 assembly records"


def certify_section(context: SectionContext) -> Section:
    """Report-section provider ``audit`` (in SECTION_PROVIDERS)."""
    every = 1 if context.options.get("audit") == "all" else SAMPLE_EVERY
    vectors = context.corpus.vectors[::every]
    with open_adapter(context.adapter_spec, timeout=context.timeout) as adapter:
        handshake = adapter.start()
        if AUDIT_CAPABILITY not in handshake.capabilities or not isinstance(
            adapter, SubprocessAdapter
        ):
            return Section(
                name="audit",
                title=_TITLE,
                status=Outcome.SKIPPED,
                summary="capability audit not declared: not checked (no penalty on phase6-v1)",
                data={"declared": False},
                affects_verdict=False,
                optional=True,
            )
        items = []
        runs = Workspace(prefix="tmp")
        try:
            for vector in vectors:
                name = secrets.token_hex(8)  # unpredictable: nothing can be planted there
                try:
                    root = runs.materialize(name, vector)
                    result, record = adapter.run_audited(vector.request_json, root)
                except (AdapterError, CorpusError, OSError) as exc:
                    items.append(SectionItem(vector.id, Outcome.ERRORED, CLAUSES, str(exc)))
                    continue
                finally:
                    runs.remove(name)
                # the fixture's own bytes, from the vector: nothing is read back from a directory
                problems = record_problems(
                    vector.request, vector.expect, result, record, fixture_bytes(vector)
                )
                outcome = Outcome.FAILED if problems else Outcome.PASSED
                items.append(SectionItem(vector.id, outcome, CLAUSES, "; ".join(problems)))
        finally:
            runs.close()
    bad = [item for item in items if item.bad]
    status = Outcome.FAILED if bad else Outcome.PASSED
    if any(item.outcome is Outcome.ERRORED for item in bad):
        status = Outcome.ERRORED
    return Section(
        name="audit",
        title=_TITLE,
        status=status,
        summary=f"declared; {len(items) - len(bad)}/{len(items)} records as the vectors "
        f"determine (every {every} vector(s) of the corpus); outside the phase6-v1 verdict",
        items=tuple(items),
        data={"declared": True, "checked": len(items), "failed": len(bad)},
        affects_verdict=False,
        optional=True,
    )
