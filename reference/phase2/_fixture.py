"""The data model as data: the five tables, their columns and how each column is checked
(P2-INT-19, specs/schemas/phase2/fixture.schema.json).

A fixture (what ``load`` puts into a database) and a state (what ``dump`` reads back) have one
shape: ``{table: [row, ...]}`` with JSON columns as JSON values. :func:`validate_fixture`
checks a fixture completely and returns it with every table present and rows in id order.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from reference.phase2._errors import FixtureError
from reference.phase2._timestamps import is_timestamp

__all__ = ["JSON_COLUMNS", "MAX_ID", "TABLES", "Fixture", "empty_state", "validate_fixture"]

Fixture = dict[str, list[dict[str, Any]]]
MAX_ID: Final = 2**53 - 1
KINDS: Final = frozenset({"task", "goal", "problem"})


def _is_id(value: Any) -> bool:
    return type(value) is int and 1 <= value <= MAX_ID


def _is_key(value: Any) -> bool:
    return isinstance(value, str) and value != "" and "\x00" not in value


def _is_text(value: Any) -> bool:
    return isinstance(value, str) and "\x00" not in value


def _is_nullable_key(value: Any) -> bool:
    return value is None or _is_key(value)


def _is_facts(value: Any) -> bool:
    return isinstance(value, list | dict)


def _is_id_list(value: Any) -> bool:
    return isinstance(value, list) and all(_is_id(item) for item in value)


#: check name -> (predicate, what a valid value is).
CHECKS: Final[dict[str, tuple[Callable[[Any], bool], str]]] = {
    "id": (_is_id, "an integer from 1 to 2^53 - 1"),
    "key": (_is_key, "a non-empty string without U+0000"),
    "nullable_key": (_is_nullable_key, "null or a non-empty string without U+0000"),
    "text": (_is_text, "a string without U+0000"),
    "event_type": (_is_key, "a non-empty string without U+0000"),
    "timestamp": (is_timestamp, "a timestamp YYYY-MM-DDTHH:MM:SSZ (1970..9999)"),
    "facts": (_is_facts, "a JSON array or object"),
    "id_list": (_is_id_list, "an array of ids"),
    "object": (lambda value: isinstance(value, dict), "a JSON object"),
    "kind": (lambda value: value in KINDS, "one of task, goal, problem"),
}

#: table -> ((column, check), ...), in the migration's column order. One table, one place.
TABLES: Final[dict[str, tuple[tuple[str, str], ...]]] = {
    "memory_summaries": (
        ("id", "id"),
        ("user_id", "key"),
        ("chat_id", "key"),
        ("summary_text", "text"),
        ("facts_json", "facts"),
        ("source_event_ids", "id_list"),
        ("created_at", "timestamp"),
    ),
    "event_log": (
        ("id", "id"),
        ("user_id", "nullable_key"),
        ("chat_id", "nullable_key"),
        ("event_type", "event_type"),
        ("payload", "object"),
        ("created_at", "timestamp"),
    ),
    "inbox_items": (
        ("id", "id"),
        ("user_id", "key"),
        ("chat_id", "key"),
        ("text", "text"),
        ("created_at", "timestamp"),
    ),
    "entities": (
        ("id", "id"),
        ("user_id", "key"),
        ("kind", "kind"),
        ("title", "text"),
        ("updated_at", "timestamp"),
    ),
    "entity_links": (("id", "id"), ("from_entity_id", "id"), ("to_entity_id", "id")),
}

#: Columns stored as JSON text and exchanged as JSON values.
JSON_COLUMNS: Final = frozenset({"facts_json", "source_event_ids", "payload"})


def empty_state() -> Fixture:
    """Every table, no rows."""
    return {table: [] for table in TABLES}


def validate_fixture(document: Any) -> Fixture:
    """Check ``document`` against the data model; return it with every table, rows by id.

    Raises :class:`FixtureError` naming the first offending JSON Pointer.
    """
    if not isinstance(document, Mapping):
        raise FixtureError("", f"a fixture is a JSON object, got {type(document).__name__}")
    for table in document:
        if table not in TABLES:
            raise FixtureError(f"/{table}", "unknown table")
    out = empty_state()
    for table, columns in TABLES.items():
        rows = document.get(table, [])
        if not isinstance(rows, list):
            raise FixtureError(f"/{table}", "a table is a JSON array of rows")
        names = {name for name, _ in columns}
        seen: set[int] = set()
        for index, row in enumerate(rows):
            where = f"/{table}/{index}"
            if not isinstance(row, Mapping) or set(row) != names:
                raise FixtureError(where, f"a row has exactly the members {sorted(names)}")
            for name, check in columns:
                predicate, meaning = CHECKS[check]
                if not predicate(row[name]):
                    raise FixtureError(f"{where}/{name}", f"must be {meaning}, got {row[name]!r}")
            if row["id"] in seen:
                raise FixtureError(f"{where}/id", f"duplicate id {row['id']}")
            seen.add(row["id"])
            out[table].append({name: row[name] for name, _ in columns})
        out[table].sort(key=lambda row: int(row["id"]))
    return out
