"""``python -m tools``: the one command line of the build and measurement tooling.

    python -m tools vectors [--check]        rebuild the hand-written and generated vector files
    python -m tools hand-vectors [--check]   the hand-written vector files only
    python -m tools gen-vectors [--check]    the generated families only (--family NAME, --out DIR)
    python -m tools phase2-vectors [--check]  the Phase 2 profile's vectors
    python -m tools mutants [--check|--write] certify the mutation gallery, the kill matrix
    python -m tools mutant-equivalence       does every mutant change behaviour at all?
    python -m tools bench [--records N]      the reference against a json.loads baseline
    python -m tools bench-harness            certification throughput
    python -m tools bench-site               the site at scale: build time, first paint
    python -m tools bench-phase2-http        Phase 2 over HTTP with a slow load and dump
    python -m tools samples [--check]        the sample stores in adam_os_data/memory/
    python -m tools property-examples [--check]  the stored certification examples
    python -m tools readings [--check]       what each executable alternative changes
                             [--profile phase2-context]  (the Phase 2 corpus and register)
    python -m tools runtimes [--entry INT-nn] what each runtime's obvious library calls do
    python -m tools docs [--out DIR]         the documentation site (MkDocs, strict)

Each tool keeps its own options (``python -m tools TOOL --help``); this dispatcher only names
them, so there is one entry point and ``--help`` lists every tool. nox drives all of them.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Sequence

#: tool name -> (module with ``main(argv) -> int``, one line of help). ``vectors`` runs two.
TOOLS: dict[str, tuple[str, str]] = {
    "hand-vectors": (
        "tools.generate.handbuild",
        "build vectors/*-hand.json from tools/generate/hand",
    ),
    "gen-vectors": (
        "tools.generate.build",
        "build vectors/*-gen*.json (oracle-confirmed families)",
    ),
    "phase2-vectors": (
        "tools.generate.phase2.build",
        "build vectors/phase2-context/ (Phase 2 profile, oracle-confirmed)",
    ),
    "mutants": ("tools.mutants.__main__", "certify every mutant; write / check the kill matrix"),
    "mutant-equivalence": ("tools.mutants.equivalence", "every mutant deviates (in-process)"),
    "bench": ("tools.bench.reference", "benchmark the reference (json.loads baseline, RSS)"),
    "bench-harness": ("tools.bench.harness", "benchmark certification throughput"),
    "bench-site": ("tools.bench.site", "the site at 20 implementations x 5 versions: build, paint"),
    "bench-phase2-http": (
        "tools.bench.phase2_http",
        "Phase 2 over HTTP, load and dump 0.6 s each: wall time, loads and dumps per vector",
    ),
    "samples": ("tools.samples", "write / check the sample stores in adam_os_data/memory"),
    "readings": (
        "tools.readings",
        "what each executable alternative reading changes; check the vectors' labels",
    ),
    "property-examples": (
        "tools.property_examples",
        "record / check the property families' stored certification examples",
    ),
    "runtimes": (
        "tools.runtimes",
        "run the standard-library probes of each runtime (the register's runtimes facts)",
    ),
    "docs": ("tools.docs", "build the documentation site (MkDocs, strict) into reports/docs"),
}


def _entry(module: str) -> Callable[[list[str]], int]:
    main: Callable[[list[str]], int] = importlib.import_module(module).main
    return main


def _usage() -> str:
    lines = ["usage: python -m tools TOOL [options]   (python -m tools TOOL --help)", "", "tools:"]
    width = max(len(name) for name in TOOLS)
    lines.append(f"  {'vectors':{width}} hand-vectors, then gen-vectors (the whole corpus)")
    lines += [f"  {name:{width}} {help_}" for name, (_, help_) in TOOLS.items()]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Dispatch to one tool; exit 2 on an unknown tool."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help"):
        print(_usage())
        return 0 if args else 2
    name, rest = args[0], args[1:]
    if name == "vectors":
        status = _entry(TOOLS["hand-vectors"][0])([a for a in rest if a == "--check"])
        return status or _entry(TOOLS["gen-vectors"][0])(rest)
    if name not in TOOLS:
        print(f"unknown tool {name!r}\n\n{_usage()}", file=sys.stderr)
        return 2
    return _entry(TOOLS[name][0])(rest)


if __name__ == "__main__":
    sys.exit(main())
