"""The wheel is the product: the harness, the reference, the specs and the vectors, nothing else;
installed in an empty venv it certifies from a stranger's own repository."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
import tomllib
import zipfile
from pathlib import Path

import pytest
from paths import REPO

#: The kit's version, as the wheel's dist-info directory spells it.
VERSION = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))["project"]["version"]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A wheel built from this checkout (``pip wheel .``)."""
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(REPO)],
        check=True,
        capture_output=True,
    )
    (built,) = out.glob("*.whl")
    return built


@pytest.fixture(scope="module")
def wheel_names(wheel: Path) -> list[str]:
    """The file names inside the wheel."""
    with zipfile.ZipFile(wheel) as archive:
        return archive.namelist()


@pytest.mark.slow
class TestWheel:
    """What `pip wheel .` puts in the wheel."""

    def test_no_build_tooling(self, wheel_names: list[str]) -> None:
        """No generator, oracle, mutant, bench or sample generator, and no JavaScript example."""
        top = {Path(name).parts[0] for name in wheel_names}
        assert "tools" not in top
        assert not [n for n in wheel_names if "/examples/" in n or "mutant" in n.lower()]

    def test_product_is_there(self, wheel_names: list[str]) -> None:
        """The harness, the reference, the registers and schemas, and the corpus ship."""
        assert "conformance/cli/__init__.py" in wheel_names
        assert "reference/__init__.py" in wheel_names
        assert "conformance/_data/specs/interpretations.toml" in wheel_names
        assert "conformance/_data/specs/kill-matrix.json" in wheel_names
        assert any(n.startswith("conformance/_data/vectors/") for n in wheel_names)
        assert "conformance/properties/stored/seed-6006.json.gz" in wheel_names

    def test_templates_are_there(self, wheel_names: list[str]) -> None:
        """Every template the renderings and the site's pages load ships in its package (a
        wheel without them could not write report.html, report.md or the site)."""
        folders = [REPO / "conformance" / package / "templates" for package in ("report", "site")]
        templates = sorted(p.relative_to(REPO).as_posix() for f in folders for p in f.iterdir())
        assert "conformance/report/templates/report.html.j2" in templates
        assert "conformance/site/templates/index.html.j2" in templates
        assert [name for name in templates if name not in wheel_names] == []

    def test_license_is_there(self, wheel: Path, wheel_names: list[str]) -> None:
        """The MIT LICENSE file ships in the dist-info and the metadata names it (PEP 639)."""
        info = f"adamos_phase6_conformance-{VERSION}.dist-info"
        assert f"{info}/licenses/LICENSE" in wheel_names
        with zipfile.ZipFile(wheel) as archive:
            shipped = archive.read(f"{info}/licenses/LICENSE").decode("utf-8")
            metadata = archive.read(f"{info}/METADATA").decode("utf-8")
        assert shipped == (REPO / "LICENSE").read_text("utf-8")
        assert "MIT License" in shipped
        assert "License-Expression: MIT" in metadata.splitlines()
        assert "License-File: LICENSE" in metadata.splitlines()

    def test_classifiers(self, wheel: Path) -> None:
        """The metadata declares the pytest framework, a development status, and only the
        Python versions CI runs."""
        info = f"adamos_phase6_conformance-{VERSION}.dist-info"
        with zipfile.ZipFile(wheel) as archive:
            metadata = archive.read(f"{info}/METADATA").decode("utf-8").splitlines()
        prefix = "Classifier: "
        classifiers = [line.removeprefix(prefix) for line in metadata if line.startswith(prefix)]
        assert "Framework :: Pytest" in classifiers
        assert [c for c in classifiers if c.startswith("Development Status :: ")]
        minor = re.compile(r"Programming Language :: Python :: 3\.\d+")
        versions = [c for c in classifiers if minor.fullmatch(c)]
        assert versions == [  # .ci/run: nox -s tests (3.11) and nox -s tests_newest (3.13)
            "Programming Language :: Python :: 3.11",
            "Programming Language :: Python :: 3.13",
        ]


#: A stranger's implementation module, in their own repository (the reference, renamed).
IMPLEMENTATION = textwrap.dedent(
    """
    from reference import memory_read as _reference


    def memory_read(request):
        return _reference(request)
    """
)


@pytest.fixture(scope="module")
def venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An empty venv with the kit and its pytest extra installed; its bin directory."""
    home = tmp_path_factory.mktemp("venv")
    subprocess.run([sys.executable, "-m", "venv", str(home)], check=True)
    bin_dir = home / "bin"
    subprocess.run(
        [str(bin_dir / "python"), "-m", "pip", "install", "-q", f"{wheel}[pytest]"],
        check=True,
        capture_output=True,
    )
    return bin_dir


@pytest.mark.slow
class TestInstalled:
    """`pip install "<the wheel>[pytest]"` in an empty venv, used from another directory."""

    def _project(self, tmp_path: Path) -> Path:
        project = tmp_path / "my-project"
        project.mkdir()
        (project / "my_impl.py").write_text(IMPLEMENTATION, "utf-8")
        return project

    def _env(self) -> dict[str, str]:
        return {
            k: v
            for k, v in os.environ.items()
            if k not in ("PYTHONPATH", "VIRTUAL_ENV") and not k.startswith(("PYTEST_", "PHASE6_"))
        }

    def _run(self, argv: list[str], project: Path) -> subprocess.CompletedProcess[str]:
        """Run an installed script from `project`, outside this checkout's environment."""
        return subprocess.run(
            argv, cwd=project, env=self._env(), capture_output=True, text=True, timeout=600,
            check=False,
        )  # fmt: skip

    def test_pytest_plugin_imports_an_adapter_from_the_working_directory(
        self, venv: Path, tmp_path: Path
    ) -> None:
        """The `pytest` script of the venv runs a vector against python:my_impl:memory_read,
        a module that is only in the working directory."""
        done = self._run(
            [
                str(venv / "pytest"),
                "-p",
                "no:cacheprovider",
                "--phase6-adapter",
                "python:my_impl:memory_read",
                "--phase6-no-properties",
                "-k",
                "hashing-h001",
            ],
            self._project(tmp_path),
        )
        assert done.returncode == 0, done.stdout + done.stderr
        assert "1 passed" in done.stdout

    def test_phase6_script_imports_it_too(self, venv: Path, tmp_path: Path) -> None:
        """`phase6 certify` with the same adapter works from the same directory (a selection
        of the published corpus: a partial run in which nothing failed, exit 3)."""
        project = self._project(tmp_path)
        done = self._run(
            [
                str(venv / "phase6"),
                "certify",
                "--adapter",
                "python:my_impl:memory_read",
                "--select",
                "hashing-h001",
                "--no-sections",
                "--report-dir",
                str(tmp_path / "report"),
                "-q",
            ],
            project,
        )
        assert done.returncode == 3, done.stdout + done.stderr
        assert "1/1 passed" in done.stdout

    def test_installed_kit_replays_the_stored_examples(self, venv: Path, tmp_path: Path) -> None:
        """A default property run of the installed kit replays the stored examples: the wheel
        carries the file and the installed sources have the digest it was generated from."""
        done = self._run(
            [str(venv / "phase6"), "properties", "--family", "receipt", "--no-report", "-j", "1"],
            self._project(tmp_path),
        )
        assert done.returncode == 0, done.stdout + done.stderr
        assert "(seed 6006, stored examples)" in done.stdout.splitlines()[0]
