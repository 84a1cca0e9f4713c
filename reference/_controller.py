"""`memory_read`: request -> validate -> stores -> trust -> read/score -> select -> package
-> receipt (SPEC-006), returning the result envelope of INT-44.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

from reference._errors import MemoryReadError
from reference._package import (
    CONTROLLER_VERSION,
    Budget,
    assemble,
    package_hash,
)
from reference._paths import ordered_unique
from reference._query import derive_terms, query_hash, supplied_terms
from reference._reader import check_stores
from reference._receipt import build_receipt
from reference._request import Request, validate_request
from reference._scoring import Scorer
from reference._trust import load_trust_filter

__all__ = ["loads_request", "memory_read", "read_package"]


def loads_request(data: bytes | str) -> Any:
    """Parse a request's JSON text.  Raises ValueError when it is not JSON.

    orjson (fast) refuses escaped lone surrogates ("\\ud800"), which are valid JSON text; the
    stdlib parser accepts them, so validation can answer with a structured error (INT-42)
    instead of the request being lost.
    """
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError:
        return json.loads(data)


def _scorer(request: Request) -> Scorer:
    # S6-INPUT-11: query_terms "if absent, derived deterministically from query" (INT-08).
    terms = (
        derive_terms(request.query)
        if request.query_terms is None
        else supplied_terms(request.query_terms)
    )
    # S6-INPUT-15: now_utc absent => "recency weighting MUST be disabled" (INT-36).
    now = request.now_utc
    recency = request.enable_recency_weight and now is not None
    return Scorer(
        terms=terms,
        enable_tag_overlap=request.enable_tag_overlap,
        recency_now_ns=now[1] if recency and now is not None else None,
        half_life_days=request.recency_half_life_days,
    )


def read_package(request: Request) -> tuple[dict[str, Any], dict[str, Any]]:
    """Run a validated request; return (package, receipt).  Raises MemoryReadError."""
    stores = ordered_unique(list(request.store_paths))  # S6-READ-04/05, INT-12
    check_stores(stores)  # S6-ERR-05: a missing store fails the call before any read
    trust = load_trust_filter(request.trust_snapshot_path, request.deny_classifications)
    budget = Budget(
        max_excerpt_tokens=request.max_excerpt_tokens,
        # S6-TRUNC-04: "per_item_max_excerpt_tokens = min(per_item_max_excerpt_tokens,
        # max_excerpt_tokens)"; the package reports the effective value (INT-30).
        per_item_max_excerpt_tokens=min(
            request.per_item_max_excerpt_tokens, request.max_excerpt_tokens
        ),
        max_items=request.max_items,
    )
    paths = [path for path, _ in stores]
    selected, dropped, used = assemble(paths, _scorer(request), trust, budget)
    package: dict[str, Any] = {
        "query": {"raw": request.query, "query_hash": query_hash(request.query)},
        "budget": {
            "max_excerpt_tokens": budget.max_excerpt_tokens,
            "used_excerpt_tokens": used,  # S6-TOK-02
            # S6-TOK-03: "remaining = max_excerpt_tokens - used_excerpt_tokens (floor at 0)"
            "remaining_excerpt_tokens": max(budget.max_excerpt_tokens - used, 0),
            "per_item_max_excerpt_tokens": budget.per_item_max_excerpt_tokens,
            "max_items": budget.max_items,
        },
        "selection": {"selected": selected, "dropped": dropped},
        "controller_version": CONTROLLER_VERSION,
    }
    package["package_hash"] = package_hash(package)
    # Key order as the OUTPUT CONTRACT lists it (cosmetic: comparison ignores order).
    package = {
        key: package[key]
        for key in ("query", "budget", "selection", "package_hash", "controller_version")
    }
    return package, build_receipt(package, paths)


def memory_read(request: Any) -> dict[str, Any]:
    """SPEC-006 `memory.read`: the result envelope {package, receipt} or {error} (INT-44).

    Relative store and snapshot paths resolve against the current working directory
    (INT-45).  Never raises for a bad request or store: those are structured errors.
    """
    try:
        validated = validate_request(request)
        package, receipt = read_package(validated)
    except MemoryReadError as error:
        return {"error": error.to_json()}
    return {"package": package, "receipt": receipt}
