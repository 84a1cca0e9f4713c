"""The wheel is the product: the harness, the reference, the specs and the vectors, nothing else."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from paths import REPO


@pytest.fixture(scope="module")
def wheel_names(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """The file names inside a wheel built from this checkout (``pip wheel .``)."""
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(REPO)],
        check=True,
        capture_output=True,
    )
    (wheel,) = out.glob("*.whl")
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
