"""Where the kit's data lives, the kit's own version, and the JSON helpers the harness shares.

From a checkout the corpus and the specs are the repository's ``vectors/`` and ``specs/``; an
installed wheel carries copies under ``conformance/_data/{vectors,specs}`` (pyproject's
``force-include``). JSON goes through orjson (fast) with a stdlib fallback for what orjson
refuses (integers beyond 64 bits, lone surrogates); NaN and Infinity are never JSON.
"""

from __future__ import annotations

import functools
import importlib.metadata
import json
import re
import tomllib
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson

__all__ = [
    "DIST_NAME",
    "KIT_NAME",
    "data_root",
    "dumps",
    "dumps_pretty",
    "kit_version",
    "loads",
    "repo_root",
    "slugify",
    "specs_dir",
    "utc_now",
    "vectors_dir",
]

DIST_NAME = "adamos-phase6-conformance"
KIT_NAME = "phase6-conformance"
_PACKAGE_DIR = Path(__file__).resolve().parent


def repo_root() -> Path | None:
    """The checkout this package was imported from, or ``None`` when it is installed."""
    candidate = _PACKAGE_DIR.parent
    if (candidate / "pyproject.toml").is_file() and (candidate / "specs").is_dir():
        return candidate
    return None


def data_root() -> Path:
    """The directory holding ``vectors/`` and ``specs/`` (checkout first, then ``_data``)."""
    root = repo_root()
    if root is not None:
        return root
    return _PACKAGE_DIR / "_data"


def vectors_dir() -> Path:
    """The default corpus directory."""
    return data_root() / "vectors"


def specs_dir() -> Path:
    """The default specs directory (registers, schemas, coverage table)."""
    return data_root() / "specs"


@functools.cache
def kit_version() -> str:
    """The kit's version: installed metadata, else the checkout's pyproject, else unknown."""
    root = repo_root()
    if root is not None:
        try:
            project = tomllib.loads((root / "pyproject.toml").read_text("utf-8"))["project"]
            return str(project["version"])
        except (OSError, KeyError, tomllib.TOMLDecodeError):
            pass
    try:
        return importlib.metadata.version(DIST_NAME)
    except importlib.metadata.PackageNotFoundError:
        return "0+unknown"


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def loads(data: bytes | str) -> Any:
    """Parse one JSON text strictly (no NaN/Infinity); orjson first, stdlib for big ints."""
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError:
        # orjson refuses integers beyond 64 bits and lone-surrogate escapes, which are JSON.
        text = data.decode("utf-8") if isinstance(data, bytes) else data
        return json.loads(text, parse_constant=_reject_constant)


def dumps(value: Any) -> bytes:
    """Serialize compactly to UTF-8 bytes (values parsed from JSON hold no NaN/Infinity)."""
    try:
        return orjson.dumps(value)
    except TypeError:
        pass  # big ints, lone surrogates: the stdlib can, with escapes
    return json.dumps(value, ensure_ascii=True, allow_nan=False, separators=(",", ":")).encode()


def dumps_pretty(value: Any) -> str:
    """Indented, key-sorted JSON text for humans (diffs, ``vectors show``)."""
    try:
        return orjson.dumps(value, option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS).decode()
    except TypeError:
        return json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False, default=repr)


def utc_now() -> str:
    """The current UTC time as RFC 3339 with milliseconds (the harness may read the clock)."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def slugify(text: str) -> str:
    """A file-name-safe slug (``reports/<slug>/``)."""
    slug = re.sub(r"[^a-z0-9._-]+", "-", text.lower()).strip("-.")
    return slug[:80] or "implementation"
