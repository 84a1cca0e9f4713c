"""Probe ``read-only``: stores and the trust snapshot are only ever read (S6-SEC-01/03/05,
S6-ACC-04, S6-INPUT-13).

S6-SEC-03: "Controller is read-only." S6-ACC-04: "No store mutation occurs." S6-INPUT-13:
trust_snapshot_path is "used read-only". S6-SEC-05: "No tool invocation besides reading stores."

Checks:
- ``stamps``: the workspace (stores, snapshot, directories; files 0444, directories 0555) is
  stamped before and after every request ran twice: content hash, size, mode, mtime, ctime,
  inode and link count of every entry, and the listing, must not change; the fresh HOME and
  TMPDIR given to the process must stay empty;
- ``read-only-stores``: the answers on the read-only workspace equal the baseline's on a
  writable one (a controller that needs write access fails here when not run as root);
- ``write-opens`` (strace): no open with a write flag (O_WRONLY, O_RDWR, O_CREAT, O_TRUNC,
  O_APPEND) and no creating, renaming, removing, linking, chmod/chown/utime call on any path
  in the workspace, at any time; and no file written anywhere else while serving requests
  (devices, /proc and Python's bytecode cache excepted);
- ``no-exec`` (strace): no program is executed after the handshake.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from conformance.corpus import changes, stamp_tree
from conformance.probes import _tools, _workspace
from conformance.probes._common import Clock, baseline_problem, errored, judge, skipped
from conformance.probes._context import ProbeContext
from conformance.probes._launch import differences, run_requests
from conformance.probes._model import CheckResult, Probe
from conformance.probes._trace import EXECUTING, Trace, runtime_noise, under

__all__ = ["PROBE"]

NAME = "read-only"
MUTATION = ("S6-SEC-01", "S6-ACC-04", "S6-INPUT-13")


def _listing(path: Path) -> list[str]:
    return sorted(str(p.relative_to(path)) for p in path.rglob("*"))


def _stamps(context: ProbeContext, clock: Clock) -> Iterator[CheckResult]:
    base = context.fresh_dir("read-only")
    root = _workspace.build(base / "root")
    home, tmp = base / "home", base / "tmp"
    home.mkdir()
    tmp.mkdir()
    _workspace.make_read_only(root)
    before = stamp_tree(root)
    plan = [item for item in _workspace.plan(root) for _ in range(2)]
    replies = run_requests(
        context.launcher,
        "read-only workspace",
        plan,
        env={"HOME": str(home), "TMPDIR": str(tmp), "TMP": str(tmp), "TEMP": str(tmp)},
    )
    if replies.start_error is not None:
        message = f"did not start: {replies.start_error}"
        yield errored(NAME, "stamps", MUTATION, message, clock)
        yield errored(NAME, "read-only-stores", ("S6-SEC-03",), message, clock)
        return
    problems = [f"workspace: {change}" for change in changes(before, stamp_tree(root))]
    problems += [f"created in HOME: {name}" for name in _listing(home)]
    problems += [f"created in TMPDIR: {name}" for name in _listing(tmp)]
    yield judge(
        NAME,
        "stamps",
        MUTATION,
        problems,
        f"{len(before)} entries unchanged (hash, size, mode, mtime, ctime, inode, links) after "
        f"{len(plan)} requests; HOME and TMPDIR still empty",
        clock,
        details={"entries": len(before), "requests": len(plan)},
    )
    clock = Clock()
    _, baseline = context.baseline()
    problem = baseline_problem(baseline)
    if problem is not None:
        yield errored(NAME, "read-only-stores", ("S6-SEC-03",), problem, clock)
        return
    yield judge(
        NAME,
        "read-only-stores",
        ("S6-SEC-03", "S6-SEC-01"),
        differences(baseline, replies),
        "read-only stores (0444 in 0555 directories) give the baseline's answers"
        + (" (running as root: the modes do not stop writes)" if os.geteuid() == 0 else ""),
        clock,
    )


def _write_problems(trace: Trace) -> tuple[list[str], list[str]]:
    """(problems, start-up writes outside the workspace that were only noted).

    A write on a workspace path is a problem whenever it happens; after the handshake any other
    write is one too, unless it is runtime noise (devices, /proc, bytecode caches); a relative
    path the log cannot resolve counts as a write in the request's working directory, which is
    the workspace.
    """
    problems, noted = [], []
    for call in trace.calls:
        if not call.writes:
            continue
        serving = call.ts >= trace.replies.started_at
        if any(under(path, trace.workspace) for path in call.paths):
            problems.append(f"changes the workspace: {call.show()}")
        elif serving and not all(
            path.startswith("/") and runtime_noise(path) for path in call.paths
        ):
            problems.append(f"writes a file while serving requests: {call.show()}")
        elif not serving and not all(runtime_noise(path) for path in call.paths):
            noted.append(call.show())
    return problems, noted


def _traced(context: ProbeContext) -> Iterator[CheckResult]:
    clock = Clock()
    trace = context.trace()
    if trace is None:
        reason = _tools.strace().reason
        yield skipped(NAME, "write-opens", ("S6-SEC-03", "S6-INPUT-13", "S6-SEC-01"), reason, clock)
        yield skipped(NAME, "no-exec", ("S6-SEC-05",), reason, clock)
        return
    if trace.replies.start_error is not None:
        message = f"did not start under strace: {trace.replies.start_error}"
        yield errored(
            NAME, "write-opens", ("S6-SEC-03", "S6-INPUT-13", "S6-SEC-01"), message, clock
        )
        yield errored(NAME, "no-exec", ("S6-SEC-05",), message, clock)
        return
    problems, noted = _write_problems(trace)
    yield judge(
        NAME,
        "write-opens",
        ("S6-SEC-03", "S6-INPUT-13", "S6-SEC-01"),
        trace.flood_problems() + problems,
        f"{trace.opens} opens traced: none for writing in the workspace, no file written while "
        "serving requests",
        clock,
        details={"startup_writes_outside_workspace": noted[:20], "calls": trace.total},
    )
    clock = Clock()
    executed = [call.show() for call in trace.after_start() if call.name in EXECUTING]
    yield judge(
        NAME,
        "no-exec",
        ("S6-SEC-05",),
        trace.flood_problems()
        + [f"runs a program while serving requests: {call}" for call in executed],
        "no program executed while serving requests (strace)",
        clock,
    )


def run(context: ProbeContext) -> Iterator[CheckResult]:
    """Run the read-only checks."""
    yield from _stamps(context, Clock())
    yield from _traced(context)


PROBE = Probe(
    name=NAME,
    title="Read-only stores",
    sees=(
        "any change to a store, the snapshot or their directories (content, size, mode, mtime, "
        "ctime, inode, links, new or removed entries, even if mtime is restored), files left in "
        "HOME/TMPDIR, and with strace every open for writing or modifying call on a workspace "
        "path (even one that writes nothing), files written elsewhere while serving requests, "
        "and programs executed"
    ),
    blind_to=(
        "without strace: opens for writing that leave no trace; writes through a helper process "
        "outside the adapter's process tree; as root, 0444/0555 modes do not stop a write, so "
        "only the stamps and the trace can tell"
    ),
    run=run,
)
