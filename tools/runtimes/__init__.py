"""``python -m tools runtimes``: what the obvious standard-library code of each runtime does.

The register's ``runtimes`` tables (``specs/interpretations.toml``) say which reading the obvious
code of Python, JavaScript, Go, Rust and Java follows. The facts come from running the probes
kept here, one program per runtime (``tools/runtimes/<runtime>/``); each prints lines
``ENTRY<TAB>PROBE<TAB>OBSERVED``. This command runs every probe whose toolchain is on PATH and
prints the observations grouped by entry (and says why a runtime was skipped), so a fact can be
checked again on another machine or toolchain version. It is not run in CI.

``UNPROBED`` lists the facts that no probe here can show (a library outside the standard one:
serde_json, Jackson), each with the reason; ``tests/tools/test_runtimes.py`` checks that every
fact of the register is probed or listed there.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

__all__ = ["PROBED_AS", "PROBES", "UNPROBED", "Probe", "main", "observations"]

HERE: Final = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Probe:
    """One runtime's probe: its source, the tools it needs, the commands that run it (the last
    one prints the observations; ``{src}`` and ``{work}``, a scratch directory, are filled in)."""

    source: Path
    tools: tuple[str, ...]
    commands: tuple[tuple[str, ...], ...]


#: runtime -> its probe (the runtimes of ``conformance.registers.RUNTIMES``).
PROBES: Final[dict[str, Probe]] = {
    "python": Probe(HERE / "python" / "probe.py", (), ((sys.executable, "{src}"),)),
    "javascript": Probe(HERE / "javascript" / "probe.js", ("node",), (("node", "{src}"),)),
    "go": Probe(
        HERE / "go" / "probe.go",
        ("go",),
        (("go", "build", "-o", "{work}/probe", "{src}"), ("{work}/probe",)),
    ),
    "rust": Probe(
        HERE / "rust" / "probe.rs",
        ("rustc",),
        (("rustc", "-O", "-o", "{work}/probe", "{src}"), ("{work}/probe",)),
    ),
    "java": Probe(
        HERE / "java" / "Probe.java",
        ("javac", "java"),
        (("javac", "-d", "{work}", "{src}"), ("java", "-cp", "{work}", "Probe")),
    ),
}

_SERDE: Final = "serde_json (not in std; no crates on the machine the probes ran on)"
_JACKSON: Final = "Jackson (the JDK has no JSON parser; no jars on the machine the probes ran on)"

#: (entry, runtime) -> why no probe here shows the fact (taken from the library's documentation).
UNPROBED: Final[dict[tuple[str, str], str]] = {
    ("INT-15", "rust"): _SERDE,
    ("INT-16", "rust"): _SERDE,
    ("INT-16", "java"): _JACKSON,
    ("INT-18", "rust"): _SERDE,
    ("INT-18", "java"): _JACKSON,
    ("INT-41", "rust"): _SERDE,
    ("INT-42", "rust"): _SERDE,
    ("INT-09", "python"): "substring search: the same on valid strings in every runtime",
    ("INT-09", "javascript"): "substring search: the same on valid strings in every runtime",
    ("INT-09", "go"): "substring search: the same on valid strings in every runtime",
    ("INT-09", "rust"): "substring search: the same on valid strings in every runtime",
    ("INT-09", "java"): "substring search: the same on valid strings in every runtime",
    ("INT-12", "python"): "the sort of INT-33's probe, applied to store paths",
    ("INT-12", "javascript"): "the sort of INT-33's probe, applied to store paths",
    ("INT-12", "go"): "the sort of INT-33's probe, applied to store paths",
    ("INT-12", "rust"): "the sort of INT-33's probe, applied to store paths",
    ("INT-12", "java"): "the sort of INT-33's probe, applied to store paths",
    ("INT-25", "python"): "the sort of INT-33's probe, applied to tags",
    ("INT-25", "javascript"): "the sort of INT-33's probe, applied to tags",
    ("INT-25", "go"): "the sort of INT-33's probe, applied to tags",
    ("INT-25", "rust"): "the sort of INT-33's probe, applied to tags",
    ("INT-25", "java"): "the sort of INT-33's probe, applied to tags",
    ("INT-42", "python"): "dict.get ignores what it does not ask for (no library behaviour)",
}

#: Phase 2 entries (``specs/phase2/interpretations.toml``) -> the entry the probes print their
#: runtimes facts under: a SPEC-006 entry's when they are the same library calls, else their own.
PROBED_AS: Final[dict[str, str]] = {
    "P2-INT-01": "INT-07",  # the character count: len / .length / String.length()
    "P2-INT-02": "INT-05",  # the word split: split() / split(/\s+/) / Fields / split_whitespace
    "P2-INT-15": "P2-INT-15",  # a repeated parameter: parse_qs / URLSearchParams.get / Values.Get
}

#: The label every probe gives its pow(0.5, e) values (INT-04), compared with the correctly
#: rounded ones here.
_POW: Final = "pow(0.5, i/64 + i/1000), i = 1..400 (bits)"

Runner = Callable[[Sequence[str]], "subprocess.CompletedProcess[str]"]


def _run(command: Sequence[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, capture_output=True, text=True, check=False, timeout=600)


def observations(runtime: str, run: Runner = _run) -> tuple[list[tuple[str, str, str]], str]:
    """Run one runtime's probe: its (entry, probe, observed) lines, or [] and why not."""
    probe = PROBES[runtime]
    missing = [tool for tool in probe.tools if shutil.which(tool) is None]
    if missing:
        return [], f"skipped: {', '.join(missing)} not found on PATH"
    with tempfile.TemporaryDirectory() as work:
        result = None
        for command in probe.commands:
            filled = [part.format(src=probe.source, work=work) for part in command]
            result = run(filled)
            if result.returncode != 0:
                return [], f"failed: {' '.join(command)}: {result.stderr.strip()[-300:]}"
        assert result is not None
        lines = [tuple(line.split("\t", 2)) for line in result.stdout.split("\n")]
    return [(e, p, o) for e, p, o in (line for line in lines if len(line) == 3)], "ran"


def _pow_summary(observed: str) -> str:
    """How many of the probe's pow(0.5, e) are not the correctly rounded 2**-e (INT-04)."""
    import mpmath  # the generator's dependency group, like tools.oracle.pow_half

    wrong = 0
    for i, bits in enumerate(observed.split(), start=1):
        exponent = i / 64 + i / 1000
        with mpmath.workdps(80):
            exact = float(mpmath.power(2, -mpmath.mpf(exponent)))
        wrong += float.fromhex(_hex(int(bits, 16))) != exact
    return f"{wrong} of 400 not correctly rounded"


def _hex(bits: int) -> str:
    import struct

    return float.hex(struct.unpack(">d", bits.to_bytes(8, "big"))[0])


def main(argv: Sequence[str] | None = None) -> int:
    """Run the probes, print what each runtime does, by entry; 0 even when a toolchain is
    missing (the runtime is reported as skipped, with the reason)."""
    parser = argparse.ArgumentParser(prog="python -m tools runtimes", description=__doc__)
    parser.add_argument("--entry", action="append", help="only this entry (INT-nn), repeatable")
    parser.add_argument("--runtime", action="append", choices=sorted(PROBES))
    args = parser.parse_args(argv)
    by_entry: dict[str, list[str]] = {}
    for runtime in args.runtime or list(PROBES):
        lines, status = observations(runtime)
        print(f"{runtime}: {status}")
        for entry, probe, observed in lines:
            shown = _pow_summary(observed) if probe == _POW else observed
            by_entry.setdefault(entry, []).append(f"  {runtime}: {probe}: {shown}")
    for entry in sorted(by_entry):
        if args.entry and entry not in args.entry:
            continue
        print(entry)
        print("\n".join(by_entry[entry]))
    return 0
