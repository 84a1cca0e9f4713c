"""The certified site the slow site tests share: the reference, the JavaScript example (when
Node.js is on PATH), three strangers each following one alternative reading (int27, int08,
int41) and one with a bug (round2), and the Phase 2 reference engine (its pages under
``phase2/``), each certified once with ``--no-sections`` (every vector run once) through
``phase6 site collect`` and collected again as a second version (the same report,
``header.adapter.implementation.version`` 2.0.0), then built into a site."""

from __future__ import annotations

import io
import json
import shlex
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from paths import FAKES, REPO

from conformance.cli import main

#: stranger variant -> the alternative reading its verdict names (None: none).
STRANGERS = {
    "int27": "INT-27/budget-exhausted",
    "int08": "INT-08/verbatim",
    "int41": "INT-41/written-integer",
    "round2": None,
}
VERSIONS = ("1.0.0", "2.0.0")
#: Node.js, for the JavaScript example (None: it is left out, and its test says why).
NODE = shutil.which("node")
JS_ADAPTER = REPO / "conformance" / "examples" / "javascript" / "adapter.js"
#: Every vector run once, no fresh-process sample: the site reads verdicts, readings, versions
#: and failing vectors, none of which rests on the repeat (the one-reading certification of
#: int41 in tests/conformance/cli/test_strangers_one_reading.py keeps the default repeat).
ONCE = ("--repeat", "1", "--fresh-every", "0")
#: The SPEC-006 implementations besides the strangers (the Phase 2 engine has its own pages).
OTHERS = ("reference", *(("javascript",) if NODE else ()))


@dataclass(frozen=True)
class CertifiedSite:
    """The built site and what went into it."""

    collection: Path
    out: Path
    names: dict[str, str]


def _phase6(*argv: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "conformance", *argv],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def _wait(process: subprocess.Popen[str]) -> str:
    output, _ = process.communicate(timeout=900)
    assert process.returncode == 0, output
    return output


def _collect_in_process(collection: Path, report: Path) -> None:
    """``phase6 site collect COLLECTION --report REPORT`` through the CLI's ``main`` in this
    process (the certifying collects above run as subprocesses; an interpreter per copy would
    only add its start-up)."""
    out = io.StringIO()
    code = main(["site", "collect", str(collection), "--report", str(report)], out=out)
    assert code == 0, out.getvalue()


def certify_and_build(root: Path) -> CertifiedSite:
    """Certify, collect (two versions each) and build under ``root``."""
    first, collection = root / "v1", root / "collection"
    adapters: dict[str, list[str]] = {"reference": [], "phase2": ["--profile", "phase2-context"]}
    if NODE:
        adapters["javascript"] = ["--adapter", "cmd:" + shlex.join([NODE, str(JS_ADAPTER)])]
    adapters |= {
        variant: [
            "--adapter",
            "cmd:" + shlex.join([sys.executable, str(FAKES / "stranger.py"), variant]),
        ]
        for variant in STRANGERS
    }

    def certify(variant: str) -> str:
        options = ["--no-sections", *ONCE, "-q", "-j", "1", "--sandbox", "off", *adapters[variant]]
        return _wait(_phase6("site", "collect", str(first / variant), "--", *options))

    # two at a time (two cores), the next started as soon as either ends
    with ThreadPoolExecutor(max_workers=2) as pool:
        list(pool.map(certify, adapters))
    names = {}
    for variant in adapters:
        (report,) = (first / variant).rglob("report.json")
        document = json.loads(report.read_text("utf-8"))
        implementation = document["header"]["adapter"]["implementation"]
        names[variant] = implementation["name"]
        for version in VERSIONS:
            implementation["version"] = version
            copy = root / "versions" / variant / version / "report.json"
            copy.parent.mkdir(parents=True)
            copy.write_text(json.dumps(document), "utf-8")
            _collect_in_process(collection, copy)
    out = root / "out"
    _wait(_phase6("site", "build", str(collection), "--out", str(out)))
    return CertifiedSite(collection, out, names)
