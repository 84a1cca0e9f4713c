"""Breaks S6-ERR-07: error messages carry a call counter and the process ID."""

import itertools
import os
from typing import Any

from probe_support import serve

_COUNTER = itertools.count(1)


def after(request: Any, result: Any) -> Any:
    """Append '#<n> pid <pid>' to every error message."""
    if "error" in result:
        result["error"]["message"] += f" #{next(_COUNTER)} pid {os.getpid()}"
    return result


serve(after=after)
