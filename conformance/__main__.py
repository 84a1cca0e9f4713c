"""``python -m conformance``: the command line (see :mod:`conformance.cli`)."""

from __future__ import annotations

from conformance.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
