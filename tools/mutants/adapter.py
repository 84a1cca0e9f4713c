"""``python -m tools.mutants.adapter NAME``: one mutant behind the adapter protocol.

A source-patch mutant: its patched copy of the reference (``_patch.patched_copy``) replaces this
process as ``python -P -m reference serve`` with the copy first on ``PYTHONPATH`` (``-P``: the
working directory, where the real ``reference`` may be, is not put on ``sys.path``).  A
wrapper mutant: the wrapped public ``reference.memory_read`` served by ``conformance.serve``.
Either way the handshake names the implementation ``mutant-NAME``.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence


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
    from conformance.adapters import serve
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
