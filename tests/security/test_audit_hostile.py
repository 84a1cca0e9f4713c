"""``audit verify`` on a stranger's record and tree (issue 22, critical): it runs none of their
code, writes nothing outside its scratch directory, reads nothing outside ``--root``, and bounds
every size, count and line number the record gives before using it."""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from conformance.audit import first_differing_line
from conformance.cli import main
from reference import memory_read

STORE = "".join(
    json.dumps({"memory_id": f"m{i}", "text": f"alpha beta {i}"}) + "\n" for i in range(4)
)
#: Code that leaves a mark wherever it runs: proof that a planted package was imported.
PAYLOAD = "import pathlib\npathlib.Path({canary!r}).write_text('pwned')\n"


def _record(root: Path, store_paths: list[str]) -> dict[str, Any]:
    """The record of one honest read of ``store_paths`` under ``root``."""
    previous = os.getcwd()
    os.chdir(root)
    try:
        budget = {"max_items": 2, "max_excerpt_tokens": 8}
        request = {"query": "alpha", "store_paths": store_paths, "budget": budget}
        return dict(memory_read(request, audit=True)["audit"])
    finally:
        os.chdir(previous)


def _verify(record: dict[str, Any], root: Path, *extra: str) -> tuple[int, str]:
    """Run ``audit verify`` on ``record`` (written beside ``root``); exit status and output."""
    path = root.parent / f"{root.name}-record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    out = io.StringIO()
    with contextlib.redirect_stderr(out):
        code = main(["audit", "verify", str(path), "--root", str(root), *extra], out)
    return code, out.getvalue()


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A verified tree with one store, in a directory of its own inside ``tmp_path``."""
    root = tmp_path / "tree"
    (root / "mem").mkdir(parents=True)
    (root / "mem" / "a.jsonl").write_text(STORE, encoding="utf-8")
    return root


class TestRunsNoCodeOfTheTree:
    """Replay never imports a ``reference`` package planted in the tree or the scratch copy."""

    def test_planted_package_in_the_tree_is_not_imported(self, tree: Path) -> None:
        """A ``reference/`` package beside the stores leaves no mark; the real one replays."""
        canary = tree.parent / "canary"
        (tree / "reference").mkdir()
        (tree / "reference" / "__init__.py").write_text(PAYLOAD.format(canary=str(canary)))
        (tree / "reference" / "__main__.py").write_text(PAYLOAD.format(canary=str(canary)))
        code, output = _verify(_record(tree, ["mem/a.jsonl"]), tree)
        assert not canary.exists()
        assert code == 0, output

    def test_package_listed_as_stores_is_not_imported(self, tree: Path) -> None:
        """A record naming ``reference/__init__.py`` as stores (hash-valid) puts the package in
        the scratch copy; it is still never imported."""
        canary = tree.parent / "canary"
        (tree / "reference").mkdir()
        for name in ("__init__.py", "__main__.py"):
            (tree / "reference" / name).write_text(PAYLOAD.format(canary=str(canary)))
        record = _record(tree, ["reference/__init__.py", "reference/__main__.py", "mem/a.jsonl"])
        shutil.rmtree(tree / "reference")  # gone from the tree, so the replay needs the copy
        code, _ = _verify(record, tree)
        assert not canary.exists()
        assert code == 1  # the listed stores are missing now: not verified, and nothing ran

    @pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
    def test_package_at_a_commit_is_not_imported(self, tree: Path) -> None:
        """Under ``--git-rev`` the package is hash-valid in the commit and copied for the
        replay; the replay still runs the installed reference, and verifies."""
        canary = tree.parent / "canary"
        (tree / "reference").mkdir()
        for name in ("__init__.py", "__main__.py"):
            (tree / "reference" / name).write_text(PAYLOAD.format(canary=str(canary)))
        record = _record(tree, ["reference/__init__.py", "reference/__main__.py", "mem/a.jsonl"])
        _git(tree, "init", "-q")
        _git(tree, "add", ".")
        _git(tree, "commit", "-q", "-m", "planted")
        code, output = _verify(record, tree, "--git-rev", "HEAD")
        assert not canary.exists()
        assert code == 0, output


def _git(root: Path, *args: str) -> None:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.org",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.org",
    }
    subprocess.run(["git", "-C", str(root), *args], env=env, check=True, capture_output=True)


def _with_store_path(record: dict[str, Any], path: str) -> dict[str, Any]:
    """``record`` with its first store (and its request) renamed to ``path``."""
    changed: dict[str, Any] = json.loads(json.dumps(record))
    changed["stores"][0]["path"] = path
    changed["request"]["store_paths"][0] = path
    return changed


class TestWritesNothingOutside:
    """No recorded path climbs out: refused before anything is opened or written."""

    @pytest.mark.parametrize("depth", [1, 12])
    def test_climbing_path_through_a_symlink_is_refused(self, tree: Path, depth: int) -> None:
        """``deep/`` + ``../`` x N + a tail, with ``deep`` a symlink out: usage error, the file
        outside is untouched."""
        victim = tree.parent / "victim.jsonl"
        victim.write_text("precious\n")
        (tree / "deep").symlink_to(tree.parent)
        tail = str(victim).lstrip("/")
        record = _with_store_path(_record(tree, ["mem/a.jsonl"]), "deep/" + "../" * depth + tail)
        code, output = _verify(record, tree)
        assert code == 2
        assert "not a relative path of plain segments" in output or "'..'" in output
        assert victim.read_text() == "precious\n"

    @pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
    def test_climbing_path_under_git_rev_is_refused(self, tree: Path) -> None:
        """Under ``--git-rev`` with the root deep in the repository, ``..`` paths are refused."""
        deep = tree / "a" / "b" / "c" / "d"
        deep.mkdir(parents=True)
        shutil.copy(tree / "mem" / "a.jsonl", deep / "s.jsonl")
        _git(tree, "init", "-q")
        _git(tree, "add", ".")
        _git(tree, "commit", "-q", "-m", "stores")
        record = _with_store_path(_record(deep, ["s.jsonl"]), "../../../../mem/a.jsonl")
        code, _ = _verify(record, deep, "--git-rev", "HEAD")
        assert code == 2

    def test_symlinked_store_is_not_followed(self, tree: Path) -> None:
        """A store that is a symlink (to a file outside) is reported unreadable, not read."""
        outside = tree.parent / "outside.jsonl"
        outside.write_text(STORE)
        record = _record(tree, ["mem/a.jsonl"])
        (tree / "mem" / "a.jsonl").unlink()
        (tree / "mem" / "a.jsonl").symlink_to(outside)
        code, output = _verify(record, tree, "--json")
        assert code == 1
        store = json.loads(output)["stores"][0]
        assert store["status"] == "unreadable"
        assert "not followed" in store["detail"]
        assert store["current_bytes"] is None


class TestNoReadOracle:
    """A record cannot learn anything about a file outside ``--root``."""

    def test_absolute_paths_are_refused_before_opening(self, tree: Path, tmp_path: Path) -> None:
        """A record naming a 0600 file by absolute path: refused, its size never printed."""
        secret = tmp_path / "secret"
        secret.write_bytes(b"0123456789ab")
        secret.chmod(0o600)
        record = _record(tree, ["mem/a.jsonl"])
        changed = _with_store_path(record, str(secret))
        changed["stores"][0]["bytes"] = 1
        code, output = _verify(changed, tree)
        assert code == 2
        assert "12" not in output.replace(str(tmp_path), "")  # the size is never said

    def test_absolute_request_path_is_refused(self, tree: Path, tmp_path: Path) -> None:
        """A failure record whose request names an absolute path (never recorded as a store)
        is refused too: the replay would open it."""
        record = _record(tree, ["mem/a.jsonl"])
        record["request"]["store_paths"].append(str(tmp_path / "secret"))
        code, output = _verify(record, tree)
        assert code == 2
        assert "absolute" in output


class TestBounded:
    """Every size, count and line number is checked before it is used."""

    def test_line_far_beyond_the_store(self, tree: Path) -> None:
        """A candidate at line 10^15 is refused at once instead of looping."""
        record = _record(tree, ["mem/a.jsonl"])
        record["candidates"][0]["line"] = 10**15
        started = time.monotonic()
        code, output = _verify(record, tree)
        assert code == 2
        assert "line" in output
        assert time.monotonic() - started < 30

    def test_sparse_store_beyond_the_cap(self, tree: Path) -> None:
        """A record naming an 8 GiB (sparse) store is refused by ``--max-store-bytes``."""
        record = _record(tree, ["mem/a.jsonl"])
        with (tree / "mem" / "a.jsonl").open("r+b") as handle:
            handle.truncate(8 << 30)
        record["stores"][0]["bytes"] = 8 << 30
        code, output = _verify(record, tree)
        assert code == 2
        assert "--max-store-bytes" in output

    def test_same_store_many_times(self, tree: Path) -> None:
        """One store listed twelve times is refused (a path recorded twice)."""
        record = _record(tree, ["mem/a.jsonl"])
        record["stores"] = record["stores"] * 12
        code, output = _verify(record, tree)
        assert code == 2
        assert "twice" in output

    def test_record_beyond_the_cap(self, tree: Path) -> None:
        """A (sparse) 100 MB record is refused by ``--max-record-bytes`` before it is read."""
        path = tree.parent / "huge-record.json"
        with path.open("wb") as handle:
            handle.truncate(100 << 20)
        out = io.StringIO()
        with contextlib.redirect_stderr(out):
            code = main(["audit", "verify", str(path), "--root", str(tree)], out)
        assert code == 2
        assert "--max-record-bytes" in out.getvalue()

    def test_streamed_line_comparison_matches_the_whole(self) -> None:
        """The streamed first-differing-line search agrees with reading the bytes whole."""
        data = STORE.encode()
        whole = first_differing_line(data, {})
        chunked = first_differing_line([data[i : i + 7] for i in range(0, len(data), 7)], {})
        assert whole == chunked == 1
