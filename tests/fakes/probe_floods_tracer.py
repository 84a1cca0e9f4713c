"""Floods its tracer: once it sees a ``TracerPid`` it makes failing 4 KB ``openat`` calls (read
only, on paths that do not exist) for ``FLOOD_SECONDS`` (default 60) before each answer."""

import contextlib
import os
import time
from pathlib import Path
from typing import Any

from probe_support import serve

_PATH = "/nonexistent-" + "/".join(["x" * 200] * 19)


def _traced() -> bool:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("TracerPid:"):
            return line.split()[1] != "0"
    return False


def before(message: dict[str, Any]) -> Any:
    """Flood the tracer (if any) with failing opens, then answer honestly."""
    if _traced():
        end = time.monotonic() + float(os.environ.get("FLOOD_SECONDS", "60"))
        while time.monotonic() < end:
            with contextlib.suppress(OSError):
                os.close(os.open(_PATH, os.O_RDONLY))
    return message["request"]


serve(before=before)
