"""Running the Phase 2 vectors against an engine: observe, compare, repeat.

The vectors run in groups that share a fixture (:func:`fixture_groups`: a live service loads
it once for the group, :mod:`conformance.phase2._http`), one at a time on each engine; with
more than one engine (``--jobs N``: a service and a database per worker), each takes the next
group as it finishes one. For each vector (:func:`run_vector`):

1. a vector whose op the implementation did not declare (``phase2.compact``,
   ``phase2.summarize``) is not sent: *skipped* with the capability named, never a pass;
2. the call is observed ``repeat`` times (default 2; protocol and Python engines: each run on
   a fresh database in the same process; a live service: one load, the context call repeated);
3. the first outcome is compared with ``expect`` (:func:`conformance.phase2._compare.compare`;
   the first difference, the cause, is the failure, with a diff of the whole outcome); every
   later run must give the same outcome (``determinism``, P2-DET-01; a summarize run may
   differ in the new summary's text and facts, P2-INT-25);
4. a deterministic sample (every ``fresh_every``-th vector by ID) runs once more in a fresh
   process at the end (:func:`run_fresh_sample`; not for a live service).

The verdict machinery is SPEC-006's: every result is made by :func:`conformance.run.judged`
(or :func:`~conformance.run.skipped_result`), adapter misbehaviour becomes an *errored* result
(:func:`conformance.run.error_detail`), and timeouts, crashes or slow failures in a row (or
mostly) stop the run as adapter broken (:class:`conformance.run.Breaker`).
"""

from __future__ import annotations

import hashlib
import queue
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from conformance._errors import AdapterError
from conformance._kit import dumps, unicode_safe
from conformance.phase2._compare import (
    ABSENT,
    Difference,
    compare,
    first_difference,
    normalize_state,
)
from conformance.phase2._corpus import Phase2Vector
from conformance.phase2._engines import Engine, Observation
from conformance.phase2._invariants import determinism_view
from conformance.run import (
    Breaker,
    ErrorDetail,
    Failure,
    FailureKind,
    RunConfig,
    VectorResult,
    error_detail,
    judged,
    render_diff,
    skipped_result,
    with_fresh_process_check,
)

__all__ = [
    "DETERMINISM_CLAUSES",
    "VectorRun",
    "fixture_groups",
    "judge",
    "not_declared_reason",
    "run_fresh_sample",
    "run_vector",
    "run_vectors",
]

#: P2-DET-01 "Implement a deterministic memory context builder": what a run that differs from
#: the first violates, whatever the vector is about.
DETERMINISM_CLAUSES = ("P2-DET-01",)
_SHOWN = 500
_PATH = 2000


@dataclass(frozen=True)
class VectorRun:
    """One vector's result and, when it ran, what it observed (the properties' vector leg)."""

    result: VectorResult
    observation: Observation | None = None


@dataclass
class RunState:
    """What :func:`run_vectors` returns: every result and observation, and how the run ended."""

    runs: dict[str, VectorRun] = field(default_factory=dict)
    interrupted: bool = False
    stopped_reason: str | None = None
    stopped_after: int | None = None


def not_declared_reason(capability: str) -> str:
    """The skip reason of a vector whose op the implementation did not declare."""
    return f"not run: the implementation does not declare {capability} (never a pass)"


def _shown(value: Any) -> str:
    if isinstance(value, str) and value == ABSENT:
        return "<missing>"  # what failure signatures read as a member that is not there
    try:
        text = dumps(value).decode("utf-8", "replace")
    except (TypeError, ValueError, RecursionError):
        text = unicode_safe(repr(value)[: _SHOWN * 2])
    return unicode_safe(text if len(text) <= _SHOWN else text[:_SHOWN] + "...")


def _failure(
    kind: FailureKind,
    message: str,
    clauses: tuple[str, ...],
    difference: Difference,
    whole: tuple[Any, Any],
    more: int = 0,
) -> Failure:
    extra = f" (and {more} more difference{'s' if more > 1 else ''})" if more else ""
    path = difference.path
    return Failure(
        kind=kind,
        message=unicode_safe(f"{message}: {difference}{extra}"[:1000]),
        clauses=clauses,
        path=unicode_safe(path if len(path) <= _PATH else path[:_PATH] + "..."),
        expected=_shown(difference.expected),
        actual=_shown(difference.actual),
        diff=unicode_safe(render_diff(*whole)),
    )


def _expected_view(vector: Phase2Vector) -> Any:
    """``expect`` shown the way the outcome is (a context call: with the state it must keep)."""
    expect = vector.expect
    if vector.op == "context":
        return {**expect, "state": normalize_state(vector.fixture)}
    return expect


def judge(vector: Phase2Vector, observation: Observation, started: float) -> VectorResult:
    """Step 3 of the module docstring: compare the first outcome with ``expect``, then every
    later run with the first (``started``: ``time.perf_counter()`` when the vector started)."""
    fixture, call, expect = vector.fixture, vector.call, vector.expect
    first = observation.outcomes[0]
    failures: list[Failure] = []
    try:
        differences = compare(fixture, call, expect, first)
    except Exception as exc:  # the outcome broke an assumption of the comparator: a failure
        differences = [Difference("", "a comparable outcome", repr(exc)[:_SHOWN], "comparison")]
    if differences:
        failures.append(
            _failure(
                FailureKind.MISMATCH,
                "outcome differs from the vector",
                vector.clauses,
                differences[0],
                (_expected_view(vector), first),
                len(differences) - 1,
            )
        )
    baseline = determinism_view(call, first)
    for number, later in enumerate(observation.outcomes[1:], start=2):
        found = first_difference(baseline, determinism_view(call, later))
        if found is not None:
            failures.append(
                _failure(
                    FailureKind.DETERMINISM,
                    f"run {number} in the same process differs from run 1",
                    DETERMINISM_CLAUSES,
                    Difference(*found, "the same call, again"),
                    (first, later),
                )
            )
            break
    return judged(
        vector,
        failures=tuple(failures),
        duration_s=time.perf_counter() - started,
        runs=len(observation.outcomes),
    )


def run_vector(
    vector: Phase2Vector, engine: Engine, capabilities: Sequence[str], config: RunConfig
) -> VectorRun:
    """Run one vector (``repeat`` times) and judge it (expected failures are applied later)."""
    if vector.capability not in capabilities:
        return VectorRun(skipped_result(vector, not_declared_reason(vector.capability)))
    started = time.perf_counter()
    try:
        observation = engine.observe(vector.fixture, vector.call, runs=max(1, config.repeat))
    except AdapterError as exc:
        return VectorRun(
            judged(vector, error=error_detail(exc), duration_s=time.perf_counter() - started)
        )
    return VectorRun(judge(vector, observation, started), observation)


def run_fresh_sample(
    engine: Engine, sample: Sequence[tuple[Phase2Vector, Any]]
) -> Iterator[tuple[str, Failure | None, ErrorDetail | None]]:
    """Re-run ``(vector, first outcome)`` pairs in a fresh process of ``engine``, in reverse
    order; yields ``(vector id, determinism failure or None, error or None)``."""
    fresh = engine.fresh() if sample else None
    if fresh is None:
        return
    try:
        for vector, baseline in reversed(sample):
            try:
                (actual,) = fresh.observe(vector.fixture, vector.call).outcomes
            except AdapterError as exc:
                yield vector.id, None, error_detail(exc, context="fresh process: ")
                continue
            call = vector.call
            found = first_difference(
                determinism_view(call, baseline), determinism_view(call, actual)
            )
            if found is None:
                yield vector.id, None, None
                continue
            failure = _failure(
                FailureKind.DETERMINISM,
                "a fresh process differs from the first run",
                DETERMINISM_CLAUSES,
                Difference(*found, "the same call, in a fresh process"),
                (baseline, actual),
            )
            yield vector.id, failure, None
    finally:
        fresh.close()


def fixture_groups(vectors: Sequence[Phase2Vector]) -> list[list[Phase2Vector]]:
    """``vectors`` grouped by fixture, in the order each fixture first appears; within a
    group the context calls (which leave the database as loaded) before the jobs."""
    groups: dict[bytes, list[Phase2Vector]] = {}
    for vector in vectors:
        groups.setdefault(hashlib.sha256(dumps(vector.fixture)).digest(), []).append(vector)
    return [sorted(group, key=lambda v: v.op != "context") for group in groups.values()]


def _cost(group: Sequence[Phase2Vector], repeat: int) -> int:
    """Commands a group costs a live service: a load, then a dump per context call and a
    load, job and dump per job run."""
    return 1 + sum(1 if v.op == "context" else 3 * repeat for v in group)


def _run_parallel(
    groups: Sequence[Sequence[Phase2Vector]],
    engines: Sequence[Engine],
    capabilities: Sequence[str],
    config: RunConfig,
) -> Iterator[tuple[Phase2Vector, VectorRun]]:
    """Each engine takes the next group (the costliest first) as it finishes one; yields
    every run as it ends. Closing the generator (the run stops) lets the groups under way
    end their current vector and starts no other."""
    pending: queue.SimpleQueue[Sequence[Phase2Vector]] = queue.SimpleQueue()
    for group in sorted(groups, key=lambda g: -_cost(g, config.repeat)):
        pending.put(group)
    done: queue.SimpleQueue[tuple[Phase2Vector, VectorRun] | BaseException | None] = (
        queue.SimpleQueue()
    )
    stop = threading.Event()

    def work(engine: Engine) -> None:
        try:
            while not stop.is_set():
                try:
                    group = pending.get_nowait()
                except queue.Empty:
                    return
                for vector in group:
                    if stop.is_set():
                        return
                    done.put((vector, run_vector(vector, engine, capabilities, config)))
        except BaseException as exc:  # a fault of the kit: the caller raises it
            done.put(exc)
        finally:
            done.put(None)

    threads = [
        threading.Thread(target=work, args=(engine,), name=f"phase2-worker-{n}", daemon=True)
        for n, engine in enumerate(engines, 1)
    ]
    for thread in threads:
        thread.start()
    running = len(threads)
    try:
        while running:
            item = done.get()
            if item is None:
                running -= 1
            elif isinstance(item, BaseException):
                raise item
            else:
                yield item
    finally:
        stop.set()
        for thread in threads:
            thread.join()


def run_vectors(
    vectors: Sequence[Phase2Vector],
    engine: Engine,
    capabilities: Sequence[str],
    config: RunConfig,
    *,
    sample: frozenset[str] = frozenset(),
    on_result: Callable[[VectorResult], None] = lambda result: None,
    workers: Sequence[Engine] = (),
) -> RunState:
    """Run ``vectors`` by fixture group; stop early when the breaker says the adapter is
    broken. ``workers``: more engines of the same implementation, each with a database of its
    own, that run groups alongside ``engine``.

    Returns every vector run so far (by ID); a ``KeyboardInterrupt`` ends the run, marked
    interrupted. The caller skips the vectors that have no result.
    """
    state = RunState()
    breaker = Breaker(config.max_consecutive_failures, timeout=config.timeout)
    sampled: list[tuple[Phase2Vector, Any]] = []
    groups = fixture_groups(vectors)
    runs: Iterator[tuple[Phase2Vector, VectorRun]]
    if workers:
        runs = _run_parallel(groups, [engine, *workers], capabilities, config)
    else:
        runs = (
            (vector, run_vector(vector, engine, capabilities, config))
            for group in groups
            for vector in group
        )
    try:
        try:
            for vector, run in runs:
                state.runs[vector.id] = run
                on_result(run.result)
                if vector.id in sample and run.observation is not None:
                    sampled.append((vector, run.observation.outcomes[0]))
                state.stopped_reason = breaker.observe(run.result)
                if state.stopped_reason is not None:
                    state.stopped_after = len(state.runs)
                    return state
        finally:
            close = getattr(runs, "close", None)
            if close is not None:
                close()
        for vector_id, failure, error in run_fresh_sample(engine, sampled):
            run = state.runs[vector_id]
            found = (failure,) if failure is not None else ()
            checked = with_fresh_process_check(run.result, found, error)
            state.runs[vector_id] = VectorRun(checked, run.observation)
    except KeyboardInterrupt:
        state.interrupted = True
    return state


def observations(state: RunState) -> Mapping[str, Observation]:
    """The observations of the vectors that ran."""
    return {vid: run.observation for vid, run in state.runs.items() if run.observation}
