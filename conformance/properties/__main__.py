"""``python -m conformance.properties``: see :mod:`conformance.properties._cli`."""

from __future__ import annotations

import sys

from conformance.properties._cli import main

sys.exit(main())
