"""What a probe is and what it reports: one :class:`CheckResult` per check, per clause.

A *probe* (``clock``, ``environment``, ...) is a black-box experiment on a subprocess adapter
named after the ``probe:<name>`` entries of ``specs/clauses.toml``. It runs several *checks*;
each check names the clauses it verifies (always a subset of the clauses whose ``verified_by``
lists the probe) and ends ``passed``, ``failed``, ``errored`` (the probe could not judge: the
adapter did not start, a baseline request crashed) or ``skipped`` (a tool the check needs is
missing on this machine: never a pass). A failed check whose problems all rest on pinned
readings names them in ``pinned`` (the clock on a request that gives now_utc, INT-37): it says
"differs on pinned INT-x", not "breaks the spec". :data:`PINNED_CHECKS` lists them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from conformance.run import Outcome

if TYPE_CHECKING:
    from conformance.probes._context import ProbeContext

__all__ = ["CheckResult", "Probe"]


@dataclass(frozen=True)
class CheckResult:
    """One check of one probe: its outcome, the clauses it verifies, and why."""

    probe: str
    check: str
    outcome: Outcome
    clauses: tuple[str, ...]
    message: str
    details: Mapping[str, Any] = field(default_factory=dict)
    duration_s: float = 0.0
    pinned: tuple[str, ...] = ()

    @property
    def id(self) -> str:
        """``<probe>:<check>``, e.g. ``clock:shifted-clock``."""
        return f"{self.probe}:{self.check}"

    def to_json(self) -> dict[str, Any]:
        """The JSON form (kill matrices, ``--json``)."""
        return {
            "id": self.id,
            "probe": self.probe,
            "check": self.check,
            "outcome": self.outcome,
            "clauses": list(self.clauses),
            "message": self.message,
            "details": dict(self.details),
            "duration_s": round(self.duration_s, 3),
            "pinned": list(self.pinned),
        }


@dataclass(frozen=True)
class Probe:
    """A probe: its name (``probe:<name>`` in the clause register), what it can and cannot see,
    and the function that runs its checks."""

    name: str
    title: str
    sees: str
    blind_to: str
    run: Callable[[ProbeContext], Iterator[CheckResult]]
