"""Breaks S6-DET-04: selected items come in the iteration order of a set (hash-seed order)."""

from typing import Any

from probe_support import serve


def after(request: Any, result: Any) -> Any:
    """Reorder the selected items by Python's (seeded) string hash."""
    if isinstance(result, dict) and "package" in result:
        selected = result["package"]["selection"]["selected"]
        selected.sort(key=lambda item: hash(item["memory_id"]))
    return result


serve(after=after)
