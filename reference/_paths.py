"""Lexical store-path normalization, deduplication and ordering (S6-READ-04/05, INT-12)."""

from __future__ import annotations

import posixpath

__all__ = ["normalize_path", "ordered_unique"]


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
