"""Structured errors of `memory.read` (SPEC-006 ERROR HANDLING; register INT-40).

S6 ERROR HANDLING: "memory.read MUST fail fast with structured errors" and "The same invalid
inputs MUST produce the same error type and message."  Every error the reference raises is a
`MemoryReadError` carrying a stable `code` from `ERROR_CODES`, a JSON Pointer `path` into the
request, the clause it enforces and a deterministic message.  The precedence of checks is the
order of the validation steps in `_request.py` (specs/errors.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

import orjson

__all__ = [
    "ERROR_CODES",
    "CanonicalizationError",
    "InvalidRequestError",
    "MemoryReadError",
    "StoreError",
    "TrustSnapshotError",
    "render_value",
]

#: code -> (clause ID, one-line meaning).  The closed set of error codes; the JSON Schema
#: specs/schemas/error.schema.json enumerates the same codes (a unit test keeps them equal).
ERROR_CODES: Final[dict[str, tuple[str, str]]] = {
    "invalid_request": ("S6-ERR-01", "the request is not an object or has an unknown member"),
    "invalid_query": ("S6-ERR-02", "query missing, not a string, or empty after trim"),
    "invalid_store_paths": ("S6-ERR-03", "store_paths missing, empty or malformed"),
    "invalid_budget": ("S6-ERR-04", "budget missing or a budget member invalid"),
    "invalid_scoring": ("S6-INPUT-08", "a scoring member is invalid"),
    "invalid_trust_filter": ("S6-INPUT-12", "a trust_filter member is invalid"),
    "invalid_now_utc": ("S6-INPUT-14", "now_utc is not a valid UTC timestamp"),
    "store_not_found": ("S6-ERR-05", "a store path does not exist"),
    "store_not_readable": ("S6-ERR-06", "a store path is not a readable regular file"),
    "trust_snapshot_not_found": ("S6-INPUT-13", "the trust snapshot path does not exist"),
    "invalid_trust_snapshot": ("S6-INPUT-13", "the trust snapshot is not a valid snapshot"),
}

_MAX_RENDER = 80


def render_value(value: Any) -> str:
    """Render an offending value for a message: compact JSON, cut to 80 code points.

    JSON rather than Python's repr keeps messages language-neutral.
    """
    try:
        text = orjson.dumps(value).decode("utf-8")
    except TypeError:
        text = f"<{type(value).__name__}>"
    if len(text) > _MAX_RENDER:
        text = text[: _MAX_RENDER - 3] + "..."
    return text


class MemoryReadError(Exception):
    """A SPEC-006 structured error: stable code, JSON Pointer path, clause and message."""

    def __init__(self, code: str, path: str, message: str) -> None:
        if code not in ERROR_CODES:  # pragma: no cover - programming error
            raise KeyError(code)
        super().__init__(message)
        self.code = code
        self.path = path
        self.clause = ERROR_CODES[code][0]
        self.message = message

    def to_json(self) -> dict[str, str]:
        """The error object of the result envelope (INT-44)."""
        return {
            "code": self.code,
            "message": self.message,
            "path": self.path,
            "clause": self.clause,
        }


class InvalidRequestError(MemoryReadError):
    """The request fails validation (checks 1-8 of specs/errors.md)."""


class StoreError(MemoryReadError):
    """A store path is missing or not readable (checks 9-10)."""


class TrustSnapshotError(MemoryReadError):
    """The trust snapshot is missing or malformed (checks 11-12)."""


@dataclass(frozen=True)
class CanonicalizationError(Exception):
    """A value cannot be written in RFC 8785 canonical form (INT-01)."""

    reason: str

    def __str__(self) -> str:
        return self.reason
