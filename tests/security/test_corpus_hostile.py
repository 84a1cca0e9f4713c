"""Strangers' corpora and what implementations do to their vector roots (issue 13): a vector file
never writes outside its root, and a tampered tree is reported, never waited for."""

from __future__ import annotations

import importlib.metadata
import io
import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from hostile_support import (
    CODE_ONLY,
    ESCAPING_NAME,
    HOSTILE_NAMES,
    by_id,
    certify_fake,
    hostile_corpus,
    synthetic,
    tree,
    written,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from paths import REPO

from conformance import (
    CorpusError,
    FailureKind,
    Outcome,
    TextFile,
    VectorSchemaError,
    load_corpus,
    materialize,
    stamp_tree,
)
from conformance._schemas import VECTOR_FILE_SCHEMA, schema_errors
from conformance.cli import main
from conformance.corpus import FileSpec, StampBudget, Workspace, changes, name_problem
from conformance.corpus._names import name_collisions
from conformance.corpus._tree import NOT_HASHED

TRIGGER_ID = "beta-0-trigger"


@dataclass(frozen=True)
class Files:
    """Anything with files, as :func:`materialize` takes it."""

    files: tuple[tuple[str, FileSpec], ...]


def _document(name: str) -> dict[str, object]:
    return {
        "format": "phase6-vectors/1",
        "area": "alpha",
        "description": "d",
        "source": "hand",
        "vectors": [
            {
                "id": "v",
                "description": "d",
                "clauses": ["S6-OUT-01"],
                "interpretations": [],
                "level": "required",
                "input": {"request": {}, "files": {name: {"text": "x"}}},
                "expect": {"error": {"code": "invalid_query", "path": ""}},
            }
        ],
    }


class TestNamesNeverLeaveTheRoot:
    """Critical: ``input.files`` names are plain relative segments, in the schema and in code."""

    @pytest.mark.parametrize(
        "name",
        [n for n in HOSTILE_NAMES if n not in CODE_ONLY],
        ids=[v for n, v in HOSTILE_NAMES.items() if n not in CODE_ONLY],
    )
    def test_schema_refuses(self, name: str) -> None:
        """The schema's relativePath refuses the name, newline tricks included (the names in
        CODE_ONLY are refused by the code below)."""
        assert schema_errors(VECTOR_FILE_SCHEMA, _document(name), limit=1)

    @pytest.mark.parametrize("name", list(HOSTILE_NAMES), ids=list(HOSTILE_NAMES.values()))
    @pytest.mark.parametrize("validate", [True, False])
    def test_loader_refuses(self, tmp_path: Path, name: str, validate: bool) -> None:
        """The loader refuses the vector file, with and without schema validation."""
        vectors = hostile_corpus(tmp_path, name)
        with pytest.raises(VectorSchemaError, match=r"beta-errors\.json"):
            load_corpus(vectors, validate=validate)

    @pytest.mark.parametrize("name", list(HOSTILE_NAMES), ids=list(HOSTILE_NAMES.values()))
    def test_materialize_refuses(self, tmp_path: Path, name: str) -> None:
        """The materializer refuses the name itself and creates nothing, anywhere."""
        sandbox = tmp_path / "sandbox"
        root = sandbox / "a" / "b" / "c" / "root"
        root.mkdir(parents=True)
        with pytest.raises(CorpusError, match="unsafe file name"):
            materialize(Files(((name, TextFile("pwned")),)), root)
        assert tree(sandbox) == {"a", "a/b", "a/b/c", "a/b/c/root"}

    def test_vectors_check_calls_it_unclean(self, tmp_path: Path) -> None:
        """`vectors check` rejects what the materializer would (exit 1, naming the file)."""
        vectors = hostile_corpus(tmp_path, ESCAPING_NAME)
        out = io.StringIO()
        assert main(["vectors", "--vectors", str(vectors), "check"], out) == 1
        assert "beta-errors.json" in out.getvalue()
        assert "not a safe relative path" in out.getvalue()

    def test_certify_writes_nothing_outside(self, tmp_path: Path) -> None:
        """`certify --vectors` with the issue's file: exit 2, nothing created anywhere."""
        vectors = hostile_corpus(tmp_path / "corpus", ESCAPING_NAME)
        work = tmp_path / "work"
        work.mkdir()
        before = tree(tmp_path)
        argv = ["certify", "--vectors", str(vectors), "--temp-dir", str(work), "--no-report"]
        assert main([*argv, "-q", "--no-sections"], io.StringIO()) == 2
        assert tree(tmp_path) == before
        assert not (tmp_path / "outside").exists()

    def test_colliding_names_are_refused(self, tmp_path: Path) -> None:
        """A file that is also the directory of another name cannot be laid out: refused."""
        vectors = hostile_corpus(tmp_path, "a/b")
        path = vectors / "beta-errors.json"
        document = json.loads(path.read_text("utf-8"))
        document["vectors"][1]["input"]["files"]["a"] = {"text": "x"}
        path.write_text(json.dumps(document), "utf-8")
        with pytest.raises(VectorSchemaError, match="also the directory of"):
            load_corpus(vectors)
        root = tmp_path / "root"
        with pytest.raises(CorpusError, match="is not a directory"):
            materialize(Files((("a", TextFile("x")), ("a/b", TextFile("y")))), root)

    @settings(
        max_examples=300,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(
        names=st.lists(
            st.one_of(
                st.text(max_size=12),
                st.lists(
                    st.sampled_from(
                        ["..", ".", "", "a", "b", "x\n", "\\", "\x00", "é", "😀", "\ud800", "~"]
                    ),
                    min_size=1,
                    max_size=6,
                ).map("/".join),
            ),
            min_size=1,
            max_size=4,
            unique=True,
        )
    )
    def test_fuzz_nothing_outside_the_root(
        self, tmp_path_factory: pytest.TempPathFactory, names: list[str]
    ) -> None:
        """Arbitrary names: materializing creates nothing outside the root, and a name the
        rules accept is created exactly where it says."""
        sandbox = tmp_path_factory.mktemp("fuzz")
        root = sandbox / "deep" / "er" / "root"
        root.mkdir(parents=True)
        files = Files(tuple((name, TextFile(f"content {i}")) for i, name in enumerate(names)))
        try:
            materialize(files, root)
        except CorpusError:
            ok = False
        else:
            ok = True
        outside = tree(sandbox) - {"deep", "deep/er", "deep/er/root"}
        assert all(path.startswith("deep/er/root/") for path in outside), outside
        if ok:
            for name in names:
                assert name_problem(name) is None
                assert (root / name).is_file()
        else:
            problems = [n for n in names if name_problem(n) is not None]
            assert problems or name_collisions((n, False) for n in names)


class TestWorkspace:
    """An implementation reshaping the directory that holds vector roots redirects nothing."""

    def test_planted_symlink_is_replaced(self, tmp_path: Path) -> None:
        """A symlink planted where the next root goes is removed, not followed."""
        victim = tmp_path / "victim"
        victim.mkdir()
        workspace = Workspace(str(tmp_path))
        try:
            (workspace.path / "v1").symlink_to(victim)
            root = workspace.materialize("v1", Files((("stores/s.jsonl", TextFile("x")),)))
            assert (root / "stores" / "s.jsonl").read_text() == "x"
            assert not root.is_symlink()
            assert tree(victim) == set()
        finally:
            workspace.close()

    def test_workspace_swapped_for_a_symlink(self, tmp_path: Path) -> None:
        """A workspace removed and replaced by a symlink is replaced by a new one."""
        victim = tmp_path / "victim"
        victim.mkdir()
        workspace = Workspace(str(tmp_path))
        try:
            old = workspace.path
            for entry in old.iterdir():
                entry.rmdir()
            old.rmdir()
            old.symlink_to(victim)
            root = workspace.materialize("v1", Files((("s.jsonl", TextFile("x")),)))
            assert root.parent != old
            assert tree(victim) == set()
        finally:
            workspace.close()
            (tmp_path / old.name).unlink()

    def test_unsafe_root_names(self, tmp_path: Path) -> None:
        """A vector ID is one plain segment before it names a root."""
        workspace = Workspace(str(tmp_path))
        try:
            for name in ("..", "a/b", "x\n", ""):
                with pytest.raises(CorpusError):
                    workspace.materialize(name, Files(()))
        finally:
            workspace.close()

    def test_locked_root_is_still_removed(self, tmp_path: Path) -> None:
        """A root whose directories lost their permissions is removed all the same."""
        workspace = Workspace(str(tmp_path))
        try:
            root = workspace.materialize("v1", Files((("a/b/s.jsonl", TextFile("x")),)))
            (root / "a" / "b").chmod(0)
            (root / "a").chmod(0)
            workspace.remove("v1")
            assert not os.path.lexists(root)
        finally:
            workspace.close()


class TestBoundedStamps:
    """High: stamping a vector root after a run is bounded in bytes, entries and time."""

    def _tree(self, tmp_path: Path, size: int = 8 << 20) -> Path:
        root = tmp_path / "root"
        (root / "stores").mkdir(parents=True)
        (root / "stores" / "big.jsonl").write_bytes(b"x" * size)
        return root

    def test_time_budget(self, tmp_path: Path) -> None:
        """Past the time budget a file is not hashed and the tree is reported incomplete."""
        root = self._tree(tmp_path)
        before = stamp_tree(root)
        after = stamp_tree(root, budget=StampBudget(max_seconds=0.0), like=before)
        assert after.incomplete
        assert any("could not be checked in full" in line for line in changes(before, after))

    def test_byte_budget(self, tmp_path: Path) -> None:
        """Past the byte budget a file is not hashed, and that is a change."""
        root = self._tree(tmp_path)
        after = stamp_tree(root, budget=StampBudget(max_bytes=1024))
        assert after["stores/big.jsonl"].sha256 == NOT_HASHED
        assert after.incomplete

    def test_entry_budget(self, tmp_path: Path) -> None:
        """Past the entry budget the walk stops."""
        root = self._tree(tmp_path, size=1)
        for index in range(50):
            (root / f"f{index}").touch()
        after = stamp_tree(root, budget=StampBudget(max_entries=10))
        assert after.incomplete == "more than 10 entries"
        assert len(after) <= 10

    def test_changed_size_is_not_read(self, tmp_path: Path) -> None:
        """A file whose size changed is a change without being read (a sparse 1 EiB file
        costs nothing)."""
        root = self._tree(tmp_path, size=10)
        before = stamp_tree(root)
        with open(root / "stores" / "big.jsonl", "ab") as handle:
            try:
                os.truncate(handle.fileno(), 1 << 60)
            except OSError:  # the file system caps file sizes lower
                os.truncate(handle.fileno(), 1 << 40)
        started = time.monotonic()
        after = stamp_tree(root, like=before)
        assert time.monotonic() - started < 1.0
        assert after["stores/big.jsonl"].sha256 == NOT_HASHED
        assert "content not read" in changes(before, after)[0]

    def test_fifo_is_never_opened(self, tmp_path: Path) -> None:
        """A FIFO in the tree is stamped as 'other', never opened (opening one blocks)."""
        root = self._tree(tmp_path, size=1)
        os.mkfifo(root / "stores" / "fifo")
        assert stamp_tree(root)["stores/fifo"].kind == "other"

    def test_missing_root(self, tmp_path: Path) -> None:
        """A root that is gone stamps as empty: every entry shows as removed."""
        root = self._tree(tmp_path, size=1)
        before = stamp_tree(root)
        for path in sorted(root.rglob("*"), reverse=True):
            path.unlink() if path.is_file() else path.rmdir()
        root.rmdir()
        assert "removed ." in changes(before, stamp_tree(root))


class TestTamperedTrees:
    """What an implementation does to its vector root becomes a result, and the run goes on."""

    @pytest.mark.parametrize(
        ("mode", "says"),
        [
            ("sparse", "created huge.bin"),
            ("grow", "content not read"),
            ("fifo", "changed stores/s.jsonl (kind"),
            ("restore", "ctime"),
            ("rmroot", "removed ."),
        ],
    )
    def test_tampering_is_a_store_mutation(self, tmp_path: Path, mode: str, says: str) -> None:
        """The trigger vector fails store-mutated (within seconds), every other vector passes,
        and the report is written."""
        started = time.monotonic()
        result = certify_fake(synthetic(tmp_path), "tampers_tree", mode, repeat=2)
        assert time.monotonic() - started < 20
        results = by_id(result)
        trigger = results.pop(TRIGGER_ID)
        assert trigger.outcome is Outcome.FAILED
        mutated = [f for f in trigger.failures if f.kind is FailureKind.STORE_MUTATED]
        assert mutated
        assert says in mutated[0].message
        assert all(r.outcome is Outcome.PASSED for r in results.values())
        written(result, tmp_path / "report")

    def test_edit_and_restore_is_caught_by_ctime_alone(self, tmp_path: Path) -> None:
        """Low: a store rewritten, then restored in bytes and mtime, differs in ctime only."""
        result = certify_fake(synthetic(tmp_path), "tampers_tree", "restore", repeat=1)
        failure = by_id(result)[TRIGGER_ID].failures[0]
        assert failure.kind is FailureKind.STORE_MUTATED
        assert "changed stores/s.jsonl (ctime_ns)" in failure.message

    def test_many_files_are_not_listed_forever(self, tmp_path: Path) -> None:
        """20,000 files created in the root: the walk stops at the entry budget."""
        result = certify_fake(synthetic(tmp_path), "tampers_tree", "many", repeat=1)
        failure = by_id(result)[TRIGGER_ID].failures[0]
        assert "could not be checked in full (more than 10,000 entries)" in failure.message

    def test_workspace_replaced_by_a_symlink(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """An implementation swapping the roots' directory for a symlink to elsewhere: the next
        vectors' files land in a new private directory, never in the symlink's target."""
        victim = tmp_path / "victim"
        victim.mkdir()
        monkeypatch.setenv("PHASE6_FAKE_VICTIM", str(victim))
        paths = synthetic(tmp_path / "corpus", copies=3)
        result = certify_fake(paths, "tampers_tree", "workspace", temp_dir=str(tmp_path))
        assert tree(victim) == set()
        outcomes = {r.id: r.outcome for r in result.results}
        assert outcomes.pop(TRIGGER_ID) is Outcome.FAILED
        assert set(outcomes.values()) == {Outcome.PASSED}
        written(result, tmp_path / "report")
        for entry in tmp_path.iterdir():  # the symlink the fake left where the workspace was
            if entry.is_symlink():
                entry.unlink()


@pytest.mark.slow  # runs pytest in a subprocess
def test_pytest_plugin_refuses_the_corpus(tmp_path: Path) -> None:
    """The pytest plugin with the issue's vector file: a usage error naming the file, and
    nothing written outside (it used to materialize the name as the runner did)."""
    vectors = hostile_corpus(tmp_path / "corpus", ESCAPING_NAME)
    project = tmp_path / "project"
    project.mkdir()
    site = tmp_path / "site"
    site.mkdir()
    installed = any(ep.name == "phase6" for ep in importlib.metadata.entry_points(group="pytest11"))
    if not installed:
        info = site / "adamos_phase6_conformance-1.0.0.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(
            "Metadata-Version: 2.1\nName: adamos-phase6-conformance\nVersion: 1.0.0\n", "utf-8"
        )
        (info / "entry_points.txt").write_text(
            "[pytest11]\nphase6 = conformance.pytest_plugin\n", "utf-8"
        )
    before = tree(tmp_path)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "PHASE6_"))}
    env["PYTHONPATH"] = os.pathsep.join([str(site), str(REPO)])
    env["PHASE6_TMPDIR"] = str(tmp_path / "corpus")
    completed = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "--phase6-adapter",
            "python:reference:memory_read",
            "--phase6-vectors",
            str(vectors),
            "--phase6-no-properties",
        ],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert completed.returncode == 4, completed.stdout + completed.stderr
    assert "not a safe relative path" in completed.stderr
    assert tree(tmp_path) == before
