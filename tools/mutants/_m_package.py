"""Mutants of store paths, the package envelope and the version (READER paths, OUTPUT
CONTRACT, ERROR HANDLING stores, VERSIONING; INT-11..INT-13, INT-45)."""

from __future__ import annotations

import locale
import os
from typing import Any

from tools.mutants._patch import replace, wrap
from tools.mutants._registry import Witness, mutant


def _stores_variant(change: Any) -> None:
    """Wrap the controller's normalize/dedupe/sort of store paths: ``change(original, paths)``."""
    from reference import _controller

    wrap(_controller, "ordered_unique", lambda original: lambda paths: change(original, paths))


@mutant("controller-version-wrong", clauses=("S6-VER-01", "S6-OUT-22"))
def _() -> None:
    """controller_version is "phase6-v1.1"."""
    from reference import _controller

    replace(_controller, "CONTROLLER_VERSION", "phase6-v1.1")


@mutant("query-raw-normalized", clauses=("S6-OUT-02",), interpretations=("INT-11",))
def _() -> None:
    """query.raw holds the normalized query instead of the query as given."""
    from reference import _controller
    from reference._package import package_hash
    from reference._text import normalize

    def make(original: Any) -> Any:
        def read_package(request: Any) -> Any:
            package, receipt = original(request)
            package["query"]["raw"] = normalize(package["query"]["raw"])
            package["package_hash"] = package_hash(package)
            receipt["data"]["package_hash"] = package["package_hash"]
            return package, receipt

        return read_package

    wrap(_controller, "read_package", make)


@mutant("store-paths-unsorted", clauses=("S6-READ-05",), interpretations=("INT-12",))
def _() -> None:
    """Stores are read in request order (normalized, deduplicated) instead of sorted order."""
    from reference._paths import normalize_path

    def change(original: Any, paths: list[str]) -> list[tuple[str, int]]:
        first: dict[str, int] = {}
        for index, path in enumerate(paths):
            first.setdefault(normalize_path(path), index)
        return list(first.items())

    _stores_variant(change)


@mutant("store-paths-not-normalized", clauses=("S6-READ-04",), interpretations=("INT-12",))
def _() -> None:
    """Store paths are used exactly as given ('./a//b.jsonl' stays as is)."""
    from reference import _paths

    replace(_paths, "normalize_path", lambda path: path)


@mutant("store-paths-not-deduplicated", clauses=("S6-READ-04",), interpretations=("INT-12",))
def _() -> None:
    """Two spellings of one store are read twice (normalized, sorted, not deduplicated)."""
    from reference._paths import normalize_path

    def change(original: Any, paths: list[str]) -> list[tuple[str, int]]:
        return sorted((normalize_path(path), index) for index, path in enumerate(paths))

    _stores_variant(change)


@mutant(
    "store-paths-absolutized",
    clauses=("S6-READ-04", "S6-READ-08"),
    interpretations=("INT-12", "INT-45"),
)
def _() -> None:
    """Store paths are made absolute (os.path.abspath) before use and in the package."""

    def change(original: Any, paths: list[str]) -> list[tuple[str, int]]:
        return sorted((os.path.abspath(p), i) for p, i in original(paths))

    _stores_variant(change)


@mutant("missing-store-skipped", clauses=("S6-ERR-05", "S6-ERR-06"), interpretations=("INT-13",))
def _() -> None:
    """A store path that does not exist is skipped (partial success) instead of failing."""

    def change(original: Any, paths: list[str]) -> list[tuple[str, int]]:
        return [(p, i) for p, i in original(paths) if "\0" not in p and os.path.lexists(p)]

    _stores_variant(change)


@mutant(
    "store-paths-locale-collation",
    clauses=("S6-READ-05", "S6-DET-04"),
    interpretations=("INT-12",),
    probes=("environment",),
    witness=Witness(env={"LC_ALL": "en_US.UTF-8"}),
)
def _() -> None:
    """Store paths are sorted with the process locale's collation (strcoll), not by code point."""
    try:
        locale.setlocale(locale.LC_ALL, "")
    except locale.Error:
        locale.setlocale(locale.LC_ALL, "C")

    def change(original: Any, paths: list[str]) -> list[tuple[str, int]]:
        return sorted(original(paths), key=lambda item: locale.strxfrm(item[0]))

    _stores_variant(change)


@mutant(
    "sibling-stores-read",
    clauses=("S6-DET-04", "S6-READ-01", "S6-INPUT-02"),
    probes=("environment",),
)
def _() -> None:
    """Every other *.jsonl file beside a requested store is read as well."""

    def change(original: Any, paths: list[str]) -> list[tuple[str, int]]:
        chosen = original(paths)
        known = {p for p, _ in chosen}
        extra = []
        for path, index in chosen:
            folder = os.path.dirname(path)
            try:
                names = os.listdir(folder or ".")
            except OSError:
                continue
            for name in names:
                sibling = os.path.join(folder, name) if folder else name
                if name.endswith(".jsonl") and sibling not in known and os.path.isfile(sibling):
                    known.add(sibling)
                    extra.append((sibling, index))
        return sorted(chosen + extra)

    _stores_variant(change)
