"""Spreading a run over worker processes: each worker owns one executor (one adapter process,
one temp root) and takes vectors in small chunks from a shared queue; results stream back to
the parent in completion order and are returned in input order.

A worker process (and its adapter process) costs about 0.3 s to start, so small runs stay in
this process. :func:`run_vectors` returns raw results: expected failures are applied by the
caller (:func:`conformance.run._judge.with_expected_failure`).

An adapter that always hangs would cost vectors x timeout (the corpus at the default timeout:
about 16 hours). So the pool counts, in the order results arrive, vectors that errored by a
timeout, a crash or a failed restart, or that did not pass after half the timeout per attempt;
``RunConfig.max_consecutive_failures`` of them in a row (default 10; 0 = never), or three
quarters of the last twice as many (an adapter hanging on 9 vectors of 10), stop the run
(:class:`Breaker`): the workers are stopped (their adapters killed), the vectors not run are
``skipped`` with the reason, and :class:`RunOutput` says that the run stopped, why and after
how many vectors (the certification is then *adapter broken*). An
internal error or a protocol error answered quickly does not count: the adapter answered.
"""

from __future__ import annotations

import collections
import itertools
import math
import multiprocessing
import queue
import signal
import time
import traceback
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from conformance._errors import HarnessError
from conformance.adapters import Adapter
from conformance.corpus import Vector
from conformance.run._executor import UNPREPARABLE, Executor, RunConfig, fresh_sample
from conformance.run._judge import skipped_result, with_fresh_process_check
from conformance.run._progress import NullProgress, Progress
from conformance.run._results import ErrorDetail, ErrorKind, Outcome, VectorResult

__all__ = ["Breaker", "RunOutput", "run_vectors"]

#: Vectors per task handed to a worker (small enough for even load, large enough to be cheap).
_CHUNK = 8
#: A worker process (and its adapter process) costs ~0.3 s to start, about what 250 vectors
#: take on one core: fewer vectors per worker would make a run slower, not faster.
_VECTORS_PER_WORKER = 250
#: Errors that cost a timeout or a restart: ``max_consecutive_failures`` in a row stop the run.
_BREAKING = frozenset({ErrorKind.TIMEOUT, ErrorKind.CRASH, ErrorKind.SPAWN, ErrorKind.HANDSHAKE})


@dataclass(frozen=True)
class RunOutput:
    """What :func:`run_vectors` returns: raw results (before expected failures) and stats.

    ``stopped_reason`` is set when the run stopped early because the adapter kept timing out
    or crashing; ``stopped_after`` is then how many vectors had a result when it stopped (the
    others are skipped).
    """

    results: tuple[VectorResult, ...]
    interrupted: bool
    requests: int
    restarts: int
    workers: int
    stopped_reason: str | None = None
    stopped_after: int | None = None


class Breaker:
    """Counts the vectors that cost the run a timeout; says why the run must stop once there
    are enough.

    A *costly* vector is one that errored by a timeout, a crash or a failed restart, or one
    that did not pass after spending at least :data:`SLOW_FRACTION` of the timeout per attempt
    (an internal error at 0.95 x timeout costs what a timeout costs). The run stops after
    ``limit`` costly vectors in a row, or when :data:`MOSTLY` of the last ``2 x limit`` were
    costly (an adapter hanging on 9 vectors of 10 never makes a streak). ``timeout=None``
    counts no vector as slow.
    """

    #: The share of the timeout per attempt from which a vector that did not pass is costly.
    SLOW_FRACTION = 0.5
    #: The share of costly vectors in the window of ``2 x limit`` that stops the run.
    MOSTLY = 0.75

    def __init__(self, limit: int, *, timeout: float | None = None):
        self.limit = limit
        self.timeout = timeout
        self.streak = 0
        self._first = ""
        #: What made each of the last ``2 x limit`` vectors costly (``None``: it was not).
        self._window: collections.deque[str | None] = collections.deque(maxlen=2 * max(limit, 0))
        self._needed = math.ceil(self.MOSTLY * 2 * limit)

    def costly(self, result: VectorResult) -> str | None:
        """What made ``result`` cost a timeout (``[timeout] ...``, ``[slow] ...``), or
        ``None``."""
        error = result.error
        if error is not None and error.message.startswith(UNPREPARABLE):
            return None  # the harness could not lay out the files: not the adapter's doing
        if error is not None and error.kind in _BREAKING:
            return f"[{error.kind.value}] {error.message}"
        if self.timeout is None or result.outcome not in (Outcome.FAILED, Outcome.ERRORED):
            return None
        attempts = max(1, result.runs + (error is not None))
        spent = result.duration_s / attempts
        if spent < self.SLOW_FRACTION * self.timeout:
            return None
        what = f"[{error.kind.value}] {error.message}" if error else f"[{result.outcome.value}]"
        return f"[slow: {spent:.2f} s of a {self.timeout:g} s timeout per run] {what}"

    def observe(self, result: VectorResult) -> str | None:
        """Account for ``result``; the reason to stop, or ``None`` to go on."""
        why = self.costly(result)
        if why is not None:
            why = f"{result.id}: {why}"[:300]
        self._window.append(why)
        if why is None:
            self.streak = 0
            return None
        self.streak += 1
        if self.streak == 1:
            self._first = why
        if self.limit <= 0:
            return None
        if self.streak >= self.limit:
            return (
                f"{self.streak} vectors in a row timed out, crashed, found the adapter not "
                f"restartable or failed slowly; the run stopped (first: {self._first})"
            )
        costly = [w for w in self._window if w is not None]
        if len(self._window) == self._window.maxlen and len(costly) >= self._needed:
            return (
                f"{len(costly)} of the last {len(self._window)} vectors timed out, crashed, "
                "found the adapter not restartable or failed after at least "
                f"{self.SLOW_FRACTION:.0%} of the timeout per run: the adapter is mostly "
                f"failing; the run stopped (first: {costly[0]})"
            )
        return None


class _Stopped(BaseException):
    """A worker was told to stop (SIGTERM from the parent)."""


@dataclass
class _Outcome:
    results: dict[str, VectorResult]
    interrupted: bool = False
    requests: int = 0
    restarts: int = 0
    stopped_reason: str | None = None


def _amend(results: dict[str, VectorResult], amends: list[tuple[str, ErrorDetail]]) -> None:
    """Fold faults found after a result was returned into it (output after its reply)."""
    for vector_id, error in amends:
        if vector_id in results:
            results[vector_id] = with_fresh_process_check(results[vector_id], (), error)


def _lazy(produce: Callable[[], list[VectorResult]]) -> Iterator[VectorResult]:
    """The results ``produce`` returns, produced only when first asked for."""
    yield from produce()


def _run_serial(
    vectors: Sequence[Vector],
    config: RunConfig,
    adapter: Adapter | None,
    sample: frozenset[str],
    on_result: Callable[[VectorResult], None],
) -> _Outcome:
    outcome = _Outcome({})
    breaker = Breaker(config.max_consecutive_failures, timeout=config.timeout)
    executor = Executor(config, adapter, sample=sample)
    try:
        finished = (result for vector in vectors for result in executor.submit(vector))
        for result in itertools.chain(finished, _lazy(executor.drain)):
            outcome.results[result.id] = result
            _amend(outcome.results, executor.take_amends())
            on_result(result)
            outcome.stopped_reason = breaker.observe(result)
            if outcome.stopped_reason is not None:
                break
        if outcome.stopped_reason is None:
            for vector_id, found, error in executor.run_fresh_sample():
                result = outcome.results[vector_id]
                outcome.results[vector_id] = with_fresh_process_check(result, found, error)
    except KeyboardInterrupt:
        outcome.interrupted = True
    finally:
        outcome.requests, outcome.restarts = executor.adapter.requests, executor.adapter.restarts
        executor.close()
        _amend(outcome.results, executor.take_amends())
    return outcome


def _worker_main(
    name: str,
    config: RunConfig,
    sample: frozenset[str],
    tasks: Any,
    out: Any,
) -> None:
    """Worker process: one executor (one adapter process), vectors from ``tasks``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides about interruptions

    def stop(signum: int, frame: Any) -> None:
        out.cancel_join_thread()  # the parent no longer reads: never block the exit on it
        raise _Stopped

    signal.signal(signal.SIGTERM, stop)  # run finally: stop the adapter
    executor: Executor | None = None
    try:
        executor = Executor(config, sample=sample, name=name)
        while True:
            chunk = tasks.get()
            if chunk is None:
                break
            for vector in chunk:
                for result in executor.submit(vector):
                    out.put(("result", name, result))
                for amend in executor.take_amends():
                    out.put(("amend", name, amend))
        for result in executor.drain():
            out.put(("result", name, result))
        for amend in executor.take_amends():
            out.put(("amend", name, amend))
        for vector_id, found, error in executor.run_fresh_sample():
            out.put(("fresh-check", name, (vector_id, found, error)))
    except _Stopped:
        pass
    except BaseException:
        out.put(("crash", name, traceback.format_exc()))
    finally:
        stats = (0, 0)
        if executor is not None:
            stats = (executor.adapter.requests, executor.adapter.restarts)
            executor.close()
            for amend in executor.take_amends():
                out.put(("amend", name, amend))
        out.put(("done", name, stats))


def _run_parallel(
    vectors: Sequence[Vector],
    config: RunConfig,
    workers: int,
    sample: frozenset[str],
    on_result: Callable[[VectorResult], None],
) -> _Outcome:
    context = multiprocessing.get_context("spawn")
    tasks = context.Queue()
    out = context.Queue()
    for start in range(0, len(vectors), _CHUNK):
        tasks.put(list(vectors[start : start + _CHUNK]))
    for _ in range(workers):
        tasks.put(None)
    processes = [
        context.Process(
            target=_worker_main,
            args=(f"w{index}", config, sample, tasks, out),
            name=f"phase6-worker-{index}",
            daemon=True,
        )
        for index in range(workers)
    ]
    for process in processes:
        process.start()
    outcome = _Outcome({})
    breaker = Breaker(config.max_consecutive_failures, timeout=config.timeout)
    pending = {f"w{index}" for index in range(workers)}
    crashes: list[str] = []
    try:
        while pending:
            try:
                kind, name, payload = out.get(timeout=1.0)
            except queue.Empty:
                dead = [p for p in processes if not p.is_alive() and p.exitcode]
                if dead and out.empty():
                    lost = ", ".join(f"{p.name} (exit {p.exitcode})" for p in dead)
                    raise HarnessError(f"harness worker died: {lost}") from None
                continue
            if kind == "result":
                outcome.results[payload.id] = payload
                on_result(payload)
                outcome.stopped_reason = breaker.observe(payload)
                if outcome.stopped_reason is not None:
                    break
            elif kind == "amend":
                _amend(outcome.results, [payload])
            elif kind == "fresh-check":
                vector_id, found, error = payload
                result = outcome.results[vector_id]
                outcome.results[vector_id] = with_fresh_process_check(result, found, error)
            elif kind == "crash":
                crashes.append(f"{name}: {payload}")
            elif kind == "done":
                pending.discard(name)
                outcome.requests += payload[0]
                outcome.restarts += payload[1]
    except KeyboardInterrupt:
        outcome.interrupted = True
    finally:
        if outcome.interrupted or outcome.stopped_reason is not None:
            _stop_workers(processes, tasks, out)
        for process in processes:
            process.join(timeout=10)
            if process.is_alive():
                process.kill()
                process.join()
        tasks.close()
        out.close()
    if crashes and outcome.stopped_reason is None:
        raise HarnessError("harness worker failed:\n" + "\n".join(crashes))
    return outcome


def _stop_workers(processes: Sequence[Any], tasks: Any, out: Any, grace: float = 10.0) -> None:
    """Stop the workers early: tell them (SIGTERM; each stops its adapter on the way out), and
    meanwhile keep both queues moving, so that no queue's feeder thread (ours filling
    ``tasks``, theirs filling ``out``) stays blocked on a full pipe nobody reads any more."""
    for process in processes:
        if process.is_alive():
            process.terminate()
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline:
        _drain(out)
        _drain(tasks)
        if not any(process.is_alive() for process in processes):
            break
        time.sleep(0.02)
    _drain(out)
    # What is still in transit nobody will read: never wait on it when the queues go.
    while _drain(tasks, wait=0.05):
        pass
    tasks.cancel_join_thread()
    out.cancel_join_thread()


def _drain(channel: Any, wait: float = 0.0) -> int:
    """Read and drop what is in ``channel`` now (waiting up to ``wait`` for the first item)."""
    count = 0
    try:
        if wait:
            channel.get(timeout=wait)
        else:
            channel.get_nowait()
        count += 1
        while True:
            channel.get_nowait()
            count += 1
    except (queue.Empty, OSError, ValueError, EOFError):
        return count


def run_vectors(
    vectors: Sequence[Vector],
    config: RunConfig,
    *,
    adapter: Adapter | None = None,
    progress: Progress | None = None,
) -> RunOutput:
    """Run ``vectors`` (raw results, in input order; missing ones skipped if interrupted).

    ``adapter`` is an already started adapter to reuse when the run is serial.
    """
    progress = progress or NullProgress()
    sample = fresh_sample(vectors, config.fresh_every)
    workers = max(1, min(config.jobs, len(vectors) // _VECTORS_PER_WORKER))
    progress.start(len(vectors), "vectors")
    if workers == 1:
        outcome = _run_serial(vectors, config, adapter, sample, progress.advance)
    else:
        if adapter is not None:
            adapter.close()
        outcome = _run_parallel(vectors, config, workers, sample, progress.advance)
    progress.finish()
    results = outcome.results
    if outcome.stopped_reason is not None:
        missing = f"not run: {outcome.stopped_reason}"
    else:
        missing = "run interrupted before this vector"
    ordered = tuple(results.get(v.id) or skipped_result(v, missing) for v in vectors)
    return RunOutput(
        ordered,
        outcome.interrupted,
        outcome.requests,
        outcome.restarts,
        workers,
        stopped_reason=outcome.stopped_reason,
        stopped_after=len(results) if outcome.stopped_reason is not None else None,
    )
