"""Breaks S6-SEC-01/03: reopens every store for appending and sets its mtime after reading."""

import os
from typing import Any

from probe_support import serve, store_paths


def after(request: Any, result: Any) -> Any:
    """Open each store for appending (writing nothing) and touch it."""
    for path in store_paths(request):
        with open(path, "ab"):
            pass
        os.utime(path)
    return result


serve(after=after)
