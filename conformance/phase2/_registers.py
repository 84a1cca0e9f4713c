"""The profile's registers as the harness reads them (specs/phase2/).

- the ``[[property]]`` table of the clause register (``clauses.toml``): each property is an
  invariant the harness checks without pinned expectations; the register gives its name, the
  clauses a break of it violates, and its exact statement (:func:`load_properties`);
- the ``executable`` alternatives of the interpretation register (``interpretations.toml``):
  the readings the certifier tries on every failure (:func:`executable_alternatives`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from conformance._errors import RegisterError
from conformance._kit import specs_dir
from conformance.registers import ReadingParameter, parse_parameter, read_register

__all__ = ["Property", "executable_alternatives", "load_properties", "reading_parameters"]


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


def executable_alternatives(path: Path | str | None = None) -> tuple[str, ...]:
    """Every executable alternative the interpretation register names (``P2-INT-08/one-hop``),
    in register order."""
    path = Path(path) if path is not None else specs_dir() / "phase2" / "interpretations.toml"
    document = read_register(path, "phase2-interpretations/1")
    try:
        return tuple(
            str(alternative)
            for raw in document.get("entry", [])
            for alternative in raw.get("executable", ())
        )
    except (AttributeError, TypeError) as exc:
        raise RegisterError(f"malformed entry: {exc!r}", path=str(path)) from exc


def reading_parameters(path: Path | str | None = None) -> dict[str, ReadingParameter]:
    """Executable alternative that leaves a value free -> its parameter (the register's
    ``parameters``: ``P2-INT-06/several`` runs as ``P2-INT-06/several(n=3)``)."""
    path = Path(path) if path is not None else specs_dir() / "phase2" / "interpretations.toml"
    document = read_register(path, "phase2-interpretations/1")
    try:
        return {
            str(alternative): parse_parameter(table)
            for raw in document.get("entry", [])
            for alternative, table in (raw.get("parameters") or {}).items()
        }
    except (AttributeError, KeyError, TypeError) as exc:
        raise RegisterError(f"malformed parameters: {exc!r}", path=str(path)) from exc
