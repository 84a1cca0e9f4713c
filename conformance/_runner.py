"""Running vectors against an adapter: materialize, run, compare, check, repeat.

For each vector (:meth:`Executor.run_vector`):

1. materialize its files under a fresh directory ``<worker temp root>/<vector id>`` and stamp
   every entry (content hash, mode, mtime);
2. run the request (``repeat`` times, default 2, in the same adapter process); after each run
   re-stamp the tree: any change is a ``store-mutated`` failure (S6-SEC-01, S6-ACC-04; the tree
   is rebuilt before the next run);
3. compare the first result with ``expect`` (INT-48; first differing JSON Pointer kept); compare
   every later run with the first exactly (``determinism``, S6-ACC-01);
4. for a deterministic sample (every ``fresh_every``-th vector by sorted ID) run once more in a
   fresh adapter process at the end of the worker's share and compare exactly with the first run.

Adapter misbehaviour (:class:`~conformance._errors.AdapterError`) becomes an ``errored``
result with context; the run always goes on. Work is spread over ``jobs`` worker processes,
each with its own adapter process and temp root.
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import shlex
import shutil
import signal
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from conformance._adapters import DEFAULT_TIMEOUT, Adapter, open_adapter
from conformance._compare import MISSING, Difference, compare_result, first_difference, render_diff
from conformance._errors import AdapterError, HarnessError
from conformance._kit import dumps
from conformance._progress import NullProgress, Progress
from conformance._results import (
    FAILURE_CLAUSES,
    ErrorDetail,
    ErrorKind,
    Failure,
    FailureKind,
    Outcome,
    VectorResult,
)
from conformance._select import ExpectedFailures
from conformance._vectors import TreeSnapshot, Vector, materialize, snapshot_tree

__all__ = [
    "Executor",
    "RunConfig",
    "RunOutput",
    "default_temp_parent",
    "finalize",
    "fresh_sample",
    "reproduce_command",
    "run_vectors",
]

_SHOWN = 500
#: Vectors per task handed to a worker (small enough for even load, large enough to be cheap).
_CHUNK = 8
#: A worker process (and its adapter process) costs ~0.3 s to start, about what 250 vectors
#: take on one core: fewer vectors per worker would make a run slower, not faster.
_VECTORS_PER_WORKER = 250


@dataclass(frozen=True)
class RunConfig:
    """How to run: which adapter and how hard to look."""

    adapter: str
    timeout: float = DEFAULT_TIMEOUT
    jobs: int = 1
    repeat: int = 2
    fresh_every: int = 20
    validate_protocol: bool = False
    temp_dir: str | None = None


@dataclass(frozen=True)
class RunOutput:
    """What :func:`run_vectors` returns: raw results (before expected failures) and stats."""

    results: tuple[VectorResult, ...]
    interrupted: bool
    requests: int
    restarts: int
    workers: int


def default_temp_parent() -> str | None:
    """Where vector roots go: ``$PHASE6_TMPDIR``, else ``/dev/shm`` (tmpfs: creating and
    removing thousands of small trees is several times faster than on disk), else the system
    temp directory."""
    configured = os.environ.get("PHASE6_TMPDIR")
    if configured:
        return configured
    shm = "/dev/shm"
    if os.path.isdir(shm) and os.access(shm, os.W_OK | os.X_OK):
        return shm
    return None


def reproduce_command(adapter: str, vector_id: str) -> str:
    """The command that re-runs one vector."""
    return (
        f"python -m conformance certify --adapter {shlex.quote(adapter)} "
        f"--select {shlex.quote(vector_id)}"
    )


def fresh_sample(vectors: Sequence[Vector], every: int) -> frozenset[str]:
    """IDs of every ``every``-th vector by sorted ID (empty when ``every`` is 0)."""
    if every <= 0:
        return frozenset()
    return frozenset(sorted(v.id for v in vectors)[::every])


def _shown(value: Any) -> str:
    if value is MISSING:
        return "<missing>"
    try:
        text = dumps(value).decode("utf-8", "replace")
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= _SHOWN else text[:_SHOWN] + "..."


def _tree_changes(before: TreeSnapshot, after: TreeSnapshot) -> list[str]:
    changes = []
    for path in sorted(before.keys() | after.keys()):
        old, new = before.get(path), after.get(path)
        if old is None:
            changes.append(f"created {path}")
        elif new is None:
            changes.append(f"removed {path}")
        elif old != new:
            what = [
                name
                for name, a, b in (
                    ("type", old.kind, new.kind),
                    ("content", old.sha256, new.sha256),
                    ("size", old.size, new.size),
                    ("mode", oct(old.mode), oct(new.mode)),
                    ("mtime", old.mtime_ns, new.mtime_ns),
                )
                if a != b
            ]
            changes.append(f"changed {path} ({', '.join(what)})")
    return changes


def _error_detail(exc: AdapterError, *, context: str = "") -> ErrorDetail:
    message = f"{context}{exc.message}"
    return ErrorDetail(
        kind=ErrorKind(exc.kind),
        message=message,
        stderr_tail=exc.stderr_tail[-4000:],
        exit_status=exc.exit_status,
        detail=exc.detail[-4000:],
    )


def _difference_failure(
    kind: FailureKind,
    message: str,
    clauses: tuple[str, ...],
    diff: Difference,
    *,
    whole: tuple[Any, Any],
) -> Failure:
    return Failure(
        kind=kind,
        message=f"{message}: {diff.describe()}"[:1000],
        clauses=clauses,
        path=diff.path,
        expected=_shown(diff.expected),
        actual=_shown(diff.actual),
        diff=render_diff(*whole),
    )


def _shape(vector: Vector) -> str:
    return "error" if vector.expects_error else "package"


class Executor:
    """Runs vectors against one adapter in one temp root (one per worker)."""

    def __init__(
        self,
        config: RunConfig,
        adapter: Adapter | None = None,
        *,
        sample: frozenset[str] = frozenset(),
        name: str = "w0",
    ):
        self.config = config
        self.adapter = adapter or open_adapter(
            config.adapter, timeout=config.timeout, validate=config.validate_protocol
        )
        self.sample = sample
        parent = config.temp_dir or default_temp_parent()
        self._root = Path(tempfile.mkdtemp(prefix=f"phase6-{name}-", dir=parent))
        self._baselines: dict[str, tuple[Vector, Any]] = {}

    def close(self) -> None:
        """Stop the adapter and remove the temp root."""
        try:
            self.adapter.close()
        finally:
            shutil.rmtree(self._root, ignore_errors=True)

    def _fresh_root(self, vector: Vector) -> tuple[Path, TreeSnapshot]:
        root = self._root / vector.id
        if root.exists():
            shutil.rmtree(root)
        materialize(vector, root)
        return root, snapshot_tree(root)

    def run_vector(self, vector: Vector) -> VectorResult:
        """Run ``vector`` ``repeat`` times and judge it (expected failures are applied later)."""
        started = time.perf_counter()
        expect = vector.expect
        failures: list[Failure] = []
        error: ErrorDetail | None = None
        first: Any = None
        runs = 0
        root, before = self._fresh_root(vector)
        mutated_clauses = FAILURE_CLAUSES[FailureKind.STORE_MUTATED][_shape(vector)]
        determinism_clauses = FAILURE_CLAUSES[FailureKind.DETERMINISM][_shape(vector)]
        try:
            for attempt in range(max(1, self.config.repeat)):
                if (
                    attempt
                    and error is None
                    and any(f.kind is FailureKind.STORE_MUTATED for f in failures)
                ):
                    root, before = self._fresh_root(vector)
                try:
                    actual = self.adapter.run(vector.request_json, root)
                except AdapterError as exc:
                    error = _error_detail(exc, context=f"run {attempt + 1}: " if attempt else "")
                    break
                runs += 1
                changes = _tree_changes(before, snapshot_tree(root))
                if changes:
                    failures.append(
                        Failure(
                            FailureKind.STORE_MUTATED,
                            f"run {attempt + 1} changed the vector's files: "
                            + "; ".join(changes[:10]),
                            mutated_clauses,
                        )
                    )
                if attempt == 0:
                    first = actual
                    diff = compare_result(expect, actual)
                    if diff is not None:
                        failures.append(
                            _difference_failure(
                                FailureKind.MISMATCH,
                                "result differs from the vector",
                                vector.clauses,
                                diff,
                                whole=(expect, actual),
                            )
                        )
                else:
                    diff = first_difference(first, actual, strict=True)
                    if diff is not None and not any(
                        f.kind is FailureKind.DETERMINISM for f in failures
                    ):
                        failures.append(
                            _difference_failure(
                                FailureKind.DETERMINISM,
                                f"run {attempt + 1} in the same process differs from run 1",
                                determinism_clauses,
                                diff,
                                whole=(first, actual),
                            )
                        )
        finally:
            shutil.rmtree(root, ignore_errors=True)
        if error is None and vector.id in self.sample:
            self._baselines[vector.id] = (vector, first)
        outcome = Outcome.ERRORED if error else Outcome.FAILED if failures else Outcome.PASSED
        return VectorResult(
            id=vector.id,
            area=vector.area,
            level=vector.level,
            clauses=vector.clauses,
            interpretations=vector.interpretations,
            file=vector.file,
            outcome=outcome,
            failures=tuple(failures),
            error=error,
            duration_s=time.perf_counter() - started,
            runs=runs,
        )

    def run_fresh_sample(self) -> Iterator[tuple[str, Failure | None, ErrorDetail | None]]:
        """Re-run the sampled vectors this executor ran, in a fresh adapter process.

        Yields ``(vector id, determinism failure or None, error or None)``. Vectors run in
        reverse order, so state that depends on history shows up too.
        """
        if not self._baselines:
            return
        fresh = self.adapter.fresh()
        try:
            for vector_id in sorted(self._baselines, reverse=True):
                vector, baseline = self._baselines[vector_id]
                root, _ = self._fresh_root(vector)
                try:
                    actual = fresh.run(vector.request_json, root)
                except AdapterError as exc:
                    yield vector_id, None, _error_detail(exc, context="fresh process: ")
                    continue
                finally:
                    shutil.rmtree(root, ignore_errors=True)
                diff = first_difference(baseline, actual, strict=True)
                if diff is None:
                    yield vector_id, None, None
                    continue
                clauses = FAILURE_CLAUSES[FailureKind.DETERMINISM][_shape(vector)]
                failure = _difference_failure(
                    FailureKind.DETERMINISM,
                    "a fresh process differs from the first run",
                    clauses,
                    diff,
                    whole=(baseline, actual),
                )
                yield vector_id, failure, None
        finally:
            fresh.close()


def amend(result: VectorResult, failure: Failure | None, error: ErrorDetail | None) -> VectorResult:
    """Fold a fresh-process check into a result."""
    if failure is None and error is None:
        return result
    failures = result.failures + ((failure,) if failure else ())
    if result.error is None and error is not None:
        return replace(result, outcome=Outcome.ERRORED, error=error, failures=failures)
    outcome = result.outcome if result.outcome is Outcome.ERRORED else Outcome.FAILED
    return replace(result, outcome=outcome, failures=failures, runs=result.runs + 1)


def finalize(
    result: VectorResult, expected: ExpectedFailures | None, adapter_spec: str
) -> VectorResult:
    """Apply the expected-failures list and attach the reproduce command."""
    reason = expected.reason_for(result.id) if expected else None
    reproduce = (
        None if result.outcome is Outcome.PASSED else reproduce_command(adapter_spec, result.id)
    )
    if reason is None:
        return replace(result, reproduce=reproduce)
    if result.outcome in (Outcome.FAILED, Outcome.ERRORED):
        return replace(
            result,
            outcome=Outcome.EXPECTED_FAILURE,
            expected_failure_reason=reason,
            reproduce=reproduce,
        )
    if result.outcome is Outcome.PASSED:
        return replace(
            result,
            expected_failure_reason=reason,
            unexpected_pass=True,
            reproduce=reproduce_command(adapter_spec, result.id),
        )
    return replace(result, expected_failure_reason=reason, reproduce=reproduce)


def skipped(vector: Vector, reason: str) -> VectorResult:
    """A result for a vector that was not run."""
    return VectorResult(
        id=vector.id,
        area=vector.area,
        level=vector.level,
        clauses=vector.clauses,
        interpretations=vector.interpretations,
        file=vector.file,
        outcome=Outcome.SKIPPED,
        skip_reason=reason,
    )


# ---------------------------------------------------------------------------- orchestration


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
            results[vector_id] = amend(results[vector_id], failure, error)
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
            out.put(("amend", name, (vector_id, failure, error)))
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
            elif kind == "amend":
                vector_id, failure, error = payload
                results[vector_id] = amend(results[vector_id], failure, error)
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
        results.get(v.id) or skipped(v, "run interrupted before this vector") for v in vectors
    )
    return RunOutput(ordered, interrupted, requests, restarts, workers)
