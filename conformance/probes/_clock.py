"""Probe ``clock``: the controller never consults the system clock (S6-DET-02, INT-37).

S6-DET-02: "The controller MUST NOT consult system time unless now_utc is explicitly provided."
INT-37 pins the stricter reading: it never reads the clock at all. A difference on a request
that gives now_utc therefore rests on INT-37 alone (the check fails at level pinned, naming
it); a difference on any other request breaks S6-DET-02 itself.

Checks:
- ``shifted-clock``: every request answered under ``faketime`` (clock moved to 2001-01-01, and
  ten years ahead) equals the baseline, errors included;
- ``timezone``: the same under several ``TZ`` values (POSIX rules need no tzdata);
- ``no-now-no-recency``: with ``enable_recency_weight`` true and no ``now_utc`` the package is
  exactly the one with recency disabled, under the real clock and under each shifted clock
  (S6-INPUT-15: "If absent, recency weighting MUST be disabled").
"""

from __future__ import annotations

import os
from collections.abc import Iterator

from conformance.probes import _tools, _workspace
from conformance.probes._common import Clock, baseline_problem, errored, judge, skipped
from conformance.probes._context import ProbeContext
from conformance.probes._launch import Replies, differences, run_requests
from conformance.probes._model import CheckResult, Probe
from conformance.run import first_difference

__all__ = ["PROBE"]

NAME = "clock"
CLAUSES = ("S6-DET-02",)
#: faketime -f specifications: start the clock at a fixed past instant, and run it 10 years ahead.
SHIFTS: tuple[tuple[str, str], ...] = (("2001-01-01", "@2001-01-01 00:00:00"), ("+10y", "+10y"))
#: POSIX TZ rules (no tzdata needed), from UTC-12 to UTC+14, plus a named zone when installed.
ZONES: tuple[str, ...] = (
    "UTC0",
    "EST5EDT,M3.2.0,M11.1.0",
    "<-12>12",
    "<+14>-14",
    "NZST-12NZDT,M9.5.0,M4.1.0/3",
)
#: Named zones, tried only where tzdata has them.
NAMED_ZONES: tuple[str, ...] = ("Asia/Kathmandu", "America/St_Johns")


#: Requests that give now_utc: there the spec lets a controller consult the clock (INT-37).
_WITH_NOW = frozenset(
    r.label for r in _workspace.REQUESTS + _workspace.ERROR_REQUESTS
    if isinstance(r.request, dict) and "now_utc" in r.request
)  # fmt: skip


def _attributed(problems: list[str]) -> tuple[str, ...]:
    """INT-37 when every problem is on a request that gives now_utc, else nothing (required)."""

    def label(problem: str) -> str:
        return problem.split(":", 1)[0].rsplit("/", 1)[-1]

    if problems and all(label(p) in _WITH_NOW for p in problems):
        return ("INT-37",)
    return ()


def _recency_problems(replies: Replies) -> list[str]:
    found = replies.by_label()
    on, off = found.get("recency-no-now"), found.get("recency-off")
    if on is None or off is None or on.error or off.error:
        return [f"{replies.condition}: recency requests did not both answer"]
    diff = first_difference(off.result, on.result, strict=True)
    if diff is None:
        return []
    return [
        f"{replies.condition}: recency enabled without now_utc changed the package at "
        f"{diff.describe()}"
    ]


def run(context: ProbeContext) -> Iterator[CheckResult]:
    """Run the clock checks."""
    clock = Clock()
    root, baseline = context.baseline()
    problem = baseline_problem(baseline)
    if problem is not None:
        for check in ("shifted-clock", "timezone", "no-now-no-recency"):
            yield errored(NAME, check, CLAUSES, problem, clock)
        return
    plan = _workspace.plan(root)

    faketime = _tools.faketime()
    shifted: list[Replies] = []
    if faketime.available:
        problems: list[str] = []
        for label, spec in SHIFTS:
            replies = run_requests(
                context.launcher, f"faketime {label}", plan, prefix=(*faketime.prefix, "-f", spec)
            )
            shifted.append(replies)
            problems += differences(baseline, replies)
        yield judge(
            NAME,
            "shifted-clock",
            CLAUSES,
            problems,
            f"identical answers under faketime {', '.join(label for label, _ in SHIFTS)} "
            f"({len(plan)} requests each)",
            clock,
            details={"shifts": [spec for _, spec in SHIFTS], "requests": len(plan)},
            pinned=_attributed(problems),
        )
    else:
        yield skipped(NAME, "shifted-clock", CLAUSES, faketime.reason, clock)

    clock = Clock()
    zones = [*ZONES, *(z for z in NAMED_ZONES if os.path.exists(f"/usr/share/zoneinfo/{z}"))]
    problems = []
    for zone in zones:
        replies = run_requests(context.launcher, f"TZ={zone}", plan, env={"TZ": zone})
        problems += differences(baseline, replies)
    yield judge(
        NAME,
        "timezone",
        CLAUSES,
        problems,
        f"identical answers under TZ={', '.join(zones)}",
        clock,
        details={"zones": zones},
        pinned=_attributed(problems),
    )

    clock = Clock()
    problems = _recency_problems(baseline)
    for replies in shifted:
        problems += _recency_problems(replies)
    conditions = ["real clock", *(r.condition for r in shifted)]
    note = "" if shifted else f" (real clock only: {faketime.reason})"
    yield judge(
        NAME,
        "no-now-no-recency",
        CLAUSES,
        problems,
        "recency without now_utc changes nothing under " + ", ".join(conditions) + note,
        clock,
        details={"conditions": conditions, "related": ["S6-INPUT-15", "INT-36", "INT-37"]},
    )


PROBE = Probe(
    name=NAME,
    title="No system clock",
    sees=(
        "any use of the wall clock or local time zone that changes a package or an error: "
        "recency computed from 'now', dates parsed as local time, caches keyed by date"
    ),
    blind_to=(
        "clock reads that change nothing observable (e.g. logging a timestamp); runtimes "
        "that bypass libc (static binaries, raw vDSO calls) are not shifted by faketime, so "
        "shifted-clock cannot see them (timezone and no-now-no-recency still apply)"
    ),
    run=run,
)
