"""The JSON Schemas under ``specs/schemas/``, loaded once and compiled into validators.

Schema names are paths relative to the schemas directory, e.g. ``vector-file.schema.json`` or
``protocol/run-reply.schema.json``.

Validating the kit's corpus takes seconds, and every certification loads it. What passed is
remembered (:func:`validated_before`, :func:`remember_validated`) as an empty file in the user's
cache directory named by the SHA-256 of the exact bytes that were validated, the schema's name,
every schema file under ``specs/schemas/`` and the versions of the interpreter and the libraries
that parse and validate: a file whose bytes, or whose schemas, differ by one byte is validated
again, a file that failed is never remembered, a marker another user could have written (in a
directory group- or world-writable, or not the user's) is not believed, and without the cache
(none, unwritable, or ``PHASE6_CACHE_DIR`` set empty) everything is validated as before.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata
import json
import os
import stat
import sys
from pathlib import Path
from typing import Any

import jsonschema
import referencing
import referencing.jsonschema

from conformance._errors import HarnessError
from conformance._kit import KIT_NAME, specs_dir

__all__ = [
    "CACHE_ENV",
    "PROTOCOL_SCHEMAS",
    "REPORT_SCHEMA",
    "VECTOR_FILE_SCHEMA",
    "remember_validated",
    "schema_errors",
    "validated_before",
    "validator",
]

VECTOR_FILE_SCHEMA = "vector-file.schema.json"
REPORT_SCHEMA = "report.schema.json"
#: message name -> schema file, for every message of phase6-adapter/1 in both directions.
PROTOCOL_SCHEMAS = {
    "command": "protocol/command.schema.json",
    "start": "protocol/start.schema.json",
    "start-reply": "protocol/start-reply.schema.json",
    "run": "protocol/run.schema.json",
    "run-reply": "protocol/run-reply.schema.json",
    "stop": "protocol/stop.schema.json",
    "stop-reply": "protocol/stop-reply.schema.json",
}
#: The environment variable naming the kit's cache directory (default: ``$XDG_CACHE_HOME`` or
#: ``~/.cache``, then ``phase6-conformance``); set empty, nothing is cached.
CACHE_ENV = "PHASE6_CACHE_DIR"
#: What a validation depends on besides the bytes and the schemas: the libraries that parse and
#: validate (their versions go into every cache key).
_VALIDATION_LIBRARIES = ("jsonschema", "referencing", "orjson")


def _schemas_dir() -> Path:
    return specs_dir() / "schemas"


def _load(path: Path) -> Any:
    try:
        return json.loads(path.read_text("utf-8"))
    except (OSError, ValueError) as exc:
        raise HarnessError(f"cannot load schema {str(path)!r}: {exc}") from exc


@functools.cache
def _registry() -> referencing.Registry[Any]:
    """Every schema under specs/schemas/ that declares an ``$id``, for cross-file ``$ref``."""
    resources = []
    for path in sorted(_schemas_dir().rglob("*.schema.json")):
        try:
            schema = json.loads(path.read_text("utf-8"))
        except (OSError, ValueError):
            continue  # reported when that schema itself is asked for
        if isinstance(schema, dict) and isinstance(schema.get("$id"), str):
            resource = referencing.Resource.from_contents(
                schema, default_specification=referencing.jsonschema.DRAFT202012
            )
            resources.append((schema["$id"], resource))
    return referencing.Registry().with_resources(resources)


@functools.cache
def validator(name: str) -> Any:
    """A compiled draft 2020-12 validator for the named schema (cached)."""
    schema = _load(_schemas_dir() / name)
    cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
    cls.check_schema(schema)
    return cls(schema, registry=_registry())


def _pointer(parts: Any) -> str:
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def schema_errors(name: str, instance: Any, *, limit: int = 5) -> list[tuple[str, str]]:
    """Up to ``limit`` (JSON Pointer, message) pairs for ``instance`` under schema ``name``."""
    found: list[tuple[str, str]] = []
    for error in validator(name).iter_errors(instance):
        best = jsonschema.exceptions.best_match([error])
        found.append((_pointer(best.absolute_path), best.message[:300]))
        if len(found) >= limit:
            break
    return found


def _cache_dir() -> Path | None:
    """Where validations are remembered, or ``None`` (no cache: :data:`CACHE_ENV` set empty, or
    no absolute home or cache directory to put it in)."""
    configured = os.environ.get(CACHE_ENV)
    if configured is not None:
        base = Path(configured) if configured else None
    else:
        home = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        base = Path(home) / KIT_NAME
    return base / "validated" if base is not None and base.is_absolute() else None


@functools.cache
def _schemas_digest() -> str:
    """SHA-256 of every schema file (name and bytes) and the validating libraries' versions."""
    digest = hashlib.sha256(f"python {sys.version}\n".encode())
    for library in _VALIDATION_LIBRARIES:
        digest.update(f"{library} {importlib.metadata.version(library)}\n".encode())
    root = _schemas_dir()
    for path in sorted(root.rglob("*.schema.json")):
        content = hashlib.sha256(path.read_bytes()).hexdigest()
        digest.update(f"{path.relative_to(root).as_posix()}\0{content}\n".encode())
    return digest.hexdigest()


def _marker(name: str, data: bytes) -> Path | None:
    directory = _cache_dir()
    if directory is None:
        return None
    try:
        schemas = _schemas_digest()
    except OSError:
        return None  # a schema cannot be read: validating says why
    key = hashlib.sha256(f"{schemas}\0{name}\0".encode() + data).hexdigest()
    return directory / key


def validated_before(name: str, data: bytes) -> bool:
    """Whether these exact bytes passed schema ``name`` before, under these very schemas and
    libraries (see the module docstring); ``False`` whenever that is not known."""
    marker = _marker(name, data)
    return marker is not None and _ours(marker.parent) and _ours(marker)


def _ours(path: Path) -> bool:
    """A marker is believed only in a directory, and as a file, of this user's that no other
    user can write (in a shared ``XDG_CACHE_HOME`` someone else could plant one)."""
    try:
        info = path.stat()
    except OSError:
        return False
    owner = os.getuid() if hasattr(os, "getuid") else info.st_uid
    return info.st_uid == owner and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def remember_validated(name: str, data: bytes) -> None:
    """Remember that ``data`` (the bytes just validated) passed schema ``name``; a cache that
    cannot be written is left alone (the next run validates again)."""
    marker = _marker(name, data)
    if marker is None:
        return
    try:
        marker.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        marker.touch()
    except OSError:
        pass
