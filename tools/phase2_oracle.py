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

__all__ = [
    "ALTERNATIVES",
    "PARAMETERS",
    "OracleError",
    "UnknownAlternative",
    "estimate",
    "oracle_expect",
    "query_terms",
]

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

    count: str = "max"  # P2-INT-01: max | chars | words | bytes | units | ceil-units
    space: str = _WS
    entity_label: bool = True  # P2-INT-03: "kind: title" (False: the title)
    joined: bool = False  # P2-INT-03/concatenated: the draft estimated as one text
    per_block: int = 0  # P2-INT-03/block-overhead(tokens=K): K more per counted block
    policy: str = _POLICY
    policy_counted: bool = True  # P2-INT-04
    newest_first: bool = False  # P2-INT-05: hot turns listed newest first
    summary_tie: str = "greatest"  # P2-INT-06: greatest | smallest (id wins a created_at tie)
    skip_empty_summary: bool = False  # P2-INT-06
    warm: int = 1  # P2-INT-06/several(n=N): the N latest summaries, oldest first
    hot_users: str = "mine"  # P2-INT-07: mine | all
    hot_tie: str = "greatest"  # P2-INT-07: greatest | smallest
    related: str = "walk"  # P2-INT-08: walk | everything | one-hop | unicode | directed
    rank: str = "proximity"  # P2-INT-09: proximity | recency
    limit_late: bool = False  # P2-INT-09: the entity limit after trimming
    whole_layers: bool = False  # P2-INT-10
    summary_cut: str = "last"  # P2-INT-11: last | never | first
    tight: str = "over"  # P2-INT-12: over | refuse | raise
    absent: str = "null"  # P2-INT-13: null | cap | required
    max_tokens_form: str = "digits"  # P2-INT-14: digits | int | clamp | empty-absent
    bad_status: int = 400  # P2-INT-15
    repeated: str = "refuse"  # P2-INT-15: refuse | last | first
    owner_of_latest_turn: bool = False  # P2-INT-16
    owner_of_oldest_turn: bool = False  # P2-INT-16/oldest-inbox-owner
    every_user: bool = False  # P2-INT-16: all the chat's users when user_id is absent
    numeric_chat: bool = False  # P2-INT-17: chat_id values compared as integers
    query: str = "exact"  # P2-INT-17: exact | trim | empty-only
    unknown_chat_404: bool = False  # P2-INT-17
    empty_absent: bool = False  # P2-INT-17/empty-absent: chat_id=, query=, user_id= are absent
    count_before_trim: bool = False  # P2-INT-18
    at_cutoff_is_old: bool = False  # P2-INT-21/inclusive
    midnight_cutoff: bool = False  # P2-INT-21/midnight
    log_empty_compaction: bool = True  # P2-INT-23
    sources: str = "uncovered"  # P2-INT-24: uncovered | all | after-latest


#: The register's alternatives that leave a value free, as the oracle reads their words:
#: ID -> (the value's name in the reading's ID, the ``_Reading`` field, lowest, highest).
PARAMETERS: dict[str, tuple[str, str, int, int | None]] = {
    # "Several recent ('warm') summaries, e.g. the last N." (N = 1 is the pinned reading)
    "P2-INT-06/several": ("n", "warm", 2, None),
    # "Count a fixed overhead per block" (of the draft's estimate; the blocks keep their tokens)
    "P2-INT-03/block-overhead": ("tokens", "per_block", 1, None),
}
_VALUED = re.compile(r"(?P<base>[^()]+)\((?P<name>[a-z_]+)=(?P<value>0|[1-9][0-9]*)\)")

#: The register's executable alternatives, as the oracle reads their words.
ALTERNATIVES: dict[str, dict[str, Any]] = {
    "P2-INT-01/ceil-chars": {"count": "chars"},  # "ceil(characters / 4) alone"
    "P2-INT-01/words": {"count": "words"},  # "Words alone"
    "P2-INT-01/utf8-bytes": {"count": "bytes"},  # "Count UTF-8 bytes"
    "P2-INT-01/utf16-units": {"count": "units"},  # "Count UTF-16 code units"
    # "ceil(UTF-16 code units / 4) alone, with no word count"
    "P2-INT-01/ceil-utf16-units": {"count": "ceil-units"},
    # "JavaScript's \\s / trim(): White_Space plus U+FEFF, without U+0085"
    "P2-INT-02/javascript": {"space": _WS.replace("\x85", "") + "\ufeff"},
    "P2-INT-03/entity-title": {"entity_label": False},
    "P2-INT-03/concatenated": {
        "joined": True
    },  # "Estimate the concatenated text"  # "Render entities as title only"
    "P2-INT-04/outside-budget": {"policy_counted": False},
    "P2-INT-05/newest-first": {"newest_first": True},
    "P2-INT-06/smallest-id": {"summary_tie": "smallest"},
    "P2-INT-06/skip-empty": {"skip_empty_summary": True},
    "P2-INT-07/every-user": {"hot_users": "all"},
    "P2-INT-07/smallest-id": {"hot_tie": "smallest"},
    "P2-INT-09/recency-first": {"rank": "recency"},
    "P2-INT-09/limit-after-trim": {"limit_late": True},
    "P2-INT-10/whole-layer": {"whole_layers": True},
    "P2-INT-11/keep-summary": {"summary_cut": "never"},
    "P2-INT-11/summary-first": {"summary_cut": "first"},
    "P2-INT-12/refuse-4xx": {"tight": "refuse"},
    "P2-INT-12/raise-applied": {"tight": "raise"},
    "P2-INT-13/requested-cap": {"absent": "cap"},
    "P2-INT-13/reject-absent": {"absent": "required"},
    "P2-INT-14/framework-int": {"max_tokens_form": "int"},
    "P2-INT-14/clamp-to-1": {"max_tokens_form": "clamp"},
    "P2-INT-14/empty-absent": {"max_tokens_form": "empty-absent"},
    "P2-INT-15/status-422": {"bad_status": 422},
    "P2-INT-15/last-value": {"repeated": "last"},
    "P2-INT-15/first-value": {"repeated": "first"},  # "Use the first value"
    "P2-INT-17/unknown-chat-404": {"unknown_chat_404": True},
    "P2-INT-18/before-trimming": {"count_before_trim": True},
    "P2-INT-21/inclusive": {"at_cutoff_is_old": True},  # "created_at <= cutoff."
    "P2-INT-21/midnight": {"midnight_cutoff": True},  # "Whole calendar days"
    "P2-INT-23/only-when-removed": {"log_empty_compaction": False},
    "P2-INT-24/every-event": {"sources": "all"},
    "P2-INT-24/since-latest-summary": {"sources": "after-latest"},
    "P2-INT-02/ascii": {"space": "\t\n\x0b\x0c\r "},  # "ASCII whitespace only."
    "P2-INT-02/python": {"space": _WS + "\x1c\x1d\x1e\x1f"},  # str.split(): + U+001C..1F
    "P2-INT-04/implementation-text": {},  # the text is the ``policy`` argument
    "P2-INT-08/all-by-recency": {"related": "everything"},
    "P2-INT-08/one-hop": {"related": "one-hop"},
    "P2-INT-08/unicode-terms": {"related": "unicode"},
    "P2-INT-08/directed": {"related": "directed"},
    "P2-INT-16/latest-inbox-owner": {"owner_of_latest_turn": True},
    "P2-INT-16/every-user": {"every_user": True},  # "Every user of the chat."
    # "The owner of the chat's oldest inbox item (the chat_id when the chat has none)."
    "P2-INT-16/oldest-inbox-owner": {"owner_of_oldest_turn": True},
    "P2-INT-17/numeric-chat-id": {"numeric_chat": True},  # "Compare chat_id numerically."
    "P2-INT-17/trim": {"query": "trim"},
    "P2-INT-17/empty-only": {"query": "empty-only"},
    "P2-INT-17/empty-absent": {"empty_absent": True},  # "An empty value is an absent one"
}


# ------------------------------------------------------------------------ tokens and terms


def estimate(text: str, space: str = _WS, count: str = "max") -> int:
    """P2-INT-01: max(W, ceil(C / 4)); C code points, W whitespace-separated runs (``count``:
    an alternative's reading: C alone, W alone, C as UTF-8 bytes or UTF-16 units)."""
    runs = _WS_RUNS if space == _WS else re.compile("[" + re.escape(space) + "]+")
    words = len([piece for piece in runs.split(text) if piece])
    if count == "bytes":
        chars = sum(
            1 if ord(c) < 0x80 else 2 if ord(c) < 0x800 else 3 if ord(c) < 0x10000 else 4
            for c in text
        )
    elif count in ("units", "ceil-units"):
        chars = sum(2 if ord(c) > 0xFFFF else 1 for c in text)
    else:
        chars = len(text)
    quarter = chars // 4 + (1 if chars % 4 else 0)
    if count in ("chars", "ceil-units"):
        return quarter
    if count == "words":
        return words
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


def _same_chat(stored: Json, asked: str, reading: _Reading) -> bool:
    """P2-INT-17: exact strings; numerically ("007" names "7", "-0" names "0") when both are
    integers written in ASCII digits, P2-INT-17/numeric-chat-id."""
    if stored == asked:
        return True
    if not reading.numeric_chat or not isinstance(stored, str):
        return False
    whole = re.compile("-?[0-9]+", re.ASCII)
    return bool(whole.fullmatch(stored) and whole.fullmatch(asked)) and int(stored) == int(asked)


def _params(
    pairs: list[list[str]], reading: _Reading, state: Mapping[str, list[Json]]
) -> tuple[str, frozenset[str], str, int | None]:
    """P2-INT-13..17: (chat_id, the users whose memory is assembled, query, max_tokens or
    None)."""

    def values(name: str) -> list[str]:
        return [value for key, value in pairs if key == name]

    def single(name: str, required: bool) -> str | None:
        got = values(name)
        if not got:
            if required:
                raise _Refused(400, "missing_parameter", name)
            return None
        if len(got) != 1 and reading.repeated == "refuse":
            raise _Refused(400, "invalid_parameter", name)
        value = got[0] if reading.repeated == "first" else got[-1]
        if value == "" and reading.empty_absent and name != "max_tokens":
            if required:  # P2-INT-17/empty-absent: "chat_id= and query= answer missing"
                raise _Refused(400, "missing_parameter", name)
            return None  # "user_id= takes the user of a call without user_id"
        return value

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
    raw = single("max_tokens", reading.absent == "required")
    max_tokens = None
    if raw == "" and reading.max_tokens_form == "empty-absent":
        raw = None
    if raw is not None and reading.max_tokens_form == "int":
        try:
            max_tokens = int(raw)  # "The framework's int parsing" (Python)
        except ValueError:
            raise _Refused(400, "invalid_parameter", "max_tokens") from None
        if max_tokens < 1 or max_tokens > _SAFE:
            raise _Refused(400, "invalid_parameter", "max_tokens")
    elif raw is not None:
        clamp = reading.max_tokens_form == "clamp" and re.fullmatch("-?[0-9]+", raw, re.ASCII)
        if clamp and int(raw) < 1:  # "Clamp 0 or negative values to 1."
            raw = "1"
        if not (raw.isascii() and raw.isdigit()):
            raise _Refused(400, "invalid_parameter", "max_tokens")
        trimmed = raw.lstrip("0")
        if trimmed == "" or len(trimmed) > 16 or int(trimmed) > _SAFE:
            raise _Refused(400, "invalid_parameter", "max_tokens")
        max_tokens = int(trimmed)
    user_id = single("user_id", False)
    if user_id == "":
        raise _Refused(400, "invalid_parameter", "user_id")
    named = [
        row
        for table in ("inbox_items", "memory_summaries", "event_log")
        for row in state[table]
        if _same_chat(row["chat_id"], chat_id, reading)
    ]
    if reading.unknown_chat_404 and not named:
        raise _Refused(404, "not_found", "chat_id")
    if user_id is None and reading.owner_of_latest_turn:
        turns = [
            row for row in state["inbox_items"] if _same_chat(row["chat_id"], chat_id, reading)
        ]
        if turns:
            user_id = max(turns, key=lambda row: (row["created_at"], row["id"]))["user_id"]
    if user_id is None and reading.owner_of_oldest_turn:
        turns = [
            row for row in state["inbox_items"] if _same_chat(row["chat_id"], chat_id, reading)
        ]
        if turns:
            user_id = min(turns, key=lambda row: (_created(row), row["id"]))["user_id"]
    if user_id is None and reading.every_user:
        everyone = frozenset(row["user_id"] for row in named if row["user_id"] is not None)
        if everyone:
            return chat_id, everyone, query, max_tokens
    return chat_id, frozenset([chat_id if user_id is None else user_id]), query, max_tokens


def _block(layer: str, row_id: int | None, text: str, reading: _Reading) -> dict[str, Json]:
    tokens = estimate(text, reading.space, reading.count)
    return {"layer": layer, "id": row_id, "text": text, "tokens": tokens}


def _summary(
    state: Mapping[str, list[Json]], users: frozenset[str], chat: str, reading: _Reading
) -> list[dict[str, Json]]:
    """P2-INT-06: the one latest summary (created_at, then id), compared as strings: for the
    P2-INT-19 form byte order is chronological order; or the ``warm`` latest, oldest first."""
    sign = -1 if reading.summary_tie == "smallest" else 1
    mine = [
        row
        for row in state["memory_summaries"]
        if row["user_id"] in users
        and _same_chat(row["chat_id"], chat, reading)
        and not (reading.skip_empty_summary and row["summary_text"] == "")
    ]
    mine.sort(key=lambda row: (row["created_at"], sign * row["id"]))
    kept = mine[len(mine) - reading.warm :] if len(mine) > reading.warm else mine
    return [_block("summary", row["id"], row["summary_text"], reading) for row in kept]


def _hot(
    state: Mapping[str, list[Json]], users: frozenset[str], chat: str, reading: _Reading
) -> list[dict[str, Json]]:
    """P2-INT-07: the last 8 of the user's (users') turns in the chat, oldest first."""
    mine = [
        r
        for r in state["inbox_items"]
        if (reading.hot_users == "all" or r["user_id"] in users)
        and _same_chat(r["chat_id"], chat, reading)
    ]
    sign = -1 if reading.hot_tie == "smallest" else 1
    mine.sort(key=lambda r: (r["created_at"], sign * r["id"]))
    return [_block("hot_turn", r["id"], r["text"], reading) for r in mine[-_HOT_LIMIT:]]


def _entities(
    state: Mapping[str, list[Json]], users: frozenset[str], query: str, reading: _Reading
) -> list[dict[str, Json]]:
    """P2-INT-08, P2-INT-09: seeds by shared term, a level-by-level walk, then the ranking
    (over the entities of every user assembled, P2-INT-16/every-user)."""
    mine = {row["id"]: row for row in state["entities"] if row["user_id"] in users}
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
    if reading.rank == "recency":  # stable: recency first, proximity within, then id
        ranked = sorted(
            distance, key=lambda eid: (mine[eid]["updated_at"], -distance[eid], eid), reverse=True
        )
    else:
        ranked.sort(key=lambda eid: distance[eid])  # stable: proximity first, recency within
    return [
        _block("entity", eid, _label(mine[eid], reading), reading)
        for eid in (ranked if reading.limit_late else ranked[:_ENTITY_LIMIT])
    ]


def _label(row: Mapping[str, Json], reading: _Reading) -> str:
    """P2-INT-03: "kind: title" (P2-INT-03/entity-title: the title)."""
    return (
        str(row["kind"]) + ": " + str(row["title"]) if reading.entity_label else str(row["title"])
    )


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
    reading: _Reading,
) -> tuple[Blocks, Blocks, Blocks]:
    """P2-INT-10..12: the drafts the trimming visits, in order (one oldest hot turn at a time,
    then one last entity at a time, then the summary; or whole layers, or the summary first or
    never, as ``reading`` says); the first that fits, else the last. Policy and query stay."""
    fixed = query["tokens"] + (policy["tokens"] if reading.policy_counted else 0)
    fixed += reading.per_block * (2 if reading.policy_counted else 1)  # P2-INT-03
    layers = {"last": "HES", "never": "HE", "first": "SHE"}[reading.summary_cut]
    visited = [(summary, hot, ents)]
    for layer in layers:
        s, h, e = visited[-1]
        if layer == "H":
            cuts = [[]] if reading.whole_layers and h else [h[n:] for n in range(1, len(h) + 1)]
            visited += [(s, rest, e) for rest in cuts]
        elif layer == "E":
            keeps = (
                [[]] if reading.whole_layers and e else [e[:n] for n in range(len(e) - 1, -1, -1)]
            )
            visited += [(s, h, kept) for kept in keeps]
        elif s:  # the oldest of several summaries first (P2-INT-06/several)
            cuts = [[]] if reading.whole_layers else [s[n:] for n in range(1, len(s) + 1)]
            visited += [(rest, h, e) for rest in cuts]
    for s, h, e in visited:
        if _size(policy, [*s, *h, *e], query, reading, fixed) <= budget:
            return s, h, e
    return visited[-1]


def _size(
    policy: dict[str, Json], middle: Blocks, query: dict[str, Json], reading: _Reading, fixed: int
) -> int:
    """The draft's estimate: policy (when counted) + query + the middle blocks' tokens, or the
    estimate of every text joined (P2-INT-03/concatenated)."""
    if reading.joined:
        text = "".join(b["text"] for b in [policy, *middle, query])
        return estimate(text, reading.space, reading.count)
    return fixed + _tokens(middle) + reading.per_block * len(middle)


def _context(
    state: Mapping[str, list[Json]], pairs: list[list[str]], reading: _Reading
) -> dict[str, Json]:
    try:
        return _answer(state, pairs, reading)
    except _Refused as refused:
        if refused.expect["status"] == 400:
            refused.expect["status"] = reading.bad_status  # P2-INT-15/status-422
        return refused.expect


def _answer(
    state: Mapping[str, list[Json]], pairs: list[list[str]], reading: _Reading
) -> dict[str, Json]:
    chat, users, query, requested = _params(pairs, reading, state)
    applied = _MAX_TOKENS_CAP if requested is None else min(requested, _MAX_TOKENS_CAP)
    policy = _block("policy", None, reading.policy, reading)
    query_block = _block("query", None, query, reading)
    floor = query_block["tokens"] + (policy["tokens"] if reading.policy_counted else 0)
    floor += reading.per_block * (2 if reading.policy_counted else 1)  # P2-INT-03
    if floor > applied and reading.tight == "refuse":
        raise _Refused(422, "budget_too_small", "max_tokens")
    if floor > applied and reading.tight == "raise":
        applied = floor
    drafted = (
        _summary(state, users, chat, reading),
        _hot(state, users, chat, reading),
        _entities(state, users, query, reading),
    )
    summary, hot, ents = _fit(policy, *drafted, query_block, applied, reading)
    if reading.limit_late:
        ents = ents[:_ENTITY_LIMIT]
    counted = drafted if reading.count_before_trim else (summary, hot, ents)
    shown_hot = hot[::-1] if reading.newest_first else hot
    context = [policy, *summary, *shown_hot, *ents, query_block]
    used = _tokens(context) - (0 if reading.policy_counted else policy["tokens"])
    if reading.joined:
        used = estimate("".join(b["text"] for b in context), reading.space, reading.count)
    used += reading.per_block * (len(context) - (0 if reading.policy_counted else 1))
    if requested is None and reading.absent == "cap":
        requested = _MAX_TOKENS_CAP
    return {
        "status": 200,
        "body": {
            "budget": {"requested": requested, "applied": applied, "estimated_used": used},
            "sources": {
                "hot_turns": len(counted[1]),
                "summaries": len(counted[0]),
                "entities": len(counted[2]),
            },
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


def _compact(
    state: dict[str, list[Json]], call: Mapping[str, Json], reading: _Reading
) -> dict[str, Json]:
    """P2-INT-21..23."""
    now = _when(call.get("now"))
    if now is None:
        return {"result": _job_error("now"), "state": state}
    cutoff = now - datetime.timedelta(days=_RETENTION_DAYS)
    if reading.midnight_cutoff:
        cutoff = datetime.datetime(cutoff.year, cutoff.month, cutoff.day)
    cutoff_text = cutoff.strftime("%Y-%m-%dT%H:%M:%SZ")
    kept = [
        row
        for row in state["inbox_items"]
        if (_created(row) > cutoff if reading.at_cutoff_is_old else _created(row) >= cutoff)
    ]
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
    if reading.log_empty_compaction or len(kept) < len(state["inbox_items"]):
        state["event_log"] = [*state["event_log"], event]
    state["inbox_items"] = kept
    return {"result": dict(payload), "state": state}


def _summarize(
    state: dict[str, list[Json]], call: Mapping[str, Json], reading: _Reading
) -> dict[str, Json]:
    """P2-INT-24..26."""
    for name in ("user_id", "chat_id"):
        value = call.get(name)
        if not isinstance(value, str) or not value:
            return {"result": _job_error(name), "state": state}
    if _when(call.get("now")) is None:
        return {"result": _job_error("now"), "state": state}
    user, chat, now = call["user_id"], call["chat_id"], call["now"]
    mine = [
        row
        for row in state["memory_summaries"]
        if row["user_id"] == user and row["chat_id"] == chat
    ]
    covered = {eid for row in mine for eid in row["source_event_ids"]}
    latest = max((_created(row) for row in mine), default=None)
    sources = sorted(
        row["id"]
        for row in state["event_log"]
        if row["user_id"] == user
        and row["chat_id"] == chat
        and row["event_type"] not in _ENGINE_EVENTS
        and (
            reading.sources == "all"
            or (reading.sources == "uncovered" and row["id"] not in covered)
            or (reading.sources == "after-latest" and (latest is None or _created(row) > latest))
        )
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


class UnknownAlternative(OracleError):
    """An alternative the oracle does not run, or a value its parameter does not take."""


def _values(alternative: str) -> dict[str, Any]:
    """The ``_Reading`` fields an alternative's ID sets (``P2-INT-06/several(n=3)``: warm=3)."""
    found = _VALUED.fullmatch(alternative)
    if found is None:
        if alternative not in ALTERNATIVES:
            raise UnknownAlternative(f"not an executable alternative: {alternative!r}")
        return ALTERNATIVES[alternative]
    parameter = PARAMETERS.get(found["base"])
    if parameter is None or parameter[0] != found["name"]:
        raise UnknownAlternative(f"no alternative takes {alternative!r}")
    name, field, low, high = parameter
    value = int(found["value"])
    if value < low or (high is not None and value > high):
        raise UnknownAlternative(f"{alternative!r}: {name} must be at least {low}")
    return {field: value}


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
        reading = replace(reading, **_values(alternative))
    if not isinstance(fixture, Mapping) or set(fixture) - set(_TABLES):
        raise OracleError(f"not a fixture: {fixture!r}")
    state = {name: copy.deepcopy(list(fixture.get(name, []))) for name in _TABLES}
    op = call.get("op")
    if op == "context":
        return _context(state, call["params"], reading)
    if op == "compact":
        result = _compact(state, call, reading)
    elif op == "summarize":
        result = _summarize(state, call, reading)
    else:
        raise OracleError(f"unknown op {op!r}")
    result["state"] = {name: sorted(rows, key=lambda r: r["id"]) for name, rows in state.items()}
    return result
