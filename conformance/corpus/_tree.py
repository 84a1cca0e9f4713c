"""A vector's files on disk: materializing them, and the tamper evidence of the tree.

:func:`materialize` creates a vector's files byte for byte under a new root, and never outside
it: every name is checked (:mod:`conformance.corpus._names`) and every file and directory is
created relative to its parent's directory descriptor with ``O_NOFOLLOW`` (and ``O_EXCL`` for
files), so neither a crafted name nor a symlink planted in the tree leads anywhere else (the
``tarfile`` data filter's rule, PEP 706).

:func:`stamp_tree` records, for every entry under a root, what a change would show: type, mode,
size, content hash, mtime, ctime, inode and link count. ctime cannot be set from user space, so
a controller that rewrites a store and then restores its bytes and mtime (``os.utime``) still
shows; a changed inode shows a store replaced by rename; a changed link count shows a hard link
made to it; a created or removed entry shows in the listing (and in its directory's mtime).

The walk is bounded (:class:`StampBudget`), because after a run the tree is the implementation's
to shape: only regular files are opened (never a FIFO or a device), a file whose size differs
from the stamp it is compared with is changed without being read (a 1 EiB sparse file costs
nothing), and the bytes hashed, the entries listed and the time spent are capped. What the
budget does not cover is reported (:attr:`TreeStamps.incomplete`) as a change, not waited for.

:class:`Workspace` is the private directory an executor makes vector roots in; it holds the
directory open and works relative to it, so an implementation that deletes, moves or swaps it
for a symlink between two requests cannot redirect the next vector's files.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import shutil
import stat
import tempfile
import time
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Literal, Protocol

from conformance._errors import CorpusError
from conformance.corpus._files import FileSpec
from conformance.corpus._names import name_problem

__all__ = [
    "HasFiles",
    "Stamp",
    "StampBudget",
    "TreeStamps",
    "Workspace",
    "changes",
    "create_new",
    "materialize",
    "stamp_tree",
]

EntryKind = Literal["file", "dir", "other"]

_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_DIR_FLAGS = os.O_RDONLY | _DIRECTORY | _NOFOLLOW | _CLOEXEC
_NEW_FILE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC
#: Opening a file to hash it: never follows a symlink, never blocks on a FIFO swapped in.
_HASH_FLAGS = os.O_RDONLY | _NOFOLLOW | os.O_NONBLOCK | _CLOEXEC
_CHUNK = 1 << 20
#: ``sha256`` of a regular file that was not read (see :func:`stamp_tree`).
NOT_HASHED = "not hashed"


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


class TreeStamps(dict[str, Stamp]):
    """Stamps by relative path (``"."`` is the root itself).

    ``incomplete`` says why the walk stopped before the whole tree was stamped (the budget ran
    out); such a tree always counts as changed.
    """

    incomplete: str | None = None


@dataclass(frozen=True)
class StampBudget:
    """How much one :func:`stamp_tree` may cost: bytes hashed, entries listed, seconds spent."""

    max_bytes: int = 256 * 1024 * 1024
    max_entries: int = 10_000
    max_seconds: float = 5.0


class HasFiles(Protocol):
    """A vector, a property scenario: anything that names files (relative POSIX names)."""

    @property
    def files(self) -> tuple[tuple[str, FileSpec], ...]:
        """``(name, spec)`` pairs."""
        ...


# ------------------------------------------------------------------------------ materialize


def materialize(source: HasFiles, root: Path, *, dir_fd: int | None = None) -> None:
    """Create ``source``'s files, byte for byte, under ``root`` (created; must be empty).

    With ``dir_fd``, ``root`` is relative to that directory and must not be a symlink; without,
    ``root`` (a path the caller chose) is created with its parents. Inside the root nothing is
    followed: a name that is not plain relative segments, or that collides with an entry
    already there, raises :class:`~conformance._errors.CorpusError` and nothing is written
    outside the root, whatever the names.
    """
    for name, _ in source.files:
        problem = name_problem(name)
        if problem is not None:
            raise CorpusError(f"unsafe file name {name!r}: {problem}")
    if dir_fd is None:
        root.mkdir(parents=True, exist_ok=True)
        root_fd = os.open(root, os.O_RDONLY | _DIRECTORY | _CLOEXEC)
    else:
        with contextlib.suppress(FileExistsError):
            os.mkdir(root, 0o755, dir_fd=dir_fd)
        root_fd = os.open(root, _DIR_FLAGS, dir_fd=dir_fd)
    opened: dict[str, int] = {"": root_fd}
    try:
        for name, spec in source.files:
            *parents, leaf = name.split("/")
            parent_fd = _directory(opened, parents, name)
            data = spec.content()
            try:
                if data is None:
                    _make_directory(parent_fd, leaf, name)
                else:
                    _write_new(parent_fd, leaf, data)
            except FileExistsError:
                raise CorpusError(
                    f"file name {name!r} collides with an entry already there"
                ) from None
            except OSError as exc:
                raise CorpusError(f"cannot create {name!r}: {exc.strerror or exc}") from None
    finally:
        for fd in opened.values():
            os.close(fd)


def create_new(root_fd: int, name: str, *, directory: bool = False) -> int | None:
    """Create the file ``name`` (a checked name) under the directory ``root_fd``, by the rules
    of :func:`materialize`; returns its descriptor open for writing (the caller closes it), or
    None for a ``directory``. CorpusError when the name is unsafe or collides."""
    problem = name_problem(name)
    if problem is not None:
        raise CorpusError(f"unsafe file name {name!r}: {problem}")
    *parents, leaf = name.split("/")
    opened: dict[str, int] = {"": root_fd}
    try:
        parent_fd = _directory(opened, parents, name)
        if directory:
            _make_directory(parent_fd, leaf, name)
            return None
        try:
            return os.open(leaf, _NEW_FILE_FLAGS, 0o644, dir_fd=parent_fd)
        except FileExistsError:
            raise CorpusError(f"file name {name!r} collides with an entry already there") from None
        except OSError as exc:
            raise CorpusError(f"cannot create {name!r}: {exc.strerror or exc}") from None
    finally:
        for key, fd in opened.items():
            if key:
                os.close(fd)


def _directory(opened: dict[str, int], parents: list[str], name: str) -> int:
    """The descriptor of the directory ``parents`` (made if missing), never via a symlink."""
    key = ""
    fd = opened[key]
    for segment in parents:
        key = f"{key}/{segment}"
        if key in opened:
            fd = opened[key]
            continue
        with contextlib.suppress(FileExistsError):
            os.mkdir(segment, 0o755, dir_fd=fd)
        try:
            fd = os.open(segment, _DIR_FLAGS, dir_fd=fd)
        except OSError as exc:  # a file or a symlink where a directory must be
            raise CorpusError(
                f"cannot create {name!r}: {key[1:]!r} is not a directory ({exc.strerror})"
            ) from None
        opened[key] = fd
    return fd


def _make_directory(parent_fd: int, leaf: str, name: str) -> None:
    try:
        os.mkdir(leaf, 0o755, dir_fd=parent_fd)
    except FileExistsError:
        info = os.stat(leaf, dir_fd=parent_fd, follow_symlinks=False)
        if not stat.S_ISDIR(info.st_mode):
            raise CorpusError(f"directory {name!r} collides with a file already there") from None


def _write_new(parent_fd: int, leaf: str, data: bytes) -> None:
    fd = os.open(leaf, _NEW_FILE_FLAGS, 0o644, dir_fd=parent_fd)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    finally:
        os.close(fd)


# ------------------------------------------------------------------------------ stamps


def stamp_tree(
    root: Path,
    *,
    dir_fd: int | None = None,
    budget: StampBudget | None = None,
    like: TreeStamps | None = None,
) -> TreeStamps:
    """Stamp every entry under ``root`` (``"."`` is root itself); symlinks are not followed.

    ``like`` is the stamps the result will be compared with: a regular file that is new, or
    whose size differs, is a change already and is not read (``sha256`` :data:`NOT_HASHED`).
    ``budget`` caps the cost (default :class:`StampBudget`); when it runs out the walk stops
    and :attr:`TreeStamps.incomplete` says why. A missing root gives empty stamps.
    """
    budget = budget or StampBudget()
    deadline = time.monotonic() + budget.max_seconds
    stamps = TreeStamps()
    try:
        if dir_fd is None:
            top = os.open(root, os.O_RDONLY | _DIRECTORY | _CLOEXEC)
        else:
            top = os.open(root, _DIR_FLAGS, dir_fd=dir_fd)
    except FileNotFoundError:
        return stamps
    except OSError as exc:  # the root replaced by a file or a symlink
        info = _lstat(root, dir_fd)
        if info is None:
            return stamps
        if exc.errno not in (errno.ENOTDIR, errno.ELOOP):
            raise
        stamps["."] = _stamp("other", info, "")
        return stamps
    pending: list[tuple[int, str]] = [(top, ".")]
    hashed = 0
    try:
        while pending:
            fd, rel = pending.pop()
            try:
                stamps[rel] = _stamp("dir", os.fstat(fd), "")
                with os.scandir(fd) as entries:
                    for entry in entries:
                        if len(stamps) >= budget.max_entries:
                            stamps.incomplete = f"more than {budget.max_entries:,} entries"
                            return stamps
                        if time.monotonic() > deadline:
                            stamps.incomplete = f"stamping took over {budget.max_seconds:g} s"
                            return stamps
                        child = entry.name if rel == "." else f"{rel}/{entry.name}"
                        try:
                            info = entry.stat(follow_symlinks=False)
                        except FileNotFoundError:
                            continue  # gone while listing: its directory's mtime shows it
                        if stat.S_ISDIR(info.st_mode):
                            try:
                                sub = os.open(entry.name, _DIR_FLAGS, dir_fd=fd)
                            except OSError:  # swapped for something else meanwhile
                                stamps[child] = _stamp("other", info, "")
                                continue
                            pending.append((sub, child))
                        elif stat.S_ISREG(info.st_mode):
                            old = like.get(child) if like is not None else None
                            if like is not None and (
                                old is None or old.kind != "file" or old.size != info.st_size
                            ):
                                digest = NOT_HASHED
                            elif hashed + info.st_size > budget.max_bytes:
                                digest = NOT_HASHED
                                stamps.incomplete = (
                                    f"more than {budget.max_bytes:,} bytes of files to hash"
                                )
                            else:
                                hashed += info.st_size
                                digest = _hash(fd, entry.name, info.st_size, deadline)
                                if digest == NOT_HASHED:
                                    stamps.incomplete = (
                                        f"hashing took over {budget.max_seconds:g} s"
                                    )
                            stamps[child] = _stamp("file", info, digest)
                        else:
                            stamps[child] = _stamp("other", info, "")
            finally:
                os.close(fd)
    finally:
        for fd, _ in pending:
            os.close(fd)
    return stamps


def _lstat(root: Path, dir_fd: int | None) -> os.stat_result | None:
    try:
        return os.stat(root, dir_fd=dir_fd, follow_symlinks=False)
    except OSError:
        return None


def _hash(dir_fd: int, name: str, size: int, deadline: float) -> str:
    """SHA-256 of a regular file's first ``size`` bytes; :data:`NOT_HASHED` past the deadline
    or when the entry is no longer a regular file of that size."""
    try:
        fd = os.open(name, _HASH_FLAGS, dir_fd=dir_fd)
    except OSError:
        return NOT_HASHED
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size != size:
            return NOT_HASHED
        digest = hashlib.sha256()
        left = size
        while left > 0:
            chunk = os.read(fd, min(_CHUNK, left))
            if not chunk:
                break
            digest.update(chunk)
            left -= len(chunk)
            if left and time.monotonic() > deadline:
                return NOT_HASHED
        return digest.hexdigest()
    except OSError:
        return NOT_HASHED
    finally:
        os.close(fd)


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


def changes(before: dict[str, Stamp], after: dict[str, Stamp]) -> list[str]:
    """Every difference, one line each: ``created x``, ``removed x``, ``changed x (mtime, ...)``.

    A tree whose stamping stopped early (:attr:`TreeStamps.incomplete`) adds a line saying so.
    """
    found = []
    for side in (before, after):
        incomplete = getattr(side, "incomplete", None)
        if incomplete:
            found.append(f"the tree could not be checked in full ({incomplete})")
    for path in sorted(before.keys() | after.keys()):
        old, new = before.get(path), after.get(path)
        if old is None:
            found.append(f"created {path}")
        elif new is None:
            found.append(f"removed {path}")
        elif old != new:
            differing = [name for name in _FIELDS if getattr(old, name) != getattr(new, name)]
            if new.sha256 == NOT_HASHED and "sha256" in differing:
                differing[differing.index("sha256")] = "content not read"
            found.append(f"changed {path} ({', '.join(differing)})")
    return found


# ------------------------------------------------------------------------------ workspace


def _make_traversable(name: str, dir_fd: int) -> None:
    """Give every directory under ``name`` (itself included) back ``rwx`` for its owner.

    Only directories are touched, each checked with ``lstat`` first (Linux cannot chmod a
    symlink itself, so the check is what keeps a symlink's target out of reach).
    """

    def owner_rwx(entry: str, fd: int) -> None:
        with contextlib.suppress(OSError):
            if stat.S_ISDIR(os.stat(entry, dir_fd=fd, follow_symlinks=False).st_mode):
                os.chmod(entry, 0o700, dir_fd=fd)

    owner_rwx(name, dir_fd)
    with contextlib.suppress(OSError):
        for _, dirnames, _, fd in os.fwalk(name, dir_fd=dir_fd):
            for sub in dirnames:
                owner_rwx(sub, fd)


class Workspace:
    """A private temporary directory for vector roots, held open and worked in by descriptor.

    Each vector root is one plain entry of it (:meth:`materialize`, :meth:`stamp`,
    :meth:`remove`). Before each materializing the workspace checks that its path still leads
    to the directory it holds; if an implementation removed, moved or replaced it, a new one
    is made.
    """

    def __init__(self, parent: str | None = None, prefix: str = "phase6-"):
        self._parent = parent
        self._prefix = prefix
        self.path, self._fd = self._make()

    def _make(self) -> tuple[Path, int]:
        path = Path(tempfile.mkdtemp(prefix=self._prefix, dir=self._parent))
        return path, os.open(path, _DIR_FLAGS)

    def _intact(self) -> bool:
        try:
            here = os.stat(self.path, follow_symlinks=False)
        except OSError:
            return False
        held = os.fstat(self._fd)
        return (here.st_dev, here.st_ino) == (held.st_dev, held.st_ino) and held.st_nlink > 0

    def root(self, name: str) -> Path:
        """The absolute path of vector root ``name``."""
        return self.path / name

    def materialize(self, name: str, source: HasFiles) -> Path:
        """A fresh root ``name`` holding ``source``'s files (any old entry of that name goes)."""
        problem = name_problem(name)
        if problem is not None or "/" in name:
            raise CorpusError(f"unsafe vector root name {name!r}: {problem or 'has a /'}")
        if not self._intact():
            os.close(self._fd)
            self.path, self._fd = self._make()
        self.remove(name)
        os.mkdir(name, 0o755, dir_fd=self._fd)
        materialize(source, Path(name), dir_fd=self._fd)
        return self.path / name

    def stamp(
        self, name: str, *, budget: StampBudget | None = None, like: TreeStamps | None = None
    ) -> TreeStamps:
        """:func:`stamp_tree` of root ``name``, by descriptor."""
        return stamp_tree(Path(name), dir_fd=self._fd, budget=budget, like=like)

    def remove(self, name: str) -> None:
        """Remove root ``name`` (whatever it has become), never following a symlink."""
        try:
            info = os.stat(name, dir_fd=self._fd, follow_symlinks=False)
        except OSError:
            return
        if not stat.S_ISDIR(info.st_mode):
            with contextlib.suppress(OSError):
                os.unlink(name, dir_fd=self._fd)
            return
        try:
            shutil.rmtree(name, dir_fd=self._fd)
        except OSError:  # an implementation took the permissions away: give them back, retry
            _make_traversable(name, self._fd)
            shutil.rmtree(name, ignore_errors=True, dir_fd=self._fd)

    def close(self) -> None:
        """Remove the workspace and everything in it."""
        if self._fd < 0:
            return
        try:
            if self._intact():
                shutil.rmtree(self.path, ignore_errors=True)
            else:  # moved or replaced: empty what we still hold, leave the path alone
                with os.scandir(self._fd) as entries:
                    names = [entry.name for entry in entries]
                for name in names:
                    self.remove(name)
        except OSError:
            pass
        finally:
            os.close(self._fd)
            self._fd = -1
