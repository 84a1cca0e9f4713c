"""File specs: how a vector describes each file it needs, as exact bytes.

- ``{"lines": [...], "eol": "\\n", "final_eol": true}``: each line a string (UTF-8) or
  ``{"base64": ...}`` (raw bytes), joined with ``eol`` and followed by ``eol`` when ``final_eol``;
- ``{"text": ...}``: exact UTF-8 content; ``{"base64": ...}``: exact bytes;
- ``{"directory": true}``: an (empty) directory.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = [
    "BytesFile",
    "DirectorySpec",
    "FileSpec",
    "LinesFile",
    "TextFile",
    "file_spec_from_json",
    "file_spec_json",
]


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


def file_spec_from_json(raw: Mapping[str, Any]) -> FileSpec:
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
