"""Configuration: the four settings of ``backend/common/config.py`` and their defaults.

    P2-CFG-01: "`MEMORY_CONTEXT_MAX_TOKENS` (default `3000`)"
    P2-CFG-02: "`MEMORY_HOT_TURNS_LIMIT` (default `8`)"
    P2-CFG-03: "`MEMORY_RELATED_ENTITIES_LIMIT` (default `25`)"
    P2-CFG-04: "`TRANSCRIPT_RETENTION_DAYS` (default `30`)"

Certification always runs with the defaults (specs/phase2/vectors-format.md); a deployment may
override them through environment variables of the same names (``serve`` reads them).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from reference.phase2._errors import StoreError

__all__ = ["DEFAULTS", "SETTINGS", "Config", "config_from_env"]


@dataclass(frozen=True)
class Config:
    """The engine's settings; every field is a positive integer."""

    context_max_tokens: int = 3000
    hot_turns_limit: int = 8
    related_entities_limit: int = 25
    transcript_retention_days: int = 30


#: Setting name (environment variable) -> Config field. One table, one place.
SETTINGS: Final[dict[str, str]] = {
    "MEMORY_CONTEXT_MAX_TOKENS": "context_max_tokens",
    "MEMORY_HOT_TURNS_LIMIT": "hot_turns_limit",
    "MEMORY_RELATED_ENTITIES_LIMIT": "related_entities_limit",
    "TRANSCRIPT_RETENTION_DAYS": "transcript_retention_days",
}

DEFAULTS: Final = Config()


def config_from_env(environ: Mapping[str, str]) -> Config:
    """The defaults, overridden by the settings present in ``environ`` (positive integers)."""
    changes: dict[str, int] = {}
    for name, field in SETTINGS.items():
        raw = environ.get(name)
        if raw is None:
            continue
        if not raw.isascii() or not raw.isdigit() or int(raw) < 1:
            raise StoreError(f"{name} must be a positive integer, got {raw!r}", field=name)
        changes[field] = int(raw)
    return dataclasses.replace(DEFAULTS, **changes)
