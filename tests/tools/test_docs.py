"""The documentation site (tools/docs.py, `nox -s docs`): it builds in strict mode, every nav page
is there, nothing carries the builder's paths, links point into the site, and a broken link
fails the build."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tools import docs

try:
    import mkdocs  # noqa: F401  (the site's builder: dependency group `docs`, in `test`)
except ImportError:  # pragma: no cover - the test group installs it
    if os.environ.get("CI"):
        pytest.fail("mkdocs is not installed: the `test` group includes `docs`", pytrace=False)
    pytest.skip(
        "mkdocs is not installed (dependency group `docs`; `nox -s tests` installs it)",
        allow_module_level=True,
    )


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site built from this repository into a fresh directory."""
    out = tmp_path_factory.mktemp("docs") / "site"
    assert docs.build(out) == len(docs.PAGES)
    return out


def copy_sources(root: Path) -> None:
    """What the site is built from, copied into ``root``."""
    for page in docs.PAGES:
        if not page.source.endswith("/"):
            (root / page.source).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(docs.ROOT / page.source, root / page.source)
    shutil.copytree(docs.ROOT / "specs" / "schemas", root / "specs" / "schemas")


def html(page: docs.Page) -> str:
    return page.path.removesuffix(".md") + ".html"


class TestBuild:
    def test_home_and_registers(self, site: Path) -> None:
        """The README is the home page; the interpretation and clause registers are pages."""
        home = (site / "index.html").read_text("utf-8")
        assert "phase6-v1 conformance kit" in home
        assert 'href="specs/interpretations.html"' in home
        assert "INT-01" in (site / "specs" / "interpretations.html").read_text("utf-8")
        assert "S6-TRUNC-07" in (site / "specs" / "clauses.html").read_text("utf-8")
        assert "P2-INT-01" in (site / "specs/phase2/interpretations.html").read_text("utf-8")

    def test_every_nav_page_exists(self, site: Path) -> None:
        """Every page of the nav is built, and the home page's nav links to each."""
        home = (site / "index.html").read_text("utf-8")
        for page in docs.PAGES:
            assert (site / html(page)).is_file(), page
            assert f'href="{html(page)}"' in home or page.path == "index.md", page

    def test_specs_index_names_every_spec_document(self, site: Path) -> None:
        """Every specs/*.md and specs/phase2/*.md has a page, listed in the specs index."""
        index = (site / "specs" / "index.html").read_text("utf-8")
        sources = {page.source for page in docs.PAGES}
        for path in sorted([*docs.ROOT.glob("specs/*.md"), *docs.ROOT.glob("specs/phase2/*.md")]):
            source = path.relative_to(docs.ROOT).as_posix()
            assert source in sources, f"{source} has no page in tools/docs.py PAGES"
            assert f"<code>{source}</code>" in index

    def test_schemas_are_listed_and_served(self, site: Path) -> None:
        """Every JSON Schema is copied into the site and linked from the schemas page."""
        listing = (site / "specs" / "schemas" / "index.html").read_text("utf-8")
        for path in docs.schema_files(docs.ROOT):
            assert (site / path).is_file()
            assert path.removeprefix("specs/schemas/") in listing

    def test_no_builder_paths(self, site: Path) -> None:
        """No file of the site carries the output, the scratch docs tree or the checkout path."""
        marks = [str(site.parent), "phase6-docs-", str(docs.ROOT)]
        for path in site.rglob("*"):
            if path.is_file() and path.suffix in {".html", ".json", ".xml", ".js"}:
                text = path.read_text("utf-8")
                assert not [mark for mark in marks if mark in text], path

    def test_a_broken_link_fails_the_build(self, tmp_path: Path) -> None:
        """A relative link to a file the repository lacks fails the build (strict)."""
        root = tmp_path / "repo"
        copy_sources(root)
        with (root / "CONTRIBUTING.md").open("a", encoding="utf-8") as page:
            page.write("\nSee [the missing page](specs/no-such-page.md).\n")
        with pytest.raises(docs.DocsError, match=r"(?s)strict mode.*no-such-page\.md"):
            docs.build(tmp_path / "site", root)

    def test_a_broken_anchor_fails_the_build(self, tmp_path: Path) -> None:
        """A link to a heading a page does not have fails the build (strict)."""
        root = tmp_path / "repo"
        copy_sources(root)
        with (root / "CONTRIBUTING.md").open("a", encoding="utf-8") as page:
            page.write("\nSee [INT-99](specs/interpretations.md#int-99).\n")
        with pytest.raises(docs.DocsError, match=r"(?s)strict mode.*int-99"):
            docs.build(tmp_path / "site", root)

    def test_refuses_an_output_directory_that_is_not_a_site(self, tmp_path: Path) -> None:
        """MkDocs empties its output first: a directory holding something else is refused."""
        (tmp_path / "keep.txt").write_text("mine", "utf-8")
        with pytest.raises(docs.DocsError, match="not a built site"):
            docs.build(tmp_path)
        assert (tmp_path / "keep.txt").is_file()


PAGE = next(page for page in docs.PAGES if page.source == "CONTRIBUTING.md")
EXAMPLE = next(page for page in docs.PAGES if page.path == "examples/javascript.md")


class TestRewriteLinks:
    @pytest.mark.parametrize(
        ("page", "text", "expected"),
        [
            (PAGE, "[audit](specs/audit.md#x)", "[audit](specs/audit.md#x)"),
            (PAGE, "[home](README.md)", "[home](index.md)"),
            (PAGE, "[reports](reports/README.md)", "[reports](reports.md)"),
            (EXAMPLE, "[errors](../../../specs/errors.md)", "[errors](../specs/errors.md)"),
            (PAGE, "[the tool](tools/docs.py)", "the tool (`tools/docs.py`)"),
            (PAGE, "[`tools/docs.py`](tools/docs.py)", "`tools/docs.py`"),
            (PAGE, "[gone](specs/gone.md)", "[gone](specs/gone.md)"),
            (PAGE, "[shared](../shared/STYLE.md)", "shared (`../shared/STYLE.md`)"),
            (PAGE, "see `specs/protocol.md`", "see [`specs/protocol.md`](specs/protocol.md)"),
            (PAGE, "`specs/clauses.toml`", "[`specs/clauses.toml`](specs/clauses.md)"),
            (EXAMPLE, "`specs/errors.md`", "[`specs/errors.md`](../specs/errors.md)"),
            (PAGE, "`CONTRIBUTING.md` itself", "`CONTRIBUTING.md` itself"),
            (PAGE, "`conformance/run/`", "`conformance/run/`"),
            (PAGE, "[KaC](https://keepachangelog.com/)", "[KaC](https://keepachangelog.com/)"),
            (PAGE, "[below](#the-packages)", "[below](#the-packages)"),
            (PAGE, "```sh\n`specs/errors.md` [x](README.md)\n```", None),
        ],
    )
    def test_rewrite(self, page: docs.Page, text: str, expected: str | None) -> None:
        """Links to pages point at the page; links to other files become text; repository
        paths in backquotes link their page; links to missing files, external links, anchors
        and fenced code stay as written."""
        rewritten = docs.rewrite_links(text, page, docs.page_map(), docs.schema_files(docs.ROOT))
        assert rewritten == (text if expected is None else expected) + "\n"
