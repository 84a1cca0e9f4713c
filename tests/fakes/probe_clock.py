"""Breaks S6-DET-02: recency enabled without now_utc uses the system clock as 'now'."""

from datetime import UTC, datetime
from typing import Any

from probe_support import serve


def before(message: dict[str, Any]) -> Any:
    """Fill in now_utc from the clock when recency is on and now_utc is absent."""
    request = message["request"]
    scoring = request.get("scoring") if isinstance(request, dict) else None
    if (
        isinstance(scoring, dict)
        and scoring.get("enable_recency_weight")
        and "now_utc" not in request
    ):
        now = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
        return {**request, "now_utc": now}
    return request


serve(before=before)
