"""The generated vector families (``conformance/_generate/build.py``, ``families/``): the output
is deterministic, the harness loader accepts it, IDs are unique across the corpus, and the
independent oracle confirms a sample of the committed expectations.

The full byte-for-byte comparison with the committed corpus is ``nox -s vectors`` (it rebuilds
every family); here a few fast families stand in for it.
"""

from __future__ import annotations

import copy
import functools
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from paths import REPO

from conformance import Corpus, Vector, first_difference, load_corpus, materialize
from tools.generate import build as builder
from tools.generate.families import FAMILIES
from tools.oracle import OracleUndefined, oracle_read

VECTORS = REPO / "vectors"
#: quick families (well under a second each) used where a test builds for real
FAST = ("defaults", "receipts", "paths")
SAMPLE_EVERY = 17


@functools.cache
def _corpus() -> Corpus:
    """The committed corpus, loaded (and schema-validated) once for the module."""
    return load_corpus(VECTORS)


def _generated() -> list[Vector]:
    return [v for v in _corpus() if v.source.startswith("generated:")]


def _sample() -> list[Vector]:
    return _generated()[::SAMPLE_EVERY]


class TestDeterminism:
    def test_two_builds_are_identical(self) -> None:
        """Building the same families twice gives byte-identical files."""
        first = {n: d for out in builder.build(FAST) for n, d in out.files.items()}
        second = {n: d for out in builder.build(FAST) for n, d in out.files.items()}
        assert first == second
        assert all(builder.GENERATED_FILE.match(name) for name in first)
        assert len(first) == len(FAST)

    @pytest.mark.slow
    def test_independent_of_hash_seed(self, tmp_path: Path) -> None:
        """Fresh processes with different PYTHONHASHSEEDs write the same bytes (no set order)."""
        outputs = []
        for seed in ("1", "2"):
            out = tmp_path / seed
            env = {**os.environ, "PYTHONHASHSEED": seed}
            command = [sys.executable, "-m", "tools.generate.build", "--out", str(out)]
            for family in ("trust", "records"):
                command += ["--family", family]
            subprocess.run(command, cwd=REPO, env=env, check=True, capture_output=True)
            outputs.append({p.name: p.read_bytes() for p in sorted(out.glob("*-gen*.json"))})
        assert outputs[0] == outputs[1]
        assert len(outputs[0]) == 2

    @pytest.mark.parametrize("family", FAST)
    def test_committed_file_is_current(self, family: str) -> None:
        """The committed <area>-gen*.json file is what the generator writes today."""
        (out,) = builder.build([family])
        for name, data in out.files.items():
            assert (VECTORS / name).read_bytes() == data, f"vectors/{name} is stale"

    def test_serialization_is_utf8_lf_and_escapes_lone_surrogates(self) -> None:
        """Files are UTF-8 with one final LF; a lone surrogate is written as an escape."""
        data = builder.serialize({"q": "a\ud800é"})
        assert data.endswith(b"}\n")
        assert b"\\ud800" in data
        assert "é".encode() in data
        assert json.loads(data) == {"q": "a\ud800é"}


class TestCorpus:
    def test_every_family_has_loadable_files(self) -> None:
        """Every family's file is in the corpus the harness loader reads, marked generated."""
        corpus = _corpus()
        generated = [f for f in corpus.files if builder.GENERATED_FILE.match(f.path)]
        assert {f.source for f in generated} == {f"generated:{name}" for name, _ in FAMILIES}
        for vector_file in generated:
            family = vector_file.source.removeprefix("generated:")
            assert vector_file.area == builder.FAMILY_AREA.get(family, (family, ""))[0]
            assert vector_file.vectors, vector_file.path

    def test_ids_unique_and_prefixed(self) -> None:
        """IDs are unique across the whole corpus and carry their family's prefix."""
        corpus = _corpus()  # load_corpus raises DuplicateVectorIdError on a reused ID
        assert len({v.id for v in corpus}) == len(corpus)
        prefixes = dict(FAMILIES)
        for vector in _generated():
            family = vector.source.removeprefix("generated:")
            assert vector.id.startswith(prefixes[family] + "-"), vector.id

    def test_level_follows_interpretations(self) -> None:
        """'pinned' exactly when the vector names interpretations."""
        for vector in _generated():
            assert (vector.level == "pinned") == bool(vector.interpretations), vector.id

    def test_known_disagreements_are_not_emitted(self) -> None:
        """Inputs on which the reference and the oracle disagree never become vectors."""
        ids = {v.id for v in _generated()}
        assert not ids & set(builder.KNOWN_DISAGREEMENTS)

    def test_size_and_coverage_floor(self) -> None:
        """The families add well over a thousand vectors."""
        assert len(_generated()) >= 1100


class TestOracle:
    @pytest.mark.parametrize("vector", _sample(), ids=lambda v: v.id)
    def test_oracle_confirms_expectation(self, vector: Vector, tmp_path: Path) -> None:
        """The independent oracle computes the committed expectation (INT-48 equality)."""
        root = tmp_path / "root"
        materialize(vector, root)
        try:
            result = oracle_read(vector.request, root)
        except OracleUndefined:  # pragma: no cover - such inputs are never emitted
            pytest.fail("the oracle has no answer for a committed vector")
        expect = vector.expect
        if "error" in expect:
            got = {k: result.get("error", {}).get(k) for k in ("code", "path")}
            assert got == expect["error"]
        else:
            assert first_difference(expect, result) is None


class TestBuilderRules:
    def test_disagreement_fails_the_build(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """A reference/oracle disagreement fails the build and names the vector."""
        real = oracle_read

        def skewed(request: Any, root: Path) -> Any:
            result = real(request, root)
            if "package" in result:
                result["package"]["budget"]["max_items"] += 1
            return result

        monkeypatch.setattr(builder, "oracle_read", skewed)
        with pytest.raises(builder.BuildError, match=r"rcpt-perm-abc: reference and oracle"):
            builder.build(["receipts"])

    def test_undefined_input_is_not_a_vector(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """An input the oracle declares undefined is left out, not guessed."""
        real = oracle_read

        def undefined_once(request: Any, root: Path) -> Any:
            if request.get("store_paths") == ["stores/e.jsonl"]:
                raise OracleUndefined("test")
            return real(request, root)

        monkeypatch.setattr(builder, "oracle_read", undefined_once)
        (out,) = builder.build(["receipts"])
        ids = [v["id"] for v in json.loads(out.files["receipt-gen.json"])["vectors"]]
        assert "rcpt-count-empty-store" not in ids
        assert out.undefined == 1

    @pytest.mark.parametrize(
        ("tamper", "message"),
        [
            (lambda p: p["budget"].update(used_excerpt_tokens=99), "sum of excerpt_tokens"),
            (lambda p: p["selection"]["dropped"].pop(), "record lines"),
            (lambda p: p.update(package_hash="0" * 64), "package_hash"),
            (lambda p: p["selection"]["selected"][0].update(excerpt_tokens=7), "ceil"),
            (lambda p: p.update(controller_version="phase6-v2"), "result schema"),
        ],
    )
    def test_invariants_catch_a_broken_package(
        self, tamper: Any, message: str, tmp_path: Path
    ) -> None:
        """The invariant check rejects a package that breaks the accounting rules."""
        vector = _corpus().get("budget-fit-3-5-under")
        root = tmp_path / "root"
        materialize(vector, root)
        result = copy.deepcopy(vector.expect)
        assert builder.check_invariants(result, root) == []
        tamper(result["package"])
        problems = builder.check_invariants(result, root)
        assert any(message in problem for problem in problems), problems
