"""The runtimes probes (``tools/runtimes``): every ``runtimes`` fact of the registers has a probe
that prints it or a stated reason why none can, and the command says why a runtime is skipped."""

from __future__ import annotations

import subprocess
import tomllib
from collections.abc import Sequence

import pytest

from conformance._kit import specs_dir
from conformance.registers import RUNTIMES, load_interpretations
from tools import runtimes
from tools.runtimes import PROBED_AS, PROBES, UNPROBED, observations

FACTS = sorted(
    (entry.id, runtime) for entry in load_interpretations() for runtime in entry.runtimes
)
PHASE2 = tomllib.loads((specs_dir() / "phase2" / "interpretations.toml").read_text("utf-8"))
PHASE2_FACTS = sorted(
    (entry["id"], runtime) for entry in PHASE2["entry"] for runtime in entry.get("runtimes", {})
)


class TestProbes:
    def test_every_runtime_has_a_probe(self) -> None:
        """Each runtime the register records has a probe source on disk."""
        assert set(PROBES) == set(RUNTIMES)
        for probe in PROBES.values():
            assert probe.source.is_file(), probe.source

    @pytest.mark.parametrize(("entry", "runtime"), FACTS)
    def test_every_fact_is_probed_or_explained(self, entry: str, runtime: str) -> None:
        """A runtimes fact is printed by its runtime's probe (the entry's ID is in the source)
        or listed in UNPROBED with a reason."""
        source = PROBES[runtime].source.read_text(encoding="utf-8")
        probed = f'"{entry}"' in source or f"'{entry}'" in source
        assert probed or UNPROBED.get((entry, runtime)), (entry, runtime)

    @pytest.mark.parametrize(("entry", "runtime"), PHASE2_FACTS)
    def test_every_phase2_fact_is_probed(self, entry: str, runtime: str) -> None:
        """A Phase 2 runtimes fact is printed under the SPEC-006 entry PROBED_AS names."""
        source = PROBES[runtime].source.read_text(encoding="utf-8")
        probed = PROBED_AS[entry]
        assert f'"{probed}"' in source or f"'{probed}'" in source, (entry, runtime)

    def test_unprobed_lists_only_facts(self) -> None:
        """UNPROBED names only facts the register records (no stale reasons)."""
        assert set(UNPROBED) <= set(FACTS)


class TestCommand:
    def test_a_missing_toolchain_is_reported_with_its_name(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """Without the runtime's tools on PATH the probe is skipped, naming the missing tool."""
        monkeypatch.setattr("tools.runtimes.shutil.which", lambda name: None)
        lines, status = observations("java")
        assert lines == []
        assert status == "skipped: javac, java not found on PATH"

    def test_the_printed_lines_are_grouped_by_entry(
        self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """The command prints each runtime's status, then the observations under their entry."""

        def fake(runtime: str) -> tuple[list[tuple[str, str, str]], str]:
            if runtime == "go":
                return [("INT-07", "len(s)", "6")], "ran"
            return [], "skipped: x not found on PATH"

        monkeypatch.setattr(runtimes, "observations", fake)
        assert runtimes.main([]) == 0
        out = capsys.readouterr().out
        assert "go: ran\n" in out
        assert "java: skipped: x not found on PATH\n" in out
        assert "INT-07\n  go: len(s): 6\n" in out

    def test_a_failing_build_is_reported(self) -> None:
        """A probe that does not build is reported as failed with the compiler's words."""

        def run(command: Sequence[str]) -> subprocess.CompletedProcess[str]:
            return subprocess.CompletedProcess(command, 1, "", "syntax error")

        lines, status = observations("python", run)
        assert lines == []
        assert status.startswith("failed: ")
        assert status.endswith("syntax error")
