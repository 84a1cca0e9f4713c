"""Spreading a run over worker processes: each worker owns one executor (one adapter process,
one temp root) and takes vectors in small chunks from a shared queue; results stream back to
the parent in completion order and are returned in input order.

A worker process (and its adapter process) costs about 0.3 s to start, so small runs stay in
this process. :func:`run_vectors` returns raw results: expected failures are applied by the
caller (:func:`conformance.run._judge.with_expected_failure`).
"""

from __future__ import annotations

import multiprocessing
import queue
import signal
import sys
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from conformance._errors import HarnessError
from conformance.adapters import Adapter
from conformance.corpus import Vector
from conformance.run._executor import Executor, RunConfig, fresh_sample
from conformance.run._judge import skipped_result, with_fresh_process_check
from conformance.run._progress import NullProgress, Progress
from conformance.run._results import VectorResult

__all__ = ["RunOutput", "run_vectors"]

#: Vectors per task handed to a worker (small enough for even load, large enough to be cheap).
_CHUNK = 8
#: A worker process (and its adapter process) costs ~0.3 s to start, about what 250 vectors
#: take on one core: fewer vectors per worker would make a run slower, not faster.
_VECTORS_PER_WORKER = 250


@dataclass(frozen=True)
class RunOutput:
    """What :func:`run_vectors` returns: raw results (before expected failures) and stats."""

    results: tuple[VectorResult, ...]
    interrupted: bool
    requests: int
    restarts: int
    workers: int


def _run_serial(
    vectors: Sequence[Vector],
    config: RunConfig,
    adapter: Adapter | None,
    sample: frozenset[str],
    on_result: Callable[[VectorResult], None],
) -> tuple[dict[str, VectorResult], bool, int, int]:
    results: dict[str, VectorResult] = {}
    interrupted = False
    executor = Executor(config, adapter, sample=sample)
    try:
        for vector in vectors:
            result = executor.run_vector(vector)
            results[vector.id] = result
            on_result(result)
        for vector_id, failure, error in executor.run_fresh_sample():
            results[vector_id] = with_fresh_process_check(results[vector_id], failure, error)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        requests, restarts = executor.adapter.requests, executor.adapter.restarts
        executor.close()
    return results, interrupted, requests, restarts


def _worker_main(
    name: str,
    config: RunConfig,
    sample: frozenset[str],
    tasks: Any,
    out: Any,
) -> None:
    """Worker process: one executor (one adapter process), vectors from ``tasks``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides about interruptions
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # run finally: stop the adapter
    executor: Executor | None = None
    try:
        executor = Executor(config, sample=sample, name=name)
        while True:
            chunk = tasks.get()
            if chunk is None:
                break
            for vector in chunk:
                out.put(("result", name, executor.run_vector(vector)))
        for vector_id, failure, error in executor.run_fresh_sample():
            out.put(("fresh-check", name, (vector_id, failure, error)))
    except BaseException:
        out.put(("crash", name, traceback.format_exc()))
    finally:
        stats = (0, 0)
        if executor is not None:
            stats = (executor.adapter.requests, executor.adapter.restarts)
            executor.close()
        out.put(("done", name, stats))


def _run_parallel(
    vectors: Sequence[Vector],
    config: RunConfig,
    workers: int,
    sample: frozenset[str],
    on_result: Callable[[VectorResult], None],
) -> tuple[dict[str, VectorResult], bool, int, int]:
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
    results: dict[str, VectorResult] = {}
    pending = {f"w{index}" for index in range(workers)}
    crashes: list[str] = []
    requests = restarts = 0
    interrupted = False
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
                results[payload.id] = payload
                on_result(payload)
            elif kind == "fresh-check":
                vector_id, failure, error = payload
                results[vector_id] = with_fresh_process_check(results[vector_id], failure, error)
            elif kind == "crash":
                crashes.append(f"{name}: {payload}")
            elif kind == "done":
                pending.discard(name)
                requests += payload[0]
                restarts += payload[1]
    except KeyboardInterrupt:
        interrupted = True
    finally:
        for process in processes:
            if process.is_alive():
                if interrupted:
                    process.terminate()
                process.join(timeout=10)
            if process.is_alive():
                process.kill()
                process.join()
        tasks.close()
        out.close()
    if crashes:
        raise HarnessError("harness worker failed:\n" + "\n".join(crashes))
    return results, interrupted, requests, restarts


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
        results, interrupted, requests, restarts = _run_serial(
            vectors, config, adapter, sample, progress.advance
        )
    else:
        if adapter is not None:
            adapter.close()
        results, interrupted, requests, restarts = _run_parallel(
            vectors, config, workers, sample, progress.advance
        )
    progress.finish()
    ordered = tuple(
        results.get(v.id) or skipped_result(v, "run interrupted before this vector")
        for v in vectors
    )
    return RunOutput(ordered, interrupted, requests, restarts, workers)
