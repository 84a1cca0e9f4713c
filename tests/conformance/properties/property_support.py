"""Shared settings and helpers for the kit's own property tests (packaging's tests/property).

``KIT_SETTINGS`` is the one hypothesis configuration these tests use: derandomized (the same
examples on every run), no example database, no deadline (the reference runs in-process and
the first call imports it).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, settings

from conformance.strategies import Scenario

__all__ = ["FAKES_DIR", "KIT_SETTINGS", "REFERENCE", "ROOT", "reference_result", "written"]

KIT_SETTINGS = settings(
    max_examples=40,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
from paths import REPO as ROOT  # noqa: E402

FAKES_DIR = Path(__file__).resolve().parent
REFERENCE = "python:reference:memory_read"


@contextmanager
def written(scenario: Scenario, root: Path) -> Iterator[Path]:
    """Materialize ``scenario`` under ``root`` and make it the working directory."""
    scenario.write(root)
    old = os.getcwd()
    os.chdir(root)
    try:
        yield root
    finally:
        os.chdir(old)


def reference_result(scenario: Scenario, root: Path) -> Any:
    """The reference's result envelope for ``scenario`` materialized under ``root``."""
    from reference import memory_read

    with written(scenario, root):
        return memory_read(scenario.request)
