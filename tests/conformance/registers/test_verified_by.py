"""The registers' ``verified_by`` names point at things that exist: a moved test file or a
renamed probe must not leave an entry verified by nothing."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import pytest

from conformance.probes import PROBES
from conformance.properties import FAMILIES

ROOT = Path(__file__).resolve().parents[3]
SPECS = ROOT / "specs"


def _names() -> list[tuple[str, str]]:
    found = []
    for register, table in (("clauses.toml", "clause"), ("interpretations.toml", "entry")):
        document = tomllib.loads((SPECS / register).read_text("utf-8"))
        for item in document[table]:
            found += [(item["id"], name) for name in item.get("verified_by", ())]
    return found


def _defined(path: Path) -> set[str]:
    tree = ast.parse(path.read_text("utf-8"))
    return {
        node.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
    }


@pytest.mark.parametrize(("entry", "name"), _names(), ids=str)
def test_verified_by_exists(entry: str, name: str) -> None:
    """Each ``verified_by`` name is ``vectors``, a probe, a property family, or a test file
    under tests/ defining the named class or function."""
    if name == "vectors":
        return
    kind, _, rest = name.partition(":")
    if kind == "probe":
        assert rest in PROBES, f"{entry}: no probe {rest!r}"
    elif kind == "property":
        assert rest in FAMILIES, f"{entry}: no property family {rest!r}"
    else:
        path, _, qualified = name.partition("::")
        assert path.startswith("tests/"), f"{entry}: {name!r}: not a test path"
        assert (ROOT / path).is_file(), f"{entry}: {path} does not exist"
        missing = set(qualified.split("::")) - _defined(ROOT / path) - {""}
        assert not missing, f"{entry}: {path} defines no {sorted(missing)}"
