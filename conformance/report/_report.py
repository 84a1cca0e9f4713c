"""The compliance report: ``report.json`` (format ``phase6-report/1``) and its renderings.

``report.json`` = ``header`` (kit version, the profile certified with its spec and contract,
corpus digest, adapter metadata, options, start time) + ``results`` (one per vector) +
``sections`` (extensible: properties, probes, suite_strength, ...) + ``footer`` (finish time,
totals per outcome/level/area/clause, the verdict). A report without a footer is truncated
(Bowtie). It validates against ``specs/schemas/report.schema.json``; :func:`write_report`
refuses to write one that does not.

The other files (``report.md``, ``report.html``, ``junit.xml``, ``badge.svg``) are pure
functions of ``report.json`` (:mod:`conformance.report._render`), so ``phase6 report`` can
re-render them at any time.

A report never breaks on what an implementation sent. Every value is stored: lone surrogates
as ``\\udXXX`` escapes (JSON can carry them, UTF-8 cannot), values nested deeper than
:data:`MAX_DEPTH` as their JSON text, anything that is not JSON as its ``repr``; renderings
escape what their format cannot carry and cut what is too long to read, report.json never.
Every file is written atomically inside the report directory (a temporary file renamed over
the name, never following a symlink), so a crash leaves no truncated report, and the
directory is checked before the run (:func:`prepare_report_dir`).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import os
import platform
import re
import secrets
import shlex
import sys
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from conformance._errors import ReportError
from conformance._kit import KIT_NAME, kit_version, loads, read_bounded, slugify, write_atomic
from conformance._schemas import REPORT_SCHEMA, schema_errors
from conformance.report import _render as _report_render
from conformance.run import (
    SIGNATURE_VERSION,
    Certification,
    Totals,
    VectorResult,
    signature_of,
)

__all__ = [
    "MAX_DEPTH",
    "REPORT_FILES",
    "REPORT_FORMAT",
    "build_report",
    "default_report_dir",
    "dumps_report",
    "load_report",
    "prepare_report_dir",
    "previous_run",
    "render_files",
    "results_of",
    "storable",
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


#: Deeper than this, a value is stored as its JSON text (a string): report.json, its loaders
#: and its renderers never recurse without bound on what an implementation sent.
MAX_DEPTH = 48
#: The largest report.json read back (``report``, ``compare``): a full certification's is a
#: few megabytes; only regular files are read, so a FIFO is never waited on and a device
#: (``/dev/zero``) never read.
MAX_REPORT_BYTES = 256 * 1024 * 1024
_SURROGATE = re.compile("[\ud800-\udfff]")


def _json_text(value: Any) -> str:
    """Compact JSON text of any value, iteratively (no recursion limit)."""
    parts: list[str] = []
    stack: list[Any] = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, _Raw):
            parts.append(item.text)
        elif isinstance(item, Mapping):
            tokens: list[Any] = [_Raw("{")]
            for index, (key, child) in enumerate(item.items()):
                comma = "," if index else ""
                tokens += [_Raw(f"{comma}{json.dumps(str(key), ensure_ascii=False)}:"), child]
            tokens.append(_Raw("}"))
            stack.extend(reversed(tokens))
        elif isinstance(item, list | tuple):
            tokens = [_Raw("[")]
            for index, child in enumerate(item):
                tokens += [_Raw(","), child] if index else [child]
            tokens.append(_Raw("]"))
            stack.extend(reversed(tokens))
        else:
            parts.append(json.dumps(_scalar(item), ensure_ascii=False))
    return "".join(parts)


class _Raw:
    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text


def _scalar(value: Any) -> Any:
    """A JSON scalar for ``value`` (NaN and Infinity become strings, non-JSON its repr)."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else repr(value)
    return repr(value)


def storable(value: Any, depth: int = 0) -> Any:
    """A JSON-safe copy of ``value`` for report.json, losing nothing.

    Mappings and sequences are copied (keys made strings, tuples lists); NaN and Infinity and
    anything that is not JSON become strings; below :data:`MAX_DEPTH` levels a value is
    replaced by its compact JSON text. Strings are kept as they are, lone surrogates included
    (:func:`dumps_report` escapes them).
    """
    if isinstance(value, Mapping):
        if depth >= MAX_DEPTH:
            return _json_text(value)
        return {str(k): storable(v, depth + 1) for k, v in value.items()}
    if isinstance(value, list | tuple):
        if depth >= MAX_DEPTH:
            return _json_text(value)
        return [storable(v, depth + 1) for v in value]
    return _scalar(value)


def dumps_report(report: Any) -> bytes:
    """``report.json`` bytes: indented, members in the order built (header first), UTF-8.

    Lone surrogates (legal in JSON text as escapes, impossible in UTF-8) are written as
    ``\\udXXX`` escapes, so a reader gets back exactly the string the implementation sent.
    """
    text = json.dumps(report, indent=1, ensure_ascii=False, allow_nan=False) + "\n"
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text).encode("utf-8")


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
    results = []
    for result in cert.results:
        entry = result.to_json()
        signature = signature_of(result)
        if signature is not None:
            entry["signature"] = signature
        results.append(entry)
    verdict = cert.verdict
    totals = cert.totals
    config = cert.config
    adapter = dict(cert.adapter)
    sandbox = adapter.pop("sandbox", None)  # the adapter's metadata carries it; said apart
    report = {
        "format": REPORT_FORMAT,
        "header": {
            "kit": {"name": KIT_NAME, "version": kit_version()},
            "profile": cert.profile,
            "spec": cert.spec,
            "contract": cert.contract,
            "corpus": {
                "digest": cert.corpus_digest,
                "vectors": cert.corpus_vectors,
                "root": cert.corpus_root,
                "published": cert.published_corpus,
            },
            "adapter": adapter,
            "selection": {"patterns": list(cert.selection), "selected": len(results)},
            "sections": {
                "expected": list(cert.expected_sections),
                "run": list(cert.sections),
            },
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
            **({"sandbox": sandbox} if sandbox is not None else {}),
        },
        "results": results,
        "failure_signatures": [s.to_json() for s in cert.signatures],
        "sections": {name: section.to_json() for name, section in cert.sections.items()},
        "footer": {
            "finished": cert.finished,
            "duration_s": round(cert.duration_s, 3),
            "complete": not cert.interrupted and not cert.harness_faults,
            "partial": cert.partial,
            "partial_reasons": list(cert.partial_reasons),
            "harness_faults": list(cert.harness_faults),
            "requests": cert.requests,
            "restarts": cert.restarts,
            "totals": totals.to_json(),
            "by_level": _grouped(cert.results, lambda r: (r.level,)),
            "by_area": _grouped(cert.results, lambda r: (r.area,)),
            "by_clause": _grouped(cert.results, lambda r: r.clauses),
            "by_interpretation": _grouped(cert.results, lambda r: r.interpretations),
            "signature_version": SIGNATURE_VERSION,
            "unexpected_passes": [r.id for r in cert.results if r.unexpected_pass],
            "stale_expected_failures": [
                {"entry": e.pattern, "reason": e.reason, "line": e.line}
                for e in cert.stale_expected_failures
            ],
            "broken_reason": cert.broken_reason,
            "attribution": cert.attribution.to_json(),
            "clean": cert.clean and not cert.partial,
            "verdict": verdict.to_json(),
        },
    }
    built: dict[str, Any] = storable(report)
    return built


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
        report = loads(read_bounded(path, MAX_REPORT_BYTES))
    except (OSError, ValueError, RecursionError) as exc:
        raise ReportError(f"cannot read report {str(path)!r}: {exc}") from exc
    validate_report(report)
    if not isinstance(report, dict):
        raise ReportError(f"{str(path)!r} is not a report object")
    return report


def results_of(report: Mapping[str, Any]) -> list[VectorResult]:
    """The report's results as :class:`VectorResult` objects."""
    return [VectorResult.from_json(r) for r in report["results"]]


def default_report_dir(certification: Certification, base: Path | str = "reports") -> Path:
    """``reports/<implementation name>/`` (relative to the working directory), unless that
    directory holds the report of another adapter.

    The name is the implementation's own claim (its handshake): an adapter calling itself
    ``adamos-phase6-reference`` must not replace the reference's report. So when
    ``reports/<name>/report.json`` was written for another adapter (:func:`other_adapter`),
    the report goes to ``reports/<name>-<8 hex digits of the adapter spec>/``; if that one is
    another adapter's too, :class:`ReportError` (nothing is replaced).
    """
    spec = str(certification.adapter.get("spec", ""))
    plain = Path(base) / slugify(certification.implementation_name)
    if other_adapter(plain, spec) is None:
        return plain
    digest = hashlib.sha256(_adapter_identity(spec).encode("utf-8", "surrogatepass")).hexdigest()
    named = Path(base) / f"{slugify(certification.implementation_name)[:71]}-{digest[:8]}"
    holder = other_adapter(named, spec)
    if holder is not None:
        raise ReportError(
            f"{str(plain)!r} and {str(named)!r} both hold the report of another adapter "
            f"({holder!r}) under the name {certification.implementation_name!r}: nothing "
            "replaced; name a directory with --report-dir"
        )
    return named


def _adapter_identity(spec: str) -> str:
    """The adapter spec as the user meant it: a ``cmd:`` spec's interpreter by its name, not
    its path (the reference run from two virtual environments is one adapter)."""
    if not spec.startswith("cmd:"):
        return spec
    try:
        argv = shlex.split(spec[4:])
    except ValueError:
        return spec
    if argv and re.fullmatch(r"python[0-9.]*", os.path.basename(argv[0])):
        argv[0] = "python"
    return "cmd:" + shlex.join(argv)


#: The largest report.json read to learn which adapter it was written for.
_MAX_OWNED_REPORT = MAX_REPORT_BYTES


def other_adapter(directory: Path | str, spec: str) -> str | None:
    """The adapter spec of the report in ``directory`` when it is another adapter's than
    ``spec`` (the same up to the interpreter's path), else ``None`` (no report there, one of
    this adapter, or nothing readable as a report: replaced as before, with a note)."""
    target = Path(directory) / "report.json"
    try:
        if target.is_symlink():
            return None
        header = loads(read_bounded(target, _MAX_OWNED_REPORT))["header"]
        owner = header["adapter"]["spec"]
    except (OSError, ValueError, KeyError, TypeError, RecursionError):
        return None
    if not isinstance(owner, str) or _adapter_identity(owner) == _adapter_identity(spec):
        return None
    return owner


def prepare_report_dir(directory: Path | str) -> Path:
    """Make sure reports can be written to ``directory`` before anything runs.

    Creates it (and its parents) if missing; raises :class:`ReportError` when it is a file,
    sits below a file, or cannot be written (checked by creating and removing a file in it,
    which works for root as well, where permission bits do not).
    """
    directory = Path(directory)
    if directory.exists() and not directory.is_dir():
        raise ReportError(f"report directory {str(directory)!r} is not a directory")
    try:
        directory.mkdir(parents=True, exist_ok=True)
        probe = directory / f".phase6-write-check-{secrets.token_hex(6)}"
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
        os.close(os.open(probe, flags, 0o600))
        probe.unlink()
    except OSError as exc:
        raise ReportError(
            f"cannot write reports to {str(directory)!r}: {exc.strerror or exc}"
        ) from exc
    return directory


def previous_run(directory: Path | str, report: Mapping[str, Any]) -> str | None:
    """A sentence about the report already in ``directory`` when ``report`` would replace a
    different run (another selection, corpus, adapter or set of sections), else ``None``."""
    target = Path(directory) / "report.json"
    if not target.is_file() or target.is_symlink():
        return None
    try:
        old = loads(read_bounded(target, MAX_REPORT_BYTES))
        header, footer = old["header"], old["footer"]
        before = (
            tuple(header["selection"]["patterns"]),
            header["corpus"]["digest"],
            header["adapter"]["spec"],
            bool(footer.get("partial")),
        )
        selected, when = header["selection"]["selected"], header["started"]
    except (OSError, ValueError, KeyError, TypeError, RecursionError):
        return f"replacing {target}, which is not a readable report"
    new_header, new_footer = report["header"], report["footer"]
    after = (
        tuple(new_header["selection"]["patterns"]),
        new_header["corpus"]["digest"],
        new_header["adapter"]["spec"],
        bool(new_footer.get("partial")),
    )
    if before == after:
        return None

    def describe(partial: bool, patterns: tuple[str, ...], count: int) -> str:
        kind = "a partial run" if partial else "a full certification"
        chosen = f", selection {', '.join(patterns)}" if patterns else ""
        return f"{kind} of {count} vectors{chosen}"

    return (
        f"replacing the report in {target.parent}/ ({describe(before[3], before[0], selected)}, "
        f"started {when}) with {describe(after[3], after[0], new_header['selection']['selected'])}"
    )


def render_files(report: Mapping[str, Any], directory: Path | str) -> dict[str, Path]:
    """Write ``report.md``, ``report.html``, ``junit.xml`` and ``badge.svg`` from a report
    (each atomically); a renderer that fails does not stop the others (the first failure is
    raised as :class:`ReportError` once every file that could be written is)."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    written = {}
    failures = []
    for name, renderer in REPORT_FILES.items():
        try:
            text = getattr(_report_render, renderer)(report)
            written[name] = write_atomic(directory, name, text.encode("utf-8"))
        except Exception as exc:
            failures.append(f"{name}: {type(exc).__name__}: {exc}")
    if failures:
        raise ReportError("; ".join(failures))
    return written


def write_report(
    certification: Certification, directory: Path | str | None = None
) -> dict[str, Path]:
    """Validate and write every report file; returns file name -> path.

    report.json is written first. A report that does not validate (a kit bug) is still
    written, marked partial with the fault, and then :class:`ReportError` is raised.
    """
    report = build_report(certification)
    directory = Path(directory) if directory is not None else default_report_dir(certification)
    prepare_report_dir(directory)
    problem: ReportError | None = None
    try:
        validate_report(report)
    except ReportError as exc:
        problem = exc
        footer = report.setdefault("footer", {})
        with contextlib.suppress(AttributeError):
            footer["partial"] = True
            footer.setdefault("harness_faults", []).append(f"report does not validate: {exc}")
    target = write_atomic(directory, "report.json", dumps_report(report))
    written = {"report.json": target, **render_files(report, directory)}
    if problem is not None:
        raise problem
    return written
