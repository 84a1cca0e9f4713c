"""The house rules of the package layout, checked: imports go one way, and what ships stays apart
from what only builds the kit.

Every module of ``conformance`` belongs to a unit (a subpackage, or one of the bottom modules);
each unit may import only the units listed in :data:`ALLOWED`. The reference is certified like
a stranger, so nothing shipped imports its internals, and nothing shipped imports ``tools``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest
from paths import REPO

BOTTOM = frozenset({"_kit", "_errors", "_schemas"})
#: unit -> the units it may import (besides itself). Read top to bottom: the layering.
ALLOWED: dict[str, frozenset[str]] = {
    "_kit": frozenset(),
    "_errors": frozenset(),
    "_schemas": frozenset({"_kit", "_errors"}),
    "readings": BOTTOM,
    "corpus": BOTTOM,
    "registers": BOTTOM | {"corpus"},
    "adapters": BOTTOM,
    "run": BOTTOM | {"corpus", "adapters", "registers"},
    "report": BOTTOM | {"corpus", "run", "registers"},
    "site": BOTTOM | {"corpus", "registers", "report"},
    "store": BOTTOM | {"readings"},
    "audit": BOTTOM | {"readings", "adapters", "corpus", "run"},
    "strategies": BOTTOM | {"readings", "corpus"},
    "properties": BOTTOM | {"readings", "corpus", "adapters", "run", "registers", "strategies"},
    "probes": BOTTOM | {"corpus", "adapters", "run", "registers"},
    "phase2": BOTTOM | {"corpus", "registers", "adapters", "run", "properties"},
    "pytest_plugin": BOTTOM | {"corpus", "adapters", "run", "registers", "properties"},
    "cli": BOTTOM
    | {
        "corpus",
        "registers",
        "adapters",
        "run",
        "report",
        "store",
        "properties",
        "probes",
        "audit",
        "phase2",
        "site",
    },
    "__main__": frozenset({"cli"}),
    "__init__": BOTTOM | {"corpus", "registers", "adapters", "run", "report"},
}
SHIPPED = ("conformance", "reference")


def _unit(path: Path) -> str:
    parts = path.relative_to(REPO / "conformance").with_suffix("").parts
    return parts[0]


def _modules(package: str) -> Iterator[Path]:
    for path in sorted((REPO / package).rglob("*.py")):
        if "examples" not in path.parts:
            yield path


def _imports(path: Path) -> Iterator[str]:
    """Every absolute module name ``path`` imports (``from a.b import c`` gives ``a.b.c`` too)."""
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.module
            yield from (f"{node.module}.{alias.name}" for alias in node.names)


class TestLayering:
    """The package map of CONTRIBUTING.md, enforced."""

    @pytest.mark.parametrize("path", list(_modules("conformance")), ids=lambda p: p.name)
    def test_imports_go_one_way(self, path: Path) -> None:
        """A conformance module imports only the units its unit may import (ALLOWED)."""
        unit = _unit(path)
        assert unit in ALLOWED, f"{path}: unit {unit!r} is not in the layering table"
        used = {
            name.split(".")[1]
            for name in _imports(path)
            if name.startswith("conformance.") and len(name.split(".")) > 1
        }
        used.discard(unit)
        forbidden = used - ALLOWED[unit]
        assert not forbidden, f"{path.relative_to(REPO)} ({unit}) imports {sorted(forbidden)}"

    @pytest.mark.parametrize("package", SHIPPED)
    def test_shipped_code_never_imports_tools(self, package: str) -> None:
        """Nothing in the wheel imports the build tooling (generators, oracle, mutants, benches)."""
        offenders = [
            str(path.relative_to(REPO))
            for path in _modules(package)
            if any(name == "tools" or name.startswith("tools.") for name in _imports(path))
        ]
        assert offenders == []

    def test_no_reference_internals_outside_tools(self) -> None:
        """Only tools/ (and tests) may import a reference internal (``reference._x``)."""
        offenders = [
            f"{path.relative_to(REPO)}: {name}"
            for package in ("conformance", "adam_os_data")
            for path in (REPO / package).rglob("*.py")
            for name in _imports(path)
            if name.startswith("reference._")
        ]
        assert offenders == []

    def test_the_harness_never_imports_the_reference(self) -> None:
        """The harness certifies the reference through an adapter, like any stranger (STYLE)."""
        offenders = [
            str(path.relative_to(REPO))
            for path in _modules("conformance")
            if any(name == "reference" or name.startswith("reference.") for name in _imports(path))
        ]
        assert offenders == []
