"""A vector's files on disk: materializing them, and the tamper evidence of the tree.

:func:`materialize` creates a vector's files byte for byte under a new root. :func:`stamp_tree`
records, for every entry under a root, what a change would show: type, mode, size, content hash,
mtime, ctime, inode and link count. ctime cannot be set from user space, so a controller that
rewrites a store and then restores its mtime (``os.utime``) still shows; a changed inode shows a
store replaced by rename; a changed link count shows a hard link made to it; a created or
removed entry shows in the listing (and in its directory's mtime). The runner stamps every
vector root before and after each run; the read-only probe stamps its workspace the same way.
"""

from __future__ import annotations

import hashlib
import os
import stat
from dataclasses import dataclass, fields
from pathlib import Path, PurePosixPath
from typing import Literal, Protocol

from conformance.corpus._files import FileSpec

__all__ = ["HasFiles", "Stamp", "TreeStamps", "changes", "materialize", "stamp_tree"]

EntryKind = Literal["file", "dir", "other"]


@dataclass(frozen=True)
class Stamp:
    """What is compared for one entry (``sha256`` is empty for directories and others)."""

    kind: EntryKind
    mode: int
    size: int
    mtime_ns: int
    ctime_ns: int
    inode: int
    nlink: int
    sha256: str


TreeStamps = dict[str, Stamp]


class HasFiles(Protocol):
    """A vector, a property scenario: anything that names files (relative POSIX names)."""

    @property
    def files(self) -> tuple[tuple[str, FileSpec], ...]:
        """``(name, spec)`` pairs."""
        ...


def materialize(source: HasFiles, root: Path) -> None:
    """Create ``source``'s files, byte for byte, under ``root`` (created; must be empty)."""
    root.mkdir(parents=True, exist_ok=True)
    for name, spec in source.files:
        target = root.joinpath(*PurePosixPath(name).parts)
        data = spec.content()
        target.parent.mkdir(parents=True, exist_ok=True)
        if data is None:
            target.mkdir(exist_ok=True)
        else:
            fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            try:
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view) :]
            finally:
                os.close(fd)


def stamp_tree(root: Path) -> TreeStamps:
    """Stamp every entry under ``root`` (``"."`` is root itself); symlinks are not followed."""
    stamps: TreeStamps = {}
    pending = [(root, ".")]
    while pending:
        directory, rel = pending.pop()
        stamps[rel] = _stamp("dir", os.lstat(directory), "")
        with os.scandir(directory) as entries:
            for entry in entries:
                child = entry.name if rel == "." else f"{rel}/{entry.name}"
                info = entry.stat(follow_symlinks=False)
                if stat.S_ISDIR(info.st_mode):
                    pending.append((Path(entry.path), child))
                elif stat.S_ISREG(info.st_mode):
                    with open(entry.path, "rb") as handle:
                        digest = hashlib.file_digest(handle, "sha256").hexdigest()
                    stamps[child] = _stamp("file", info, digest)
                else:
                    stamps[child] = _stamp("other", info, "")
    return stamps


def _stamp(kind: EntryKind, info: os.stat_result, digest: str) -> Stamp:
    return Stamp(
        kind,
        stat.S_IMODE(info.st_mode),
        info.st_size if kind == "file" else 0,
        info.st_mtime_ns,
        info.st_ctime_ns,
        info.st_ino,
        info.st_nlink,
        digest,
    )


_FIELDS = tuple(f.name for f in fields(Stamp))


def changes(before: TreeStamps, after: TreeStamps) -> list[str]:
    """Every difference, one line each: ``created x``, ``removed x``, ``changed x (mtime, ...)``."""
    found = []
    for path in sorted(before.keys() | after.keys()):
        old, new = before.get(path), after.get(path)
        if old is None:
            found.append(f"created {path}")
        elif new is None:
            found.append(f"removed {path}")
        elif old != new:
            differing = [name for name in _FIELDS if getattr(old, name) != getattr(new, name)]
            found.append(f"changed {path} ({', '.join(differing)})")
    return found
