"""The ``memory.summarize`` job: a summary with provenance (P2-SUM-*, P2-INT-24, P2-INT-25).

P2-SUM-06: "`memory_summaries.summary_text` must be written."
P2-SUM-07: "`memory_summaries.facts_json` must contain extracted facts array/object."
P2-SUM-08: "`memory_summaries.source_event_ids` must contain event IDs used as source."
P2-SUM-09: "`event_log` entry `memory_summary_created` must include summary ID + source count."

1. sources = the user's events in the chat that no summary of (user, chat) covers yet,
   excluding the engine's own event types, by id;
2. no source: nothing is written;
3. text and facts come from any summarizer (``Summarizer``); the reference ships a
   deterministic extractive one, so provenance is testable without a model; the writer checks
   the summarizer's output (non-empty text, facts an array or object);
4. one transaction writes the summary (id = greatest + 1) and its memory_summary_created event.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from reference.phase2._errors import JobError, SummaryError
from reference.phase2._events import ENGINE_EVENT_TYPES, SUMMARY_CREATED, log_event
from reference.phase2._store import Store
from reference.phase2._timestamps import is_timestamp, parse_timestamp

__all__ = [
    "SOURCE_READINGS",
    "SourceEvent",
    "Summarizer",
    "extractive_summarizer",
    "source_events",
    "summarize",
]

_SENTENCE_END: Final = re.compile(r"(?<=[.!?])\s|\n")
_FACT_LIMIT: Final = 160


@dataclass(frozen=True)
class SourceEvent:
    """An event_log row a summary is built from."""

    id: int
    event_type: str
    payload: Mapping[str, Any]
    created_at: str


#: events (by id) -> (summary_text, facts_json)
Summarizer = Callable[[Sequence[SourceEvent]], tuple[str, Any]]


def _first_sentence(text: str) -> str:
    sentence = _SENTENCE_END.split(text.strip(), maxsplit=1)[0].strip()
    return sentence if len(sentence) <= _FACT_LIMIT else sentence[: _FACT_LIMIT - 3] + "..."


def extractive_summarizer(events: Sequence[SourceEvent]) -> tuple[str, list[dict[str, Any]]]:
    """Deterministic: one fact per event (its payload text's first sentence); the text joins them.

    An event without a text payload contributes its type; the summary is never empty.
    """
    facts: list[dict[str, Any]] = []
    for event in events:
        text = event.payload.get("text")
        sentence = _first_sentence(text) if isinstance(text, str) else ""
        facts.append({"event_id": event.id, "event_type": event.event_type, "text": sentence})
    sentences = [fact["text"] for fact in facts if fact["text"]]
    if sentences:
        return " ".join(sentences), facts
    types = sorted({event.event_type for event in events})
    return f"{len(events)} events: {', '.join(types)}", facts


def _uncovered(summaries: list[dict[str, Any]], event: SourceEvent) -> bool:
    """P2-INT-24: the event is in no summary's source_event_ids."""
    return all(event.id not in map(int, row["source_event_ids"]) for row in summaries)


def _after_latest(summaries: list[dict[str, Any]], event: SourceEvent) -> bool:
    """P2-INT-24/since-latest-summary: created after the latest summary's created_at."""
    latest = max((parse_timestamp(row["created_at"]) for row in summaries), default=None)
    return latest is None or parse_timestamp(event.created_at) > latest


#: P2-INT-24 (``Readings.summary_sources``) -> whether an event of (user, chat) is a source,
#: given that pair's summaries: uncovered (pinned), every event each time
#: (P2-INT-24/every-event), or since the latest summary (P2-INT-24/since-latest-summary).
SOURCE_READINGS: Final[dict[str, Callable[[list[dict[str, Any]], SourceEvent], bool]]] = {
    "uncovered": _uncovered,
    "every-event": lambda summaries, event: True,
    "since-latest-summary": _after_latest,
}


def source_events(
    store: Store, user_id: str, chat_id: str, *, reading: str = "uncovered"
) -> list[SourceEvent]:
    """P2-INT-24: the events of (user, chat) no summary covers yet, engine events excluded
    (``reading``: a key of :data:`SOURCE_READINGS`)."""
    summaries = store.rows("memory_summaries", {"user_id": user_id, "chat_id": chat_id})
    is_source = SOURCE_READINGS[reading]
    events = [
        SourceEvent(int(row["id"]), row["event_type"], row["payload"], row["created_at"])
        for row in store.rows("event_log", {"user_id": user_id, "chat_id": chat_id})
        if row["event_type"] not in ENGINE_EVENT_TYPES
    ]
    return sorted(
        (event for event in events if is_source(summaries, event)), key=lambda event: event.id
    )


def _check_inputs(user_id: Any, chat_id: Any, now: Any) -> None:
    """P2-INT-26: user_id, chat_id, then now."""
    for name, value in (("user_id", user_id), ("chat_id", chat_id)):
        if not isinstance(value, str) or value == "" or "\x00" in value:
            raise JobError(name, f"{name} must be a non-empty string, got {value!r}")
    if not is_timestamp(now):
        raise JobError("now", f"now must be YYYY-MM-DDTHH:MM:SSZ, got {now!r}")


def summarize(
    store: Store,
    user_id: str,
    chat_id: str,
    now: str,
    *,
    summarizer: Summarizer = extractive_summarizer,
    sources_reading: str = "uncovered",
) -> dict[str, Any]:
    """Run memory.summarize for (user_id, chat_id) at ``now``; return the event payload
    (``sources_reading``: P2-INT-24, a key of :data:`SOURCE_READINGS`)."""
    _check_inputs(user_id, chat_id, now)
    with store.transaction():
        sources = source_events(store, user_id, chat_id, reading=sources_reading)
        if not sources:
            return {"summary_id": None, "source_count": 0}
        text, facts = summarizer(sources)
        if not isinstance(text, str) or not text or "\x00" in text:
            raise SummaryError(f"the summarizer returned no usable summary_text: {text!r}")
        if not isinstance(facts, list | dict):
            raise SummaryError(f"facts_json must be an array or object, got {type(facts).__name__}")
        summary_id = store.next_id("memory_summaries")
        row = {
            "id": summary_id,
            "user_id": user_id,
            "chat_id": chat_id,
            "summary_text": text,
            "facts_json": facts,
            "source_event_ids": [event.id for event in sources],
            "created_at": now,
        }
        store.insert("memory_summaries", [row])
        payload = {"summary_id": summary_id, "source_count": len(sources)}
        log_event(store, SUMMARY_CREATED, payload, now, user_id=user_id, chat_id=chat_id)
    return payload
