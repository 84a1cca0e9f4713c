"""The vector corpus: Corpus -> VectorFile -> Vector, loaded from ``vectors/**/*.json``.

Format: ``specs/vectors-format.md`` (``phase6-vectors/1``); every file is validated against
``specs/schemas/vector-file.schema.json``, IDs are unique across the corpus, and a file is named
after its area (``<area>.json`` or ``<area>-<family>.json``).

A vector's files are materialized as the exact bytes the format describes:

- ``{"lines": [...], "eol": "\\n", "final_eol": true}``: each line a string (UTF-8) or
  ``{"base64": ...}`` (raw bytes), joined with ``eol`` and followed by ``eol`` when ``final_eol``;
- ``{"text": ...}``: exact UTF-8 content; ``{"base64": ...}``: exact bytes;
- ``{"directory": true}``: an (empty) directory.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import stat
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any, Literal

from conformance._errors import CorpusError, DuplicateVectorIdError, VectorSchemaError
from conformance._kit import dumps, loads, vectors_dir
from conformance._schemas import VECTOR_FILE_SCHEMA, schema_errors

__all__ = [
    "FOREIGN_FORMATS",
    "FORMAT",
    "BytesFile",
    "Corpus",
    "DirectorySpec",
    "FileSpec",
    "FileStamp",
    "LinesFile",
    "TextFile",
    "TreeSnapshot",
    "Vector",
    "VectorFile",
    "load_corpus",
    "load_vector_file",
    "materialize",
    "snapshot_tree",
]

FORMAT = "phase6-vectors/1"
Level = Literal["required", "pinned"]
#: Other kits' files that may sit under ``vectors/`` and are not memory.read vectors, e.g.
#: ``vectors/store/`` (issue 8). The loader passes over them by their declared format, visibly
#: (``Corpus.foreign``; ``vectors check`` lists them), never silently and never by location.
FOREIGN_FORMATS = {
    "phase6-store-vectors/1": "SPEC-005 store-checker cases (specs/store-vectors.md)",
    "phase2-context-vectors/1": "Phase 2 memory engine cases (specs/phase2/vectors-format.md)",
}


# ------------------------------------------------------------------------------ file specs


@dataclass(frozen=True)
class LinesFile:
    """A store written line by line; ``bytes`` lines are the decoded ``{"base64": ...}`` ones."""

    lines: tuple[str | bytes, ...]
    eol: str = "\n"
    final_eol: bool = True

    def content(self) -> bytes:
        """The file's exact bytes: lines joined with ``eol``, plus ``eol`` when ``final_eol``."""
        eol = self.eol.encode()
        body = eol.join(line if isinstance(line, bytes) else line.encode() for line in self.lines)
        if self.final_eol and self.lines:
            body += eol
        return body


@dataclass(frozen=True)
class TextFile:
    """A file whose exact content is ``text`` encoded as UTF-8."""

    text: str

    def content(self) -> bytes:
        """The file's exact bytes."""
        return self.text.encode()


@dataclass(frozen=True)
class BytesFile:
    """A file whose exact content is ``data`` (``{"base64": ...}`` in the vector)."""

    data: bytes

    def content(self) -> bytes:
        """The file's exact bytes."""
        return self.data


@dataclass(frozen=True)
class DirectorySpec:
    """An empty directory (used for ``store_not_readable`` vectors)."""

    def content(self) -> None:
        """Directories have no content."""
        return None


FileSpec = LinesFile | TextFile | BytesFile | DirectorySpec


def file_spec_json(spec: FileSpec) -> dict[str, Any]:
    """A file spec in the vector file format (``input.files`` values); inverse of loading."""
    if isinstance(spec, LinesFile):
        entry: dict[str, Any] = {
            "lines": [
                {"base64": base64.b64encode(line).decode()} if isinstance(line, bytes) else line
                for line in spec.lines
            ]
        }
        if spec.eol != "\n":
            entry["eol"] = spec.eol
        if not spec.final_eol:
            entry["final_eol"] = False
        return entry
    if isinstance(spec, TextFile):
        return {"text": spec.text}
    if isinstance(spec, BytesFile):
        return {"base64": base64.b64encode(spec.data).decode()}
    return {"directory": True}


def _file_spec(raw: Mapping[str, Any]) -> FileSpec:
    if "lines" in raw:
        lines = tuple(
            item if isinstance(item, str) else base64.b64decode(item["base64"], validate=True)
            for item in raw["lines"]
        )
        return LinesFile(lines, raw.get("eol", "\n"), raw.get("final_eol", True))
    if "text" in raw:
        return TextFile(raw["text"])
    if "base64" in raw:
        return BytesFile(base64.b64decode(raw["base64"], validate=True))
    return DirectorySpec()


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


def _canonical_digest(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()


def load_vector_file(path: Path, root: Path, *, validate: bool = True) -> VectorFile:
    """Load and check one vector file; ``root`` is the corpus directory (for relative names)."""
    rel = path.relative_to(root).as_posix()
    try:
        document = loads(path.read_bytes())
    except OSError as exc:
        raise CorpusError(f"cannot read: {exc}", path=rel) from exc
    except ValueError as exc:
        raise CorpusError(f"not valid JSON: {exc}", path=rel) from exc
    if validate:
        problems = schema_errors(VECTOR_FILE_SCHEMA, document, limit=1)
        if problems:
            pointer, message = problems[0]
            raise VectorSchemaError(message, path=rel, pointer=pointer)
    elif not isinstance(document, dict) or document.get("format") != FORMAT:
        raise VectorSchemaError(f"not a {FORMAT} file", path=rel)
    area = document["area"]
    stem = path.stem
    if stem != area and not stem.startswith(area + "-"):
        raise CorpusError(f"file name must be {area}.json or {area}-<family>.json", path=rel)
    vectors = []
    for index, raw in enumerate(document["vectors"]):
        try:
            files = tuple(
                (name, _file_spec(spec)) for name, spec in sorted(raw["input"]["files"].items())
            )
            for _, spec in files:
                spec.content()  # a lone surrogate cannot be written as UTF-8: say so now
        except UnicodeEncodeError as exc:
            pointer = f"/vectors/{index}/input/files"
            message = f"text is not valid Unicode ({exc.reason}); write such bytes as base64"
            raise VectorSchemaError(message, path=rel, pointer=pointer) from None
        except (ValueError, KeyError, TypeError) as exc:
            pointer = f"/vectors/{index}/input/files"
            raise VectorSchemaError(f"bad file entry: {exc}", path=rel, pointer=pointer) from None
        vectors.append(
            Vector(
                id=raw["id"],
                description=raw["description"],
                comment=raw.get("comment"),
                clauses=tuple(raw["clauses"]),
                interpretations=tuple(raw["interpretations"]),
                level=raw["level"],
                area=area,
                file=rel,
                source=document["source"],
                files=files,
                request_json=dumps(raw["input"]["request"]),
                expect_json=dumps(raw["expect"]),
            )
        )
    return VectorFile(
        path=rel,
        area=area,
        description=document["description"],
        source=document["source"],
        vectors=tuple(vectors),
        digest=_canonical_digest(document),
    )


def load_corpus(directory: Path | str | None = None, *, validate: bool = True) -> Corpus:
    """Load every ``*.json`` file under ``directory`` (default: the kit's corpus), recursively.

    Raises :class:`CorpusError` (or a subclass) for an unreadable, schema-invalid or misnamed
    file and :class:`DuplicateVectorIdError` for an ID used twice.
    """
    root = Path(directory) if directory is not None else vectors_dir()
    if not root.is_dir():
        raise CorpusError(f"no vector directory at {str(root)!r}")
    paths = sorted(
        (p for p in root.rglob("*.json") if p.is_file()), key=lambda p: p.relative_to(root).parts
    )
    foreign: list[tuple[str, str]] = []
    loaded: list[VectorFile] = []
    for path in paths:
        kind = _foreign_format(path)
        if kind is not None:
            foreign.append((path.relative_to(root).as_posix(), kind))
        else:
            loaded.append(load_vector_file(path, root, validate=validate))
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


def _foreign_format(path: Path) -> str | None:
    """The format of a file from :data:`FOREIGN_FORMATS`, or ``None`` for anything else."""
    with open(path, "rb") as handle:
        head = handle.read(4096)
    if b'"phase6-vectors/1"' in head:
        return None
    for name in FOREIGN_FORMATS:
        if f'"{name}"'.encode() in head:
            try:
                document = loads(path.read_bytes())
            except ValueError:
                return None
            if isinstance(document, dict) and document.get("format") == name:
                return name
    return None


# ------------------------------------------------------------------------------ materializing


@dataclass(frozen=True)
class FileStamp:
    """What the store-immutability check compares: type, mode, size, mtime and content hash."""

    kind: Literal["file", "dir", "other"]
    mode: int
    size: int
    mtime_ns: int
    sha256: str


TreeSnapshot = dict[str, FileStamp]


def materialize(vector: Vector, root: Path) -> None:
    """Create ``vector``'s files under ``root`` (which must not exist yet), byte for byte."""
    root.mkdir(parents=True)
    for name, spec in vector.files:
        target = root.joinpath(*PurePosixPath(name).parts)
        data = spec.content()
        target.parent.mkdir(parents=True, exist_ok=True)
        if data is None:
            target.mkdir(exist_ok=True)
        else:
            fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            try:
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view) :]
            finally:
                os.close(fd)


def snapshot_tree(root: Path) -> TreeSnapshot:
    """Stamp every entry under ``root`` (root itself is ``"."``); symlinks are not followed."""
    snapshot: TreeSnapshot = {}
    pending = [(root, ".")]
    while pending:
        directory, rel = pending.pop()
        st = os.lstat(directory)
        snapshot[rel] = FileStamp("dir", stat.S_IMODE(st.st_mode), 0, st.st_mtime_ns, "")
        with os.scandir(directory) as entries:
            for entry in entries:
                child = entry.name if rel == "." else f"{rel}/{entry.name}"
                if entry.is_dir(follow_symlinks=False):
                    pending.append((Path(entry.path), child))
                    continue
                st = entry.stat(follow_symlinks=False)
                if entry.is_file(follow_symlinks=False):
                    with open(entry.path, "rb") as handle:
                        digest = hashlib.file_digest(handle, "sha256").hexdigest()
                    kind: Literal["file", "dir", "other"] = "file"
                else:
                    digest, kind = "", "other"
                snapshot[child] = FileStamp(
                    kind, stat.S_IMODE(st.st_mode), st.st_size, st.st_mtime_ns, digest
                )
    return snapshot
