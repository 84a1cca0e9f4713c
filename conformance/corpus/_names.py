"""File names in a vector: relative POSIX paths of plain segments, and nothing else.

A vector file comes from anyone (``--vectors``), and its ``input.files`` names become files on
the certifier's disk. One rule, applied by the schema (``relativePath`` in
``specs/schemas/vector-file.schema.json``), by the loader and again by the materializer: a name
is one or more segments joined by ``/``; a segment is not empty, not ``.`` or ``..``, at most
255 bytes of UTF-8, and holds no control character (C0, DEL, C1), no backslash and no lone
surrogate. So a name is never absolute, never climbs out of the vector root, and never hides a
newline from a pattern anchored with ``$`` (the hole the schema's pattern had: ``"x\\n/../../x"``).

A set of names must also fit in one tree: a name that is a file cannot be the directory of
another name (``a`` and ``a/b``), unless it is declared ``{"directory": true}``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = ["MAX_NAME_CHARS", "MAX_SEGMENT_BYTES", "name_collisions", "name_problem"]

#: The longest name accepted, in characters (the schema's ``maxLength``).
MAX_NAME_CHARS = 1024
#: The longest segment, in bytes of UTF-8 (``NAME_MAX`` on Linux and macOS).
MAX_SEGMENT_BYTES = 255
#: Characters no segment may hold: C0 controls, DEL, C1 controls, backslash, lone surrogates.
_FORBIDDEN = re.compile("[\x00-\x1f\x7f-\x9f\\\\\ud800-\udfff]")


def name_problem(name: object) -> str | None:
    """Why ``name`` is not a safe file name for a vector root, or ``None`` when it is."""
    if not isinstance(name, str):
        return f"not a string: {type(name).__name__}"
    if not name:
        return "empty"
    if len(name) > MAX_NAME_CHARS:
        return f"longer than {MAX_NAME_CHARS} characters"
    bad = _FORBIDDEN.search(name)
    if bad is not None:
        code = ord(bad.group())
        what = "a backslash" if code == 0x5C else f"the control character U+{code:04X}"
        if 0xD800 <= code <= 0xDFFF:
            what = f"the lone surrogate U+{code:04X}"
        return f"holds {what}"
    if name.startswith("/"):
        return "absolute (starts with '/')"
    for segment in name.split("/"):
        if not segment:
            return "has an empty segment ('//' or a trailing '/')"
        if segment in (".", ".."):
            return f"has a {segment!r} segment"
        if len(segment.encode("utf-8")) > MAX_SEGMENT_BYTES:
            return f"has a segment longer than {MAX_SEGMENT_BYTES} bytes"
    return None


def name_collisions(names: Iterable[tuple[str, bool]]) -> list[str]:
    """Names that cannot live in one tree: ``(name, is_directory)`` pairs in, problems out."""
    entries = dict(names)
    problems = []
    for name in sorted(entries):
        parts = name.split("/")
        for cut in range(1, len(parts)):
            parent = "/".join(parts[:cut])
            if parent in entries and not entries[parent]:
                problems.append(f"{parent!r} is a file and also the directory of {name!r}")
                break
    return problems
