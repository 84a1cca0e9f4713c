"""``phase6 site build``: any number of ``report.json`` files into one static site.

Steps: 1. read every report (in worker processes when there are many), rendering each one's
full HTML report on the way; 2. group the runs by profile and implementation, one run per
version; 3. write, per profile, the five pages and one drill-down data file per vector; 4. write
the JSON API and the badges. Nothing in the site needs a server or the network.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import os
import time
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from conformance._errors import UsageError
from conformance._kit import kit_version
from conformance.report import render_html
from conformance.site._api import (
    implementation_document,
    implementations_document,
    shields_endpoint,
)
from conformance.site._assets import CSS, JS
from conformance.site._model import (
    PROFILES,
    Implementation,
    Profile,
    Run,
    SetAside,
    find_reports,
    group_runs,
    load_registers,
    profile_of,
    read_report,
    run_of,
)
from conformance.site._pages import (
    VectorRow,
    render_clauses,
    render_history,
    render_implementations,
    render_readings,
    render_vectors,
)
from conformance.site._vectors import corpus_details, data_file_name, vector_script

__all__ = ["SiteBuild", "build_site"]

#: Fewer reports than this are read in this process (a pool costs more than it saves).
_POOL_FROM = 4


@dataclass(frozen=True)
class SiteBuild:
    """What a build wrote: the runs read, the files written, how long it took, and the reports
    set aside for another report of the same version."""

    out: Path
    runs: int
    implementations: int
    files: int
    duration_s: float
    set_aside: tuple[SetAside, ...] = ()


def _read(path: Path, out: Path) -> Run:
    """Read one report, write its full HTML rendering under ``reports/``, return its run."""
    report = read_report(path)
    digest = hashlib.sha256(str(path.resolve()).encode("utf-8", "surrogatepass")).hexdigest()
    href = f"reports/{digest[:16]}.html"
    (out / href).write_text(render_html(report), "utf-8", errors="backslashreplace")
    return run_of(report, path, href)


def _read_all(paths: Sequence[Path], out: Path, jobs: int | None) -> list[Run]:
    workers = min(jobs or os.cpu_count() or 1, len(paths))
    if workers < 2 or len(paths) < _POOL_FROM:
        return [_read(p, out) for p in paths]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(_read, paths, [out] * len(paths), chunksize=1))


class _Writer:
    """Writes files under the site's root, counting them."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.files = 0

    def text(self, relative: str, text: str) -> None:
        path = self.root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        # A lone surrogate (a stranger's string) is written as a visible \\udxxx escape.
        path.write_text(text, "utf-8", errors="backslashreplace")
        self.files += 1

    def json(self, relative: str, value: Any) -> None:
        self.text(relative, json.dumps(value, indent=1, ensure_ascii=False) + "\n")


def _profile_pages(
    writer: _Writer,
    profile: Profile,
    implementations: Sequence[Implementation],
    others: Sequence[Profile],
    specs: Path | None,
    vectors: Path | None,
) -> None:
    prefix = f"{profile.directory}/" if profile.directory else ""
    registers = load_registers(profile, specs)
    writer.text(prefix + "index.html", render_implementations(profile, implementations, others))
    writer.text(
        prefix + "readings.html", render_readings(profile, registers, implementations, others)
    )
    writer.text(
        prefix + "clauses.html", render_clauses(profile, registers, implementations, others)
    )
    writer.text(prefix + "history.html", render_history(profile, implementations, others))
    details = corpus_details(profile, vectors)
    ids = dict.fromkeys(details)
    for implementation in implementations:
        ids.update(dict.fromkeys(implementation.latest.outcomes))
    rows = []
    for vector_id in ids:
        detail = details.get(vector_id)
        src = f"data/v/{data_file_name(vector_id)}"
        writer.text(prefix + src, vector_script(vector_id, detail, implementations))
        failing = tuple(
            i.name
            for i in implementations
            if i.latest.outcomes.get(vector_id, "passed") not in ("passed", "skipped")
        )
        meta: Mapping[str, Any] = next(
            (
                i.latest.not_passed[vector_id]
                for i in implementations
                if vector_id in i.latest.not_passed
            ),
            {},
        )
        area = detail.area if detail else str(meta.get("area", ""))
        level = detail.level if detail else str(meta.get("level", ""))
        rows.append(VectorRow(vector_id, area, level, src, failing))
    writer.text(prefix + "vectors.html", render_vectors(profile, rows, others))


def build_site(
    reports: Iterable[Path],
    out: Path,
    *,
    history: Iterable[Path] = (),
    jobs: int | None = None,
    specs: Path | None = None,
    vectors: Path | None = None,
) -> SiteBuild:
    """Build the site from ``reports`` (files or directories holding ``report.json`` files) and
    the earlier reports under ``history`` into ``out``; returns what was written.

    The newest version of each implementation fills the matrices and the drill-down; every
    version fills the history. Of several reports of one version one is kept, whatever order
    they come in (:func:`conformance.site.group_runs`); the build lists the others. Raises
    :class:`UsageError` when no report is found.
    """
    started = time.monotonic()
    paths = find_reports([*reports, *history])
    if not paths:
        raise UsageError("no report.json found in the paths given")
    (out / "reports").mkdir(parents=True, exist_ok=True)
    runs = _read_all(paths, out, jobs)
    groups = group_runs(runs)
    writer = _Writer(out)
    writer.files += len(paths)
    writer.text("assets/site.css", CSS)
    writer.text("assets/site.js", JS)
    present = [profile_of(contract) for contract in groups]
    for contract, implementations in groups.items():
        _profile_pages(writer, profile_of(contract), implementations, present, specs, vectors)
    if PROFILES[0].contract not in groups:  # the top level always has a page
        first = present[0]
        writer.text(
            "index.html",
            f'<!DOCTYPE html><meta charset="utf-8"><title>phase6 site</title>'
            f'<meta http-equiv="refresh" content="0; url={first.directory}/index.html">'
            f'<a href="{first.directory}/index.html">{first.title}</a>\n',
        )
    generated = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    writer.json(
        "api/v1/implementations.json", implementations_document(groups, generated, kit_version())
    )
    for contract, implementations in groups.items():
        for implementation in implementations:
            key = implementation.key
            writer.json(
                f"api/v1/implementations/{key}.json",
                implementation_document(contract, implementation),
            )
            writer.json(f"badges/{key}.json", shields_endpoint(implementation.latest))
            writer.text(f"badges/{key}.svg", implementation.latest.badge_svg)
    count = sum(len(i) for i in groups.values())
    aside = tuple(
        a for i in groups.values() for implementation in i for a in implementation.set_aside
    )
    return SiteBuild(out, len(runs), count, writer.files, time.monotonic() - started, aside)
