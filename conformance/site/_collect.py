"""``phase6 site collect``: keep one certification's report in a collection directory, with its
metadata, so that each implementation can be certified in its own CI job and the site built from
their artifacts.

Layout: ``<collection>/<implementation>/<version>/report.json`` beside ``meta.json``
(implementation, version, language, contract, date, verdict). Collecting a version again
replaces it.
"""

from __future__ import annotations

import datetime
import json
from dataclasses import dataclass
from pathlib import Path

from conformance._kit import slugify, write_atomic
from conformance.report import dumps_report, load_report
from conformance.site._model import run_of

__all__ = ["META_FORMAT", "Collected", "collect_report"]

META_FORMAT = "phase6-site-meta/1"


@dataclass(frozen=True)
class Collected:
    """Where a collected report went, and whose it is."""

    directory: Path
    implementation: str
    version: str
    verdict: str


def collect_report(report_path: Path, collection: Path) -> Collected:
    """Copy a ``report.json`` (validated) into ``collection`` with its ``meta.json``."""
    source = report_path / "report.json" if report_path.is_dir() else report_path
    report = load_report(source)
    run = run_of(report, source, "")
    directory = collection / slugify(run.name) / slugify(run.version)
    directory.mkdir(parents=True, exist_ok=True)
    meta = {
        "format": META_FORMAT,
        "implementation": run.name,
        "version": run.version,
        "language": run.language,
        "contract": run.contract,
        "date": run.date,
        "verdict": run.verdict,
        "collected": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
    }
    write_atomic(directory, "report.json", dumps_report(report))
    write_atomic(directory, "meta.json", (json.dumps(meta, indent=1) + "\n").encode("utf-8"))
    return Collected(directory, run.name, run.version, run.verdict)
