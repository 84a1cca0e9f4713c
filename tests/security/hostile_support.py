"""What the hostile-input tests share: a sandbox to prove nothing leaks out of, a hostile vector
file, certification against the fakes, and the check that a report was written."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from harness_corpus import FAKES, corpus_documents, fake_spec, write_corpus

from conformance import Certification, certify, load_report, write_report

#: The name from issue 13: passes the old schema pattern and climbs out of the vector root.
ESCAPING_NAME = "x\n/../../../../outside/PWNED.txt"
#: Names no vector may hold, each with the rule it breaks.
HOSTILE_NAMES = {
    ESCAPING_NAME: "control character",
    "../outside.txt": "'..' segment",
    "stores/../../outside.txt": "'..' segment",
    "/etc/cron.d/pwned": "absolute",
    "stores//s.jsonl": "empty segment",
    "stores/": "empty segment",
    "./s.jsonl": "'.' segment",
    "stores\\..\\x": "backslash",
    "stores/s\x00.jsonl": "control character",
    "stores/s\r.jsonl": "control character",
    "stores/s\x85.jsonl": "control character",
    "stores/\ud800.jsonl": "lone surrogate",
    "x" * 256: "longer than 255 bytes",
    "é" * 200: "longer than 255 bytes",
}
#: Names the schema's pattern cannot judge (it counts characters, and cannot name a lone
#: surrogate portably): the loader and the materializer refuse them in code.
CODE_ONLY = frozenset({"stores/\ud800.jsonl", "é" * 200})
#: Escape sequences, carriage return, bell, bidi override: none may reach a terminal raw.
TERMINAL_CONTROLS = ("\x1b", "\x07", "\r", "\u202e")


def tree(directory: Path) -> set[str]:
    """Every path under ``directory`` (relative, symlinks not followed)."""
    found = set()
    for parent, dirs, files in os.walk(directory):
        for name in dirs + files:
            found.add(os.path.relpath(os.path.join(parent, name), directory))
    return found


def hostile_corpus(directory: Path, name: str, *, spec: Any = None) -> Path:
    """The synthetic corpus, with the trigger vector's store named ``name``."""
    documents = corpus_documents()
    vectors = directory / "vectors"
    vectors.mkdir(parents=True)
    trigger = documents["beta-errors.json"]["vectors"][1]
    trigger["input"]["files"] = {name: spec or {"text": "pwned\n"}}
    for file_name, document in documents.items():
        (vectors / file_name).write_text(json.dumps(document), "utf-8")
    return vectors


def synthetic(directory: Path, copies: int = 0) -> tuple[Path, Path]:
    """(vectors, table) of the synthetic corpus under ``directory``."""
    return write_corpus(directory, copies)


def certify_fake(paths: tuple[Path, Path], fake: str, *args: str, **options: Any) -> Certification:
    """Certify ``tests/fakes/<fake>.py`` (or a full ``python:``/``cmd:`` spec) serially."""
    vectors, table = paths
    spec = fake if ":" in fake else fake_spec(fake, table, *args)
    options.setdefault("jobs", 1)
    options.setdefault("timeout", 5.0)
    options.setdefault("sections", {})
    return certify(spec, vectors_dir=vectors, **options)


def by_id(result: Certification) -> dict[str, Any]:
    """The results by vector ID."""
    return {r.id: r for r in result.results}


def written(result: Certification, directory: Path) -> dict[str, Any]:
    """Write the report, check every file is valid UTF-8 and report.json loads back."""
    files = write_report(result, directory)
    for path in files.values():
        path.read_bytes().decode("utf-8")
    document: dict[str, Any] = json.loads((directory / "report.json").read_text("utf-8"))
    load_report(directory / "report.json")
    return document


def alive(pid: int) -> bool:
    """Whether process ``pid`` exists and is not a zombie."""
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
    except OSError:  # pragma: no cover - no /proc
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True


def kill_leftover(pidfile: Path) -> None:
    """Cleanup only: kill the process whose PID a fake wrote, if the harness failed to."""
    if pidfile.is_file():
        pid = int(pidfile.read_text("utf-8"))
        if alive(pid):
            os.kill(pid, 9)


PYTHON = sys.executable
INPROCESS = FAKES / "inprocess.py"


def processes_with(token: str) -> list[int]:
    """Live processes whose command line holds ``token`` (``/proc``)."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/cmdline", "rb") as handle:
                if token.encode() in handle.read():
                    found.append(int(name))
        except OSError:
            continue
    return found


def gone(token: str, seconds: float = 60.0) -> bool:
    """Whether every process holding ``token`` is gone within ``seconds`` (a generous wait:
    SIGKILLed processes of a loaded machine take a moment to exit)."""
    deadline = time.monotonic() + seconds
    while processes_with(token) and time.monotonic() < deadline:
        time.sleep(0.1)
    return not processes_with(token)
