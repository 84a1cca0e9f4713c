"""The tests' one conftest: the slow suite's schedule (its longest files first), the session's
own validation cache and the snapshot tests' fixture.

``nox -s slow_tests`` runs ``pytest -m slow -n 2 --dist loadfile --no-loadscope-reorder``: each
file goes whole to one worker (its module fixtures are made once) and files go out in
collection order as workers free up. Without this order a long file collected late starts when
the other worker has little left and runs alone at the end; with the longest first, the short
files fill in while they run and both workers finish together.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from syrupy.assertion import SnapshotAssertion
from syrupy.extensions.json import JSONSnapshotExtension

from conformance._schemas import CACHE_ENV

#: The slow suite's longest files (whole certifications in their fixtures or tests), longest
#: first; every other file keeps its collection order after them.
LONGEST_FIRST = (
    "tests/conformance/cli/test_strangers_one_reading.py",
    "tests/conformance/phase2/test_certify.py",
    "tests/conformance/cli/test_strangers.py",
    "tests/conformance/phase2/test_attribution.py",
    "tests/conformance/examples/test_recipes_clean.py",
    "tests/tools/test_oracle_readings.py",
    "tests/conformance/site/test_site.py",
    "tests/conformance/test_plugin.py",
    "tests/conformance/properties/test_properties_catch_fakes.py",
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """In the slow suite (``-m slow``), the files of :data:`LONGEST_FIRST` first, in its order
    (a stable sort: the tests of a file keep theirs)."""
    if config.getoption("markexpr") != "slow":
        return
    rank = {path: index for index, path in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.partition("::")[0], len(rank)))


@pytest.fixture(scope="session", autouse=True)
def validation_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The session's (each worker's) own cache of validated corpus files, under its temporary
    directory (inherited by the certifications it starts): the corpus is validated once per
    worker, not once per certification, and nothing is written to the user's cache (a
    ``PHASE6_CACHE_DIR`` already set, e.g. empty for no cache, is kept)."""
    if CACHE_ENV in os.environ:
        yield
        return
    os.environ[CACHE_ENV] = str(tmp_path_factory.mktemp("phase6-cache"))
    yield
    del os.environ[CACHE_ENV]


@pytest.fixture
def snapshot_json(snapshot: SnapshotAssertion) -> SnapshotAssertion:
    """Syrupy snapshots (tests/snapshots/) stored as one pretty JSON file each (reviewable
    diffs). A mismatch, a missing snapshot or an unused one fails the run; ``nox -s snapshots
    -- --update`` is the only way to rewrite them (see ``noxfile.py``)."""
    return snapshot.use_extension(JSONSnapshotExtension)
