"""``python -m tools.mutants.equivalence``: does each mutant change behaviour at all?

A fast, in-process check (a forked child per mutant, no adapter protocol) that every mutant
deviates from the reference on at least one input, so no mutant is an accidental copy of the
reference (an *equivalent* mutant that no suite could kill). Inputs, tried until the first
deviation: the vectors aimed at the mutant, then the probes' workspace requests, then large
stores, then every other vector. A deviation is a result that differs from the vector's
expectation (or from the reference, for inputs without one), or a side effect seen by an audit
hook (a write, a process, an internet socket), a file left in TMPDIR, or peak memory growing
with a large store.

    python -m tools.mutants.equivalence [--json FILE] [NAME ...]

Exit status 0 when every mutant deviates, 1 otherwise.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import json
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from conformance import compare_result, first_difference, load_corpus, materialize
from tools.mutants._patch import patched_copy
from tools.mutants._registry import Mutant, Reader

__all__ = ["Input", "main", "smoke"]

_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC
#: Side effects a mutant may not have.  Not os.fork: the reference forks readers for a large
#: store (they write only to their pipes, which the audit hook does not see as files).
_EFFECT_EVENTS = frozenset({
    "os.utime", "os.chmod", "os.rename", "os.remove", "os.truncate", "os.mkdir", "os.link",
    "subprocess.Popen", "os.posix_spawn", "os.exec", "os.system",
    "socket.connect", "socket.sendto", "socket.bind", "socket.sendmsg",
})  # fmt: skip
_CHILD_TIMEOUT = 120.0


@dataclass(frozen=True)
class Input:
    """One smoke input: a request, its root, and the expected result (vectors) or None."""

    id: str
    request_json: bytes
    root: str
    expect: Any = None
    clauses: tuple[str, ...] = ()
    interpretations: tuple[str, ...] = ()
    kind: str = "vector"


def _inputs(workdir: Path) -> list[Input]:
    from conformance.probes import _workspace
    from conformance.probes._streaming import RECORDS, TEXT_BYTES

    corpus = load_corpus()
    inputs = []
    for vector in corpus.vectors:
        root = workdir / "vectors" / vector.id
        materialize(vector, root)
        inputs.append(
            Input(vector.id, vector.request_json, str(root), vector.expect, vector.clauses,
                  vector.interpretations)
        )  # fmt: skip
    probe_root = _workspace.build(workdir / "probe")
    inputs += [
        Input(f"probe:{request.label}", request.data, str(probe_root), kind="probe")
        for request in (*_workspace.REQUESTS, *_workspace.ERROR_REQUESTS)
    ]
    long_root = _workspace.build(
        workdir / "long",
        files=(("stores/l.jsonl", _workspace.sized_store([70_000, 140_000, 90_000] * 3)),),
    )
    inputs.append(Input("long-lines", _request("stores/l.jsonl"), str(long_root), kind="long"))
    big_root = _workspace.build(
        workdir / "big",
        files=(("stores/big.jsonl", _workspace.sized_store([64] * RECORDS, payload=TEXT_BYTES)),),
    )
    inputs.append(Input("big-store", _request("stores/big.jsonl"), str(big_root), kind="big"))
    return inputs


def _request(store: str) -> bytes:
    request = {"query": "rust ledger", "store_paths": [store], "budget": {"max_excerpt_tokens": 64}}
    return json.dumps(request).encode()


def _peak_kib() -> int:
    try:
        with open("/proc/self/status", encoding="ascii") as handle:
            for line in handle:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


class _Observer:
    """Audit hook: records side effects (writes, processes, internet sockets)."""

    def __init__(self, workdir: str) -> None:
        self.workdir = workdir
        self.seen: list[str] = []
        self.active = False

    def __call__(self, event: str, args: tuple[Any, ...]) -> None:
        if not self.active:
            return
        if event == "open":
            path, mode, flags = ([*list(args), None, None, None])[:3]
            writing = (isinstance(mode, str) and any(c in mode for c in "wax+")) or (
                isinstance(flags, int) and flags & _WRITE_FLAGS
            )
            if writing and "__pycache__" not in str(path):
                self.seen.append(f"open for writing: {path}")
        elif event == "socket.__new__":
            family = args[1] if len(args) > 1 else None
            if family in (2, 10):  # AF_INET, AF_INET6
                self.seen.append(f"internet socket ({family})")
        elif event in _EFFECT_EVENTS:
            self.seen.append(f"{event}: {str(args)[:120]}")


def _reset_peak() -> None:
    """Return freed heap to the OS and reset VmHWM (a forked child starts with its parent's
    high-water mark, and reused resident pages would hide new allocations)."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None).malloc_trim(0)
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as handle:
            handle.write("5")
    except OSError:
        pass


def _load(mutant: Mutant | None, copies: Path) -> Reader:
    """The reference's memory_read, or the mutant's: the patched copy imported in place of the
    reference (this child process only), or the wrapper around the reference."""
    if mutant is not None and mutant.patch is not None:
        sys.path.insert(0, str(patched_copy(mutant, copies)))
        for name in [name for name in sys.modules if name.split(".")[0] == "reference"]:
            del sys.modules[name]
    from reference import memory_read

    if mutant is None or mutant.patch is not None:
        return memory_read
    return mutant.wrapper()(memory_read)


def _run(read: Reader, request_json: bytes, root: str) -> Any:
    previous = os.getcwd()
    os.chdir(root)
    try:
        return read(json.loads(request_json))
    finally:
        os.chdir(previous)


def _ordered(mutant: Mutant, inputs: list[Input]) -> list[Input]:
    def rank(item: Input) -> int:
        aimed = set(mutant.clauses) & set(item.clauses) or set(mutant.interpretations) & set(
            item.interpretations
        )
        if aimed:
            return 0
        if item.kind == "probe":
            return 1
        if (item.kind == "big" and mutant.witness.big_store) or (
            item.kind == "long" and mutant.witness.long_lines
        ):
            return 0
        return 3 if item.kind in ("big", "long") else 2

    return sorted(inputs, key=rank)


def _child(
    mutant: Mutant | None, inputs: list[Input], baseline: dict[str, Any], tmp: str, copies: Path
) -> dict[str, Any]:
    """In a forked child: load the mutant, try inputs until one deviates."""
    sys.dont_write_bytecode = True
    os.environ["TMPDIR"] = tmp
    tempfile.tempdir = None
    if mutant is not None:
        os.environ.update(mutant.witness.env)
        if "TZ" in mutant.witness.env:
            time.tzset()
    read = _load(mutant, copies)
    observer = _Observer(tmp)
    sys.addaudithook(observer)
    results: dict[str, Any] = {}
    for item in inputs if mutant is None else _ordered(mutant, inputs):
        if mutant is None and item.expect is not None:
            continue
        if item.kind == "big":
            _reset_peak()
        before = _peak_kib()
        observer.active = True
        try:
            result = _run(read, item.request_json, item.root)
        except Exception as exc:
            result = {"crash": f"{type(exc).__name__}: {exc}"}
        finally:
            observer.active = False
        if mutant is None:
            results[item.id] = result
            continue
        if observer.seen:
            return {"changed": True, "input": item.id, "evidence": observer.seen[0]}
        if os.listdir(tmp):
            return {
                "changed": True,
                "input": item.id,
                "evidence": f"left {os.listdir(tmp)[0]} in TMPDIR",
            }
        if item.kind == "big":
            size = os.path.getsize(os.path.join(item.root, "stores", "big.jsonl"))
            growth = (_peak_kib() - before) * 1024
            if growth > size // 2:
                return {
                    "changed": True,
                    "input": item.id,
                    "evidence": f"peak memory +{growth >> 20} MiB",
                }
        if item.expect is not None:
            diff = compare_result(item.expect, result)
        else:
            diff = first_difference(baseline.get(item.id), result, strict=True)
        if diff is not None:
            return {"changed": True, "input": item.id, "evidence": diff.describe()[:200]}
    if mutant is None:
        return {"results": results}
    return {"changed": False, "input": None, "evidence": "no input showed a deviation"}


def _fork(
    mutant: Mutant | None, inputs: list[Input], baseline: dict[str, Any], workdir: Path
) -> dict[str, Any]:
    tmp = tempfile.mkdtemp(prefix="tmp-", dir=workdir)
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - runs in the child
        os.close(read_end)
        try:
            found = _child(mutant, inputs, baseline, tmp, workdir / "copies")
            payload = json.dumps(found, default=str).encode()
        except BaseException as exc:
            payload = json.dumps(
                {
                    "changed": True,
                    "input": None,
                    "evidence": f"loading the mutant failed: {exc!r}",
                    "error": True,
                }
            ).encode()
        with os.fdopen(write_end, "wb") as out:
            out.write(payload)
        os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as source:
        data = source.read()
    os.waitpid(pid, 0)
    shutil.rmtree(tmp, ignore_errors=True)
    return dict(json.loads(data or b'{"changed": false, "evidence": "child died", "error": true}'))


def smoke(names: Sequence[str] | None = None) -> dict[str, dict[str, Any]]:
    """name -> {changed, input, evidence[, error]} for the named mutants (default: all)."""
    from tools.mutants import MUTANTS

    chosen = [MUTANTS[name] for name in (names or MUTANTS)]
    workdir = Path(tempfile.mkdtemp(prefix="phase6-mutant-equivalence-"))
    try:
        inputs = _inputs(workdir)
        baseline = _fork(None, inputs, {}, workdir).get("results", {})
        return {mutant.name: _fork(mutant, inputs, baseline, workdir) for mutant in chosen}
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point."""
    parser = argparse.ArgumentParser(
        prog="python -m tools.mutants.equivalence", description=__doc__
    )
    parser.add_argument("names", nargs="*", help="mutants (default: all)")
    parser.add_argument("--json", type=Path, help="write the findings here")
    args = parser.parse_args(argv)
    found = smoke(args.names or None)
    for name, entry in found.items():
        mark = "changed" if entry["changed"] else "SAME"
        print(f"{mark:8} {name:42} {entry.get('input')}: {entry['evidence']}")
    if args.json:
        args.json.write_text(json.dumps(found, indent=1) + "\n", "utf-8")
    return 0 if all(entry["changed"] and not entry.get("error") for entry in found.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
