"""The site's JSON API (``api/v1/``, ``phase6-site-api/1``) and its badges.

``api/v1/implementations.json`` lists every implementation at its newest version, with the same
columns as the implementations page (:data:`conformance.site._pages.TABLE_COLUMNS`);
``api/v1/implementations/<key>.json`` holds each of its versions. Both are specified by
``specs/schemas/site/*.schema.json``. Badges: ``badges/<key>.svg`` (the report's badge) and
``badges/<key>.json``, a shields.io endpoint (``https://img.shields.io/endpoint?url=...``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from conformance.site._model import Implementation, Run, SetAside
from conformance.site._pages import implementation_row

__all__ = [
    "API_FORMAT",
    "IMPLEMENTATIONS_SCHEMA",
    "IMPLEMENTATION_SCHEMA",
    "implementation_document",
    "implementations_document",
    "shields_endpoint",
]

API_FORMAT = "phase6-site-api/1"
#: Schema names under specs/schemas/ (:func:`conformance._schemas.validator`).
IMPLEMENTATIONS_SCHEMA = "site/implementations.schema.json"
IMPLEMENTATION_SCHEMA = "site/implementation.schema.json"


def _links(implementation: Implementation) -> dict[str, str]:
    return {
        "self": f"api/v1/implementations/{implementation.key}.json",
        "badge_svg": f"badges/{implementation.key}.svg",
        "badge_endpoint": f"badges/{implementation.key}.json",
        "report": implementation.latest.report_href,
    }


def _version(run: Run) -> dict[str, Any]:
    return {
        "version": run.version,
        "date": run.date,
        "verdict": run.verdict,
        "verdict_text": run.verdict_text,
        "partial": list(run.partial),
        "kit_version": run.kit_version,
        "corpus_digest": run.corpus_digest,
        "totals": dict(run.totals),
        "profile": list(run.profile),
        "declared": None if run.declared is None else list(run.declared),
        "contradictions": list(run.contradictions),
        "unexplained": len(run.unexplained),
        "by_clause": {c: dict(counts) for c, counts in run.by_clause.items()},
        "not_passed": sorted(run.not_passed),
        "report": run.report_href,
    }


def _set_aside(item: SetAside) -> dict[str, Any]:
    return {
        "version": item.run.version,
        "date": item.run.date,
        "partial": list(item.run.partial),
        "digest": item.run.digest,
        "kept": item.kept.digest,
        "reason": item.reason,
    }


def implementations_document(
    groups: Mapping[str, Sequence[Implementation]], generated: str, kit: str
) -> dict[str, Any]:
    """``api/v1/implementations.json``: every implementation of every profile, newest version."""
    rows = []
    for contract, implementations in groups.items():
        for implementation in implementations:
            run = implementation.latest
            rows.append(
                {
                    "key": implementation.key,
                    "contract": contract,
                    **implementation_row(run),
                    "partial": list(run.partial),
                    "profile": list(run.profile),
                    "totals": dict(run.totals),
                    "versions": [r.version for r in implementation.runs],
                    "links": _links(implementation),
                }
            )
    return {"format": API_FORMAT, "generated": generated, "kit": kit, "implementations": rows}


def implementation_document(contract: str, implementation: Implementation) -> dict[str, Any]:
    """``api/v1/implementations/<key>.json``: one implementation, every version, oldest first."""
    run = implementation.latest
    return {
        "format": API_FORMAT,
        "key": implementation.key,
        "contract": contract,
        "name": implementation.name,
        "language": run.language,
        "links": _links(implementation),
        "versions": [_version(r) for r in implementation.runs],
        "set_aside": [_set_aside(a) for a in implementation.set_aside],
    }


def shields_endpoint(run: Run) -> dict[str, Any]:
    """A shields.io endpoint badge saying what the SVG badge says."""
    label, message, colour = run.badge
    return {"schemaVersion": 1, "label": label, "message": message, "color": colour}
