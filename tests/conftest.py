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
import shutil
import tempfile

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


#: The validation cache directory this process made (and removes at the end), if it made one.
_OWN_CACHE = pytest.StashKey[str]()


def pytest_configure(config: pytest.Config) -> None:
    """The session's own cache of validated corpus files (``PHASE6_CACHE_DIR``), a temporary
    directory made before collection (modules that load the corpus at import use it too) and
    inherited by the xdist workers and every certification started: the corpus is validated
    once per session, not once per certification, and nothing goes to the user's cache. A
    ``PHASE6_CACHE_DIR`` already set (e.g. empty: no cache) is kept."""
    if CACHE_ENV not in os.environ:
        directory = tempfile.mkdtemp(prefix="phase6-validated-")
        os.environ[CACHE_ENV] = config.stash[_OWN_CACHE] = directory


def pytest_unconfigure(config: pytest.Config) -> None:
    """Remove the cache :func:`pytest_configure` made."""
    directory = config.stash.get(_OWN_CACHE, None)
    if directory is not None:
        shutil.rmtree(directory, ignore_errors=True)
        os.environ.pop(CACHE_ENV, None)


@pytest.fixture
def snapshot_json(snapshot: SnapshotAssertion) -> SnapshotAssertion:
    """Syrupy snapshots (tests/snapshots/) stored as one pretty JSON file each (reviewable
    diffs). A mismatch, a missing snapshot or an unused one fails the run; ``nox -s snapshots
    -- --update`` is the only way to rewrite them (see ``noxfile.py``)."""
    return snapshot.use_extension(JSONSnapshotExtension)
