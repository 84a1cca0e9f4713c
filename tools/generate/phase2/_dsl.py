"""Constructors for hand-written Phase 2 vectors: rows, calls, blocks and expectations.

Nothing here decides an expected value. The author of each vector writes by hand, from the
spec and specs/phase2/interpretations.toml: which blocks the context holds, in which order,
each block's tokens, the budget numbers, error codes, job results and the state changes; the
working goes into ``comment``. The helpers only do mechanical things: count blocks per layer
for ``sources`` (after asserting that the hand-written ``estimated_used`` equals the sum of the
hand-written block tokens), and apply hand-decided row changes to a fixture to write a state.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Sequence
from typing import Any, Final

__all__ = [
    "POLICY",
    "POLICY_TEXT",
    "C",
    "U",
    "after",
    "blk",
    "call",
    "ctx",
    "entity",
    "err",
    "event",
    "fixture",
    "job",
    "job_err",
    "link",
    "ok",
    "qry",
    "summary",
    "ts",
    "turn",
    "vec",
]

Json = Any
U: Final = "u1"
C: Final = "c1"
#: P2-INT-04: 75 code points, 12 words -> max(12, ceil(75/4) = 19) = 19 tokens.
POLICY_TEXT: Final = "Memory policy: answer from the context below; prefer the most recent facts."


def ts(day: int = 1, hour: int = 10, minute: int = 0, second: int = 0, month: int = 5) -> str:
    """A timestamp in May 2024 (by default) of the P2-INT-19 form."""
    return f"2024-{month:02d}-{day:02d}T{hour:02d}:{minute:02d}:{second:02d}Z"


def turn(row_id: int, text: str, at: str, *, user: str = U, chat: str = C) -> dict[str, Json]:
    """An inbox_items row."""
    return {"id": row_id, "user_id": user, "chat_id": chat, "text": text, "created_at": at}


def summary(
    row_id: int,
    text: str,
    at: str,
    *,
    user: str = U,
    chat: str = C,
    sources: Sequence[int] = (),
    facts: Json = None,
) -> dict[str, Json]:
    """A memory_summaries row (facts default to an empty array)."""
    return {
        "id": row_id,
        "user_id": user,
        "chat_id": chat,
        "summary_text": text,
        "facts_json": [] if facts is None else facts,
        "source_event_ids": list(sources),
        "created_at": at,
    }


def entity(row_id: int, kind: str, title: str, at: str, *, user: str = U) -> dict[str, Json]:
    """An entities row."""
    return {"id": row_id, "user_id": user, "kind": kind, "title": title, "updated_at": at}


def link(row_id: int, a: int, b: int) -> dict[str, Json]:
    """An entity_links row from ``a`` to ``b``."""
    return {"id": row_id, "from_entity_id": a, "to_entity_id": b}


def event(
    row_id: int,
    event_type: str,
    at: str,
    payload: Json = None,
    *,
    user: str | None = U,
    chat: str | None = C,
) -> dict[str, Json]:
    """An event_log row."""
    return {
        "id": row_id,
        "user_id": user,
        "chat_id": chat,
        "event_type": event_type,
        "payload": {} if payload is None else payload,
        "created_at": at,
    }


def fixture(
    *,
    summaries: Iterable[Json] = (),
    events: Iterable[Json] = (),
    turns: Iterable[Json] = (),
    entities: Iterable[Json] = (),
    links: Iterable[Json] = (),
) -> dict[str, Json]:
    """A fixture; empty tables are left out (the format allows it)."""
    tables = {
        "memory_summaries": list(summaries),
        "event_log": list(events),
        "inbox_items": list(turns),
        "entities": list(entities),
        "entity_links": list(links),
    }
    return {name: rows for name, rows in tables.items() if rows}


def call(*pairs: tuple[str, str]) -> dict[str, Json]:
    """A context call with exactly these query parameters."""
    return {"op": "context", "params": [list(pair) for pair in pairs]}


def ctx(
    query: str, max_tokens: str | None = None, *, chat: str = C, user: str | None = U
) -> dict[str, Json]:
    """The usual context call: chat_id, user_id (unless None), query, max_tokens (if given)."""
    pairs = [("chat_id", chat)]
    if user is not None:
        pairs.append(("user_id", user))
    pairs.append(("query", query))
    if max_tokens is not None:
        pairs.append(("max_tokens", max_tokens))
    return call(*pairs)


def blk(layer: str, row_id: int | None, text: str, tokens: int) -> dict[str, Json]:
    """A block written by hand, tokens included."""
    return {"layer": layer, "id": row_id, "text": text, "tokens": tokens}


POLICY: Final = blk("policy", None, POLICY_TEXT, 19)


def qry(text: str, tokens: int) -> dict[str, Json]:
    """The query block."""
    return blk("query", None, text, tokens)


def ok(requested: int | None, applied: int, used: int, *blocks: Json) -> dict[str, Json]:
    """A 200 expectation: the hand-written blocks; ``used`` is checked against their sum."""
    total = sum(block["tokens"] for block in blocks)
    assert used == total, f"hand slip: estimated_used {used} but the blocks sum to {total}"
    layers = [block["layer"] for block in blocks]
    return {
        "status": 200,
        "body": {
            "budget": {"requested": requested, "applied": applied, "estimated_used": used},
            "sources": {
                "hot_turns": layers.count("hot_turn"),
                "summaries": layers.count("summary"),
                "entities": layers.count("entity"),
            },
            "context": list(blocks),
        },
    }


def err(status: int, code: str, param: str | None) -> dict[str, Json]:
    """An error expectation (message is never compared)."""
    return {"status": status, "body": {"error": {"code": code, "param": param}}}


def after(
    before: Json,
    *,
    remove_turns: Iterable[int] = (),
    add_events: Iterable[Json] = (),
    add_summaries: Iterable[Json] = (),
) -> dict[str, Json]:
    """The state after a job: ``before`` with the hand-decided changes, every table, by id."""
    state = {
        name: copy.deepcopy(list(before.get(name, [])))
        for name in ("memory_summaries", "event_log", "inbox_items", "entities", "entity_links")
    }
    gone = set(remove_turns)
    state["inbox_items"] = [row for row in state["inbox_items"] if row["id"] not in gone]
    state["event_log"] += list(add_events)
    state["memory_summaries"] += list(add_summaries)
    return {name: sorted(rows, key=lambda row: row["id"]) for name, rows in state.items()}


def job(result: Json, state: Json) -> dict[str, Json]:
    """A job expectation."""
    return {"result": result, "state": state}


def job_err(param: str, state: Json) -> dict[str, Json]:
    """An invalid_job expectation: nothing written."""
    return {"result": {"error": {"code": "invalid_job", "param": param}}, "state": state}


def vec(
    vid: str,
    description: str,
    *,
    comment: str,
    clauses: Sequence[str],
    interpretations: Sequence[str],
    fixture: Json,
    call: Json,
    expect: Json,
) -> dict[str, Json]:
    """One vector; level is pinned exactly when a reading is named. Every context call also
    tests the no-writes rule (P2-API-10, P2-INT-20): added mechanically, as the builder does."""
    clauses, interpretations = list(clauses), list(interpretations)
    if call["op"] == "context":
        clauses += [] if "P2-API-10" in clauses else ["P2-API-10"]
        interpretations += [] if "P2-INT-20" in interpretations else ["P2-INT-20"]
    return {
        "id": vid,
        "description": description,
        "comment": comment,
        "clauses": clauses,
        "interpretations": interpretations,
        "level": "pinned" if interpretations else "required",
        "input": {"fixture": fixture, "call": call},
        "expect": expect,
    }
