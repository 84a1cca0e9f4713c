"""Conformance kit for SPEC-006 ``memory.read`` (contract phase6-v1): the certification harness.

The harness certifies any implementation through an adapter (``python:package.module:callable``
in-process, or ``cmd:<command line>`` speaking ``phase6-adapter/1``); it never imports the
reference except as such an adapter. Public surface:

- corpus: :func:`load_corpus` -> :class:`Corpus` -> :class:`VectorFile` -> :class:`Vector`
  (file specs :class:`LinesFile`, :class:`TextFile`, :class:`BytesFile`, :class:`DirectorySpec`),
  :func:`materialize`, :func:`snapshot_tree`;
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

from conformance._adapters import (
    DEFAULT_TIMEOUT,
    Adapter,
    InProcessAdapter,
    SubprocessAdapter,
    open_adapter,
    reference_adapter_spec,
)
from conformance._certify import Certification, certify
from conformance._compare import Difference, compare_result, first_difference
from conformance._coverage import Coverage, compute_coverage
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
from conformance._protocol import PROTOCOL, Handshake
from conformance._registers import Clause, Interpretation, load_clauses, load_interpretations
from conformance._report import build_report, load_report, write_report
from conformance._results import (
    ErrorDetail,
    ErrorKind,
    Failure,
    FailureKind,
    Outcome,
    Totals,
    VectorResult,
    Verdict,
    VerdictValue,
)
from conformance._runner import Executor, RunConfig, RunOutput, run_vectors
from conformance._sections import Section, SectionContext, SectionItem
from conformance._select import (
    ExpectedFailures,
    load_expected_failures,
    select_vectors,
)
from conformance._vectors import (
    BytesFile,
    Corpus,
    DirectorySpec,
    FileSpec,
    LinesFile,
    TextFile,
    Vector,
    VectorFile,
    load_corpus,
    materialize,
    snapshot_tree,
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
    "snapshot_tree",
    "write_report",
]
