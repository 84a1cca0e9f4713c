"""Shared fixtures for the syrupy snapshot tests (JSON snapshots under ``__snapshots__/``).

A mismatch, a missing snapshot or an unused one fails the run; ``nox -s snapshots -- --update``
is the only way to rewrite them (see ``noxfile.py``).
"""

from __future__ import annotations

import pytest
from syrupy.assertion import SnapshotAssertion
from syrupy.extensions.json import JSONSnapshotExtension


@pytest.fixture
def snapshot_json(snapshot: SnapshotAssertion) -> SnapshotAssertion:
    """Snapshots stored as one pretty JSON file each (reviewable diffs)."""
    return snapshot.use_extension(JSONSnapshotExtension)
