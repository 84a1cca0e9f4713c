"""The compliance report: ``report.json`` (format ``phase6-report/1``) and its renderings.

``report.json`` = ``header`` (kit version, corpus digest, adapter metadata, options, start
time) + ``results`` (one per vector) + ``sections`` (extensible: properties, probes,
suite_strength, ...) + ``footer`` (finish time, totals per outcome/level/area/clause, the
verdict). A report without a footer is truncated (Bowtie). It validates against
``specs/schemas/report.schema.json``; :func:`write_report` refuses to write one that does not.

The other files (``report.md``, ``report.html``, ``junit.xml``, ``badge.svg``) are pure
functions of ``report.json`` (:mod:`conformance.report._render`), so ``phase6 report`` can
re-render them at any time.
"""

from __future__ import annotations

import json
import platform
import sys
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from conformance._errors import ReportError
from conformance._kit import KIT_NAME, kit_version, loads, slugify
from conformance._schemas import REPORT_SCHEMA, schema_errors
from conformance.report import _render as _report_render
from conformance.run import Certification, Totals, VectorResult

__all__ = [
    "REPORT_FILES",
    "REPORT_FORMAT",
    "build_report",
    "default_report_dir",
    "load_report",
    "render_files",
    "results_of",
    "validate_report",
    "write_report",
]

REPORT_FORMAT = "phase6-report/1"
#: file name -> renderer name in conformance.report._render
REPORT_FILES = {
    "report.md": "render_markdown",
    "report.html": "render_html",
    "junit.xml": "render_junit",
    "badge.svg": "render_badge",
}


def _grouped(
    results: Iterable[VectorResult], key: Callable[[VectorResult], Iterable[str]]
) -> dict[str, dict[str, int]]:
    """Outcome counts per group (a result may sit in several: its clauses)."""
    groups: dict[str, list[VectorResult]] = defaultdict(list)
    for result in results:
        for value in key(result):
            groups[value].append(result)
    return {name: Totals.of(groups[name]).counts() for name in sorted(groups)}


def build_report(certification: Certification) -> dict[str, Any]:
    """The ``report.json`` document for a certification."""
    cert = certification
    results = [r.to_json() for r in cert.results]
    verdict = cert.verdict
    totals = cert.totals
    config = cert.config
    return {
        "format": REPORT_FORMAT,
        "header": {
            "kit": {"name": KIT_NAME, "version": kit_version()},
            "spec": "SPEC-006",
            "contract": "phase6-v1",
            "corpus": {
                "digest": cert.corpus_digest,
                "vectors": cert.corpus_vectors,
                "root": cert.corpus_root,
            },
            "adapter": dict(cert.adapter),
            "selection": {"patterns": list(cert.selection), "selected": len(results)},
            "expected_failures": {
                "file": cert.expected_failures_file,
                "entries": cert.expected_failure_entries,
            },
            "options": {
                "jobs": config.jobs,
                "workers": cert.workers,
                "timeout_s": config.timeout,
                "repeat": config.repeat,
                "fresh_every": config.fresh_every,
                "validate_protocol": config.validate_protocol,
            },
            "host": {
                "python": sys.version.split()[0],
                "platform": platform.platform(),
                "machine": platform.machine(),
            },
            "started": cert.started,
        },
        "results": results,
        "sections": {name: section.to_json() for name, section in cert.sections.items()},
        "footer": {
            "finished": cert.finished,
            "duration_s": round(cert.duration_s, 3),
            "complete": not cert.interrupted,
            "partial": bool(cert.selection),
            "requests": cert.requests,
            "restarts": cert.restarts,
            "totals": totals.to_json(),
            "by_level": _grouped(cert.results, lambda r: (r.level,)),
            "by_area": _grouped(cert.results, lambda r: (r.area,)),
            "by_clause": _grouped(cert.results, lambda r: r.clauses),
            "by_interpretation": _grouped(cert.results, lambda r: r.interpretations),
            "unexpected_passes": [r.id for r in cert.results if r.unexpected_pass],
            "stale_expected_failures": [
                {"entry": e.pattern, "reason": e.reason, "line": e.line}
                for e in cert.stale_expected_failures
            ],
            "broken_reason": cert.broken_reason,
            "clean": cert.clean,
            "verdict": verdict.to_json(),
        },
    }


def validate_report(report: Any) -> None:
    """Raise :class:`ReportError` unless ``report`` validates against the report schema."""
    problems = schema_errors(REPORT_SCHEMA, report, limit=3)
    if problems:
        shown = "; ".join(f"{pointer or '/'}: {message}" for pointer, message in problems)
        raise ReportError(f"report does not validate against {REPORT_SCHEMA}: {shown}")


def load_report(path: Path | str) -> dict[str, Any]:
    """Read and validate a ``report.json`` (a directory means its ``report.json``)."""
    path = Path(path)
    if path.is_dir():
        path = path / "report.json"
    try:
        report = loads(path.read_bytes())
    except (OSError, ValueError) as exc:
        raise ReportError(f"cannot read report {str(path)!r}: {exc}") from exc
    validate_report(report)
    if not isinstance(report, dict):
        raise ReportError(f"{str(path)!r} is not a report object")
    return report


def results_of(report: Mapping[str, Any]) -> list[VectorResult]:
    """The report's results as :class:`VectorResult` objects."""
    return [VectorResult.from_json(r) for r in report["results"]]


def default_report_dir(certification: Certification, base: Path | str = "reports") -> Path:
    """``reports/<implementation name>/`` (relative to the working directory)."""
    return Path(base) / slugify(certification.implementation_name)


def render_files(report: Mapping[str, Any], directory: Path | str) -> dict[str, Path]:
    """Write ``report.md``, ``report.html``, ``junit.xml`` and ``badge.svg`` from a report."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    written = {}
    for name, renderer in REPORT_FILES.items():
        target = directory / name
        target.write_text(getattr(_report_render, renderer)(report), "utf-8")
        written[name] = target
    return written


def write_report(
    certification: Certification, directory: Path | str | None = None
) -> dict[str, Path]:
    """Validate and write every report file; returns file name -> path."""
    report = build_report(certification)
    validate_report(report)
    directory = Path(directory) if directory is not None else default_report_dir(certification)
    directory.mkdir(parents=True, exist_ok=True)
    target = directory / "report.json"
    target.write_text(dumps_pretty_report(report), "utf-8")
    return {"report.json": target, **render_files(report, directory)}


def dumps_pretty_report(report: Mapping[str, Any]) -> str:
    """``report.json`` text: indented, members in the order built (header first)."""
    return json.dumps(report, indent=1, ensure_ascii=False) + "\n"
