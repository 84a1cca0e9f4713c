"""Where a store's bytes come from when a record is verified: the working tree, or a commit.

SPEC-005: stores are append-only and git history is the immutable trace, so a store can be
read as it was at any commit (``git cat-file``, git run as a subprocess).

A record and the tree it names may come from anyone (``audit verify`` exists to check someone
else's read), so a source opens nothing but what the record names *inside* its root:

- a name is a relative POSIX path of plain segments (:func:`conformance.corpus.name_problem`,
  the rule the corpus materializer applies), checked by the caller before it gets here;
- in the working tree every directory on the way is opened relative to its parent's descriptor
  with ``O_NOFOLLOW`` and the file itself with ``O_NOFOLLOW | O_NONBLOCK``: a symlink anywhere
  on the path is reported as a link and never followed (out of ``--root``, or anywhere else),
  and a FIFO or a device is never waited on or read;
- at a commit a symlink is a blob of mode ``120000``, reported as a link too;
- bytes come in chunks, at most as many as the caller asks for (a sparse 8 GiB file named by
  a record costs only what the record's bounded ``bytes`` allow).
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from conformance._errors import HarnessError

__all__ = ["Entry", "GitSource", "Source", "TreeSource", "source_for"]

#: How long one ``git`` call may take.
GIT_TIMEOUT = 60.0
#: How much one read returns.
CHUNK = 1 << 20

_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_DIR_FLAGS = os.O_RDONLY | _DIRECTORY | _NOFOLLOW | _CLOEXEC
_FILE_FLAGS = os.O_RDONLY | _NOFOLLOW | os.O_NONBLOCK | _CLOEXEC

EntryKind = Literal["missing", "file", "directory", "link", "other", "unreadable"]


@dataclass(frozen=True)
class Entry:
    """What a source holds at a name: its kind, and its size when it is a regular file."""

    kind: EntryKind
    size: int = 0
    detail: str = ""


class Source:
    """Reads files named relative to a root, never following a link out of it."""

    label: str

    def entry(self, name: str) -> Entry:
        """What is at ``name`` (a checked relative name): never follows a symlink."""
        raise NotImplementedError

    def chunks(self, name: str, limit: int) -> Iterator[bytes]:
        """The first ``limit`` bytes (or fewer) of the regular file at ``name``, in chunks.

        OSError when it is not (or no longer) a regular file that can be read.
        """
        raise NotImplementedError


@dataclass(frozen=True)
class TreeSource(Source):
    """The files on disk under ``root``, opened by descriptor, no symlink followed."""

    root: Path

    @property
    def label(self) -> str:  # type: ignore[override]
        """How the summary names this source."""
        return f"the files under {self.root}"

    @contextlib.contextmanager
    def _parent(self, name: str) -> Iterator[tuple[int, str]]:
        """The descriptor of ``name``'s directory (walked with O_NOFOLLOW) and its leaf."""
        *parents, leaf = name.split("/")
        fd = os.open(self.root, os.O_RDONLY | _DIRECTORY | _CLOEXEC)
        try:
            for segment in parents:
                sub = os.open(segment, _DIR_FLAGS, dir_fd=fd)
                os.close(fd)
                fd = sub
            yield fd, leaf
        finally:
            os.close(fd)

    def entry(self, name: str) -> Entry:
        """What is at ``name``; a symlink on the way or at the end is a ``link``."""
        try:
            with self._parent(name) as (fd, leaf):
                info = os.stat(leaf, dir_fd=fd, follow_symlinks=False)
        except FileNotFoundError:
            return Entry("missing")
        except OSError as exc:
            if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                return Entry("link", detail="a symbolic link or a file on the way: not followed")
            return Entry("unreadable", detail=exc.strerror or str(exc))
        mode = info.st_mode
        if stat.S_ISLNK(mode):
            return Entry("link", detail="a symbolic link: not followed")
        if stat.S_ISREG(mode):
            return Entry("file", info.st_size)
        if stat.S_ISDIR(mode):
            return Entry("directory")
        return Entry("other", detail="not a regular file")

    def chunks(self, name: str, limit: int) -> Iterator[bytes]:
        """At most ``limit`` bytes of the regular file ``name``, never through a symlink."""
        with self._parent(name) as (parent, leaf):
            fd = os.open(leaf, _FILE_FLAGS, dir_fd=parent)
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise OSError(errno.EINVAL, "not a regular file", name)
            left = limit
            while left > 0:
                chunk = os.read(fd, min(CHUNK, left))
                if not chunk:
                    return
                left -= len(chunk)
                yield chunk
        finally:
            os.close(fd)


@dataclass(frozen=True)
class GitSource(Source):
    """The files as they were at commit ``rev`` of the repository holding ``root``."""

    root: Path
    rev: str

    @property
    def label(self) -> str:  # type: ignore[override]
        """How the summary names this source."""
        return f"git revision {self.rev} of {self.root}"

    def _git(self, *args: str) -> subprocess.CompletedProcess[bytes]:
        # --literal-pathspecs: a store named "*.jsonl" is that name, not a glob.
        command = ["git", "--literal-pathspecs", "-C", str(self.root), *args]
        try:
            return subprocess.run(command, capture_output=True, timeout=GIT_TIMEOUT, check=False)
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise HarnessError(f"cannot run git: {exc}") from None

    def check(self) -> None:
        """Fail with HarnessError (a usage error) when ``rev`` is not a commit of the repo."""
        done = self._git("rev-parse", "--verify", "--quiet", f"{self.rev}^{{commit}}")
        if done.returncode != 0:
            raise HarnessError(f"{self.rev!r} is not a commit of the repository at {self.root}")

    def entry(self, name: str) -> Entry:
        """The tree entry at ``name`` in the commit (``git ls-tree``): mode 120000 is a link."""
        done = self._git("ls-tree", "-z", "-l", self.rev, "--", f"./{name}")
        if done.returncode != 0 or not done.stdout:
            return Entry("missing")
        meta, _, _ = done.stdout.partition(b"\t")
        mode, kind, _, size = meta.decode("ascii", "replace").split()
        if mode == "120000":
            return Entry("link", detail="a symbolic link in the commit: not followed")
        if kind == "tree":
            return Entry("directory")
        if kind != "blob":
            return Entry("other", detail=f"a {kind} in the commit")
        return Entry("file", int(size))

    def chunks(self, name: str, limit: int) -> Iterator[bytes]:
        """At most ``limit`` bytes of the blob at ``name`` (``git cat-file blob``)."""
        command = ["git", "-C", str(self.root), "cat-file", "blob", f"{self.rev}:./{name}"]
        try:
            process = subprocess.Popen(
                command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL
            )
        except OSError as exc:
            raise HarnessError(f"cannot run git: {exc}") from None
        assert process.stdout is not None
        try:
            left = limit
            while left > 0:
                chunk = process.stdout.read(min(CHUNK, left))
                if not chunk:
                    break
                left -= len(chunk)
                yield chunk
        finally:
            process.kill()
            process.stdout.close()
            process.wait()


def source_for(root: Path, rev: str | None) -> Source:
    """The working tree under ``root``, or commit ``rev`` of its repository (checked)."""
    if rev is None:
        return TreeSource(root)
    source = GitSource(root, rev)
    source.check()
    return source
