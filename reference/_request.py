"""MemoryControllerInput validation: defaults, types and error precedence.

S6-DET-01: "The controller MUST treat missing optional fields as the defaults above."
Checks run in the order of specs/errors.md (INT-40): the request object, then query,
store_paths, budget, scoring, trust_filter, now_utc, then unknown top-level members.  Within a
group the members are checked in spec order, then unknown members.  The first failure wins.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any, Final

from reference._errors import InvalidRequestError, render_value
from reference._text import normalize
from reference._timestamps import Timestamp, parse_utc

__all__ = ["Request", "validate_request"]

_MAX_INT: Final = 2**53 - 1


@dataclass(frozen=True, slots=True)
class Request:
    """A validated request with every default applied."""

    query: str
    store_paths: tuple[str, ...]
    max_excerpt_tokens: int
    per_item_max_excerpt_tokens: int  # as requested (or defaulted), before the min() of TRUNC
    max_items: int
    enable_recency_weight: bool
    recency_half_life_days: int
    enable_tag_overlap: bool
    query_terms: tuple[str, ...] | None
    deny_classifications: tuple[str, ...]
    trust_snapshot_path: str | None
    now_utc: Timestamp | None


def _pointer_token(name: str) -> str:
    """Escape a member name as an RFC 6901 reference token."""
    return name.replace("~", "~0").replace("/", "~1")


def _fail(code: str, path: str, what: str, value: Any) -> InvalidRequestError:
    return InvalidRequestError(code, path, f"{path or '/'}: {what} (got {render_value(value)})")


def _unicode(code: str, path: str, value: str) -> str:
    """A request string must be valid Unicode (no lone surrogate), INT-42."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise _fail(code, path, "must be valid Unicode (no lone surrogates)", value) from None
    return value


def _positive_int(code: str, path: str, value: Any, low: int = 1) -> int:
    """INT-41: an integral JSON number in [1, 2**53-1]; bools and strings are never ints.
    (``low`` is 0 only under INT-30/max-items-0-selects.)"""
    if type(value) is float and value.is_integer():
        value = int(value)
    if type(value) is not int:
        raise _fail(code, path, "must be an integer", value)
    if not low <= value <= _MAX_INT:
        raise _fail(code, path, f"must be an integer from {low} to 2**53-1", value)
    return value


def _written_int(code: str, path: str, value: Any, low: int = 1) -> int:
    """INT-41/written-integer (an alternative, ``_readings.py``): only a number written
    without a fraction or an exponent is an int (``10.0`` and ``1e1`` are not)."""
    if type(value) is float:
        raise _fail(code, path, "must be an integer", value)
    return _positive_int(code, path, value, low)


#: RFC 8259 section 6: the text of a JSON number.
_JSON_NUMBER: Final = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")


def _coerced_int(code: str, path: str, value: Any, low: int = 1) -> int:
    """INT-41/coerce-numeric-strings (an alternative, ``_readings.py``): a string holding a JSON
    number (``"10"``, ``"1e1"``) is that number, then an int as the pinned reading says."""
    if type(value) is str and _JSON_NUMBER.fullmatch(value):
        return _positive_int(code, path, json.loads(value), low)
    return _positive_int(code, path, value, low)


#: INT-41: what counts as an int in a request (the pinned reading first).
INTEGERS: Final = {
    "integral": _positive_int,
    "written-integer": _written_int,
    "coerce-numeric-strings": _coerced_int,
}

#: The largest max_items INT-30's "reject" and "clamp" alternatives allow.
_MAX_ITEMS_CAP: Final = 50


def _max_items_over_50_rejected(integer: Check) -> Check:
    def check(code: str, path: str, value: Any) -> int:
        items: int = integer(code, path, value)
        if items > _MAX_ITEMS_CAP:
            raise _fail(code, path, f"must be at most {_MAX_ITEMS_CAP}", value)
        return items

    return check


def _max_items_clamped(integer: Check) -> Check:
    def check(code: str, path: str, value: Any) -> int:
        items: int = integer(code, path, value)
        return min(items, _MAX_ITEMS_CAP)

    return check


def _max_items_zero_allowed(integer: Check) -> Check:
    def check(code: str, path: str, value: Any) -> int:
        items: int = integer(code, path, value, 0)
        return items

    return check


#: INT-30: budget.max_items, given the INT-41 int check: any int >= 1 (pinned); or the
#: alternatives: > 50 rejected, > 50 clamped to 50, 0 accepted (selects nothing).
MAX_ITEMS: Final[dict[str, Callable[[Check], Check]]] = {
    "at-least-1": lambda integer: integer,
    "reject-over-50": _max_items_over_50_rejected,
    "clamp-to-50": _max_items_clamped,
    "zero-allowed": _max_items_zero_allowed,
}


def _bool(code: str, path: str, value: Any) -> bool:
    if type(value) is not bool:
        raise _fail(code, path, "must be true or false", value)
    return value


def _string_list(code: str, path: str, value: Any) -> tuple[str, ...]:
    if type(value) is not list:
        raise _fail(code, path, "must be an array of strings", value)
    for index, item in enumerate(value):
        if type(item) is not str:
            raise _fail(code, f"{path}/{index}", "must be a string", item)
        _unicode(code, f"{path}/{index}", item)
    return tuple(value)


def _non_empty_string(code: str, path: str, value: Any) -> str:
    if type(value) is not str or not value:
        raise _fail(code, path, "must be a non-empty string", value)
    return _unicode(code, path, value)


Check = Callable[..., Any]  # (code, path, value) -> the value checked

#: group -> (error code, [(member, check, default)]) in spec order; `...` marks "required".
_GROUPS: Final[dict[str, tuple[str, tuple[tuple[str, Check, Any], ...]]]] = {
    "budget": (
        "invalid_budget",
        (
            ("max_excerpt_tokens", _positive_int, ...),  # S6-INPUT-03, S6-ERR-04
            ("per_item_max_excerpt_tokens", _positive_int, None),  # S6-INPUT-04, INT-30
            ("max_items", _positive_int, 50),  # S6-INPUT-05, INT-30
        ),
    ),
    "scoring": (
        "invalid_scoring",
        (
            ("enable_recency_weight", _bool, False),  # S6-INPUT-07
            ("recency_half_life_days", _positive_int, 30),  # S6-INPUT-08, INT-36
            ("enable_tag_overlap", _bool, True),  # S6-INPUT-10
            ("query_terms", _string_list, None),  # S6-INPUT-11, INT-08
        ),
    ),
    "trust_filter": (
        "invalid_trust_filter",
        (
            ("deny_classifications", _string_list, ("malicious",)),  # S6-INPUT-12
            ("trust_snapshot_path", _non_empty_string, None),  # S6-INPUT-13
        ),
    ),
}
_TOP_LEVEL: Final = ("query", "store_paths", "budget", "scoring", "trust_filter", "now_utc")


def _unknown(
    members: Mapping[str, Any], known: Collection[str], reading: str = "strict"
) -> list[str]:
    """The member names a group does not define, in code-point order: the first one is the
    one reported (INT-40: "then unknown members (first in code-point order)").  None under
    INT-42/ignore-unknown-members (an alternative, ``_readings.py``)."""
    if reading in ("ignore-unknown", "lenient"):
        return []
    return sorted(key for key in members if key not in known)


def _spec_order(
    members: Mapping[str, Any], known: tuple[str, ...], unknown: list[str]
) -> list[str]:
    """INT-40: the members the spec defines, in the order the spec lists them, then unknown
    members (first in code-point order)."""
    return [*known, *unknown]


def _text_order(
    members: Mapping[str, Any], known: tuple[str, ...], unknown: list[str]
) -> list[str]:
    """INT-40/precedence-json-member-order (an alternative, ``_readings.py``): the members in
    the order the request text writes them, then the absent ones in spec order (a required
    one fails there)."""
    return [
        *(name for name in members if name in known or name in unknown),
        *(name for name in known if name not in members),
    ]


#: INT-40: the order a request object's members are checked in (the first failure wins).
CHECK_ORDERS: Final = {"spec": _spec_order, "text": _text_order}


def _as_given(members: Mapping[str, Any]) -> Mapping[str, Any]:
    return members


def _nulls_absent(members: Mapping[str, Any]) -> Mapping[str, Any]:
    """INT-42/treat-null-absent (an alternative): a member whose value is null is absent."""
    return {name: value for name, value in members.items() if value is not None}


#: INT-42: the members of a request object: as given, null included (pinned: "null is never
#: 'absent'"), or without the null ones ("null-absent"; "lenient" also ignores unknown ones).
PRESENT: Final[dict[str, Callable[[Mapping[str, Any]], Mapping[str, Any]]]] = {
    "strict": _as_given,
    "ignore-unknown": _as_given,
    "null-absent": _nulls_absent,
    "lenient": _nulls_absent,
}


def _lenient_half_life(request: Mapping[str, Any], recency: str) -> frozenset[str]:
    """INT-36/half-life-when-enabled (an alternative): with recency not enabled, the half-life
    is not validated (and not used: the default stands in)."""
    scoring = request.get("scoring")
    enabled = isinstance(scoring, dict) and scoring.get("enable_recency_weight") is True
    if recency == "half-life-when-enabled" and not enabled:
        return frozenset({"recency_half_life_days"})
    return frozenset()


def _group(
    request: Mapping[str, Any],
    name: str,
    integer: Check = _positive_int,
    lenient: frozenset[str] = frozenset(),
    checks: Mapping[str, Check] | None = None,
    members_reading: str = "strict",
    order: str = "spec",
) -> dict[str, Any]:
    """One member group, its members in spec order, then unknown members (``order``: INT-40's
    reading).  ``checks`` replaces a member's check (INT-30's max_items reading);
    ``members_reading`` is INT-42's."""
    code, members = _GROUPS[name]
    path = f"/{name}"
    request = PRESENT[members_reading](request)
    if name not in request:
        if name == "budget":  # S6-INPUT-03: budget.max_excerpt_tokens is required
            raise InvalidRequestError(code, path, f"{path}: is required")
        body: Mapping[str, Any] = {}
    else:
        body = request[name]
        if type(body) is not dict:
            raise _fail(code, path, "must be an object", body)
        body = PRESENT[members_reading](body)
    spec = {member: (check, default) for member, check, default in members}
    values: dict[str, Any] = {}
    for member in CHECK_ORDERS[order](body, tuple(spec), _unknown(body, spec, members_reading)):
        if member not in spec:  # INT-42: a member the group does not define
            where = f"{path}/{_pointer_token(member)}"
            raise InvalidRequestError(code, where, f"{where}: is not a member of {name}")
        check, default = spec[member]
        member_path = f"{path}/{member}"
        if member in body and member in lenient:  # INT-36: not validated, not used
            values[member] = default
        elif member in body:
            run = integer if check is _positive_int else check  # INT-41's reading
            run = (checks or {}).get(member, run)
            values[member] = run(code, member_path, body[member])
        elif default is ...:
            raise InvalidRequestError(code, member_path, f"{member_path}: is required")
        else:
            values[member] = default
    return values


def _query(request: Mapping[str, Any], normalize: Callable[[str], str] = normalize) -> str:
    # S6-ERR-02: "query missing/empty"; S6-INPUT-01 "non-empty after trim" (INT-11).
    if "query" not in request:
        raise InvalidRequestError("invalid_query", "/query", "/query: is required")
    query = request["query"]
    if type(query) is not str:
        raise _fail("invalid_query", "/query", "must be a string", query)
    _unicode("invalid_query", "/query", query)
    if not normalize(query):
        raise _fail("invalid_query", "/query", "must not be empty after trimming", query)
    return query


def _store_paths(request: Mapping[str, Any]) -> tuple[str, ...]:
    # S6-ERR-03: "store_paths missing/empty".
    if "store_paths" not in request:
        raise InvalidRequestError(
            "invalid_store_paths", "/store_paths", "/store_paths: is required"
        )
    paths = request["store_paths"]
    if type(paths) is not list:
        raise _fail("invalid_store_paths", "/store_paths", "must be an array of paths", paths)
    if not paths:
        raise _fail("invalid_store_paths", "/store_paths", "must not be empty", paths)
    for index, path in enumerate(paths):
        _non_empty_string("invalid_store_paths", f"/store_paths/{index}", path)
    return tuple(paths)


def _now_utc(
    request: Mapping[str, Any],
    parse: Callable[[str], Timestamp | None] = parse_utc,
    invalid_disables: bool = False,
) -> Timestamp | None:
    if "now_utc" not in request:
        return None
    value = request["now_utc"]
    # INT-36/ignore-invalid-now: every now_utc errors.md check 7 calls invalid ("not a string,
    # or not a valid UTC timestamp") switches recency off instead
    parsed = parse(value) if type(value) is str else None  # INT-20, INT-36
    if parsed is None and invalid_disables:
        return None
    if type(value) is not str:
        raise _fail("invalid_now_utc", "/now_utc", "must be a UTC timestamp string", value)
    if parsed is None:
        raise _fail("invalid_now_utc", "/now_utc", "must be a valid UTC timestamp", value)
    return parsed


def validate_request(
    request: Any,
    integer: Check = _positive_int,
    parse_now: Callable[[str], Timestamp | None] = parse_utc,
    recency: str = "always",
    normalize: Callable[[str], str] = normalize,
    members: str = "strict",
    max_items: str = "at-least-1",
    order: str = "spec",
) -> Request:
    """Validate a MemoryControllerInput and apply its defaults (S6-DET-01).

    Raises InvalidRequestError with the code, path and message of the first failed check.
    ``integer`` and ``parse_now`` are the readings of INT-41 and INT-20 (``INTEGERS``,
    ``_timestamps.PARSERS``), ``recency`` the reading of INT-36 (``"always"`` validated,
    ``"half-life-when-enabled"``, ``"ignore-invalid-now"``), ``members`` INT-42's (a key of
    ``PRESENT``), ``max_items`` INT-30's (a key of ``MAX_ITEMS``) and ``order`` INT-40's (a
    key of ``CHECK_ORDERS``); the defaults are the pinned ones.
    """
    if type(request) is not dict:
        raise _fail("invalid_request", "", "the request must be a JSON object", request)
    request = PRESENT[members](request)  # INT-42
    items = {"max_items": MAX_ITEMS[max_items](integer)}  # INT-30
    lenient = _lenient_half_life(request, recency)
    ignore_now = recency == "ignore-invalid-now"
    group = partial(_group, request, integer=integer, members_reading=members, order=order)
    checks: dict[str, Callable[[], Any]] = {  # errors.md checks 2-7, in this order (INT-40)
        "query": lambda: _query(request, normalize),  # INT-05: "non-empty after trim"
        "store_paths": lambda: _store_paths(request),
        "budget": lambda: group("budget", checks=items),
        "scoring": lambda: group("scoring", lenient=lenient),
        "trust_filter": lambda: group("trust_filter"),
        "now_utc": lambda: _now_utc(request, parse_now, invalid_disables=ignore_now),
    }
    checked: dict[str, Any] = {}
    for name in CHECK_ORDERS[order](request, tuple(checks), _unknown(request, _TOP_LEVEL, members)):
        if name not in checks:  # (8) an unknown top-level member
            where = f"/{_pointer_token(name)}"
            raise InvalidRequestError("invalid_request", where, f"{where}: is not a request member")
        checked[name] = checks[name]()
    query, store_paths, now_utc = checked["query"], checked["store_paths"], checked["now_utc"]
    budget, scoring, trust = checked["budget"], checked["scoring"], checked["trust_filter"]
    max_excerpt = budget["max_excerpt_tokens"]
    per_item = budget["per_item_max_excerpt_tokens"]
    terms = scoring["query_terms"]
    return Request(
        query=query,
        store_paths=store_paths,
        max_excerpt_tokens=max_excerpt,
        per_item_max_excerpt_tokens=max_excerpt if per_item is None else per_item,
        max_items=budget["max_items"],
        enable_recency_weight=scoring["enable_recency_weight"],
        recency_half_life_days=scoring["recency_half_life_days"],
        enable_tag_overlap=scoring["enable_tag_overlap"],
        query_terms=None if terms is None else tuple(terms),
        deny_classifications=tuple(trust["deny_classifications"]),
        trust_snapshot_path=trust["trust_snapshot_path"],
        now_utc=now_utc,
    )
