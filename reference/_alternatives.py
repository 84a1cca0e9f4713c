"""What every profile's readings share: an executable alternative, and applying a list of them.

A profile's readings (``reference/_readings.py`` for SPEC-006, ``reference/phase2/_readings.py``
for Phase 2) are a frozen dataclass whose defaults are the register's pinned readings; an
:class:`Alternative` names the values it sets. This module imports nothing of either profile,
so a Phase 2 process never pays for the SPEC-006 controller's imports.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Final, TypeVar

__all__ = [
    "Alternative",
    "Parameter",
    "UnknownReading",
    "applied",
    "followed",
    "instance_id",
    "split_id",
]

R = TypeVar("R")


class UnknownReading(ValueError):
    """An alternative ID that is not executable here (not in the profile's table)."""


#: A parameterized reading's ID: the alternative's ID, then its value in parentheses
#: (``INT-28/list-first-n-drops(n=3)``); the value is a decimal int without leading zeros, so
#: one reading has one ID.
_INSTANCE: Final = re.compile(r"(?P<base>[^()]+)\((?P<name>[a-z_]+)=(?P<value>[^()]*)\)")
_DECIMAL: Final = re.compile(r"0|[1-9][0-9]{0,17}")


@dataclass(frozen=True)
class Parameter:
    """The value an alternative leaves to the implementation ("the first N drops"): its name in
    the reading's ID, the readings field it sets, and the ints it may take (``high`` None: no
    upper bound). The register declares the same name and bounds (``parameters``)."""

    name: str
    field: str
    low: int
    high: int | None = None

    def value(self, alternative_id: str, text: str) -> int:
        """``text`` as this parameter's value (UnknownReading when it is not one)."""
        number = int(text) if _DECIMAL.fullmatch(text) else None
        if number is None or number < self.low or (self.high is not None and number > self.high):
            bounds = f"{self.low}..{'' if self.high is None else self.high}"
            raise UnknownReading(
                f"{alternative_id!r}: {self.name} must be an int in {bounds} written in decimal "
                f"digits, not {text!r}"
            )
        return number


def split_id(reading_id: str) -> tuple[str, str | None, str | None]:
    """(the alternative's ID, the parameter's name, its value as written) of a reading ID; the
    last two None for an ID without a value (``INT-08/verbatim``)."""
    found = _INSTANCE.fullmatch(reading_id)
    if found is None:
        return reading_id, None, None
    return found["base"], found["name"], found["value"]


def instance_id(alternative_id: str, name: str, value: int) -> str:
    """The ID of a parameterized alternative with its value: ``INT-28/list-first-n-drops(n=3)``."""
    return f"{alternative_id}({name}={value})"


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
    #: The value the alternative leaves free, when it does ("the first N drops"): its ID then
    #: names one reading only with the value, ``INT-28/list-first-n-drops(n=3)``.
    parameter: Parameter | None = None

    @property
    def entry(self) -> str:
        """The register entry (``INT-08``, ``P2-INT-08``)."""
        return self.id.split("/", 1)[0]


def applied(
    pinned: R, ids: Iterable[str], table: Mapping[str, Alternative]
) -> tuple[R, dict[str, str]]:
    """``pinned`` with the alternatives ``ids`` switched on, and entry -> the ID chosen for it
    (UnknownReading for an ID not in ``table``, a parameterized alternative without its value
    or with a value it does not take, ValueError for two alternatives of one entry)."""
    readings = pinned
    entries: dict[str, str] = {}
    for alternative_id in ids:
        base, name, text = split_id(alternative_id)
        alternative = table.get(base)
        if alternative is None:
            known = ", ".join(sorted(table))
            raise UnknownReading(f"no executable alternative {alternative_id!r} (known: {known})")
        parameter = alternative.parameter
        values = dict(alternative.values)
        if parameter is None and name is not None:
            raise UnknownReading(f"{base!r} takes no parameter: {alternative_id!r}")
        if parameter is not None:
            if name != parameter.name or text is None:
                raise UnknownReading(
                    f"{alternative_id!r}: {base} needs its value, "
                    f"{instance_id(base, parameter.name, parameter.low)} for example"
                )
            values[parameter.field] = parameter.value(alternative_id, text)
        if alternative.entry in entries:
            raise ValueError(
                f"{alternative_id!r} and {entries[alternative.entry]!r} are two readings of "
                f"{alternative.entry}: choose one"
            )
        entries[alternative.entry] = alternative_id
        readings = replace(readings, **values)  # type: ignore[type-var]
    return readings, entries


def followed(value: Any, pinned: Any, table: Mapping[str, Alternative]) -> list[str]:
    """The alternatives of ``table`` that ``value`` follows (all their values set, and not
    the pinned ones; a parameterized one with its value)."""
    found = []
    for alternative in table.values():
        parameter = alternative.parameter
        if all(getattr(value, name) == v for name, v in alternative.values.items()) and (
            parameter is not None
            and getattr(value, parameter.field) != getattr(pinned, parameter.field)
        ):
            found.append(
                instance_id(alternative.id, parameter.name, getattr(value, parameter.field))
            )
        elif (
            parameter is None
            and alternative.values
            and all(getattr(value, name) == v for name, v in alternative.values.items())
            and any(getattr(pinned, name) != v for name, v in alternative.values.items())
        ):
            found.append(alternative.id)
    return found
