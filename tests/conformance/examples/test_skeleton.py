"""The adapter skeleton (conformance/examples/skeleton/adapter.py) and the CI recipes that run
`phase6 certify` (conformance/ci/): the skeleton, wrapped around the reference's
``memory_read``, passes what the reference passes; the recipes parse, call options certify has,
and the GitLab template's jobs, run as a runner would, collect a report `site build` takes."""

from __future__ import annotations

import importlib.util
import io
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from ci_runners import GitLabRunner, extends
from paths import REPO

yaml = pytest.importorskip("yaml", reason="PyYAML (via the docs dependency group) is not installed")

SKELETON = REPO / "conformance" / "examples" / "skeleton" / "adapter.py"
GITHUB = REPO / "conformance" / "ci" / "github-action" / "action.yml"
GITLAB = REPO / "conformance" / "ci" / "gitlab" / "phase6.gitlab-ci.yml"
RECIPES = (GITHUB, GITLAB)
#: The skeleton wrapped around the reference, as an implementer would wire their own function.
ADAPTER = f"cmd:{sys.executable} {SKELETON} reference:memory_read"
NODE = shutil.which("node")
#: The JavaScript skeleton wrapped around the JavaScript example's memoryRead (an
#: implementation `nox -s certify_examples` certifies compliant).
JS_ADAPTER = (
    f"cmd:{NODE} {SKELETON.with_suffix('.js')} "
    f"{REPO / 'conformance' / 'examples' / 'javascript' / 'src' / 'memoryRead.js'} memoryRead"
)
SKELETONS = [
    pytest.param(ADAPTER, id="python"),
    pytest.param(
        JS_ADAPTER,
        id="javascript",
        marks=pytest.mark.skipif(
            NODE is None,
            reason="node (Node.js >= 20) is not on PATH: the JavaScript skeleton cannot run",
        ),
    ),
]


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


@pytest.mark.parametrize("adapter", SKELETONS)
class TestSkeletonCertified:
    """Each skeleton around a compliant implementation (Python: the reference; JavaScript:
    the JavaScript example), through the kit's own command line."""

    def test_smoke(self, adapter: str, tmp_path: Path) -> None:
        """`smoke` finds the handshake and a few vectors passing."""
        done = _kit("smoke", "--adapter", adapter, cwd=tmp_path)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "smoke ok" in done.stdout

    @pytest.mark.slow
    def test_certify_selection(self, adapter: str, tmp_path: Path) -> None:
        """A certify selection passes every vector (exit 3: a partial run, nothing failed)."""
        done = _kit(
            "certify", "--adapter", adapter, "--select", "area:package", "--select", "area:errors",
            "--select", "area:truncation", "--no-sections", "-q",
            "--report-dir", str(tmp_path / "report"),
            cwd=tmp_path,
        )  # fmt: skip
        assert done.returncode == 3, done.stdout + done.stderr
        match = re.search(r"my-memory-read: (\d+)/(\d+) passed, 0 failed, 0 errored", done.stdout)
        assert match is not None, done.stdout
        assert match.group(1) == match.group(2)
        assert (tmp_path / "report" / "report.md").is_file()


def _shell(recipe: dict[str, Any]) -> list[str]:
    """The shell a recipe runs: the action's ``run:`` steps, the template's scripts."""
    if "runs" in recipe:
        return [step["run"] for step in recipe["runs"]["steps"] if "run" in step]
    jobs = [job for job in recipe.values() if isinstance(job, dict)]
    return [line for job in jobs for line in job.get("script", ())]


class TestRecipes:
    """The GitHub action and the GitLab template only install the kit and call its CI script,
    `phase6 ci`, with options it has."""

    @pytest.mark.parametrize("recipe", RECIPES, ids=lambda p: p.name)
    def test_ci_options_exist(self, recipe: Path, tmp_path: Path) -> None:
        """Every --option a recipe passes is one `phase6 ci --help` or `site build --help`
        lists."""
        usage = "".join(
            _kit(*command, "--help", cwd=tmp_path).stdout
            for command in (("ci",), ("site", "build"))
        )
        text = recipe.read_text("utf-8")
        pip_options = {"--upgrade"}
        options = set(re.findall(r"(?<![\w-])--[a-z][a-z-]+", text)) - pip_options
        assert options >= {"--adapter", "--report-dir", "--expected-failures", "--policy"}
        assert sorted(o for o in options if o not in usage) == []

    @pytest.mark.parametrize("recipe", RECIPES, ids=lambda p: p.name)
    def test_the_logic_is_the_kits_script(self, recipe: Path) -> None:
        """A recipe's shell is installing the kit and calling `phase6 ci` (the GitLab site job:
        `phase6 site build`): no certify call, summary or verdict logic of its own."""
        shell = "\n".join(_shell(yaml.safe_load(recipe.read_text("utf-8"))))
        assert "python -m conformance ci " in shell
        assert "python -m conformance certify" not in shell
        assert not re.search(r"GITHUB_STEP_SUMMARY|GITHUB_OUTPUT|\bexit\b|\bif\b|\bcat\b", shell)

    def test_no_expression_in_the_action_shell(self) -> None:
        """The action's inputs reach its shell only through env (no ``${{ }}`` inside a
        ``run:``, where an input holding a quote would become shell code: GitHub's script
        injection)."""
        action = yaml.safe_load(GITHUB.read_text("utf-8"))
        assert [s for s in _shell(action) if "${{" in s] == []

    def test_recipes_parse(self) -> None:
        """Both recipes are YAML; each has its publish-to-the-site step: the action's
        site-collection input, the template's collect and build hidden jobs; the action's
        policy input defaults to the template's."""
        action = yaml.safe_load(GITHUB.read_text("utf-8"))
        assert {"site-collection", "policy"} <= set(action["inputs"])
        template = yaml.safe_load(GITLAB.read_text("utf-8"))
        assert {".phase6-certify", ".phase6-site-collect", ".phase6-site"} <= set(template)
        for name in (".phase6-certify", ".phase6-site"):
            script = template[name]["script"]
            assert script
            assert all(isinstance(line, str) for line in script)
        policy = template[".phase6-certify"]["variables"]["PHASE6_POLICY"]
        assert action["inputs"]["policy"]["default"] == policy == "compliant"


def _artifacts(job: dict[str, Any], project: Path) -> list[Path]:
    """The job's artifact paths, its variables expanded as the runner expands them."""
    variables = job["variables"]
    return [
        project / re.sub(r"\$\{?(\w+)\}?", lambda m: str(variables.get(m.group(1), "")), path)
        for path in job["artifacts"]["paths"]
    ]


class TestGitLabPublishToSite:
    """The GitLab template's publish-to-the-site path, run for real: a certify job extending
    .phase6-certify and .phase6-site-collect, then a pages job extending .phase6-site over the
    certify job's artifacts."""

    def test_collect_then_build(self, tmp_path: Path) -> None:
        """The certify job keeps its report and the collection as artifacts (the collection
        ``<implementation>/<version>/`` with report.json and meta.json); the site job builds the
        site from that collection, the partial run said as such."""
        template = yaml.safe_load(GITLAB.read_text("utf-8"))
        runner = GitLabRunner(tmp_path)
        certify = extends(
            template, ".phase6-certify", ".phase6-site-collect",
            PHASE6_ADAPTER="python:reference:memory_read", PHASE6_KIT="./phase6-kit",
            PHASE6_ARGS="--select area:package --no-sections -q -j 1 --sandbox off",
        )  # fmt: skip
        job = tmp_path / "certify-job"
        job.mkdir()
        done = runner.run(certify, job)
        # a --select run is partial: certify's exit status 3, which the job ends with
        assert done.returncode == 3, done.stdout + done.stderr
        assert "collected " in done.stdout
        assert runner.pip_log.read_text("utf-8").splitlines()[-1] == "-m pip install ./phase6-kit"
        artifacts = _artifacts(certify, job)
        assert [p.relative_to(job).as_posix() for p in artifacts] == [
            "phase6-report",
            "phase6-site",
        ]
        assert all(p.is_dir() for p in artifacts)
        (collected,) = [p.parent for p in (job / "phase6-site").rglob("report.json")]
        meta = json.loads((collected / "meta.json").read_text("utf-8"))
        assert meta["format"] == "phase6-site-meta/1"
        assert collected.relative_to(job / "phase6-site").parts == (
            meta["implementation"],
            meta["version"],
        )
        report = json.loads((job / "phase6-report" / "report.json").read_text("utf-8"))
        assert json.loads((collected / "report.json").read_text("utf-8")) == report

        # the pages job: the certify job's artifacts extracted into its project directory,
        # with two more reports of the same version: a copy, and an earlier run
        pages = tmp_path / "pages-job"
        shutil.copytree(job / "phase6-site", pages / "phase6-site")
        shutil.copytree(collected, pages / "phase6-site" / "copy")
        earlier = {**report, "header": {**report["header"], "started": "2000-01-01T00:00:00Z"}}
        (pages / "phase6-site" / "earlier").mkdir()
        (pages / "phase6-site" / "earlier" / "report.json").write_text(json.dumps(earlier))
        site = extends(template, ".phase6-site")
        built = runner.run(site, pages)
        assert built.returncode == 0, built.stdout + built.stderr
        aside = sorted(line for line in built.stdout.splitlines() if line.startswith("set aside"))
        assert len(aside) == 2, built.stdout
        assert "phase6-site/copy/report.json" in aside[0]
        assert "the same report as the one kept" in aside[0]
        assert "phase6-site/earlier/report.json" in aside[1]
        assert "an earlier run of this version (2000-01-01T00:00:00Z" in aside[1]
        (out,) = _artifacts(site, pages)
        listing = json.loads((out / "api" / "v1" / "implementations.json").read_text("utf-8"))
        (row,) = listing["implementations"]
        assert (row["name"], row["version"]) == (meta["implementation"], meta["version"])
        assert row["partial"] == report["footer"]["partial_reasons"] != []
        document = json.loads(
            (out / "api" / "v1" / "implementations" / f"{row['key']}.json").read_text("utf-8")
        )
        assert sorted(a["date"] for a in document["set_aside"]) == [
            "2000-01-01T00:00:00Z",
            report["header"]["started"],
        ]
        badge = json.loads((out / "badges" / f"{row['key']}.json").read_text("utf-8"))
        assert badge["message"].startswith("partial: ")
        assert "partial run" in (out / "index.html").read_text("utf-8")

    def test_no_report_nothing_collected(self, tmp_path: Path) -> None:
        """When certify writes no report (a usage error), the job says there is nothing to
        collect and ends with certify's status (2)."""
        template = yaml.safe_load(GITLAB.read_text("utf-8"))
        certify = extends(
            template, ".phase6-certify", ".phase6-site-collect",
            PHASE6_ADAPTER="python:reference:memory_read", PHASE6_ARGS="--no-such-option",
        )  # fmt: skip
        job = tmp_path / "job"
        job.mkdir()
        done = GitLabRunner(tmp_path).run(certify, job)
        assert done.returncode == 2, done.stdout + done.stderr
        assert "phase6 ci: site: no report.json, nothing to collect" in done.stdout
        assert not (job / "phase6-site").exists()

    def test_certify_alone_collects_nothing(self) -> None:
        """.phase6-certify alone has no collection directory and keeps only the report
        directory (no artifact path of an empty variable, which a runner reads as the whole
        project)."""
        template = yaml.safe_load(GITLAB.read_text("utf-8"))
        certify = extends(template, ".phase6-certify")
        assert certify["variables"]["PHASE6_SITE_COLLECTION"] == ""
        assert certify["artifacts"]["paths"] == ["$PHASE6_REPORT_DIR/"]
        collect = extends(template, ".phase6-certify", ".phase6-site-collect")
        assert collect["artifacts"]["reports"] == certify["artifacts"]["reports"]
        assert collect["artifacts"]["when"] == "always"
