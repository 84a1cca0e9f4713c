"""Tamper evidence for a directory tree: content hash, size, mode, mtime, ctime, inode, links.

ctime cannot be set from user space, so a controller that rewrites a store and then restores
its mtime (``os.utime``) still shows; a changed inode shows a store replaced by rename; a
changed link count shows a hard link made to it; a created or removed entry shows in the
listing (and in its directory's mtime).
"""

from __future__ import annotations

import hashlib
import os
import stat
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Stamp", "changes", "stamp_tree"]


@dataclass(frozen=True)
class Stamp:
    """What is compared for one entry (``sha256`` is empty for directories and others)."""

    kind: str
    mode: int
    size: int
    mtime_ns: int
    ctime_ns: int
    inode: int
    nlink: int
    sha256: str


def stamp_tree(root: Path) -> dict[str, Stamp]:
    """Stamp every entry under ``root`` (``"."`` is root itself); symlinks are not followed."""
    stamps: dict[str, Stamp] = {}
    pending = [(root, ".")]
    while pending:
        directory, rel = pending.pop()
        info = os.lstat(directory)
        stamps[rel] = _stamp("dir", info, "")
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


def _stamp(kind: str, info: os.stat_result, digest: str) -> Stamp:
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


def changes(before: dict[str, Stamp], after: dict[str, Stamp]) -> list[str]:
    """Every difference, one line each: ``created x``, ``removed x``, ``changed x (mtime, ...)``."""
    found = []
    for path in sorted(before.keys() | after.keys()):
        old, new = before.get(path), after.get(path)
        if old is None:
            found.append(f"created {path}")
        elif new is None:
            found.append(f"removed {path}")
        elif old != new:
            fields = [
                name
                for name in Stamp.__dataclass_fields__
                if getattr(old, name) != getattr(new, name)
            ]
            found.append(f"changed {path} ({', '.join(fields)})")
    return found
