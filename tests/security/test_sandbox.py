"""The adapter sandbox (issue 22, ``certify --sandbox auto|require|off``): the reference is
compliant inside it, and an adapter that opens a socket, writes outside its root or leaves a
daemon behind is stopped, with the report saying why.

The tests needing bubblewrap skip, saying why, only where it cannot run (no ``bwrap``, or no
root and no unprivileged user namespaces); ``.ci/run`` installs it.
"""

from __future__ import annotations

import io
import json
import os
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from harness_corpus import fake_spec
from hostile_support import processes_with, synthetic, tree
from paths import REPO

from conformance.adapters import sandbox_run
from conformance.cli import main

TRIGGER_ID = "beta-0-trigger"


def _sandbox_here() -> str | None:
    """Why no sandbox can be made on this machine (``None``: it can)."""
    with sandbox_run("auto") as status:
        return status.reason


WHY_NOT = _sandbox_here()
needs_sandbox = pytest.mark.skipif(
    WHY_NOT is not None, reason=f"no sandbox on this machine: {WHY_NOT}"
)


def _certify(*argv: str) -> tuple[int, str]:
    """Exit code and console output of ``phase6 certify ARGV``."""
    out = io.StringIO()
    code = main(["certify", *argv], out)
    return code, out.getvalue()


def _report(directory: Path) -> dict[str, Any]:
    document: dict[str, Any] = json.loads((directory / "report.json").read_text("utf-8"))
    return document


@pytest.fixture
def paths(tmp_path: Path) -> tuple[Path, Path]:
    """The synthetic corpus and its answer table."""
    return synthetic(tmp_path / "corpus")


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A directory of the test, outside every directory of the kit: nothing may appear in it."""
    directory = tmp_path / "outside"
    directory.mkdir()
    return directory


@pytest.fixture
def listener() -> Iterator[tuple[int, list[bytes]]]:
    """A TCP listener on 127.0.0.1: (its port, what each connection sent)."""
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(0.2)
    received: list[bytes] = []
    done = threading.Event()

    def accept() -> None:
        while not done.is_set():
            try:
                connection, _ = server.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            with connection:
                connection.settimeout(2)
                try:
                    received.append(connection.recv(1024))
                except OSError:
                    received.append(b"")

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield server.getsockname()[1], received
    done.set()
    thread.join(5)
    server.close()


def _escape_run(
    paths: tuple[Path, Path], tmp_path: Path, mode: str, *args: str, sandbox: str = "require"
) -> tuple[int, str, dict[str, Any]]:
    """``certify --sandbox SANDBOX`` of the escaping fake (vectors only): code, console, report."""
    report = tmp_path / "report"
    code, console = _certify(
        "--adapter",
        fake_spec("sandbox_escape", paths[1], mode, *args),
        "--vectors",
        str(paths[0]),
        "--no-sections",
        "--jobs",
        "1",
        "--timeout",
        "10",
        "--quiet",
        "--sandbox",
        sandbox,
        "--report-dir",
        str(report),
    )
    return code, console, _report(report)


def _without_cgroup_entry(command: list[str]) -> list[str]:
    """``command`` without the leading ``/bin/sh -c ... cgroup.procs`` that places it in the
    run's pids cgroup (where there is one)."""
    if command[0] == "/bin/sh" and command[3] == "phase6-pids-cgroup":
        return command[5:]
    return command


def _trigger_error(document: dict[str, Any]) -> str:
    """The error message of the trigger vector (it must have errored)."""
    (trigger,) = [r for r in document["results"] if r["id"] == TRIGGER_ID]
    assert trigger["outcome"] == "errored", trigger
    message: str = trigger["error"]["message"]
    return message


def _only_kit_files(tmp_path: Path) -> None:
    """Nothing but the corpus and the report under the test's directory (``outside`` empty)."""
    assert tree(tmp_path / "outside") == set()
    assert {entry.name for entry in tmp_path.iterdir()} == {"corpus", "outside", "report"}


@needs_sandbox
class TestReferenceInTheSandbox:
    """The bundled reference (``python -m reference serve``) certifies under --sandbox require."""

    def test_selection_passes_sandboxed(self, tmp_path: Path) -> None:
        """A --select subset passes (exit 3: partial), and report.json, report.md,
        report.html and the console say the run was sandboxed, and how."""
        report = tmp_path / "report"
        code, console = _certify(
            "--sandbox", "require", "--select", "area:recency", "--no-sections", "--jobs", "2",
            "--quiet", "--report-dir", str(report),
        )  # fmt: skip
        assert code == 3, console
        sandbox = _report(report)["header"]["sandbox"]
        assert sandbox["sandboxed"] is True
        assert sandbox["mode"] == "require"
        assert sandbox["namespaces"] == ["pid", "net", "ipc", "mount"]
        assert set(sandbox["limits"]) == {"RLIMIT_AS", "RLIMIT_NPROC", "RLIMIT_FSIZE", "RLIMIT_CPU"}
        # How processes are limited: RLIMIT_NPROC unless root, the pids cgroup where there is
        # one (tests/security/test_sandbox_pids.py), or "not limited" and why.
        processes = sandbox["processes"]
        assert processes["limited"] is bool(processes["by"])
        assert processes["summary"] in sandbox["summary"]
        assert (os.geteuid() != 0) is ("RLIMIT_NPROC" in processes["by"])
        assert sandbox["tool"].startswith("bubblewrap")
        assert not os.path.exists(sandbox["writable"][0])  # the run's scratch directory is gone
        assert "sandbox: bubblewrap" in console
        assert "| Sandbox | sandboxed (require): bubblewrap" in (report / "report.md").read_text()
        assert "<td>Sandbox</td><td>sandboxed (require)" in (report / "report.html").read_text()

    def test_python_worker_is_sandboxed(self, tmp_path: Path) -> None:
        """A python: adapter's worker process runs in the sandbox too, and passes."""
        report = tmp_path / "report"
        code, console = _certify(
            "--adapter", "python:reference:memory_read", "--sandbox", "require", "--select",
            "area:recency", "--no-sections", "--jobs", "1", "--quiet", "--report-dir", str(report),
        )  # fmt: skip
        assert code == 3, console
        document = _report(report)
        assert document["header"]["sandbox"]["sandboxed"] is True
        assert document["footer"]["totals"]["passed"] == document["footer"]["totals"]["total"]

    @pytest.mark.slow
    def test_full_certification_is_compliant(self, tmp_path: Path) -> None:
        """The published corpus with every section under --sandbox require: compliant (or
        every section skipped on this machine's missing probe tools said so), sandboxed."""
        report = tmp_path / "report"
        code, console = _certify("--sandbox", "require", "--quiet", "--report-dir", str(report))
        document = _report(report)
        assert document["header"]["sandbox"]["sandboxed"] is True
        assert document["footer"]["totals"]["failed"] == 0
        assert document["footer"]["totals"]["errored"] == 0
        assert code == 0, console


@needs_sandbox
class TestEscapesAreStopped:
    """An adapter trying to leave the sandbox is stopped; the report says why; nothing is
    written outside the kit's directories."""

    def test_socket_to_a_local_listener(
        self,
        paths: tuple[Path, Path],
        tmp_path: Path,
        outside: Path,
        listener: tuple[int, list[bytes]],
    ) -> None:
        """A connection to 127.0.0.1 (a listener of the test) is refused inside the empty
        network namespace: the listener hears nothing, the vector errors with the refusal."""
        port, received = listener
        code, console, document = _escape_run(paths, tmp_path, "connect", str(port))
        assert code == 1, console
        assert "escape by connect stopped" in _trigger_error(document)
        assert "Connection refused" in _trigger_error(document)
        time.sleep(0.5)
        assert received == []
        assert "escape by connect stopped" in (tmp_path / "report" / "report.md").read_text()
        _only_kit_files(tmp_path)

    def test_write_outside_the_root(
        self, paths: tuple[Path, Path], tmp_path: Path, outside: Path
    ) -> None:
        """A file written into a directory of the test fails (read-only file system): the
        vector errors saying so and the file never appears."""
        target = outside / "PWNED.txt"
        code, console, document = _escape_run(paths, tmp_path, "write", str(outside))
        assert code == 1, console
        assert "Read-only file system" in _trigger_error(document)
        assert not target.exists()
        _only_kit_files(tmp_path)

    def test_detached_daemon_dies_with_the_adapter(
        self, paths: tuple[Path, Path], tmp_path: Path, outside: Path
    ) -> None:
        """A daemon (setsid, stdio closed) started by the adapter is dead when the run ends
        (the PID namespace ends with the adapter) and never writes its marker."""
        token = f"phase6-daemon-{uuid.uuid4().hex}"
        marker = outside / "daemon.txt"
        code, console, document = _escape_run(paths, tmp_path, "daemon", str(marker), token)
        assert document["header"]["sandbox"]["sandboxed"] is True
        assert "pid" in document["header"]["sandbox"]["namespaces"]
        assert code in {0, 3}, console  # the daemon leaves the answers alone
        assert processes_with(token) == []
        time.sleep(3)  # past the daemon's two seconds
        assert not marker.exists()
        _only_kit_files(tmp_path)

    def test_without_the_sandbox_the_daemon_lives_on(
        self, paths: tuple[Path, Path], tmp_path: Path, outside: Path
    ) -> None:
        """The control: under --sandbox off the same daemon outlives the run and writes its
        marker (the attack is real; only the sandbox stops it)."""
        token = f"phase6-daemon-{uuid.uuid4().hex}"
        marker = outside / "daemon.txt"
        _, _, document = _escape_run(paths, tmp_path, "daemon", str(marker), token, sandbox="off")
        assert document["header"]["sandbox"] == {
            "sandboxed": False,
            "mode": "off",
            "summary": "none: --sandbox off",
            "tool": None,
            "namespaces": [],
            "writable": [],
            "limits": {},
            "processes": None,
            "reason": "--sandbox off",
        }
        # The daemon writes its marker whole (a renamed sibling) two seconds after it starts;
        # a loaded machine may delay its interpreter's start, so the wait is generous.
        deadline = time.monotonic() + 60
        while not marker.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert marker.read_text() == "the daemon lived on"


class TestModes:
    """``--sandbox`` says what it did, and ``require`` refuses to run without a sandbox."""

    @pytest.fixture
    def no_bwrap(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        """A PATH without bubblewrap (the adapters are named by absolute paths)."""
        empty = tmp_path / "bin"
        empty.mkdir()
        monkeypatch.setenv("PATH", str(empty))

    @pytest.mark.usefixtures("no_bwrap")
    def test_require_without_a_sandbox_is_a_usage_error(
        self, paths: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """--sandbox require where no sandbox can be made: exit 2 before anything runs, with
        the reason, and no report."""
        report = tmp_path / "report"
        code, _ = _certify(
            "--adapter", fake_spec("correct", paths[1]), "--vectors", str(paths[0]),
            "--no-sections", "--sandbox", "require", "--report-dir", str(report),
        )  # fmt: skip
        assert code == 2
        error = capsys.readouterr().err
        assert "--sandbox require: no sandbox can be made" in error
        assert "bubblewrap is not installed" in error
        assert not (report / "report.json").exists()

    @pytest.mark.usefixtures("no_bwrap")
    def test_auto_without_a_sandbox_runs_and_says_why(
        self, paths: tuple[Path, Path], tmp_path: Path
    ) -> None:
        """--sandbox auto (the default) where no sandbox can be made runs unsandboxed, and the
        report and the console say why."""
        report = tmp_path / "report"
        code, console = _certify(
            "--adapter", fake_spec("correct", paths[1]), "--vectors", str(paths[0]),
            "--no-sections", "--jobs", "1", "--quiet", "--report-dir", str(report),
        )  # fmt: skip
        assert code == 3, console
        sandbox = _report(report)["header"]["sandbox"]
        assert sandbox["sandboxed"] is False
        assert sandbox["mode"] == "auto"
        assert "bubblewrap is not installed" in sandbox["reason"]
        assert "sandbox: none: bubblewrap is not installed" in console
        assert "not sandboxed (auto): bubblewrap" in (report / "report.md").read_text()

    def test_phase2_profile_is_not_sandboxed(self) -> None:
        """--profile phase2-context with --sandbox require is a usage error naming the
        profile (its engine and service are not sandboxed)."""
        code, _ = _certify("--profile", "phase2-context", "--sandbox", "require", "--no-report")
        assert code == 2

    def test_the_python_api_says_not_requested(self, paths: tuple[Path, Path]) -> None:
        """Adapters made outside a sandboxed run (the Python API) say they were not
        sandboxed, and that nobody asked."""
        from conformance.adapters import open_adapter

        adapter = open_adapter(fake_spec("correct", paths[1]))
        sandbox = adapter.metadata()["sandbox"]
        assert sandbox["sandboxed"] is False
        assert sandbox["mode"] is None
        assert "not requested" in sandbox["reason"]
        assert sys.executable in adapter.spec


class TestOtherCommands:
    """``smoke``, ``rerun`` and ``audit verify --adapter`` started the adapter unsandboxed: a
    stranger's code ran with the user's rights there, whatever certify did."""

    @needs_sandbox
    def test_audit_verify_replays_the_reference_in_the_sandbox(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """``audit verify`` without ``--adapter`` replays the bundled reference on stores
        someone else wrote: under ``--sandbox require`` that replay starts under bubblewrap,
        and the sample record still verifies."""
        import subprocess

        started: list[list[str]] = []
        real_run = subprocess.run

        def recording_run(command: list[str], **options: Any) -> Any:
            started.append(list(command))
            return real_run(command, **options)

        monkeypatch.setattr(subprocess, "run", recording_run)
        monkeypatch.chdir(REPO)
        out = io.StringIO()
        code = main(
            ["audit", "verify", "adam_os_data/audit/record.json", "--sandbox", "require"], out
        )
        assert code == 0, out.getvalue()
        assert out.getvalue().startswith("sandbox: bubblewrap")
        replays = [command for command in started if "--audit-out" in command]
        assert replays
        # bwrap first, or after the shell that places it in the run's pids cgroup.
        assert all(Path(_without_cgroup_entry(command)[0]).name == "bwrap" for command in replays)

    @needs_sandbox
    @pytest.mark.parametrize("command", ["smoke", "rerun"])
    def test_write_outside_is_stopped(
        self, paths: tuple[Path, Path], outside: Path, command: str
    ) -> None:
        """Under ``--sandbox require`` the adapter's write outside its root fails and the
        command says it was sandboxed; with ``--sandbox off`` (the control) the file appears."""
        spec = fake_spec("sandbox_escape", paths[1], "write", str(outside))
        which = ["--count", "100"] if command == "smoke" else ["beta-0-trigger"]
        for mode in ("require", "off"):
            out = io.StringIO()
            argv = [command, *which, "--adapter", spec, "--vectors", str(paths[0])]
            code = main([*argv, "--sandbox", mode], out)
            assert code == 1 if mode == "require" else code in (0, 1), out.getvalue()
            written = (outside / "PWNED.txt").exists()
            assert written is (mode == "off"), out.getvalue()
            shown = "bubblewrap" if mode == "require" else "none"
            assert out.getvalue().startswith(f"sandbox: {shown}")

    def test_require_without_a_sandbox_is_a_usage_error(
        self,
        paths: tuple[Path, Path],
        monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str],
    ) -> None:
        """``--sandbox require`` where none can be made: exit 2 before the adapter starts
        (smoke, rerun, and audit verify with --adapter)."""
        from conformance.adapters import _sandbox

        monkeypatch.setattr(_sandbox, "_find_sandbox", lambda *_: (None, "no bwrap here"))
        spec = fake_spec("correct", paths[1])
        vectors = str(paths[0])
        for argv in (
            ["smoke", "--adapter", spec, "--vectors", vectors],
            ["rerun", "beta-0-trigger", "--adapter", spec, "--vectors", vectors],
            ["audit", "verify", str(paths[1]), "--adapter", spec],
        ):
            assert main([*argv, "--sandbox", "require"], io.StringIO()) == 2, argv
            assert "--sandbox require: no sandbox can be made: no bwrap here" in (
                capsys.readouterr().err
            )


@needs_sandbox
class TestCheckoutUnderTmp:
    """A checkout (and its venv) under /tmp, as a CI clone may be: the private /tmp must not hide
    it, and a venv's ``bin/python`` symlink inside the bound checkout is not bound again."""

    def test_symlinked_python_inside_the_working_directory(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """``CHECKOUT/.venv/bin/python -c ...`` starts in the sandbox, run from CHECKOUT."""
        checkout = tmp_path / "clone"
        (checkout / ".venv" / "bin").mkdir(parents=True)
        python = checkout / ".venv" / "bin" / "python"
        python.symlink_to(os.path.realpath(sys.executable))
        monkeypatch.chdir(checkout)
        with sandbox_run("require") as status:
            assert status.sandbox is not None, status.reason
            argv = status.sandbox.command([str(python), "-c", "print('inside')"], cwd=str(checkout))
            binds = [argv[i + 1] for i, word in enumerate(argv) if word == "--ro-bind"]
            assert str(python) not in binds  # inside the bound checkout already
            done = subprocess.run(argv, capture_output=True, text=True, timeout=60, check=False)
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == "inside"

    def test_script_under_tmp_finds_its_own_modules(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """A script named by its absolute path in another directory under /tmp (``node
        /tmp/project/adapter.js``) sees the directory it sits in: its own modules beside it
        load; a sibling directory of that project stays hidden."""
        project, other = tmp_path / "project", tmp_path / "elsewhere"
        (project / "src").mkdir(parents=True)
        other.mkdir()
        (project / "src" / "helper.py").write_text("WORD = 'beside'\n", "utf-8")
        script = project / "adapter.py"
        script.write_text(
            "import os, sys\n"
            "sys.path.insert(0, os.path.join(os.path.dirname(__file__), 'src'))\n"
            "import helper\n"
            f"print(helper.WORD, os.path.exists({str(tmp_path / 'secret')!r}))\n",
            "utf-8",
        )
        (tmp_path / "secret").write_text("not for the adapter", "utf-8")
        monkeypatch.chdir(other)
        with sandbox_run("require") as status:
            assert status.sandbox is not None, status.reason
            argv = status.sandbox.command([sys.executable, str(script)], cwd=str(other))
            done = subprocess.run(argv, capture_output=True, text=True, timeout=60, check=False)
        assert done.returncode == 0, done.stderr
        assert done.stdout.split() == ["beside", "False"]
