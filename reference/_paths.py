"""Lexical store-path normalization, deduplication and ordering (S6-READ-04/05, INT-12)."""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from typing import Final

__all__ = ["STORE_LISTS", "normalize_path", "ordered_unique"]


def normalize_path(path: str) -> str:
    """POSIX lexical normalization without touching the filesystem (INT-12).

    Collapses repeated '/', drops '.' segments, resolves '..' against a preceding segment
    (leading '..' of a relative path stay; '..' at '/' is dropped), removes a trailing '/'.
    posixpath.normpath keeps a leading '//' (POSIX leaves it implementation-defined); the pin
    collapses it like any other repeated '/'.
    """
    normalized = posixpath.normpath(path)
    if normalized.startswith("//"):
        normalized = "/" + normalized.lstrip("/")
    return normalized


def ordered_unique(paths: list[str]) -> list[tuple[str, int]]:
    """Normalized paths, deduplicated and sorted by code point, each with its first index.

    S6-READ-05: "store_paths MUST be normalized and sorted lexicographically before read".
    The index is the position of the first request entry that normalizes to the path; errors
    about that store point at it (specs/errors.md).
    """
    first: dict[str, int] = {}
    for index, path in enumerate(paths):
        first.setdefault(normalize_path(path), index)
    return sorted(first.items())


def ordered_all(paths: list[str]) -> list[tuple[str, int]]:
    """INT-12/keep-duplicates-read-twice: every request entry normalized and sorted by code
    point, duplicates kept (each is read as often as it is named), each with its own index."""
    return sorted((normalize_path(path), index) for index, path in enumerate(paths))


def _utf16_units(path: str) -> bytes:
    return path.encode("utf-16-be", "surrogatepass")


def ordered_unique_utf16(paths: list[str]) -> list[tuple[str, int]]:
    """INT-12/sort-utf-16-code: as `ordered_unique`, sorted by UTF-16 code units (what
    JavaScript's default sort and Java's String.compareTo do): a non-BMP character sorts
    before U+E000..U+FFFF."""
    return sorted(ordered_unique(paths), key=lambda item: _utf16_units(item[0]))


#: INT-12: request store_paths -> the stores to read, in read order, each with the index of
#: the request entry errors point at (the pinned reading first; ``_readings.py``).
STORE_LISTS: Final[dict[str, Callable[[list[str]], list[tuple[str, int]]]]] = {
    "unique-code-points": ordered_unique,
    "keep-duplicates": ordered_all,
    "unique-utf-16-units": ordered_unique_utf16,
}
