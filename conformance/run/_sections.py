"""Report sections beyond the vectors: properties, probes, suite strength, ...

A section provider is a callable ``provider(context: SectionContext) -> Section``, named by a
``module:callable`` string. ``certify`` runs the providers in :data:`SECTION_PROVIDERS` (and any
given with ``--section NAME=module:callable``) after the vectors; their sections land in
``report.json`` under ``sections.<name>`` and are rendered by every report format. A section
with ``affects_verdict=True`` and status ``failed`` or ``errored`` makes the run non-compliant.
A provider that cannot be imported or raises yields an ``errored`` section, never a silent gap.

Required and pinned, as for vectors: an item whose failure rests only on pinned readings (its
``level`` is ``pinned`` and it names the interpretations) counts toward "differs on pinned
INT-x", not against the required verdict; an errored item, or a failed item at level
``required``, makes the section fail the verdict (:attr:`Section.fails_verdict`).
"""

from __future__ import annotations

import importlib
import re
import traceback
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from conformance._errors import UsageError
from conformance.run._results import Outcome

if TYPE_CHECKING:
    from conformance.corpus import Corpus
    from conformance.run._results import VectorResult

__all__ = [
    "SECTION_PROVIDERS",
    "Section",
    "SectionContext",
    "SectionItem",
    "parse_section_option",
    "run_section",
]

#: name -> "module:callable", run by every ``certify`` unless ``--no-sections``. The owner of a
#: provider adds its line here (e.g. ``"probes": "conformance.probes:certify_section"``).
SECTION_PROVIDERS: Mapping[str, str] = {
    "probes": "conformance.probes:certify_section",
    "properties": "conformance.properties:certify_section",
    "suite_strength": "conformance.report._suite_strength:suite_strength_section",
    "audit": "conformance.audit._section:certify_section",
}

_NAME = re.compile(r"^[a-z][a-z0-9_]*$")


@dataclass(frozen=True)
class SectionItem:
    """One checked thing inside a section (a probe, a property, a mutant).

    ``level`` says what a failure of this item rests on: ``required`` (the spec text) or
    ``pinned`` (only the interpretations in ``interpretations``); ``reason`` is why it was
    skipped, when it was.
    """

    id: str
    outcome: Outcome
    clauses: tuple[str, ...] = ()
    message: str = ""
    details: Mapping[str, Any] = field(default_factory=dict)
    level: str = "required"
    interpretations: tuple[str, ...] = ()

    @property
    def bad(self) -> bool:
        """Failed or errored."""
        return self.outcome in (Outcome.FAILED, Outcome.ERRORED)

    @property
    def fails_required(self) -> bool:
        """Errored, or failed on a check the spec text alone decides."""
        return self.outcome is Outcome.ERRORED or (
            self.outcome is Outcome.FAILED and (self.level != "pinned" or not self.interpretations)
        )

    def to_json(self) -> dict[str, Any]:
        """The report form."""
        return {
            "id": self.id,
            "outcome": self.outcome,
            "clauses": list(self.clauses),
            "level": self.level,
            "interpretations": list(self.interpretations),
            "message": self.message,
            "details": dict(self.details),
        }


@dataclass(frozen=True)
class Section:
    """A named block of a report, with its own items and free-form ``data``."""

    name: str
    title: str
    status: Outcome
    summary: str = ""
    items: tuple[SectionItem, ...] = ()
    data: Mapping[str, Any] = field(default_factory=dict)
    affects_verdict: bool = True
    #: A capability an implementation may lack (``audit``): skipped, it does not make a
    #: certification partial.
    optional: bool = False

    @property
    def fails_verdict(self) -> bool:
        """Whether this section makes the run non-compliant: it affects the verdict and failed
        or errored on something other than pinned readings (or errored as a whole)."""
        if not self.affects_verdict or self.status not in (Outcome.FAILED, Outcome.ERRORED):
            return False
        bad = [item for item in self.items if item.bad]
        return not bad or any(item.fails_required for item in bad)

    @property
    def pinned_interpretations(self) -> tuple[str, ...]:
        """The interpretations its pinned-only failures rest on (sorted)."""
        if not self.affects_verdict:
            return ()
        return tuple(
            sorted(
                {
                    i
                    for item in self.items
                    if item.outcome is Outcome.FAILED and not item.fails_required
                    for i in item.interpretations
                }
            )
        )

    @property
    def skipped_items(self) -> tuple[SectionItem, ...]:
        """Items that could not run here (a missing tool, ...)."""
        return tuple(item for item in self.items if item.outcome is Outcome.SKIPPED)

    def to_json(self) -> dict[str, Any]:
        """The report form (``report.schema.json#/$defs/section``)."""
        return {
            "title": self.title,
            "status": self.status,
            "summary": self.summary,
            "affects_verdict": self.affects_verdict,
            "items": [item.to_json() for item in self.items],
            "data": dict(self.data),
        }


@dataclass(frozen=True)
class SectionContext:
    """What a provider gets: the adapter under test and the run so far."""

    adapter_spec: str
    corpus: Corpus
    results: tuple[VectorResult, ...]
    report_dir: Path | None
    jobs: int
    timeout: float
    options: Mapping[str, str] = field(default_factory=dict)


def parse_section_option(text: str) -> tuple[str, str]:
    """``NAME=module:callable`` -> (name, target)."""
    name, sep, target = text.partition("=")
    if not sep or not _NAME.match(name) or ":" not in target:
        raise UsageError(f"--section {text!r}: expected NAME=module:callable")
    return name, target


def run_section(name: str, target: str, context: SectionContext) -> Section:
    """Import and run one provider; failures become an ``errored`` section."""
    module_name, _, attribute = target.partition(":")
    try:
        provider: Callable[[SectionContext], object] = getattr(
            importlib.import_module(module_name), attribute
        )
        section = provider(context)
    except Exception as exc:
        return Section(
            name=name,
            title=name,
            status=Outcome.ERRORED,
            summary=f"provider {target!r} failed: {type(exc).__name__}: {exc}",
            data={"traceback": traceback.format_exc(limit=10)},
        )
    if not isinstance(section, Section):
        return Section(
            name, name, Outcome.ERRORED, f"provider {target!r} returned {type(section).__name__}"
        )
    return section
