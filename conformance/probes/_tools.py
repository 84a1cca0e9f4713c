"""Which outside tools this machine offers the probes, each checked by actually using it.

A probe whose tool is missing or refuses to work here is reported ``skipped`` with the reason
found below, never ``passed``. The CI script installs Debian's ``faketime``, ``strace`` and
``locales`` (plus generated tr_TR.UTF-8 / en_US.UTF-8 locales); ``unshare`` is util-linux.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass

__all__ = ["Tool", "faketime", "locales", "proc_status", "strace", "unshare"]

_PROBE_TIMEOUT = 20.0


@dataclass(frozen=True)
class Tool:
    """A usable tool (``prefix`` goes in front of the adapter's command) or why there is none."""

    name: str
    prefix: tuple[str, ...] = ()
    reason: str = ""

    @property
    def available(self) -> bool:
        """True when the tool works here."""
        return not self.reason


def _try(argv: list[str]) -> tuple[int, str]:
    try:
        done = subprocess.run(
            argv, capture_output=True, text=True, timeout=_PROBE_TIMEOUT, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return -1, str(exc)
    return done.returncode, (done.stdout + done.stderr).strip()


@functools.cache
def faketime() -> Tool:
    """libfaketime's ``faketime`` wrapper, checked by faking the year 2001 for a child."""
    program = shutil.which("faketime")
    if program is None:
        return Tool("faketime", reason="faketime is not installed (Debian package 'faketime')")
    code, out = _try(
        [program, "-f", "@2001-01-01 00:00:00", sys.executable, "-c",
         "import time; print(time.gmtime().tm_year)"]
    )  # fmt: skip
    if code != 0 or out.splitlines()[-1:] != ["2001"]:
        return Tool("faketime", reason=f"faketime does not shift the clock here: {out[-200:]!r}")
    return Tool("faketime", (program,))


@functools.cache
def unshare() -> Tool:
    """``unshare -n`` (a new, empty network namespace), else ``unshare -r -n`` (user namespace)."""
    program = shutil.which("unshare")
    if program is None:
        return Tool("unshare", reason="unshare (util-linux) is not installed")
    problems = []
    for flags in (["-n"], ["-r", "-n"]):
        code, out = _try([program, *flags, sys.executable, "-c", "pass"])
        if code == 0:
            return Tool("unshare", (program, *flags))
        problems.append(f"unshare {' '.join(flags)}: {out[-160:] or f'exit {code}'}")
    return Tool("unshare", reason="no network namespace permitted here: " + "; ".join(problems))


@functools.cache
def strace() -> Tool:
    """``strace -f`` (with ``--seccomp-bpf`` when it works), checked on a trivial child."""
    program = shutil.which("strace")
    if program is None:
        return Tool("strace", reason="strace is not installed (Debian package 'strace')")
    reasons = []
    for extra in (["--seccomp-bpf"], []):
        argv = [program, "-f", *extra, "-qq", "-e", "trace=openat", "-o", os.devnull]
        code, out = _try([*argv, sys.executable, "-c", "pass"])
        if code == 0:
            return Tool("strace", (program, *extra))
        reasons.append(out[-160:] or f"exit {code}")
    return Tool("strace", reason="strace cannot trace here (ptrace denied?): " + "; ".join(reasons))


@functools.cache
def locales() -> frozenset[str]:
    """Installed locale names, normalized to ``lang_TERRITORY.UTF-8`` spelling."""
    code, out = _try(["locale", "-a"])
    if code != 0:
        return frozenset({"C", "POSIX"})
    names = set()
    for name in out.split():
        base, _, charset = name.partition(".")
        names.add(f"{base}.UTF-8" if charset.lower().replace("-", "") == "utf8" else name)
    return frozenset(names)


@functools.cache
def proc_status() -> Tool:
    """``/proc/<pid>/status`` with ``VmHWM`` (Linux), for peak-memory readings."""
    try:
        with open(f"/proc/{os.getpid()}/status", encoding="ascii", errors="replace") as handle:
            if any(line.startswith("VmHWM:") for line in handle):
                return Tool("proc")
    except OSError as exc:
        return Tool("proc", reason=f"/proc/<pid>/status is not readable: {exc}")
    return Tool("proc", reason="/proc/<pid>/status has no VmHWM line")
