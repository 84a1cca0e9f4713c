"""What every profile's readings share: an executable alternative, and applying a list of them.

A profile's readings (``reference/_readings.py`` for SPEC-006, ``reference/phase2/_readings.py``
for Phase 2) are a frozen dataclass whose defaults are the register's pinned readings; an
:class:`Alternative` names the values it sets. This module imports nothing of either profile,
so a Phase 2 process never pays for the SPEC-006 controller's imports.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

__all__ = ["Alternative", "UnknownReading", "applied", "followed"]

R = TypeVar("R")


class UnknownReading(ValueError):
    """An alternative ID that is not executable here (not in the profile's table)."""


@dataclass(frozen=True)
class Alternative:
    """One executable alternative of a register entry: its ID, the register's own words for it
    (``alternatives[index]`` of the entry), and the readings values it sets (none for a
    parameter, whose value the implementation supplies)."""

    id: str
    index: int
    summary: str
    values: dict[str, Any] = field(default_factory=dict)
    #: Changes only hash values (package_hash, record_hash), on (nearly) every package: every
    #: package vector rests on its entry, so vectors do not list it; the label check verifies
    #: instead that nothing but the hashes changes (``tools/readings.py``).
    hashes_only: bool = False

    @property
    def entry(self) -> str:
        """The register entry (``INT-08``, ``P2-INT-08``)."""
        return self.id.split("/", 1)[0]


def applied(
    pinned: R, ids: Iterable[str], table: Mapping[str, Alternative]
) -> tuple[R, dict[str, str]]:
    """``pinned`` with the alternatives ``ids`` switched on, and entry -> the ID chosen for it
    (UnknownReading for an ID not in ``table``, ValueError for two alternatives of one entry)."""
    readings = pinned
    entries: dict[str, str] = {}
    for alternative_id in ids:
        alternative = table.get(alternative_id)
        if alternative is None:
            known = ", ".join(sorted(table))
            raise UnknownReading(f"no executable alternative {alternative_id!r} (known: {known})")
        if alternative.entry in entries:
            raise ValueError(
                f"{alternative_id!r} and {entries[alternative.entry]!r} are two readings of "
                f"{alternative.entry}: choose one"
            )
        entries[alternative.entry] = alternative_id
        readings = replace(readings, **alternative.values)  # type: ignore[type-var]
    return readings, entries


def followed(value: Any, pinned: Any, table: Mapping[str, Alternative]) -> list[str]:
    """The alternatives of ``table`` that ``value`` follows (all their values set, and not
    the pinned ones)."""
    return [
        alternative.id
        for alternative in table.values()
        if alternative.values
        and all(getattr(value, name) == v for name, v in alternative.values.items())
        and any(getattr(pinned, name) != v for name, v in alternative.values.items())
    ]
