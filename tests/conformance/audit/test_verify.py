"""``phase6 audit verify``: store identities (unchanged, grown, edited, shrunk), replay by the
reference or an adapter, and stores read at a git commit of a real repository."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conformance.adapters import reference_adapter_spec
from conformance.audit import first_differing_line
from conformance.cli import main
from reference import memory_read

LINES = [
    {"memory_id": "m1", "text": "alpha beta one"},
    {"memory_id": "m2", "text": "nothing here"},
    {"memory_id": "m3", "text": "alpha two"},
    {"memory_id": "m4", "text": "beta three"},
]
REQUEST: dict[str, Any] = {
    "query": "alpha beta",
    "store_paths": ["mem/a.jsonl", "mem/b.jsonl"],
    "budget": {"max_excerpt_tokens": 10, "max_items": 2},
}


def _line(record: dict[str, Any]) -> str:
    return json.dumps(record) + "\n"


@pytest.fixture
def tree(tmp_path: Path) -> Iterator[Path]:
    """Two stores under tmp_path/mem and the record of one read of them (tmp_path/record.json)."""
    (tmp_path / "mem").mkdir()
    (tmp_path / "mem" / "a.jsonl").write_text("".join(map(_line, LINES)), encoding="utf-8")
    (tmp_path / "mem" / "b.jsonl").write_text(
        _line({"memory_id": "b1", "text": "beta"}), encoding="utf-8"
    )
    previous = os.getcwd()
    os.chdir(tmp_path)
    try:
        record = memory_read(REQUEST, audit=True)["audit"]
        (tmp_path / "record.json").write_text(json.dumps(record), encoding="utf-8")
        yield tmp_path
    finally:
        os.chdir(previous)


def _verify(root: Path, *extra: str) -> tuple[int, dict[str, Any]]:
    out = io.StringIO()
    code = main(
        ["audit", "verify", str(root / "record.json"), "--root", str(root), "--json", *extra], out
    )
    return code, json.loads(out.getvalue())


class TestIdentities:
    """Step 1: every store identity, against the recorded length and hash."""

    def test_untouched_stores_verify(self, tree: Path) -> None:
        """Unchanged stores: identities hold, the replay on their copy gives the same record."""
        code, result = _verify(tree)
        assert code == 0
        assert [s["status"] for s in result["stores"]] == ["unchanged", "unchanged"]
        assert result["replay"]["where"] == "on the recorded bytes, copied into a scratch directory"
        assert result["replay"]["package_hash"]["same"] is True
        assert result["replay"]["ranking"] == "same"

    def test_appended_store_verifies_on_its_prefix(self, tree: Path) -> None:
        """A store that grew (append-only) is verified against the recorded-length prefix."""
        with (tree / "mem" / "a.jsonl").open("a", encoding="utf-8") as handle:
            handle.write(_line({"memory_id": "m5", "text": "alpha beta alpha beta new"}))
        code, result = _verify(tree)
        assert code == 0
        grown = result["stores"][0]
        assert grown["status"] == "grown"
        assert "recorded-length prefix" in grown["detail"]
        assert result["replay"]["where"].startswith("on the recorded bytes")
        assert result["replay"]["same"] is True

    def test_edited_line_fails_with_its_number(self, tree: Path) -> None:
        """An edited third line fails verification, naming the store and line 3."""
        lines = [dict(r) for r in LINES]
        lines[2]["text"] = "alpha TWO"  # same length: only the hash can tell
        (tree / "mem" / "a.jsonl").write_text("".join(map(_line, lines)), encoding="utf-8")
        code, result = _verify(tree)
        assert code == 1
        edited = result["stores"][0]
        assert (edited["path"], edited["status"], edited["first_differing_line"]) == (
            "mem/a.jsonl",
            "changed",
            3,
        )
        assert result["verified"] is False

    def test_shrunk_and_missing_stores_fail(self, tree: Path) -> None:
        """A store shorter than recorded, or gone, fails verification."""
        (tree / "mem" / "a.jsonl").write_text(_line(LINES[0]), encoding="utf-8")
        (tree / "mem" / "b.jsonl").unlink()
        code, result = _verify(tree)
        assert code == 1
        assert [s["status"] for s in result["stores"]] == ["shrunk", "missing"]

    def test_readable_summary_says_where(self, tree: Path) -> None:
        """Without --json the summary names the store, the line and the verdict."""
        (tree / "mem" / "a.jsonl").write_text(
            "".join(
                map(_line, [LINES[0], {"memory_id": "mX", "text": "nothing here"}, *LINES[2:]])
            ),
            encoding="utf-8",
        )
        out = io.StringIO()
        code = main(["audit", "verify", str(tree / "record.json"), "--root", str(tree)], out)
        assert code == 1
        assert "FAIL store mem/a.jsonl: changed" in out.getvalue()
        assert "first differing line: 2" in out.getvalue()
        assert out.getvalue().rstrip().endswith("NOT VERIFIED")


class TestFirstDifferingLine:
    """Locating the first changed line from the recorded candidate entries."""

    def test_removed_blank_line_shifts_numbering(self) -> None:
        """Lines are numbered 1-based; a blank line removed moves every later record."""
        recorded = {2: ("m1", "h1")}
        assert first_differing_line(b"\n" + b"x\n", {2: ("", "")}) == 2
        assert first_differing_line(b"", recorded) == 2


class TestReplay:
    """Step 2: the request replayed by the reference or any adapter."""

    def test_adapter_replay_compares_package_and_selected_prefix(self, tree: Path) -> None:
        """An adapter without records: package_hash and the selected prefix are compared."""
        code, result = _verify(tree, "--adapter", "python:reference:memory_read")
        assert code == 0
        assert result["replay"]["ranking"] == "same (selected prefix only)"

    def test_adapter_with_the_capability_replays_the_whole_record(self, tree: Path) -> None:
        """An adapter declaring audit (the reference's serve) has its whole record compared."""
        code, result = _verify(tree, "--adapter", reference_adapter_spec())
        assert code == 0
        assert result["replay"]["ranking"] == "same"
        assert result["replay"]["differing_members"] == []

    def test_failure_record_replays_the_same_error(self, tmp_path: Path) -> None:
        """A failure record verifies when the replay fails with the same error."""
        previous = os.getcwd()
        os.chdir(tmp_path)
        try:
            record = memory_read({**REQUEST, "store_paths": ["gone.jsonl"]}, audit=True)["audit"]
        finally:
            os.chdir(previous)
        (tmp_path / "record.json").write_text(json.dumps(record), encoding="utf-8")
        code, result = _verify(tmp_path)
        assert code == 0
        assert result["replay"]["error"]["replayed"]["code"] == "store_not_found"

    def test_tampered_record_is_not_verified(self, tree: Path) -> None:
        """A record whose package_hash was altered fails the replay."""
        record = json.loads((tree / "record.json").read_text("utf-8"))
        record["package_hash"] = "0" * 64
        (tree / "record.json").write_text(json.dumps(record), encoding="utf-8")
        code, result = _verify(tree)
        assert code == 1
        assert "package_hash" in result["replay"]["differing_members"]


class TestUsage:
    """Exit status 2 for what cannot be verified at all."""

    def test_not_a_record(self, tmp_path: Path) -> None:
        """A JSON file that is not a phase6-audit/1 record is a usage error."""
        (tmp_path / "record.json").write_text('{"format": "other"}', encoding="utf-8")
        assert main(["audit", "verify", str(tmp_path / "record.json")], io.StringIO()) == 2

    def test_unknown_revision(self, tree: Path) -> None:
        """--git-rev outside a repository, or naming no commit, is a usage error."""
        args = ["audit", "verify", str(tree / "record.json"), "--root", str(tree)]
        assert main([*args, "--git-rev", "HEAD"], io.StringIO()) == 2


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
class TestGitRevision:
    """--git-rev reads the stores as they were at a commit of a real repository."""

    def _git(self, root: Path, *args: str) -> str:
        env = {
            **os.environ,
            "GIT_AUTHOR_NAME": "t",
            "GIT_AUTHOR_EMAIL": "t@example.org",
            "GIT_COMMITTER_NAME": "t",
            "GIT_COMMITTER_EMAIL": "t@example.org",
        }
        done = subprocess.run(
            ["git", "-C", str(root), *args], env=env, check=True, capture_output=True, text=True
        )
        return done.stdout.strip()

    def test_stores_at_a_commit(self, tree: Path) -> None:
        """After an edit in the working tree, the commit of the read still verifies."""
        self._git(tree, "init", "-q")
        self._git(tree, "add", "mem")
        self._git(tree, "commit", "-q", "-m", "stores as read")
        rev = self._git(tree, "rev-parse", "HEAD")
        (tree / "mem" / "a.jsonl").write_text(_line({"memory_id": "z", "text": "z"}), "utf-8")
        assert _verify(tree)[0] == 1  # the working tree changed ...
        code, result = _verify(tree, "--git-rev", rev)
        assert code == 0  # ... the commit did not
        assert result["source"] == f"git revision {rev} of {tree}"
        self._git(tree, "commit", "-q", "-am", "an edit")
        assert _verify(tree, "--git-rev", "HEAD")[1]["stores"][0]["first_differing_line"] == 1
