"""``python -m tools.mutants.serve NAME``: one mutant behind the adapter protocol.

Applies mutant NAME's patch to the reference inside this process, names the implementation
``mutant-NAME`` in the handshake, then runs the reference's own protocol loop.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point: exit 2 for an unknown mutant, else the protocol loop's status."""
    args = list(sys.argv[1:] if argv is None else argv)
    from tools.mutants import MUTANTS
    from tools.mutants._patch import replace

    if len(args) != 1 or args[0] not in MUTANTS:
        print(f"usage: python -m tools.mutants.serve NAME (one of {len(MUTANTS)} mutants)",
              file=sys.stderr)  # fmt: skip
        return 2
    mutant = MUTANTS[args[0]]
    mutant.apply()
    from reference import _serve

    # The handshake names the mutant (the reference's own entry point is left untouched).
    replace(_serve, "IMPLEMENTATION", {**_serve.IMPLEMENTATION, "name": f"mutant-{mutant.name}"})
    return _serve.serve()


if __name__ == "__main__":
    sys.exit(main())
