"""Conformance kit for SPEC-006 ``memory.read`` (contract phase6-v1): the certification harness.

The harness certifies any implementation through an adapter (``python:package.module:callable``
in-process, or ``cmd:<command line>`` speaking ``phase6-adapter/1``); it never imports the
reference except as such an adapter. Public surface:

- corpus: :func:`load_corpus` -> :class:`Corpus` -> :class:`VectorFile` -> :class:`Vector`
  (file specs :class:`LinesFile`, :class:`TextFile`, :class:`BytesFile`, :class:`DirectorySpec`),
  :func:`materialize`, :func:`stamp_tree`;
- adapters: :func:`open_adapter`, :class:`Adapter`, :class:`InProcessAdapter`,
  :class:`SubprocessAdapter`, :class:`Handshake`;
- comparison: :func:`compare_result`, :func:`first_difference`, :class:`Difference`;
- running: :func:`certify` -> :class:`Certification`; :func:`run_vectors`, :class:`RunConfig`,
  :class:`Executor`; selection and :func:`load_expected_failures`;
- results: :class:`VectorResult`, :class:`Outcome`, :class:`Failure`, :class:`FailureKind`,
  :class:`ErrorDetail`, :class:`ErrorKind`, :class:`Totals`, :class:`Verdict`;
- reports: :func:`build_report`, :func:`write_report`, :func:`load_report`, sections
  (:class:`Section`, :class:`SectionItem`, :class:`SectionContext`);
- errors: :class:`HarnessError` and its subclasses.
"""

from __future__ import annotations

from conformance._errors import (
    AdapterCrashedError,
    AdapterError,
    AdapterInternalError,
    AdapterSpecError,
    AdapterTimeoutError,
    CorpusError,
    DuplicateVectorIdError,
    ExpectedFailuresError,
    HandshakeError,
    HarnessError,
    ProtocolError,
    RegisterError,
    ReportError,
    SpawnError,
    UsageError,
    VectorSchemaError,
)
from conformance._kit import kit_version
from conformance.adapters import (
    DEFAULT_TIMEOUT,
    PROTOCOL,
    Adapter,
    Handshake,
    InProcessAdapter,
    SubprocessAdapter,
    open_adapter,
    reference_adapter_spec,
)
from conformance.corpus import (
    BytesFile,
    Corpus,
    DirectorySpec,
    ExpectedFailures,
    FileSpec,
    LinesFile,
    TextFile,
    Vector,
    VectorFile,
    load_corpus,
    load_expected_failures,
    materialize,
    select_vectors,
    stamp_tree,
)
from conformance.registers import (
    Clause,
    Coverage,
    Interpretation,
    compute_coverage,
    load_clauses,
    load_interpretations,
)
from conformance.report import build_report, load_report, write_report
from conformance.run import (
    Certification,
    Difference,
    ErrorDetail,
    ErrorKind,
    Executor,
    Failure,
    FailureKind,
    Outcome,
    RunConfig,
    RunOutput,
    Section,
    SectionContext,
    SectionItem,
    Totals,
    VectorResult,
    Verdict,
    VerdictValue,
    certify,
    compare_result,
    first_difference,
    run_vectors,
)

__version__ = kit_version()

__all__ = [
    "DEFAULT_TIMEOUT",
    "PROTOCOL",
    "Adapter",
    "AdapterCrashedError",
    "AdapterError",
    "AdapterInternalError",
    "AdapterSpecError",
    "AdapterTimeoutError",
    "BytesFile",
    "Certification",
    "Clause",
    "Corpus",
    "CorpusError",
    "Coverage",
    "Difference",
    "DirectorySpec",
    "DuplicateVectorIdError",
    "ErrorDetail",
    "ErrorKind",
    "Executor",
    "ExpectedFailures",
    "ExpectedFailuresError",
    "Failure",
    "FailureKind",
    "FileSpec",
    "Handshake",
    "HandshakeError",
    "HarnessError",
    "InProcessAdapter",
    "Interpretation",
    "LinesFile",
    "Outcome",
    "ProtocolError",
    "RegisterError",
    "ReportError",
    "RunConfig",
    "RunOutput",
    "Section",
    "SectionContext",
    "SectionItem",
    "SpawnError",
    "SubprocessAdapter",
    "TextFile",
    "Totals",
    "UsageError",
    "Vector",
    "VectorFile",
    "VectorResult",
    "VectorSchemaError",
    "Verdict",
    "VerdictValue",
    "build_report",
    "certify",
    "compare_result",
    "compute_coverage",
    "first_difference",
    "load_clauses",
    "load_corpus",
    "load_expected_failures",
    "load_interpretations",
    "load_report",
    "materialize",
    "open_adapter",
    "reference_adapter_spec",
    "run_vectors",
    "select_vectors",
    "stamp_tree",
    "write_report",
]
