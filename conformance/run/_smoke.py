"""``smoke``: is this adapter alive at all? Handshake plus a handful of vectors, plainly told.

When nothing works it says "adapter broken: <why>" (bowtie#1320: not "0 %"), with the stderr
tail; for the first failure it prints the first difference and a command reproducing it. What
the implementation wrote (its name, messages, values, stderr) is printed through
:func:`~conformance._kit.one_line` / :func:`~conformance._kit.terminal_safe`: it cannot drive
the terminal.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TextIO

from conformance._errors import HandshakeError
from conformance._kit import one_line, terminal_safe, vectors_dir
from conformance.adapters import DEFAULT_TIMEOUT, open_adapter
from conformance.corpus import Corpus, Vector
from conformance.run._executor import Executor, RunConfig
from conformance.run._judge import reproduce_command
from conformance.run._results import Outcome, VectorResult

__all__ = ["pick_smoke_vectors", "smoke"]


def pick_smoke_vectors(vectors: Sequence[Vector], count: int) -> tuple[Vector, ...]:
    """One vector per area (first by ID), then more in ID order, up to ``count``."""
    ordered = sorted(vectors, key=lambda v: v.id)
    picked: list[Vector] = []
    seen: set[str] = set()
    for vector in ordered:
        if vector.area not in seen and len(picked) < count:
            picked.append(vector)
            seen.add(vector.area)
    for vector in ordered:
        if len(picked) >= count:
            break
        if vector not in picked:
            picked.append(vector)
    return tuple(sorted(picked, key=lambda v: v.id))


def _tail(text: str, lines: int = 15) -> str:
    return "\n".join("    " + terminal_safe(line) for line in text.rstrip().splitlines()[-lines:])


def smoke(
    adapter_spec: str,
    corpus: Corpus,
    out: TextIO,
    *,
    count: int = 5,
    timeout: float = DEFAULT_TIMEOUT,
) -> int:
    """Run the smoke check, printing to ``out``; exit code 0 (all passed) or 1."""
    adapter = open_adapter(adapter_spec, timeout=timeout)
    custom = None if corpus.root.resolve() == vectors_dir().resolve() else str(corpus.root)

    def reproduce(vector_id: str) -> str:
        return one_line(reproduce_command(adapter_spec, vector_id, vectors_dir=custom))

    try:
        handshake = adapter.start()
    except HandshakeError as exc:
        adapter.close()
        out.write(f"adapter broken: {one_line(exc.message)}\n")
        if exc.exit_status is not None:
            out.write(f"  exit status: {exc.exit_status}\n")
        if exc.stderr_tail.strip():
            out.write(f"  stderr (tail):\n{_tail(exc.stderr_tail)}\n")
        return 1
    out.write(
        f"handshake ok: {one_line(handshake.name)} {one_line(handshake.version)} "
        f"({one_line(handshake.language)}), "
        f"capabilities {one_line(', '.join(handshake.capabilities))}\n"
    )
    chosen = pick_smoke_vectors(corpus.vectors, count)
    config = RunConfig(adapter=adapter_spec, timeout=timeout, repeat=1, fresh_every=0)
    executor = Executor(config, adapter)
    results: list[VectorResult] = []
    try:
        for vector in chosen:
            result = executor.run_vector(vector)
            results.append(result)
            out.write(f"  {result.outcome.value:8} {vector.id} ({vector.area})\n")
    finally:
        executor.close()
    if results and all(r.outcome is Outcome.ERRORED for r in results):
        first = results[0].error
        assert first is not None
        out.write(
            f"adapter broken: every vector errored; first: [{first.kind}] "
            f"{one_line(first.message)}\n"
        )
        if first.stderr_tail.strip():
            out.write(f"  stderr (tail):\n{_tail(first.stderr_tail)}\n")
        out.write(f"  reproduce: {reproduce(results[0].id)}\n")
        return 1
    bad = [r for r in results if r.outcome is not Outcome.PASSED]
    if not bad:
        out.write(f"smoke ok: {len(results)}/{len(results)} vectors passed\n")
        return 0
    first_bad = bad[0]
    out.write(f"smoke: {len(results) - len(bad)}/{len(results)} vectors passed\n")
    out.write(f"first problem: {first_bad.id}\n")
    if first_bad.error is not None:
        out.write(f"  [{first_bad.error.kind}] {one_line(first_bad.error.message)}\n")
        if first_bad.error.stderr_tail.strip():
            out.write(f"  stderr (tail):\n{_tail(first_bad.error.stderr_tail)}\n")
    for failure in first_bad.failures[:1]:
        out.write(f"  [{failure.kind}] {one_line(failure.message)}\n")
        if failure.path is not None:
            out.write(
                f"    expected: {one_line(failure.expected)}\n"
                f"    actual:   {one_line(failure.actual)}\n"
            )
    out.write(f"  reproduce: {reproduce(first_bad.id)}\n")
    return 1
