"""Where a store's bytes come from when a record is verified: the working tree, or a commit.

SPEC-005: stores are append-only and git history is the immutable trace, so a store can be
read as it was at any commit (``git show REV:path``, git run as a subprocess).
"""

from __future__ import annotations

import posixpath
import subprocess
from dataclasses import dataclass
from pathlib import Path

from conformance._errors import HarnessError
from conformance.readings import read_regular_file

__all__ = ["GitSource", "Source", "TreeSource", "source_for"]

#: How long one ``git`` call may take.
GIT_TIMEOUT = 60.0


class Source:
    """Reads files named as a request names them (relative to a root, or absolute)."""

    label: str

    def read(self, path: str) -> bytes | None:
        """The file's bytes, or None when it does not exist there."""
        raise NotImplementedError


@dataclass(frozen=True)
class TreeSource(Source):
    """The files on disk, relative paths resolved against ``root``."""

    root: Path

    @property
    def label(self) -> str:  # type: ignore[override]
        """How the summary names this source."""
        return f"the files under {self.root}"

    def read(self, path: str) -> bytes | None:
        """The file's bytes, or None when missing (OSError when unreadable)."""
        return read_regular_file(self.root / path)


@dataclass(frozen=True)
class GitSource(Source):
    """The files as they were at commit ``rev`` of the repository holding ``root``."""

    root: Path
    rev: str

    @property
    def label(self) -> str:  # type: ignore[override]
        """How the summary names this source."""
        return f"git revision {self.rev} of {self.root}"

    def check(self) -> None:
        """Fail with HarnessError (a usage error) when ``rev`` is not a commit of the repo."""
        command = [
            "git",
            "-C",
            str(self.root),
            "rev-parse",
            "--verify",
            "--quiet",
            f"{self.rev}^{{commit}}",
        ]
        try:
            done = subprocess.run(command, capture_output=True, timeout=GIT_TIMEOUT, check=False)
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise HarnessError(f"cannot run git: {exc}") from None
        if done.returncode != 0:
            raise HarnessError(f"{self.rev!r} is not a commit of the repository at {self.root}")

    def read(self, path: str) -> bytes | None:
        """``git show REV:./path`` (relative to ``root``); None when the commit lacks it."""
        if posixpath.isabs(path):
            raise HarnessError(f"--git-rev needs repository-relative store paths, got {path!r}")
        command = ["git", "-C", str(self.root), "show", f"{self.rev}:./{path}"]
        try:
            done = subprocess.run(command, capture_output=True, timeout=GIT_TIMEOUT, check=False)
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise HarnessError(f"cannot run git: {exc}") from None
        if done.returncode != 0:
            return None
        return done.stdout


def source_for(root: Path, rev: str | None) -> Source:
    """The working tree under ``root``, or commit ``rev`` of its repository (checked)."""
    if rev is None:
        return TreeSource(root)
    source = GitSource(root, rev)
    source.check()
    return source
