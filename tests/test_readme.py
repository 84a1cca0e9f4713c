"""The README's examples run as printed, in a fresh shell, from a fresh clone (issue 23: "every
printed command works"). The set-up commands themselves are what ``.ci/run`` runs; the
``reproduce:``/``again:`` lines a certification prints are replayed by
``tests/conformance/cli/test_console.py::TestPrintedCommandsRun``."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from paths import REPO

#: The interpreter directory the README's examples name: the venv of ``nox -s certify``. The
#: tests run in the venv of ``nox -s tests``, which holds the same kit.
README_VENV = ".nox/certify/bin/"


def _block_after(heading: str) -> list[str]:
    """The commands of the first ``sh`` block after ``heading`` (comments dropped)."""
    text = (REPO / "README.md").read_text("utf-8")
    start = text.index(heading)
    block = re.search(r"^```sh\n(.*?)^```", text[start:], re.M | re.S)
    assert block is not None, f"no sh block after {heading!r}"
    commands = [line.split("  #", 1)[0].strip() for line in block.group(1).splitlines()]
    return [command for command in commands if command and not command.startswith("#")]


@pytest.fixture(scope="module")
def clone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh clone of this checkout's HEAD (skips, saying why, outside a git checkout)."""
    if shutil.which("git") is None or not (REPO / ".git").exists():
        pytest.skip("not a git checkout (or no git): there is no clone to start from")
    target = tmp_path_factory.mktemp("readme") / "phase6-kit"
    subprocess.run(
        ["git", "clone", "-q", str(REPO), str(target)], check=True, timeout=300,
        capture_output=True,
    )  # fmt: skip
    return target


def _in_a_fresh_shell(command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``command`` run by ``sh -c`` with nothing but PATH, HOME and LANG set."""
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": os.environ.get("HOME", "/"),
        "LANG": "C.UTF-8",
    }
    kit = str(Path(sys.executable).parent) + "/"
    return subprocess.run(
        ["sh", "-c", command.replace(README_VENV, kit)], cwd=cwd, env=env,
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip


#: README command -> the exit status it must end with (3: a selection is a partial run).
RUNNING_DIRECTLY = {
    ".nox/certify/bin/python -m conformance certify --select area:truncation": 3,
    ".nox/certify/bin/phase6 rerun hashing-h001": 0,
    ".nox/certify/bin/python -m reference adam_os_data/audit/request.json": 0,
}


def test_the_examples_are_the_ones_checked() -> None:
    """The "Running kit commands directly" block is exactly the commands checked below."""
    assert _block_after("### Running kit commands directly") == list(RUNNING_DIRECTLY)


@pytest.mark.parametrize("command", list(RUNNING_DIRECTLY))
def test_running_kit_commands_directly(clone: Path, command: str) -> None:
    """Each example of "Running kit commands directly" runs from the clone as printed, with
    the exit status its output promises, and leaves the clone's tracked files as they were."""
    done = _in_a_fresh_shell(command, clone)
    assert done.returncode == RUNNING_DIRECTLY[command], done.stdout[-2000:] + done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    status = subprocess.run(
        ["git", "status", "--porcelain"], cwd=clone, capture_output=True, text=True, check=True
    )
    assert status.stdout == ""


def test_store_check_example(clone: Path) -> None:
    """The store check example ("phase6 store check ... --json") runs on the sample store."""
    (command,) = [c for c in _block_after("## Store tooling (SPEC-005)") if c.startswith("phase6 ")]
    done = _in_a_fresh_shell(README_VENV + command, clone)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.lstrip().startswith("{")
