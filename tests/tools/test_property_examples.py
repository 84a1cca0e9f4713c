"""``python -m tools property-examples``: the stored certification examples are what hypothesis
draws for a default certification, and the tool says where a regeneration differs."""

from __future__ import annotations

from dataclasses import replace

import hypothesis
import pytest

from conformance.properties import DEFAULT_SEED, FAMILIES
from conformance.properties._stored import StoredExamples, load_stored
from tools import property_examples
from tools.__main__ import TOOLS


def _stored() -> StoredExamples:
    stored, _ = load_stored()
    return stored


def _same_hypothesis() -> None:
    """Skip, naming both versions, unless the installed hypothesis generated the file."""
    generator = _stored().hypothesis
    if hypothesis.__version__ != generator:
        pytest.skip(
            f"the stored examples were generated with hypothesis {generator}, "
            f"hypothesis {hypothesis.__version__} is installed: another version may draw "
            "other inputs, so a regeneration is not comparable"
        )


class TestRecording:
    """Recording runs each family the way a default certification does, with a body that
    always passes, so the cases are those the family's check sees."""

    def test_tool_is_registered(self) -> None:
        """`python -m tools` lists the command."""
        assert TOOLS["property-examples"][0] == "tools.property_examples"

    def test_one_family_regenerates_identically(self) -> None:
        """Recording the smallest family again gives its stored cases, in order."""
        _same_hypothesis()
        family = FAMILIES["determinism"]
        recorded = property_examples.record_cases(family, DEFAULT_SEED, family.examples)
        assert recorded == _stored().families[family.name][1]

    def test_differences_name_the_family_and_case(self) -> None:
        """A changed case and a changed header field are each reported on a line."""
        stored = _stored()
        examples, cases = stored.families["order"]
        index = next(i for i, case in enumerate(cases) if case != cases[0])
        changed = (*cases[:index], cases[0], *cases[index + 1 :])
        fresh = replace(
            stored,
            hypothesis="0.0.0",
            families={**stored.families, "order": (examples, changed)},
        )
        lines = property_examples.differences(fresh, stored)
        assert f"hypothesis: committed {stored.hypothesis!r}, regenerated '0.0.0'" in lines
        assert any(
            line.startswith("family order:") and f"first difference at case {index}" in line
            for line in lines
        )
        assert len(lines) == 2
        assert property_examples.differences(stored, stored) == []


@pytest.mark.slow
class TestCheck:
    """`python -m tools property-examples --check` passes on the committed file."""

    def test_check_passes(self, capsys: pytest.CaptureFixture[str]) -> None:
        """A whole regeneration equals the committed file (with the generator's hypothesis)."""
        _same_hypothesis()
        assert property_examples.main(["--check"]) == 0
        assert "up to date" in capsys.readouterr().out
