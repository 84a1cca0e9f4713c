"""Where the kit's data lives, the kit's own version, and the JSON helpers the harness shares.

From a checkout the corpus and the specs are the repository's ``vectors/`` and ``specs/``; an
installed wheel carries copies under ``conformance/_data/{vectors,specs}`` (pyproject's
``force-include``). JSON goes through orjson (fast) with a stdlib fallback for what orjson
refuses (integers beyond 64 bits, lone surrogates); NaN and Infinity are never JSON.
"""

from __future__ import annotations

import contextlib
import functools
import importlib.metadata
import json
import os
import re
import secrets
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
    "one_line",
    "repo_root",
    "slugify",
    "specs_dir",
    "terminal_safe",
    "utc_now",
    "vectors_dir",
    "write_atomic",
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
    """Indented, key-sorted JSON text for humans (diffs, ``vectors show``).

    Lone surrogates (JSON can hold them, UTF-8 cannot) are written as ``\\udXXX`` escapes,
    so the text can always be printed and written as UTF-8.
    """
    try:
        return orjson.dumps(value, option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS).decode()
    except TypeError:
        text = json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False, default=repr)
        return _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def utc_now() -> str:
    """The current UTC time as RFC 3339 with milliseconds (the harness may read the clock)."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def slugify(text: str) -> str:
    """A file-name-safe slug (``reports/<slug>/``)."""
    slug = re.sub(r"[^a-z0-9._-]+", "-", text.lower()).strip("-.")
    return slug[:80] or "implementation"


# ------------------------------------------------------------------------------ terminal text

#: What never reaches a terminal raw from a string the kit did not write itself: C0 controls
#: (ESC starts every ANSI sequence; CR and BS redraw a line), DEL, C1 controls (U+009B is a
#: one-character CSI), the bidirectional overrides and isolates that reorder what is shown, and
#: lone surrogates (a UTF-8 terminal cannot even be sent one).
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
_UNSAFE_LINE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def _escaped(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def terminal_safe(text: object) -> str:
    """``text`` with every control character escaped (``\\x1b``) but newline and tab."""
    return _UNSAFE.sub(_escaped, str(text))


def one_line(text: object) -> str:
    """``text`` as one terminal-safe line: newlines and tabs escaped as well.

    For anything an implementation wrote (its name, an error message, a value) that the kit
    prints inside a line of its own: no escape sequence, carriage return or newline in it can
    draw over, or forge, a line the kit prints.
    """
    return _UNSAFE_LINE.sub(_escaped, str(text))


# ------------------------------------------------------------------------------ files


def write_atomic(directory: Path | str, name: str, data: bytes) -> Path:
    """Write ``data`` as ``directory/name`` atomically, never following a symlink.

    The bytes go to a new temporary file created with ``O_EXCL | O_NOFOLLOW`` inside
    ``directory``, which is then renamed over ``name``: a crash leaves the old file or the new
    one, never a truncated one, and an existing ``name`` (a symlink planted there included) is
    replaced, never opened, so its target is never written.
    """
    if not name or name in (".", "..") or "/" in name or "\0" in name:
        raise ValueError(f"not a plain file name: {name!r}")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
    dir_fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        while True:
            temporary = f".{name}.{secrets.token_hex(6)}.tmp"
            try:
                fd = os.open(temporary, flags, 0o644, dir_fd=dir_fd)
                break
            except FileExistsError:  # pragma: no cover - 48 random bits collided
                continue
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
            os.replace(temporary, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary, dir_fd=dir_fd)
            raise
    finally:
        os.close(dir_fd)
    return Path(directory) / name
