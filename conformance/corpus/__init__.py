"""The corpus: vectors as data, and what the harness does with a vector's files.

Owns the ``phase6-vectors/1`` format (:class:`Corpus` -> :class:`VectorFile` -> :class:`Vector`,
file specs), loading and validating ``vectors/``, selecting vectors (``--select``) and the
expected-failures file, materializing a vector's files under a root and stamping the tree for
tamper evidence.

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
from conformance.corpus._select import (
    ExpectedFailureEntry,
    ExpectedFailures,
    Selector,
    load_expected_failures,
    select_vectors,
)
from conformance.corpus._tree import (
    HasFiles,
    Stamp,
    TreeStamps,
    changes,
    materialize,
    stamp_tree,
)
from conformance.corpus._vectors import (
    FOREIGN_FORMATS,
    FORMAT,
    Corpus,
    Vector,
    VectorFile,
    load_corpus,
    load_vector_file,
)

__all__ = [
    "FOREIGN_FORMATS",
    "FORMAT",
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
    "TextFile",
    "TreeStamps",
    "Vector",
    "VectorFile",
    "changes",
    "file_spec_from_json",
    "file_spec_json",
    "load_corpus",
    "load_expected_failures",
    "load_vector_file",
    "materialize",
    "select_vectors",
    "stamp_tree",
]
