"""The pytest plugin, used the way an implementer uses it: from a separate, empty project.

Each test runs ``python -m pytest`` in a fresh directory that holds nothing of the kit (at most
the implementer's own adapter module and an expected-failures file). The plugin is loaded the
way an installation loads it, through the ``pytest11`` entry point ``phase6``: when the kit is
not installed in this environment, a minimal ``.dist-info`` declaring that entry point is put
on the path next to the checkout (what ``pip install`` would leave behind, without the build).
"""

from __future__ import annotations

import importlib.metadata
import os
import subprocess
import sys
import textwrap
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from paths import REPO as ROOT

from conformance import load_corpus
from conformance.pytest_plugin import marker_name, node_id

REFERENCE = "python:reference:memory_read"
CORPUS = load_corpus()
#: The first vector expecting a package, and the first expecting an error (IDs change as the
#: corpus grows, so they are looked up, not written down).
PACKAGE_VECTOR = next(v for v in CORPUS.vectors if not v.expects_error)
ERROR_VECTOR = next(v for v in CORPUS.vectors if v.expects_error)
#: A vector whose ID begins another vector's ID (``recency-h010`` / ``recency-h010-12h``).
PREFIX_VECTOR = next(
    v for v in CORPUS.vectors if any(w.id.startswith(v.id) and w.id != v.id for w in CORPUS.vectors)
)
#: A small area, with vectors the broken implementation fails.
HASHED_AREA = "package"

#: An implementer's broken adapter: the reference with every package_hash flipped.
BROKEN_IMPL = textwrap.dedent(
    '''
    """A memory.read whose package_hash is always wrong (errors are fine)."""
    from reference import memory_read as _reference


    def memory_read(request):
        result = _reference(request)
        package = result.get("package")
        if package is not None:
            digest = package["package_hash"]
            package["package_hash"] = digest[:-1] + ("0" if digest[-1] != "0" else "1")
            result["receipt"]["data"]["package_hash"] = package["package_hash"]
        return result
    '''
)


def _installed() -> bool:
    """Whether the kit is installed here with its pytest11 entry point."""
    return any(ep.name == "phase6" for ep in importlib.metadata.entry_points(group="pytest11"))


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory that makes the checkout look installed: a dist-info with the entry point."""
    directory = tmp_path_factory.mktemp("site")
    if not _installed():
        info = directory / "adamos_phase6_conformance-1.0.0.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(
            "Metadata-Version: 2.1\nName: adamos-phase6-conformance\nVersion: 1.0.0\n", "utf-8"
        )
        (info / "entry_points.txt").write_text(
            "[pytest11]\nphase6 = conformance.pytest_plugin\n", "utf-8"
        )
    return directory


def run_pytest(project: Path, site: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run pytest in ``project`` as an implementer would; the completed process."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "PHASE6_"))}
    env["PYTHONPATH"] = os.pathsep.join([str(site), str(ROOT), str(project)])
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def collected_ids(done: subprocess.CompletedProcess[str]) -> list[str]:
    """The item names a ``--collect-only -q`` run listed (``phase6/<area>::<name>`` lines)."""
    prefix = "phase6/"
    return [line.partition("::")[2] for line in done.stdout.splitlines() if line.startswith(prefix)]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """An empty project directory (no tests, no configuration)."""
    directory = tmp_path / "implementer-project"
    directory.mkdir()
    return directory


@pytest.mark.slow  # runs pytest in a subprocess per test
class TestPluginItems:
    """`pytest --phase6-adapter SPEC` turns every vector and property into a pytest item whose
    test ID is the vector ID (or property:<family>)."""

    def test_vectors_and_properties_run(self, project: Path, site: Path) -> None:
        """A -k subset of vectors and one property family pass against the reference."""
        done = run_pytest(
            project,
            site,
            "--phase6-adapter",
            REFERENCE,
            "-k",
            f"{PACKAGE_VECTOR.id} or {ERROR_VECTOR.id} or property:budget",
            "--strict-markers",
            "-v",
        )
        assert done.returncode == 0, done.stdout + done.stderr
        assert f"{PACKAGE_VECTOR.id} PASSED" in done.stdout
        assert f"{ERROR_VECTOR.id} PASSED" in done.stdout
        assert "property:budget PASSED" in done.stdout
        assert "phase6: adapter python:reference:memory_read" in done.stdout

    def test_clause_markers(self, project: Path, site: Path) -> None:
        """-m clause_<ID> and level_<level> select; markers are registered (--strict-markers)."""
        clause = PACKAGE_VECTOR.clauses[0]
        expected = [
            v.id for v in CORPUS.vectors if clause in v.clauses and v.level == PACKAGE_VECTOR.level
        ]
        done = run_pytest(
            project,
            site,
            "--phase6-adapter",
            REFERENCE,
            "--phase6-no-properties",
            "-m",
            f"{marker_name('clause', clause)} and {marker_name('level', PACKAGE_VECTOR.level)}",
            "--strict-markers",
            "--collect-only",
            "-q",
        )
        assert done.returncode == 0, done.stdout + done.stderr
        assert sorted(collected_ids(done)) == sorted(expected)

    def test_select_option(self, project: Path, site: Path) -> None:
        """--phase6-select uses certify's --select syntax (here: an area)."""
        done = run_pytest(
            project,
            site,
            "--phase6-adapter",
            REFERENCE,
            "--phase6-no-properties",
            "--phase6-select",
            "area:package",
            "--collect-only",
            "-q",
        )
        assert done.returncode == 0, done.stdout + done.stderr
        expected = [v.id for v in CORPUS.vectors if v.area == "package"]
        assert sorted(collected_ids(done)) == sorted(expected)

    def test_inert_without_adapter(self, project: Path, site: Path) -> None:
        """Without --phase6-adapter the plugin adds no item and no marker."""
        (project / "test_own.py").write_text("def test_own():\n    assert True\n", "utf-8")
        done = run_pytest(project, site, "-q", "--strict-markers")
        assert done.returncode == 0, done.stdout + done.stderr
        assert "1 passed" in done.stdout
        markers = run_pytest(project, site, "--markers")
        assert "clause_S6_" not in markers.stdout
        usage = run_pytest(project, site, "--help")
        assert "--phase6-adapter" in usage.stdout  # loaded through the entry point, but idle


@pytest.mark.slow  # runs pytest in a subprocess per test
class TestExpectedFailures:
    """--phase6-expected-failures FILE: listed items are xfail(strict=True) with the file's
    reason; a listed item that passes is reported as a failure (an unexpected pass)."""

    def test_xfail_and_unexpected_pass(self, project: Path, site: Path) -> None:
        """A broken vector listed is xfailed; a listed vector that passes fails the run."""
        (project / "impl.py").write_text(BROKEN_IMPL, "utf-8")
        (project / "known.txt").write_text(
            "# our known failures\n"
            f"{PACKAGE_VECTOR.id}  # package_hash: canonical JSON not done yet\n"
            f"{ERROR_VECTOR.id}  # believed broken, actually fine\n",
            "utf-8",
        )
        done = run_pytest(
            project,
            site,
            "--phase6-adapter",
            "python:impl:memory_read",
            "--phase6-no-properties",
            "--phase6-expected-failures",
            "known.txt",
            "--phase6-select",
            f"id:{PACKAGE_VECTOR.id}",
            "--phase6-select",
            f"id:{ERROR_VECTOR.id}",
            "-rxX",
        )
        assert done.returncode == 1, done.stdout + done.stderr
        assert "1 failed" in done.stdout
        assert "1 xfailed" in done.stdout
        assert "canonical JSON not done yet" in done.stdout
        assert "XPASS(strict)" in done.stdout
        assert "believed broken, actually fine" in done.stdout

    def test_unlisted_failure_shows_the_difference(self, project: Path, site: Path) -> None:
        """An unlisted failing vector fails with the first differing JSON Pointer."""
        (project / "impl.py").write_text(BROKEN_IMPL, "utf-8")
        done = run_pytest(
            project,
            site,
            "--phase6-adapter",
            "python:impl:memory_read",
            "--phase6-no-properties",
            "--phase6-select",
            f"id:{PACKAGE_VECTOR.id}",
        )
        assert done.returncode == 1, done.stdout + done.stderr
        assert "/package/package_hash" in done.stdout

    def test_property_failure_carries_a_counterexample(self, project: Path, site: Path) -> None:
        """A failing property item prints its shrunk counterexample as a vector."""
        (project / "impl.py").write_text(BROKEN_IMPL, "utf-8")
        done = run_pytest(
            project,
            site,
            "--phase6-adapter",
            "python:impl:memory_read",
            "--phase6-no-vectors",
            "-k",
            "property:hashes",
        )
        assert done.returncode == 1, done.stdout + done.stderr
        assert "property:hashes failed" in done.stdout
        assert "counterexample vector prop-hashes-" in done.stdout


@pytest.mark.slow  # runs pytest in a subprocess per test
class TestAddressing:
    """Items have node IDs ``phase6/<area>::<ID>`` that can be named like test files, a whole
    item name in ``-k`` selects that item only, and junit classnames name the area."""

    def test_keyword_whole_name_is_exact(self, project: Path, site: Path) -> None:
        """-k with a whole vector ID selects that vector, not those whose IDs it begins."""
        done = run_pytest(
            project, site, "--phase6-adapter", REFERENCE, "-k", PREFIX_VECTOR.id,
            "--collect-only", "-q",
        )  # fmt: skip
        assert done.returncode == 0, done.stdout + done.stderr
        assert collected_ids(done) == [PREFIX_VECTOR.id]

    def test_keyword_substrings_and_negation(self, project: Path, site: Path) -> None:
        """A partial ID still matches as a substring, and `not <whole ID>` drops only that item."""
        longer = sorted(
            v.id
            for v in CORPUS.vectors
            if v.id.startswith(PREFIX_VECTOR.id) and v.id != PREFIX_VECTOR.id
        )
        done = run_pytest(
            project, site, "--phase6-adapter", REFERENCE, "--phase6-no-properties",
            "-k", f"{PREFIX_VECTOR.id[:-1]} and not {PREFIX_VECTOR.id}", "--collect-only", "-q",
        )  # fmt: skip
        assert done.returncode == 0, done.stdout + done.stderr
        got = collected_ids(done)
        assert PREFIX_VECTOR.id not in got
        assert set(longer) <= set(got)

    @pytest.mark.parametrize(
        "argument",
        [node_id(PACKAGE_VECTOR.area, PACKAGE_VECTOR.id), f"phase6::{PACKAGE_VECTOR.id}"],
    )
    def test_node_id_argument(self, project: Path, site: Path, argument: str) -> None:
        """A node ID (with or without the area) runs exactly that vector."""
        done = run_pytest(project, site, "--phase6-adapter", REFERENCE, argument, "-v")
        assert done.returncode == 0, done.stdout + done.stderr
        assert f"{node_id(PACKAGE_VECTOR.area, PACKAGE_VECTOR.id)} PASSED" in done.stdout
        assert "1 passed" in done.stdout

    def test_area_argument(self, project: Path, site: Path) -> None:
        """`phase6/<area>` collects that area's vectors and nothing else."""
        done = run_pytest(
            project, site, "--phase6-adapter", REFERENCE, f"phase6/{HASHED_AREA}",
            "--collect-only", "-q",
        )  # fmt: skip
        assert done.returncode == 0, done.stdout + done.stderr
        expected = [v.id for v in CORPUS.vectors if v.area == HASHED_AREA]
        assert sorted(collected_ids(done)) == sorted(expected)

    def test_unknown_address_is_a_usage_error(self, project: Path, site: Path) -> None:
        """An address naming no vector is a usage error (exit 4), not an empty green run."""
        done = run_pytest(project, site, "--phase6-adapter", REFERENCE, "phase6::no-such-vector")
        assert done.returncode == pytest.ExitCode.USAGE_ERROR, done.stdout + done.stderr
        assert "phase6::no-such-vector" in done.stderr

    def test_own_file_alone(self, project: Path, site: Path) -> None:
        """Naming one's own test file runs that file, not the 1,899 vectors beside it."""
        (project / "test_own.py").write_text("def test_own():\n    assert True\n", "utf-8")
        done = run_pytest(project, site, "test_own.py", "--phase6-adapter", REFERENCE, "-q")
        assert done.returncode == 0, done.stdout + done.stderr
        assert "1 passed" in done.stdout

    def test_own_file_and_an_area(self, project: Path, site: Path) -> None:
        """An own file and a phase6 address run side by side."""
        (project / "test_own.py").write_text("def test_own():\n    assert True\n", "utf-8")
        done = run_pytest(
            project, site, "test_own.py", f"phase6/{HASHED_AREA}", "--phase6-adapter", REFERENCE,
            "--collect-only", "-q",
        )  # fmt: skip
        assert done.returncode == 0, done.stdout + done.stderr
        assert "test_own.py::test_own" in done.stdout
        assert len(collected_ids(done)) == sum(v.area == HASHED_AREA for v in CORPUS.vectors)

    def test_junit_classname_is_the_area(self, project: Path, site: Path) -> None:
        """Every junit testcase has the classname phase6.<area> (properties: phase6.properties)."""
        junit = project / "junit.xml"
        vector = node_id(PACKAGE_VECTOR.area, PACKAGE_VECTOR.id)
        done = run_pytest(
            project, site, "--phase6-adapter", REFERENCE, vector,
            "phase6/properties::property:budget", f"--junitxml={junit}",
        )  # fmt: skip
        assert done.returncode == 0, done.stdout + done.stderr
        cases = {c.get("name"): c.get("classname") for c in ET.parse(junit).iter("testcase")}
        assert cases == {
            PACKAGE_VECTOR.id: f"phase6.{PACKAGE_VECTOR.area}",
            "property:budget": "phase6.properties",
        }


@pytest.mark.slow  # runs pytest in a subprocess per test
class TestEndOfRun:
    """What the plugin adds at the end of a run: failures grouped by signature, and a stale
    expected-failure list failing the run."""

    def test_failures_grouped_by_signature(self, project: Path, site: Path) -> None:
        """One bug breaking every vector of an area is one signature line with its count."""
        (project / "impl.py").write_text(BROKEN_IMPL, "utf-8")
        done = run_pytest(
            project, site, "--phase6-adapter", "python:impl:memory_read", f"phase6/{HASHED_AREA}",
        )  # fmt: skip
        count = sum(v.area == HASHED_AREA for v in CORPUS.vectors)
        assert done.returncode == 1, done.stdout + done.stderr
        assert f"phase6 failures by signature: {count} vectors, 1 signature(s)" in done.stdout
        assert f"{count} x mismatch /package/package_hash: value" in done.stdout
        assert (
            f"rerun:   pytest --phase6-adapter python:impl:memory_read phase6/{HASHED_AREA}::"
            in done.stdout
        )

    def test_stale_entry_fails_a_green_run(self, project: Path, site: Path) -> None:
        """An entry matching no vector or property fails a run in which every item passed."""
        (project / "known.txt").write_text("no-such-vector-*  # fixed long ago\n", "utf-8")
        done = run_pytest(
            project, site, "--phase6-adapter", REFERENCE, "--phase6-expected-failures", "known.txt",
            node_id(PACKAGE_VECTOR.area, PACKAGE_VECTOR.id),
        )  # fmt: skip
        assert done.returncode == 1, done.stdout + done.stderr
        assert "1 passed" in done.stdout
        assert "stale expected-failure entry (line 1): 'no-such-vector-*'" in done.stdout

    def test_listed_vector_that_passes_fails_the_run(self, project: Path, site: Path) -> None:
        """A listed vector that passes is an unexpected pass: the run exits 1."""
        (project / "known.txt").write_text(f"{PACKAGE_VECTOR.id}  # thought broken\n", "utf-8")
        done = run_pytest(
            project, site, "--phase6-adapter", REFERENCE, "--phase6-expected-failures", "known.txt",
            node_id(PACKAGE_VECTOR.area, PACKAGE_VECTOR.id), "-rX",
        )  # fmt: skip
        assert done.returncode == 1, done.stdout + done.stderr
        assert "XPASS(strict)" in done.stdout
