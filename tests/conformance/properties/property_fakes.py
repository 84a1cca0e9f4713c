"""Deliberately broken implementations of memory.read, one failure mode each.

Each fake wraps the reference (``reference.memory_read``) and breaks one rule, the way a real
implementation might (Bowtie's miniatures). The property suite must catch every one of them;
``test_properties_catch_fakes.py`` (beside this file) says which family catches which fake. Use
them as adapters: ``python:property_fakes:<name>`` with this directory on ``sys.path``.
"""

from __future__ import annotations

import hashlib
import itertools
import math
import posixpath
from collections.abc import Callable
from typing import Any

import rfc8785

from reference import memory_read

__all__ = [
    "FAKES",
    "clock_when_now_missing",
    "drop_one_dropped",
    "excerpts_in_receipt",
    "internal_error_on_empty_store",
    "max_items_as_budget_exhausted",
    "nondeterministic",
    "package_hash_without_excerpts",
    "reverse_selected",
    "scores_one_ulp_off",
    "short_excerpts",
    "unnormalized_store_paths",
    "wrong_max_items_default",
    "wrong_record_hash",
]

Result = dict[str, Any]


def _package(result: Result) -> dict[str, Any] | None:
    package: dict[str, Any] | None = result.get("package")
    return package


def _rehash(result: Result) -> Result:
    """Recompute package_hash (INT-03) and the receipt after an edit, so only the edit shows."""
    package = _package(result)
    if package is not None:
        body = {k: v for k, v in package.items() if k != "package_hash"}
        package["package_hash"] = hashlib.sha256(rfc8785.dumps(body)).hexdigest()
        data = result["receipt"]["data"]
        data["package_hash"] = package["package_hash"]
        data["selected_count"] = len(package["selection"]["selected"])
    return result


def _retally(package: dict[str, Any]) -> None:
    """Recompute excerpt_tokens, used and remaining after excerpts changed."""
    used = 0
    for item in package["selection"]["selected"]:
        item["excerpt_tokens"] = -(-len(item["excerpt"].encode()) // 4)
        used += item["excerpt_tokens"]
    budget = package["budget"]
    budget["used_excerpt_tokens"] = used
    budget["remaining_excerpt_tokens"] = max(0, budget["max_excerpt_tokens"] - used)


def drop_one_dropped(request: Any) -> Result:
    """Forgets the first dropped entry (breaks 'every record line appears exactly once')."""
    result = memory_read(request)
    package = _package(result)
    if package is not None and package["selection"]["dropped"]:
        del package["selection"]["dropped"][0]
    return _rehash(result)


def reverse_selected(request: Any) -> Result:
    """Lists selected items in reverse rank order (breaks the five tie-break keys)."""
    result = memory_read(request)
    package = _package(result)
    if package is not None:
        package["selection"]["selected"].reverse()
    return _rehash(result)


def short_excerpts(request: Any) -> Result:
    """Cuts every non-empty excerpt one code point short (breaks 'first max_bytes')."""
    result = memory_read(request)
    package = _package(result)
    if package is not None:
        for item in package["selection"]["selected"]:
            item["excerpt"] = item["excerpt"][:-1]
        _retally(package)
    return _rehash(result)


def wrong_max_items_default(request: Any) -> Result:
    """Defaults max_items to 10 instead of 50 (breaks S6-INPUT-05 / S6-DET-01)."""
    if isinstance(request, dict) and isinstance(request.get("budget"), dict):
        request.setdefault("budget", {}).setdefault("max_items", 10)
    return memory_read(request)


def unnormalized_store_paths(request: Any) -> Result:
    """Reports each store under the spelling the request used ('./a.jsonl'), not normalized
    (breaks S6-READ-04: "store_paths MUST be normalized")."""
    result = memory_read(request)
    package = _package(result)
    if package is not None and isinstance(request, dict):
        spelled: dict[str, str] = {}
        for raw in request.get("store_paths", []):
            spelled.setdefault(posixpath.normpath(raw), raw)
        for item in package["selection"]["selected"] + package["selection"]["dropped"]:
            item["store_path"] = spelled.get(item["store_path"], item["store_path"])
    return _rehash(result)


def clock_when_now_missing(request: Any) -> Result:
    """Uses a built-in 'now' when now_utc is absent (breaks S6-INPUT-15, S6-DET-02)."""
    if isinstance(request, dict) and "now_utc" not in request:
        scoring = request.get("scoring")
        if isinstance(scoring, dict) and scoring.get("enable_recency_weight") is True:
            request["now_utc"] = "2026-01-01T00:00:00Z"
    return memory_read(request)


def scores_one_ulp_off(request: Any) -> Result:
    """Every fractional score one ulp high: an uncorrected platform pow (INT-04)."""
    result = memory_read(request)
    package = _package(result)
    if package is not None:
        for item in package["selection"]["selected"]:
            if item["score"] % 0.5:
                item["score"] = math.nextafter(item["score"], math.inf)
    return _rehash(result)


def wrong_record_hash(request: Any) -> Result:
    """record_hash over the text stripped of whitespace (an INT-02 misreading)."""
    result = memory_read(request)
    package = _package(result)
    if package is not None:
        for item in package["selection"]["selected"]:
            item["record_hash"] = hashlib.sha256(item["excerpt"].encode()).hexdigest()
    return _rehash(result)


def package_hash_without_excerpts(request: Any) -> Result:
    """package_hash over the MUST-list fields only (the INT-03 alternative reading)."""
    result = memory_read(request)
    package = _package(result)
    if package is not None:
        selected = [
            {k: v for k, v in item.items() if k != "excerpt"}
            for item in package["selection"]["selected"]
        ]
        body = {"budget": package["budget"], "selected": selected}
        package["package_hash"] = hashlib.sha256(rfc8785.dumps(body)).hexdigest()
        result["receipt"]["data"]["package_hash"] = package["package_hash"]
    return result


def excerpts_in_receipt(request: Any) -> Result:
    """Puts the excerpts into the ledger receipt (breaks 'metadata-only')."""
    result = memory_read(request)
    package = _package(result)
    if package is not None:
        excerpts = [item["excerpt"] for item in package["selection"]["selected"]]
        result["receipt"]["data"]["excerpts"] = excerpts
    return result


def max_items_as_budget_exhausted(request: Any) -> Result:
    """Reports max_items_reached drops as budget_exhausted (the INT-27 alternative)."""
    result = memory_read(request)
    package = _package(result)
    if package is not None:
        for item in package["selection"]["dropped"]:
            if item["reason"] == "max_items_reached":
                item["reason"] = "budget_exhausted"
    return _rehash(result)


_calls = itertools.count()


def nondeterministic(request: Any) -> Result:
    """Reverses dropped on every other call (output depends on call history)."""
    result = memory_read(request)
    package = _package(result)
    if package is not None and next(_calls) % 2:
        package["selection"]["dropped"].reverse()
        _rehash(result)
    return result


def internal_error_on_empty_store(request: Any) -> Result:
    """Raises when the stores hold no record at all (an unhandled edge case)."""
    result = memory_read(request)
    package = _package(result)
    selection = package["selection"] if package is not None else None
    if selection is not None and not selection["selected"] and not selection["dropped"]:
        raise IndexError("list index out of range")
    return result


#: name -> callable, for parametrized tests.
FAKES: dict[str, Callable[[Any], Result]] = {
    name: globals()[name] for name in __all__ if name != "FAKES"
}
