"""The ``[[property]]`` table of the profile's clause register (specs/phase2/clauses.toml).

Each property is an invariant the harness checks without pinned expectations; the register
gives its name, the clauses a break of it violates, and its exact statement.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from conformance._errors import RegisterError
from conformance._kit import specs_dir
from conformance.registers import read_register

__all__ = ["Property", "load_properties"]


@dataclass(frozen=True)
class Property:
    """One invariant of the profile."""

    name: str
    clauses: tuple[str, ...]
    statement: str


def load_properties(path: Path | str | None = None) -> tuple[Property, ...]:
    """The property table, in register order."""
    path = Path(path) if path is not None else specs_dir() / "phase2" / "clauses.toml"
    document = read_register(path, "phase2-clauses/1")
    try:
        return tuple(
            Property(
                str(raw["name"]),
                tuple(str(c) for c in raw["clauses"]),
                " ".join(str(raw["statement"]).split()),
            )
            for raw in document.get("property", [])
        )
    except (KeyError, TypeError) as exc:
        raise RegisterError(f"malformed property: {exc!r}", path=str(path)) from exc
