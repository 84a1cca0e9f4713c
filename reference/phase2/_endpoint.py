"""``GET /v1/memory/context``: parameters, errors and the response (P2-API-*, P2-INT-13..17).

The HTTP server (``_http.py``), the protocol server and the in-process vector entry all call
:func:`preview_context` with the query string as ``(name, value)`` pairs, so parameter handling
has exactly one implementation. Checks run in the order of :data:`PARAMETERS`; the first
failure answers (P2-INT-15). Unknown parameters are ignored. The readings of P2-INT-16 (whose
memory a call without user_id assembles, :data:`DEFAULT_USER`) and P2-INT-17 (how the query
is taken, :data:`QUERY_READINGS`; which stored chat_ids the chat_id names, :data:`CHAT_MATCH`;
which empty values are absent, :data:`EMPTY_VALUES`) are values of
:class:`~reference.phase2._readings.Readings`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from reference.phase2._assemble import assemble_context
from reference.phase2._config import DEFAULTS, Config
from reference.phase2._errors import ParameterError
from reference.phase2._fixture import MAX_ID
from reference.phase2._readings import PINNED, Readings
from reference.phase2._rows import Key, Turn, newest_first
from reference.phase2._store import Store
from reference.phase2._tokens import WHITE_SPACE_TABLES, is_blank

__all__ = [
    "ABSENT_MAX_TOKENS",
    "CHAT_MATCH",
    "DEFAULT_USER",
    "EMPTY_VALUES",
    "FAULTS",
    "MAX_TOKENS_READINGS",
    "PARAMETERS",
    "PATH",
    "QUERY_READINGS",
    "UNKNOWN_CHAT",
    "ContextRequest",
    "method_not_allowed",
    "parse_params",
    "preview_context",
]

PATH: Final = "/v1/memory/context"
#: (name, required) in check order: the spec's three parameters, then the user_id extension
#: (P2-INT-16). P2-API-03 "`chat_id` (required)", P2-API-04 "`query` (required)",
#: P2-API-05 "`max_tokens` (optional, capped by config)".
PARAMETERS: Final[tuple[tuple[str, bool], ...]] = (
    ("chat_id", True),
    ("query", True),
    ("max_tokens", False),
    ("user_id", False),
)
#: P2-INT-17 (``Readings.query``) -> (what makes a query blank, whether it is trimmed):
#: ``exact`` (pinned) refuses an empty or whitespace-only query and uses it as received;
#: ``trim`` strips whitespace first; ``empty-only`` refuses only the empty string.
QUERY_READINGS: Final[dict[str, tuple[str, bool]]] = {
    "exact": ("blank", False),
    "trim": ("blank", True),
    "empty-only": ("empty", False),
}
_DIGITS: Final = re.compile(r"[0-9]+")
_MAX_TOKENS_DIGITS: Final = len(str(MAX_ID))


@dataclass(frozen=True)
class ContextRequest:
    """Validated parameters of one preview call."""

    chat_id: str
    user_id: str | None  # None: absent (the user is then DEFAULT_USER's, P2-INT-16)
    query: str
    max_tokens: int | None


def _parse_max_tokens(value: str) -> int:
    """P2-INT-14: ASCII digits, leading zeros allowed, 1 <= value <= 2^53 - 1."""
    if _DIGITS.fullmatch(value) is None:
        raise ParameterError("invalid_parameter", "max_tokens", f"not ASCII digits: {value!r}")
    significant = value.lstrip("0")
    if len(significant) > _MAX_TOKENS_DIGITS or not 1 <= int(significant or "0") <= MAX_ID:
        raise ParameterError(
            "invalid_parameter", "max_tokens", f"must be from 1 to {MAX_ID}: {value!r}"
        )
    return int(significant)


def _framework_int(value: str) -> int | None:
    """P2-INT-14/framework-int: Python's ``int(value)`` (surrounding whitespace, a sign,
    underscores between digits, any Unicode decimal digits), then 1 to 2^53 - 1."""
    try:
        number = int(value)
    except ValueError:
        raise ParameterError(
            "invalid_parameter", "max_tokens", f"not an integer: {value!r}"
        ) from None
    if not 1 <= number <= MAX_ID:
        raise ParameterError("invalid_parameter", "max_tokens", f"out of range: {value!r}")
    return number


def _clamp_to_1(value: str) -> int | None:
    """P2-INT-14/clamp-to-1: ASCII digits with an optional minus sign; below 1 is 1."""
    if value.startswith("-") and _DIGITS.fullmatch(value[1:]) is not None:
        return 1
    if _DIGITS.fullmatch(value) is not None and value.lstrip("0") == "":
        return 1
    return _parse_max_tokens(value)


#: P2-INT-14 (``Readings.max_tokens``) -> the parser of a present max_tokens (``None``: taken
#: as absent).
MAX_TOKENS_READINGS: Final[dict[str, Callable[[str], int | None]]] = {
    "ascii-digits": _parse_max_tokens,
    "framework-int": _framework_int,
    "clamp-to-1": _clamp_to_1,
    # P2-INT-14/empty-absent: "Treat an empty value as absent."
    "empty-absent": lambda value: None if value == "" else _parse_max_tokens(value),
}
#: P2-INT-13 (``Readings.absent_max_tokens``) -> whether max_tokens is required
#: (P2-INT-13/reject-absent); ``cap`` (requested = the cap) is applied by ``assemble_context``.
ABSENT_MAX_TOKENS: Final[dict[str, bool]] = {"null": False, "cap": False, "required": True}
#: P2-INT-15 (``Readings.faults``) -> (the status of a bad parameter, which value of a
#: repeated parameter is taken: None refuses it).
FAULTS: Final[dict[str, tuple[int | None, int | None]]] = {
    "400-first": (None, None),
    "422-first": (422, None),  # P2-INT-15/status-422: FastAPI's default
    "400-last-value": (None, -1),  # P2-INT-15/last-value
    "400-first-value": (None, 0),  # P2-INT-15/first-value: URLSearchParams.get, parse_qs[0]
}
#: P2-INT-17 (``Readings.empty_values``) -> the parameters whose empty value is absent: none
#: (pinned: an empty chat_id, query or user_id is invalid_parameter) or, under
#: P2-INT-17/empty-absent (``if (!value)``), chat_id, query and user_id.
EMPTY_VALUES: Final[dict[str, frozenset[str]]] = {
    "invalid": frozenset(),
    "absent": frozenset({"chat_id", "query", "user_id"}),
}


def parse_params(pairs: Iterable[tuple[str, str]], readings: Readings = PINNED) -> ContextRequest:
    """Validate the query string's pairs; raise :class:`ParameterError` for the first fault."""
    status, repeated = FAULTS[readings.faults]
    try:
        return _parse_params(pairs, readings, repeated)
    except ParameterError as exc:
        if status is not None:
            exc.status = status
        raise


def _parse_params(
    pairs: Iterable[tuple[str, str]], readings: Readings, repeated: int | None
) -> ContextRequest:
    refused, trimmed = QUERY_READINGS[readings.query]
    white_space = WHITE_SPACE_TABLES[readings.white_space]
    parse_max_tokens = MAX_TOKENS_READINGS[readings.max_tokens]
    empty_is_absent = EMPTY_VALUES[readings.empty_values]
    given: dict[str, list[str]] = {}
    for name, value in pairs:
        given.setdefault(name, []).append(value)
    found: dict[str, str] = {}
    absent_refused = ABSENT_MAX_TOKENS[readings.absent_max_tokens]  # P2-INT-13/reject-absent
    for name, listed in PARAMETERS:
        required = listed or (name == "max_tokens" and absent_refused)
        values = given.get(name, [])
        if not values:
            if required:
                raise ParameterError("missing_parameter", name, f"{name} is required")
            continue
        if len(values) > 1 and repeated is None:
            raise ParameterError("invalid_parameter", name, f"{name} given {len(values)} times")
        value = values[0 if repeated is None else repeated]
        if value == "" and name in empty_is_absent:  # P2-INT-17/empty-absent
            if required:
                raise ParameterError("missing_parameter", name, f"{name} is empty")
            continue
        if name == "query":  # P2-INT-17
            if is_blank(value, white_space) if refused == "blank" else value == "":
                raise ParameterError("invalid_parameter", name, f"query is blank: {value!r}")
            if trimmed:
                value = value.strip("".join(sorted(white_space)))
        if name == "max_tokens":
            if parse_max_tokens(value) is None:
                continue
        elif value == "":  # chat_id, user_id: non-empty opaque strings (P2-INT-16, -17)
            raise ParameterError("invalid_parameter", name, f"{name} is empty")
        found[name] = value
    chat_id = found["chat_id"]
    max_tokens = parse_max_tokens(found["max_tokens"]) if "max_tokens" in found else None
    return ContextRequest(
        chat_id=chat_id,
        user_id=found.get("user_id"),
        query=found["query"],
        max_tokens=max_tokens,
    )


#: The tables whose rows name a chat (and, but for an event, a user): a chat is known
#: (P2-INT-17/unknown-chat-404) and its users are found (P2-INT-16/every-user) from them.
_CHAT_TABLES: Final = ("inbox_items", "memory_summaries", "event_log")
_INTEGER: Final = re.compile(r"-?[0-9]+", re.ASCII)


def _numeric_chat(store: Store, chat_id: str) -> Key:
    """P2-INT-17/numeric-chat-id: a chat_id of ASCII digits (optionally after "-", a Telegram
    group's id) names the stored chat_ids of the same integer ("007" is "7"); another value
    only itself."""
    if _INTEGER.fullmatch(chat_id) is None:
        return chat_id
    same = {
        str(row["chat_id"])
        for table in _CHAT_TABLES
        for row in store.rows(table)
        if row["chat_id"] is not None
        and _INTEGER.fullmatch(str(row["chat_id"])) is not None
        and int(row["chat_id"]) == int(chat_id)
    }
    spellings = tuple(sorted(same | {chat_id}))
    return chat_id if len(spellings) == 1 else spellings


#: P2-INT-17 (``Readings.chat_match``) -> the stored chat_id values a request's chat_id names:
#: itself (pinned: exact strings) or every spelling of its integer (numeric-chat-id).
CHAT_MATCH: Final[dict[str, Callable[[Store, str], Key]]] = {
    "exact": lambda store, chat_id: chat_id,
    "numeric": _numeric_chat,
}


def _latest_inbox_owner(store: Store, chat_id: str, chat: Key) -> Key:
    """P2-INT-16/latest-inbox-owner: the user of the chat's most recent inbox item."""
    rows = store.rows("inbox_items", {"chat_id": chat})
    turns = newest_first([Turn.from_row(row) for row in rows])
    return turns[0].user_id if turns else chat_id


def _oldest_inbox_owner(store: Store, chat_id: str, chat: Key) -> Key:
    """P2-INT-16/oldest-inbox-owner: the user of the chat's oldest inbox item."""
    rows = store.rows("inbox_items", {"chat_id": chat})
    turns = newest_first([Turn.from_row(row) for row in rows])
    return turns[-1].user_id if turns else chat_id


def _every_user(store: Store, chat_id: str, chat: Key) -> Key:
    """P2-INT-16/every-user: every user with an inbox item, a summary or an event in the chat
    (the chat_id when it has none)."""
    users = {
        str(row["user_id"])
        for table in _CHAT_TABLES
        for row in store.rows(table, {"chat_id": chat})
        if row["user_id"] is not None
    }
    return tuple(sorted(users)) if users else chat_id


#: P2-INT-16 (``Readings.default_user``) -> the user of a call without user_id, from the
#: request's chat_id and the stored chat_ids it names (``CHAT_MATCH``): the chat_id itself
#: (pinned: in Telegram a private chat's id is its user's id), or an alternative.
DEFAULT_USER: Final[dict[str, Callable[[Store, str, Key], Key]]] = {
    "chat-id": lambda store, chat_id, chat: chat_id,
    "latest-inbox-owner": _latest_inbox_owner,
    "every-user": _every_user,
    "oldest-inbox-owner": _oldest_inbox_owner,
}


def preview_context(
    store: Store,
    pairs: Sequence[Sequence[str]],
    *,
    config: Config = DEFAULTS,
    readings: Readings = PINNED,
) -> tuple[int, dict[str, Any]]:
    """Answer one ``GET /v1/memory/context``: ``(status, JSON body)``. Reads only."""
    try:
        request = parse_params(((str(name), str(value)) for name, value in pairs), readings)
        chat = CHAT_MATCH[readings.chat_match](store, request.chat_id)  # P2-INT-17
        if UNKNOWN_CHAT[readings.unknown_chat] and not _known_chat(store, chat):
            raise ParameterError("not_found", "chat_id", f"no row of chat {request.chat_id!r}")
        user_id: Key | None = request.user_id
        if user_id is None:  # P2-INT-16
            user_id = DEFAULT_USER[readings.default_user](store, request.chat_id, chat)
        body = assemble_context(
            store,
            user_id,
            chat,
            request.query,
            request.max_tokens,
            config=config,
            readings=readings,
        )
    except ParameterError as exc:
        return exc.status, exc.body()
    return 200, body


def _known_chat(store: Store, chat: Key) -> bool:
    """P2-INT-17/unknown-chat-404: a chat is known when an inbox item, a summary or an event
    names it."""
    return any(store.rows(table, {"chat_id": chat}) for table in _CHAT_TABLES)


#: P2-INT-17 (``Readings.unknown_chat``) -> whether a chat with no row answers 404 not_found.
UNKNOWN_CHAT: Final[dict[str, bool]] = {"empty-context": False, "404": True}


def method_not_allowed(method: str) -> tuple[int, dict[str, Any]]:
    """P2-INT-15: any method but GET and HEAD on the path answers 405."""
    error = ParameterError("method_not_allowed", None, f"{method} is not allowed; use GET")
    return error.status, error.body()
