"""The pids cgroup of a sandboxed run: a process limit that holds when the harness is root.

``RLIMIT_NPROC`` (``prlimit --nproc``) does not hold for root: the kernel exempts uid 0 from
it, and CI runs the kit as root. A pids cgroup does: its ``pids.max`` bounds the tasks
(processes and threads) in it, whoever owns them, and a ``fork``/``clone`` past it fails with
``EAGAIN``. Where one can be made, :func:`make_pids_cgroup` makes one cgroup for the run:

- cgroup v2 (a ``cgroup2`` mount) when ``pids`` is in the ``cgroup.subtree_control`` of the
  cgroup this process is in; otherwise cgroup v1, the ``pids`` hierarchy (a ``cgroup`` mount
  with the ``pids`` option), under this process's cgroup in it;
- named ``phase6-`` and 16 random hex digits, with ``pids.max`` set to the limit;
- every sandboxed process enters it by itself before anything else runs
  (:meth:`PidsCgroup.wrap`: ``/bin/sh`` writes its own PID to ``cgroup.procs`` and only then
  executes ``bwrap``), so no process of the adapter ever runs outside it, and its children
  are born in it;
- inside the sandbox the cgroup file system is read-only (``--ro-bind / /``) and no
  capability is left (``--cap-drop ALL``): the adapter cannot move itself out;
- at the end (:meth:`PidsCgroup.remove`, from :func:`sandbox_run`'s ``finally``: also on an
  error, Ctrl-C or SIGTERM) every task left in it is killed and the cgroup removed.

Where none can be made (no pids controller, or not writable: not root and nothing
delegated), the run goes on and the report says how processes are limited, or that they are
not (:func:`process_limit`).
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import signal
import subprocess
import time
from dataclasses import dataclass
from typing import Any

__all__ = ["CgroupUnavailable", "PidsCgroup", "make_pids_cgroup", "parent_in", "process_limit"]

#: The shell that places a sandboxed process in the cgroup before it executes ``bwrap``:
#: ``$1`` is ``cgroup.procs``, the rest the command. A failed write ends it (exit 2, the
#: shell's message on stderr) before the command starts.
_ENTER = 'echo $$ > "$1" && shift && exec "$@"'
_SHELL = "/bin/sh"
#: How long the removal may keep killing tasks and retrying ``rmdir``.
_REMOVE_DEADLINE = 30.0
_CHECK_TIMEOUT = 20.0


class CgroupUnavailable(Exception):
    """No pids cgroup can be made here; the message says why."""


@dataclass(frozen=True)
class PidsCgroup:
    """The run's pids cgroup: the directory ``path`` (cgroup ``version`` 1 or 2), holding
    at most ``max`` tasks."""

    path: str
    version: int
    max: int

    @property
    def procs(self) -> str:
        """Its ``cgroup.procs`` file."""
        return os.path.join(self.path, "cgroup.procs")

    def wrap(self, argv: list[str]) -> list[str]:
        """``argv`` started inside the cgroup (the process places itself, then executes it)."""
        return [_SHELL, "-c", _ENTER, "phase6-pids-cgroup", self.procs, *argv]

    def pids(self) -> list[int]:
        """The processes in it (their IDs in this process's PID namespace)."""
        with open(self.procs, encoding="ascii") as handle:
            return [int(word) for word in handle.read().split()]

    def remove(self) -> bool:
        """Kill every task left in it and remove it; whether it is gone."""
        deadline = time.monotonic() + _REMOVE_DEADLINE
        kill = os.path.join(self.path, "cgroup.kill")  # cgroup v2, Linux 5.14
        while True:
            if not os.path.isdir(self.path):
                return True
            if self.version == 2 and os.path.exists(kill):
                with contextlib.suppress(OSError), open(kill, "w", encoding="ascii") as handle:
                    handle.write("1")
            with contextlib.suppress(OSError):
                for pid in self.pids():
                    self._kill(pid)
            try:
                os.rmdir(self.path)
                return True
            except FileNotFoundError:
                return True
            except OSError as exc:
                if exc.errno != errno.EBUSY or time.monotonic() > deadline:
                    return False
            time.sleep(0.05)  # the killed tasks are still exiting

    def _kill(self, pid: int) -> None:
        """SIGKILL ``pid``, if it is still the process of this cgroup (a PID file descriptor
        pins the process, so a reused PID is never hit)."""
        try:
            handle = os.pidfd_open(pid)
        except OSError:  # gone already
            return
        except AttributeError:  # pragma: no cover - Linux before 5.3 / Python without it
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
            return
        try:
            if self._holds(pid):
                signal.pidfd_send_signal(handle, signal.SIGKILL)
        except OSError:
            pass
        finally:
            os.close(handle)

    def _holds(self, pid: int) -> bool:
        """Whether ``pid`` is in this cgroup (``/proc/PID/cgroup``)."""
        name = os.path.basename(self.path)
        with open(f"/proc/{pid}/cgroup", encoding="utf-8", errors="replace") as handle:
            for line in handle:
                _, controllers, path = line.rstrip("\n").split(":", 2)
                mine = controllers == "" if self.version == 2 else "pids" in controllers.split(",")
                if mine and os.path.basename(path) == name:
                    return True
        return False

    def to_json(self) -> dict[str, Any]:
        """Its fields (how :func:`active_sandbox` carries it to worker processes)."""
        return {"path": self.path, "version": self.version, "max": self.max}


def process_limit(cgroup: PidsCgroup | None, nproc: int, why_not: str | None) -> dict[str, Any]:
    """The report header's ``processes`` object: what limits the processes of a sandboxed
    adapter (``RLIMIT_NPROC`` unless this process is root, the pids cgroup where there is
    one), or why nothing does."""
    by: list[str] = []
    if os.geteuid() != 0:
        by.append("RLIMIT_NPROC")
    if cgroup is not None:
        by.append("pids cgroup")
    summary = []
    if "RLIMIT_NPROC" in by:
        summary.append(f"RLIMIT_NPROC {nproc} (the user's processes)")
    if cgroup is not None:
        summary.append(f"pids cgroup v{cgroup.version}, pids.max {cgroup.max} (the run's tasks)")
    reason = None
    if not by:
        reason = (
            "running as root (the kernel does not apply RLIMIT_NPROC to uid 0) and no pids "
            f"cgroup: {why_not}"
        )
    return {
        "limited": bool(by),
        "by": by,
        "max": cgroup.max if cgroup is not None else (nproc if by else None),
        "cgroup_version": cgroup.version if cgroup is not None else None,
        "summary": ", ".join(summary) if by else f"not limited: {reason}",
        "reason": reason,
    }


def make_pids_cgroup(limit: int) -> tuple[PidsCgroup | None, str]:
    """A new pids cgroup holding at most ``limit`` tasks that a process can enter here, or
    why there is none."""
    try:
        parent, version = _parent()
    except CgroupUnavailable as exc:
        return None, str(exc)
    path = os.path.join(parent, f"phase6-{secrets.token_hex(8)}")
    try:
        os.mkdir(path, 0o755)
    except OSError as exc:
        return None, f"cannot make a cgroup in {parent} ({exc.strerror or exc})"
    cgroup = PidsCgroup(path, version, limit)
    try:
        with open(os.path.join(path, "pids.max"), "w", encoding="ascii") as handle:
            handle.write(str(limit))
        done = subprocess.run(
            cgroup.wrap(["true"]),
            capture_output=True,
            timeout=_CHECK_TIMEOUT,
            check=False,
            stdin=subprocess.DEVNULL,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        cgroup.remove()
        return None, f"cannot use a cgroup in {parent} ({exc})"
    except BaseException:  # interrupted (Ctrl-C, SIGTERM): the cgroup is not left behind
        cgroup.remove()
        raise
    if done.returncode != 0:
        said = done.stderr.decode("utf-8", "replace").strip()
        cgroup.remove()
        return None, f"a process cannot enter a cgroup in {parent} ({said[-300:]})"
    return cgroup, ""


def _parent() -> tuple[str, int]:
    """The cgroup directory to make the run's cgroup in, and its cgroup version."""
    return parent_in(_read("/proc/self/mountinfo"), _read("/proc/self/cgroup"))


def parent_in(mountinfo: str, own: str) -> tuple[str, int]:
    """The cgroup directory to make the run's cgroup in, and its cgroup version, for a
    process with this ``/proc/self/mountinfo`` and ``/proc/self/cgroup`` (raises
    :class:`CgroupUnavailable`, saying why, where there is none)."""
    mounts = _cgroup_mounts(mountinfo)
    mine = _own_cgroups(own)
    v2 = [m for m in mounts if m[2] == "cgroup2"]
    if v2 and "" in mine:
        where = _inside(v2[0], mine[""])
        with (
            contextlib.suppress(OSError),
            open(os.path.join(where, "cgroup.subtree_control"), encoding="ascii") as handle,
        ):
            if "pids" in handle.read().split():
                return where, 2
    v1 = [m for m in mounts if m[2] == "cgroup" and "pids" in m[3].split(",")]
    for controllers, path in mine.items():
        if v1 and "pids" in controllers.split(","):
            where = _inside(v1[0], path)
            if os.path.isfile(os.path.join(where, "cgroup.procs")):
                return where, 1
    if v2:
        raise CgroupUnavailable(
            "the pids controller is not enabled for this process's cgroup v2 subtree "
            "(cgroup.subtree_control) and there is no cgroup v1 pids hierarchy"
        )
    raise CgroupUnavailable("no cgroup file system with the pids controller is mounted")


def _inside(mount: tuple[str, str, str, str], path: str) -> str:
    """The directory of cgroup ``path`` in ``mount`` (mount point, mount root, type, options)."""
    point, root = mount[0], mount[1]
    if root != "/" and (path == root or path.startswith(root.rstrip("/") + "/")):
        path = path[len(root) :]
    return os.path.join(point, path.lstrip("/"))


def _read(path: str) -> str:
    """The text of ``path`` (empty when it cannot be read)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return handle.read()
    except OSError:
        return ""


def _cgroup_mounts(mountinfo: str) -> list[tuple[str, str, str, str]]:
    """The cgroup mounts of a ``mountinfo`` text: (mount point, root, type, options)."""
    found = []
    for line in mountinfo.splitlines():
        left, _, right = line.partition(" - ")
        fields, rest = left.split(), right.split()
        if len(fields) >= 5 and len(rest) >= 3 and rest[0] in {"cgroup", "cgroup2"}:
            point = fields[4].replace("\\040", " ")
            found.append((point, fields[3], rest[0], rest[2]))
    return found


def _own_cgroups(own: str) -> dict[str, str]:
    """A ``/proc/PID/cgroup`` text's cgroups by controller list (``""``: cgroup v2)."""
    found = {}
    for line in own.splitlines():
        parts = line.split(":", 2)
        if len(parts) == 3:
            found[parts[1]] = parts[2]
    return found
