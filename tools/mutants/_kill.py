"""Certifying every mutant and recording what killed it (the kill matrix).

For each mutant, in a worker process of its own (mutants run in parallel):

1. handshake (a mutant that does not start is ``broken``, not killed);
2. the vectors aimed at it (sharing a clause or an interpretation with the mutant), through the
   harness runner exactly as ``certify`` runs them (two runs per vector, fresh-process samples,
   store stamps);
3. the probes the mutant declares (always);
4. unless ``fast`` mode already has a kill, the rest of the corpus;
5. if it still lives, every other probe, then every other registered report section (e.g.
   properties).

A mutant is *killed* when anything fails or errors, and *killed on target* when some failure
names one of its clauses or interpretations. Mutant processes get ``PYTHONHASHSEED=0`` so the
matrix is reproducible (the environment probe still varies the seed explicitly).
"""

from __future__ import annotations

import concurrent.futures
import functools
import multiprocessing
import os
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from conformance import (
    Corpus,
    HandshakeError,
    Outcome,
    RunConfig,
    SectionContext,
    Vector,
    VectorResult,
    load_corpus,
    open_adapter,
    run_vectors,
)
from tools.mutants._registry import Mutant

__all__ = ["Kill", "MutantOutcome", "kill_all", "kill_one"]

KillKind = Literal["vector", "probe", "section"]
Status = Literal["killed", "survived", "broken"]
#: Sections not run for a survivor: the probes ran already, suite strength reads the matrix, and
#: the audit capability's section never affects the verdict, so it cannot kill a mutant.
_SKIPPED_SECTIONS = frozenset({"probes", "suite_strength", "audit"})
_LISTED = 8


@dataclass(frozen=True)
class Kill:
    """One thing that failed against a mutant."""

    kind: KillKind
    id: str
    clauses: tuple[str, ...]
    interpretations: tuple[str, ...]
    message: str


@dataclass(frozen=True)
class MutantOutcome:
    """What certifying one mutant found."""

    name: str
    stage: str
    summary: str
    clauses: tuple[str, ...]
    interpretations: tuple[str, ...]
    effect: str
    status: Status
    on_target: bool
    failing_vectors: tuple[str, ...] = ()
    vectors_run: int = 0
    failing_probes: tuple[str, ...] = ()
    probes_run: tuple[str, ...] = ()
    failing_sections: tuple[str, ...] = ()
    kills: tuple[Kill, ...] = ()
    broken_reason: str = ""
    duration_s: float = 0.0
    phases: tuple[str, ...] = field(default_factory=tuple)

    def to_json(self) -> dict[str, Any]:
        """The kill-matrix row."""
        row = asdict(self)
        row["failing_vectors"] = {
            "count": len(self.failing_vectors),
            "first": list(self.failing_vectors[:_LISTED]),
        }
        row["kills"] = [asdict(k) for k in self.kills[:_LISTED]]
        row["duration_s"] = round(self.duration_s, 2)
        return row


def _outcome(mutant: Mutant, status: Status, **found: Any) -> MutantOutcome:
    found.setdefault("on_target", False)
    return MutantOutcome(
        name=mutant.name,
        stage=mutant.stage,
        summary=mutant.summary,
        clauses=mutant.clauses,
        interpretations=mutant.interpretations,
        effect=mutant.effect,
        status=status,
        **found,
    )


def _vector_kill(result: VectorResult) -> Kill:
    clauses = list(result.clauses)
    for failure in result.failures:
        clauses += [c for c in failure.clauses if c not in clauses]
    if result.error is not None:
        message = f"errored ({result.error.kind}): {result.error.message}"
    elif result.failures:
        message = f"{result.failures[0].kind}: {result.failures[0].message}"
    else:  # pragma: no cover - only failing results are turned into kills
        message = str(result.outcome)
    return Kill("vector", result.id, tuple(clauses), result.interpretations, message[:300])


def _aimed(mutant: Mutant, clauses: Iterable[str], interpretations: Iterable[str]) -> bool:
    return bool(set(mutant.clauses) & set(clauses)) or bool(
        set(mutant.interpretations) & set(interpretations)
    )


@functools.cache
def _kit_corpus() -> Corpus:
    """The kit's corpus, loaded once per worker process (it serves every mutant the worker
    certifies: nothing in a run changes it)."""
    return load_corpus()


def kill_one(
    name: str,
    *,
    fast: bool = True,
    timeout: float = 20.0,
    probes: bool = True,
    sections: bool = True,
) -> MutantOutcome:
    """Certify one mutant (see the module docstring for the phases)."""
    from tools.mutants import MUTANTS, adapter_spec

    started = time.perf_counter()
    mutant = MUTANTS[name]
    spec = adapter_spec(name)
    adapter = open_adapter(spec, timeout=timeout)
    try:
        adapter.start()
    except HandshakeError as exc:
        return _outcome(
            mutant, "broken", broken_reason=exc.message, duration_s=time.perf_counter() - started
        )
    finally:
        adapter.close()

    corpus = _kit_corpus()
    kills: list[Kill] = []
    phases: list[str] = []
    failing: list[str] = []
    failing_probes: list[str] = []
    probes_run: list[str] = []
    run = 0

    def vectors(label: str, batch: list[Vector]) -> None:
        nonlocal run
        if not batch:
            return
        output = run_vectors(batch, RunConfig(adapter=spec, timeout=timeout, jobs=1))
        run += len(batch)
        phases.append(f"{label}: {len(batch)}")
        for result in output.results:
            if result.outcome in (Outcome.FAILED, Outcome.ERRORED):
                failing.append(result.id)
                kills.append(_vector_kill(result))

    def probe(label: str, names: list[str]) -> None:
        if not names or not probes:
            return
        from conformance.probes import run_probes

        probe_run = run_probes(spec, names, timeout=timeout)
        probes_run.extend(names)
        phases.append(f"{label}: {', '.join(names)}")
        for check in probe_run.failed():
            failing_probes.append(check.id)
            kills.append(Kill("probe", check.id, check.clauses, (), check.message[:300]))

    from conformance.probes import PROBES

    aimed_ids = {v.id for v in corpus.vectors if _aimed(mutant, v.clauses, v.interpretations)}
    vectors("aimed vectors", [v for v in corpus.vectors if v.id in aimed_ids])
    probe("declared probes", list(mutant.probes))
    if not (fast and kills):
        vectors("other vectors", [v for v in corpus.vectors if v.id not in aimed_ids])
    if not kills:
        probe("other probes", [p for p in PROBES if p not in mutant.probes])

    failing_sections: list[str] = []
    if sections and not kills:
        failing_sections = _other_sections(spec, corpus, timeout, kills, phases)

    on_target = any(_aimed(mutant, k.clauses, k.interpretations) for k in kills)
    return _outcome(
        mutant,
        "killed" if kills else "survived",
        on_target=on_target,
        failing_vectors=tuple(sorted(failing)),
        vectors_run=run,
        failing_probes=tuple(failing_probes),
        probes_run=tuple(probes_run),
        failing_sections=tuple(failing_sections),
        kills=tuple(
            sorted(
                kills,
                key=lambda k: (not _aimed(mutant, k.clauses, k.interpretations), k.kind, k.id),
            )
        ),
        duration_s=time.perf_counter() - started,
        phases=tuple(phases),
    )


def _other_sections(
    spec: str, corpus: Any, timeout: float, kills: list[Kill], phases: list[str]
) -> list[str]:
    """Run every registered section except the probes and suite strength."""
    from conformance.run._sections import SECTION_PROVIDERS, run_section

    failing = []
    for name, target in SECTION_PROVIDERS.items():
        if name in _SKIPPED_SECTIONS:
            continue
        context = SectionContext(spec, corpus, (), None, 1, timeout)
        section = run_section(name, target, context)
        phases.append(f"section {name}: {section.status}")
        if section.status in ("failed", "errored") and section.affects_verdict:
            failing.append(name)
            bad = [i for i in section.items if i.outcome in ("failed", "errored")]
            kills += [
                Kill("section", f"{name}:{item.id}", tuple(item.clauses), (), item.message[:300])
                for item in bad
            ] or [Kill("section", name, (), (), section.summary[:300])]
    return failing


def _task(name: str, options: dict[str, Any]) -> MutantOutcome:
    return kill_one(name, **options)


def kill_all(
    names: Sequence[str],
    *,
    jobs: int = 2,
    on_done: Callable[[MutantOutcome], None] | None = None,
    **options: Any,
) -> list[MutantOutcome]:
    """Certify ``names`` in ``jobs`` worker processes; outcomes in ``names`` order."""
    os.environ["PYTHONHASHSEED"] = "0"  # inherited by workers and their adapters
    outcomes: dict[str, MutantOutcome] = {}
    if jobs <= 1:
        for name in names:
            outcomes[name] = kill_one(name, **options)
            if on_done:
                on_done(outcomes[name])
    else:
        context = multiprocessing.get_context("spawn")
        with concurrent.futures.ProcessPoolExecutor(jobs, mp_context=context) as pool:
            futures = {pool.submit(_task, name, options): name for name in names}
            for future in concurrent.futures.as_completed(futures):
                outcome = future.result()
                outcomes[outcome.name] = outcome
                if on_done:
                    on_done(outcome)
    return [outcomes[name] for name in names]
