"""Store paths and store files: INT-12 path normalization, INT-13 what counts as readable,
INT-45 relative paths, and errors.md checks 9-10 (missing or unreadable stores).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

from conformance.readings._request import RequestError

__all__ = [
    "Undecided",
    "normalize_path",
    "on_disk",
    "read_regular_file",
    "read_stores",
    "require_unicode",
]


class Undecided(Exception):
    """The input lies outside what the spec and the register decide: no reading applies."""


# ------------------------------------------------------------------------------ paths


def normalize_path(path: str) -> str:
    """INT-12: lexical POSIX normalization, no filesystem access."""
    absolute = path.startswith("/")
    segments: list[str] = []
    for seg in path.split("/"):
        if seg in ("", "."):  # collapse repeated '/', remove '.' segments, trailing '/'
            continue
        if seg == "..":
            if segments and segments[-1] != "..":
                segments.pop()  # resolve against the preceding segment
            elif not absolute:
                segments.append("..")  # leading '..' of a relative path is kept
            # '..' at the root of an absolute path is dropped
            continue
        segments.append(seg)
    body = "/".join(segments)
    if absolute:
        return "/" + body
    return body or "."  # oracle choice: an empty relative result is "."


def on_disk(root: Path, normalized: str) -> Path:
    """INT-45: relative paths resolve against the root (joined, no chdir)."""
    return Path(normalized) if normalized.startswith("/") else root / normalized


def read_regular_file(path: Path) -> bytes | None:
    """Return the bytes, or None when the path does not exist; OSError when not readable."""
    try:
        info = os.stat(path)  # follows symlinks
    except (FileNotFoundError, NotADirectoryError):
        return None
    except ValueError as exc:  # e.g. an embedded NUL
        raise Undecided(f"unusable path {str(path)!r}") from exc
    if not stat.S_ISREG(info.st_mode):
        raise OSError(f"{path} is not a regular file")  # INT-13: "a directory, a FIFO"
    with open(path, "rb") as handle:
        return handle.read()


# --------------------------------------------------------------------- filesystem checks


def require_unicode(value: str, what: str) -> None:
    """A lone surrogate cannot be UTF-8 encoded, opened or hashed: no answer (Undecided)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise Undecided(f"{what} is not valid Unicode") from None


def read_stores(
    store_paths: list[str],
    root: Path,
    *,
    duplicates: str = "once",
    order: str = "code-points",
    missing: str = "error",
    checks: str = "sorted",
) -> list[tuple[str, bytes]]:
    """READER 1) 'store_paths MUST be normalized and sorted lexicographically before read'.

    INT-12: deduplicated, code-point order. errors.md 9/10: checked in that order, first failure
    wins, path = index of the first request element that normalizes to it.

    Alternatives: ``duplicates="twice"`` (INT-12/keep-duplicates-read-twice: every request
    element read, each with its own index); ``order="utf-16-units"`` (INT-12/sort-utf-16-code);
    ``missing="skip"`` (INT-13/skip-missing-stores-partial: a store that does not exist is
    left out); ``checks="request"`` (INT-13/check-request-order: the first failure in request
    order wins, the stores are still read in sorted order).
    """
    named: list[tuple[str, int]] = []
    seen: set[str] = set()
    for i, sp in enumerate(store_paths):
        normalized = normalize_path(sp)
        if duplicates == "twice" or normalized not in seen:
            named.append((normalized, i))
            seen.add(normalized)

    def sort_key(item: tuple[str, int]) -> tuple[Any, int]:
        path, index = item
        if order == "utf-16-units":
            units = path.encode("utf-16-be", errors="surrogatepass")
            return [int.from_bytes(units[k : k + 2], "big") for k in range(0, len(units), 2)], index
        return [ord(ch) for ch in path], index

    named.sort(key=sort_key)
    checked = sorted(named, key=lambda item: item[1]) if checks == "request" else named
    contents: dict[int, bytes | None] = {}
    for normalized, index in checked:
        where = f"/store_paths/{index}"
        require_unicode(normalized, "store path")
        try:
            data = read_regular_file(on_disk(root, normalized))
        except OSError:
            raise RequestError(
                "store_not_readable", where, f"store {normalized!r} is not a readable file"
            ) from None
        if data is None and missing != "skip":
            raise RequestError("store_not_found", where, f"store {normalized!r} does not exist")
        contents[index] = data
    return [
        (normalized, data) for normalized, index in named if (data := contents[index]) is not None
    ]
