"""Breaks S6-READ-02: reads every store whole into memory (and keeps it) before answering."""

from typing import Any

from probe_support import serve, store_paths

_KEPT: list[bytes] = []


def before(message: dict[str, Any]) -> Any:
    """Load each store's bytes and keep them."""
    request = message["request"]
    for path in store_paths(request):
        with open(path, "rb") as handle:
            _KEPT.append(handle.read())
    return request


serve(before=before)
