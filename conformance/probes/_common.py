"""Small helpers every probe uses to turn observations into a :class:`CheckResult`."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

from conformance.probes._launch import Replies
from conformance.probes._model import CheckResult
from conformance.run import Outcome

__all__ = ["Clock", "baseline_problem", "judge", "outcome_of"]

_LISTED = 8


class Clock:
    """Measures a check's duration (the harness may read the clock; the controller may not)."""

    def __init__(self) -> None:
        self.start = time.perf_counter()

    def elapsed(self) -> float:
        """Seconds since construction."""
        return time.perf_counter() - self.start


def baseline_problem(replies: Replies) -> str | None:
    """Why a baseline cannot be compared against (did not start, a request crashed), or None."""
    if replies.start_error is not None:
        return f"the adapter did not start: {replies.start_error}"
    broken = [f"{reply.label}: {reply.error}" for reply in replies.replies if reply.error]
    if broken:
        return f"{len(broken)} baseline request(s) errored: " + "; ".join(broken[:3])
    return None


def outcome_of(problems: Sequence[str]) -> Outcome:
    """``failed`` when anything was found, else ``passed``."""
    return Outcome.FAILED if problems else Outcome.PASSED


def judge(
    probe: str,
    check: str,
    clauses: tuple[str, ...],
    problems: Sequence[str],
    passed: str,
    clock: Clock,
    *,
    details: Mapping[str, Any] | None = None,
    outcome: Outcome | None = None,
    pinned: tuple[str, ...] = (),
) -> CheckResult:
    """A check result: failed with the first problems listed, or passed with ``passed``;
    ``pinned``: the readings every problem rests on (empty: the spec text)."""
    found = outcome or outcome_of(problems)
    if problems:
        shown = "; ".join(problems[:_LISTED])
        more = f" (+{len(problems) - _LISTED} more)" if len(problems) > _LISTED else ""
        message = f"{len(problems)} problem(s): {shown}{more}"
    else:
        message = passed
    body = dict(details or {})
    if problems:
        body["problems"] = list(problems[:50])
    return CheckResult(
        probe,
        check,
        found,
        clauses,
        message,
        body,
        clock.elapsed(),
        pinned if problems else (),
    )


def skipped(
    probe: str, check: str, clauses: tuple[str, ...], reason: str, clock: Clock
) -> CheckResult:
    """A check that could not run on this machine (never a pass)."""
    return CheckResult(probe, check, Outcome.SKIPPED, clauses, reason, {}, clock.elapsed())


def errored(
    probe: str, check: str, clauses: tuple[str, ...], reason: str, clock: Clock
) -> CheckResult:
    """A check that could not judge (the adapter did not start, a baseline request crashed)."""
    return CheckResult(probe, check, Outcome.ERRORED, clauses, reason, {}, clock.elapsed())
