"""Probe ``streaming``: stores are read as a stream, not loaded whole (S6-READ-02, S6-READ-03).

S6-READ-02: "Read strategy: streaming line-by-line, no buffering dependent on OS
non-determinism." The clause register reads it as "not loaded whole into memory".

Checks:
- ``bounded-memory``: the memory of the adapter's process tree grows by less than half the
  store's size while it answers a request over one 32 MiB store of 2,048 records whose bytes
  are almost all in an unknown member (16 KiB each) that the controller must ignore (INT-23):
  the candidates and the package stay small, so keeping candidates in memory is fine, but a
  controller that reads the file whole (or keeps its lines) grows by at least the store's size.
  Memory is sampled *during* the request, every few milliseconds, over every process of the
  tree (so forked or spawned readers count while they live): the proportional set size (PSS,
  /proc/<pid>/smaps_rollup) of each, so pages a fork shares are counted once, not once per
  process (VmRSS where PSS is unavailable).  The adapter's own high-water mark (VmHWM) is read
  too, so a spike between two samples is not missed in the process that answers;
- ``chunk-boundaries``: the same records in two byte layouts (JSON whitespace shifts every line
  across 1 MiB read-buffer boundaries) give the same package, with no valid line dropped
  (S6-READ-03: no dependence on read sizes).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from conformance.adapters import SubprocessAdapter
from conformance.probes import _tools, _workspace
from conformance.probes._common import Clock, errored, judge, skipped
from conformance.probes._context import ProbeContext
from conformance.probes._launch import ProbeRequest, adapter_pid, run_requests
from conformance.probes._model import CheckResult, Probe
from conformance.run import first_difference

__all__ = ["PROBE", "proc_field_kib", "process_tree"]

NAME = "streaming"
#: 2,048 records, each a short text plus a 16 KiB unknown member: a 32 MiB store whose records
#: (and package) are small, so only a controller holding the store's bytes needs the memory.
RECORDS = 2048
TEXT_BYTES = 16 * 1024
#: Peak-memory growth allowed, as a fraction of the store's size.
GROWTH_LIMIT = 0.5
#: Seconds between two memory samples of the adapter's process tree during the request.
SAMPLE_SECONDS = 0.005
#: Text lengths for the chunk-boundary stores (about 2.5 MiB each, crossing 1 MiB twice).
BOUNDARY_SIZES = (65_000, 131_071, 1000, 262_143, 7, 40_000)


def _session_pids(leader: int) -> list[int]:
    """The processes whose session is ``leader`` (the adapter runs in its own session)."""
    pids = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", encoding="ascii", errors="replace") as handle:
                fields = handle.read().rpartition(")")[2].split()
        except OSError:
            continue
        if len(fields) > 3 and fields[3] == str(leader):
            pids.append(int(entry.name))
    return pids or [leader]


def _hwm_kib(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii", errors="replace") as handle:
            for line in handle:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return 0


def process_tree(root: int) -> list[int]:
    """``root`` and its descendants, from /proc/<pid>/task/<tid>/children (every thread's)."""
    found: list[int] = []
    queue = [root]
    while queue:
        pid = queue.pop()
        found.append(pid)
        try:
            tasks = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for task in tasks:
            try:
                with open(f"/proc/{pid}/task/{task}/children", encoding="ascii") as handle:
                    queue += [int(child) for child in handle.read().split()]
            except (OSError, ValueError):
                continue
    return found


def proc_field_kib(path: str, name: str) -> int | None:
    """The KiB figure of the line starting with ``name`` in a /proc file (``None``: no such
    file or line; the process may have ended)."""
    try:
        with open(path, encoding="ascii", errors="replace") as handle:
            for line in handle:
                if line.startswith(name):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return None


def _memory_kib(pid: int) -> int:
    """The memory a process holds: its share (PSS) of anonymous and shared-memory pages.

    File-backed pages (the program's own code and libraries) are left out: the kernel drops
    cold ones under reclaim and reads them back when they run again, so an idle adapter's
    resident size can fall tens of MiB below its working set between two requests and rise
    back during the next one with no store involved (seen with Node.js on a host running
    proactive reclaim).  A store held in memory is anonymous memory; one mapped whole and
    touched raises the adapter's high-water mark, which the check also compares.  Kernels
    without the split give PSS, else RSS.
    """
    fields: dict[str, int] = {}
    try:  # one read: each read of smaps_rollup walks the process's page tables
        with open(f"/proc/{pid}/smaps_rollup", encoding="ascii", errors="replace") as handle:
            for line in handle:
                name, _, rest = line.partition(":")
                if name in ("Pss", "Pss_Anon", "Pss_Shmem"):
                    fields[name] = int(rest.split()[0])
    except (OSError, ValueError, IndexError):
        fields = {}
    if "Pss_Anon" in fields:
        return fields["Pss_Anon"] + fields.get("Pss_Shmem", 0)
    if "Pss" in fields:
        return fields["Pss"]
    return proc_field_kib(f"/proc/{pid}/status", "VmRSS:") or 0


def _tree_kib(root: int) -> int:
    return sum(_memory_kib(pid) for pid in process_tree(root))


class _Sampler:
    """Samples the memory of an adapter's process tree in a thread, between two requests."""

    def __init__(self) -> None:
        self.peak = 0
        self.samples = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self, root: int) -> None:
        def sample() -> None:
            while True:
                self.peak = max(self.peak, _tree_kib(root))
                self.samples += 1
                if self._stop.wait(SAMPLE_SECONDS):
                    return

        self._thread = threading.Thread(target=sample, name="streaming-sampler", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()


def _sampling() -> tuple[_Sampler, Any]:
    """A ``during`` hook: after the two small requests, note the tree's memory and the
    adapter's high-water mark and start sampling; after the big one, stop and read both."""
    sampler = _Sampler()

    def during(adapter: SubprocessAdapter, index: int) -> Mapping[str, Any]:
        pid = adapter_pid(adapter)
        if pid is None:
            return {}
        hwm = sum(_hwm_kib(p) for p in _session_pids(pid))
        if index == 1:
            baseline = _tree_kib(pid)
            sampler.start(pid)
            return {"baseline_kib": baseline, "hwm_before_kib": hwm}
        if index == 2:
            sampler.stop()
            return {"peak_kib": sampler.peak, "samples": sampler.samples, "hwm_after_kib": hwm}
        return {}

    return sampler, during


def _request(store: str, query: str = "rust ledger") -> ProbeRequest:
    return ProbeRequest(
        f"read {store}",
        {
            "query": query,
            "store_paths": [store],
            "budget": {"max_excerpt_tokens": 64, "max_items": 3},
        },
    )


def _bounded_memory(context: ProbeContext, clock: Clock) -> CheckResult:
    clauses = ("S6-READ-02",)
    proc = _tools.proc_status()
    if not proc.available:
        return skipped(NAME, "bounded-memory", clauses, proc.reason, clock)
    base = context.fresh_dir("streaming")
    small = _workspace.build(
        base / "small",
        files=(("stores/s.jsonl", _workspace.sized_store([64] * 4, payload=TEXT_BYTES)),),
    )
    big = base / "big" / "stores"
    big.mkdir(parents=True)
    store = big / "big.jsonl"
    store.write_bytes(_workspace.sized_store([64] * RECORDS, payload=TEXT_BYTES))
    size = store.stat().st_size
    plan = [(_request("stores/s.jsonl"), small), (_request("stores/s.jsonl"), small),
            (_request("stores/big.jsonl"), big.parent)]  # fmt: skip
    sampler, during = _sampling()
    try:
        replies = run_requests(context.launcher, "big store", plan, during=during)
    finally:
        sampler.stop()
    if replies.start_error is not None:
        return errored(
            NAME, "bounded-memory", clauses, f"did not start: {replies.start_error}", clock
        )
    crashed = [f"{r.label}: {r.error}" for r in replies.replies if r.error]
    if crashed:
        return errored(NAME, "bounded-memory", clauses, "; ".join(crashed), clock)
    extra = replies.extra
    readings = [extra.get(k) for k in ("baseline_kib", "peak_kib", "hwm_before_kib",
                                        "hwm_after_kib")]  # fmt: skip
    if not all(isinstance(value, int) for value in readings) or not extra.get("samples"):
        return errored(
            NAME, "bounded-memory", clauses,
            "could not read the adapter's memory (no pid: needs SubprocessAdapter.pid)",
            clock,
        )  # fmt: skip
    baseline, peak, hwm_before, hwm_after = (int(value or 0) for value in readings)
    # Growth of the tree while answering (sampled), or of the adapter's own high-water mark.
    growth = max(peak - baseline, hwm_after - hwm_before) * 1024
    limit = int(size * GROWTH_LIMIT)
    details = {
        "store_bytes": size,
        "tree_before_kib": baseline,
        "tree_peak_kib": peak,
        "samples": extra.get("samples"),
        "hwm_before_kib": hwm_before,
        "hwm_after_kib": hwm_after,
        "growth_bytes": growth,
        "limit_bytes": limit,
    }
    problems = []
    if growth >= limit:
        problems.append(
            f"memory grew by {growth / 2**20:.1f} MiB reading a {size / 2**20:.1f} MiB store "
            f"(limit {limit / 2**20:.1f} MiB): the store is held in memory, not streamed"
        )
    return judge(
        NAME,
        "bounded-memory",
        clauses,
        problems,
        f"memory grew by {growth / 2**20:.1f} MiB at most while reading a {size / 2**20:.0f} MiB "
        f"store (limit {limit / 2**20:.0f} MiB; {extra.get('samples')} samples of the process "
        "tree during the request)",
        clock,
        details=details,
    )


def _chunk_boundaries(context: ProbeContext, clock: Clock) -> CheckResult:
    clauses = ("S6-READ-03", "S6-READ-02")
    lengths = _workspace.cycle_lengths(24, BOUNDARY_SIZES)
    plan: list[tuple[ProbeRequest, Path]] = []
    for name, padding in (("plain", (0,)), ("shifted", (4095, 1, 65_537, 300_001, 12))):
        root = context.fresh_dir(f"boundaries-{name}")
        content = _workspace.sized_store(lengths, padding=padding)
        _workspace.build(root, files=(("stores/b.jsonl", content),))
        plan.append((_request("stores/b.jsonl", "ledger 000011 000019"), root))
    replies = run_requests(context.launcher, "chunk boundaries", plan)
    problem = replies.start_error or next((r.error for r in replies.replies if r.error), None)
    if problem is not None:
        return errored(NAME, "chunk-boundaries", clauses, problem, clock)
    plain, shifted = (reply.result for reply in replies.replies)
    problems = []
    diff = first_difference(plain, shifted, strict=True)
    if diff is not None:
        problems.append(
            f"moving lines across 1 MiB boundaries changed the package at {diff.describe()}"
        )
    package = plain.get("package") if isinstance(plain, dict) else None
    dropped = (package or {}).get("selection", {}).get("dropped", [])
    invalid = [d.get("memory_id") for d in dropped if d.get("reason") == "invalid_record_schema"]
    if package is None or invalid:
        problems.append(f"valid long lines were not read as records (invalid: {invalid[:5]})")
    return judge(
        NAME,
        "chunk-boundaries",
        clauses,
        problems,
        f"{len(lengths)} records up to {max(BOUNDARY_SIZES) // 1024} KiB: same package with lines "
        "moved across 1 MiB boundaries",
        clock,
    )


def run(context: ProbeContext) -> Iterator[CheckResult]:
    """Run the streaming checks."""
    yield _bounded_memory(context, Clock())
    yield _chunk_boundaries(context, Clock())


PROBE = Probe(
    name=NAME,
    title="Streaming reads",
    sees=(
        "a controller whose peak memory grows with the store's bytes (reading it whole, keeping "
        "every line), and one whose records depend on where lines fall relative to read-buffer "
        "boundaries"
    ),
    blind_to=(
        "memory held by a child process only between two samples (a few milliseconds); a "
        "memory-mapped reader counts its touched file pages and is reported as not streaming; "
        "memory growth below half the store size; garbage-collected runtimes that let parsed "
        "lines pile up before collecting may exceed the limit without holding the store on "
        "purpose"
    ),
    run=run,
)
