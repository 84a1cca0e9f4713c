"""Independent oracle for the Phase 2 memory engine (profile phase2-context/1); build tooling.

Written from specs/phase2/interpretations.toml (P2-INT-nn), specs/phase2/clauses.toml and
specs/phase2/vectors-format.md only, never from ``reference.phase2``: no database, no shared
helper, different algorithms where the register allows one (closed-form trimming instead of a
loop, level-by-level link walk, string timestamps compared as the register allows, datetime
arithmetic for the cutoff). The generator confirms every reference result with it.

:func:`oracle_expect` returns the vector ``expect`` member directly, in the form
specs/phase2/vectors-format.md describes (errors without message, no state for context calls,
the created summary row without summary_text and facts_json). Given ``alternatives`` (IDs of the
register's ``executable`` alternatives) and a ``policy`` text, it expects what an engine
following those readings returns, read from the register's words for each
(:data:`ALTERNATIVES`); the tests compare it with the reference under the same readings.
"""

from __future__ import annotations

import copy
import datetime
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

__all__ = ["ALTERNATIVES", "OracleError", "estimate", "oracle_expect", "query_terms"]

Json = Any

# P2-INT-02: the 25 White_Space code points.
_WS = (
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007"
    "\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)
_WS_RUNS = re.compile("[" + re.escape(_WS) + "]+")
# P2-INT-04
_POLICY = "Memory policy: answer from the context below; prefer the most recent facts."
_MAX_TOKENS_CAP, _HOT_LIMIT, _ENTITY_LIMIT, _RETENTION_DAYS = 3000, 8, 25, 30
_SAFE = 9007199254740991
_ENGINE_EVENTS = (
    "memory_summary_created",
    "memory_compaction_completed",
    "memory_context_previewed",
)
_TABLES = ("memory_summaries", "event_log", "inbox_items", "entities", "entity_links")
_TS = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z", re.ASCII)


class OracleError(Exception):
    """The oracle was asked something outside the profile (a malformed fixture)."""


@dataclass(frozen=True)
class _Reading:
    """What the context call reads, pinned by default (P2-INT-02, -04, -08, -16, -17)."""

    space: str = _WS
    policy: str = _POLICY
    related: str = "walk"  # P2-INT-08: walk | everything | one-hop | unicode | directed
    owner_of_latest_turn: bool = False  # P2-INT-16
    query: str = "exact"  # P2-INT-17: exact | trim | empty-only


#: The register's executable alternatives, as the oracle reads their words.
ALTERNATIVES: dict[str, dict[str, Any]] = {
    "P2-INT-02/ascii": {"space": "\t\n\x0b\x0c\r "},  # "ASCII whitespace only."
    "P2-INT-02/python": {"space": _WS + "\x1c\x1d\x1e\x1f"},  # str.split(): + U+001C..1F
    "P2-INT-04/implementation-text": {},  # the text is the ``policy`` argument
    "P2-INT-08/all-by-recency": {"related": "everything"},
    "P2-INT-08/one-hop": {"related": "one-hop"},
    "P2-INT-08/unicode-terms": {"related": "unicode"},
    "P2-INT-08/directed": {"related": "directed"},
    "P2-INT-16/latest-inbox-owner": {"owner_of_latest_turn": True},
    "P2-INT-17/trim": {"query": "trim"},
    "P2-INT-17/empty-only": {"query": "empty-only"},
}


# ------------------------------------------------------------------------ tokens and terms


def estimate(text: str, space: str = _WS) -> int:
    """P2-INT-01: max(W, ceil(C / 4)); C code points, W whitespace-separated runs."""
    runs = _WS_RUNS if space == _WS else re.compile("[" + re.escape(space) + "]+")
    words = len([piece for piece in runs.split(text) if piece])
    chars = len(text)
    quarter = chars // 4 + (1 if chars % 4 else 0)
    return words if words > quarter else quarter


def query_terms(text: str) -> set[str]:
    """P2-INT-08 step 1: maximal runs of ASCII letters/digits, ASCII-lowercased."""
    found: set[str] = set()
    current: list[str] = []
    for char in text + " ":
        if ("a" <= char <= "z") or ("A" <= char <= "Z") or ("0" <= char <= "9"):
            current.append(char.lower() if "A" <= char <= "Z" else char)
        elif current:
            found.add("".join(current))
            current = []
    return found


# ------------------------------------------------------------------------ the context call


class _Refused(Exception):
    def __init__(self, status: int, code: str, param: str | None) -> None:
        super().__init__(code)
        self.expect = {"status": status, "body": {"error": {"code": code, "param": param}}}


def unicode_terms(text: str) -> set[str]:
    """P2-INT-08/unicode-terms: maximal runs of Unicode letters and digits, case-folded."""
    found: set[str] = set()
    current = ""
    for char in text + " ":
        if char.isalnum():
            current += char
        elif current:
            found.add(current.casefold())
            current = ""
    return found


def _params(
    pairs: list[list[str]], reading: _Reading, state: Mapping[str, list[Json]]
) -> tuple[str, str, str, int | None]:
    """P2-INT-13..17: (chat_id, user_id, query, max_tokens or None)."""

    def values(name: str) -> list[str]:
        return [value for key, value in pairs if key == name]

    def single(name: str, required: bool) -> str | None:
        got = values(name)
        if not got:
            if required:
                raise _Refused(400, "missing_parameter", name)
            return None
        if len(got) != 1:
            raise _Refused(400, "invalid_parameter", name)
        return got[0]

    chat_id = single("chat_id", True)
    if chat_id == "":
        raise _Refused(400, "invalid_parameter", "chat_id")
    query = single("query", True)
    assert query is not None
    assert chat_id is not None
    if (query == "") if reading.query == "empty-only" else (query.strip(reading.space) == ""):
        raise _Refused(400, "invalid_parameter", "query")
    if reading.query == "trim":
        query = query.strip(reading.space)
    raw = single("max_tokens", False)
    max_tokens = None
    if raw is not None:
        if not (raw.isascii() and raw.isdigit()):
            raise _Refused(400, "invalid_parameter", "max_tokens")
        trimmed = raw.lstrip("0")
        if trimmed == "" or len(trimmed) > 16 or int(trimmed) > _SAFE:
            raise _Refused(400, "invalid_parameter", "max_tokens")
        max_tokens = int(trimmed)
    user_id = single("user_id", False)
    if user_id == "":
        raise _Refused(400, "invalid_parameter", "user_id")
    if user_id is None and reading.owner_of_latest_turn:
        turns = [row for row in state["inbox_items"] if row["chat_id"] == chat_id]
        if turns:
            user_id = max(turns, key=lambda row: (row["created_at"], row["id"]))["user_id"]
    return chat_id, (chat_id if user_id is None else user_id), query, max_tokens


def _block(layer: str, row_id: int | None, text: str, space: str = _WS) -> dict[str, Json]:
    return {"layer": layer, "id": row_id, "text": text, "tokens": estimate(text, space)}


def _summary(
    state: Mapping[str, list[Json]], user: str, chat: str, space: str
) -> list[dict[str, Json]]:
    """P2-INT-06: the one latest summary (created_at, then id), compared as strings: for the
    P2-INT-19 form byte order is chronological order."""
    best = None
    for row in state["memory_summaries"]:
        if (row["user_id"], row["chat_id"]) != (user, chat):
            continue
        if best is None or (row["created_at"], row["id"]) > (best["created_at"], best["id"]):
            best = row
    return [] if best is None else [_block("summary", best["id"], best["summary_text"], space)]


def _hot(
    state: Mapping[str, list[Json]], user: str, chat: str, space: str
) -> list[dict[str, Json]]:
    """P2-INT-07: the last 8 of the user's turns in the chat, oldest first."""
    mine = [r for r in state["inbox_items"] if r["user_id"] == user and r["chat_id"] == chat]
    mine.sort(key=lambda r: (r["created_at"], r["id"]))
    return [_block("hot_turn", r["id"], r["text"], space) for r in mine[-_HOT_LIMIT:]]


def _entities(
    state: Mapping[str, list[Json]], user: str, query: str, reading: _Reading
) -> list[dict[str, Json]]:
    """P2-INT-08, P2-INT-09: seeds by shared term, a level-by-level walk, then the ranking."""
    mine = {row["id"]: row for row in state["entities"] if row["user_id"] == user}
    split = unicode_terms if reading.related == "unicode" else query_terms
    wanted = split(query)
    level = {eid for eid, row in mine.items() if split(row["title"]) & wanted}
    if reading.related == "everything":
        level = set(mine)
    distance: dict[int, int] = {}
    depth = 0
    last = 0 if reading.related == "everything" else 1 if reading.related == "one-hop" else None
    while level and (last is None or depth <= last):
        for eid in level:
            distance[eid] = depth
        following: set[int] = set()
        for link in state["entity_links"]:
            ends = (link["from_entity_id"], link["to_entity_id"])
            if ends[0] not in mine or ends[1] not in mine:
                continue
            for here, there in (ends,) if reading.related == "directed" else (ends, ends[::-1]):
                if here in level and there not in distance:
                    following.add(there)
        level = following - set(distance)
        depth += 1
    ranked = sorted(distance, key=lambda eid: (mine[eid]["updated_at"], eid), reverse=True)
    ranked.sort(key=lambda eid: distance[eid])  # stable: proximity first, recency within
    return [
        _block("entity", eid, mine[eid]["kind"] + ": " + mine[eid]["title"], reading.space)
        for eid in ranked[:_ENTITY_LIMIT]
    ]


def _tokens(blocks: list[dict[str, Json]]) -> int:
    return sum(block["tokens"] for block in blocks)


Blocks = list[dict[str, Json]]


def _fit(
    policy: dict[str, Json],
    summary: Blocks,
    hot: Blocks,
    ents: Blocks,
    query: dict[str, Json],
    budget: int,
) -> tuple[Blocks, Blocks, Blocks]:
    """P2-INT-10..12 in closed form: the fewest oldest hot turns, then the fewest last
    entities, then the summary, such that the rest fits; policy and query always stay."""
    fixed = policy["tokens"] + query["tokens"] + _tokens(summary)
    for cut in range(len(hot) + 1):
        if fixed + _tokens(hot[cut:]) + _tokens(ents) <= budget:
            return summary, hot[cut:], ents
    for keep in range(len(ents), -1, -1):
        if fixed + _tokens(ents[:keep]) <= budget:
            return summary, [], ents[:keep]
    return [], [], []  # even policy + query + summary is over: the summary goes too


def _context(
    state: Mapping[str, list[Json]], pairs: list[list[str]], reading: _Reading
) -> dict[str, Json]:
    try:
        chat, user, query, requested = _params(pairs, reading, state)
    except _Refused as refused:
        return refused.expect
    applied = _MAX_TOKENS_CAP if requested is None else min(requested, _MAX_TOKENS_CAP)
    policy = _block("policy", None, reading.policy, reading.space)
    query_block = _block("query", None, query, reading.space)
    summary, hot, ents = _fit(
        policy,
        _summary(state, user, chat, reading.space),
        _hot(state, user, chat, reading.space),
        _entities(state, user, query, reading),
        query_block,
        applied,
    )
    context = [policy, *summary, *hot, *ents, query_block]
    return {
        "status": 200,
        "body": {
            "budget": {
                "requested": requested,
                "applied": applied,
                "estimated_used": _tokens(context),
            },
            "sources": {"hot_turns": len(hot), "summaries": len(summary), "entities": len(ents)},
            "context": context,
        },
    }


# ------------------------------------------------------------------------ jobs


def _when(text: Json) -> datetime.datetime | None:
    if not isinstance(text, str) or not _TS.fullmatch(text):
        return None
    try:
        moment = datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ")
    except ValueError:
        return None
    return moment if moment.year >= 1970 else None


def _created(row: Mapping[str, Json]) -> datetime.datetime:
    moment = _when(row["created_at"])
    if moment is None:
        raise OracleError(f"bad created_at in {row!r}")
    return moment


def _job_error(param: str) -> dict[str, Json]:
    return {"error": {"code": "invalid_job", "param": param}}


def _next_id(rows: list[Json]) -> int:
    return max((row["id"] for row in rows), default=0) + 1


def _compact(state: dict[str, list[Json]], call: Mapping[str, Json]) -> dict[str, Json]:
    """P2-INT-21..23."""
    now = _when(call.get("now"))
    if now is None:
        return {"result": _job_error("now"), "state": state}
    cutoff = now - datetime.timedelta(days=_RETENTION_DAYS)
    cutoff_text = cutoff.strftime("%Y-%m-%dT%H:%M:%SZ")
    kept = [row for row in state["inbox_items"] if _created(row) >= cutoff]
    payload = {
        "retention_days": _RETENTION_DAYS,
        "cutoff": cutoff_text,
        "inbox_items_removed": len(state["inbox_items"]) - len(kept),
        "inbox_items_retained": len(kept),
    }
    event = {
        "id": _next_id(state["event_log"]),
        "user_id": None,
        "chat_id": None,
        "event_type": "memory_compaction_completed",
        "payload": payload,
        "created_at": call["now"],
    }
    state["inbox_items"] = kept
    state["event_log"] = [*state["event_log"], event]
    return {"result": dict(payload), "state": state}


def _summarize(state: dict[str, list[Json]], call: Mapping[str, Json]) -> dict[str, Json]:
    """P2-INT-24..26."""
    for name in ("user_id", "chat_id"):
        value = call.get(name)
        if not isinstance(value, str) or not value:
            return {"result": _job_error(name), "state": state}
    if _when(call.get("now")) is None:
        return {"result": _job_error("now"), "state": state}
    user, chat, now = call["user_id"], call["chat_id"], call["now"]
    covered = {
        eid
        for row in state["memory_summaries"]
        if row["user_id"] == user and row["chat_id"] == chat
        for eid in row["source_event_ids"]
    }
    sources = sorted(
        row["id"]
        for row in state["event_log"]
        if row["user_id"] == user
        and row["chat_id"] == chat
        and row["event_type"] not in _ENGINE_EVENTS
        and row["id"] not in covered
    )
    if not sources:
        return {"result": {"summary_id": None, "source_count": 0}, "state": state}
    summary_id = _next_id(state["memory_summaries"])
    payload = {"summary_id": summary_id, "source_count": len(sources)}
    summary = {
        "id": summary_id,
        "user_id": user,
        "chat_id": chat,
        "source_event_ids": sources,
        "created_at": now,
    }  # summary_text and facts_json: compared by shape (P2-INT-25)
    event = {
        "id": _next_id(state["event_log"]),
        "user_id": user,
        "chat_id": chat,
        "event_type": "memory_summary_created",
        "payload": payload,
        "created_at": now,
    }
    state["memory_summaries"] = [*state["memory_summaries"], summary]
    state["event_log"] = [*state["event_log"], event]
    return {"result": dict(payload), "state": state}


# ------------------------------------------------------------------------ entry


def oracle_expect(
    fixture: Mapping[str, Json],
    call: Mapping[str, Json],
    *,
    alternatives: Sequence[str] = (),
    policy: str | None = None,
) -> dict[str, Json]:
    """The ``expect`` member of a vector with this fixture and call (under ``alternatives``
    and the policy text ``policy``, when given: the pinned readings otherwise)."""
    reading = _Reading() if policy is None else _Reading(policy=policy)
    for alternative in alternatives:
        reading = replace(reading, **ALTERNATIVES[alternative])
    if not isinstance(fixture, Mapping) or set(fixture) - set(_TABLES):
        raise OracleError(f"not a fixture: {fixture!r}")
    state = {name: copy.deepcopy(list(fixture.get(name, []))) for name in _TABLES}
    op = call.get("op")
    if op == "context":
        return _context(state, call["params"], reading)
    if op == "compact":
        result = _compact(state, call)
    elif op == "summarize":
        result = _summarize(state, call)
    else:
        raise OracleError(f"unknown op {op!r}")
    result["state"] = {name: sorted(rows, key=lambda r: r["id"]) for name, rows in state.items()}
    return result
