"""Where the kit's data lives, the kit's own version, and the JSON helpers the harness shares.

From a checkout the corpus and the specs are the repository's ``vectors/`` and ``specs/``; an
installed wheel carries copies under ``conformance/_data/{vectors,specs}`` (pyproject's
``force-include``). JSON goes through orjson (fast) with a stdlib fallback for what orjson
refuses (integers beyond 64 bits, lone surrogates); NaN and Infinity are never JSON.

What the harness reads from strangers (their files, their implementations' output) passes
through the helpers at the bottom: :func:`read_bounded` (a size cap, regular files only, never a
hang on a FIFO or a device), :func:`json_problem` (nesting and types a report can hold),
:func:`unicode_safe` (text a UTF-8 file can hold) and :func:`terminal_safe` / :func:`one_line`
(text a terminal can show without being driven by it).
"""

from __future__ import annotations

import collections
import contextlib
import errno
import functools
import importlib.metadata
import json
import math
import os
import re
import secrets
import stat
import tomllib
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

import orjson

__all__ = [
    "DIST_NAME",
    "KIT_NAME",
    "MAX_JSON_DEPTH",
    "DuplicateNameError",
    "data_root",
    "dumps",
    "dumps_pretty",
    "json_problem",
    "kit_version",
    "loads",
    "one_line",
    "read_bounded",
    "repo_root",
    "slugify",
    "specs_dir",
    "terminal_safe",
    "unicode_safe",
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


#: A number starting with 19 digits: the shortest text of an integer orjson cannot hold exactly
#: (beyond 64 bits it returns a float without a word). Digits after a letter, a quote or a point
#: (hashes, fractions) do not match; a string holding such a number may, and is then merely
#: parsed by the exact parser.
_LONG_INTEGER: Final = re.compile(rb"(?:^|[\s:,\[-])[0-9]{19}")


class DuplicateNameError(ValueError):
    """A JSON object names the same member twice (``loads(..., unique=True)``).

    RFC 8259 section 4: "The names within an object SHOULD be unique", and when they are not
    "the behavior of software that receives such an object is unpredictable" (some readers
    keep the first, some the last); I-JSON (RFC 7493 section 2.3) "MUST NOT" have duplicates.
    """

    def __init__(self, name: str, count: int) -> None:
        self.name = name
        self.count = count
        super().__init__(
            f"the member name {unicode_safe(name)!r} appears {count} times in one object"
        )


def _unique_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``object_pairs_hook``: the object, or :class:`DuplicateNameError` on a repeated name."""
    obj = dict(pairs)
    if len(obj) != len(pairs):
        counts = collections.Counter(name for name, _ in pairs)
        repeated, count = counts.most_common(1)[0]
        raise DuplicateNameError(repeated, count)
    return obj


def loads(data: bytes | str, *, unique: bool = False) -> Any:
    """Parse one JSON text strictly (no NaN/Infinity), losing nothing: orjson, or the stdlib
    where a number may be an integer beyond 64 bits (orjson would give a float) or orjson
    refuses the text (lone-surrogate escapes, which are JSON).

    With ``unique`` an object naming a member twice is refused (:class:`DuplicateNameError`)
    instead of keeping its last copy: for what an implementation under test sends, where a
    first-wins reader would see another answer than the one certified. It parses with the
    stdlib and a hook per object (orjson cannot see duplicates): measured about 2.3x orjson on
    the corpus's replies, 17 microseconds each.

    Raises ``ValueError`` (``UnicodeDecodeError`` included) for anything that is not JSON, and
    for JSON nested so deep that the stdlib parser would exhaust the stack.
    """
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    if unique:
        try:
            return json.loads(
                data.decode("utf-8") if isinstance(data, bytes) else data,
                parse_constant=_reject_constant,
                object_pairs_hook=_unique_object,
            )
        except RecursionError:
            raise ValueError("JSON nested too deeply to parse") from None
    if _LONG_INTEGER.search(raw) is None:
        try:
            return orjson.loads(data)
        except orjson.JSONDecodeError:
            pass
    text = data.decode("utf-8") if isinstance(data, bytes) else data
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except RecursionError:
        raise ValueError("JSON nested too deeply to parse") from None


def dumps(value: Any) -> bytes:
    """Serialize compactly to UTF-8 bytes (values parsed from JSON hold no NaN/Infinity)."""
    try:
        return orjson.dumps(value)
    except TypeError:
        pass  # big ints, lone surrogates: the stdlib can, with escapes
    return json.dumps(value, ensure_ascii=True, allow_nan=False, separators=(",", ":")).encode()


def dumps_pretty(value: Any) -> str:
    """Indented, key-sorted JSON text for humans (diffs, ``vectors show``).

    Always valid Unicode (lone surrogates come out as ``\\udxxx`` escapes); a value nested too
    deeply to write raises ``ValueError``.
    """
    try:
        return orjson.dumps(value, option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS).decode()
    except TypeError:
        pass
    try:
        text = json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False, default=repr)
    except RecursionError:
        raise ValueError("value nested too deeply to write") from None
    except TypeError:  # keys of mixed types cannot be sorted
        text = json.dumps(value, indent=2, ensure_ascii=False, default=repr)
    return unicode_safe(text)


def utc_now() -> str:
    """The current UTC time as RFC 3339 with milliseconds (the harness may read the clock)."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def slugify(text: str) -> str:
    """A file-name-safe slug (``reports/<slug>/``)."""
    slug = re.sub(r"[^a-z0-9._-]+", "-", text.lower()).strip("-.")
    return slug[:80] or "implementation"


# ------------------------------------------------------------------------------ strangers' input

#: The deepest nesting of arrays and objects the harness accepts from a stranger (an
#: implementation's reply, a vector file): the deepest value orjson writes. SPEC-006 results
#: nest about 7 levels.
MAX_JSON_DEPTH = 254


def json_problem(value: Any, *, max_depth: int = MAX_JSON_DEPTH, text: bool = False) -> str | None:
    """Why ``value`` (parsed JSON) cannot be kept and rendered safely, or ``None``.

    Problems: containers nested deeper than ``max_depth``; a value that is not JSON (a Python
    object that no parser returns); with ``text=True`` also a string or member name that is not
    valid Unicode (a lone surrogate, which no UTF-8 file can hold). Fast path: what orjson can
    write has none of these problems (it refuses lone surrogates and nesting beyond 254).
    """
    try:
        orjson.dumps(value)
    except TypeError:
        pass
    else:
        return None
    stack: list[tuple[Any, int, str]] = [(value, 0, "")]
    while stack:
        item, depth, pointer = stack.pop()
        if isinstance(item, dict | list):
            if depth >= max_depth:
                return f"nested deeper than {max_depth} levels (at {_where(pointer)})"
            if isinstance(item, dict):
                for key, child in item.items():
                    if not isinstance(key, str):
                        return f"member name {key!r} is not a string (in {_where(pointer)})"
                    if text and not _is_unicode(key):
                        name = unicode_safe(key)
                        return f"member name {name!r} is not valid Unicode (in {_where(pointer)})"
                    escaped = key.replace("~", "~0").replace("/", "~1")
                    stack.append((child, depth + 1, f"{pointer}/{escaped}"))
            else:
                stack.extend((child, depth + 1, f"{pointer}/{i}") for i, child in enumerate(item))
        elif isinstance(item, str):
            if text and not _is_unicode(item):
                return f"the string at {_where(pointer)} is not valid Unicode"
        elif isinstance(item, float):
            if not math.isfinite(item):
                return f"{item!r} at {_where(pointer)} is not JSON"
        elif item is not None and not isinstance(item, bool | int):
            return f"a {type(item).__name__} at {_where(pointer)} is not JSON"
    return None


def _where(pointer: str, limit: int = 60) -> str:
    shown = unicode_safe(pointer) or "/"
    return repr(shown if len(shown) <= limit else "..." + shown[-limit:])


def _is_unicode(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def unicode_safe(text: str) -> str:
    """``text`` as valid Unicode: each lone surrogate becomes the six characters ``\\udxxx``."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text


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
    """``text`` with every control character escaped (``\\x1b``) but newline and tab.

    For what an implementation wrote (an error message, a stderr tail, its name) before the
    kit prints it: no escape sequence in it can move the cursor, recolour, retitle or rewrite
    the terminal. Idempotent: the escapes it writes are plain text.
    """
    return _UNSAFE.sub(_escaped, str(text))


def one_line(text: object) -> str:
    """``text`` as one terminal-safe line: newlines and tabs escaped as well.

    For anything an implementation wrote that the kit prints inside a line of its own: no
    escape sequence, carriage return or newline in it can draw over, or forge, a line the kit
    prints.
    """
    return _UNSAFE_LINE.sub(_escaped, str(text))


def read_bounded(path: str | os.PathLike[str], limit: int) -> bytes:
    """The bytes of the regular file at ``path``, at most ``limit`` of them.

    Raises ``OSError``: the usual ones (missing, unreadable, a directory), ``EFBIG`` when the
    file holds more than ``limit`` bytes (checked before reading, and again while reading, for
    a file that grows), and ``EINVAL`` for anything that is not a regular file: a FIFO is never
    waited on and a device (``/dev/zero``) never read.
    """
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise IsADirectoryError(errno.EISDIR, "is a directory", os.fspath(path))
        if not stat.S_ISREG(info.st_mode):
            kind = _FILE_KINDS.get(stat.S_IFMT(info.st_mode), "special file")
            raise OSError(errno.EINVAL, f"not a regular file (a {kind})", os.fspath(path))
        if info.st_size > limit:
            raise OSError(errno.EFBIG, _too_big(info.st_size, limit), os.fspath(path))
        chunks: list[bytes] = []
        total = 0
        while True:
            chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:
                raise OSError(errno.EFBIG, _too_big(total, limit), os.fspath(path))
    finally:
        os.close(fd)


_FILE_KINDS = {
    stat.S_IFCHR: "character device",
    stat.S_IFBLK: "block device",
    stat.S_IFIFO: "FIFO",
    stat.S_IFSOCK: "socket",
}


def _too_big(size: int, limit: int) -> str:
    return f"larger than the limit of {limit:,} bytes (at least {size:,})"


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
