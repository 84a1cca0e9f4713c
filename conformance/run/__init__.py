"""Running and judging: a certification from the corpus to its verdict.

Owns the result model (:class:`Outcome`, :class:`VectorResult`, :class:`Totals`,
:class:`Verdict`, ...; the one definition of outcome names in the kit), comparing a result
with a vector's expectation, the executor that runs one vector (materialize, run, compare,
check the files, repeat), the pool that spreads vectors over workers, judging (the one place a
vector becomes a result, expected failures applied), report sections (the extension point
properties and probes plug into), failure signatures (one line per bug, however many vectors
it breaks), :func:`certify`, ``rerun`` and ``smoke``.

May import: ``conformance._kit``, ``conformance._errors``, :mod:`conformance.corpus`,
:mod:`conformance.adapters`. Section providers are named by string and imported when run, so
nothing here imports the packages that provide them.
"""

from __future__ import annotations

from conformance.run._attribution import (
    Attribution,
    attribute,
    executable_alternatives,
    inconsistency_note,
    readings_answering,
)
from conformance.run._certify import Certification, certify, importable_cwd
from conformance.run._compare import (
    MEMBER_ORDER,
    MISSING,
    Difference,
    compare_result,
    first_difference,
    render_diff,
)
from conformance.run._executor import (
    Executor,
    RunConfig,
    default_temp_parent,
    error_detail,
    fresh_sample,
)
from conformance.run._judge import (
    broken_adapter_result,
    judged,
    reproduce_command,
    skipped_result,
    with_expected_failure,
    with_fresh_process_check,
)
from conformance.run._pool import Breaker, RunOutput, run_vectors
from conformance.run._progress import LISTED, NullProgress, Progress, make_progress
from conformance.run._results import (
    FAILURE_CLAUSES,
    ErrorDetail,
    ErrorKind,
    Failure,
    FailureKind,
    Outcome,
    Totals,
    VectorResult,
    Verdict,
    VerdictValue,
    compute_verdict,
    pinned_cover,
    worst_outcome,
)
from conformance.run._sections import (
    SECTION_PROVIDERS,
    Section,
    SectionContext,
    SectionItem,
    parse_section_option,
    run_section,
)
from conformance.run._signatures import (
    SIGNATURE_VERSION,
    FailureSignature,
    failure_signatures,
    fix_first,
    signature_of,
)
from conformance.run._smoke import smoke

__all__ = [
    "FAILURE_CLAUSES",
    "LISTED",
    "MEMBER_ORDER",
    "MISSING",
    "SECTION_PROVIDERS",
    "SIGNATURE_VERSION",
    "Attribution",
    "Breaker",
    "Certification",
    "Difference",
    "ErrorDetail",
    "ErrorKind",
    "Executor",
    "Failure",
    "FailureKind",
    "FailureSignature",
    "NullProgress",
    "Outcome",
    "Progress",
    "RunConfig",
    "RunOutput",
    "Section",
    "SectionContext",
    "SectionItem",
    "Totals",
    "VectorResult",
    "Verdict",
    "VerdictValue",
    "attribute",
    "broken_adapter_result",
    "certify",
    "compare_result",
    "compute_verdict",
    "default_temp_parent",
    "error_detail",
    "executable_alternatives",
    "failure_signatures",
    "first_difference",
    "fix_first",
    "fresh_sample",
    "importable_cwd",
    "inconsistency_note",
    "judged",
    "make_progress",
    "parse_section_option",
    "pinned_cover",
    "readings_answering",
    "render_diff",
    "reproduce_command",
    "run_section",
    "run_vectors",
    "signature_of",
    "skipped_result",
    "smoke",
    "with_expected_failure",
    "with_fresh_process_check",
    "worst_outcome",
]
