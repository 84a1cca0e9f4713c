"""``python -m conformance.properties``: outputs, files and exit codes."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from conformance import load_corpus
from conformance.cli import main


def cli(*argv: str) -> tuple[int, str]:
    """Run the command in-process; (exit code, stdout)."""
    out = io.StringIO()
    return main(["properties", *argv], out=out), out.getvalue()


class TestCommand:
    """The nox ``properties`` session runs this command; it writes reports/<impl>/properties.json
    and, on a failure, the counterexample corpus next to it."""

    def test_passing_run(self, tmp_path: Path) -> None:
        """Exit 0 and a passing properties.json when every chosen family passes."""
        code, out = cli(
            "--adapter",
            "python:reference:memory_read",
            "--family",
            "budget",
            "--examples",
            "5",
            "--report-dir",
            str(tmp_path),
        )
        assert code == 0, out
        document = json.loads((tmp_path / "properties.json").read_text("utf-8"))
        assert document["format"] == "phase6-properties/1"
        assert document["passed"] is True
        assert document["section"]["status"] == "passed"
        assert not (tmp_path / "counterexamples").exists()

    @pytest.mark.slow
    def test_failing_run_writes_counterexamples(self, tmp_path: Path) -> None:
        """Exit 1; the counterexample file is a corpus the harness can load and replay."""
        code, out = cli(
            "--adapter",
            "python:property_fakes:reverse_selected",
            "--family",
            "order",
            "--report-dir",
            str(tmp_path),
        )
        assert code == 1, out
        assert "property:order" in out
        assert "counterexample vector: prop-order-" in out
        corpus = load_corpus(tmp_path / "counterexamples")
        assert len(corpus) >= 1
        document = json.loads((tmp_path / "properties.json").read_text("utf-8"))
        assert document["section"]["status"] == "failed"
        assert "--seed 6006" in document["section"]["data"]["reproduce"]

    def test_usage_errors(self) -> None:
        """An unknown family is a usage error (exit 2), not an empty pass."""
        code, _ = cli("--family", "colour")
        assert code == 2
