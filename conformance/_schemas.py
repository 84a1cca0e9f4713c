"""The JSON Schemas under ``specs/schemas/``, loaded once and compiled into validators.

Schema names are paths relative to the schemas directory, e.g. ``vector-file.schema.json`` or
``protocol/run-reply.schema.json``.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import jsonschema
import referencing
import referencing.jsonschema

from conformance._errors import HarnessError
from conformance._kit import specs_dir

__all__ = ["PROTOCOL_SCHEMAS", "REPORT_SCHEMA", "VECTOR_FILE_SCHEMA", "schema_errors", "validator"]

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
