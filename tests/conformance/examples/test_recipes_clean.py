"""The CI recipes run end to end in a clean, container-like environment, as an implementer's CI
would run them (issue 23: "The CI recipe's script certifies the JavaScript example green and a
broken fake red, with the summary file written, in CI").

The environment: a fresh venv (what actions/setup-python or the ``python:3.11`` image gives:
python and pip, nothing else), its own HOME, no PYTHONPATH, nothing but PATH, HOME and LANG
from this process; the recipe's own install step installs the kit's wheel, built from this
checkout, with its dependencies; the project is a copy of the JavaScript example in a
directory of its own, as the implementer's repository would be. The GitHub action runs step
by step as the GitHub runner runs a composite action, the GitLab template's job as a GitLab
runner's bash does (tests/ci_runners.py)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from ci_runners import ActionRun, GitHubActionRunner, GitLabRunner, extends
from paths import REPO

yaml = pytest.importorskip("yaml", reason="PyYAML (via the docs dependency group) is not installed")

pytestmark = pytest.mark.slow

GITHUB = REPO / "conformance" / "ci" / "github-action"
GITLAB = REPO / "conformance" / "ci" / "gitlab" / "phase6.gitlab-ci.yml"
JS_EXAMPLE = REPO / "conformance" / "examples" / "javascript"
NODE = shutil.which("node")
#: The broken fake: the JavaScript example with one plain bug, an off-by-one in the budget
#: check (an excerpt that fits the remaining budget exactly is dropped). No reading of the
#: register explains it: S6-TRUNC: an item is kept while the total stays within the budget.
BUG = (
    "src/selection.js",
    "used + excerpt_tokens > budget.maxExcerptTokens",
    "used + excerpt_tokens >= budget.maxExcerptTokens",
)

needs_node = pytest.mark.skipif(
    NODE is None, reason="node (Node.js >= 20) is not on PATH: the JavaScript example cannot run"
)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The kit's wheel, built from this checkout (what ``kit:`` / ``PHASE6_KIT`` may name)."""
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(REPO)],
        check=True, capture_output=True, timeout=600,
    )  # fmt: skip
    (built,) = out.glob("*.whl")
    return built


def _fresh_python(where: Path) -> Path:
    """A fresh venv's bin directory: python and pip, no kit, no dependencies."""
    subprocess.run([sys.executable, "-m", "venv", str(where)], check=True, timeout=300)
    bin_dir = where / "bin"
    listed = subprocess.run(
        [str(bin_dir / "python"), "-m", "pip", "list", "--format=freeze"],
        check=True, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert "adamos-phase6-conformance" not in listed.stdout
    return bin_dir


def _project(where: Path, *, broken: bool) -> Path:
    """The implementer's repository: a copy of the JavaScript example (with the bug)."""
    project = where / "my-memory-read"
    shutil.copytree(JS_EXAMPLE, project, ignore=shutil.ignore_patterns("node_modules"))
    if broken:
        path, before, after = BUG
        source = (project / path).read_text("utf-8")
        assert source.count(before) == 1, f"the bug's line is gone from {path}: update BUG"
        (project / path).write_text(source.replace(before, after), "utf-8")
    return project


def _kit_is_the_wheel(bin_dir: Path, project: Path) -> None:
    """The kit the job used is the one its install step put in the venv, not this checkout."""
    found = subprocess.run(
        [str(bin_dir / "python"), "-c", "import conformance; print(conformance.__file__)"],
        cwd=project, env={"PATH": "/usr/bin:/bin", "HOME": str(project)},
        check=True, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert Path(found.stdout.strip()).is_relative_to(bin_dir.parent)


@needs_node
class TestGitHubAction:
    """conformance/ci/github-action/action.yml, step by step, in the clean environment."""

    def _run(
        self, tmp_path: Path, wheel: Path, *, broken: bool, policy: str
    ) -> tuple[ActionRun, Path]:
        bin_dir = _fresh_python(tmp_path / "python")
        project = _project(tmp_path, broken=broken)
        home = tmp_path / "home"
        home.mkdir()
        action = yaml.safe_load((GITHUB / "action.yml").read_text("utf-8"))
        runner = GitHubActionRunner(action, GITHUB, bin_dir, os.path.dirname(NODE or ""))
        run = runner.run(
            {"adapter": "cmd:node adapter.js", "kit": str(wheel), "policy": policy},
            project,
            home,
        )
        _kit_is_the_wheel(bin_dir, project)
        return run, project

    def test_javascript_example_green(self, tmp_path: Path, wheel: Path) -> None:
        """The JavaScript example is certified compliant: the job passes, the job summary is
        report.md with the policy's line, the outputs say exit 0, the report is uploaded."""
        run, project = self._run(tmp_path, wheel, broken=False, policy="compliant")
        assert run.status == 0, run.log[-4000:]
        summary = run.summaries["Certify"]
        assert summary.startswith("# phase6-v1 compliance: adamos-phase6-js 1.0.0\n")
        assert "\n**Verdict: `compliant`** — all " in summary
        assert summary.endswith("policy 'compliant' passes on 0: this job passes**\n")
        assert run.action_outputs == {
            "exit-code": "0", "verdict": "compliant", "partial": "false", "passed": "true",
            "report-dir": "phase6-report",
        }  # fmt: skip
        assert run.artifacts == {"phase6-report": "phase6-report"}
        assert run.skipped == ["Upload the site collection"]
        for name in ("report.json", "report.md", "report.html", "junit.xml", "badge.svg"):
            assert (project / "phase6-report" / name).is_file()
        assert "::error" not in run.log

    def test_broken_fake_red(self, tmp_path: Path, wheel: Path) -> None:
        """The same project with one plain bug is red even under the lenient `required`
        policy (a bug is no reading): the job fails with certify's 1, the summary is written
        and names non-compliant, an error annotation is left, and the report and the site
        collection are still uploaded."""
        run, project = self._run(tmp_path, wheel, broken=True, policy="required")
        assert run.status == 1, run.log[-4000:]
        summary = run.summaries["Certify"]
        assert summary.startswith("# phase6-v1 compliance: adamos-phase6-js 1.0.0\n")
        assert "\n**Verdict: `non-compliant`** — " in summary
        assert summary.endswith(
            "policy 'required' passes on 0, 4: this job fails with exit status 1**\n"
        )
        assert run.action_outputs["exit-code"] == "1"
        assert run.action_outputs["verdict"] == "non-compliant"
        assert run.action_outputs["passed"] == "false"
        assert "::error title=phase6-v1 conformance::phase6 ci: certify exited 1" in run.log
        assert run.artifacts == {"phase6-report": "phase6-report"}
        assert (project / "phase6-report" / "junit.xml").is_file()


@needs_node
class TestGitLabTemplate:
    """conformance/ci/gitlab/phase6.gitlab-ci.yml's certify job, in the clean environment."""

    def test_broken_fake_reported(self, tmp_path: Path, wheel: Path) -> None:
        """Under the `report` policy the broken fake's job passes (exit 0) with its
        non-compliant report.md in the job log, the report directory and the site collection
        kept as artifacts, junit.xml as the test report."""
        bin_dir = _fresh_python(tmp_path / "python")
        project = _project(tmp_path, broken=True)
        template = yaml.safe_load(GITLAB.read_text("utf-8"))
        job = extends(
            template, ".phase6-certify", ".phase6-site-collect",
            PHASE6_ADAPTER="cmd:node adapter.js", PHASE6_KIT=str(wheel), PHASE6_POLICY="report",
        )  # fmt: skip
        runner = GitLabRunner(tmp_path, bin_dir, os.path.dirname(NODE or ""))
        done = runner.run(job, project)
        assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
        assert "# phase6-v1 compliance: adamos-phase6-js 1.0.0\n" in done.stdout
        assert (
            "phase6 ci: certify exited 1 (not compliant); policy 'report' passes on 0, 1, 3, 4: "
            "this job passes" in done.stdout
        )
        assert (project / job["artifacts"]["reports"]["junit"].replace("$PHASE6_REPORT_DIR",
                "phase6-report")).is_file()  # fmt: skip
        (meta,) = (project / "phase6-site").rglob("meta.json")
        assert '"verdict": "non-compliant"' in meta.read_text("utf-8")
        _kit_is_the_wheel(bin_dir, project)
