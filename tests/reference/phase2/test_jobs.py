"""memory.compact and memory.summarize on SQLite and PostgreSQL (P2-CMP-*, P2-SUM-*)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from reference.phase2 import (
    JobError,
    SourceEvent,
    SummaryError,
    compact,
    extractive_summarizer,
    open_store,
    run_job,
    summarize,
)

NOW = "2024-06-30T12:00:00Z"


def _event(
    row_id: int,
    event_type: str = "inbox_item_received",
    text: str | None = "Hi there. More.",
    chat: str = "c1",
) -> dict[str, Any]:
    payload = {} if text is None else {"text": text}
    return {
        "id": row_id,
        "user_id": "u1",
        "chat_id": chat,
        "event_type": event_type,
        "payload": payload,
        "created_at": "2024-05-01T10:00:00Z",
    }


class TestCompact:
    """The cutoff, the deletion and the event."""

    def test_compacts(self, db_url: str) -> None:
        """Old items go, the rest and every other table stay, one event is logged."""
        items = [
            {
                "id": 1,
                "user_id": "u1",
                "chat_id": "c1",
                "text": "old",
                "created_at": "2024-05-31T11:59:59Z",
            },
            {
                "id": 2,
                "user_id": "u2",
                "chat_id": "c2",
                "text": "edge",
                "created_at": "2024-05-31T12:00:00Z",
            },
        ]
        with open_store(db_url) as store:
            store.load({"inbox_items": items, "event_log": [_event(4)]})
            result = compact(store, NOW)
            state = store.dump()
        assert result == {
            "retention_days": 30,
            "cutoff": "2024-05-31T12:00:00Z",
            "inbox_items_removed": 1,
            "inbox_items_retained": 1,
        }
        assert [row["id"] for row in state["inbox_items"]] == [2]
        assert state["event_log"][-1] == {
            "id": 5,
            "user_id": None,
            "chat_id": None,
            "event_type": "memory_compaction_completed",
            "payload": result,
            "created_at": NOW,
        }

    @pytest.mark.parametrize("now", ["", "2024-06-30", "2024-06-30T12:00:00.5Z", None, 5])
    def test_bad_now(self, now: Any) -> None:
        """An unusable now is a JobError; run_job turns it into the invalid_job result."""
        with open_store(":memory:") as store:
            with pytest.raises(JobError):
                compact(store, now)
            assert run_job(store, {"op": "compact", "now": now})["error"]["param"] == "now"
            assert store.dump()["event_log"] == []


class TestProvenance:
    """P2-SUM-*: text, facts, source ids and the memory_summary_created event."""

    def test_columns_hold_json(self, db_url: str) -> None:
        """P2-SUM-03: facts_json is an array and source_event_ids an array of ids, read back as
        JSON from the database, and the event payload names the summary and its source count."""
        with open_store(db_url) as store:
            store.load(
                {"event_log": [_event(1), _event(2, "task_created", None), _event(3, chat="c2")]}
            )
            result = summarize(store, "u1", "c1", NOW)
            state = store.dump()
        (row,) = state["memory_summaries"]
        assert result == {"summary_id": 1, "source_count": 2}
        assert row["source_event_ids"] == [1, 2]
        assert isinstance(row["facts_json"], list)
        assert row["summary_text"] == "Hi there."
        assert row["facts_json"] == [
            {"event_id": 1, "event_type": "inbox_item_received", "text": "Hi there."},
            {"event_id": 2, "event_type": "task_created", "text": ""},
        ]
        assert state["event_log"][-1]["payload"] == result
        assert state["event_log"][-1]["event_type"] == "memory_summary_created"

    def test_second_run_takes_only_new_events(self, db_url: str) -> None:
        """Events a summary covers are not summarized again; nothing new, nothing written."""
        with open_store(db_url) as store:
            store.load({"event_log": [_event(1)]})
            assert summarize(store, "u1", "c1", NOW) == {"summary_id": 1, "source_count": 1}
            assert summarize(store, "u1", "c1", NOW) == {"summary_id": None, "source_count": 0}
            store.insert("event_log", [_event(10)])
            store.commit()
            assert summarize(store, "u1", "c1", NOW) == {"summary_id": 2, "source_count": 1}
            assert store.dump()["memory_summaries"][-1]["source_event_ids"] == [10]

    def test_any_summarizer(self, db_url: str) -> None:
        """Text and facts may come from any summarizer; provenance is the writer's."""

        def model(events: Sequence[SourceEvent]) -> tuple[str, Any]:
            return "a model's summary", {"topics": [e.event_type for e in events]}

        with open_store(db_url) as store:
            store.load({"event_log": [_event(1), _event(2)]})
            summarize(store, "u1", "c1", NOW, summarizer=model)
            (row,) = store.dump()["memory_summaries"]
        assert row["facts_json"] == {"topics": ["inbox_item_received", "inbox_item_received"]}
        assert row["source_event_ids"] == [1, 2]

    @pytest.mark.parametrize("output", [("", []), ("text", "facts"), ("text", None)])
    def test_bad_summarizer_writes_nothing(self, db_url: str, output: tuple[str, Any]) -> None:
        """A summarizer that breaks the contract is refused and the transaction rolled back."""
        with open_store(db_url) as store:
            store.load({"event_log": [_event(1)]})
            with pytest.raises(SummaryError):
                summarize(store, "u1", "c1", NOW, summarizer=lambda events: output)
            state = store.dump()
        assert state["memory_summaries"] == []
        assert len(state["event_log"]) == 1

    def test_extractive_is_deterministic(self) -> None:
        """The shipped summarizer is a pure function of the events."""
        events = [SourceEvent(1, "x", {"text": "First. Second"}, NOW), SourceEvent(2, "y", {}, NOW)]
        assert extractive_summarizer(events) == extractive_summarizer(list(events))
        assert extractive_summarizer([SourceEvent(2, "y", {}, NOW)])[0] == "1 events: y"
