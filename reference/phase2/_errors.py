"""Structured errors of the Phase 2 engine: one small tree, each with a code, a field and a clause.

- :class:`ParameterError`: a bad parameter of ``GET /v1/memory/context``; answered with HTTP
  400 (or 405) and ``{"error": {"code", "param", "message"}}`` (P2-INT-15);
- :class:`JobError`: unusable job input; the job's result is the same error object (P2-INT-26);
- :class:`FixtureError`: a fixture (or a state to load) that breaks the data model (P2-INT-19);
- :class:`StoreError`: a database URL that cannot be opened, or a driver that is missing;
- :class:`SummaryError`: a summarizer that returned no text or facts of the wrong shape.
"""

from __future__ import annotations

import json
from typing import Any, Final

__all__ = [
    "ALTERNATIVE_CODES",
    "ERROR_CODES",
    "FixtureError",
    "JobError",
    "ParameterError",
    "Phase2Error",
    "StoreError",
    "SummaryError",
    "render_value",
]

#: code -> (HTTP status or None for job results, clause, meaning). specs/schemas/phase2/
#: error.schema.json enumerates the same codes (a unit test keeps them equal).
ERROR_CODES: Final[dict[str, tuple[int | None, str, str]]] = {
    "missing_parameter": (400, "P2-API-03", "a required parameter is absent"),
    "invalid_parameter": (400, "P2-API-05", "a parameter is malformed, out of range or repeated"),
    "method_not_allowed": (405, "P2-API-02", "only GET (and HEAD) is served on this path"),
    "invalid_job": (None, "P2-CMP-01", "a job input (now, user_id, chat_id) is unusable"),
}

#: Codes only an alternative reading answers (never the pinned engine, so not in the error
#: schema): P2-INT-12/refuse-4xx and P2-INT-17/unknown-chat-404.
ALTERNATIVE_CODES: Final[dict[str, tuple[int | None, str, str]]] = {
    "budget_too_small": (422, "P2-BUD-01", "policy + query alone exceed the budget"),
    "not_found": (404, "P2-API-03", "the chat has no row"),
}

_MAX_RENDER = 80


def render_value(value: Any) -> str:
    """An offending value for a message: compact JSON, cut to 80 code points."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = f"<{type(value).__name__}>"
    return text if len(text) <= _MAX_RENDER else text[: _MAX_RENDER - 3] + "..."


class Phase2Error(Exception):
    """Base class: every error of the engine carries a ``code``, a ``field`` and a ``clause``."""

    code: str = "phase2_error"

    def __init__(self, message: str, *, field: str | None = None, clause: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.clause = clause


class ParameterError(Phase2Error):
    """A bad parameter of the preview endpoint (P2-INT-14, P2-INT-15, P2-INT-16, P2-INT-17)."""

    def __init__(
        self, code: str, param: str | None, message: str, *, status: int | None = None
    ) -> None:
        known, clause, _ = ERROR_CODES[code] if code in ERROR_CODES else ALTERNATIVE_CODES[code]
        super().__init__(message, field=param, clause=clause)
        self.code = code
        self.status = status or known or 400

    def body(self) -> dict[str, Any]:
        """The response body: ``{"error": {"code", "param", "message"}}``."""
        return {"error": {"code": self.code, "param": self.field, "message": self.message}}


class JobError(Phase2Error):
    """Unusable input of memory.compact or memory.summarize (P2-INT-26)."""

    code = "invalid_job"

    def __init__(self, param: str, message: str) -> None:
        super().__init__(message, field=param, clause=ERROR_CODES["invalid_job"][1])

    def result(self) -> dict[str, Any]:
        """The job's result: ``{"error": {"code": "invalid_job", "param", "message"}}``."""
        return {"error": {"code": self.code, "param": self.field, "message": self.message}}


class FixtureError(Phase2Error):
    """A fixture or state that breaks the data model; ``field`` is a JSON Pointer into it."""

    code = "invalid_fixture"

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path or '/'}: {message}", field=path, clause="P2-SUM-03")


class StoreError(Phase2Error):
    """A database that cannot be opened or used (bad URL, missing driver, failed migration)."""

    code = "store_error"


class SummaryError(Phase2Error):
    """A summarizer broke the provenance contract (empty text, facts not an array or object)."""

    code = "invalid_summary"

    def __init__(self, message: str) -> None:
        super().__init__(message, clause="P2-SUM-07")
