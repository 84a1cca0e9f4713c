"""Fixtures of the Phase 2 engine tests: one database per test, on SQLite and on PostgreSQL.

PostgreSQL comes from ``PHASE2_POSTGRES_URL`` (``.ci/run`` starts a server and exports it) or,
when that is unset, from a private server this session starts with initdb + pg_ctl: the
``postgres_url`` fixture of ``tests/phase2_postgres.py``, re-exported here. When neither works,
every PostgreSQL case is skipped with the exact reason; it never passes silently.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from phase2_postgres import fresh_schema, postgres_url

__all__ = ["db_url", "postgres_url"]


#: PostgreSQL cases start (or reach) a real server: they run with the slow tests (CI runs both).
@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A URL of a new, empty database: a SQLite file, or a fresh PostgreSQL schema."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'phase2.db'}"
    postgres: str = request.getfixturevalue("postgres_url")
    return fresh_schema(postgres)
