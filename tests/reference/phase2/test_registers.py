"""The Phase 2 registers: verbatim quotes, stable IDs, real verifiers (specs/phase2/)."""

from __future__ import annotations

import ast
import json
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from reference.phase2 import ERROR_CODES
from tools.generate.phase2.build import load_registers, schema_validator

ROOT = Path(__file__).resolve().parents[3]
SPECS = ROOT / "specs" / "phase2"
CLAUSES = tomllib.loads((SPECS / "clauses.toml").read_text("utf-8"))
ENTRIES = tomllib.loads((SPECS / "interpretations.toml").read_text("utf-8"))
SPEC_LINES = (ROOT / CLAUSES["spec_file"]).read_text("utf-8").split("\n")
PROPERTIES = {p["name"] for p in CLAUSES["property"]}


class TestClauses:
    """specs/phase2/clauses.toml (phase2-clauses/1)."""

    def test_format(self) -> None:
        """The register declares its format, spec file and profile."""
        assert CLAUSES["format"] == "phase2-clauses/1"
        assert CLAUSES["profile"] == "phase2-context/1"

    @pytest.mark.parametrize("clause", CLAUSES["clause"], ids=lambda c: c["id"])
    def test_quote_is_verbatim(self, clause: dict[str, Any]) -> None:
        """The quote is a substring of the spec line it names."""
        assert clause["quote"] in SPEC_LINES[clause["line"] - 1]

    def test_ids(self) -> None:
        """IDs are P2-<AREA>-NN and unique."""
        ids = [c["id"] for c in CLAUSES["clause"]]
        assert len(ids) == len(set(ids))
        assert all(re.fullmatch(r"P2-[A-Z]+-[0-9]{2}", i) for i in ids)

    @pytest.mark.parametrize("clause", CLAUSES["clause"], ids=lambda c: c["id"])
    def test_verifiers_exist(self, clause: dict[str, Any]) -> None:
        """Each verified_by is 'vectors', a property of the table, or an existing test node."""
        assert clause["verified_by"]
        for item in clause["verified_by"]:
            if item == "vectors":
                continue
            kind, _, name = item.partition(":")
            if kind == "property":
                assert name in PROPERTIES, item
                continue
            assert kind == "test", item
            path, *parts = name.split("::")
            tree = ast.parse((ROOT / path).read_text("utf-8"))
            scope: list[ast.stmt] = tree.body
            for part in parts:
                found = [
                    n
                    for n in scope
                    if isinstance(n, ast.ClassDef | ast.FunctionDef) and n.name == part
                ]
                assert found, item
                scope = found[0].body

    def test_properties_name_known_clauses(self) -> None:
        """Each property lists clauses of the register."""
        ids = {c["id"] for c in CLAUSES["clause"]}
        for prop in CLAUSES["property"]:
            assert set(prop["clauses"]) <= ids, prop["name"]


class TestInterpretations:
    """specs/phase2/interpretations.toml (phase2-interpretations/1)."""

    def test_format_and_ids(self) -> None:
        """P2-INT-NN, numbered without gaps, with every field of the SPEC-006 register."""
        assert ENTRIES["format"] == "phase2-interpretations/1"
        ids = [e["id"] for e in ENTRIES["entry"]]
        assert ids == [f"P2-INT-{n:02d}" for n in range(1, len(ids) + 1)]
        for entry in ENTRIES["entry"]:
            assert {"title", "question", "reading", "rationale", "alternatives", "erratum"} <= set(
                entry
            )
            assert entry["alternatives"], entry["id"]

    def test_clauses_known(self) -> None:
        """Each entry names clauses that exist."""
        clauses, entries = load_registers()
        for entry in entries.values():
            assert set(entry["clauses"]) <= set(clauses), entry["id"]

    def test_errata(self) -> None:
        """The self-contradictions found are flagged errata."""
        errata = {e["id"] for e in ENTRIES["entry"] if e["erratum"]}
        assert errata == {"P2-INT-06", "P2-INT-11", "P2-INT-12", "P2-INT-16"}


class TestSchemas:
    """specs/schemas/phase2/ agrees with the engine's tables."""

    def test_error_codes(self) -> None:
        """The error schema enumerates exactly the engine's error codes."""
        schema = json.loads((ROOT / "specs/schemas/phase2/error.schema.json").read_text("utf-8"))
        assert set(schema["properties"]["error"]["properties"]["code"]["enum"]) == set(ERROR_CODES)

    def test_schemas_are_valid(self) -> None:
        """Every Phase 2 schema compiles (cross-file references resolve)."""
        for path in sorted((ROOT / "specs/schemas/phase2").rglob("*.schema.json")):
            schema_validator(str(path.relative_to(ROOT / "specs/schemas/phase2")))
