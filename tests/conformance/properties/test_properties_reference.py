"""The reference and the JavaScript example satisfy every property family."""

from __future__ import annotations

import shlex
import shutil
import sys

import pytest
from property_support import REFERENCE, ROOT

from conformance.properties import FAMILIES, PropertySettings, run_properties

JS_ADAPTER = f"cmd:node {shlex.quote(str(ROOT / 'conformance/examples/javascript/adapter.js'))}"


class TestReference:
    """SPEC-006 as a whole: a compliant implementation passes every property (the reference is
    certified the way a stranger is, in-process and through its subprocess entry)."""

    @pytest.mark.slow
    def test_every_family_passes_in_process(self) -> None:
        """Every family passes against python:reference:memory_read with the certification
        seed and a reduced example count."""
        run = run_properties(REFERENCE, PropertySettings(examples=40))
        assert [r.family for r in run.results] == list(FAMILIES)
        failing = {r.family: r.message for r in run.results if r.outcome != "passed"}
        assert failing == {}
        assert run.counterexample_file() is None

    @pytest.mark.slow
    def test_every_family_passes_in_a_subprocess(self) -> None:
        """Every family passes through the phase6-adapter/1 subprocess entry of the reference."""
        spec = f"cmd:{shlex.quote(sys.executable)} -m reference serve"
        run = run_properties(spec, PropertySettings(examples=15))
        assert run.passed, [(r.family, r.message) for r in run.results if r.outcome != "passed"]


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
class TestJavaScriptExample:
    """The JavaScript example (conformance/examples/javascript) is a second implementation
    in another language; the property suite must not tell it apart from the reference."""

    @pytest.mark.slow
    def test_every_family_passes(self) -> None:
        """Every family passes against the JavaScript example."""
        run = run_properties(JS_ADAPTER, PropertySettings(examples=15))
        assert run.passed, [(r.family, r.message) for r in run.results if r.outcome != "passed"]
