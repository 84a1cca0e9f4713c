"""Judging: the one place where a vector becomes a :class:`VectorResult`.

Every result of a certification is built here, whatever happened to its vector: run and
compared (:class:`~conformance.run._executor.Executor` hands over its failures or error),
never run (the adapter's handshake failed, or the run was interrupted), re-run in a fresh
process, or listed in an expected-failures file. Nothing else constructs a ``VectorResult``
from a vector: a SPEC-006 ``Vector`` or a Phase 2 one (``conformance.phase2``), anything
shaped like :class:`~conformance.corpus.VectorMeta`.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from dataclasses import replace

from conformance._errors import HandshakeError
from conformance.corpus import ExpectedFailures, VectorMeta
from conformance.run._results import ErrorDetail, ErrorKind, Failure, Outcome, VectorResult

__all__ = [
    "broken_adapter_result",
    "judged",
    "reproduce_command",
    "skipped_result",
    "with_expected_failure",
    "with_fresh_process_check",
]


def reproduce_command(adapter: str, vector_id: str, *, vectors_dir: str | None = None) -> str:
    """The command that re-runs one vector: ``phase6 rerun`` runs that vector alone (no
    sections) and writes nothing, so a full report in ``reports/`` stays as it was."""
    corpus = f" --vectors {shlex.quote(vectors_dir)}" if vectors_dir else ""
    return (
        f"python -m conformance rerun --adapter {shlex.quote(adapter)}{corpus} "
        f"{shlex.quote(vector_id)}"
    )


def judged(
    vector: VectorMeta,
    *,
    failures: tuple[Failure, ...] = (),
    error: ErrorDetail | None = None,
    duration_s: float = 0.0,
    runs: int = 0,
    actual: bytes | None = None,
) -> VectorResult:
    """The result of a vector that was run: errored if it errored, else failed or passed
    (``actual``: what it returned, kept on a failure for attribution)."""
    outcome = Outcome.ERRORED if error else Outcome.FAILED if failures else Outcome.PASSED
    result = _result(
        vector, outcome, failures=failures, error=error, duration_s=duration_s, runs=runs
    )
    if outcome is Outcome.FAILED and actual is not None:
        result = replace(result, actual=actual)
    return result


def skipped_result(vector: VectorMeta, reason: str) -> VectorResult:
    """The result of a vector that was not run (never counts as a pass)."""
    return _result(vector, Outcome.SKIPPED, skip_reason=reason)


def broken_adapter_result(
    vector: VectorMeta, error: HandshakeError, adapter_spec: str
) -> VectorResult:
    """The result of a vector that could not run because the adapter's handshake failed."""
    detail = ErrorDetail(
        kind=ErrorKind(error.kind),
        message=f"adapter broken: {error.message}",
        stderr_tail=error.stderr_tail[-4000:],
        exit_status=error.exit_status,
        detail=error.detail[-4000:],
    )
    return _result(
        vector, Outcome.ERRORED, error=detail, reproduce=reproduce_command(adapter_spec, vector.id)
    )


def with_fresh_process_check(
    result: VectorResult, found: tuple[Failure, ...], error: ErrorDetail | None
) -> VectorResult:
    """Fold the fresh-process re-run of a sampled vector (what it found wrong: the files it
    changed, a result differing from the first run's) into its result."""
    if not found and error is None:
        return result
    failures = result.failures + found
    if result.error is None and error is not None:
        return replace(result, outcome=Outcome.ERRORED, error=error, failures=failures)
    outcome = result.outcome if result.outcome is Outcome.ERRORED else Outcome.FAILED
    return replace(result, outcome=outcome, failures=failures, runs=result.runs + 1)


def with_expected_failure(
    result: VectorResult,
    expected: ExpectedFailures | None,
    adapter_spec: str,
    *,
    vectors_dir: str | None = None,
    command_for: Callable[[str], str] | None = None,
) -> VectorResult:
    """Apply the expected-failures list (protobuf's failure lists) and attach the reproduce
    command to every result that did not simply pass (``vectors_dir``: a corpus other than the
    kit's, named in the command; ``command_for``: the command for a vector ID, when a profile
    reruns vectors differently from :func:`reproduce_command`)."""
    reason = expected.reason_for(result.id) if expected else None
    command = (
        command_for(result.id)
        if command_for is not None
        else reproduce_command(adapter_spec, result.id, vectors_dir=vectors_dir)
    )
    reproduce = None if result.outcome is Outcome.PASSED else command
    if reason is None:
        return replace(result, reproduce=reproduce or result.reproduce)
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
            reproduce=command,
        )
    return replace(result, expected_failure_reason=reason, reproduce=reproduce)


def _result(
    vector: VectorMeta,
    outcome: Outcome,
    *,
    failures: tuple[Failure, ...] = (),
    error: ErrorDetail | None = None,
    duration_s: float = 0.0,
    runs: int = 0,
    skip_reason: str | None = None,
    reproduce: str | None = None,
) -> VectorResult:
    return VectorResult(
        id=vector.id,
        area=vector.area,
        level=vector.level,
        clauses=vector.clauses,
        interpretations=vector.interpretations,
        file=vector.file,
        outcome=outcome,
        failures=failures,
        error=error,
        duration_s=duration_s,
        runs=runs,
        skip_reason=skip_reason,
        reproduce=reproduce,
    )
