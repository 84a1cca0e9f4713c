"""The sandbox's process limit holds when the harness runs as root (issue 22): RLIMIT_NPROC
does not apply to uid 0, so every sandboxed process of a run starts in a pids cgroup made for
the run, which it cannot leave, and which is emptied and removed at the end.

The tests needing a pids cgroup skip, saying why, where none can be made (no pids controller
for this process's cgroup, or not writable: not root and nothing delegated) or where there is
no sandbox at all; ``.ci/run`` runs them as root.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
from harness_corpus import fake_spec
from hostile_support import gone, processes_with, synthetic

from conformance.adapters import (
    Limits,
    SandboxStatus,
    _pids,
    _sandbox,
    open_adapter,
    sandbox_run,
)
from conformance.cli import main
from conformance.probes._launch import adapter_pid

TRIGGER_ID = "beta-0-trigger"
#: The lowered limit of the tests: room for the sandbox's own three tasks (the ``bwrap``
#: started, its PID 1, the adapter) and a few children, far below the default 4096.
LOW = 32


def _why_no_pids_cgroup() -> str | None:
    """Why these tests cannot run here (``None``: a sandbox in a pids cgroup can be made)."""
    with sandbox_run("auto", limits=Limits(processes=LOW)) as status:
        if status.sandbox is None:
            return f"no sandbox on this machine: {status.reason}"
        if status.sandbox.pids_cgroup is None:
            return f"no pids cgroup can be made here: {status.sandbox.pids_cgroup_missing}"
        return None


WHY_NOT = _why_no_pids_cgroup()
needs_pids_cgroup = pytest.mark.skipif(WHY_NOT is not None, reason=str(WHY_NOT))


@pytest.fixture
def paths(tmp_path: Path) -> tuple[Path, Path]:
    """The synthetic corpus and its answer table."""
    return synthetic(tmp_path / "corpus")


@pytest.fixture
def made(monkeypatch: pytest.MonkeyPatch) -> list[_pids.PidsCgroup]:
    """The pids cgroups the runs of the test make (the real ones, recorded)."""
    made: list[_pids.PidsCgroup] = []
    real = _pids.make_pids_cgroup

    def recording(limit: int) -> tuple[_pids.PidsCgroup | None, str]:
        cgroup, why = real(limit)
        if cgroup is not None:
            made.append(cgroup)
        return cgroup, why

    monkeypatch.setattr(_sandbox, "make_pids_cgroup", recording)
    return made


def _one(made: list[_pids.PidsCgroup]) -> _pids.PidsCgroup:
    """The one cgroup a run made."""
    assert len(made) == 1, made
    return made[0]


@needs_pids_cgroup
class TestForkBomb:
    """A fork bomb under ``--sandbox-max-processes`` is stopped at the limit; the harness
    goes on, the cgroup is gone afterwards and nothing of the bomb is left running."""

    def test_stopped_at_the_limit(
        self, paths: tuple[Path, Path], tmp_path: Path, made: list[_pids.PidsCgroup]
    ) -> None:
        """The trigger vector errors with the refused fork (EAGAIN) after fewer children than
        the limit; every other vector passes; the header says the pids cgroup limited it."""
        token = f"phase6-bomb-{uuid.uuid4().hex}"
        report = tmp_path / "report"
        out = io.StringIO()
        code = main(
            [
                "certify", "--adapter", fake_spec("fork_bomb", paths[1], token),
                "--vectors", str(paths[0]), "--no-sections", "--jobs", "1", "--timeout", "30",
                "--quiet", "--sandbox", "require", "--sandbox-max-processes", str(LOW),
                "--report-dir", str(report),
            ],
            out,
        )  # fmt: skip
        assert code == 1, out.getvalue()
        document: dict[str, Any] = json.loads((report / "report.json").read_text("utf-8"))
        (trigger,) = [r for r in document["results"] if r["id"] == TRIGGER_ID]
        assert trigger["outcome"] == "errored", trigger
        message = trigger["error"]["message"]
        refused = re.search(
            r"fork refused after (\d+) children: BlockingIOError: \[Errno 11\]", message
        )
        assert refused, message
        # The sandbox's own three tasks (bwrap, its PID 1, the adapter) count too.
        assert 0 < int(refused.group(1)) <= LOW - 3
        others = [r for r in document["results"] if r["id"] != TRIGGER_ID]
        assert others
        assert all(r["outcome"] == "passed" for r in others)
        processes = document["header"]["sandbox"]["processes"]
        assert "pids cgroup" in processes["by"]
        assert processes["max"] == LOW
        assert processes["limited"] is True
        assert f"pids.max {LOW}" in document["header"]["sandbox"]["summary"]
        assert document["header"]["sandbox"]["limits"]["RLIMIT_NPROC"] == LOW
        cgroup = _one(made)
        assert cgroup.max == LOW
        assert not os.path.exists(cgroup.path)
        assert gone(token)


@needs_pids_cgroup
class TestTheCgroup:
    """The run's cgroup: the adapter starts in it, cannot leave it, and it is emptied and
    removed at the end of the run, an interrupted one included."""

    def test_adapter_starts_in_it(
        self, paths: tuple[Path, Path], made: list[_pids.PidsCgroup]
    ) -> None:
        """A started adapter's process is in the run's cgroup, whose pids.max is the limit,
        and the cgroup is removed when the run ends."""
        with sandbox_run("require", limits=Limits(processes=LOW)) as status:
            cgroup = _one(made)
            assert Path(cgroup.path).name.startswith("phase6-")
            assert (Path(cgroup.path) / "pids.max").read_text().strip() == str(LOW)
            adapter = open_adapter(fake_spec("correct", paths[1]))
            try:
                adapter.start()
                pid = adapter_pid(adapter)  # type: ignore[arg-type]
                assert pid is not None
                assert pid in cgroup.pids()
                current = int((Path(cgroup.path) / "pids.current").read_text())
                assert current >= 3  # bwrap, its PID 1, the adapter
                assert adapter.metadata()["sandbox"]["processes"]["max"] == LOW
            finally:
                adapter.close()
            assert status.sandbox is not None
        assert not os.path.exists(cgroup.path)

    def test_worker_processes_learn_it(self, made: list[_pids.PidsCgroup]) -> None:
        """A worker process (which reads the run's sandbox from $PHASE6_SANDBOX) starts its
        adapters in the same cgroup."""
        with sandbox_run("require", limits=Limits(processes=LOW)) as status:
            assert status.sandbox is not None
            saved, _sandbox._active = _sandbox._active, None  # as in a spawned worker
            try:
                carried = _sandbox.active_sandbox()
            finally:
                _sandbox._active = saved
            assert carried.sandbox is not None
            assert carried.sandbox.pids_cgroup == _one(made)
            assert carried.sandbox.command(["true"]) == status.sandbox.command(["true"])
            assert carried.to_json() == status.to_json()

    def test_cannot_leave_it(self, made: list[_pids.PidsCgroup]) -> None:
        """Inside the sandbox, writing to cgroup.procs (the run's cgroup's and its parent's),
        raising pids.max or making a cgroup all fail (read-only file system), and the
        process is still in the run's cgroup."""
        script = (
            "import json, os, sys\n"
            "own, parent = sys.argv[1], os.path.dirname(sys.argv[1])\n"
            "said = {}\n"
            "me = str(os.getpid())\n"
            "for name, path, text in [('parent procs', parent + '/cgroup.procs', me),\n"
            "        ('own procs', own + '/cgroup.procs', me),\n"
            "        ('pids.max', own + '/pids.max', 'max')]:\n"
            "    try:\n"
            "        with open(path, 'w') as handle: handle.write(text)\n"
            "        said[name] = 'written'\n"
            "    except OSError as exc: said[name] = os.strerror(exc.errno)\n"
            "try:\n"
            "    os.mkdir(parent + '/phase6-mine'); said['mkdir'] = 'made'\n"
            "except OSError as exc: said['mkdir'] = os.strerror(exc.errno)\n"
            "said['cgroup'] = open('/proc/self/cgroup').read()\n"
            "print(json.dumps(said))\n"
        )
        with sandbox_run("require", limits=Limits(processes=LOW)) as status:
            assert status.sandbox is not None
            cgroup = _one(made)
            argv = status.sandbox.command([sys.executable, "-c", script, cgroup.path])
            done = subprocess.run(argv, capture_output=True, text=True, timeout=120, check=False)
        assert done.returncode == 0, done.stderr
        said = json.loads(done.stdout)
        refused = os.strerror(30)  # EROFS: "Read-only file system"
        assert {said[k] for k in ("parent procs", "own procs", "pids.max", "mkdir")} == {refused}
        assert f"/{Path(cgroup.path).name}\n" in said["cgroup"]
        assert not os.path.exists(cgroup.path)

    def test_tasks_left_are_killed_on_interrupt(self, made: list[_pids.PidsCgroup]) -> None:
        """A run interrupted (Ctrl-C; SIGTERM under certify raises the same) with processes
        left in its cgroup, outside any PID namespace, detached: they are killed and the cgroup
        removed."""
        token = f"phase6-left-{uuid.uuid4().hex}"
        started: list[subprocess.Popen[bytes]] = []
        with pytest.raises(KeyboardInterrupt):
            _interrupted_run(made, token, started)
        cgroup = _one(made)
        assert started[0].wait(timeout=60) == -9  # SIGKILL
        assert not os.path.exists(cgroup.path)
        assert gone(token)


def _ancestors(pid: int) -> set[int]:
    """The process IDs above ``pid`` (``/proc/PID/status``; empty once it is gone)."""
    found: set[int] = set()
    while pid > 1:
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            return found
        pid = int(status.split("PPid:")[1].split()[0])
        found.add(pid)
    return found


def _cgroup_of_run(process: subprocess.Popen[bytes]) -> Path | None:
    """The ``phase6-*`` pids cgroup holding a descendant of ``process`` (other runs on the
    machine make theirs beside it)."""
    parent, _ = _pids._parent()
    for cgroup in Path(parent).glob("phase6-*"):
        try:
            pids = [int(word) for word in (cgroup / "cgroup.procs").read_text().split()]
        except OSError:
            continue
        if any(process.pid in _ancestors(pid) for pid in pids):
            return cgroup
    return None


def _interrupted_run(
    made: list[_pids.PidsCgroup], token: str, started: list[subprocess.Popen[bytes]]
) -> None:
    """A sandboxed run that leaves a process and its detached child (``token`` on their
    command lines) in its cgroup, then is interrupted."""
    script = "import os, time\nif os.fork() == 0: os.setsid()\ntime.sleep(600)\n"
    with sandbox_run("require", limits=Limits(processes=LOW)) as status:
        assert status.sandbox is not None
        cgroup = _one(made)
        argv = cgroup.wrap([sys.executable, "-c", script, token])
        started.append(subprocess.Popen(argv, stdin=subprocess.DEVNULL))
        deadline = time.monotonic() + 60
        while len(cgroup.pids()) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(cgroup.pids()) == 2
        raise KeyboardInterrupt


@needs_pids_cgroup
class TestSigterm:
    """SIGTERM mid-certify (a CI job cancelled) ends the run through the interruption path:
    the run's pids cgroup is emptied and removed."""

    def test_sigterm_removes_the_cgroup(self, paths: tuple[Path, Path], tmp_path: Path) -> None:
        """``certify`` of an adapter that hangs, under --sandbox require, is sent SIGTERM once
        its adapter is in the run's cgroup and has a request: exit 2, the cgroup gone, no
        adapter left."""
        token = f"phase6-hang-{uuid.uuid4().hex}"
        temp = tmp_path / "temp"
        temp.mkdir()
        argv = [
            sys.executable, "-m", "conformance", "certify",
            "--adapter", fake_spec("always_hangs", paths[1], token),
            "--vectors", str(paths[0]), "--report-dir", str(tmp_path / "report"),
            "--temp-dir", str(temp),
            "--no-sections", "-q", "-j", "1", "--timeout", "600", "--sandbox", "require",
            "--sandbox-max-processes", str(LOW),
        ]  # fmt: skip
        process = subprocess.Popen(argv, start_new_session=True, cwd=tmp_path)
        try:
            cgroup = None
            deadline = time.monotonic() + 120
            while (cgroup is None or not any(temp.rglob("*/*/*"))) and time.monotonic() < deadline:
                time.sleep(0.1)  # a vector root exists: the run is under way
                cgroup = cgroup or _cgroup_of_run(process)
            assert cgroup is not None
            assert processes_with(token)
            assert (cgroup / "pids.max").read_text().strip() == str(LOW)
            process.send_signal(signal.SIGTERM)
            code = process.wait(timeout=120)
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
        assert code == 2
        assert not cgroup.exists()
        assert gone(token)


class TestHeader:
    """The report header says how processes are limited, or that they are not and why."""

    def test_root_without_a_pids_cgroup_is_not_limited(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """As root without a pids cgroup: not limited, saying RLIMIT_NPROC does not apply to
        root and why there is no cgroup."""
        monkeypatch.setattr(os, "geteuid", lambda: 0)
        said = _pids.process_limit(None, 4096, "no pids here")
        assert said == {
            "limited": False,
            "by": [],
            "max": None,
            "cgroup_version": None,
            "summary": "not limited: running as root (the kernel does not apply RLIMIT_NPROC "
            "to uid 0) and no pids cgroup: no pids here",
            "reason": "running as root (the kernel does not apply RLIMIT_NPROC to uid 0) and "
            "no pids cgroup: no pids here",
        }

    @pytest.mark.parametrize(
        ("uid", "cgroup", "by", "summary"),
        [
            (1000, None, ["RLIMIT_NPROC"], "RLIMIT_NPROC 64 (the user's processes)"),
            (0, _pids.PidsCgroup("/cg/phase6-x", 2, 64), ["pids cgroup"],
             "pids cgroup v2, pids.max 64 (the run's tasks)"),
            (1000, _pids.PidsCgroup("/cg/phase6-x", 1, 64), ["RLIMIT_NPROC", "pids cgroup"],
             "RLIMIT_NPROC 64 (the user's processes), pids cgroup v1, pids.max 64 (the run's "
             "tasks)"),
        ],
    )  # fmt: skip
    def test_limited_by(
        self,
        monkeypatch: pytest.MonkeyPatch,
        uid: int,
        cgroup: _pids.PidsCgroup | None,
        by: list[str],
        summary: str,
    ) -> None:
        """RLIMIT_NPROC limits a harness that is not root, the pids cgroup wherever there is
        one; the header names each, with the limit."""
        monkeypatch.setattr(os, "geteuid", lambda: uid)
        said = _pids.process_limit(cgroup, 64, None if cgroup else "none")
        assert (said["limited"], said["by"], said["max"], said["summary"]) == (
            True,
            by,
            64,
            summary,
        )
        assert said["reason"] is None

    def test_unsandboxed_header_has_no_process_limit(self) -> None:
        """Without a sandbox the header's processes object is null (the reason says why)."""
        status = SandboxStatus("off", reason="--sandbox off")
        assert status.to_json()["processes"] is None

    def test_sandbox_without_a_pids_cgroup_says_why(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """Where no pids cgroup can be made the run is still sandboxed, runs nothing in a
        cgroup, and its header says why processes are (or are not) limited."""
        monkeypatch.setattr(_sandbox, "make_pids_cgroup", lambda limit: (None, "no pids here"))
        with sandbox_run("auto") as status:
            if status.sandbox is None:
                pytest.skip(f"no sandbox on this machine: {status.reason}")
            header = status.to_json()
            command = status.sandbox.command(["true"])
        assert Path(command[0]).name == "bwrap"
        processes = header["processes"]
        if os.geteuid() == 0:
            assert processes["limited"] is False
            assert processes["summary"].endswith("no pids cgroup: no pids here")
        else:
            assert processes["by"] == ["RLIMIT_NPROC"]

    @pytest.mark.parametrize("value", ["2", "0", "-1", "5000000"])
    def test_max_processes_out_of_range_is_a_usage_error(
        self, value: str, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """--sandbox-max-processes below 8 (the sandbox's own tasks and some room) or above
        2^22 (the kernel's pid_max ceiling) is a usage error (exit 2)."""
        code = main(["certify", "--sandbox-max-processes", value, "--no-report"], io.StringIO())
        assert code == 2
        assert "--sandbox-max-processes" in capsys.readouterr().err

    def test_limits_refuse_non_positive_values(self) -> None:
        """A Limits field that is not a positive integer is refused, naming it."""
        with pytest.raises(ValueError, match=r"Limits.processes must be a positive integer"):
            Limits(processes=0)


class TestWhereTheCgroupIsMade:
    """The parent of the run's cgroup, from ``/proc/self/mountinfo`` and ``/proc/self/cgroup``
    texts: cgroup v2 where ``pids`` is delegated, else the v1 pids hierarchy, else none and
    why (so a machine other than this one falls back cleanly)."""

    V2 = "41 31 0:38 / {point} rw,relatime - cgroup2 cgroup2 rw\n"
    V1 = "39 31 0:36 {root} {point} rw,relatime - cgroup cgroup rw,pids\n"

    def _v2(self, tmp_path: Path, controllers: str, inside: str = "") -> str:
        """A cgroup v2 mount point whose cgroup ``inside`` delegates ``controllers``."""
        where = tmp_path / "unified" / inside
        where.mkdir(parents=True, exist_ok=True)
        (where / "cgroup.subtree_control").write_text(controllers + "\n")
        return str(tmp_path / "unified")

    def _v1(self, tmp_path: Path, inside: str = "") -> str:
        """A cgroup v1 pids mount point with the cgroup ``inside``."""
        where = tmp_path / "pids" / inside
        where.mkdir(parents=True, exist_ok=True)
        (where / "cgroup.procs").write_text("")
        return str(tmp_path / "pids")

    def test_v2_with_pids_delegated(self, tmp_path: Path) -> None:
        """cgroup v2 with pids in this process's cgroup's subtree_control: made there."""
        point = self._v2(tmp_path, "cpu pids", "user/app")
        mountinfo = self.V2.format(point=point) + self.V1.format(root="/", point="/nowhere")
        assert _pids.parent_in(mountinfo, "0::/user/app\n") == (f"{point}/user/app", 2)

    def test_v2_without_pids_falls_back_to_v1(self, tmp_path: Path) -> None:
        """cgroup v2 without pids delegated, and a v1 pids hierarchy: made in v1, under this
        process's cgroup there."""
        v2 = self._v2(tmp_path, "cpu memory")
        v1 = self._v1(tmp_path, "ci")
        mountinfo = self.V2.format(point=v2) + self.V1.format(root="/", point=v1)
        own = "9:name=systemd:/\n8:pids:/ci\n0::/\n"
        assert _pids.parent_in(mountinfo, own) == (f"{v1}/ci", 1)

    def test_v1_in_a_cgroup_namespace(self, tmp_path: Path) -> None:
        """A v1 mount whose root is a cgroup (a cgroup namespace, a container): this
        process's path is read relative to it."""
        v1 = self._v1(tmp_path, "job")
        mountinfo = self.V1.format(root="/docker/abc", point=v1)
        assert _pids.parent_in(mountinfo, "8:pids:/docker/abc/job\n") == (f"{v1}/job", 1)

    @pytest.mark.parametrize(
        ("with_v2", "why"),
        [
            (True, "the pids controller is not enabled for this process's cgroup v2 subtree "
             "(cgroup.subtree_control) and there is no cgroup v1 pids hierarchy"),
            (False, "no cgroup file system with the pids controller is mounted"),
        ],
    )  # fmt: skip
    def test_none_says_why(self, tmp_path: Path, with_v2: bool, why: str) -> None:
        """Without pids delegated in v2 and without a v1 pids hierarchy: none, and why."""
        mountinfo = self.V2.format(point=self._v2(tmp_path, "cpu")) if with_v2 else ""
        with pytest.raises(_pids.CgroupUnavailable) as raised:
            _pids.parent_in(mountinfo, "0::/\n")
        assert str(raised.value) == why

    def test_a_parent_that_cannot_be_written_is_no_cgroup(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """A parent where no cgroup can be made (here: it does not exist; read-only in a
        container): no cgroup, saying where and why."""
        missing = str(tmp_path / "gone")
        monkeypatch.setattr(_pids, "_parent", lambda: (missing, 2))
        cgroup, why = _pids.make_pids_cgroup(LOW)
        assert cgroup is None
        assert why == f"cannot make a cgroup in {missing} (No such file or directory)"
