"""Breaks S6-RCPT-07 / S6-ACC-03: the receipt lists the excerpts, and failed calls get one."""

from typing import Any

from probe_support import serve


def after(request: Any, result: Any) -> Any:
    """Add excerpts to receipts; give failed calls a receipt."""
    if "receipt" in result:
        selected = result["package"]["selection"]["selected"]
        result["receipt"]["data"]["excerpts"] = [item["excerpt"] for item in selected]
    else:
        result["receipt"] = {"kind": "memory.read", "data": {"error": result["error"]["code"]}}
    return result


serve(after=after)
