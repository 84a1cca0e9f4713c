"""Storage: one code path over SQLite (stdlib, the embedded default) and PostgreSQL (psycopg 3).

    open_store("sqlite:///var/lib/p2.db")            # a SQLite file (created when absent)
    open_store("/var/lib/p2.db")                      # the same, as a bare path
    open_store(":memory:")                            # a fresh in-memory SQLite database
    open_store("postgresql://user@127.0.0.1:5432/p2") # PostgreSQL (needs the phase2 extra)

Both engines run the same SQL text (``?`` placeholders, rewritten to ``%s`` for psycopg) and
the one migration file ``migrations/0001_memory_engine.sql``, applied on open (P2-MIG-01).
Only the driver and the paramstyle differ. Every ordering the spec cares about is computed in
Python from parsed values, so SQLite's byte order and PostgreSQL's collations never matter.
PostgreSQL databases must use the UTF8 encoding.
"""

from __future__ import annotations

import contextlib
import importlib.resources
import json
import sqlite3
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Final, Literal, Protocol

from reference.phase2._errors import StoreError
from reference.phase2._fixture import JSON_COLUMNS, TABLES, Fixture, validate_fixture

__all__ = ["MIGRATIONS", "Store", "dumps_json", "migration_sql", "open_store"]

Dialect = Literal["sqlite", "postgresql"]
#: version -> migration file (package data). One file today.
MIGRATIONS: Final[dict[str, str]] = {"0001": "0001_memory_engine.sql"}
_PG_SCHEMES: Final = ("postgresql://", "postgres://")


class _Cursor(Protocol):
    def execute(self, sql: Any, params: Any = ..., /) -> Any: ...  # pragma: no cover
    def fetchall(self) -> list[Any]: ...  # pragma: no cover


class _Connection(Protocol):
    def commit(self) -> None: ...  # pragma: no cover
    def rollback(self) -> None: ...  # pragma: no cover
    def close(self) -> None: ...  # pragma: no cover


def dumps_json(value: Any) -> str:
    """The JSON text stored in a JSON column: sorted keys, no whitespace, raw UTF-8."""
    return json.dumps(
        value, ensure_ascii=False, sort_keys=True, separators=(",", ":"), allow_nan=False
    )


def migration_sql(version: str) -> list[str]:
    """The statements of one migration file (split at a semicolon ending a line)."""
    text = (
        importlib.resources.files("reference.phase2")
        .joinpath("migrations", MIGRATIONS[version])
        .read_text(encoding="utf-8")
    )
    lines = [line for line in text.splitlines() if not line.lstrip().startswith("--")]
    statements = (part.strip().rstrip(";").strip() for part in "\n".join(lines).split(";\n"))
    return [statement for statement in statements if statement]


class Store:
    """One open database connection; a context manager that closes it."""

    def __init__(self, connection: Any, dialect: Dialect) -> None:
        self._connection: _Connection = connection
        self._cursor: _Cursor = connection.cursor()
        self.dialect: Dialect = dialect

    # -------------------------------------------------------------------- plumbing

    def execute(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """Run one statement (``?`` placeholders); return its rows (empty for DML)."""
        if self.dialect == "postgresql":
            sql = sql.replace("?", "%s")
        self._cursor.execute(sql, tuple(params))
        if sql.lstrip().upper().startswith("SELECT"):
            return [tuple(row) for row in self._cursor.fetchall()]
        return []

    def commit(self) -> None:
        """Commit the current transaction."""
        self._connection.commit()

    def rollback(self) -> None:
        """Roll the current transaction back."""
        self._connection.rollback()

    def close(self) -> None:
        """Close the connection (an open transaction is rolled back)."""
        with contextlib.suppress(Exception):
            self._connection.rollback()
        self._connection.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextlib.contextmanager
    def transaction(self) -> Iterator[Store]:
        """Commit what the block did, or roll it back when the block raises."""
        try:
            yield self
        except BaseException:
            self.rollback()
            raise
        self.commit()

    def set_read_only(self) -> None:
        """Refuse every later write on this connection (the preview endpoint, P2-API-10)."""
        if self.dialect == "sqlite":
            self.execute("PRAGMA query_only = ON")
        else:
            self.execute("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY")
        self.commit()

    def migrate(self) -> None:
        """Apply the migrations not applied yet (idempotent)."""
        with self.transaction():
            for statement in migration_sql("0001"):
                self.execute(statement)
            for version in MIGRATIONS:
                done = self.execute(
                    "SELECT version FROM schema_migrations WHERE version = ?", [version]
                )
                if not done:
                    self.execute("INSERT INTO schema_migrations (version) VALUES (?)", [version])

    # -------------------------------------------------------------------- rows

    def rows(self, table: str, where: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
        """The rows of ``table`` matching ``column = value`` for each item of ``where`` (a
        tuple value: ``column IN (...)``, one of several stored values: P2-INT-16/every-user,
        P2-INT-17/numeric-chat-id).

        JSON columns are decoded; the order is the database's (callers sort).
        """
        columns = [name for name, _ in TABLES[table]]
        sql = f"SELECT {', '.join(columns)} FROM {table}"  # names from TABLES only
        params: list[Any] = []
        if where:
            tests = []
            for name, value in where.items():
                if isinstance(value, tuple):
                    tests.append(f"{name} IN ({', '.join('?' * len(value))})" if value else "0 = 1")
                    params.extend(value)
                else:
                    tests.append(f"{name} = ?")
                    params.append(value)
            sql += " WHERE " + " AND ".join(tests)
        out = []
        for values in self.execute(sql, params):
            row = dict(zip(columns, values, strict=True))
            for name in JSON_COLUMNS.intersection(row):
                row[name] = json.loads(row[name])
            out.append(row)
        return out

    def insert(self, table: str, rows: Sequence[Mapping[str, Any]]) -> None:
        """Insert complete rows (every column of ``table``); JSON columns are encoded."""
        columns = [name for name, _ in TABLES[table]]
        sql = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"
        for row in rows:
            self.execute(
                sql, [dumps_json(row[c]) if c in JSON_COLUMNS else row[c] for c in columns]
            )

    def delete_ids(self, table: str, ids: Sequence[int]) -> None:
        """Delete the rows of ``table`` with these ids."""
        for row_id in ids:
            self.execute(f"DELETE FROM {table} WHERE id = ?", [row_id])

    def next_id(self, table: str) -> int:
        """The id a new row of ``table`` gets: the greatest id + 1, or 1 (P2-INT-23, -25)."""
        ((greatest,),) = self.execute(f"SELECT MAX(id) FROM {table}")
        return 1 if greatest is None else int(greatest) + 1

    # -------------------------------------------------------------------- fixtures

    def load(self, fixture: Any) -> None:
        """Replace the whole content of the database by ``fixture`` (validated first)."""
        state = validate_fixture(fixture)
        with self.transaction():
            for table in TABLES:
                self.execute(f"DELETE FROM {table}")
            for table, rows in state.items():
                self.insert(table, rows)

    def dump(self) -> Fixture:
        """The whole state: every table, rows in ascending id order, JSON columns decoded."""
        state = {table: sorted(self.rows(table), key=lambda r: int(r["id"])) for table in TABLES}
        self.commit()  # end the read transaction
        return state


def _connect_sqlite(target: str) -> Any:
    try:
        return sqlite3.connect(target)
    except sqlite3.Error as exc:
        raise StoreError(f"cannot open SQLite database {target!r}: {exc}") from exc


def _connect_postgresql(url: str) -> Any:
    try:
        import psycopg
    except ImportError as exc:
        raise StoreError(
            "PostgreSQL needs psycopg 3: pip install 'adamos-phase6-conformance[phase2]'"
        ) from exc
    try:
        return psycopg.connect(url)
    except psycopg.Error as exc:
        raise StoreError(f"cannot connect to PostgreSQL: {exc}") from exc


def open_store(url: str, *, migrate: bool = True, read_only: bool = False) -> Store:
    """Open the database named by ``url`` (module docstring); apply the migration unless told
    not to; make the connection read-only when asked."""
    if url.startswith(_PG_SCHEMES):
        store = Store(_connect_postgresql(url), "postgresql")
    else:
        target = url.removeprefix("sqlite://") if url.startswith("sqlite://") else url
        if not target:
            raise StoreError(f"no database path in {url!r}")
        store = Store(_connect_sqlite(target), "sqlite")
    try:
        if migrate:
            store.migrate()
        if read_only:
            store.set_read_only()
    except Exception as exc:
        store.close()
        if isinstance(exc, StoreError):
            raise
        raise StoreError(f"cannot prepare database: {exc}") from exc
    return store
