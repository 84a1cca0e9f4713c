"""Hypothesis strategies for the Phase 2 profile: fixtures over the fixture schema, and calls.

    from hypothesis import given
    from conformance.phase2 import fixtures, examples

    @given(examples())
    def test_my_engine(example):
        observed = my_engine(example.fixture, example.call_a)

:func:`fixtures` draws every table of ``specs/schemas/phase2/fixture.schema.json`` (absent
tables too), with keys, words and timestamps from small pools so that rows match a call's
user, chat and query often, timestamps and ids tie, and texts hold the characters estimators
get wrong (non-ASCII letters, an emoji, every kind of whitespace of P2-INT-02). A whole draft
stays far below ``MEMORY_CONTEXT_MAX_TOKENS``, so a call without ``max_tokens`` trims nothing:
the trim-order property compares it with the same call under a small budget.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Final

from hypothesis import strategies as st

from conformance.phase2._readings import CheckReadings

__all__ = ["Example", "examples", "fixtures", "texts", "timestamps"]

#: Keys: a user, another user, and a chat id that is also a user (P2-INT-16: no user_id
#: parameter means user = chat_id).
USERS: Final = ("u1", "u2", "c1")
CHATS: Final = ("c1", "c2")
WORDS: Final = (
    "passport", "renew", "flight", "book", "tax", "report", "garden", "plan", "a", "b",
    "héllo", "日本語", "😀", "x-ray", "Passport",
)  # fmt: skip
SEPARATORS: Final = (" ", " ", " ", "  ", "\t", "\n", "\u00a0", "\u2028", "\u3000", "\u200b")
KINDS: Final = ("task", "goal", "problem")
EVENT_TYPES: Final = ("inbox_item_received", "note_added", "memory_summary_created")
_EPOCH: Final = datetime(2024, 4, 1, tzinfo=UTC)
#: Budgets small enough to trim the drafts drawn, and values P2-INT-14 refuses.
_BAD_BUDGETS: Final = ("0", "-1", "", "1e3", "+5", " 7")
#: What kind of budget call A gets: mostly one below the whole draft (trimming), sometimes one
#: refused (400: the no-writes rule holds for errors too) or one above the 3000 cap.
_BUDGET_KINDS: Final = st.sampled_from(("draft",) * 6 + ("refused", "any"))


@functools.cache
def timestamps() -> st.SearchStrategy[str]:
    """``YYYY-MM-DDTHH:MM:SSZ`` within 60 days of 2024-04-01, whole hours often (ties)."""
    seconds = st.one_of(
        st.integers(0, 60 * 86400).map(lambda s: s - s % 3600),
        st.integers(0, 60 * 86400),
    )
    return seconds.map(lambda s: (_EPOCH + timedelta(seconds=s)).strftime("%Y-%m-%dT%H:%M:%SZ"))


@functools.cache
def texts(min_words: int = 0, max_words: int = 8) -> st.SearchStrategy[str]:
    """Words of :data:`WORDS` joined by separators of :data:`SEPARATORS` (U+200B is not
    whitespace: it joins two words into one, P2-INT-02)."""

    words = st.lists(st.sampled_from(WORDS), min_size=min_words, max_size=max_words)
    separators = st.sampled_from(SEPARATORS)

    @st.composite
    def build(draw: st.DrawFn) -> str:
        out = ""
        for index, word in enumerate(draw(words)):
            out += (draw(separators) if index else "") + word
        return out

    return build()


_USER = st.sampled_from(USERS)
_CHAT = st.sampled_from(CHATS)
_MAYBE_USER = st.one_of(st.none(), _USER)
_MAYBE_CHAT = st.one_of(st.none(), _CHAT)
_KIND = st.sampled_from(KINDS)
_EVENT_TYPE = st.sampled_from(EVENT_TYPES)
_PAYLOAD = st.sampled_from([{}, {"text": "renew passport"}])
_FACTS = st.sampled_from([[], {}, ["passport"], {"trip": "flight"}])
_SOURCES = st.sets(st.integers(1, 60), max_size=3).map(sorted)
_SIZES = {n: st.integers(0, n) for n in (3, 8, 12)}


@functools.cache
def _id_lists(size: int) -> st.SearchStrategy[list[int]]:
    return st.lists(st.integers(1, 60), min_size=size, max_size=size, unique=True)


def _ids(draw: st.DrawFn, most: int) -> list[int]:
    return draw(_id_lists(draw(_SIZES[most])))


@functools.cache
def _keys(favourite: str | None, pool: tuple[str, ...]) -> st.SearchStrategy[str]:
    """A key of ``pool``, ``favourite`` (the call's) more often than the others."""
    if favourite is None:
        return st.sampled_from(pool)
    return st.sampled_from((favourite, favourite, favourite, *pool))


@st.composite
def fixtures(draw: st.DrawFn, user: str | None = None, chat: str | None = None) -> dict[str, Any]:
    """A fixture: every table drawn, empty ones sometimes left out; rows belong to ``user``
    and ``chat`` (a call's) more often than to others."""
    users, chats = _keys(user, USERS), _keys(chat, CHATS)
    events = [
        {
            "id": row_id,
            "user_id": draw(_MAYBE_USER),
            "chat_id": draw(_MAYBE_CHAT),
            "event_type": draw(_EVENT_TYPE),
            "payload": draw(_PAYLOAD),
            "created_at": draw(timestamps()),
        }
        for row_id in _ids(draw, 3)
    ]
    summaries = [
        {
            "id": row_id,
            "user_id": draw(users),
            "chat_id": draw(chats),
            "summary_text": draw(texts(0, 12)),
            "facts_json": draw(_FACTS),
            "source_event_ids": draw(_SOURCES),
            "created_at": draw(timestamps()),
        }
        for row_id in _ids(draw, 3)
    ]
    inbox = [
        {
            "id": row_id,
            "user_id": draw(users),
            "chat_id": draw(chats),
            "text": draw(texts(0, 8)),
            "created_at": draw(timestamps()),
        }
        for row_id in _ids(draw, 12)
    ]
    entity_ids = _ids(draw, 8)
    entities = [
        {
            "id": row_id,
            "user_id": draw(users),
            "kind": draw(_KIND),
            "title": draw(texts(1, 4)),
            "updated_at": draw(timestamps()),
        }
        for row_id in entity_ids
    ]
    ends = st.sampled_from([*entity_ids, 61]) if entity_ids else st.just(61)
    links = [
        {"id": row_id, "from_entity_id": draw(ends), "to_entity_id": draw(ends)}
        for row_id in _ids(draw, 8)
    ]
    tables = (
        ("memory_summaries", summaries),
        ("event_log", events),
        ("inbox_items", inbox),
        ("entities", entities),
        ("entity_links", links),
    )
    # an empty table is sometimes left out: absent means empty (P2-INT-19)
    return {name: rows for name, rows in tables if rows or draw(st.booleans())}


@dataclass(frozen=True)
class Example:
    """One generated case: a fixture; a context call A with ``max_tokens``, the same call B
    without it (trims nothing); and a time ``now`` for a compaction run."""

    fixture: dict[str, Any]
    params_a: tuple[tuple[str, str], ...]
    params_b: tuple[tuple[str, str], ...]
    now: str

    @property
    def call_a(self) -> dict[str, Any]:
        """The budgeted context call."""
        return {"op": "context", "params": [list(p) for p in self.params_a]}

    @property
    def call_b(self) -> dict[str, Any]:
        """The same call without max_tokens (applied: MEMORY_CONTEXT_MAX_TOKENS)."""
        return {"op": "context", "params": [list(p) for p in self.params_b]}

    @property
    def compact_call(self) -> dict[str, Any]:
        """A memory.compact run at ``now``."""
        return {"op": "compact", "now": self.now}

    def to_json(self) -> dict[str, Any]:
        """The report form of a counterexample."""
        return {
            "fixture": self.fixture,
            "calls": [self.call_a, self.call_b, self.compact_call],
        }


def _untrimmed_bound(
    fixture: dict[str, Any], user: str, chat: str, query: str, readings: CheckReadings
) -> int:
    """An upper bound of the tokens of the call's whole draft (P2-INT-01, -03, -04): every row
    of the user (and chat) counted, so budgets up to it can make an engine trim any layer. The
    policy text and the whitespace are the reading profile's (``readings``)."""
    estimate = readings.estimate
    total = estimate(readings.policy) + estimate(query)
    total += sum(
        estimate(row["summary_text"])
        for row in fixture.get("memory_summaries", [])
        if (row["user_id"], row["chat_id"]) == (user, chat)
    )
    total += sum(
        estimate(row["text"])
        for row in fixture.get("inbox_items", [])
        if (row["user_id"], row["chat_id"]) == (user, chat)
    )
    total += sum(
        estimate(f"{row['kind']}: {row['title']}")
        for row in fixture.get("entities", [])
        if row["user_id"] == user
    )
    return total


@st.composite
def examples(draw: st.DrawFn, readings: CheckReadings | None = None) -> Example:
    """A fixture and the calls the properties make on it; the budget of call A is drawn up to
    the whole draft's tokens, where trimming happens, counted under ``readings`` (the
    implementation's reading profile; default: the pinned readings, whose draws are the same
    as before readings existed)."""
    chat = draw(_CHAT)
    user = draw(_MAYBE_USER)
    fixture = draw(fixtures(user or chat, chat))
    query = draw(texts(1, 3))  # at least one word: never blank
    bound = _untrimmed_bound(fixture, user or chat, chat, query, readings or CheckReadings())
    kind = draw(_BUDGET_KINDS)
    if kind == "refused":
        budget = draw(st.sampled_from(_BAD_BUDGETS))
    else:
        budget = str(draw(st.integers(1, max(1, bound) if kind == "draft" else 4000)))
    base = [("chat_id", chat)] + ([("user_id", user)] if user is not None else [])
    base.append(("query", query))
    return Example(
        fixture=fixture,
        params_a=(*base, ("max_tokens", budget)),
        params_b=tuple(base),
        now=draw(timestamps()),
    )
