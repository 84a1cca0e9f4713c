"""The adapter skeleton (conformance/examples/skeleton/adapter.py) and the CI recipes that run
`phase6 certify` (conformance/ci/): the skeleton, wrapped around the reference's
``memory_read``, passes what the reference passes; the recipes call options certify has."""

from __future__ import annotations

import importlib.util
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from paths import REPO

SKELETON = REPO / "conformance" / "examples" / "skeleton" / "adapter.py"
RECIPES = (
    REPO / "conformance" / "ci" / "github-action" / "action.yml",
    REPO / "conformance" / "ci" / "gitlab" / "phase6.gitlab-ci.yml",
)
#: The skeleton wrapped around the reference, as an implementer would wire their own function.
ADAPTER = f"cmd:{sys.executable} {SKELETON} reference:memory_read"


def _skeleton() -> ModuleType:
    """The skeleton imported as a module (it is a script, not part of a package)."""
    spec = importlib.util.spec_from_file_location("phase6_skeleton_adapter", SKELETON)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _converse(function: Any, *messages: dict[str, Any]) -> tuple[int, list[dict[str, Any]]]:
    """Feed ``messages`` to the skeleton's ``serve`` around ``function``; status and replies."""
    stdin = io.BytesIO(b"".join(json.dumps(m).encode() + b"\n" for m in messages))
    stdout = io.BytesIO()
    status = _skeleton().serve(function, stdin, stdout)
    return status, [json.loads(line) for line in stdout.getvalue().splitlines()]


def _kit(*argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """`python -m conformance ARGV` with the checkout importable (the reference is the user's)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PHASE6_")}
    env["PYTHONPATH"] = str(REPO)
    return subprocess.run(
        [sys.executable, "-m", "conformance", *argv],
        cwd=cwd, env=env, capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip


class TestSkeletonProtocol:
    """The skeleton's side of phase6-adapter/1, message by message."""

    def test_handshake_run_stop(self, tmp_path: Path) -> None:
        """start is answered with the implementation and memory.read; run runs in the vector
        root and echoes seq; stop is acknowledged and ends the loop with status 0."""
        seen: list[str] = []

        def memory_read(request: dict[str, Any]) -> dict[str, Any]:
            seen.append(os.getcwd())
            return {"error": {"code": "invalid_request", "echo": request["query"]}}

        status, replies = _converse(
            memory_read,
            {"cmd": "start", "protocol": "phase6-adapter/1"},
            {"cmd": "run", "seq": 7, "root": str(tmp_path), "request": {"query": "q"}},
            {"cmd": "stop"},
        )
        assert status == 0
        assert replies[0]["ok"] is True
        assert replies[0]["capabilities"] == ["memory.read"]
        assert replies[0]["implementation"]["contract"] == "phase6-v1"
        assert replies[1] == {
            "seq": 7,
            "result": {"error": {"code": "invalid_request", "echo": "q"}},
        }
        assert replies[2] == {"ok": True}
        assert seen == [str(tmp_path)]

    def test_exception_is_an_internal_error(self, tmp_path: Path) -> None:
        """An exception of the wrapped function becomes internal_error and the loop goes on."""

        def memory_read(request: dict[str, Any]) -> dict[str, Any]:
            raise KeyError("query")

        run = {"cmd": "run", "seq": 1, "root": str(tmp_path), "request": {}}
        status, replies = _converse(memory_read, run, {**run, "seq": 2}, {"cmd": "stop"})
        assert status == 0
        assert [r["seq"] for r in replies[:2]] == [1, 2]
        assert replies[0]["internal_error"]["message"] == "KeyError: 'query'"
        assert "Traceback" in replies[0]["internal_error"]["traceback"]

    def test_unjsonable_result_is_an_internal_error(self, tmp_path: Path) -> None:
        """A result JSON cannot carry (NaN) is an internal error, not a broken protocol line."""
        run = {"cmd": "run", "seq": 3, "root": str(tmp_path), "request": {}}
        _, replies = _converse(lambda request: {"score": float("nan")}, run)
        assert replies[0]["seq"] == 3
        assert "internal_error" in replies[0]

    def test_other_protocol_is_refused(self) -> None:
        """A protocol the skeleton does not speak is refused with ok false and exit status 1."""
        status, replies = _converse(lambda request: {}, {"cmd": "start", "protocol": "other/9"})
        assert status == 1
        assert replies[0]["ok"] is False


class TestSkeletonCertified:
    """The skeleton around the reference, through the kit's own command line."""

    def test_smoke(self, tmp_path: Path) -> None:
        """`smoke` finds the handshake and a few vectors passing."""
        done = _kit("smoke", "--adapter", ADAPTER, cwd=tmp_path)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "smoke ok" in done.stdout

    @pytest.mark.slow
    def test_certify_selection(self, tmp_path: Path) -> None:
        """A certify selection passes every vector (exit 3: a partial run, nothing failed)."""
        done = _kit(
            "certify", "--adapter", ADAPTER, "--select", "area:package", "--select", "area:errors",
            "--no-sections", "-q", "--report-dir", str(tmp_path / "report"),
            cwd=tmp_path,
        )  # fmt: skip
        assert done.returncode == 3, done.stdout + done.stderr
        match = re.search(r"my-memory-read: (\d+)/(\d+) passed, 0 failed, 0 errored", done.stdout)
        assert match is not None, done.stdout
        assert match.group(1) == match.group(2)
        assert (tmp_path / "report" / "report.md").is_file()


class TestRecipes:
    """The GitHub action and the GitLab template call `phase6 certify` (and `phase6 site`) with
    real options."""

    @pytest.mark.parametrize("recipe", RECIPES, ids=lambda p: p.name)
    def test_certify_options_exist(self, recipe: Path, tmp_path: Path) -> None:
        """Every --option a recipe passes is one `certify --help` or `site collect|build --help`
        lists."""
        usage = "".join(
            _kit(*command, "--help", cwd=tmp_path).stdout
            for command in (("certify",), ("site", "collect"), ("site", "build"))
        )
        text = recipe.read_text("utf-8")
        pip_options = {"--upgrade"}
        options = set(re.findall(r"(?<![\w-])--[a-z][a-z-]+", text)) - pip_options
        assert options >= {"--adapter", "--report-dir", "--expected-failures"}
        assert sorted(o for o in options if o not in usage) == []

    @pytest.mark.parametrize("recipe", RECIPES, ids=lambda p: p.name)
    def test_reports_what_certify_writes(self, recipe: Path) -> None:
        """The files a recipe publishes (report.md, junit.xml) are among the report files."""
        text = recipe.read_text("utf-8")
        assert "report.md" in text
        assert "python -m conformance certify" in text
