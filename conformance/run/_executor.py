"""Running one vector against an adapter: materialize, run, compare, check, repeat.

For each vector (:meth:`Executor.run_vector`):

1. materialize its files under a fresh directory ``<worker temp root>/<16 random hex digits>``
   and stamp every entry (content hash, size, mode, mtime, ctime, inode, links); the worker
   temp root is a :class:`~conformance.corpus.Workspace` (named like any ``tmp*`` directory),
   worked in by descriptor, so what an implementation does to it between requests cannot
   redirect the files; no name tells the implementation it is certified, or which vector runs;
2. run the request (``repeat`` times, default 2, in the same adapter process), each run on
   a freshly materialized root with a new random name; in a certification a vector's repeat
   comes after a random number of other vectors' first runs (:meth:`Executor.submit`), so the
   order of requests does not say which run is which; after each run re-stamp the tree within
   a budget (only regular files are read, only those whose size did not change, in bounded
   time): any change, a root removed, or a tree too large to check, is a ``store-mutated``
   failure (S6-SEC-01, S6-ACC-04);
3. compare the first result with ``expect`` (INT-48; first differing JSON Pointer kept); compare
   every later run with the first exactly (``determinism``, S6-ACC-01);
4. for a deterministic sample (every ``fresh_every``-th vector by sorted ID) run once more in a
   fresh adapter process at the end of the executor's share, its tree stamped and checked as
   in step 2 (an adapter that writes to stores only there is ``store-mutated`` all the same),
   and compare exactly with the first, of which only a :class:`Baseline` was kept (a digest,
   and canonical bytes when short: never the parsed tree).

Adapter misbehaviour (:class:`~conformance._errors.AdapterError`) becomes an ``errored``
result with context (:mod:`conformance.run._judge` builds every result); the run goes on. Every
string taken from the implementation into a result is valid Unicode (lone surrogates escaped),
so the report can always be written.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import secrets
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from conformance._errors import AdapterError, CorpusError
from conformance._kit import dumps, loads, unicode_safe
from conformance.adapters import DEFAULT_MAX_LINE_BYTES, DEFAULT_TIMEOUT, Adapter, open_adapter
from conformance.corpus import StampBudget, TreeStamps, Vector, VectorMeta, Workspace, changes
from conformance.run._attribution import keep_actual
from conformance.run._compare import (
    MISSING,
    Difference,
    compare_result,
    first_difference,
    render_diff,
)
from conformance.run._judge import judged
from conformance.run._results import (
    FAILURE_CLAUSES,
    ErrorDetail,
    ErrorKind,
    Failure,
    FailureKind,
    VectorResult,
)

__all__ = [
    "UNPREPARABLE",
    "Executor",
    "RunConfig",
    "default_temp_parent",
    "error_detail",
    "fresh_sample",
]

_SHOWN = 500
#: The longest JSON Pointer kept in a failure (a member name can be megabytes long).
_PATH = 2000
#: How the error of a vector whose files could not be laid out begins (not the adapter's doing
#: as far as the harness can tell, so it never counts towards stopping the run).
UNPREPARABLE = "the vector's files could not be created"


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
    #: The longest protocol line (a reply) read from a ``cmd:`` or ``python:`` adapter.
    max_line_bytes: int = DEFAULT_MAX_LINE_BYTES
    #: Timeouts, crashes, failed restarts or slow failures in a row (or three quarters of
    #: twice as many) that end the run as adapter broken (0: never); see
    #: :class:`conformance.run.Breaker`.
    max_consecutive_failures: int = 10
    #: What checking a vector's tree after a run may cost (see :class:`StampBudget`).
    stamp_budget: StampBudget = field(default_factory=StampBudget)


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


#: The longest first result kept whole (as canonical JSON bytes) for the fresh-process check;
#: a longer one is kept as its digest only. SPEC-006 results are a few KB.
MAX_KEPT_BASELINE = 256 * 1024


def _canonical(value: Any) -> bytes:
    """``value`` as key-sorted compact JSON: equal bytes exactly when the values are equal
    under ``first_difference(..., strict=True)`` (1 and 1.0 differ, member order does not)."""
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
    except TypeError:  # integers beyond 64 bits, lone surrogates
        text = json.dumps(value, sort_keys=True, ensure_ascii=True, separators=(",", ":"))
        return text.encode("ascii")


@dataclass(frozen=True)
class Baseline:
    """What the fresh-process check keeps of a sampled vector's first result: its digest, and
    the result itself as canonical JSON bytes when short (never the parsed tree, which costs
    ~70 bytes per object an adapter chose to send)."""

    digest: bytes
    size: int
    kept: bytes | None

    @classmethod
    def of(cls, value: Any) -> Baseline:
        """The baseline of a parsed result."""
        canonical = _canonical(value)
        kept = canonical if len(canonical) <= MAX_KEPT_BASELINE else None
        return cls(hashlib.sha256(canonical).digest(), len(canonical), kept)

    def difference(self, actual: Any) -> tuple[Difference, Any] | None:
        """How ``actual`` differs from the first result (the difference and the first result,
        for the diff), or ``None``. A first result kept as its digest only is not shown:
        its difference is the whole result, at ``/``."""
        if hashlib.sha256(_canonical(actual)).digest() == self.digest:
            return None
        if self.kept is None:
            shown = f"(a result of {self.size:,} bytes, kept as its SHA-256 only)"
            return Difference("", shown, actual, "the results' SHA-256 digests differ"), shown
        first = loads(self.kept)
        diff = first_difference(first, actual, strict=True)
        return None if diff is None else (diff, first)


def fresh_sample(vectors: Sequence[VectorMeta], every: int) -> frozenset[str]:
    """IDs of every ``every``-th vector by sorted ID (empty when ``every`` is 0)."""
    if every <= 0:
        return frozenset()
    return frozenset(sorted(v.id for v in vectors)[::every])


def _shown(value: Any) -> str:
    if value is MISSING:
        return "<missing>"
    try:
        text = dumps(value).decode("utf-8", "replace")
    except (TypeError, ValueError, RecursionError):
        text = unicode_safe(repr(value)[: _SHOWN * 2])
    return text if len(text) <= _SHOWN else text[:_SHOWN] + "..."


def error_detail(exc: AdapterError, *, context: str = "") -> ErrorDetail:
    """The report form of an adapter's misbehaviour (every string made valid Unicode, capped)."""
    message = f"{context}{exc.message}"
    return ErrorDetail(
        kind=ErrorKind(exc.kind),
        message=unicode_safe(message[:4000]),
        stderr_tail=unicode_safe(exc.stderr_tail[-4000:]),
        exit_status=exc.exit_status,
        detail=unicode_safe(exc.detail[-4000:]),
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
        message=unicode_safe(f"{message}: {diff.describe()}"[:1000]),
        clauses=clauses,
        path=unicode_safe(diff.path if len(diff.path) <= _PATH else diff.path[:_PATH] + "..."),
        expected=_shown(diff.expected),
        actual=_shown(diff.actual),
        diff=unicode_safe(render_diff(*whole)),
    )


#: How many recent exchanges late output can still be blamed on (by ``seq``).
_SEQS_KEPT = 1024
#: How many other vectors' first runs may come between a run and its repeat (:meth:`submit`).
INTERLEAVE = 4


@dataclass(eq=False)
class _Attempts:
    """What the runs of one vector found so far (the repeat may come later: :meth:`submit`)."""

    vector: Vector
    tried: int = 0
    runs: int = 0
    first: Any = None
    kept: bytes | None = None
    failures: list[Failure] = field(default_factory=list)
    error: ErrorDetail | None = None
    unpreparable: Exception | None = None
    duration_s: float = 0.0
    #: Other vectors' first runs still to come before the next run of this one.
    gap: int = 0
    #: Whether its result was returned (a later fault then amends it).
    judged: bool = False

    def done(self, repeat: int) -> bool:
        """Whether every run is over (or one errored, or the files could not be laid out)."""
        return (
            self.tried >= max(1, repeat) or self.error is not None or self.unpreparable is not None
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
            config.adapter,
            timeout=config.timeout,
            validate=config.validate_protocol,
            max_line_bytes=config.max_line_bytes,
        )
        self.sample = sample
        self.name = name
        parent = config.temp_dir or default_temp_parent()
        self._workspace = Workspace(parent, prefix="tmp")
        #: The current root of each vector being run: a random name, new for every layout.
        self._roots: dict[str, str] = {}
        self._baselines: dict[str, tuple[Vector, Baseline]] = {}
        #: Vectors whose repeats are still to run (:meth:`submit`), at most INTERLEAVE + 1.
        self._waiting: list[_Attempts] = []
        self._random = random.SystemRandom()
        #: The recent exchanges' vectors by ``seq`` (output written after a reply is that
        #: exchange's fault), and faults found after a vector's result was returned.
        self._by_seq: dict[int, _Attempts] = {}
        self._amends: list[tuple[str, ErrorDetail]] = []

    def close(self) -> None:
        """Stop the adapter and remove the temp root (output found while stopping is the last
        exchange's fault: :meth:`take_amends` after closing)."""
        try:
            self.adapter.close()
            self._blame_late()
        finally:
            self._workspace.close()

    def _fresh_root(self, vector: Vector) -> tuple[Path, TreeStamps]:
        self._remove(vector)
        name = self._roots[vector.id] = secrets.token_hex(8)
        root = self._workspace.materialize(name, vector)
        before = self._workspace.stamp(name, budget=self.config.stamp_budget)
        if before.incomplete is not None:  # the vector's own size, before any run: not the
            raise CorpusError(  # implementation's doing (it would read as store-mutated)
                f"the vector is too large for the harness to check for changes "
                f"({before.incomplete}; a harness-side limit, the stamp budget)"
            )
        return root, before

    def _remove(self, vector: Vector) -> None:
        name = self._roots.pop(vector.id, None)
        if name is not None:
            self._workspace.remove(name)

    def _after(self, vector: Vector, before: TreeStamps) -> list[str]:
        """What a run changed under the vector's root (bounded: see the module docstring)."""
        name = self._roots[vector.id]
        after = self._workspace.stamp(name, budget=self.config.stamp_budget, like=before)
        return changes(before, after)

    def run_vector(self, vector: Vector) -> VectorResult:
        """Run ``vector`` ``repeat`` times in a row and judge it (expected failures are applied
        later); :meth:`submit` interleaves the runs of several vectors instead."""
        attempts = _Attempts(vector)
        while not attempts.done(self.config.repeat):
            self._attempt(attempts)
        return self._judge(attempts)

    def submit(self, vector: Vector) -> list[VectorResult]:
        """Run ``vector``'s first run now and its repeats later, among other vectors' runs;
        return the results of the vectors finished meanwhile (:meth:`drain` the rest).

        The repeat of a run comes after a random number (0 to :data:`INTERLEAVE` - 1) of other
        vectors' first runs, on a new root with a new random name: the order of requests does
        not tell an implementation which run is a vector's first (compared with the vector)
        and which its repeat (compared with the first), nor that a request will be repeated.
        """
        attempts = _Attempts(vector)
        self._attempt(attempts)
        finished = []
        due = []
        for waiting in self._waiting:
            waiting.gap -= 1
            if waiting.gap < 0:
                due.append(waiting)
        for waiting in due:
            self._attempt(waiting)
            waiting.gap = self._random.randrange(INTERLEAVE)
        self._waiting.append(attempts)
        attempts.gap = self._random.randrange(INTERLEAVE)
        for waiting in list(self._waiting):
            if waiting.done(self.config.repeat):
                self._waiting.remove(waiting)
                finished.append(self._judge(waiting))
        return finished

    def drain(self) -> list[VectorResult]:
        """Run every repeat still waiting (in a random order) and return those results."""
        finished = []
        while self._waiting:
            waiting = self._waiting.pop(self._random.randrange(len(self._waiting)))
            while not waiting.done(self.config.repeat):
                self._attempt(waiting)
            finished.append(self._judge(waiting))
        return finished

    def _attempt(self, attempts: _Attempts) -> None:
        """One run of ``attempts.vector`` on a fresh root, judged as run ``attempts.runs + 1``:
        the first against the vector, the others exactly against the first."""
        vector = attempts.vector
        attempt = attempts.tried
        attempts.tried += 1
        try:
            try:
                root, before = self._fresh_root(vector)
            except (CorpusError, OSError) as exc:
                attempts.unpreparable = exc
                return
            started = time.perf_counter()
            sent = self.adapter.last_seq
            try:
                actual = self.adapter.run(vector.request_json, root)
            except AdapterError as exc:
                attempts.error = error_detail(
                    exc, context=f"run {attempt + 1}: " if attempt else ""
                )
                return
            finally:  # the implementation's time: laying out and checking files is the kit's
                attempts.duration_s += time.perf_counter() - started
                if self.adapter.last_seq != sent:
                    self._by_seq[self.adapter.last_seq] = attempts
                    if len(self._by_seq) > _SEQS_KEPT:
                        del self._by_seq[next(iter(self._by_seq))]
                self._blame_late()
            attempts.runs += 1
            changed = self._after(vector, before)
            if changed:
                attempts.failures.append(
                    Failure(
                        FailureKind.STORE_MUTATED,
                        f"run {attempt + 1} changed the vector's files: " + "; ".join(changed[:10]),
                        FAILURE_CLAUSES[FailureKind.STORE_MUTATED][_shape(vector)],
                    )
                )
            if attempt == 0:
                attempts.first = actual
                diff = compare_result(vector.expect, actual)
                if diff is not None:
                    attempts.kept = keep_actual(actual)
                    attempts.failures.append(
                        _difference_failure(
                            FailureKind.MISMATCH,
                            "result differs from the vector",
                            vector.clauses,
                            diff,
                            whole=(vector.expect, actual),
                        )
                    )
            else:
                diff = first_difference(attempts.first, actual, strict=True)
                if diff is not None and not any(
                    f.kind is FailureKind.DETERMINISM for f in attempts.failures
                ):
                    attempts.failures.append(
                        _difference_failure(
                            FailureKind.DETERMINISM,
                            f"run {attempt + 1} in the same process differs from run 1",
                            FAILURE_CLAUSES[FailureKind.DETERMINISM][_shape(vector)],
                            diff,
                            whole=(attempts.first, actual),
                        )
                    )
        finally:
            self._remove(vector)

    def _blame_late(self) -> None:
        """Blame output an exchange wrote after its reply on that exchange's vector (the
        adapter names it by ``seq``), not on the vector whose request found it: an error of
        that vector, folded into its result later (:meth:`take_amends`) when it was already
        returned."""
        for seq, exc in self.adapter.take_late_output():
            writer = self._by_seq.get(seq)
            if writer is None:
                continue
            detail = error_detail(exc, context="after its reply: ")
            if writer.judged:
                self._amends.append((writer.vector.id, detail))
            elif writer.error is None:
                writer.error = detail

    def take_amends(self) -> list[tuple[str, ErrorDetail]]:
        """``(vector ID, error)`` for faults found after the vector's result was returned (its
        reply was followed by more output): fold each into that result, and forget them."""
        amends, self._amends = self._amends, []
        return amends

    def _judge(self, attempts: _Attempts) -> VectorResult:
        """The result of a vector whose runs are over."""
        vector = attempts.vector
        attempts.judged = True
        if attempts.unpreparable is not None:
            return self._unpreparable(vector, attempts.unpreparable, attempts.duration_s)
        if attempts.error is None and vector.id in self.sample:
            self._baselines[vector.id] = (vector, Baseline.of(attempts.first))
        result = judged(
            vector,
            failures=tuple(attempts.failures),
            error=attempts.error,
            duration_s=attempts.duration_s,
            runs=attempts.runs,
            actual=attempts.kept,
        )
        attempts.first = attempts.kept = None  # kept by seq for blame only: hold no reply
        return result

    def _unpreparable(self, vector: Vector, exc: Exception, duration_s: float) -> VectorResult:
        """The vector's files could not be laid out (a harness-side problem, named)."""
        self._remove(vector)
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        detail = ErrorDetail(
            kind=ErrorKind.CRASH,
            message=unicode_safe(f"{UNPREPARABLE}: {reason}"),
        )
        return judged(vector, error=detail, duration_s=duration_s)

    def run_fresh_sample(self) -> Iterator[tuple[str, tuple[Failure, ...], ErrorDetail | None]]:
        """Re-run the sampled vectors this executor ran, in a fresh adapter process.

        Yields ``(vector id, failures found, error or None)``: the fresh run is stamped and
        checked like every run (S6-SEC-01: a change to the vector's files is ``store-mutated``)
        and compared exactly with the first (S6-ACC-01: ``determinism``). Vectors run in
        reverse order, so state that depends on history shows up too.
        """
        if not self._baselines:
            return
        fresh = self.adapter.fresh()
        try:
            for vector_id in sorted(self._baselines, reverse=True):
                vector, baseline = self._baselines[vector_id]
                try:
                    root, before = self._fresh_root(vector)
                    actual = fresh.run(vector.request_json, root)
                    changed = self._after(vector, before)
                except AdapterError as exc:
                    yield vector_id, (), error_detail(exc, context="fresh process: ")
                    continue
                except (CorpusError, OSError):
                    continue  # the files could not be laid out again: no fresh evidence
                finally:
                    self._remove(vector)
                found: list[Failure] = []
                if changed:
                    found.append(
                        Failure(
                            FailureKind.STORE_MUTATED,
                            "the run in a fresh process changed the vector's files: "
                            + "; ".join(changed[:10]),
                            FAILURE_CLAUSES[FailureKind.STORE_MUTATED][_shape(vector)],
                        )
                    )
                differs = baseline.difference(actual)
                if differs is not None:
                    diff, first = differs
                    found.append(
                        _difference_failure(
                            FailureKind.DETERMINISM,
                            "a fresh process differs from the first run",
                            FAILURE_CLAUSES[FailureKind.DETERMINISM][_shape(vector)],
                            diff,
                            whole=(first, actual),
                        )
                    )
                yield vector_id, tuple(found), None
        finally:
            fresh.close()
