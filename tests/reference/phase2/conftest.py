"""Fixtures of the Phase 2 engine tests: one database per test, on SQLite and on PostgreSQL.

PostgreSQL comes from ``PHASE2_POSTGRES_URL`` (``.ci/run`` starts a server and exports it) or,
when that is unset, from a private server this session starts with initdb + pg_ctl
(``_postgres.py``). When neither works, every PostgreSQL case is skipped with the exact reason;
it never passes silently.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from phase2._postgres import PostgresUnavailable, fresh_schema, start_server


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A PostgreSQL server URL: PHASE2_POSTGRES_URL, or a private server, or a skip with why."""
    url = os.environ.get("PHASE2_POSTGRES_URL")
    if url:
        try:
            import psycopg

            psycopg.connect(url, connect_timeout=10).close()
        except Exception as exc:
            pytest.skip(f"PHASE2_POSTGRES_URL is set but unusable: {exc}")
        yield url
        return
    try:
        server = start_server()
    except PostgresUnavailable as exc:
        pytest.skip(f"PostgreSQL unavailable: {exc}")
    try:
        yield server.url
    finally:
        server.stop()


#: PostgreSQL cases start (or reach) a real server: they run with the slow tests (CI runs both).
@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A URL of a new, empty database: a SQLite file, or a fresh PostgreSQL schema."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'phase2.db'}"
    postgres: str = request.getfixturevalue("postgres_url")
    return fresh_schema(postgres)
