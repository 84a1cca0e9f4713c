"""Reading: a repeated parameter takes its first value (P2-INT-15/first-value).

An outside team read the query string with JavaScript's ``URLSearchParams.get`` (Python's
``parse_qs(qs)[name][0]``, Go's ``url.Values.Get``): a name given twice is not refused, its first
value is the value. Its own code keeps the first occurrence of each name before the call; the
rest is the reference engine.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from reference.phase2 import run_vector_call as reference_call

FOLLOWS = "P2-INT-15/first-value"


def run_vector_call(fixture: Mapping[str, Any], call: Mapping[str, Any]) -> dict[str, Any]:
    """The reference, sent only the first value of each parameter."""
    seen: set[str] = set()
    params = []
    for name, value in call.get("params", []):
        if name not in seen:
            seen.add(name)
            params.append([name, value])
    return reference_call(fixture, {**call, "params": params})
