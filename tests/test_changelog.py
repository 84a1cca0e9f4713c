"""CHANGELOG.md, pyproject.toml's version and the release tags agree (issue 23)."""

from __future__ import annotations

import re
import subprocess
import tomllib

import pytest
from paths import REPO

#: A released version's heading: ``## [1.1.0] - 2026-11-24``.
RELEASE = re.compile(r"^## \[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2})$", re.M)


def _releases() -> list[tuple[str, str]]:
    """(version, date) of every released version in CHANGELOG.md, newest first."""
    return RELEASE.findall((REPO / "CHANGELOG.md").read_text("utf-8"))


def _git(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", *argv], cwd=REPO, capture_output=True, text=True, check=False, timeout=60
    )


def test_unreleased_first_then_releases_newest_first() -> None:
    """The changelog opens with [Unreleased], then the releases in descending version order."""
    text = (REPO / "CHANGELOG.md").read_text("utf-8")
    headings = re.findall(r"^## \[([^\]]+)\]", text, re.M)
    assert headings[0] == "Unreleased"
    versions = [tuple(int(part) for part in v.split(".")) for v, _ in _releases()]
    assert versions == sorted(versions, reverse=True)
    assert len(versions) == len(headings) - 1  # every other heading is a dated release


def test_pyproject_version_is_the_newest_release() -> None:
    """pyproject.toml's version is the newest released version of the changelog."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))["project"]
    assert project["version"] == _releases()[0][0]


def test_every_release_is_tagged_at_the_commit_that_set_it() -> None:
    """Each released version has an annotated tag vX.Y.Z whose commit sets that version in
    pyproject.toml (skips, saying why, in a checkout that carries no tags at all)."""
    if _git("rev-parse", "--git-dir").returncode != 0:
        pytest.skip("not a git checkout: no tags to check")
    tags = _git("tag", "--list", "v*").stdout.split()
    if not tags:
        pytest.skip("this checkout carries no tags (a clone of a branch without --tags)")
    for version, _ in _releases():
        tag = f"v{version}"
        assert tag in tags, f"CHANGELOG releases {version} but git has no tag {tag}"
        assert _git("cat-file", "-t", tag).stdout.strip() == "tag", f"{tag} is not annotated"
        at_tag = _git("show", f"{tag}:pyproject.toml").stdout
        assert re.search(rf'^version = "{re.escape(version)}"$', at_tag, re.M), tag
        parent = _git("show", f"{tag}^:pyproject.toml").stdout
        assert not re.search(rf'^version = "{re.escape(version)}"$', parent, re.M), (
            f"{tag} is not the commit that set version {version}"
        )
