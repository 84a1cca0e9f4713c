"""The reference Phase 2 memory engine (profile phase2-context/1).

Implements specs/seeds/PHASE2-memory-engine.md as read by specs/phase2/interpretations.toml:
layered, token-bounded context assembly, the read-only ``GET /v1/memory/context`` preview, the
``memory.compact`` retention job and ``memory.summarize`` with provenance. Storage is SQLite
(stdlib) by default or PostgreSQL (psycopg 3) from a ``postgresql://`` URL, one code path and
one migration file (``migrations/0001_memory_engine.sql``).

Data flows one way: call -> parameters (``_endpoint``) -> layers (``_summaries``,
``_hot_turns``, ``_entities``) -> draft and budget (``_budget``) -> envelope (``_assemble``).
Jobs: ``_compact``, ``_summarize`` (writers of ``_events``). Below them: ``_store`` (SQL),
``_fixture`` (the data model), ``_rows`` (ordering keys), ``_tokens``, ``_timestamps``,
``_config``, ``_errors``; ``_readings`` holds the register's pinned readings and their
executable alternatives as one value every stage consults (``run_vector_call(fixture, call,
readings=Readings.of(["P2-INT-08/one-hop"]))``). Entry points: ``_run`` (a vector call
in-process), ``_protocol`` (the subprocess protocol), ``_http`` (Starlette on uvicorn, the
``phase2`` extra), ``__main__``.
This package imports nothing from the SPEC-006 controller and nothing from the harness.
"""

from __future__ import annotations

from reference.phase2._assemble import applied_budget, assemble_context, build_draft
from reference.phase2._budget import Block, Draft, enforce_budget
from reference.phase2._compact import compact
from reference.phase2._config import DEFAULTS, SETTINGS, Config, config_from_env
from reference.phase2._endpoint import PATH, parse_params, preview_context
from reference.phase2._entities import select_related_entities, terms
from reference.phase2._errors import (
    ERROR_CODES,
    FixtureError,
    JobError,
    ParameterError,
    Phase2Error,
    StoreError,
    SummaryError,
)
from reference.phase2._events import (
    COMPACTION_COMPLETED,
    CONTEXT_PREVIEWED,
    ENGINE_EVENT_TYPES,
    SUMMARY_CREATED,
)
from reference.phase2._fixture import TABLES, validate_fixture
from reference.phase2._hot_turns import select_hot_turns
from reference.phase2._jobs import run_job
from reference.phase2._readings import (
    ALTERNATIVES,
    PINNED,
    POLICY_ALTERNATIVE,
    POLICY_SNIPPET,
    Alternative,
    Readings,
    UnknownReading,
)
from reference.phase2._rows import Entity, RelatedEntity, Summary, Turn
from reference.phase2._run import observe_call, run_vector_call
from reference.phase2._store import Store, open_store
from reference.phase2._summaries import latest_summary, select_warm_summaries
from reference.phase2._summarize import (
    SourceEvent,
    Summarizer,
    extractive_summarizer,
    source_events,
    summarize,
)
from reference.phase2._tokens import WHITE_SPACE, WHITE_SPACE_TABLES, estimate_tokens

__all__ = [
    "ALTERNATIVES",
    "COMPACTION_COMPLETED",
    "CONTEXT_PREVIEWED",
    "DEFAULTS",
    "ENGINE_EVENT_TYPES",
    "ERROR_CODES",
    "PATH",
    "PINNED",
    "POLICY_ALTERNATIVE",
    "POLICY_SNIPPET",
    "SETTINGS",
    "SUMMARY_CREATED",
    "TABLES",
    "WHITE_SPACE",
    "WHITE_SPACE_TABLES",
    "Alternative",
    "Block",
    "Config",
    "Draft",
    "Entity",
    "FixtureError",
    "JobError",
    "ParameterError",
    "Phase2Error",
    "Readings",
    "RelatedEntity",
    "SourceEvent",
    "Store",
    "StoreError",
    "Summarizer",
    "Summary",
    "SummaryError",
    "Turn",
    "UnknownReading",
    "__version__",
    "applied_budget",
    "assemble_context",
    "build_draft",
    "compact",
    "config_from_env",
    "enforce_budget",
    "estimate_tokens",
    "extractive_summarizer",
    "latest_summary",
    "observe_call",
    "open_store",
    "parse_params",
    "preview_context",
    "run_job",
    "run_vector_call",
    "select_hot_turns",
    "select_related_entities",
    "select_warm_summaries",
    "source_events",
    "summarize",
    "terms",
    "validate_fixture",
]

__version__ = "1.0.0"
