"""The mutation gallery: its size and declarations, its adapters, and that every mutant deviates."""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from conformance import (
    SectionContext,
    load_clauses,
    load_corpus,
    load_interpretations,
    open_adapter,
)
from conformance.probes import PROBES
from conformance.report import suite_strength_section
from tools.mutants import MUTANTS, STAGES, adapter_spec
from tools.mutants._kill import Kill, MutantOutcome, kill_one
from tools.mutants._matrix import FORMAT, build_matrix, render_markdown
from tools.mutants._patch import PatchError, anchor_problems, patched
from tools.mutants._registry import Mutant, patch

CLAUSES = {clause.id for clause in load_clauses()}
INTERPRETATIONS = {entry.id for entry in load_interpretations()}
NAMES = list(MUTANTS)

#: The gallery is exercised end to end by `nox -s mutants`; these run mutants: slow.
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def smoke(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """``python -m tools.mutants.equivalence`` over the whole gallery (fixed hash seed)."""
    out = tmp_path_factory.mktemp("smoke") / "smoke.json"
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    done = subprocess.run(
        [sys.executable, "-m", "tools.mutants.equivalence", "--json", str(out)],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=False,
    )
    assert out.exists(), done.stderr[-2000:]
    found: dict[str, Any] = json.loads(out.read_text("utf-8"))
    return found


class TestGallery:
    def test_at_least_forty_mutants(self) -> None:
        """The gallery holds at least 40 single-fault mutants."""
        assert len(MUTANTS) >= 40

    def test_every_stage_has_mutants(self) -> None:
        """Every pipeline stage and the behavioural rules have at least one mutant."""
        assert {m.stage for m in MUTANTS.values()} == set(STAGES)

    @pytest.mark.parametrize("name", NAMES)
    def test_declarations_exist(self, name: str) -> None:
        """A mutant names clauses and interpretations that exist in the registers."""
        mutant = MUTANTS[name]
        assert mutant.clauses
        assert set(mutant.clauses) <= CLAUSES
        assert set(mutant.interpretations) <= INTERPRETATIONS
        assert set(mutant.probes) <= set(PROBES)

    @pytest.mark.parametrize("name", NAMES)
    def test_name_and_summary(self, name: str) -> None:
        """Names are kebab-case slugs; the summary is a sentence ending with a period."""
        mutant = MUTANTS[name]
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)+", name)
        assert mutant.summary.endswith(".")

    def test_every_source_patch_applies(self) -> None:
        """Every source patch's anchor occurs exactly once in its file of reference/."""
        assert anchor_problems(list(MUTANTS.values())) == []

    @pytest.mark.parametrize("name", NAMES)
    def test_patched_sources_compile(self, name: str) -> None:
        """A source patch leaves every file of its copy valid Python; a wrapper is callable."""
        mutant = MUTANTS[name]
        if mutant.patch is None:
            assert callable(mutant.wrapper())
            return
        for file, text in patched(mutant).items():
            compile(text, file, "exec")

    def test_stale_anchor_fails_loudly(self) -> None:
        """A patch whose anchor is gone names the mutant, the file and the anchor."""
        stale = Mutant(
            "stale-mutant", ("S6-VER-01",), (), "A.", lambda: patch("_package.py", "no such", "x"),
            "package",
        )  # fmt: skip
        with pytest.raises(PatchError, match=r"stale-mutant.*reference/_package\.py.*no such"):
            patched(stale)
        assert anchor_problems([stale]) == [
            "mutant 'stale-mutant': the anchor occurs 0 times in reference/_package.py "
            "(must be exactly once): 'no such'"
        ]

    def test_gallery_imports_no_reference_internals(self) -> None:
        """Mutants patch sources or wrap the public API: the gallery imports no `reference._x`."""
        gallery = Path(__file__).resolve().parents[1] / "tools" / "mutants"
        for source in gallery.glob("*.py"):
            for node in ast.walk(ast.parse(source.read_text("utf-8"))):
                if isinstance(node, ast.ImportFrom) and node.module:
                    names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
                elif isinstance(node, ast.Import):
                    names = [alias.name for alias in node.names]
                else:
                    continue
                private = [n for n in names if re.match(r"reference\._", n)]
                assert not private, (source.name, private)

    def test_import_does_not_load_the_reference(self) -> None:
        """Importing the gallery leaves the reference unimported (patches import it lazily)."""
        code = "import sys, tools.mutants; print('reference' in sys.modules)"
        done = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        )
        assert done.stdout.strip() == "False"


#: Mutants that implement what the register now pins (the reading they broke was re-pinned):
#: they no longer deviate. The gallery is being rewritten; its owner replaces each with the
#: earlier reading as the mutant.
class TestSmoke:
    @pytest.mark.parametrize(
        "name",
        NAMES,
    )
    def test_mutant_deviates(self, smoke: dict[str, Any], name: str) -> None:
        """Every mutant deviates from the reference on at least one input (no equivalent mutant)."""
        entry = smoke[name]
        assert entry["changed"], entry
        assert not entry.get("error"), entry


class TestServe:
    def test_handshake_names_the_mutant(self) -> None:
        """A mutant's adapter introduces itself as mutant-<name>."""
        with open_adapter(adapter_spec("tokens-floor"), timeout=20) as adapter:
            assert adapter.start().implementation["name"] == "mutant-tokens-floor"

    def test_a_wrapper_mutant_starts_without_the_harness(self) -> None:
        """A wrapper mutant's adapter serves the kit's protocol loop without importing the
        harness (its start-up is paid by every fresh-process sample)."""
        name = next(name for name, mutant in MUTANTS.items() if mutant.patch is None)
        with open_adapter(adapter_spec(name), timeout=20) as adapter:
            assert adapter.start().implementation["name"] == f"mutant-{name}"
        code = (
            "import sys; from tools.mutants.adapter import _protocol_loop; _protocol_loop(); "
            "print(sorted(m for m in sys.modules if m.partition('.')[0] == 'conformance'))"
        )
        done = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        )
        assert done.stdout.strip() == "[]"

    def test_unknown_mutant_is_a_usage_error(self) -> None:
        """`serve` with an unknown name exits 2."""
        done = subprocess.run(
            [sys.executable, "-m", "tools.mutants.adapter", "no-such-mutant"],
            capture_output=True,
            check=False,
        )
        assert done.returncode == 2


class TestKill:
    def test_kill_one_on_target(self) -> None:
        """A mutant of a constant is killed by the vectors aimed at its clause."""
        outcome = kill_one("controller-version-wrong", timeout=20, probes=False, sections=False)
        assert outcome.status == "killed"
        assert outcome.on_target
        assert outcome.failing_vectors

    def test_matrix_documents(self) -> None:
        """The matrix JSON carries totals and survivors; the markdown flags survivors."""
        killed = MutantOutcome(
            "a-b", "query", "A.", ("S6-HASH-07",), (), "result", "killed", True,
            failing_vectors=("v1",),
            kills=(Kill("vector", "v1", ("S6-HASH-07",), (), "mismatch"),),
        )  # fmt: skip
        alive = MutantOutcome(
            "c-d", "query", "C.", ("S6-SCORE-05",), (), "result", "survived", False
        )
        matrix = build_matrix(
            [killed, alive], corpus_digest="sha256:x", corpus_vectors=1, mode="fast",
            duration_s=1.0, tools={}, kit_version="0",
        )  # fmt: skip
        assert matrix["format"] == FORMAT
        assert matrix["totals"]["kill_rate"] == 0.5
        assert matrix["survivors"] == ["c-d"]
        assert matrix["vector_blind"] == []
        assert "**SURVIVED**" in render_markdown(matrix)


class TestSuiteStrength:
    def _context(self, path: Path) -> SectionContext:
        return SectionContext("cmd:x", load_corpus(), (), None, 1, 30.0, {"kill_matrix": str(path)})

    def test_reads_a_matrix(self, tmp_path: Path) -> None:
        """The section reports the matrix's kill rate, never affecting the verdict."""
        outcome = MutantOutcome("a-b", "query", "A.", ("S6-HASH-07",), (), "result", "killed", True)
        corpus = load_corpus()
        matrix = build_matrix(
            [outcome], corpus_digest=corpus.digest, corpus_vectors=len(corpus), mode="fast",
            duration_s=1.0, tools={}, kit_version="0",
        )  # fmt: skip
        path = tmp_path / "kill-matrix.json"
        path.write_text(json.dumps(matrix), "utf-8")
        section = suite_strength_section(self._context(path))
        assert section.status == "passed"
        assert not section.affects_verdict
        assert not section.data["stale"]
        assert [item.id for item in section.items] == ["a-b"]

    def test_missing_matrix_is_skipped(self, tmp_path: Path) -> None:
        """Without a kill matrix the section is skipped and says how to make one."""
        section = suite_strength_section(self._context(tmp_path / "none.json"))
        assert section.status == "skipped"
        assert "nox -s mutants" in section.summary
