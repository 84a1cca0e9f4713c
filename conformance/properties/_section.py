"""The property suite as a report: the ``properties`` section of ``certify``, a standalone
``properties.json`` and the counterexample vector file.

``certify`` calls :func:`certify_section` (registered in
:data:`conformance._sections.SECTION_PROVIDERS` as ``properties``). Section options
(``--section-option KEY=VALUE``) it reads: ``seed``, ``examples``, ``deep`` (``1``/``0``) and
``families`` (comma-separated), each also accepted with a ``properties.`` prefix.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from conformance._errors import UsageError
from conformance._kit import kit_version, slugify, write_atomic
from conformance._schemas import VECTOR_FILE_SCHEMA, schema_errors
from conformance.adapters import spec_name
from conformance.properties._engine import PropertiesRun, PropertySettings, run_properties
from conformance.properties._families import FAMILIES
from conformance.run import Outcome, Section, SectionContext, SectionItem, worst_outcome

__all__ = [
    "COUNTEREXAMPLES_DIR",
    "PROPERTIES_FORMAT",
    "build_section",
    "certify_section",
    "settings_from_options",
    "write_counterexamples",
    "write_properties_report",
]

PROPERTIES_FORMAT = "phase6-properties/1"
#: Under the report directory: ``counterexamples/counterexamples.json``, a corpus directory of
#: its own, so ``certify --vectors <report dir>/counterexamples`` replays the counterexamples.
COUNTEREXAMPLES_DIR = "counterexamples"
_TRUE = ("1", "true", "yes", "on")


def _option(options: Mapping[str, str], name: str) -> str | None:
    return options.get(f"properties.{name}", options.get(name))


def settings_from_options(options: Mapping[str, str], *, timeout: float) -> PropertySettings:
    """:class:`PropertySettings` from ``--section-option`` values (see the module docstring)."""
    try:
        seed_text = _option(options, "seed")
        examples_text = _option(options, "examples")
        deep = (_option(options, "deep") or "0").lower() in _TRUE
        families_text = _option(options, "families") or ""
        settings = PropertySettings(
            seed=int(seed_text) if seed_text else (None if deep else PropertySettings.seed),
            examples=int(examples_text) if examples_text else None,
            deep=deep,
            families=tuple(f for f in families_text.split(",") if f),
            timeout=timeout,
            table_attribution=(_option(options, "attribution") or "tables") != "evidence",
        )
        settings.chosen()
    except (ValueError, KeyError) as exc:
        raise UsageError(f"bad properties section option: {exc}") from exc
    return settings


def reproduce_command(run: PropertiesRun) -> str:
    """The command that re-runs the same property suite."""
    seed = run.settings.seed
    families = "".join(f" --family {name}" for name in run.settings.families)
    examples = f" --examples {run.settings.examples}" if run.settings.examples else ""
    deep = " --deep" if run.settings.deep else ""
    return (
        f"python -m conformance properties --adapter {shlex.quote(run.adapter_spec)} "
        f"--seed {seed}{examples}{deep}{families}"
    )


def build_section(run: PropertiesRun, *, counterexamples_path: Path | None = None) -> Section:
    """The ``properties`` report section for a run."""
    items = tuple(
        SectionItem(
            id=result.id,
            outcome=result.outcome,
            clauses=result.clauses,
            message=(
                f"differs on pinned {', '.join(result.differs_on)}: {result.message}"
                if result.level == "pinned" and result.outcome is Outcome.FAILED
                else result.message
            ),
            details={
                "statement": FAMILIES[result.family].statement,
                "pinned_checks": dict(FAMILIES[result.family].pinned_checks),
                **result.to_json(),
            },
            level=result.level if result.outcome is Outcome.FAILED else "required",
            interpretations=result.differs_on if result.outcome is Outcome.FAILED else (),
        )
        for result in run.results
    )
    outcomes = [r.outcome for r in run.results]
    status: Any
    if run.broken is not None:
        status = Outcome.ERRORED
        summary = f"adapter broken: {run.broken}"
    else:
        status = worst_outcome(outcomes)
        passed = outcomes.count(Outcome.PASSED)
        pinned = sorted({i for r in run.results if r.level == "pinned" for i in r.differs_on})
        pinned_only = sum(
            1 for r in run.results if r.outcome is Outcome.FAILED and r.level == "pinned"
        )
        summary = (
            f"{passed}/{len(outcomes)} property families passed "
            f"(seed {run.settings.seed}{', deep' if run.settings.deep else ''}, "
            f"{run.examples_source.label})"
            + (
                f"; {pinned_only} failed only on pinned readings ({', '.join(pinned)})"
                if pinned_only
                else ""
            )
            + f"; {len(run.counterexamples)} counterexample vector(s)"
        )
    data: dict[str, Any] = {
        "settings": {**run.settings.to_json(), "examples_source": run.examples_source.to_json()},
        "duration_s": round(run.duration_s, 3),
        "reproduce": reproduce_command(run),
        "counterexamples": list(run.counterexamples),
        "counterexamples_file": str(counterexamples_path) if counterexamples_path else None,
        "pinned_checks": {
            name: dict(family.pinned_checks)
            for name, family in FAMILIES.items()
            if family.pinned_checks
        },
    }
    chosen = set(run.settings.families)
    if chosen and chosen != set(FAMILIES):
        data["narrowed"] = (
            f"{len(chosen)} of {len(FAMILIES)} property families "
            f"(--section-option families={','.join(run.settings.families)})"
        )
    return Section(
        name="properties",
        title="Property suite (hypothesis)",
        status=status,
        summary=summary,
        items=items,
        data=data,
        affects_verdict=True,
    )


def write_counterexamples(run: PropertiesRun, report_dir: Path) -> Path | None:
    """Write ``<report_dir>/counterexamples/counterexamples.json`` (``None``: nothing to write).

    A stale file from an earlier run is removed when this run found nothing.
    """
    target = report_dir / COUNTEREXAMPLES_DIR / f"{COUNTEREXAMPLES_DIR}.json"
    document = run.counterexample_file()
    if document is None:
        if target.is_file():
            target.unlink()
        return None
    problems = schema_errors(VECTOR_FILE_SCHEMA, document, limit=1)
    if problems:  # a kit bug: say so instead of writing an unusable file
        raise UsageError(f"counterexample file does not validate: {problems[0]}")
    target.parent.mkdir(parents=True, exist_ok=True)
    return write_atomic(target.parent, target.name, _json_bytes(document))


def certify_section(context: SectionContext) -> Section:
    """Section provider for ``certify``: the property suite against the adapter under test."""
    settings = settings_from_options(context.options, timeout=context.timeout)
    run = run_properties(context.adapter_spec, settings, jobs=context.jobs)
    path = None
    if context.report_dir is not None:
        path = write_counterexamples(run, context.report_dir)
    return build_section(run, counterexamples_path=path)


def report_dir_for(run: PropertiesRun, base: Path | str = "reports") -> Path:
    """``reports/<implementation name>/``, the directory ``certify`` uses by default."""
    name = str(run.implementation.get("name") or spec_name(run.adapter_spec))
    return Path(base) / slugify(name)


def write_properties_report(run: PropertiesRun, report_dir: Path | None = None) -> Path:
    """Write ``properties.json`` (and the counterexample file); returns its path."""
    directory = report_dir if report_dir is not None else report_dir_for(run)
    directory.mkdir(parents=True, exist_ok=True)
    counterexamples = write_counterexamples(run, directory)
    section = build_section(run, counterexamples_path=counterexamples)
    document = {
        "format": PROPERTIES_FORMAT,
        "kit_version": kit_version(),
        "adapter": {"spec": run.adapter_spec, "implementation": dict(run.implementation)},
        "passed": run.passed,
        "section": section.to_json(),
    }
    return write_atomic(directory, "properties.json", _json_bytes(document))


def _json_bytes(document: Any) -> bytes:
    """Indented JSON as UTF-8; escaped ASCII when a lone surrogate cannot be UTF-8."""
    try:
        return (json.dumps(document, indent=1, ensure_ascii=False) + "\n").encode("utf-8")
    except UnicodeEncodeError:
        return (json.dumps(document, indent=1) + "\n").encode("ascii")
