"""Phase 2 over HTTP with a slow engine: the wall time of certifying the reference service
whose ``load`` and ``dump`` take 0.6 s each (issue 23: an outside team's FastAPI + SQLAlchemy
engine, 0.66 s per load and dump, took 406-834 s).

    python -m tools.bench.phase2_http [--seconds 0.6] [--jobs N] [--runs 1] [--select P]
        [--examples N] [--out FILE] [--check]

Starts ``--jobs`` reference services (``python -m reference.phase2 serve``), each on its own
SQLite database and port, and certifies them with ``python -m conformance certify --profile
phase2-context --adapter http:... --jobs N`` in a fresh process, the engine's ``load``, ``dump``
and ``job`` being tests/fakes/phase2_slow_engine.py (the reference's commands with the delay
before load and dump, each run counted). Reports the median wall time, the loads, dumps and job
processes per vector and the verdict; the target is under 300 s on the whole corpus. Results go
to ``reports/bench/phase2-http.json``; ``--check`` turns a missed target into exit status 1.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import random
import shlex
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from conformance._kit import kit_version, utc_now

__all__ = ["TARGET_SECONDS", "main", "measure"]

REPO = Path(__file__).resolve().parents[2]
SLOW_ENGINE = REPO / "tests" / "fakes" / "phase2_slow_engine.py"
#: Issue 23's target: the whole corpus, a 0.6 s load and dump, certified in under 5 minutes.
TARGET_SECONDS = 300.0
_START_SECONDS = 30.0


def _port_block(count: int) -> int:
    """A prefix P such that ports P1..P<count> (10 * P + worker) are free on 127.0.0.1."""
    for _ in range(200):
        prefix = random.randrange(2000, 6000)
        try:
            for worker in range(1, count + 1):
                with socket.socket() as sock:
                    sock.bind(("127.0.0.1", prefix * 10 + worker))
        except OSError:
            continue
        return prefix
    raise RuntimeError("no block of free ports on 127.0.0.1")


@contextlib.contextmanager
def _services(scratch: Path, prefix: int, count: int) -> Iterator[None]:
    """``count`` reference services, worker W on port 10 * prefix + W over scratch/wW.db."""
    processes: list[subprocess.Popen[bytes]] = []
    try:
        for worker in range(1, count + 1):
            db, port = str(scratch / f"w{worker}.db"), str(prefix * 10 + worker)
            argv = [sys.executable, "-m", "reference.phase2", "serve", "--db", db, "--port", port]
            process = subprocess.Popen(
                argv,
                cwd=REPO,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
            processes.append(process)
        deadline = time.monotonic() + _START_SECONDS
        for worker in range(1, count + 1):
            while True:
                try:
                    socket.create_connection(("127.0.0.1", prefix * 10 + worker), 1).close()
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        raise RuntimeError(f"service {worker} did not listen") from None
                    time.sleep(0.1)
        yield
    finally:
        for process in processes:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
            process.wait()


def measure(
    *, seconds: float, jobs: int, select: Sequence[str], examples: int | None
) -> dict[str, Any]:
    """Certify the slow reference service once; wall time, command counts and verdict."""
    scratch = Path(tempfile.mkdtemp(prefix="bench-phase2-http-"))
    log = scratch / "commands.log"
    prefix = _port_block(jobs)
    worker = "{worker}" if jobs > 1 else "1"
    python = shlex.quote(sys.executable)
    db = shlex.quote(str(scratch / f"w{worker}.db"))
    named = {
        name: f"{python} {shlex.quote(str(SLOW_ENGINE))} {name} --db {db}"
        for name in ("load", "dump", "job")
    }
    argv = [
        sys.executable, "-m", "conformance", "certify", "--profile", "phase2-context",
        "--adapter", f"http:http://127.0.0.1:{prefix}{worker}",
        "--load", named["load"], "--dump", named["dump"], "--job", named["job"],
        "--report-dir", str(scratch / "report"), "--quiet",
    ]  # fmt: skip
    if jobs > 1:
        argv += ["--jobs", str(jobs)]
    for pattern in select:
        argv += ["--select", pattern]
    if examples is not None:
        argv += ["--section-option", f"examples={examples}"]
    env = {**os.environ, "PHASE2_SLOW_SECONDS": str(seconds), "PHASE2_SLOW_LOG": str(log)}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    try:
        with _services(scratch, prefix, jobs):
            started = time.perf_counter()
            done = subprocess.run(
                argv, check=False, cwd=REPO, env=env, capture_output=True, text=True
            )
            wall = time.perf_counter() - started
        report = json.loads((scratch / "report" / "report.json").read_text("utf-8"))
        counts = Counter(log.read_text("utf-8").split()) if log.exists() else Counter()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    vectors = len(report["results"])
    properties = report["sections"].get("properties", {})
    return {
        "wall_s": round(wall, 1),
        "exit": done.returncode,
        "verdict": report["footer"]["verdict"]["value"],
        "vectors": vectors,
        "passed": report["footer"]["totals"]["passed"],
        "loads": counts["load"],
        "dumps": counts["dump"],
        "jobs": counts["job"],
        "per_vector": {
            name: round(counts[name] / vectors, 2) if vectors else 0.0
            for name in ("load", "dump", "job")
        },
        "properties_calls": properties.get("data", {}).get("calls"),
        "console_tail": done.stdout[-600:],
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Measure ``--runs`` certifications; print, write JSON; exit 1 with --check on a miss."""
    parser = argparse.ArgumentParser(prog="python -m tools.bench.phase2_http", description=__doc__)
    parser.add_argument("--seconds", type=float, default=0.6, help="delay of load and dump")
    parser.add_argument("--jobs", type=int, default=4, help="services (one database each)")
    parser.add_argument("--runs", type=int, default=1, help="certifications; the median counts")
    parser.add_argument("--select", action="append", default=[], help="certify --select")
    parser.add_argument("--examples", type=int, help="generated examples of the properties")
    parser.add_argument("--out", type=Path, default=Path("reports/bench/phase2-http.json"))
    parser.add_argument("--check", action="store_true", help="exit 1 when the target is missed")
    args = parser.parse_args(argv)
    runs = []
    for number in range(1, max(1, args.runs) + 1):
        run = measure(
            seconds=args.seconds, jobs=args.jobs, select=args.select, examples=args.examples
        )
        runs.append(run)
        print(
            f"run {number}: {run['vectors']} vectors in {run['wall_s']:.1f} s with {args.jobs} "
            f"worker(s), load/dump {args.seconds:g} s: {run['loads']} loads, {run['dumps']} "
            f"dumps, {run['jobs']} job processes ({run['per_vector']} per vector), "
            f"{run['properties_calls']} property calls; verdict {run['verdict']} "
            f"(exit {run['exit']})"
        )
    median = statistics.median(run["wall_s"] for run in runs)
    whole = not args.select and args.seconds >= 0.6
    met = median < TARGET_SECONDS
    verdict = "met" if met else "MISSED"
    scope = "" if whole else " (not the whole corpus at 0.6 s)"
    print(f"median wall time {median:.1f} s; target < {TARGET_SECONDS:g} s: {verdict}{scope}")
    document = {
        "kind": "phase2-http-slow-engine",
        "kit": kit_version(),
        "when": utc_now(),
        "host": {
            "cpus": os.cpu_count(),
            "python": sys.version.split()[0],
            "platform": platform.platform(),
            "load": os.getloadavg(),
        },
        "seconds": args.seconds,
        "jobs": args.jobs,
        "select": args.select,
        "runs": runs,
        "median_wall_s": median,
        "target_s": TARGET_SECONDS,
        "met": met,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(document, indent=2) + "\n", "utf-8")
    print(f"wrote {args.out}")
    return 1 if args.check and whole and not met else 0


if __name__ == "__main__":
    raise SystemExit(main())
