"""The sandbox adapters run in (``certify --sandbox auto|require|off``): bubblewrap, where the
machine allows it.

An implementation under test is a stranger's code. Under the sandbox every process the
harness starts for it (a ``cmd:`` adapter, the worker of a ``python:`` adapter, the probes'
variants of them) is started as::

    [/bin/sh -c 'echo $$ > "$1" && shift && exec "$@"' phase6-pids-cgroup CGROUP/cgroup.procs]
    bwrap --die-with-parent --unshare-pid --unshare-net --unshare-ipc --cap-drop ALL
          --ro-bind / / --dev /dev --proc /proc --tmpfs /tmp [--ro-bind CWD CWD]
          --bind SCRATCH SCRATCH --chdir CWD --unsetenv PHASE6_SANDBOX
          -- prlimit --as=... --nproc=... --fsize=... --cpu=... -- <the adapter's argv>

so that

- it runs in a PID namespace of its own: when the process the harness started ends (or is
  killed with its group), the namespace's init ends and the kernel kills every process left
  in it, a ``setsid`` daemon with its stdio closed included;
- it has no network: an empty network namespace (loopback only, connected to nothing);
- the filesystem is read-only, except ``SCRATCH``, the one directory holding every vector
  root of this run (every kit workspace of the run is made in it: :func:`sandbox_run` points
  ``--temp-dir``, ``$PHASE6_TMPDIR``, ``$TMPDIR`` and :data:`tempfile.tempdir` there), and a
  private, empty ``/tmp`` (a working directory under the host's ``/tmp`` is bound back,
  read-only); no capability is kept, even when the harness runs as root, so nothing can be
  remounted;
- it runs under the resource limits of :class:`Limits` (``prlimit`` from util-linux);
- its processes are limited in number: ``RLIMIT_NPROC`` holds for a harness that is not
  root (the kernel exempts uid 0 from it), and where a pids cgroup can be made (cgroup v2 with
  ``pids`` in ``cgroup.subtree_control``, or the cgroup v1 ``pids`` hierarchy; as root, or
  where one is delegated) every sandboxed process of the run starts inside one cgroup made for
  the run (``CGROUP`` above, named ``phase6-<random>``, ``pids.max`` = ``Limits.processes``;
  the process writes its own PID to ``cgroup.procs`` before it executes ``bwrap``), which it
  cannot leave (the cgroup file system is read-only inside, no capability is kept). A fork
  past the limit fails with ``EAGAIN``. At the end of the run (also on an error, Ctrl-C or
  SIGTERM) every task left in it is killed and the cgroup removed (:mod:`._pids`). Where
  neither holds (root without a pids cgroup) the report says "not limited" and why.

``auto`` (the default) uses the sandbox when it works here (checked once per run by starting
``true`` in it) and otherwise runs unsandboxed, saying why; ``require`` makes "no sandbox" a
usage error (exit 2); ``off`` never sandboxes. The report header says which, and how
(:meth:`SandboxStatus.to_json`; its ``processes`` object says how processes are limited).
``certify --sandbox-max-processes N`` (or ``sandbox_run(limits=...)``) lowers
``Limits.processes``.

The processes of a run learn the sandbox from :func:`active_sandbox`: set in this process by
:func:`sandbox_run`, and in the worker processes it spawns through ``$PHASE6_SANDBOX``.
Without one (the Python API used directly), adapters run unsandboxed and say so.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

from conformance.adapters._pids import PidsCgroup, make_pids_cgroup, process_limit

__all__ = [
    "SANDBOX_MODES",
    "SANDBOX_NAMESPACES",
    "Limits",
    "Sandbox",
    "SandboxMode",
    "SandboxStatus",
    "active_sandbox",
    "sandbox_run",
]

SandboxMode = Literal["auto", "require", "off"]
#: ``--sandbox`` values; the first is the default.
SANDBOX_MODES: tuple[SandboxMode, ...] = ("auto", "require", "off")
#: The namespaces an adapter gets of its own (bubblewrap always makes a mount namespace).
SANDBOX_NAMESPACES = ("pid", "net", "ipc", "mount")
#: The environment variable carrying the active sandbox to spawned worker processes.
ENV = "PHASE6_SANDBOX"
#: How long the check that the sandbox works may take.
_PROBE_TIMEOUT = 20.0
_GIB = 1024**3


@dataclass(frozen=True)
class Limits:
    """Resource limits of every sandboxed process (``setrlimit``, soft = hard; inherited by
    its children). Generous for an implementation answering requests, fatal for a runaway."""

    #: RLIMIT_AS, bytes of address space per process: 8 GiB (a JavaScript engine reserves
    #: some 4 GiB of address space it never touches; the kit's largest reply is 2 MB).
    address_space: int = 8 * _GIB
    #: RLIMIT_NPROC, processes of the user: 4096. The kernel counts every process of the
    #: user, and does not apply the limit to root (uid 0). Also the ``pids.max`` of the
    #: run's pids cgroup, where one can be made: the tasks of all its adapters together.
    processes: int = 4096
    #: RLIMIT_FSIZE, the largest file a process may write: 1 GiB (SIGXFSZ past it).
    file_size: int = _GIB
    #: RLIMIT_CPU, CPU seconds per process: 3600 (SIGXCPU, then SIGKILL). A hang is the
    #: per-request timeout's business; this ends a busy loop the harness does not wait for.
    cpu_seconds: int = 3600

    def __post_init__(self) -> None:
        """Refuse a limit that is not a positive integer (``ValueError`` naming it)."""
        for name, value in asdict(self).items():
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ValueError(f"Limits.{name} must be a positive integer, not {value!r}")

    def prlimit_options(self) -> list[str]:
        """The options of ``prlimit`` setting these limits."""
        return [
            f"--as={self.address_space}",
            f"--nproc={self.processes}",
            f"--fsize={self.file_size}",
            f"--cpu={self.cpu_seconds}",
        ]

    def to_json(self) -> dict[str, int]:
        """The limits by their ``setrlimit`` names."""
        return {
            "RLIMIT_AS": self.address_space,
            "RLIMIT_NPROC": self.processes,
            "RLIMIT_FSIZE": self.file_size,
            "RLIMIT_CPU": self.cpu_seconds,
        }


@dataclass(frozen=True)
class Sandbox:
    """A working bubblewrap sandbox writable only in ``scratch``."""

    bwrap: str
    prlimit: str
    version: str
    #: The one writable directory: this run's vector roots.
    scratch: str
    limits: Limits = field(default_factory=Limits)
    #: Environment variables :func:`sandbox_run` pointed at ``scratch``, with the value each
    #: had before (``None``: unset); an adapter inheriting one gets the old value back.
    restored: Mapping[str, str | None] = field(default_factory=dict)
    #: The run's pids cgroup every sandboxed process starts in (``None``: none could be made).
    pids_cgroup: PidsCgroup | None = None
    #: Why there is no pids cgroup (empty when there is one).
    pids_cgroup_missing: str = ""

    def command(self, argv: Sequence[str], *, cwd: str | None = None) -> list[str]:
        """``argv`` started inside the sandbox, in ``cwd`` (default: the current directory).

        A leading ``unshare -n`` / ``unshare -r -n`` (the network probe's prefix) is dropped:
        the sandbox is an empty network namespace already, and leaves no capability to make
        another.
        """
        where = os.path.abspath(cwd or os.getcwd())
        argv = _without_unshare_net(argv)
        command = [
            self.bwrap,
            "--die-with-parent",
            *(f"--unshare-{name}" for name in SANDBOX_NAMESPACES if name != "mount"),
            "--cap-drop",
            "ALL",
            "--ro-bind",
            "/",
            "/",
            "--dev",
            "/dev",
            "--proc",
            "/proc",
            "--tmpfs",
            "/tmp",  # the sandbox's private /tmp
        ]
        # The private /tmp hides the host's: the working directory, the files the command line
        # names there (a script, its data) with the directory holding each file (a script's
        # own modules sit beside it: `node /tmp/project/adapter.js` requires ./src/...), and
        # the kit's own Python (its environment and its source, when a checkout or a CI clone
        # lives under /tmp) are bound back, read-only. A path inside one already bound is not
        # bound again (bwrap cannot mount onto a symlink inside a read-only bind: a venv's
        # bin/python is one).
        named = [word for word in argv if os.path.isabs(word)]
        shown = [
            where,
            sys.prefix,
            str(Path(__file__).resolve().parents[2]),
            *named,
            *(os.path.dirname(word) for word in named if os.path.isfile(word)),
        ]
        bound: list[str] = []
        for path in sorted({os.path.normpath(p) for p in shown}, key=len):  # outermost first
            if not (_under(path, "/tmp") and path != "/tmp" and os.path.exists(path)):
                continue
            if not any(_under(path, outer) for outer in bound):
                bound.append(path)
        for path in bound:
            command += ["--ro-bind", path, path]
        command += ["--bind", self.scratch, self.scratch, "--chdir", where]
        command += ["--unsetenv", ENV, "--", self.prlimit, *self.limits.prlimit_options(), "--"]
        command += list(argv)
        return self.pids_cgroup.wrap(command) if self.pids_cgroup is not None else command

    def processes(self) -> dict[str, Any]:
        """How its processes are limited (the report header's ``processes`` object)."""
        return process_limit(
            self.pids_cgroup, self.limits.processes, self.pids_cgroup_missing or None
        )

    def environment(self, env: Mapping[str, str] | None) -> dict[str, str]:
        """The environment an adapter starts with: ``env`` (default: this process's), with
        the variables the run pointed at the scratch directory as they were before."""
        out = dict(os.environ if env is None else env)
        for name, before in self.restored.items():
            if out.get(name) == self.scratch:
                if before is None:
                    out.pop(name)
                else:
                    out[name] = before
        out.pop(ENV, None)
        return out

    def to_json(self) -> dict[str, Any]:
        """What the report says about it (the same form :func:`active_sandbox` reads back)."""
        return {
            "bwrap": self.bwrap,
            "prlimit": self.prlimit,
            "version": self.version,
            "scratch": self.scratch,
            "limits": asdict(self.limits),
            "restored": dict(self.restored),
            "pids_cgroup": self.pids_cgroup.to_json() if self.pids_cgroup else None,
            "pids_cgroup_missing": self.pids_cgroup_missing,
        }


@dataclass(frozen=True)
class SandboxStatus:
    """Whether adapters run sandboxed (``sandbox``), asked for with ``mode``; ``reason`` says
    why not."""

    mode: SandboxMode | None
    sandbox: Sandbox | None = None
    reason: str | None = None

    @property
    def sandboxed(self) -> bool:
        """Whether adapters run in the sandbox."""
        return self.sandbox is not None

    def summary(self) -> str:
        """One line for the console and the reports."""
        box = self.sandbox
        if box is None:
            return f"none: {self.reason}"
        limits = box.limits
        return (
            f"{box.version}: own {', '.join(SANDBOX_NAMESPACES)} namespaces (no network; its "
            f"processes end with it); filesystem read-only except the run's vector roots and "
            f"a private /tmp; no capabilities; limits: address space "
            f"{_size(limits.address_space)}, files {_size(limits.file_size)}, CPU "
            f"{limits.cpu_seconds} s; processes: {box.processes()['summary']}"
        )

    def to_json(self) -> dict[str, Any]:
        """The report header's ``sandbox`` object."""
        box = self.sandbox
        return {
            "sandboxed": box is not None,
            "mode": self.mode,
            "summary": self.summary(),
            "tool": box.version if box else None,
            "namespaces": list(SANDBOX_NAMESPACES) if box else [],
            "writable": [box.scratch, "/tmp (private)"] if box else [],
            "limits": box.limits.to_json() if box else {},
            "processes": box.processes() if box else None,
            "reason": self.reason,
        }


#: Adapters made without a sandbox run (the Python API used directly).
NOT_REQUESTED = SandboxStatus(
    None, reason="not requested (the certify command line sandboxes with --sandbox auto)"
)
_active: SandboxStatus | None = None


def active_sandbox() -> SandboxStatus:
    """The sandbox of the run this process belongs to (:func:`sandbox_run`, or the
    ``$PHASE6_SANDBOX`` a worker process inherited)."""
    if _active is not None:
        return _active
    carried = os.environ.get(ENV)
    if not carried:
        return NOT_REQUESTED
    with contextlib.suppress(ValueError, TypeError, KeyError):
        data = json.loads(carried)
        box = data.get("sandbox")
        sandbox = None
        if box is not None:
            cgroup = box["pids_cgroup"]
            sandbox = Sandbox(
                bwrap=box["bwrap"],
                prlimit=box["prlimit"],
                version=box["version"],
                scratch=box["scratch"],
                limits=Limits(**box["limits"]),
                restored=box["restored"],
                pids_cgroup=PidsCgroup(**cgroup) if cgroup is not None else None,
                pids_cgroup_missing=box["pids_cgroup_missing"],
            )
        return SandboxStatus(data["mode"], sandbox, data["reason"])
    return NOT_REQUESTED


def _without_unshare_net(argv: Sequence[str]) -> list[str]:
    """``argv`` without a leading ``unshare -n`` or ``unshare -r -n``."""
    if argv and os.path.basename(argv[0]) == "unshare":
        for flags in (["-n"], ["-r", "-n"]):
            if list(argv[1 : 1 + len(flags)]) == flags and len(argv) > 1 + len(flags):
                return list(argv[1 + len(flags) :])
    return list(argv)


def _size(value: int) -> str:
    """``value`` bytes in GiB when whole, else in bytes."""
    return f"{value // _GIB} GiB" if value % _GIB == 0 else f"{value} bytes"


def _under(path: str, directory: str) -> bool:
    return path == directory or path.startswith(directory.rstrip("/") + "/")


def _find_sandbox(
    scratch: str, limits: Limits | None = None, cgroup: PidsCgroup | None = None
) -> tuple[Sandbox | None, str]:
    """A bubblewrap sandbox (under ``limits``, in ``cgroup``) that starts ``true`` here, or
    why there is none."""
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        return None, "bubblewrap is not installed (Debian package 'bubblewrap')"
    prlimit = shutil.which("prlimit")
    if prlimit is None:
        return None, "prlimit is not installed (Debian package 'util-linux')"
    true = shutil.which("true") or "/bin/true"
    try:
        done = subprocess.run(
            [bwrap, "--version"], capture_output=True, timeout=_PROBE_TIMEOUT, check=False
        )
        version = done.stdout.decode("utf-8", "replace").strip() or "bubblewrap"
        sandbox = Sandbox(
            bwrap, prlimit, version, scratch, limits=limits or Limits(), pids_cgroup=cgroup
        )
        done = subprocess.run(
            sandbox.command([true], cwd=scratch),
            capture_output=True,
            timeout=_PROBE_TIMEOUT,
            check=False,
            stdin=subprocess.DEVNULL,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return None, f"bubblewrap cannot start here: {exc}"
    if done.returncode != 0:
        said = done.stderr.decode("utf-8", "replace").strip().splitlines()
        detail = said[-1] if said else f"exit status {done.returncode}"
        return None, (
            f"bubblewrap cannot make the sandbox here ({detail[:300]}; it needs root or "
            "unprivileged user namespaces)"
        )
    return sandbox, ""


@contextlib.contextmanager
def sandbox_run(
    mode: SandboxMode,
    *,
    temp_parent: str | None = None,
    refused: str | None = None,
    limits: Limits | None = None,
) -> Iterator[SandboxStatus]:
    """Run the adapters started inside the ``with`` block sandboxed, as ``mode`` asks.

    Makes the run's scratch directory in ``temp_parent`` (default: the system temp directory)
    and points every kit temp directory of the block at it (``status.sandbox.scratch``; pass
    it as the run's ``temp_dir`` too); at the end restores them and removes the directory.
    ``refused`` is a reason this run cannot be sandboxed at all (nothing is tried). The caller
    decides what ``require`` without a sandbox means (``status.sandboxed`` is false, with the
    reason). ``limits`` are the sandbox's resource limits (default: :class:`Limits`).

    Where a pids cgroup can be made, the run's sandboxed processes start in one made for the
    run; at the end every task left in it is killed and it is removed.
    """
    global _active  # noqa: PLW0603 - the run's one setting, restored at the end
    if mode == "off":
        status = SandboxStatus(mode, reason="--sandbox off")
    elif refused is not None:
        status = SandboxStatus(mode, reason=refused)
    else:
        status = SandboxStatus(mode)
    scratch: str | None = None
    cgroup: PidsCgroup | None = None
    saved_env = {name: os.environ.get(name) for name in (ENV, "PHASE6_TMPDIR", "TMPDIR")}
    saved_tempdir = tempfile.tempdir
    saved_active = _active
    try:
        if status.reason is None:
            scratch = tempfile.mkdtemp(prefix="tmp", dir=temp_parent)
            limits = limits or Limits()
            cgroup, missing = make_pids_cgroup(limits.processes)
            sandbox, why = _find_sandbox(scratch, limits, cgroup)
            if sandbox is None:
                if cgroup is not None:
                    why += f" (in a pids cgroup with pids.max {cgroup.max})"
                status = SandboxStatus(mode, reason=why)
            else:
                restored = {name: saved_env[name] for name in ("PHASE6_TMPDIR", "TMPDIR")}
                sandbox = Sandbox(
                    sandbox.bwrap,
                    sandbox.prlimit,
                    sandbox.version,
                    scratch,
                    limits=limits,
                    restored=restored,
                    pids_cgroup=cgroup,
                    pids_cgroup_missing=missing,
                )
                status = SandboxStatus(mode, sandbox)
                os.environ["PHASE6_TMPDIR"] = os.environ["TMPDIR"] = scratch
                tempfile.tempdir = scratch
        os.environ[ENV] = json.dumps(
            {
                "mode": status.mode,
                "reason": status.reason,
                "sandbox": status.sandbox.to_json() if status.sandbox else None,
            }
        )
        _active = status
        yield status
    finally:
        _active = saved_active
        tempfile.tempdir = saved_tempdir
        for name, value in saved_env.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        if cgroup is not None and not cgroup.remove():
            sys.stderr.write(
                f"phase6: warning: the run's pids cgroup {cgroup.path} could not be removed "
                f"(tasks left: {_listed(cgroup)})\n"
            )
        if scratch is not None:
            _remove(Path(scratch))


def _listed(cgroup: PidsCgroup) -> str:
    """The tasks of ``cgroup``, for a message."""
    try:
        return ", ".join(map(str, cgroup.pids())) or "none"
    except OSError as exc:
        return f"unreadable: {exc.strerror or exc}"


def _remove(directory: Path) -> None:
    """Remove ``directory``, giving back the permissions an implementation took away."""
    with contextlib.suppress(OSError):
        os.chmod(directory, 0o700)
        for parent, names, _ in os.walk(directory):  # top-down: opened before descending
            for name in names:
                path = os.path.join(parent, name)
                if not os.path.islink(path):
                    os.chmod(path, 0o700)
    shutil.rmtree(directory, ignore_errors=True)
