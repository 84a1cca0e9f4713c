"""The five functions the spec names, on SQLite and PostgreSQL (P2-FN-*, P2-ASM-*, P2-BUD-*)."""

from __future__ import annotations

import ast
import inspect
import pathlib
from collections.abc import Callable
from typing import Any

import pytest

import reference.phase2 as engine
from reference.phase2 import (
    POLICY_SNIPPET,
    Block,
    Config,
    Draft,
    ParameterError,
    assemble_context,
    enforce_budget,
    open_store,
    select_hot_turns,
    select_related_entities,
    select_warm_summaries,
    terms,
)

T = "2024-05-01T10:00:00Z"


def _turn(row_id: int, at: str, user: str = "u1", chat: str = "c1") -> dict[str, Any]:
    return {"id": row_id, "user_id": user, "chat_id": chat, "text": f"t{row_id}", "created_at": at}


def _entity(row_id: int, title: str, at: str = T, user: str = "u1") -> dict[str, Any]:
    return {"id": row_id, "user_id": user, "kind": "task", "title": title, "updated_at": at}


def _link(row_id: int, a: int, b: int) -> dict[str, Any]:
    return {"id": row_id, "from_entity_id": a, "to_entity_id": b}


def _positional(function: Callable[..., object]) -> list[str]:
    """The names of ``function``'s parameters that are not keyword-only."""
    parameters = inspect.signature(function).parameters.values()
    return [p.name for p in parameters if p.kind is not p.KEYWORD_ONLY]


class TestInterfaces:
    """P2-FN-01..05: the functions exist with the spec's parameters."""

    def test_assemble_context(self) -> None:
        """assemble_context(user_id, chat_id, query, max_tokens) -> dict (plus the store)."""
        names = list(inspect.signature(assemble_context).parameters)
        assert names[1:5] == ["user_id", "chat_id", "query", "max_tokens"]

    def test_select_hot_turns(self) -> None:
        """select_hot_turns(user_id, chat_id, limit); the reading of P2-INT-07 is keyword-only."""
        assert _positional(select_hot_turns)[1:] == [
            "user_id",
            "chat_id",
            "limit",
        ]

    def test_select_warm_summaries(self) -> None:
        """select_warm_summaries(user_id, chat_id); the reading of P2-INT-06 is keyword-only."""
        assert _positional(select_warm_summaries)[1:] == [
            "user_id",
            "chat_id",
        ]

    def test_select_related_entities(self) -> None:
        """select_related_entities(user_id, query, limit): no chat (P2-ASM-09); the reading of
        P2-INT-08 is keyword-only."""
        parameters = inspect.signature(select_related_entities).parameters.values()
        positional = [p.name for p in parameters if p.kind is not p.KEYWORD_ONLY]
        assert positional[1:] == [
            "user_id",
            "query",
            "limit",
        ]

    def test_enforce_budget(self) -> None:
        """enforce_budget(draft, budget); the readings of P2-INT-04, -10, -11 are keyword-only."""
        assert _positional(enforce_budget) == ["draft", "budget"]

    def test_public_surface(self) -> None:
        """__all__ names exactly what the package exports, all of it importable."""
        for name in engine.__all__:
            assert hasattr(engine, name), name


class TestSelectors:
    """The three layers, selected in the database (P2-INT-06..09)."""

    def test_hot_turns_latest_oldest_first(self, db_url: str) -> None:
        """The latest `limit` turns of user + chat, ties by greater id, listed oldest first."""
        turns = [_turn(k, T) for k in range(1, 6)] + [_turn(9, "2024-04-01T00:00:00Z")]
        turns += [_turn(20, T, user="u2"), _turn(21, T, chat="c2")]
        with open_store(db_url) as store:
            store.load({"inbox_items": turns})
            picked = select_hot_turns(store, "u1", "c1", 3)
        assert [t.id for t in picked] == [3, 4, 5]

    def test_warm_summaries_one_latest(self, db_url: str) -> None:
        """One summary at most: the latest of user + chat."""
        rows = [
            {
                "id": k,
                "user_id": "u1",
                "chat_id": "c1",
                "summary_text": str(k),
                "facts_json": [],
                "source_event_ids": [],
                "created_at": at,
            }
            for k, at in [(1, "2024-05-02T00:00:00Z"), (2, T), (3, "2024-05-02T00:00:00Z")]
        ]
        with open_store(db_url) as store:
            store.load({"memory_summaries": rows})
            assert [s.id for s in select_warm_summaries(store, "u1", "c1")] == [3]
            assert select_warm_summaries(store, "u1", "c9") == ()

    def test_related_entities_distance_then_recency(self, db_url: str) -> None:
        """Seeds at 0, neighbours by BFS over undirected links, ranked, limited."""
        entities = [
            _entity(1, "Renew passport", "2024-05-01T08:00:00Z"),
            _entity(2, "Flights", "2024-05-01T12:00:00Z"),
            _entity(3, "Hotel", "2024-05-01T11:00:00Z"),
            _entity(4, "passport photo", "2024-05-01T09:00:00Z"),
            _entity(5, "Unrelated", "2024-05-01T13:00:00Z"),
            _entity(6, "passport", "2024-05-01T13:00:00Z", user="u2"),
        ]
        links = [_link(1, 2, 1), _link(2, 3, 2), _link(3, 6, 5)]
        with open_store(db_url) as store:
            store.load({"entities": entities, "entity_links": links})
            related = select_related_entities(store, "u1", "PASSPORT", 25)
            limited = select_related_entities(store, "u1", "passport", 2)
        assert [(r.entity.id, r.distance) for r in related] == [(4, 0), (1, 0), (2, 1), (3, 2)]
        assert [r.entity.id for r in limited] == [4, 1]

    def test_terms_ascii_runs(self) -> None:
        """ASCII letters and digits, lowercased; everything else separates (P2-INT-08)."""
        assert terms("Q3-Report: café, NAÏVE x2") == {"q3", "report", "caf", "na", "ve", "x2"}


class TestBudget:
    """enforce_budget: hot oldest first, entities from the end, then the summary."""

    def _draft(self) -> Draft:
        return Draft(
            policy=Block("policy", None, "p", 10),
            summaries=(Block("summary", 1, "s", 5),),
            hot=(Block("hot_turn", 1, "h1", 3), Block("hot_turn", 2, "h2", 1)),
            entities=(Block("entity", 1, "e1", 4), Block("entity", 2, "e2", 2)),
            query=Block("query", None, "q", 2),
        )

    @pytest.mark.parametrize(
        ("budget", "hot", "entities", "summary", "total"),
        [
            (27, [1, 2], [1, 2], True, 27),
            (26, [2], [1, 2], True, 24),
            (24, [2], [1, 2], True, 24),
            (23, [], [1, 2], True, 23),
            (22, [], [1], True, 21),
            (17, [], [], True, 17),
            (16, [], [], False, 12),
            (11, [], [], False, 12),
        ],
    )
    def test_trim_stages(
        self, budget: int, hot: list[int], entities: list[int], summary: bool, total: int
    ) -> None:
        """Each budget stops the loop at the stage P2-INT-10..12 say."""
        trimmed = enforce_budget(self._draft(), budget)
        assert [b.id for b in trimmed.hot] == hot
        assert [b.id for b in trimmed.entities] == entities
        assert bool(trimmed.summaries) == summary
        assert trimmed.total == total

    def test_custom_config(self, db_url: str) -> None:
        """A deployment's settings change the cap and the limits (defaults are P2-CFG-*)."""
        config = Config(context_max_tokens=25, hot_turns_limit=1, related_entities_limit=1)
        with open_store(db_url) as store:
            store.load(
                {
                    "inbox_items": [_turn(1, T), _turn(2, T)],
                    "entities": [_entity(1, "q"), _entity(2, "q")],
                }
            )
            body = assemble_context(store, "u1", "c1", "q", 100, config=config)
        assert body["budget"] == {"requested": 100, "applied": 25, "estimated_used": 23}  # 19+1+2+1
        assert [b["id"] for b in body["context"]] == [None, 2, 2, None]

    @pytest.mark.parametrize("bad", [0, -1, True, 1.5])
    def test_bad_max_tokens(self, bad: Any) -> None:
        """assemble_context refuses a non-positive or non-integer budget."""
        with open_store(":memory:") as store, pytest.raises(ParameterError):
            assemble_context(store, "u1", "c1", "q", bad)

    def test_policy_and_query_always(self, db_url: str) -> None:
        """With a 1-token budget the context is [policy, query] (P2-BUD-01, P2-INT-12)."""
        with open_store(db_url) as store:
            body = assemble_context(store, "u1", "c1", "a question", 1)
        assert [b["text"] for b in body["context"]] == [POLICY_SNIPPET, "a question"]
        assert body["budget"]["estimated_used"] > body["budget"]["applied"]


class TestDeterminism:
    """P2-DET-01, P2-DET-02: no clock, no randomness, stable order."""

    def test_no_clock_no_randomness(self) -> None:
        """No module of the engine imports random, secrets, uuid or time, or calls now()."""
        folder = pathlib.Path(engine.__file__).parent
        for path in sorted(folder.glob("*.py")):
            tree = ast.parse(path.read_text("utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, ast.Import | ast.ImportFrom):
                    names = [a.name for a in node.names] + [getattr(node, "module", None) or ""]
                    assert not {"random", "secrets", "uuid", "time"} & set(names), path.name
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                    assert node.func.attr not in {"now", "utcnow", "today", "time_ns"}, path.name

    def test_same_answer_twice(self, db_url: str) -> None:
        """Two calls on one database give the same envelope."""
        with open_store(db_url) as store:
            store.load(
                {"inbox_items": [_turn(k, T) for k in range(1, 12)], "entities": [_entity(1, "q")]}
            )
            first = assemble_context(store, "u1", "c1", "q", 30)
            assert assemble_context(store, "u1", "c1", "q", 30) == first
