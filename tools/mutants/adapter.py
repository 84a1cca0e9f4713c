"""``python -m tools.mutants.adapter NAME``: one mutant behind the adapter protocol.

A source-patch mutant: its patched copy of the reference (``_patch.patched_copy``) replaces this
process as ``python -P -m reference serve`` with the copy first on ``PYTHONPATH`` (``-P``: the
working directory, where the real ``reference`` may be, is not put on ``sys.path``).  A
wrapper mutant: the wrapped public ``reference.memory_read`` served by the kit's protocol loop
(``conformance/adapters/_worker.py``, what ``phase6 serve`` runs). Either way the handshake
names the implementation ``mutant-NAME``.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any


def _protocol_loop() -> Callable[..., int]:
    """The kit's protocol loop, loaded from its file: it is stdlib only, and importing it as
    ``conformance.adapters`` would import the whole harness first (about a second of start-up,
    paid again by every fresh-process sample of a mutant's certification)."""
    kit = importlib.util.find_spec("conformance")  # found, not imported
    if kit is None or kit.origin is None:
        raise ImportError("the conformance package is not installed")
    path = Path(kit.origin).parent / "adapters" / "_worker.py"
    spec = importlib.util.spec_from_file_location("phase6_adapter_worker", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load the protocol loop from {str(path)!r}")
    worker: Any = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(worker)
    loop: Callable[..., int] = worker.serve
    return loop


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point: exit 2 for an unknown mutant, 3 for a patch that does not apply, else the
    protocol loop's status."""
    args = list(sys.argv[1:] if argv is None else argv)
    from tools.mutants import MUTANTS

    if len(args) != 1 or args[0] not in MUTANTS:
        print(f"usage: python -m tools.mutants.adapter NAME (one of {len(MUTANTS)} mutants)",
              file=sys.stderr)  # fmt: skip
        return 2
    mutant = MUTANTS[args[0]]
    if mutant.patch is not None:
        from tools.mutants._patch import PatchError, patched_copy

        try:
            copy = patched_copy(mutant)
        except PatchError as exc:
            print(f"tools.mutants.adapter: {exc}", file=sys.stderr)
            return 3
        path = os.environ.get("PYTHONPATH")
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(copy), path) if p)}
        sys.stdout.flush()
        os.execve(sys.executable, [sys.executable, "-P", "-m", "reference", "serve"], env)
    serve = _protocol_loop()
    from reference import memory_read

    implementation = {
        "name": f"mutant-{mutant.name}",
        "version": "1.0.0",
        "language": "python",
        "contract": "phase6-v1",
    }
    return serve(mutant.wrapper()(memory_read), implementation)


if __name__ == "__main__":
    sys.exit(main())
