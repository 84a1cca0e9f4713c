"""The Phase 2 corpus (``vectors/phase2-context/``, format ``phase2-context-vectors/1``).

Each file is read bounded, checked for nesting, validated against
``specs/schemas/phase2/vector-file.schema.json`` (unless these very bytes passed it before, under
the same schemas: :func:`conformance._schemas.validated_before`), and every fixture's ids must be
unique within their table (the schema cannot say it); vector IDs are unique across the corpus.
A vector keeps its fixture, call and expectation as JSON bytes and parses them on access, so an
implementation that mutates what it was given cannot corrupt the corpus.

A Phase 2 vector's ``area`` is its family (``budget``, ``tokens``, ...): every file holds the
one area ``phase2-context``, and reports group by family. Selection (``--select``) and judging
are the SPEC-006 harness's (:func:`conformance.corpus.select_vectors`,
:func:`conformance.run.judged`), which read any :class:`~conformance.corpus.VectorMeta`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conformance._errors import CorpusError, DuplicateVectorIdError, VectorSchemaError
from conformance._kit import MAX_JSON_DEPTH, dumps, json_problem, loads, read_bounded, vectors_dir
from conformance._schemas import remember_validated, schema_errors, validated_before
from conformance.corpus import MAX_VECTOR_FILE_BYTES, MAX_VECTOR_FILES, canonical_digest
from conformance.phase2._readings import CAPABILITIES, TABLES

__all__ = [
    "AREA",
    "FORMAT",
    "VECTOR_FILE_SCHEMA",
    "Phase2Corpus",
    "Phase2Vector",
    "fixture_problem",
    "load_phase2_corpus",
    "phase2_vectors_dir",
]

FORMAT = "phase2-context-vectors/1"
AREA = "phase2-context"
VECTOR_FILE_SCHEMA = "phase2/vector-file.schema.json"


def phase2_vectors_dir() -> Path:
    """The published Phase 2 corpus directory."""
    return vectors_dir() / AREA


@dataclass(frozen=True)
class Phase2Vector:
    """One Phase 2 vector: a fixture, a call, and what must be observed."""

    id: str
    description: str
    clauses: tuple[str, ...]
    interpretations: tuple[str, ...]
    level: str
    area: str
    file: str
    source: str
    op: str
    fixture_json: bytes
    call_json: bytes
    expect_json: bytes
    comment: str | None = None

    @property
    def fixture(self) -> dict[str, Any]:
        """A fresh copy of the fixture."""
        value: dict[str, Any] = loads(self.fixture_json)
        return value

    @property
    def call(self) -> dict[str, Any]:
        """A fresh copy of the call."""
        value: dict[str, Any] = loads(self.call_json)
        return value

    @property
    def expect(self) -> dict[str, Any]:
        """A fresh copy of ``expect``."""
        value: dict[str, Any] = loads(self.expect_json)
        return value

    @property
    def capability(self) -> str:
        """The capability an implementation declares to be sent this vector's call."""
        return CAPABILITIES[self.op]

    @property
    def size(self) -> int:
        """Bytes of fixture and call (the smallest vector of a failure signature is its
        example)."""
        return len(self.fixture_json) + len(self.call_json)


@dataclass(frozen=True)
class Phase2Corpus:
    """The Phase 2 corpus: its vectors sorted by ID, the files they came from, a digest.

    ``digest`` follows the SPEC-006 corpus's rule (:class:`conformance.corpus.Corpus`): the
    SHA-256 over each file's POSIX path and canonical content digest.
    """

    root: Path
    files: tuple[str, ...]
    vectors: tuple[Phase2Vector, ...]
    digest: str
    _by_id: Mapping[str, Phase2Vector] = field(repr=False, compare=False)

    def __len__(self) -> int:
        return len(self.vectors)

    def __iter__(self) -> Iterator[Phase2Vector]:
        return iter(self.vectors)

    def __contains__(self, vector_id: object) -> bool:
        return vector_id in self._by_id

    def get(self, vector_id: str) -> Phase2Vector:
        """The vector with this ID; ``KeyError`` when there is none."""
        return self._by_id[vector_id]


def fixture_problem(fixture: Any) -> str | None:
    """Why ``fixture`` cannot be loaded beyond its schema: an id used twice in a table."""
    for table in TABLES:
        ids = [row["id"] for row in fixture.get(table, [])]
        if len(ids) != len(set(ids)):
            return f"{table} holds an id twice"
    return None


def _vectors_of(path: Path, root: Path, data: bytes) -> tuple[str, list[Phase2Vector]]:
    rel = path.relative_to(root).as_posix()
    try:
        document = loads(data)
    except ValueError as exc:
        raise CorpusError(f"not valid JSON: {exc}", path=rel) from exc
    problem = json_problem(document, max_depth=MAX_JSON_DEPTH)
    if problem is not None:
        raise VectorSchemaError(f"not a vector file: {problem}", path=rel)
    if not validated_before(VECTOR_FILE_SCHEMA, data):  # these very bytes passed: see _schemas
        problems = schema_errors(VECTOR_FILE_SCHEMA, document, limit=1)
        if problems:
            pointer, message = problems[0]
            raise VectorSchemaError(message, path=rel, pointer=pointer)
        remember_validated(VECTOR_FILE_SCHEMA, data)
    vectors = []
    for index, raw in enumerate(document["vectors"]):
        fixture, call = raw["input"]["fixture"], raw["input"]["call"]
        problem = fixture_problem(fixture)
        if problem is not None:
            raise VectorSchemaError(problem, path=rel, pointer=f"/vectors/{index}/input/fixture")
        vectors.append(
            Phase2Vector(
                id=raw["id"],
                description=raw["description"],
                clauses=tuple(raw["clauses"]),
                interpretations=tuple(raw["interpretations"]),
                level=raw["level"],
                area=document["family"],
                file=rel,
                source=document["source"],
                op=call["op"],
                fixture_json=dumps(fixture),
                call_json=dumps(call),
                expect_json=dumps(raw["expect"]),
                comment=raw.get("comment"),
            )
        )
    return canonical_digest(document), vectors


def load_phase2_corpus(directory: Path | str | None = None) -> Phase2Corpus:
    """Load every ``*.json`` file directly in ``directory`` (default: the published corpus).

    Raises :class:`CorpusError` (or a subclass) for an unreadable, schema-invalid or
    inconsistent file and :class:`DuplicateVectorIdError` for an ID used twice.
    """
    root = Path(directory) if directory is not None else phase2_vectors_dir()
    if not root.is_dir():
        raise CorpusError(f"no Phase 2 vector directory at {str(root)!r}")
    paths = sorted(p for p in root.glob("*.json") if not p.is_symlink())
    if len(paths) > MAX_VECTOR_FILES:
        raise CorpusError(f"{str(root)!r} holds more than {MAX_VECTOR_FILES:,} *.json files")
    by_id: dict[str, Phase2Vector] = {}
    outer = hashlib.sha256()
    files = []
    for path in paths:
        rel = path.relative_to(root).as_posix()
        try:
            data = read_bounded(path, MAX_VECTOR_FILE_BYTES)
        except OSError as exc:
            raise CorpusError(f"cannot read: {exc.strerror or exc}", path=rel) from exc
        digest, vectors = _vectors_of(path, root, data)
        for vector in vectors:
            first = by_id.get(vector.id)
            if first is not None:
                raise DuplicateVectorIdError(vector.id, first.file, rel)
            by_id[vector.id] = vector
        outer.update(f"{rel}\0{digest}\n".encode())
        files.append(rel)
    if not by_id:
        raise CorpusError(f"no Phase 2 vector in {str(root)!r}")
    return Phase2Corpus(
        root=root,
        files=tuple(files),
        vectors=tuple(by_id[k] for k in sorted(by_id)),
        digest="sha256:" + outer.hexdigest(),
        _by_id=by_id,
    )
