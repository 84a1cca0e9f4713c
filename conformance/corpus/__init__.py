"""The corpus: vectors as data, and what the harness does with a vector's files.

Owns the ``phase6-vectors/1`` format (:class:`Corpus` -> :class:`VectorFile` -> :class:`Vector`,
file specs), loading and validating ``vectors/``, selecting vectors (``--select``) and the
expected-failures file, materializing a vector's files under a root (never outside it, whatever
a stranger's vector file names) and stamping the tree for tamper evidence, within a budget.

May import: ``conformance._kit``, ``conformance._errors``, ``conformance._schemas``. Nothing in
here knows about adapters, runs or reports.
"""

from __future__ import annotations

from conformance.corpus._files import (
    BytesFile,
    DirectorySpec,
    FileSpec,
    LinesFile,
    TextFile,
    file_spec_from_json,
    file_spec_json,
)
from conformance.corpus._names import name_problem
from conformance.corpus._select import (
    MAX_EXPECTED_FAILURES_BYTES,
    ExpectedFailureEntry,
    ExpectedFailures,
    Selector,
    VectorMeta,
    load_expected_failures,
    select_vectors,
)
from conformance.corpus._tree import (
    HasFiles,
    Stamp,
    StampBudget,
    TreeStamps,
    Workspace,
    changes,
    create_new,
    materialize,
    stamp_tree,
)
from conformance.corpus._vectors import (
    FOREIGN_FORMATS,
    FORMAT,
    MAX_CORPUS_BYTES,
    MAX_VECTOR_FILE_BYTES,
    MAX_VECTOR_FILES,
    Corpus,
    Vector,
    VectorFile,
    canonical_digest,
    load_corpus,
    load_vector_file,
    vector_from_json,
)

__all__ = [
    "FOREIGN_FORMATS",
    "FORMAT",
    "MAX_CORPUS_BYTES",
    "MAX_EXPECTED_FAILURES_BYTES",
    "MAX_VECTOR_FILES",
    "MAX_VECTOR_FILE_BYTES",
    "BytesFile",
    "Corpus",
    "DirectorySpec",
    "ExpectedFailureEntry",
    "ExpectedFailures",
    "FileSpec",
    "HasFiles",
    "LinesFile",
    "Selector",
    "Stamp",
    "StampBudget",
    "TextFile",
    "TreeStamps",
    "Vector",
    "VectorFile",
    "VectorMeta",
    "Workspace",
    "canonical_digest",
    "changes",
    "create_new",
    "file_spec_from_json",
    "file_spec_json",
    "load_corpus",
    "load_expected_failures",
    "load_vector_file",
    "materialize",
    "name_problem",
    "select_vectors",
    "stamp_tree",
    "vector_from_json",
]
