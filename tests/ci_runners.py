"""The kit's CI recipes (conformance/ci/) run as their platforms run them, on this machine.

:class:`GitLabRunner` runs a job's ``script`` as a GitLab runner's bash does;
:class:`GitHubActionRunner` runs a composite action's steps as the GitHub runner does. Both
take what the recipes use and fail loudly (``AssertionError``) on anything else, so a recipe
that starts using a feature these do not model is noticed, not silently mis-run.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from paths import REPO

__all__ = ["ActionRun", "GitHubActionRunner", "GitLabRunner", "extends"]


def extends(template: dict[str, Any], *names: str, **variables: str) -> dict[str, Any]:
    """A job extending the hidden jobs ``names`` in order, with its own ``variables``, merged as
    GitLab merges ``extends:`` (hashes deeply, a later value, list included, over an earlier)."""

    def merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
        merged = dict(base)
        for key, value in over.items():
            if isinstance(value, dict) and isinstance(merged.get(key), dict):
                merged[key] = merge(merged[key], value)
            else:
                merged[key] = value
        return merged

    job: dict[str, Any] = {}
    for name in names:
        job = merge(job, template[name])
    return merge(job, {"variables": variables})


def _bash() -> str:
    bash = shutil.which("bash")
    assert bash is not None, "bash is what both CI platforms run scripts with"
    return bash


class GitLabRunner:
    """Runs a job's ``script`` as a GitLab runner's bash does (one shell, ``set -eo
    pipefail``, the job's variables in a clean environment) in a project directory.

    Without ``python_bin``, ``python`` is a shim: ``python -m pip ...`` is only recorded (the
    kit is importable from the checkout), every other call is this interpreter. With
    ``python_bin`` (a fresh venv's ``bin``, as the job's image would have), ``python`` is that
    interpreter and pip really installs."""

    def __init__(self, root: Path, python_bin: Path | None = None, *extra_path: str) -> None:
        self.root, self.pip_log = root, root / "pip.log"
        self.python_bin = python_bin
        if python_bin is None:
            shims = root / "bin"
            shims.mkdir()
            shim = shims / "python"
            shim.write_text(
                "#!/bin/sh\n"
                'if [ "$1" = -m ] && [ "$2" = pip ]; then\n'
                '  echo "$*" >> "$SHIM_PIP_LOG"; exit 0\n'
                "fi\n"
                f'exec "{sys.executable}" "$@"\n',
                "utf-8",
            )
            shim.chmod(0o755)
            python_bin = shims
        self.path = ":".join([str(python_bin), *extra_path, "/usr/local/bin:/usr/bin:/bin"])

    def run(self, job: dict[str, Any], project: Path) -> subprocess.CompletedProcess[str]:
        """Run ``job``'s script in ``project``; its exit status and output."""
        script = project.parent / f"{project.name}.sh"
        script.write_text("set -eo pipefail\n" + "\n".join(job["script"]) + "\n", "utf-8")
        env = {
            "PATH": self.path,
            "HOME": str(self.root),
            "LANG": "C.UTF-8",
            "CI": "true",
            "GITLAB_CI": "true",
            **{k: str(v) for k, v in job["variables"].items()},
        }
        if self.python_bin is None:
            env |= {"PYTHONPATH": str(REPO), "SHIM_PIP_LOG": str(self.pip_log)}
        return subprocess.run(
            [_bash(), str(script)],
            cwd=project, env=env, capture_output=True, text=True, timeout=900, check=False,
        )  # fmt: skip


@dataclass
class ActionRun:
    """What a composite action's run left: its exit status (the first failing step's), each
    step's log, outputs and job summary by step name, the artifacts' paths and the action's
    outputs."""

    status: int = 0
    logs: dict[str, str] = field(default_factory=dict)
    outputs: dict[str, dict[str, str]] = field(default_factory=dict)
    summaries: dict[str, str] = field(default_factory=dict)
    artifacts: dict[str, str] = field(default_factory=dict)
    action_outputs: dict[str, str] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)

    @property
    def log(self) -> str:
        """Every step's log, in order."""
        return "".join(self.logs.values())


_EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")


class GitHubActionRunner:
    """Runs a composite action's steps as the GitHub runner does, for what this kit's action
    uses: ``run:`` steps in ``bash --noprofile --norc -eo pipefail`` with each step's own
    ``$GITHUB_OUTPUT`` and ``$GITHUB_STEP_SUMMARY`` files; ``${{ inputs.* }}`` (with the
    inputs' defaults), ``${{ github.action_path }}`` and ``${{ steps.<id>.outputs.* }}``
    expanded; ``if:`` of the forms ``always()``, ``success()``, ``failure()`` and
    ``inputs.<name> != ''`` joined by ``&&``, a step without one running only while every
    earlier step succeeded. ``uses:`` steps: ``actions/setup-python`` is the interpreter
    already first on PATH (``python_bin``), ``actions/upload-artifact`` records the path it
    would upload."""

    def __init__(self, action: dict[str, Any], action_path: Path, python_bin: Path,
                 *extra_path: str) -> None:  # fmt: skip
        self.action, self.action_path = action, action_path
        self.path = ":".join([str(python_bin), *extra_path, "/usr/local/bin:/usr/bin:/bin"])

    def run(self, inputs: dict[str, str], workspace: Path, home: Path) -> ActionRun:
        """Run the action with ``inputs`` in ``workspace`` (the checked-out repository)."""
        declared = self.action["inputs"]
        assert not set(inputs) - set(declared), f"undeclared inputs {set(inputs) - set(declared)}"
        values = {name: str(spec.get("default", "")) for name, spec in declared.items()}
        values.update(inputs)
        missing = [n for n, spec in declared.items() if spec.get("required") and not values[n]]
        assert not missing, f"required inputs not given: {missing}"
        done = ActionRun()
        outputs: dict[str, dict[str, str]] = {}
        failed = False
        files = home / "runner-files"
        files.mkdir(exist_ok=True)
        for index, step in enumerate(self.action["runs"]["steps"]):
            name = step.get("name") or step.get("uses") or f"step {index}"

            def expand(text: str) -> str:
                return _EXPRESSION.sub(lambda m: self._value(m.group(1), values, outputs), text)

            if not self._condition(step.get("if", "success()"), values, failed):
                done.skipped.append(name)
                continue
            if "uses" in step:
                uses = step["uses"].split("@", 1)[0]
                with_ = {k: expand(str(v)) for k, v in step.get("with", {}).items()}
                if uses == "actions/upload-artifact":
                    done.artifacts[with_["name"]] = with_["path"]
                else:
                    assert uses == "actions/setup-python", f"unmodelled action {uses}"
                continue
            assert step.get("shell") == "bash", f"{name}: only bash steps are modelled"
            output, summary = files / f"output-{index}", files / f"summary-{index}"
            output.write_text("", "utf-8")
            summary.write_text("", "utf-8")
            script = files / f"step-{index}.sh"
            script.write_text(expand(step["run"]), "utf-8")
            env = {
                "PATH": self.path,
                "HOME": str(home),
                "LANG": "C.UTF-8",
                "CI": "true",
                "GITHUB_ACTIONS": "true",
                "GITHUB_OUTPUT": str(output),
                "GITHUB_STEP_SUMMARY": str(summary),
                "GITHUB_WORKSPACE": str(workspace),
                "RUNNER_TEMP": str(files),
                **{k: expand(str(v)) for k, v in step.get("env", {}).items()},
            }
            ran = subprocess.run(
                [_bash(), "--noprofile", "--norc", "-eo", "pipefail", str(script)],
                cwd=workspace, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                text=True, timeout=900, check=False,
            )  # fmt: skip
            done.logs[name] = ran.stdout
            done.summaries[name] = summary.read_text("utf-8")
            if "id" in step:
                outputs[step["id"]] = dict(
                    line.split("=", 1) for line in output.read_text("utf-8").splitlines() if line
                )
            if ran.returncode != 0 and not failed:
                failed, done.status = True, ran.returncode
        done.outputs = outputs
        done.action_outputs = {
            name: _EXPRESSION.sub(lambda m: self._value(m.group(1), values, outputs), spec["value"])
            for name, spec in self.action.get("outputs", {}).items()
        }
        return done

    def _value(self, expression: str, inputs: dict[str, str], outputs: dict[str, Any]) -> str:
        parts = expression.split(".")
        if parts[0] == "inputs" and len(parts) == 2:
            return inputs[parts[1]]
        if expression == "github.action_path":
            return str(self.action_path)
        if parts[0] == "steps" and len(parts) == 4 and parts[2] == "outputs":
            return str(outputs.get(parts[1], {}).get(parts[3], ""))
        raise AssertionError(f"unmodelled expression {expression!r}")

    @staticmethod
    def _condition(condition: str, inputs: dict[str, str], failed: bool) -> bool:
        """Whether a step runs: ``condition`` (its ``if:``) after earlier steps, ``failed``
        saying whether one failed (no status function in it: ``success() &&`` is implied)."""
        terms = [term.strip() for term in condition.split("&&")]
        status_functions = {"always()": True, "success()": not failed, "failure()": failed}
        result = True if any(t in status_functions for t in terms) else not failed
        for term in terms:
            if term in status_functions:
                result = result and status_functions[term]
                continue
            match = re.fullmatch(r"inputs\.([\w-]+)\s*(!=|==)\s*''", term)
            assert match is not None, f"unmodelled condition {term!r}"
            empty = inputs[match.group(1)] == ""
            result = result and (empty if match.group(2) == "==" else not empty)
        return result
