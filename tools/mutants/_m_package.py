"""Mutants of store paths, the package envelope and the version (READER paths, OUTPUT
CONTRACT, ERROR HANDLING stores, VERSIONING; INT-11..INT-13, INT-45)."""

from __future__ import annotations

from tools.mutants._registry import SourcePatch, Witness, mutant, patch

_SORTED = "    return sorted(first.items())"


@mutant("controller-version-wrong", clauses=("S6-VER-01", "S6-OUT-22"))
def _() -> SourcePatch:
    """controller_version is "phase6-v1.1"."""
    return patch(
        "_package.py",
        'CONTROLLER_VERSION: Final = "phase6-v1"',
        'CONTROLLER_VERSION: Final = "phase6-v1.1"',
    )


@mutant("query-raw-normalized", clauses=("S6-OUT-02",), interpretations=("INT-11",))
def _() -> SourcePatch:
    """query.raw holds the normalized query instead of the query as given."""
    return patch(
        "_controller.py",
        '        query = {"raw": raw, "query_hash": query_hash(request.query, normalize)}',
        '        query = {"raw": normalize(request.query), '
        '"query_hash": query_hash(request.query, normalize)}',
    )


@mutant("store-paths-unsorted", clauses=("S6-READ-05",), interpretations=("INT-12",))
def _() -> SourcePatch:
    """Stores are read in request order (normalized, deduplicated) instead of sorted order."""
    return patch("_paths.py", _SORTED, "    return list(first.items())")


@mutant("store-paths-not-normalized", clauses=("S6-READ-04",), interpretations=("INT-12",))
def _() -> SourcePatch:
    """Store paths are used exactly as given ('./a//b.jsonl' stays as is)."""
    return patch(
        "_paths.py",
        "    normalized = posixpath.normpath(path)\n",
        "    return path\n    normalized = posixpath.normpath(path)\n",
    )


@mutant("store-paths-not-deduplicated", clauses=("S6-READ-04",), interpretations=("INT-12",))
def _() -> SourcePatch:
    """Two spellings of one store are read twice (normalized, sorted, not deduplicated)."""
    return patch(
        "_paths.py",
        _SORTED,
        "    return sorted((normalize_path(path), index) for index, path in enumerate(paths))",
    )


@mutant(
    "store-paths-absolutized",
    clauses=("S6-READ-04", "S6-READ-08"),
    interpretations=("INT-12", "INT-45"),
)
def _() -> SourcePatch:
    """Store paths are made absolute (os.path.abspath) before use and in the package."""
    return patch(
        "_paths.py",
        _SORTED,
        '    return sorted((__import__("os").path.abspath(p), i) for p, i in first.items())',
    )


@mutant("missing-store-skipped", clauses=("S6-ERR-05", "S6-ERR-06"), interpretations=("INT-13",))
def _() -> SourcePatch:
    """A store path that does not exist is skipped (partial success) instead of failing."""
    return patch(
        "_paths.py",
        _SORTED,
        "    return sorted(item for item in first.items()\n"
        '                  if "\\0" not in item[0] and __import__("os").path.lexists(item[0]))',
    )


@mutant(
    "store-paths-locale-collation",
    clauses=("S6-READ-05", "S6-DET-04"),
    interpretations=("INT-12",),
    probes=("environment",),
    witness=Witness(env={"LC_ALL": "en_US.UTF-8"}),
)
def _() -> SourcePatch:
    """Store paths are sorted with the process locale's collation (strcoll), not by code point."""
    return patch(
        "_paths.py",
        _SORTED,
        "    import locale\n"
        "\n"
        "    try:\n"
        '        locale.setlocale(locale.LC_ALL, "")\n'
        "    except locale.Error:\n"
        '        locale.setlocale(locale.LC_ALL, "C")\n'
        "    return sorted(first.items(), key=lambda item: locale.strxfrm(item[0]))",
    )


@mutant(
    "sibling-stores-read",
    clauses=("S6-DET-04", "S6-READ-01", "S6-INPUT-02"),
    probes=("environment",),
)
def _() -> SourcePatch:
    """Every other *.jsonl file beside a requested store is read as well."""
    return patch(
        "_paths.py",
        _SORTED,
        "    import os\n"
        "\n"
        "    chosen = sorted(first.items())\n"
        "    known = {p for p, _ in chosen}\n"
        "    extra = []\n"
        "    for path, index in chosen:\n"
        "        folder = os.path.dirname(path)\n"
        "        try:\n"
        '            names = os.listdir(folder or ".")\n'
        "        except OSError:\n"
        "            continue\n"
        "        for name in names:\n"
        "            sibling = os.path.join(folder, name) if folder else name\n"
        '            if name.endswith(".jsonl") and sibling not in known '
        "and os.path.isfile(sibling):\n"
        "                known.add(sibling)\n"
        "                extra.append((sibling, index))\n"
        "    return sorted(chosen + extra)",
    )
