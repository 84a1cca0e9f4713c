"""Where things are, for every test module: the repository and the tests' own support files."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TESTS = REPO / "tests"
FAKES = TESTS / "fakes"
FIXTURES = TESTS / "fixtures"
SPECS = REPO / "specs"
VECTORS = REPO / "vectors"
