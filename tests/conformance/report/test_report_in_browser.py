"""report.html's first screen in headless Chromium: what a reader sees without scrolling, at a
laptop's viewport, measured by layout (not by searching the markup).

Two realistic reports, each from a machine without the probe tools (so the checks needing
strace or unshare are skipped): the reference certified on the published corpus with every
section, compliant, and a stranger with a bug (it demands SPEC-005's record fields) certified
on a selection, with a failing probe and a failure signature. Each page is loaded from
``file://`` inside a wrapper page whose iframe is exactly the viewport; a script in the wrapper
measures the report's elements with ``getBoundingClientRect`` and writes what it found into the
wrapper's DOM, which ``--dump-dom`` returns. A failing check keeps a screenshot of that first
screen under ``reports/report-browser/`` (git-ignored, a CI artifact); without Chromium every
test skips saying so.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from html import unescape
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import headless
import pytest
from paths import FAKES, REPO

from conformance import certify
from conformance.corpus import load_corpus
from conformance.probes import _tools
from conformance.report import write_report
from conformance.report._render import TOOL_PACKAGES, _fix_first, verdict_meaning
from conformance.run._sections import SECTION_PROVIDERS

#: The first screen: a 1280x800 laptop screen less the browser's tab strip and toolbar.
VIEWPORT = (1280, 720)
#: Screenshots of the first screens a check failed on (git-ignored, kept as CI artifacts).
ARTIFACTS = REPO / "reports" / "report-browser"
#: What the script measures: name -> CSS selector in the report.
TARGETS = {
    "title": "h1",
    "verdict": "#verdict",
    "implementation": "#implementation",
    "corpus": "#corpus",
    "skipped": "#skipped",
    "fix-first": "#fix-first h2",
    "top-signature": "#fix-first table tr:nth-of-type(2)",
    "top-reproduce": "#fix-first table tr.reproduce",
}
#: Sections as a certification runs them, but quick: three probes (of which the network
#: probe's two checks and the read-only probe's two traced checks skip on a machine without
#: strace and unshare), one property family on a few stored examples.
SECTION_OPTIONS = {
    "probes": "receipt,read-only,network",
    "properties.families": "budget",
    "properties.examples": "5",
}
#: The tools the probes look for, each checked once per process (cached): run uncached here.
TOOL_CHECKS = ("faketime", "strace", "unshare")

_MEASURE = """
const frame = document.getElementById("report");
const measure = () => {
  const doc = frame.contentDocument, view = frame.contentWindow;
  const measured = {};
  for (const [name, selector] of Object.entries(TARGETS)) {
    const element = doc.querySelector(selector);
    if (element === null) { measured[name] = null; continue; }
    const box = element.getBoundingClientRect();
    measured[name] = {
      top: box.top, bottom: box.bottom, left: box.left, right: box.right,
      shown: element.getClientRects().length > 0
        && view.getComputedStyle(element).visibility === "visible",
      text: element.innerText,
    };
  }
  const out = document.getElementById("measured");
  out.textContent = JSON.stringify({
    viewport: [view.innerWidth, view.innerHeight],
    scrolled: [view.scrollX, view.scrollY],
    targets: measured,
    ids: Array.from(doc.querySelectorAll("[id]"), (element) => element.id),
    links: Array.from(doc.querySelectorAll("[href], [src]"),
                      (element) => element.getAttribute("href") ?? element.getAttribute("src")),
    dom: doc.documentElement.outerHTML,
  });
};
const loaded = frame.contentDocument;
if (loaded && loaded.readyState === "complete" && loaded.URL !== "about:blank") {
  measure();
} else {
  frame.addEventListener("load", measure);
}
"""


def chromium(url: str, profile_dir: Path, *options: str) -> subprocess.CompletedProcess[str]:
    """Headless Chromium on ``url`` at the viewport, file:// frames readable by their parent
    (scripts given 10 s of virtual time); console on stderr."""
    return headless.chromium(
        url, profile_dir, "--allow-file-access-from-files", "--hide-scrollbars", *options,
        window=VIEWPORT, virtual_time_ms=10_000,
    )  # fmt: skip


def wrapper(report_dir: Path, out: Path) -> Path:
    """A page holding ``report_dir/report.html`` in an iframe the size of the viewport, with
    the measuring script (the report itself is untouched)."""
    frame = Path(os.path.relpath(report_dir / "report.html", out.parent)).as_posix()
    width, height = VIEWPORT
    out.write_text(
        '<!DOCTYPE html><html><head><meta charset="utf-8"><style>html,body{margin:0}'
        f"iframe{{border:0;display:block;width:{width}px;height:{height}px}}</style></head>"
        f'<body><iframe id="report" src="{frame}"></iframe><pre id="measured"></pre>'
        f"<script>const TARGETS = {json.dumps(TARGETS)};\n{_MEASURE}</script></body></html>\n",
        "utf-8",
    )
    return out


@dataclass(frozen=True)
class FirstScreen:
    """One report as Chromium showed it: its report.json, the measurements, the console."""

    name: str
    directory: Path
    report: dict[str, Any]
    viewport: tuple[int, int]
    targets: dict[str, dict[str, Any] | None]
    ids: frozenset[str]
    links: tuple[str, ...]
    dom: str
    console: tuple[str, ...]
    page: Path
    profile: Path

    def visible(self, name: str) -> dict[str, Any]:
        """The target ``name``, asserted to lie wholly inside the first screen, shown."""
        target = self.targets[name]
        assert target is not None, f"{name} ({TARGETS[name]}) is not on the page"
        width, height = self.viewport
        box = {k: round(target[k]) for k in ("top", "bottom", "left", "right")}
        assert target["shown"], f"{name} is hidden"
        outside = f"{name} is not wholly inside the {width}x{height} first screen: {box}"
        assert box["top"] >= 0, outside
        assert box["left"] >= 0, outside
        assert box["bottom"] <= height, outside
        assert box["right"] <= width, outside
        return target

    @contextlib.contextmanager
    def checking(self, check: str) -> Iterator[None]:
        """Run a check; on failure keep the first screen's picture under reports/report-browser/."""
        try:
            yield
        except AssertionError:
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            shot = ARTIFACTS / f"{self.name}-{re.sub(r'[^a-z0-9]+', '-', check.lower())}.png"
            chromium(self.page.as_uri(), self.profile, f"--screenshot={shot}")
            raise


def load(name: str, report_dir: Path, scratch: Path) -> FirstScreen:
    """Load ``report_dir/report.html`` in Chromium and measure its first screen."""
    page = wrapper(report_dir, scratch / f"{name}-first-screen.html")
    done = chromium(page.as_uri(), scratch / "profile", "--dump-dom")
    found = re.search(r'<pre id="measured">(.*?)</pre>', done.stdout, re.S)
    assert found, f"the measuring script did not run: {done.stderr[-2000:]}"
    assert found.group(1), f"the measuring script wrote nothing: {done.stderr[-2000:]}"
    measured = json.loads(unescape(found.group(1)))
    return FirstScreen(
        name=name,
        directory=report_dir,
        report=json.loads((report_dir / "report.json").read_text("utf-8")),
        viewport=(measured["viewport"][0], measured["viewport"][1]),
        targets=measured["targets"],
        ids=frozenset(measured["ids"]),
        links=tuple(measured["links"]),
        dom=measured["dom"],
        console=tuple(line for line in done.stderr.splitlines() if ":CONSOLE" in line),
        page=page,
        profile=scratch / "profile",
    )


@contextlib.contextmanager
def without_tools(empty: Path) -> Iterator[None]:
    """A machine without the probe tools: PATH holds nothing, the tool checks run uncached."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PATH", str(empty))
        for name in TOOL_CHECKS:
            patch.setattr(_tools, name, getattr(_tools, name).__wrapped__)
        yield


def certify_reference(out: Path, empty: Path) -> None:
    """The reference on the published corpus with every section (``certify --repeat 1
    --fresh-every 0``, as quick as it gets), on a machine without the probe tools."""
    with without_tools(empty):
        certification = certify(
            "python:reference:memory_read",
            corpus=load_corpus(validate=False),
            section_options=SECTION_OPTIONS,
            jobs=1,
            repeat=1,
            fresh_every=0,
        )
    write_report(certification, out)


def certify_bug(out: Path, empty: Path) -> None:
    """A stranger who read SPEC-005 first (it demands ``type``, ``source`` and ``hash`` in every
    record and raises ``KeyError``) on the first error vectors and one scoring vector, with
    the read-only probe, on a machine without the probe tools."""
    with without_tools(empty):
        certification = certify(
            "cmd:" + shlex.join([sys.executable, str(FAKES / "stranger.py"), "spec005"]),
            corpus=load_corpus(validate=False),
            select=["id:errors-h00*", "id:scoring-h001"],
            sections={"probes": SECTION_PROVIDERS["probes"]},
            section_options={"probes": "read-only"},
            jobs=1,
        )
    write_report(certification, out)


CASES = {"reference": certify_reference, "bug": certify_bug}


@pytest.fixture(scope="module", params=sorted(CASES))
def screen(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> FirstScreen:
    """A case certified, its report written and loaded in Chromium; skips saying why when
    Chromium is not installed."""
    if headless.CHROMIUM is None:
        pytest.skip(headless.NOT_INSTALLED)
    name: str = request.param
    scratch = tmp_path_factory.mktemp(f"browser-{name}")
    (scratch / "empty").mkdir()
    CASES[name](scratch / "report", scratch / "empty")
    return load(name, scratch / "report", scratch)


def glossary(dom: str) -> dict[str, str]:
    """The page's glossary: term -> definition."""
    pairs = re.findall(r"<dt>([^<]*)</dt><dd>([^<]*)</dd>", dom)
    return {unescape(term): unescape(text) for term, text in pairs}


class TestFirstScreen:
    """What was certified, against which corpus, the verdict and what it means, what was
    skipped and how to enable it, and for a failure what to fix first: all without scrolling."""

    def test_viewport(self, screen: FirstScreen) -> None:
        """The report was laid out at the laptop viewport, unscrolled."""
        assert screen.viewport == VIEWPORT
        assert screen.targets["title"] is not None

    def test_what_was_certified(self, screen: FirstScreen) -> None:
        """The implementation's name and version, and the corpus's digest and vector counts,
        are in the first screen."""
        header = screen.report["header"]
        implementation = header["adapter"]["implementation"]
        with screen.checking("certified"):
            shown = screen.visible("implementation")["text"]
            assert f"{implementation['name']} {implementation['version']}" in shown
            corpus = screen.visible("corpus")["text"]
            assert header["corpus"]["digest"] in corpus
            assert f"{header['corpus']['vectors']} vectors" in corpus
            assert f"{header['selection']['selected']} run" in corpus
            assert ("the published" in corpus) is header["corpus"]["published"]

    def test_verdict_and_meaning(self, screen: FirstScreen) -> None:
        """The verdict and its one-line meaning (the glossary's definition of it) are in the
        first screen."""
        verdict = screen.report["footer"]["verdict"]
        with screen.checking("verdict"):
            shown = " ".join(screen.visible("verdict")["text"].split())
            if verdict["partial"]:
                assert shown.startswith("partial run, no verdict")
                assert f"on what ran: {verdict['value']}" in shown
            else:
                assert shown.startswith(verdict["value"])
                assert glossary(screen.dom)[verdict["value"]] in shown
            assert f"What it means: {verdict_meaning(screen.report)}" in shown

    def test_skipped_and_how_to_enable(self, screen: FirstScreen) -> None:
        """Each check skipped here is in the first screen with its reason, and how to enable
        it: the command installing the package its reason names."""
        skipped = screen.report["footer"]["verdict"]["skipped"]
        assert skipped, "each case was meant to skip checks for want of strace"
        with screen.checking("skipped"):
            shown = " ".join(screen.visible("skipped")["text"].split())
            install = re.search(r"How to enable: .*?apt-get install -y ([a-z0-9 .+-]+)", shown)
            assert install, shown
            for line in skipped:
                section, check, reason = line.split(" ", 2)
                assert section in shown
                assert check.rstrip(":") in shown
                assert reason in shown
                named = re.search(r"\((?:Debian package )?'?([a-z0-9.+-]+)'?\)", reason)
                assert named, reason
                assert named.group(1) in install.group(1).split()

    def test_what_to_fix_first(self, screen: FirstScreen) -> None:
        """A failed certification shows what to fix first and its top signature, with its
        example and the command reproducing it, in the first screen."""
        signatures = screen.report["failure_signatures"]
        if not signatures:
            assert screen.targets["fix-first"] is None
            return
        top = _fix_first(screen.report)[0]
        with screen.checking("fix-first"):
            screen.visible("fix-first")
            row = " ".join(screen.visible("top-signature")["text"].split())
            assert " ".join(top["signature"].split()) in row
            assert top["example"] in row
            if top.get("reproduce"):
                again = " ".join(screen.visible("top-reproduce")["text"].split())
                assert " ".join(top["reproduce"].split()) in again

    def test_no_console_messages(self, screen: FirstScreen) -> None:
        """The page logs nothing to the console (no script error, no refused resource)."""
        assert screen.console == ()

    def test_every_link_resolves(self, screen: FirstScreen) -> None:
        """Every in-page link names an id of the page, every relative link a file beside the
        report, every other link a well-formed https URL (not fetched)."""
        assert screen.links, "a report links its clauses and interpretations"
        for link in screen.links:
            parts = urlsplit(link)
            if parts.scheme:
                assert parts.scheme == "https", link
                assert parts.netloc, link
                assert not re.search(r"\s", link), link
            elif parts.path:
                assert (screen.directory / unquote(parts.path)).is_file(), link
            else:
                assert unquote(parts.fragment) in screen.ids, link


class TestToolPackages:
    def test_readme_installs_every_package(self) -> None:
        """Every package the report's "how to enable" names is in the README's set-up line."""
        readme = (REPO / "README.md").read_text("utf-8")
        line = next(line for line in readme.splitlines() if line.startswith("apt-get install"))
        assert {package for _, package in TOOL_PACKAGES} <= set(line.split()[3:])
