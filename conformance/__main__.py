"""``python -m conformance``: the certification command line (see ``conformance._cli``)."""

from __future__ import annotations

from conformance._cli import main

if __name__ == "__main__":
    raise SystemExit(main())
