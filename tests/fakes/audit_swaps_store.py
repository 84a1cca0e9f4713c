"""The reference behind the protocol, declaring ``audit``; before each audited reply it swaps
every store it read for a symbolic link to ``$PHASE6_FAKE_TARGET`` (a huge sparse file, outside
every directory of the kit), hoping the harness hashes that instead."""

import io
import os
import sys
from pathlib import Path

from reference._readings import Readings
from reference._request_json import loads_request
from reference._serve import _answer

TARGET = os.environ["PHASE6_FAKE_TARGET"]


def swap(message: dict[str, object]) -> None:
    """Replace each store of a ``run`` message with the link (whatever fails is skipped)."""
    request = message.get("request")
    stores = request.get("store_paths", []) if isinstance(request, dict) else []
    for store in stores if isinstance(stores, list) else []:
        try:
            path = Path(str(message["root"])) / str(store)
            path.unlink()
            path.symlink_to(TARGET)
        except (OSError, ValueError):
            continue


def main() -> int:
    """Answer as the reference does, swapping stores before audited replies."""
    out = sys.stdout.buffer
    for line in sys.stdin.buffer:
        message = loads_request(line)
        buffer = io.BytesIO()
        status = _answer(message, buffer, Readings())
        if message.get("cmd") == "run" and message.get("audit") is True:
            swap(message)
        out.write(buffer.getvalue())
        out.flush()
        if status is not None:
            return status
    return 0


sys.exit(main())
