"""Storage on SQLite and PostgreSQL: the migration, load and dump, read-only connections."""

from __future__ import annotations

import importlib.resources
from typing import Any

import pytest

from reference.phase2 import TABLES, FixtureError, StoreError, open_store, validate_fixture
from reference.phase2._store import MIGRATIONS, migration_sql

_FIXTURE: dict[str, Any] = {
    "memory_summaries": [
        {
            "id": 2,
            "user_id": "u1",
            "chat_id": "c1",
            "summary_text": "héllo ✓ 😀",
            "facts_json": {"k": [1, 2.5, None, True]},
            "source_event_ids": [3, 1],
            "created_at": "2024-05-01T10:00:00Z",
        },
    ],
    "event_log": [
        {
            "id": 9,
            "user_id": None,
            "chat_id": None,
            "event_type": "x",
            "payload": {},
            "created_at": "2024-05-01T10:00:00Z",
        },
        {
            "id": 1,
            "user_id": "u1",
            "chat_id": "c1",
            "event_type": "inbox_item_received",
            "payload": {"text": "a\nb"},
            "created_at": "1970-01-01T00:00:00Z",
        },
    ],
    "inbox_items": [
        {
            "id": 9007199254740991,
            "user_id": "u1",
            "chat_id": "c1",
            "text": "",
            "created_at": "9999-12-31T23:59:59Z",
        },
    ],
    "entities": [
        {
            "id": 1,
            "user_id": "u1",
            "kind": "problem",
            "title": "t",
            "updated_at": "2024-02-29T00:00:00Z",
        },
    ],
    "entity_links": [{"id": 1, "from_entity_id": 1, "to_entity_id": 7}],
}


class TestMigration:
    """P2-MIG-01: one migration file, portable, applied on open."""

    def test_one_migration_file(self) -> None:
        """The migrations directory holds exactly the one file MIGRATIONS names, and its
        statements create the five tables and the migration ledger."""
        folder = importlib.resources.files("reference.phase2").joinpath("migrations")
        names = sorted(p.name for p in folder.iterdir() if p.name.endswith(".sql"))
        assert names == list(MIGRATIONS.values()) == ["0001_memory_engine.sql"]
        creates = [s for s in migration_sql("0001") if s.startswith("CREATE TABLE")]
        assert len(creates) == len(TABLES) + 1

    def test_applied_once_and_idempotent(self, db_url: str) -> None:
        """Opening twice applies the migration once; the ledger records version 0001."""
        with open_store(db_url) as store:
            store.migrate()
        with open_store(db_url) as store:
            assert store.execute("SELECT version FROM schema_migrations") == [("0001",)]


class TestLoadDump:
    """A fixture loaded and dumped comes back equal, on both engines."""

    def test_round_trip(self, db_url: str) -> None:
        """Every column type survives: JSON values, null keys, 2^53 - 1 ids, non-BMP text."""
        with open_store(db_url) as store:
            store.load(_FIXTURE)
            assert store.dump() == validate_fixture(_FIXTURE)

    def test_load_replaces_everything(self, db_url: str) -> None:
        """A second load leaves exactly the second fixture."""
        with open_store(db_url) as store:
            store.load(_FIXTURE)
            store.load({"entities": _FIXTURE["entities"]})
            state = store.dump()
        assert state == {**{t: [] for t in TABLES}, "entities": _FIXTURE["entities"]}

    def test_dump_orders_by_id(self, db_url: str) -> None:
        """Rows come back in ascending id order whatever the load order."""
        with open_store(db_url) as store:
            store.load(_FIXTURE)
            assert [row["id"] for row in store.dump()["event_log"]] == [1, 9]


class TestReadOnly:
    """The preview connection cannot write (P2-API-10)."""

    def test_writes_refused(self, db_url: str) -> None:
        """An insert on a read-only connection raises, and nothing changes."""
        with open_store(db_url) as store:
            store.load(_FIXTURE)
        with open_store(db_url, read_only=True) as store:
            with pytest.raises(
                Exception, match=r"(?i)read.only|readonly|query_only|attempt to write"
            ):
                store.execute("DELETE FROM entities")
            store.rollback()
        with open_store(db_url) as store:
            assert store.dump() == validate_fixture(_FIXTURE)


class TestFixtureErrors:
    """validate_fixture names the first offending JSON Pointer."""

    @pytest.mark.parametrize(
        ("document", "path"),
        [
            ([], ""),
            ({"users": []}, "/users"),
            ({"entities": {}}, "/entities"),
            ({"entities": [{"id": 1}]}, "/entities/0"),
            (
                {"entity_links": [{"id": 0, "from_entity_id": 1, "to_entity_id": 1}]},
                "/entity_links/0/id",
            ),
            ({"entities": [{**_FIXTURE["entities"][0], "kind": "idea"}]}, "/entities/0/kind"),
            (
                {"entities": [{**_FIXTURE["entities"][0], "updated_at": "2024-02-30T00:00:00Z"}]},
                "/entities/0/updated_at",
            ),
            (
                {"inbox_items": [{**_FIXTURE["inbox_items"][0], "text": "a\x00"}]},
                "/inbox_items/0/text",
            ),
            (
                {"memory_summaries": [{**_FIXTURE["memory_summaries"][0], "facts_json": "x"}]},
                "/memory_summaries/0/facts_json",
            ),
            ({"entities": [_FIXTURE["entities"][0], _FIXTURE["entities"][0]]}, "/entities/1/id"),
            ({"event_log": [{**_FIXTURE["event_log"][0], "user_id": ""}]}, "/event_log/0/user_id"),
        ],
    )
    def test_rejected(self, document: Any, path: str) -> None:
        """Each malformed fixture is refused with the path of the fault."""
        with pytest.raises(FixtureError) as caught:
            validate_fixture(document)
        assert caught.value.field == path

    def test_bad_url(self) -> None:
        """An unusable database is a StoreError, not a crash."""
        with pytest.raises(StoreError):
            open_store("sqlite:///nonexistent-directory/x/y.db")
