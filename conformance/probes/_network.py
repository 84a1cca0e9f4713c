"""Probe ``network``: the controller makes no network access (S6-DET-03, S6-SEC-04).

S6-DET-03: "The controller MUST NOT consult network"; S6-SEC-04: "No network access."

Checks:
- ``no-namespace``: the implementation started inside a fresh network namespace
  (``unshare -n``: only a down loopback device) answers every request exactly as the baseline;
  a controller that needs the network fails or answers differently there;
- ``no-sockets``: under strace, no internet socket is opened, connected or sent to after the
  handshake (a controller that tries a connection and ignores the failure shows only here).
"""

from __future__ import annotations

from collections.abc import Iterator

from conformance.probes import _tools, _workspace
from conformance.probes._common import Clock, baseline_problem, errored, judge, skipped
from conformance.probes._context import ProbeContext
from conformance.probes._launch import differences, run_requests
from conformance.probes._model import CheckResult, Probe

__all__ = ["PROBE"]

NAME = "network"
CLAUSES = ("S6-DET-03", "S6-SEC-04")


def run(context: ProbeContext) -> Iterator[CheckResult]:
    """Run the network checks."""
    clock = Clock()
    root, baseline = context.baseline()
    problem = baseline_problem(baseline)
    unshare = _tools.unshare()
    if problem is not None:
        yield errored(NAME, "no-namespace", CLAUSES, problem, clock)
    elif not unshare.available:
        yield skipped(NAME, "no-namespace", CLAUSES, unshare.reason, clock)
    else:
        replies = run_requests(
            context.launcher, "no network", _workspace.plan(root), prefix=unshare.prefix
        )
        yield judge(
            NAME,
            "no-namespace",
            CLAUSES,
            differences(baseline, replies),
            f"identical answers inside an empty network namespace ({' '.join(unshare.prefix)})",
            clock,
            details={"prefix": list(unshare.prefix)},
        )

    clock = Clock()
    trace = context.trace()
    if trace is None:
        yield skipped(NAME, "no-sockets", CLAUSES, _tools.strace().reason, clock)
        return
    if trace.replies.start_error is not None:
        yield errored(
            NAME, "no-sockets", CLAUSES, f"did not start under strace: {trace.replies.start_error}",
            clock,
        )  # fmt: skip
        return
    during = [call.show() for call in trace.after_start() if call.inet]
    startup = [
        call.show() for call in trace.calls if call.inet and call.ts < trace.replies.started_at
    ]
    yield judge(
        NAME,
        "no-sockets",
        CLAUSES,
        trace.flood_problems()
        + [f"network call while serving requests: {call}" for call in during],
        f"no internet socket, connect or send while serving {len(trace.replies.replies)} "
        "requests (strace)",
        clock,
        details={"startup_network_calls": startup[:20]},
    )


PROBE = Probe(
    name=NAME,
    title="No network",
    sees=(
        "controllers whose answers depend on reaching the network (they differ or crash in an "
        "empty namespace) and any internet-family socket, connect or send made while serving "
        "requests"
    ),
    blind_to=(
        "network use through a helper process outside the adapter's process tree; Unix-domain "
        "sockets (allowed: local IPC); calls during start-up are listed but not judged"
    ),
    run=run,
)
