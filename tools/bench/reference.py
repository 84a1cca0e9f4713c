"""`nox -s bench`: the reference end to end on a synthetic store, against a json.loads baseline.

Not a timed test: it prints and records figures (reports/bench/).  For each scale it
generates a deterministic store (seeded; ~400-byte records with realistic text, tags, refs
and timestamps), then, in fresh subprocesses so that peak RSS is per run:
- baseline: a loop that only does stdlib json.loads on every line of the same file;
- reference: memory_read (read, validate, hash every record, score, rank, select, build the
  package with every dropped entry, hash it) plus orjson serialization of the whole result.
It reports medians of --runs runs, the time ratio reference/baseline measured in the same
run, records/s, MB/s and peak RSS.
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
import time
from pathlib import Path
from typing import Any, Final

ROOT: Final = Path(__file__).resolve().parents[2]
CACHE: Final = ROOT / ".bench"
OUT: Final = ROOT / "reports" / "bench"

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


def generate(path: Path, records: int, seed: int = 6) -> None:
    """Write a deterministic synthetic episodic store of `records` lines (~400 bytes each)."""
    rng = random.Random(seed)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    start = 1_700_000_000
    with tmp.open("w", encoding="utf-8") as handle:
        for index in range(records):
            words = rng.choices(_WORDS, k=rng.randint(24, 36))
            text = " ".join(words).capitalize() + "."
            ts = time.gmtime(start + rng.randrange(0, 86_400 * 720))
            record = {
                "memory_id": f"ep-{index:09d}",
                "type": "episodic",
                "ts_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", ts),
                "source": "user",
                "tags": rng.sample(_TAGS, k=rng.randint(1, 4)),
                "text": text,
                "refs": [{"kind": "run_id", "value": f"run-{rng.randrange(10**8):08d}"}],
            }
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")
    tmp.replace(path)


def _child(mode: str, store: str) -> None:
    """Run one measured job in this (fresh) process; print its wall time and peak RSS."""
    started = time.perf_counter()
    if mode == "baseline":
        with open(store, "rb") as handle:
            for line in handle:
                json.loads(line)
    else:
        import orjson

        from reference import memory_read

        result = memory_read({**REQUEST, "store_paths": [store]})
        if "error" in result:
            raise SystemExit(f"reference failed: {result}")
        payload = orjson.dumps(result)
        del payload
    elapsed = time.perf_counter() - started
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    worker_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # largest worker
    print(
        json.dumps(
            {
                "seconds": elapsed,
                "peak_rss_mib": peak_kib / 1024,
                "worker_peak_rss_mib": worker_kib / 1024,
            }
        )
    )


def _measure(mode: str, store: Path) -> dict[str, float]:
    output = subprocess.run(
        [sys.executable, "-m", "tools.bench.reference", "--child", mode, str(store)],
        check=True,
        capture_output=True,
        text=True,
        cwd=ROOT,
    ).stdout
    return dict(json.loads(output.strip().splitlines()[-1]))


def bench_scale(records: int, runs: int) -> dict[str, Any]:
    """Measure one scale: alternate baseline and reference runs; medians and ratios."""
    store = CACHE / f"episodic-{records}.jsonl"
    if not store.exists():
        print(f"generating {records:,} records -> {store}", flush=True)
        generate(store, records)
    size = store.stat().st_size
    baseline: list[float] = []
    reference: list[float] = []
    ratios: list[float] = []
    rss: list[float] = []
    worker_rss: list[float] = []
    for run in range(runs):
        base = _measure("baseline", store)
        ref = _measure("reference", store)
        baseline.append(base["seconds"])
        reference.append(ref["seconds"])
        ratios.append(ref["seconds"] / base["seconds"])
        rss.append(ref["peak_rss_mib"])
        worker_rss.append(ref["worker_peak_rss_mib"])
        print(
            f"  run {run + 1}: baseline {base['seconds']:.2f}s  reference {ref['seconds']:.2f}s"
            f"  ratio {ratios[-1]:.2f}x  peak RSS {ref['peak_rss_mib']:.0f} MiB"
            f" (largest worker {ref['worker_peak_rss_mib']:.0f} MiB)",
            flush=True,
        )
    ref_median = statistics.median(reference)
    return {
        "records": records,
        "store_bytes": size,
        "runs": runs,
        "baseline_seconds_median": statistics.median(baseline),
        "reference_seconds_median": ref_median,
        "ratio_median": statistics.median(ratios),
        "ratios": ratios,
        "records_per_second": records / ref_median,
        "mb_per_second": size / 1e6 / ref_median,
        "peak_rss_mib_median": statistics.median(rss),
        "worker_peak_rss_mib_median": statistics.median(worker_rss),
    }


def main(argv: list[str] | None = None) -> int:
    """Entry point of `python -m tools.bench.reference`."""
    parser = argparse.ArgumentParser(prog="python -m tools.bench.reference", description=__doc__)
    parser.add_argument("--records", type=int, nargs="+", default=[100_000, 1_000_000])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--child", nargs=2, metavar=("MODE", "STORE"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        _child(*args.child)
        return 0
    results = []
    for records in args.records:
        print(f"scale {records:,} records, {args.runs} runs", flush=True)
        results.append(bench_scale(records, args.runs))
    summary = {
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count()},
        "request": REQUEST,
        "scales": results,
        "targets": {"ratio_max": 2.0, "peak_rss_mib_max_at_1M": 1024},
    }
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "reference.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    print()
    print(
        "| records | store MB | baseline s | reference s | ratio | records/s | MB/s "
        "| RSS MiB (main) | RSS MiB (largest worker) |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in results:
        print(
            f"| {r['records']:,} | {r['store_bytes'] / 1e6:.0f} | "
            f"{r['baseline_seconds_median']:.2f} | {r['reference_seconds_median']:.2f} | "
            f"{r['ratio_median']:.2f}x | {r['records_per_second']:,.0f} | "
            f"{r['mb_per_second']:.1f} | {r['peak_rss_mib_median']:.0f} | "
            f"{r['worker_peak_rss_mib_median']:.0f} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
