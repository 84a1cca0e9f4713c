"""The gallery's table: every mutant with the clauses and interpretations it violates.

A mutant is the reference with ONE deliberate deviation, applied by monkeypatching one
function, constant or table of the reference *inside the mutant's own process* (see
``serve.py``); the reference's files are never touched. Each mutant is declared where its patch
lives, with :func:`mutant`::

    @mutant("tags-not-lowercased", clauses=("S6-READ-12",), interpretations=("INT-25",))
    def _() -> None:
        '''Tags are deduplicated and sorted but keep their case.'''
        ...

Declaring imports nothing from ``reference``: the patch function imports it when applied.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Literal

__all__ = ["Effect", "Mutant", "Witness", "in_pipeline_order", "mutant"]

#: How a mutant's deviation shows: in the result envelope, or only as a side effect
#: (a write, a socket, a process, memory) that probes or store stamps observe.
Effect = Literal["result", "side-effect"]


@dataclass(frozen=True)
class Witness:
    """Conditions under which the deviation becomes visible in-process (used by the smoke run):
    environment variables set before the patch is applied, and whether to read a large store."""

    env: Mapping[str, str] = field(default_factory=dict)
    big_store: bool = False
    long_lines: bool = False


@dataclass(frozen=True)
class Mutant:
    """One single-fault implementation: the reference plus :attr:`apply`."""

    name: str
    clauses: tuple[str, ...]
    interpretations: tuple[str, ...]
    summary: str
    apply: Callable[[], None]
    stage: str
    probes: tuple[str, ...] = ()
    effect: Effect = "result"
    witness: Witness = field(default_factory=Witness)


_REGISTRY: dict[str, Mutant] = {}


def in_pipeline_order(stages: tuple[str, ...]) -> Mapping[str, Mutant]:
    """Every registered mutant, ordered by stage (as listed) then declaration."""
    unknown = {m.stage for m in _REGISTRY.values()} - set(stages)
    if unknown:
        raise ValueError(f"mutants in undeclared stages: {sorted(unknown)}")
    ordered = sorted(_REGISTRY.values(), key=lambda m: stages.index(m.stage))
    return {m.name: m for m in ordered}


def mutant(
    name: str,
    *,
    clauses: tuple[str, ...],
    interpretations: tuple[str, ...] = (),
    probes: tuple[str, ...] = (),
    effect: Effect = "result",
    witness: Witness | None = None,
) -> Callable[[Callable[[], None]], Callable[[], None]]:
    """Register the decorated patch function as mutant ``name``; its docstring's first
    paragraph is the mutant's summary (the deviation, in one sentence)."""

    def register(apply: Callable[[], None]) -> Callable[[], None]:
        if name in _REGISTRY:
            raise ValueError(f"mutant {name!r} declared twice")
        paragraph = (apply.__doc__ or "").strip().split("\n\n")[0]
        summary = " ".join(line.strip() for line in paragraph.splitlines())
        if not summary or not clauses:
            raise ValueError(f"mutant {name!r} needs a docstring and at least one clause")
        stage = apply.__module__.rpartition(".")[2].removeprefix("_m_")
        _REGISTRY[name] = Mutant(
            name, clauses, interpretations, summary, apply, stage, probes, effect,
            witness or Witness(),
        )  # fmt: skip
        return apply

    return register
