"""The interoperability site (``phase6 site``): grouping runs into versions, escaping, the
readings matrix, the JSON API against its schema and read back into the implementations table,
every link of every page resolving, and the history of two versions."""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import pytest
from headless import CHROMIUM, NOT_INSTALLED, chromium
from paths import REPO
from site_build import NODE, OTHERS, STRANGERS, VERSIONS, CertifiedSite, certify_and_build

from conformance._schemas import schema_errors
from conformance.site import (
    IMPLEMENTATION_SCHEMA,
    IMPLEMENTATIONS_SCHEMA,
    PAGES,
    PROFILES,
    TABLE_COLUMNS,
    Implementation,
    Run,
    group_runs,
    implementation_document,
    implementations_document,
    load_registers,
    reading_cells,
)
from conformance.site._pages import render_history, render_implementations, render_readings
from conformance.site._vectors import vector_script


def run(name: str = "impl", version: str = "1.0.0", date: str = "2026-01-01", **fields: Any) -> Run:
    """A run with everything the pages read, defaults for the rest."""
    values: dict[str, Any] = {
        "name": name,
        "version": version,
        "language": "python",
        "contract": "phase6-v1",
        "date": date,
        "verdict": "compliant",
        "verdict_text": "compliant",
        "partial": (),
        "kit_version": "1.1.0",
        "corpus_digest": "sha256:" + "ab" * 32,
        "totals": {"total": 2, "passed": 2, "failed": 0, "errored": 0, "skipped": 0},
        "profile": (),
        "declared": None,
        "contradictions": (),
        "unexplained": (),
        "by_clause": {},
        "by_interpretation": {},
        "outcomes": {"v1": "passed", "v2": "passed"},
        "not_passed": {},
        "badge": ("phase6-v1", "compliant", "#2e8540"),
        "badge_svg": "<svg/>",
        "source": Path("report.json"),
        "report_href": "reports/x.html",
        "digest": "sha256:" + "0" * 64,
    }
    values.update(fields)
    return Run(**values)


def digest(n: int) -> str:
    """A distinct report digest per ``n``, ordered as ``n``."""
    return f"sha256:{n:064x}"


PARTIAL = ("5 of 1904 vectors selected (area:package)",)


class TestGrouping:
    """Runs become implementations with one run per version."""

    def test_versions_oldest_first(self) -> None:
        """Versions of one date are ordered naturally: 1.10 after 1.9."""
        (implementation,) = group_runs([run(version="1.10"), run(version="1.9")])["phase6-v1"]
        assert [r.version for r in implementation.runs] == ["1.9", "1.10"]
        assert implementation.latest.version == "1.10"

    def test_same_version_later_report_counts(self) -> None:
        """Of two reports of one version, equally complete, the later one is kept and the other
        is listed as set aside, whatever order they are read in."""
        old = run(date="2026-01-01", verdict="non-compliant", digest=digest(2))
        new = run(date="2026-02-01", digest=digest(1))
        for order in ([new, old], [old, new]):
            (implementation,) = group_runs(order)["phase6-v1"]
            assert implementation.runs == (new,)
            assert [a.run for a in implementation.set_aside] == [old]
            assert "earlier run" in implementation.set_aside[0].reason

    def test_full_run_kept_over_later_partial(self) -> None:
        """A full run of a version is kept over a later partial run of it, in either order."""
        full = run(date="2026-01-01", digest=digest(1))
        partial = run(date="2026-03-01", partial=PARTIAL, digest=digest(2))
        for order in ([full, partial], [partial, full]):
            (implementation,) = group_runs(order)["phase6-v1"]
            assert implementation.runs == (full,)
            (aside,) = implementation.set_aside
            assert (aside.run, aside.kept) == (partial, full)
            assert "partial run" in aside.reason
            assert PARTIAL[0] in aside.reason

    def test_exact_tie_does_not_depend_on_order(self) -> None:
        """Reports of one version, equally complete and of one date, keep the same one (the
        greatest digest) whatever order they are read in."""
        tied = [run(digest=digest(n), verdict=v) for n, v in ((3, "compliant"), (1, "x"), (2, "y"))]
        for order in (tied, tied[::-1], tied[1:] + tied[:1]):
            (implementation,) = group_runs(order)["phase6-v1"]
            assert implementation.runs == (tied[0],)
            assert [a.run.digest for a in implementation.set_aside] == [digest(1), digest(2)]
            assert all("same date" in a.reason for a in implementation.set_aside)

    def test_same_report_twice(self) -> None:
        """A report read twice (a copy in a collection) is set aside as the same report; the
        copy kept is the same in either order (the path sorting last)."""
        one, copy = run(digest=digest(7), source=Path("a")), run(digest=digest(7), source=Path("b"))
        for order in ([one, copy], [copy, one]):
            (implementation,) = group_runs(order)["phase6-v1"]
            assert implementation.runs == (copy,)
            (aside,) = implementation.set_aside
            assert aside.run == one
            assert "same report" in aside.reason

    def test_keys_are_unique_slugs(self) -> None:
        """Two names with one slug get two keys, each a file-name slug."""
        groups = group_runs([run(name="A b"), run(name="a-b")])["phase6-v1"]
        keys = [i.key for i in groups]
        assert len(set(keys)) == 2
        assert all(re.fullmatch(r"[a-z0-9._-]+", k) for k in keys)


class TestEscaping:
    """Every string an implementation supplied is escaped."""

    HOSTILE = '<script>alert("x")</script>\u2028'

    def test_pages_escape_names(self) -> None:
        """An implementation's name and version never reach a page as markup."""
        groups = group_runs([run(name=self.HOSTILE, version=self.HOSTILE)])["phase6-v1"]
        registers = load_registers(PROFILES[0])
        for page in (
            render_implementations(PROFILES[0], groups, PROFILES[:1]),
            render_readings(PROFILES[0], registers, groups, PROFILES[:1]),
        ):
            assert "<script>alert" not in page
            assert "&lt;script&gt;alert" in page

    def test_partial_reasons_and_set_aside_escaped(self) -> None:
        """A partial run's reasons and a set-aside report's version reach no page as markup."""
        hostile = (self.HOSTILE,)
        groups = group_runs(
            [
                run(version=self.HOSTILE, partial=hostile, digest=digest(2)),
                run(version=self.HOSTILE, partial=hostile, digest=digest(1)),
            ]
        )["phase6-v1"]
        assert groups[0].set_aside
        listing = render_implementations(PROFILES[0], groups, PROFILES[:1])
        assert f'<a href="history.html#{groups[0].key}">impl</a> (1)' in listing
        for page in (
            render_implementations(PROFILES[0], groups, PROFILES[:1]),
            render_history(PROFILES[0], groups, PROFILES[:1]),
        ):
            assert "<script>alert" not in page
            assert "&lt;script&gt;alert" in page

    def test_data_file_has_no_markup(self) -> None:
        """A drill-down data file holds no ``<`` at all (no ``</script>``), and no raw U+2028."""
        failures = [{"kind": "mismatch", "message": self.HOSTILE, "diff": "</script>"}]
        hostile = run(
            name=self.HOSTILE,
            outcomes={"v1": "failed"},
            not_passed={"v1": {"id": "v1", "outcome": "failed", "failures": failures}},
        )
        (implementation,) = group_runs([hostile])["phase6-v1"]
        script = vector_script("v1", None, [implementation])
        assert "<" not in script
        assert "\u2028" not in script


class TestPartialRuns:
    """A partial run's verdict is marked as such, with its reasons, wherever a verdict shows."""

    def test_implementations_cell_says_partial(self) -> None:
        """The implementations page's verdict cell says partial run and why, not just the
        verdict; a full run's cell is the verdict alone."""
        groups = group_runs([run(name="p", partial=PARTIAL), run(name="f")])["phase6-v1"]
        page = render_implementations(PROFILES[0], groups, PROFILES[:1])
        cells = {row[0]: row[TABLE_COLUMNS.index("verdict")] for row in parse_text(page).rows[1:]}
        assert cells["p"] == f"partial run: compliant on what ran ({PARTIAL[0]})"
        assert cells["f"] == "compliant"

    def test_history_says_partial(self) -> None:
        """The history table's verdict cell and the chart point's title say partial run."""
        groups = group_runs([run(partial=PARTIAL)])["phase6-v1"]
        page = render_history(PROFILES[0], groups, PROFILES[:1])
        assert f"<strong>partial run</strong>: compliant on what ran <small>({PARTIAL[0]})" in page
        assert "<title>1.0.0: partial run, compliant," in page

    def test_api_has_partial_and_set_aside(self) -> None:
        """The listing and the implementation's file say partial with the reasons, and list the
        report set aside, each valid against its schema."""
        kept = run(partial=PARTIAL, digest=digest(2))
        aside = run(partial=PARTIAL, date="2025-12-01", digest=digest(1))
        groups = group_runs([kept, aside])
        listing = implementations_document(groups, "2026-01-01T00:00:00Z", "1.1.0")
        assert schema_errors(IMPLEMENTATIONS_SCHEMA, listing) == []
        assert listing["implementations"][0]["partial"] == list(PARTIAL)
        document = implementation_document("phase6-v1", groups["phase6-v1"][0])
        assert schema_errors(IMPLEMENTATION_SCHEMA, document) == []
        assert document["versions"][0]["partial"] == list(PARTIAL)
        assert [(a["digest"], a["kept"]) for a in document["set_aside"]] == [(digest(1), digest(2))]


class TestReadingCells:
    """A cell says the alternative followed, else pinned with the unexplained failures."""

    def test_follows_alternative(self) -> None:
        """An implementation whose profile names INT-27's alternative shows it."""
        entry = next(e for e in load_registers(PROFILES[0]).entries if e.id == "INT-27")
        followed = Implementation("a", "a", (run(profile=("INT-27/budget-exhausted",)),))
        pinned = Implementation("b", "b", (run(name="b"),))
        cells = reading_cells(entry, [followed, pinned])
        assert [c.readings for c in cells] == [("INT-27/budget-exhausted",), ("pinned",)]

    def test_follows_a_parameterized_alternative(self) -> None:
        """A profile naming INT-28's first N drops with its value shows it, value included,
        in INT-28's row and in no other."""
        entries = {e.id: e for e in load_registers(PROFILES[0]).entries}
        reading = "INT-28/list-first-n-drops(n=3)"
        followed = Implementation("a", "a", (run(profile=(reading,)),))
        assert [c.readings for c in reading_cells(entries["INT-28"], [followed])] == [(reading,)]
        assert [c.readings for c in reading_cells(entries["INT-27"], [followed])] == [("pinned",)]

    def test_unexplained_failures_counted(self) -> None:
        """Only the entry's failing vectors no alternative explains are counted."""
        entry = next(e for e in load_registers(PROFILES[0]).entries if e.id == "INT-01")
        results = {
            v: {"id": v, "outcome": "failed", "interpretations": ["INT-01"]} for v in ("v1", "v2")
        }
        buggy = run(unexplained=("v1",), not_passed=results)
        (cell,) = reading_cells(entry, [Implementation("a", "a", (buggy,))])
        assert cell == type(cell)(("pinned",), 1)


@pytest.fixture(scope="module")
def certified_site(tmp_path_factory: pytest.TempPathFactory) -> CertifiedSite:
    """The reference and four strangers, certified, collected twice and built (once)."""
    return certify_and_build(tmp_path_factory.mktemp("site"))


def cell(row: dict[str, Any], column: str) -> str:
    """What the implementations page shows in ``column`` for an API row: a profile's readings
    (or pinned), a partial run's verdict marked with its reasons, else the value itself."""
    if column == "profile":
        return ", ".join(row["profile"]) or "pinned"
    if column == "verdict" and row["partial"]:
        return f"partial run: {row['verdict']} on what ran ({'; '.join(row['partial'])})"
    return str(row[column])


class _Links(HTMLParser):
    """Every href and src of a page; every table row's cells' text."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.rows: list[list[str]] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in ("href", "src", "data-src") and value:
                self.links.append(value)
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None and self.rows:
            self.rows[-1].append("".join(self._cell).strip())
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def parse(page: Path) -> _Links:
    """The links and table rows of ``page``."""
    return parse_text(page.read_text("utf-8"))


def parse_text(text: str) -> _Links:
    """The links and table rows of a page's text."""
    parser = _Links()
    parser.feed(text)
    return parser


def pages(out: Path) -> list[Path]:
    """Every page of every profile of the site at ``out``."""
    return [
        out / profile.directory / name
        for profile in PROFILES
        if (out / profile.directory / "index.html").is_file()
        for name in PAGES
    ]


@pytest.mark.slow
class TestCertifiedSite:
    """The site built from the reference, three strangers following one alternative each and one
    with a bug, two versions each."""

    def test_api_validates(self, certified_site: CertifiedSite) -> None:
        """Every API file validates against its schema in specs/schemas/site/."""
        api = certified_site.out / "api" / "v1"
        listing = json.loads((api / "implementations.json").read_text("utf-8"))
        assert schema_errors(IMPLEMENTATIONS_SCHEMA, listing) == []
        files = sorted((api / "implementations").glob("*.json"))
        assert len(files) == len(listing["implementations"]) == 1 + len(OTHERS) + len(STRANGERS)
        for path in files:
            assert schema_errors(IMPLEMENTATION_SCHEMA, json.loads(path.read_text("utf-8"))) == []

    def test_api_reads_back_into_the_table(self, certified_site: CertifiedSite) -> None:
        """implementations.json gives the implementations page's table, row for row."""
        listing = json.loads(
            (certified_site.out / "api" / "v1" / "implementations.json").read_text("utf-8")
        )
        from_api = [[cell(row, c) for c in TABLE_COLUMNS] for row in listing["implementations"]]
        rows = [
            row[: len(TABLE_COLUMNS)]
            for profile in PROFILES
            for row in parse(certified_site.out / profile.directory / "index.html").rows[1:]
        ]
        assert rows == from_api

    def test_verdicts_and_versions(self, certified_site: CertifiedSite) -> None:
        """Each implementation is listed at its newest version with its verdict and profile."""
        listing = json.loads(
            (certified_site.out / "api" / "v1" / "implementations.json").read_text("utf-8")
        )
        by_name = {row["name"]: row for row in listing["implementations"]}
        assert by_name[certified_site.names["reference"]]["verdict"] == "compliant"
        assert by_name[certified_site.names["round2"]]["verdict"] == "non-compliant"
        assert by_name[certified_site.names["phase2"]]["contract"] == "phase2-context/1"
        for variant, reading in STRANGERS.items():
            row = by_name[certified_site.names[variant]]
            assert row["version"] == VERSIONS[-1]
            assert row["versions"] == list(VERSIONS)
            assert row["profile"] == ([reading] if reading else [])

    @pytest.mark.skipif(NODE is None, reason="node (Node.js) is not on PATH: no JavaScript example")
    def test_javascript_example_is_listed(self, certified_site: CertifiedSite) -> None:
        """The JavaScript example is on the site, compliant, following no alternative reading."""
        listing = json.loads(
            (certified_site.out / "api" / "v1" / "implementations.json").read_text("utf-8")
        )
        by_name = {row["name"]: row for row in listing["implementations"]}
        row = by_name[certified_site.names["javascript"]]
        assert row["verdict"] == "compliant"
        assert row["profile"] == []
        assert row["versions"] == list(VERSIONS)

    def test_readings_matrix_shows_each_alternative(self, certified_site: CertifiedSite) -> None:
        """Each fake's column names its alternative on its entry's row; those rows come first."""
        rows = parse(certified_site.out / "readings.html").rows
        header, body = rows[0], rows[1:]
        followed = {r for r in STRANGERS.values() if r}
        first = {row[0].split()[0] for row in body[: len(followed)]}
        assert first == {r.split("/")[0] for r in followed}
        for variant, reading in STRANGERS.items():
            if reading is None:
                continue
            column = next(
                i for i, h in enumerate(header) if h.startswith(certified_site.names[variant])
            )
            row = next(r for r in body if r[0].startswith(reading.split("/")[0]))
            assert row[column] == reading.split("/")[1]

    def test_bug_shows_unexplained_failures(self, certified_site: CertifiedSite) -> None:
        """The buggy fake's column counts failures no reading explains; the reference's none."""
        page = (certified_site.out / "readings.html").read_text("utf-8")
        assert re.search(r"pinned · \d+ failing", page)

    def test_history_has_both_versions(self, certified_site: CertifiedSite) -> None:
        """The history chart of every implementation plots both versions."""
        page = (certified_site.out / "history.html").read_text("utf-8")
        charts = re.findall(r'<svg class="chart".*?</svg>', page)
        assert len(charts) == len(OTHERS) + len(STRANGERS)
        for chart in charts:
            labels = re.findall(r'<text class="version"[^>]*>([^<]*)</text>', chart)
            assert labels == list(VERSIONS)

    def test_every_link_resolves(self, certified_site: CertifiedSite) -> None:
        """Every href, src and data file of every page names a file of the site (or an anchor
        of the page it links to)."""
        for page in pages(certified_site.out):
            parsed = parse(page)
            assert parsed.links, page
            text = page.read_text("utf-8")
            for link in parsed.links:
                parts = urlsplit(link)
                assert not parts.scheme, (page, link)
                assert not parts.netloc, (page, link)
                target = (page.parent / unquote(parts.path)).resolve() if parts.path else page
                assert target.is_file(), (page, link)
                anchor = unquote(parts.fragment)
                if anchor and not anchor.startswith("v=") and target == page:
                    assert f'id="{anchor}"' in text, (page, link)

    def test_phase6_and_badges(self, certified_site: CertifiedSite) -> None:
        """Each implementation has an SVG badge and a shields.io endpoint saying the same."""
        for path in (certified_site.out / "badges").glob("*.json"):
            endpoint = json.loads(path.read_text("utf-8"))
            assert endpoint["schemaVersion"] == 1
            svg = path.with_suffix(".svg").read_text("utf-8")
            assert f"{endpoint['label']}: {endpoint['message']}" in svg


#: Screenshots of the pages a browser test failed on (git-ignored, kept as CI artifacts).
ARTIFACTS = REPO / "reports" / "site-browser"


class Browser:
    """Loads pages of the certified site in Chromium; screenshots any page a check fails on."""

    def __init__(self, site: CertifiedSite, scratch: Path) -> None:
        self.site, self.scratch = site, scratch

    def dom(self, page: str) -> str:
        """The page's DOM after its scripts ran; fails on any console message."""
        done = chromium(self.url(page), self.scratch, "--dump-dom")
        console = [line for line in done.stderr.splitlines() if ":CONSOLE" in line]
        assert console == [], console
        assert "</main>" in done.stdout, done.stderr[-2000:]
        return done.stdout

    def url(self, page: str) -> str:
        """The ``file://`` URL of a page (``name#fragment`` relative to the site)."""
        path, _, fragment = page.partition("#")
        return (self.site.out / path).as_uri() + (f"#{fragment}" if fragment else "")

    @contextlib.contextmanager
    def checking(self, page: str) -> Iterator[None]:
        """Run a check of ``page``; on failure keep its screenshot under reports/site-browser/."""
        try:
            yield
        except AssertionError:
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            shot = ARTIFACTS / (re.sub(r"[^a-z0-9.]+", "-", page.lower()) + ".png")
            chromium(self.url(page), self.scratch, f"--screenshot={shot}")
            raise


@pytest.fixture(scope="module")
def browser(certified_site: CertifiedSite, tmp_path_factory: pytest.TempPathFactory) -> Browser:
    """Chromium on the certified site; skips saying why when Chromium is not installed."""
    if CHROMIUM is None:
        pytest.skip(NOT_INSTALLED)
    return Browser(certified_site, tmp_path_factory.mktemp("chromium"))


@pytest.mark.slow
class TestInBrowser:
    """The certified site in headless Chromium from file://: no console errors, the readings and
    the history as a reader sees them, the drill-down loaded on demand."""

    @pytest.mark.parametrize(
        "page", [f"{d}{name}" for d in ("", "phase2/") for name in PAGES], ids=str
    )
    def test_page_loads_cleanly(self, browser: Browser, page: str) -> None:
        """Every page loads from file:// without a console message."""
        if not (browser.site.out / page).is_file():
            pytest.skip(f"no reports of this profile in the site: {page} not built")
        with browser.checking(page):
            browser.dom(page)

    def test_readings_show_each_alternative(self, browser: Browser) -> None:
        """Each fake's column shows the alternative it follows, as rendered."""
        with browser.checking("readings.html"):
            parser = _Links()
            parser.feed(browser.dom("readings.html"))
            header, body = parser.rows[0], parser.rows[1:]
            for variant, reading in STRANGERS.items():
                if reading is None:
                    continue
                name = browser.site.names[variant]
                column = next(i for i, h in enumerate(header) if h.startswith(name))
                row = next(r for r in body if r[0].startswith(reading.split("/")[0]))
                assert row[column] == reading.split("/")[1]

    def test_history_chart_shows_both_versions(self, browser: Browser) -> None:
        """Every implementation's chart labels both versions."""
        with browser.checking("history.html"):
            charts = re.findall(r'<svg class="chart".*?</svg>', browser.dom("history.html"), re.S)
            assert len(charts) == len(OTHERS) + len(STRANGERS)
            for chart in charts:
                assert re.findall(r'class="version"[^>]*>([^<]*)<', chart) == list(VERSIONS)

    def test_drill_down_loads_on_demand(self, browser: Browser) -> None:
        """Choosing a vector the buggy fake fails loads its input, expected and actual results."""
        api = browser.site.out / "api" / "v1" / "implementations"
        key = next(
            path.stem
            for path in api.glob("*.json")
            if json.loads(path.read_text("utf-8"))["name"] == browser.site.names["round2"]
        )
        document = json.loads((api / f"{key}.json").read_text("utf-8"))
        vector = document["versions"][-1]["not_passed"][0]
        page = f"vectors.html#v={vector}"
        with browser.checking(page):
            dom = browser.dom(page)
            assert f'data-loaded="{vector}"' in dom
            assert "Expected" in dom
            assert "+++ actual" in dom
