"""The gallery's table: every mutant with the clauses and interpretations it violates.

A mutant is the reference with ONE deliberate deviation, in one of two forms:

- a *source patch* (:class:`SourcePatch`): one snippet of one file of ``reference/`` that must
  occur exactly once, and its replacement, applied to a copy of the package (``_patch.py``);
  the copy then runs as ``python -m reference serve``.  The reference's own files are never
  edited;
- a *wrapper* (:data:`Wrapper`): a function of the public ``reference.memory_read`` that
  deviates on its inputs or outputs only (drops unknown members, adds a receipt field,
  touches a store after reading it ...), served by ``conformance.serve``.

Each mutant is declared where it lives, with :func:`mutant`; the decorated function returns
the patch or the wrapper and its docstring's first paragraph is the mutant's summary::

    @mutant("tags-not-lowercased", clauses=("S6-READ-12",), interpretations=("INT-25",))
    def _() -> SourcePatch:
        '''Tags are deduplicated and sorted but keep their case.'''
        return patch("_records.py", "map(str.lower, tags)", "map(str.__str__, tags)")

Declaring imports nothing from ``reference``: wrappers import it when they are built.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = [
    "Effect",
    "Mutant",
    "Reader",
    "SourcePatch",
    "Witness",
    "Wrapper",
    "in_pipeline_order",
    "mutant",
    "patch",
]

#: How a mutant's deviation shows: in the result envelope, or only as a side effect
#: (a write, a socket, a process, memory) that probes or store stamps observe.
Effect = Literal["result", "side-effect"]
#: `memory_read` -> a deviating `memory_read` (both: request -> result envelope).
Reader = Callable[[Any], dict[str, Any]]
Wrapper = Callable[[Reader], Reader]


@dataclass(frozen=True)
class SourcePatch:
    """Replace `anchor`, which must occur exactly once in ``reference/<file>``, by
    `replacement`; then each ``(anchor, replacement)`` of `more` in the same file, under the
    same rule (one fault may need a second edit, e.g. a field and its use)."""

    file: str
    anchor: str
    replacement: str
    more: tuple[tuple[str, str], ...] = ()


def patch(file: str, anchor: str, replacement: str, *more: tuple[str, str]) -> SourcePatch:
    """A source patch of ``reference/<file>``."""
    return SourcePatch(file, anchor, replacement, tuple(more))


@dataclass(frozen=True)
class Witness:
    """Conditions under which the deviation becomes visible in-process (used by the smoke run):
    environment variables set before the mutant is loaded, and whether to read a large store."""

    env: Mapping[str, str] = field(default_factory=dict)
    big_store: bool = False
    long_lines: bool = False


@dataclass(frozen=True)
class Mutant:
    """One single-fault implementation: the reference plus a source patch, or a wrapper."""

    name: str
    clauses: tuple[str, ...]
    interpretations: tuple[str, ...]
    summary: str
    build: Callable[[], SourcePatch | Wrapper]
    stage: str
    probes: tuple[str, ...] = ()
    effect: Effect = "result"
    witness: Witness = field(default_factory=Witness)

    @property
    def patch(self) -> SourcePatch | None:
        """The source patch, or None for a wrapper."""
        built = self.build()
        return built if isinstance(built, SourcePatch) else None

    def wrapper(self) -> Wrapper:
        """The wrapper (raises TypeError for a source patch)."""
        built = self.build()
        if isinstance(built, SourcePatch):
            raise TypeError(f"mutant {self.name!r} is a source patch, not a wrapper")
        return built


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
) -> Callable[[Callable[[], SourcePatch | Wrapper]], Callable[[], SourcePatch | Wrapper]]:
    """Register the decorated function (returning the patch or the wrapper) as mutant `name`;
    its docstring's first paragraph is the mutant's summary (the deviation, in one sentence)."""

    def register(
        build: Callable[[], SourcePatch | Wrapper],
    ) -> Callable[[], SourcePatch | Wrapper]:
        if name in _REGISTRY:
            raise ValueError(f"mutant {name!r} declared twice")
        paragraph = (build.__doc__ or "").strip().split("\n\n")[0]
        summary = " ".join(line.strip() for line in paragraph.splitlines())
        if not summary or not clauses:
            raise ValueError(f"mutant {name!r} needs a docstring and at least one clause")
        stage = build.__module__.rpartition(".")[2].removeprefix("_m_")
        _REGISTRY[name] = Mutant(
            name, clauses, interpretations, summary, build, stage, probes, effect,
            witness or Witness(),
        )  # fmt: skip
        return build

    return register
