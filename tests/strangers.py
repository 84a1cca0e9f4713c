"""Certifying strangers (tests/fakes/stranger.py) from the checkout: the command lines and
the runner the stranger tests share."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from paths import FAKES, REPO


def stranger(variant: str, *declared: str) -> str:
    """The cmd: adapter of a variant of tests/fakes/stranger.py (declaring ``declared``)."""
    return "cmd:" + shlex.join([sys.executable, str(FAKES / "stranger.py"), variant, *declared])


def phase6(*argv: str) -> subprocess.CompletedProcess[str]:
    """``python -m conformance ...`` from the checkout; the completed process."""
    return subprocess.run(
        [sys.executable, "-m", "conformance", *argv],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )


def certify(variant: str, report_dir: Path, *extra: str) -> tuple[int, str, dict[str, Any]]:
    """Certify a stranger; (exit code, stdout, report.json)."""
    done = phase6(
        "certify", "--adapter", stranger(variant), "--report-dir", str(report_dir), "-q", *extra
    )
    report = json.loads((report_dir / "report.json").read_text("utf-8"))
    return done.returncode, done.stdout, report


def certify_all(
    runs: dict[str, tuple[list[str], Path]], parallel: int = 2
) -> dict[str, tuple[int, str, Path]]:
    """Run the certifications ``runs`` (label -> argv, report directory), ``parallel`` at a
    time (one per core: more would make timing-sensitive probes fail for load, not for the
    implementation), each started as soon as one ends, in the order given (the longest first
    keeps the last ones from running alone); label -> (exit code, stdout, report directory)."""

    def run(argv: list[str]) -> tuple[int, str]:
        done = subprocess.run(
            argv,
            cwd=REPO,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            timeout=1800,
            check=False,
        )
        return done.returncode, done.stdout

    with ThreadPoolExecutor(max_workers=parallel) as pool:
        started = {label: pool.submit(run, argv) for label, (argv, _) in runs.items()}
        return {
            label: (*started[label].result(), report_dir) for label, (_, report_dir) in runs.items()
        }
