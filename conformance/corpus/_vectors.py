"""The vector corpus: Corpus -> VectorFile -> Vector, loaded from ``vectors/**/*.json``.

Format: ``specs/vectors-format.md`` (``phase6-vectors/1``); every file is validated against
``specs/schemas/vector-file.schema.json``, IDs are unique across the corpus, and a file is named
after its area (``<area>.json`` or ``<area>-<family>.json``).

A corpus may be a stranger's (``--vectors``), so loading is bounded and checks what the schema
cannot: each file is read only if it is a regular file of at most :data:`MAX_VECTOR_FILE_BYTES`
(the whole corpus at most :data:`MAX_CORPUS_BYTES` in :data:`MAX_VECTOR_FILES` files), symlinked
directories are not followed (a loop cannot make the walk endless), nesting deeper than
:data:`~conformance._kit.MAX_JSON_DEPTH` is refused, and every ``input.files`` name must be a
safe relative path that fits in one tree (:mod:`conformance.corpus._names`), with or without
schema validation.

A vector's files are described by file specs (:mod:`conformance.corpus._files`) and created
by :func:`conformance.corpus.materialize`.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from conformance._errors import CorpusError, DuplicateVectorIdError, VectorSchemaError
from conformance._kit import MAX_JSON_DEPTH, dumps, json_problem, loads, read_bounded, vectors_dir
from conformance._schemas import (
    VECTOR_FILE_SCHEMA,
    remember_validated,
    schema_errors,
    validated_before,
)
from conformance.corpus._files import DirectorySpec, FileSpec, file_spec_from_json, file_spec_json
from conformance.corpus._names import name_collisions, name_problem

__all__ = [
    "FOREIGN_FORMATS",
    "FORMAT",
    "MAX_CORPUS_BYTES",
    "MAX_VECTOR_FILES",
    "MAX_VECTOR_FILE_BYTES",
    "Corpus",
    "Vector",
    "VectorFile",
    "canonical_digest",
    "load_corpus",
    "load_vector_file",
]

FORMAT = "phase6-vectors/1"
#: The largest vector file read (the kit's largest is about 2.5 MB). A file parsed and loaded
#: costs about 33 times its size (a 64 MiB one cost 2.1 GB): 16 MiB stays near 0.5 GB.
MAX_VECTOR_FILE_BYTES = 16 * 1024 * 1024
#: The most bytes a corpus may hold in all (the kit's holds about 12 MB): about 4 GB loaded.
MAX_CORPUS_BYTES = 128 * 1024 * 1024
#: The most ``*.json`` files a corpus directory may hold (the kit's holds about 50).
MAX_VECTOR_FILES = 10_000
Level = Literal["required", "pinned"]
#: Other kits' files that may sit under ``vectors/`` and are not memory.read vectors, e.g.
#: ``vectors/store/`` (issue 8). The loader passes over them by their declared format, visibly
#: (``Corpus.foreign``; ``vectors check`` lists them), never silently and never by location.
FOREIGN_FORMATS = {
    "phase6-store-vectors/1": "SPEC-005 store-checker cases (specs/store-vectors.md)",
    "phase2-context-vectors/1": "Phase 2 memory engine cases (specs/phase2/vectors-format.md)",
}


# ------------------------------------------------------------------------------ vectors


@dataclass(frozen=True)
class Vector:
    """One conformance vector: a request, the files it runs against, and the expected result.

    ``request`` and ``expect`` are kept as JSON bytes and parsed on access, so every caller gets
    its own copy (an implementation that mutates its input cannot corrupt the corpus).
    """

    id: str
    description: str
    clauses: tuple[str, ...]
    interpretations: tuple[str, ...]
    level: Level
    area: str
    file: str
    source: str
    files: tuple[tuple[str, FileSpec], ...]
    request_json: bytes
    expect_json: bytes
    comment: str | None = None

    @property
    def request(self) -> Any:
        """A fresh copy of the request (any JSON value; usually a MemoryControllerInput)."""
        return loads(self.request_json)

    @property
    def expect(self) -> dict[str, Any]:
        """A fresh copy of ``expect``: ``{package, receipt}`` or ``{error: {code, path}}``."""
        value: dict[str, Any] = loads(self.expect_json)
        return value

    @property
    def expects_error(self) -> bool:
        """Whether the vector expects an error result."""
        return self.expect_json.startswith(b'{"error"')

    def to_json(self) -> dict[str, Any]:
        """The vector in its file format (for ``vectors show`` and counterexample files)."""
        files = {path: file_spec_json(spec) for path, spec in self.files}
        out: dict[str, Any] = {"id": self.id, "description": self.description}
        if self.comment is not None:
            out["comment"] = self.comment
        out |= {
            "clauses": list(self.clauses),
            "interpretations": list(self.interpretations),
            "level": self.level,
            "input": {"request": self.request, "files": files},
            "expect": self.expect,
        }
        return out


@dataclass(frozen=True)
class VectorFile:
    """One ``vectors/<area>[-<family>].json`` file."""

    path: str
    area: str
    description: str
    source: str
    vectors: tuple[Vector, ...]
    digest: str


@dataclass(frozen=True)
class Corpus:
    """The whole corpus: its files, its vectors (sorted by ID) and a stable content digest.

    ``digest`` is ``sha256:`` + the SHA-256 over, for each file in path order, its POSIX path,
    a NUL byte, the SHA-256 hex of its canonical content and a newline; canonical content is the
    parsed file re-serialized as key-sorted compact ASCII JSON. Reformatting a file does not
    change the digest; changing any value does.
    """

    root: Path
    files: tuple[VectorFile, ...]
    vectors: tuple[Vector, ...]
    digest: str
    _by_id: Mapping[str, Vector] = field(repr=False, compare=False)
    foreign: tuple[tuple[str, str], ...] = ()

    def __len__(self) -> int:
        return len(self.vectors)

    def __iter__(self) -> Iterator[Vector]:
        return iter(self.vectors)

    def __contains__(self, vector_id: object) -> bool:
        return vector_id in self._by_id

    def get(self, vector_id: str) -> Vector:
        """The vector with this ID; ``KeyError`` when there is none."""
        return self._by_id[vector_id]

    @property
    def areas(self) -> tuple[str, ...]:
        """The corpus areas, sorted."""
        return tuple(sorted({v.area for v in self.vectors}))


def canonical_digest(value: Any) -> str:
    """SHA-256 hex of ``value`` as key-sorted compact ASCII JSON (a file's content digest)."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()


def load_vector_file(
    path: Path,
    root: Path,
    *,
    validate: bool = True,
    data: bytes | None = None,
    cached: bool = True,
) -> VectorFile:
    """Load and check one vector file; ``root`` is the corpus directory (for relative names).

    ``data`` is the file's content when the caller has read it already. With ``cached``, bytes
    that passed the schema before (under the same schemas) are not validated again
    (:func:`conformance._schemas.validated_before`); everything else is checked every time.
    """
    rel = path.relative_to(root).as_posix()
    try:
        if data is None:
            data = read_bounded(path, MAX_VECTOR_FILE_BYTES)
        document = loads(data)
    except OSError as exc:
        raise CorpusError(f"cannot read: {exc.strerror or exc}", path=rel) from exc
    except ValueError as exc:
        raise CorpusError(f"not valid JSON: {exc}", path=rel) from exc
    problem = json_problem(document, max_depth=MAX_JSON_DEPTH)
    if problem is not None:
        raise VectorSchemaError(f"not a vector file: {problem}", path=rel)
    _check_names(document, rel)  # before the schema: its message for a bad name is a regex
    if validate:
        if not (cached and validated_before(VECTOR_FILE_SCHEMA, data)):
            problems = schema_errors(VECTOR_FILE_SCHEMA, document, limit=1)
            if problems:
                pointer, message = problems[0]
                raise VectorSchemaError(message, path=rel, pointer=pointer)
            remember_validated(VECTOR_FILE_SCHEMA, data)
    elif not isinstance(document, dict) or document.get("format") != FORMAT:
        raise VectorSchemaError(f"not a {FORMAT} file", path=rel)
    area = document["area"]
    stem = path.stem
    if stem != area and not stem.startswith(area + "-"):
        raise CorpusError(f"file name must be {area}.json or {area}-<family>.json", path=rel)
    vectors = [
        vector_from_json(
            raw, area=area, file=rel, source=document["source"], pointer=f"/vectors/{index}"
        )
        for index, raw in enumerate(document["vectors"])
    ]
    return VectorFile(
        path=rel,
        area=area,
        description=document["description"],
        source=document["source"],
        vectors=tuple(vectors),
        digest=canonical_digest(document),
    )


def _check_names(document: Any, rel: str) -> None:
    """Every ``input.files`` name is a safe relative path (whatever else is wrong)."""
    vectors = document.get("vectors") if isinstance(document, dict) else None
    for index, raw in enumerate(vectors if isinstance(vectors, list) else ()):
        files = raw.get("input", {}).get("files") if isinstance(raw, dict) else None
        if not isinstance(files, dict):
            continue
        for name in files:
            problem = name_problem(name)
            if problem is not None:
                raise VectorSchemaError(
                    f"file name {name!r} is not a safe relative path: {problem}",
                    path=rel,
                    pointer=f"/vectors/{index}/input/files",
                )


def vector_from_json(raw: Any, *, area: str, file: str, source: str, pointer: str = "") -> Vector:
    """One vector of the file format as a :class:`Vector` (its files checked: valid Unicode,
    names that can coexist); VectorSchemaError, at ``pointer``, when they are not."""
    where = f"{pointer}/input/files"
    try:
        names = raw["input"]["files"]
        files = tuple((name, file_spec_from_json(spec)) for name, spec in sorted(names.items()))
        for _, spec in files:
            spec.content()  # a lone surrogate cannot be written as UTF-8: say so now
    except UnicodeEncodeError as exc:
        message = f"text is not valid Unicode ({exc.reason}); write such bytes as base64"
        raise VectorSchemaError(message, path=file, pointer=where) from None
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise VectorSchemaError(f"bad file entry: {exc}", path=file, pointer=where) from None
    collisions = name_collisions((n, isinstance(f, DirectorySpec)) for n, f in files)
    if collisions:
        raise VectorSchemaError(f"files cannot coexist: {collisions[0]}", path=file, pointer=where)
    return Vector(
        id=raw["id"],
        description=raw["description"],
        comment=raw.get("comment"),
        clauses=tuple(raw["clauses"]),
        interpretations=tuple(raw["interpretations"]),
        level=raw["level"],
        area=area,
        file=file,
        source=source,
        files=files,
        request_json=dumps(raw["input"]["request"]),
        expect_json=dumps(raw["expect"]),
    )


def load_corpus(
    directory: Path | str | None = None, *, validate: bool = True, cached: bool = True
) -> Corpus:
    """Load every ``*.json`` file under ``directory`` (default: the kit's corpus), recursively.

    Raises :class:`CorpusError` (or a subclass) for an unreadable, schema-invalid or misnamed
    file and :class:`DuplicateVectorIdError` for an ID used twice. ``cached=False`` validates
    every file against the schema even when its bytes passed before (``vectors check`` does).
    """
    root = Path(directory) if directory is not None else vectors_dir()
    if not root.is_dir():
        raise CorpusError(f"no vector directory at {str(root)!r}")
    foreign: list[tuple[str, str]] = []
    loaded: list[VectorFile] = []
    total = 0
    for path in _vector_paths(root):
        try:
            data = read_bounded(path, MAX_VECTOR_FILE_BYTES)
        except OSError as exc:
            rel = path.relative_to(root).as_posix()
            raise CorpusError(f"cannot read: {exc.strerror or exc}", path=rel) from exc
        total += len(data)
        if total > MAX_CORPUS_BYTES:
            raise CorpusError(f"the corpus holds more than {MAX_CORPUS_BYTES:,} bytes of vectors")
        kind = _foreign_format(data)
        if kind is not None:
            foreign.append((path.relative_to(root).as_posix(), kind))
        else:
            loaded.append(load_vector_file(path, root, validate=validate, data=data, cached=cached))
    files = tuple(loaded)
    by_id: dict[str, Vector] = {}
    for vector_file in files:
        for vector in vector_file.vectors:
            first = by_id.get(vector.id)
            if first is not None:
                raise DuplicateVectorIdError(vector.id, first.file, vector_file.path)
            by_id[vector.id] = vector
    outer = hashlib.sha256()
    for vector_file in files:
        outer.update(f"{vector_file.path}\0{vector_file.digest}\n".encode())
    return Corpus(
        root=root,
        files=files,
        vectors=tuple(by_id[k] for k in sorted(by_id)),
        digest="sha256:" + outer.hexdigest(),
        _by_id=by_id,
        foreign=tuple(foreign),
    )


def _vector_paths(root: Path) -> list[Path]:
    """Every ``*.json`` file under ``root`` in path order; symlinked directories not followed."""
    found: list[Path] = []
    for directory, subdirectories, names in os.walk(root, followlinks=False):
        subdirectories.sort()
        found.extend(Path(directory, name) for name in names if name.endswith(".json"))
        if len(found) > MAX_VECTOR_FILES:
            raise CorpusError(f"{str(root)!r} holds more than {MAX_VECTOR_FILES:,} *.json files")
    return sorted(found, key=lambda p: p.relative_to(root).parts)


def _foreign_format(data: bytes) -> str | None:
    """The format of a file from :data:`FOREIGN_FORMATS`, or ``None`` for anything else."""
    head = data[:4096]
    if b'"phase6-vectors/1"' in head:
        return None
    for name in FOREIGN_FORMATS:
        if f'"{name}"'.encode() in head:
            try:
                document = loads(data)
            except ValueError:
                return None
            if isinstance(document, dict) and document.get("format") == name:
                return name
    return None
