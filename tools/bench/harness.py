"""Certification throughput: vectors per second through the in-process and subprocess adapters.

    python -m tools.bench.harness [--vectors DIR] [--jobs N] [--out FILE] [--check]

Targets (issue 4): the whole corpus certified through the subprocess adapter in under 30 s on
a 2-core machine (loading and schema-validating the corpus included), and at least 500
vectors/s in-process (certification proper: the corpus load is reported separately). The full
certification is measured (materialize, every vector run twice, the store checks, the
fresh-process sample, compare), not a bare loop.
Results are printed and written as JSON (default ``reports/bench/harness.json``); ``--check``
turns a missed target into exit status 1.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from conformance._kit import kit_version, utc_now
from conformance.adapters._adapters import reference_adapter_spec
from conformance.corpus._vectors import load_corpus
from conformance.run import certify

__all__ = ["SUBPROCESS_SECONDS", "VECTORS_PER_SECOND_IN_PROCESS", "main", "measure"]

SUBPROCESS_SECONDS = 30.0
VECTORS_PER_SECOND_IN_PROCESS = 500.0


def measure(spec: str, *, vectors_dir: Path | None, jobs: int) -> dict[str, Any]:
    """Certify once through ``spec`` and return the timing and outcome."""
    started = time.perf_counter()
    corpus = load_corpus(vectors_dir)
    loaded = time.perf_counter()
    result = certify(spec, corpus=corpus, jobs=jobs, sections={})
    finished = time.perf_counter()
    seconds = finished - loaded
    totals = result.totals
    return {
        "adapter": spec,
        "vectors": totals.total,
        "requests": result.requests,
        "workers": result.workers,
        "load_s": round(loaded - started, 3),
        "certify_s": round(seconds, 3),
        "total_s": round(finished - started, 3),
        "vectors_per_s": round(totals.total / seconds, 1) if seconds > 0 else 0.0,
        "verdict": result.verdict.value.value,
        "passed": totals.passed,
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Measure both adapters on the corpus; print, write JSON; exit 1 with --check on a miss."""
    parser = argparse.ArgumentParser(prog="python -m tools.bench.harness", description=__doc__)
    parser.add_argument("--vectors", type=Path, help="corpus directory (default: the kit's)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes")
    parser.add_argument(
        "--in-process", default="python:reference:memory_read", help="in-process adapter spec"
    )
    parser.add_argument("--subprocess", default=None, help="subprocess adapter spec")
    parser.add_argument("--out", type=Path, default=Path("reports/bench/harness.json"))
    parser.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    args = parser.parse_args(argv)
    runs = {
        "in-process": measure(args.in_process, vectors_dir=args.vectors, jobs=args.jobs),
        "subprocess": measure(
            args.subprocess or reference_adapter_spec(), vectors_dir=args.vectors, jobs=args.jobs
        ),
    }
    targets = {
        "subprocess_under_30_s": runs["subprocess"]["total_s"] < SUBPROCESS_SECONDS,
        "in_process_500_per_s": runs["in-process"]["vectors_per_s"]
        >= VECTORS_PER_SECOND_IN_PROCESS,
    }
    document = {
        "kind": "harness-throughput",
        "kit": kit_version(),
        "when": utc_now(),
        "host": {
            "cpus": os.cpu_count(),
            "python": sys.version.split()[0],
            "platform": platform.platform(),
        },
        "jobs": args.jobs,
        "runs": runs,
        "targets": targets,
    }
    for label, run in runs.items():
        print(
            f"{label:11} {run['vectors']:6d} vectors certified in {run['certify_s']:7.2f} s "
            f"= {run['vectors_per_s']:8.1f} vectors/s (+ {run['load_s']:.2f} s loading and "
            f"validating the corpus; {run['requests']} requests, {run['workers']} workers, "
            f"verdict {run['verdict']})"
        )
    for name, met in targets.items():
        print(f"target {name}: {'met' if met else 'MISSED'}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(document, indent=2) + "\n", "utf-8")
    print(f"wrote {args.out}")
    return 1 if args.check and not all(targets.values()) else 0


if __name__ == "__main__":
    raise SystemExit(main())
