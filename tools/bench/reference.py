"""`nox -s bench`: the streaming reference end to end, against a stdlib ``json.loads`` loop.

    python -m tools.bench.reference [--records N ...] [--runs 3] [--keep] [--skip-cases]

Not a timed test: it prints and records figures (``reports/bench/reference.json``, git-ignored).
Stores are deterministic synthetic episodic stores (~425-byte records with realistic text, tags,
refs and timestamps), generated in blocks of 100,000 records so that a larger store starts with
the smaller ones; stores up to 1M records are cached in ``.bench/``, larger ones are generated
for the run and deleted after (``--keep`` keeps them).  Every measured job runs in a fresh
process, alternating:

- baseline: a loop doing stdlib ``json.loads`` on every line of the same file;
- reference: ``memory_read_to`` streaming the whole result envelope to /dev/null (read,
  validate, hash every record, score, rank, select, write every dropped entry, hash the
  package), with the bench request (3 query terms matching often, recency on).

Timing runs are not observed.  Memory is measured in one more run per scale (and per case):
while it runs, the bench samples its process tree (forked readers included) every 20 ms and
keeps the peak of the summed resident memory (RSS: pages a fork shares count in every
process, so this over-states) and of the summed proportional set size (PSS: shared pages
counted once).  Sampling is kept out of the timed runs because it is not free: reading
``smaps_rollup`` walks each process's page tables, and on a 2-core machine 50 samples a second
of three processes took enough CPU from the reference to move its ratio by ~0.1.  Reported
per scale: medians of ``--runs`` runs of each, the ratio reference/baseline measured within
each run (median of the runs), records/s, microseconds per record, peak tree memory, and the
machine's load average before and after.  Then two cases
on the 100k store, each alternating with the request it is compared with:

- cliff: recency on with weights too small to change the order (half-life 1 day, so weights
  below 2^-300), against recency off: INT-04's exact pow must not cost more than a few
  percent;
- max_items larger than the store (the budget stops selection), against the bench request.

Then the cost of the SPEC-003 assembly record (issue 15) on the 1M store: the bench request with
``audit_out`` (the record streamed to a byte counter, like the package), alternating with the
same request without it; target at most AUDIT_RATIO_MAX times the plain read.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import resource
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, Final

from conformance.probes import proc_field_kib, process_tree

ROOT: Final = Path(__file__).resolve().parents[2]
CACHE: Final = ROOT / ".bench"
OUT: Final = ROOT / "reports" / "bench"
#: Stores up to this many records stay in CACHE between runs.
CACHED_MAX: Final = 1_000_000
BLOCK: Final = 100_000
SAMPLE_SECONDS: Final = 0.02

#: Targets of issue 14 (the closing note quotes the figures against them).
RATIO_MAX_AT_1M: Final = 1.5
PEAK_MIB_MAX: Final = 256
CLIFF_OVERHEAD_MAX: Final = 0.05
#: Issue 15: the assembly record may cost at most this much more than the plain read at 1M.
AUDIT_RATIO_MAX: Final = 1.3
AUDIT_RECORDS: Final = 1_000_000

_WORDS: Final = (
    "deploy database migration rollback service latency cache invalidation queue worker "
    "retry backoff schema index query planner vacuum replica failover leader election "
    "quorum snapshot restore backup encryption rotation certificate expiry alert pager "
    "incident postmortem runbook dashboard metric trace span budget quota throttle limit "
    "tenant billing invoice customer refund ledger audit compliance policy review approve "
    "meeting notes decision owner deadline sprint backlog estimate risk dependency "
    "release feature flag canary experiment cohort funnel retention churn growth "
    "onboarding email the a of to and in for on with by from at as is was be are this "
    "that it we they"
).split()
_TAGS: Final = [f"topic-{name}" for name in _WORDS[:40]] + ["Ops", "DB", "Team", "Infra"]
REQUEST: Final[dict[str, Any]] = {
    "query": "database migration rollback plan for the billing ledger",
    "store_paths": [],
    "budget": {"max_excerpt_tokens": 4000, "per_item_max_excerpt_tokens": 120, "max_items": 50},
    "scoring": {"enable_recency_weight": True, "recency_half_life_days": 30},
    "now_utc": "2026-11-01T00:00:00Z",
}
RECENCY_OFF: Final[dict[str, Any]] = {**REQUEST, "scoring": {"enable_recency_weight": False}}
#: The cases run on the 100k store: name -> (request, the request it is compared with, run
#: alternately with it).  The cliff is compared with recency off: the cost of INT-04's exact
#: pow when the weights cannot change the order.
CASES: Final[dict[str, tuple[dict[str, Any], dict[str, Any], str]]] = {
    "cliff: recency with weights below 2^-300": (
        {**REQUEST, "scoring": {"enable_recency_weight": True, "recency_half_life_days": 1}},
        RECENCY_OFF,
        "recency off",
    ),
    "max_items larger than the store": (
        {**REQUEST, "budget": {**REQUEST["budget"], "max_items": 10**9}},
        REQUEST,
        "the bench request",
    ),
}


# ------------------------------------------------------------------------------ stores


def _block(index: int, seed: int = 6) -> bytes:
    """Records [index * BLOCK, (index + 1) * BLOCK) of every bench store."""
    rng = random.Random(seed * 1_000_003 + index)
    start = 1_700_000_000
    out = []
    for number in range(index * BLOCK, (index + 1) * BLOCK):
        words = rng.choices(_WORDS, k=rng.randint(24, 36))
        text = " ".join(words).capitalize() + "."
        ts = time.gmtime(start + rng.randrange(0, 86_400 * 720))
        record = {
            "memory_id": f"ep-{number:09d}",
            "type": "episodic",
            "ts_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", ts),
            "source": "user",
            "tags": rng.sample(_TAGS, k=rng.randint(1, 4)),
            "text": text,
            "refs": [{"kind": "run_id", "value": f"run-{rng.randrange(10**8):08d}"}],
        }
        out.append(json.dumps(record, ensure_ascii=False))
    return ("\n".join(out) + "\n").encode("utf-8")


def generate(path: Path, records: int) -> None:
    """Write the deterministic store of `records` records (a multiple of BLOCK) to `path`."""
    if records % BLOCK:
        raise SystemExit(f"--records must be a multiple of {BLOCK:,}")
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    with tmp.open("wb") as handle, ProcessPoolExecutor(os.cpu_count() or 1) as pool:
        for block in pool.map(_block, range(records // BLOCK)):
            handle.write(block)
    tmp.replace(path)


def store_for(records: int) -> Path:
    """The store of `records` records, generated when missing."""
    path = CACHE / f"store-v2-{records}.jsonl"
    if not path.exists():
        print(f"generating {records:,} records -> {path.relative_to(ROOT)}", flush=True)
        started = time.perf_counter()
        generate(path, records)
        print(f"  {path.stat().st_size / 1e9:.2f} GB in {time.perf_counter() - started:.0f} s")
    return path


# ---------------------------------------------------------------------------- measuring


class _Counter:
    """A binary sink that only counts the bytes written to it (rewinding forgets them)."""

    def __init__(self) -> None:
        self.bytes = 0

    def write(self, data: bytes | bytearray) -> int:
        self.bytes += len(data)
        return len(data)

    def seek(self, offset: int) -> int:
        """Start over (a failure record replaces a record begun)."""
        self.bytes = offset
        return offset

    def truncate(self, size: int | None = None) -> int:
        """Nothing is kept, so nothing to cut."""
        return self.bytes if size is None else size

    def flush(self) -> None:
        """Nothing to flush."""


def _child(mode: str, store: str, request_json: str) -> None:
    """Run one measured job in this (fresh) process; print its figures as JSON."""
    started = time.perf_counter()
    figures: dict[str, Any] = {}
    if mode == "baseline":
        with open(store, "rb") as handle:
            for line in handle:
                json.loads(line)
    else:
        from reference import memory_read_to

        request = {**json.loads(request_json), "store_paths": [store]}
        sink = _Counter()
        record = _Counter() if mode == "audit" else None
        result = memory_read_to(request, sink, audit_out=record)
        if "error" in result:
            raise SystemExit(f"reference failed: {result}")
        figures = {"package_hash": result["receipt"]["data"]["package_hash"],
                   "output_bytes": sink.bytes}  # fmt: skip
        if record is not None:
            figures["audit_bytes"] = record.bytes
    elapsed = time.perf_counter() - started
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime
    print(json.dumps({"seconds": elapsed, "cpu_seconds": cpu, **figures}))


def _watch(pid: int, done: threading.Event, peaks: dict[str, int]) -> None:
    """Sample the process tree of `pid` until `done`; keep the peak RSS and PSS sums."""
    while not done.is_set():
        members = process_tree(pid)
        rss = sum(proc_field_kib(f"/proc/{p}/status", "VmRSS:") or 0 for p in members)
        pss = sum(proc_field_kib(f"/proc/{p}/smaps_rollup", "Pss:") or 0 for p in members)
        peaks["rss_kib"] = max(peaks.get("rss_kib", 0), rss)
        peaks["pss_kib"] = max(peaks.get("pss_kib", 0), pss)
        peaks["processes"] = max(peaks.get("processes", 0), len(members))
        done.wait(SAMPLE_SECONDS)


def measure(
    mode: str, store: Path, request: dict[str, Any] | None = None, *, observe: bool = False
) -> dict[str, Any]:
    """Run one job in a fresh process; its figures, plus (`observe`) the sampled peak tree
    memory."""
    argv = [sys.executable, "-m", "tools.bench.reference", "--child", mode, str(store),
            json.dumps(request or REQUEST)]  # fmt: skip
    process = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.PIPE, text=True)
    peaks: dict[str, int] = {}
    done = threading.Event()
    watcher = threading.Thread(target=_watch, args=(process.pid, done, peaks), daemon=True)
    if observe:
        watcher.start()
    output, _ = process.communicate()
    done.set()
    if observe:
        watcher.join()
    if process.returncode:
        raise SystemExit(f"{mode} run failed ({process.returncode})")
    figures = dict(json.loads(output.strip().splitlines()[-1]))
    if observe:
        figures["peak_rss_mib"] = peaks.get("rss_kib", 0) / 1024
        figures["peak_pss_mib"] = peaks.get("pss_kib", 0) / 1024
        figures["processes"] = peaks.get("processes", 0)
    return figures


def _load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f}"


# ------------------------------------------------------------------------------ runs


def _same_hash(runs: list[dict[str, Any]]) -> str:
    hashes = {str(run["package_hash"]) for run in runs}
    if len(hashes) != 1:
        raise SystemExit(f"the reference gave different packages across runs: {hashes}")
    return hashes.pop()


def bench_scale(records: int, runs: int, *, keep: bool) -> dict[str, Any]:
    """One scale: alternate baseline and reference runs; medians and in-run ratios."""
    store = store_for(records)
    size = store.stat().st_size
    load_before = _load()
    pairs = []
    try:
        for run in range(runs):
            base = measure("baseline", store)
            ref = measure("reference", store)
            pairs.append((base, ref))
            print(
                f"  run {run + 1}: baseline {base['seconds']:.2f} s  reference "
                f"{ref['seconds']:.2f} s  ratio {ref['seconds'] / base['seconds']:.2f}x",
                flush=True,
            )
        memory = measure("reference", store, observe=True)
        print(
            f"  memory run: peak RSS {memory['peak_rss_mib']:.0f} MiB / PSS "
            f"{memory['peak_pss_mib']:.0f} MiB ({memory['processes']} processes)",
            flush=True,
        )
    finally:
        if records > CACHED_MAX and not keep:
            store.unlink()
    reference = [ref for _, ref in pairs]
    seconds = statistics.median(ref["seconds"] for ref in reference)
    return {
        "records": records,
        "store_bytes": size,
        "runs": runs,
        "load_before": load_before,
        "load_after": _load(),
        "baseline_seconds_median": statistics.median(base["seconds"] for base, _ in pairs),
        "reference_seconds_median": seconds,
        "ratio_median": statistics.median(ref["seconds"] / base["seconds"] for base, ref in pairs),
        "reference_cpu_seconds_median": statistics.median(ref["cpu_seconds"] for ref in reference),
        "records_per_second": records / seconds,
        "us_per_record": seconds / records * 1e6,
        "peak_rss_mib_max": memory["peak_rss_mib"],
        "peak_pss_mib_max": memory["peak_pss_mib"],
        "output_bytes": reference[0]["output_bytes"],
        "package_hash": _same_hash([*reference, memory]),
    }


def bench_cases(runs: int) -> dict[str, Any]:
    """The cases on the 100k store, each alternating with the request it is compared with."""
    store = store_for(BLOCK)
    results: dict[str, Any] = {"records": BLOCK, "load_before": _load()}
    for name, (request, against, against_name) in CASES.items():
        pairs = []
        for _ in range(runs):
            other = measure("reference", store, against)
            case = measure("reference", store, request)
            pairs.append((other, case))
        ratio = statistics.median(case["seconds"] / other["seconds"] for other, case in pairs)
        memory = measure("reference", store, request, observe=True)
        results[name] = {
            "seconds_median": statistics.median(case["seconds"] for _, case in pairs),
            "against": against_name,
            "against_seconds_median": statistics.median(other["seconds"] for other, _ in pairs),
            "ratio_median": ratio,
            "peak_rss_mib_max": memory["peak_rss_mib"],
        }
        print(f"  {name}: {results[name]['seconds_median']:.2f} s, {ratio:.3f}x {against_name} "
              "(same run)", flush=True)  # fmt: skip
    results["load_after"] = _load()
    return results


def bench_audit(runs: int) -> dict[str, Any]:
    """The assembly record's cost on the 1M store: audit and plain runs alternating."""
    store = store_for(AUDIT_RECORDS)
    load_before = _load()
    pairs = []
    for run in range(runs):
        plain = measure("reference", store)
        audit = measure("audit", store)
        pairs.append((plain, audit))
        print(f"  run {run + 1}: plain {plain['seconds']:.2f} s  audit {audit['seconds']:.2f} s  "
              f"ratio {audit['seconds'] / plain['seconds']:.2f}x  record "
              f"{audit['audit_bytes'] / 1e6:.0f} MB", flush=True)  # fmt: skip
    memory = measure("audit", store, observe=True)
    print(f"  memory run: peak RSS {memory['peak_rss_mib']:.0f} MiB", flush=True)
    if {p["package_hash"] for pair in pairs for p in pair} != {pairs[0][0]["package_hash"]}:
        raise SystemExit("the package changed when the assembly record was written")
    return {
        "records": AUDIT_RECORDS,
        "runs": runs,
        "load_before": load_before,
        "load_after": _load(),
        "plain_seconds_median": statistics.median(plain["seconds"] for plain, _ in pairs),
        "audit_seconds_median": statistics.median(audit["seconds"] for _, audit in pairs),
        "ratio_median": statistics.median(a["seconds"] / p["seconds"] for p, a in pairs),
        "audit_bytes": pairs[0][1]["audit_bytes"],
        "peak_rss_mib_max": memory["peak_rss_mib"],
        "target_ratio_max": AUDIT_RATIO_MAX,
    }


def _table(scales: list[dict[str, Any]]) -> str:
    lines = [
        "| records | store GB | json.loads s | reference s | ratio | records/s | us/record "
        "| CPU s | peak RSS MiB | peak PSS MiB | load before -> after |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    lines += [
        f"| {r['records']:,} | {r['store_bytes'] / 1e9:.2f} | "
        f"{r['baseline_seconds_median']:.2f} | {r['reference_seconds_median']:.2f} | "
        f"{r['ratio_median']:.2f}x | {r['records_per_second']:,.0f} | "
        f"{r['us_per_record']:.2f} | {r['reference_cpu_seconds_median']:.1f} | "
        f"{r['peak_rss_mib_max']:.0f} | {r['peak_pss_mib_max']:.0f} | "
        f"{r['load_before']} -> {r['load_after']} |"
        for r in scales
    ]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of `python -m tools.bench.reference`."""
    parser = argparse.ArgumentParser(
        prog="python -m tools.bench.reference",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--records", type=int, nargs="+",
                        default=[100_000, 1_000_000, 10_000_000])  # fmt: skip
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--keep", action="store_true", help="keep stores above 1M records")
    parser.add_argument("--skip-cases", action="store_true", help="only the scales")
    parser.add_argument("--skip-audit", action="store_true", help="no assembly-record case")
    parser.add_argument("--child", nargs=3, metavar=("MODE", "STORE", "REQUEST"),
                        help=argparse.SUPPRESS)  # fmt: skip
    args = parser.parse_args(argv)
    if args.child:
        _child(*args.child)
        return 0
    scales = []
    for records in args.records:
        print(f"scale {records:,} records, {args.runs} runs (load {_load()})", flush=True)
        scales.append(bench_scale(records, args.runs, keep=args.keep))
    cases = None
    if not args.skip_cases:
        print(f"cases on {BLOCK:,} records, {args.runs} runs each (load {_load()})", flush=True)
        cases = bench_cases(args.runs)
    audit = None
    if not args.skip_audit:
        print(f"assembly record on {AUDIT_RECORDS:,} records, {args.runs} runs (load {_load()})",
              flush=True)  # fmt: skip
        audit = bench_audit(args.runs)
    summary = {
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count()},
        "request": REQUEST,
        "scales": scales,
        "cases": cases,
        "audit": audit,
        "targets": {
            "ratio_max_at_1M": RATIO_MAX_AT_1M,
            "peak_mib_max": PEAK_MIB_MAX,
            "cliff_overhead_max": CLIFF_OVERHEAD_MAX,
        },
    }
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "reference.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    print()
    print(_table(scales))
    if cases is not None:
        print()
        print("| case (100k records) | seconds | compared with | its seconds | ratio (same run) |")
        print("|---|---:|---|---:|---:|")
        for name in CASES:
            case = cases[name]
            seconds, against = case["seconds_median"], case["against_seconds_median"]
            print(f"| {name} | {seconds:.2f} | {case['against']} | {against:.2f} | "
                  f"{case['ratio_median']:.3f}x |")  # fmt: skip
    if audit is not None:
        print()
        print(f"| assembly record ({AUDIT_RECORDS:,} records) | plain s | audit s | ratio "
              f"(target <= {AUDIT_RATIO_MAX}x) | record MB | peak RSS MiB |")  # fmt: skip
        print("|---|---:|---:|---:|---:|---:|")
        print(f"| medians of {audit['runs']} runs | {audit['plain_seconds_median']:.2f} | "
              f"{audit['audit_seconds_median']:.2f} | {audit['ratio_median']:.2f}x | "
              f"{audit['audit_bytes'] / 1e6:.0f} | {audit['peak_rss_mib_max']:.0f} |")  # fmt: skip
    print()
    for line in _verdicts(scales, cases, audit):
        print(line)
    print(f"\nwrote {(OUT / 'reference.json').relative_to(ROOT)}")
    return 0


def _verdicts(
    scales: list[dict[str, Any]], cases: dict[str, Any] | None, audit: dict[str, Any] | None
) -> list[str]:
    """One line per target measured in this run: the figure, the target, met or NOT met."""

    def line(what: str, figure: float, unit: str, target: float) -> str:
        met = "met" if figure <= target else "NOT met"
        return f"target {what}: {figure:.2f}{unit} (at most {target}{unit}) -- {met}"

    out = []
    for scale in scales:
        if scale["records"] == 1_000_000:
            out.append(line("1M ratio to json.loads", scale["ratio_median"], "x", RATIO_MAX_AT_1M))
        if scale["records"] >= 1_000_000:
            out.append(line(f"{scale['records']:,} records peak RSS", scale["peak_rss_mib_max"],
                            " MiB", PEAK_MIB_MAX))  # fmt: skip
    if cases is not None:
        cliff = next(name for name in CASES if name.startswith("cliff"))
        out.append(line("cliff overhead", cases[cliff]["ratio_median"] - 1, "",
                        CLIFF_OVERHEAD_MAX))  # fmt: skip
    if audit is not None:
        out.append(line("assembly record ratio", audit["ratio_median"], "x", AUDIT_RATIO_MAX))
    return out


if __name__ == "__main__":
    sys.exit(main())
