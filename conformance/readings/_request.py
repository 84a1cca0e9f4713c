"""Request checks: the errors.md checks 1-8 in order, the INPUT CONTRACT defaults, and the
structured error they raise (INT-40..INT-42).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any, Literal

from conformance.readings._json_text import SAFE_INT
from conformance.readings._text import Whitespace, strip_ws
from conformance.readings._timestamps import TsGrammar, parse_ts

__all__ = [
    "CLAUSE_OF_ERROR",
    "CheckOrder",
    "IntReading",
    "MaxItemsReading",
    "MembersReading",
    "Options",
    "RecencyReading",
    "RequestError",
    "check_request",
    "pointer",
]

#: INT-41: what a request int is: any "integral" JSON number (pinned), or only a number
#: "written-integer", without a fraction or exponent (``INT-41/written-integer``), or also a
#: string spelling a number, "Coerce numeric strings." (``INT-41/coerce-numeric-strings``).
IntReading = Literal["integral", "written-integer", "coerce-numeric-strings"]
#: INT-42: request members are "strict" (pinned: unknown members are errors, null is never
#: absent), or "Ignore unknown members." (``ignore-unknown``), or "Treat null as absent."
#: (``null-absent``), or both, "Ignore unknown members and treat null as absent" (``lenient``).
MembersReading = Literal["strict", "ignore-unknown", "null-absent", "lenient"]
#: INT-30: budget.max_items is any int >= 1 (pinned, ``at-least-1``), or "Reject max_items >
#: 50." (``reject-over-50``), "Clamp max_items to 50." (``clamp-to-50``), "max_items = 0 selects
#: nothing." (``zero-allowed``).
MaxItemsReading = Literal["at-least-1", "reject-over-50", "clamp-to-50", "zero-allowed"]

#: INT-40: the checks run in the order errors.md lists them, members in spec order (pinned,
#: ``spec``), or by "Precedence by JSON member order in the request text." (``text``).
CheckOrder = Literal["spec", "text"]

#: RFC 8259's number grammar (ASCII digits only), for INT-41/coerce-numeric-strings.
_NUMBER_TEXT = re.compile(r"-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?", re.ASCII)
#: INT-36: the recency members are validated "always" (pinned); or, the register's
#: ``alternatives[0]`` and ``[1]``: "Validate half-life only when recency is enabled."
#: (``INT-36/half-life-when-enabled``), "Ignore an invalid now_utc (disable recency)."
#: (``INT-36/ignore-invalid-now``).
RecencyReading = Literal["always", "half-life-when-enabled", "ignore-invalid-now"]

# ------------------------------------------------------------------------------------ errors

# errors.md: {"error": {"code", "message", "path", "clause"}}. The clause is the closest one in
# specs/clauses.toml, by error code or else by member; otherwise S6-ERR-01 ("MUST fail fast with
# structured errors"), e.g. for a non-object request or an unknown member.
CLAUSE_OF_ERROR = {
    "invalid_query": "S6-ERR-02",
    "invalid_store_paths": "S6-ERR-03",
    "/budget": "S6-ERR-04",
    "/budget/max_excerpt_tokens": "S6-ERR-04",
    "/budget/per_item_max_excerpt_tokens": "S6-INPUT-04",
    "/budget/max_items": "S6-INPUT-05",
    "/scoring/enable_recency_weight": "S6-INPUT-07",
    "/scoring/recency_half_life_days": "S6-INPUT-08",
    "/scoring/enable_tag_overlap": "S6-INPUT-10",
    "/scoring/query_terms": "S6-INPUT-11",
    "/trust_filter/deny_classifications": "S6-INPUT-12",
    "/trust_filter/trust_snapshot_path": "S6-INPUT-13",
    "invalid_now_utc": "S6-INPUT-14",
    "store_not_found": "S6-ERR-05",
    "store_not_readable": "S6-ERR-01",
    "trust_snapshot_not_found": "S6-TRUST-03",
    "invalid_trust_snapshot": "S6-INPUT-13",
}


class RequestError(Exception):
    """A SPEC-006 structured error; the first failure wins (errors.md precedence)."""

    def __init__(self, code: str, path: str, message: str) -> None:
        super().__init__(message)
        self.code, self.path, self.message = code, path, message

    def envelope(self) -> dict[str, Any]:
        member = "/".join(self.path.split("/")[:3])  # "/scoring/query_terms/3" -> member
        clause = CLAUSE_OF_ERROR.get(self.code) or CLAUSE_OF_ERROR.get(member, "S6-ERR-01")
        error = {"code": self.code, "message": self.message, "path": self.path}
        return {"error": error | {"clause": clause}}


def pointer(*tokens: str | int) -> str:
    """RFC 6901 JSON Pointer: '~' -> '~0', '/' -> '~1'."""
    return "".join("/" + str(t).replace("~", "~0").replace("/", "~1") for t in tokens)


# ------------------------------------------------------------------------- request checks


@dataclass(frozen=True)
class Options:
    """A checked request with the INPUT CONTRACT defaults applied (S6-DET-01)."""

    query: str
    store_paths: list[str]
    max_tokens: int
    per_item: int
    max_items: int
    recency: bool
    half_life: int
    tag_overlap: bool
    query_terms: list[str] | None
    deny: list[str]
    snapshot: str | None
    now: tuple[int, int, str] | None


def _as_int(value: object, ints: IntReading = "integral") -> int | None:
    """INT-41: an integral JSON number within +-(2**53-1); never a bool or a string."""
    if isinstance(value, bool):
        return None
    if (
        ints == "coerce-numeric-strings"
        and isinstance(value, str)
        and _NUMBER_TEXT.fullmatch(value)
    ):
        # INT-41/coerce-numeric-strings: "10" is read as the JSON number 10, then checked
        value = float(value) if any(c in value for c in ".eE") else int(value)
    if ints == "written-integer" and isinstance(value, float):
        # INT-41/written-integer: "Reject any number written with a fraction or exponent."
        return None  # a JSON number with '.', 'e' or 'E' parses to a float
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        value = int(value)  # 10.0 and 1e1 are the integer 10
    if isinstance(value, int) and -SAFE_INT <= value <= SAFE_INT:
        return value
    return None


def _positive_int(
    group: dict[str, Any],
    name: str,
    default: int,
    code: str,
    where: str,
    ints: IntReading = "integral",
) -> int:
    """'int (required, > 0)' / INT-30, INT-36: every budget and half-life integer is >= 1."""
    if name not in group:
        return default
    value = _as_int(group[name], ints)
    if value is None:
        raise RequestError(code, pointer(where, name), f"{where}.{name} must be an integer")
    if value <= 0:
        raise RequestError(code, pointer(where, name), f"{where}.{name} must be > 0")
    return value


def _bool(group: dict[str, Any], name: str, default: bool) -> bool:
    if name not in group:
        return default
    if not isinstance(group[name], bool):
        raise RequestError("invalid_scoring", pointer("scoring", name), f"{name} must be a bool")
    return bool(group[name])


def _reject_unknown(group: dict[str, Any], known: tuple[str, ...], code: str, *where: str) -> None:
    """INT-42: unknown members are errors, the first in code-point order reported."""
    unknown = sorted(set(group) - set(known))
    if unknown:
        raise RequestError(code, pointer(*where, unknown[0]), f"unknown member {unknown[0]!r}")


def _well_formed(value: str) -> bool:
    """INT-42: a request string must be valid Unicode (no lone surrogate)."""
    return not any(0xD800 <= ord(ch) <= 0xDFFF for ch in value)


def _string_list(value: object, code: str, path: str) -> list[str]:
    """'list[string]': an array whose elements are all (well-formed) strings."""
    if not isinstance(value, list):
        raise RequestError(code, path, f"{path} must be an array of strings")
    for i, item in enumerate(value):
        if not isinstance(item, str) or not _well_formed(item):
            raise RequestError(code, f"{path}/{i}", f"{path} must be an array of strings")
    return list(value)


def _group(request: dict[str, Any], name: str, code: str, required: bool) -> dict[str, Any]:
    """A member group (budget / scoring / trust_filter): 'null is never absent' (INT-42)."""
    if name not in request and not required:
        return {}
    group = request.get(name)
    if not isinstance(group, dict):
        raise RequestError(code, pointer(name), f"{name} must be an object")
    return group


def check_query(request: dict[str, Any], ws: Whitespace = "white-space") -> str:
    """(2) 'query: string (required, non-empty after trim)'; ERROR 'query missing/empty' (``ws``:
    the INT-05 reading of the trim)."""
    query = request.get("query")
    if not isinstance(query, str) or not _well_formed(query) or strip_ws(query, ws) == "":
        raise RequestError("invalid_query", "/query", "query must be a non-empty string")
    return query


def check_store_paths(request: dict[str, Any]) -> list[str]:
    """(3) 'store_paths: list[string] (required, non-empty ...)'; 'store_paths missing/empty'."""
    paths = request.get("store_paths")
    if not isinstance(paths, list) or not paths:
        raise RequestError("invalid_store_paths", "/store_paths", "store_paths must be non-empty")
    for i, path in enumerate(paths):
        if not isinstance(path, str) or path == "" or not _well_formed(path):
            where = f"/store_paths/{i}"
            raise RequestError(
                "invalid_store_paths", where, "a store path must be a non-empty string"
            )
    return list(paths)


def _max_items(
    budget: dict[str, Any], ints: IntReading, reading: MaxItemsReading = "at-least-1"
) -> int:
    """'max_items: int (optional, defaults to 50; hard cap)', as INT-30 (``reading``) says."""
    if (
        reading == "zero-allowed"
        and "max_items" in budget
        and _as_int(budget["max_items"], ints) == 0
    ):
        return 0  # INT-30/max-items-0-selects: accepted; selection stops before the first
    items = _positive_int(budget, "max_items", 50, "invalid_budget", "budget", ints)
    if reading == "reject-over-50" and items > 50:
        raise RequestError("invalid_budget", "/budget/max_items", "budget.max_items must be <= 50")
    if reading == "clamp-to-50":
        return min(items, 50)
    return items


def check_budget(
    request: dict[str, Any],
    ints: IntReading = "integral",
    max_items: MaxItemsReading = "at-least-1",
) -> tuple[int, int, int]:
    """(4) budget: max_excerpt_tokens (required, > 0), per_item_max_excerpt_tokens, max_items
    (``max_items``: the INT-30 reading)."""
    budget = _group(request, "budget", "invalid_budget", required=True)
    if "max_excerpt_tokens" not in budget:
        raise RequestError(
            "invalid_budget", "/budget/max_excerpt_tokens", "budget.max_excerpt_tokens is required"
        )
    max_tokens = _positive_int(budget, "max_excerpt_tokens", 0, "invalid_budget", "budget", ints)
    # "optional, defaults to max_excerpt_tokens" / "optional, defaults to 50; hard cap"
    per_item = _positive_int(
        budget, "per_item_max_excerpt_tokens", max_tokens, "invalid_budget", "budget", ints
    )
    items = _max_items(budget, ints, max_items)
    _reject_unknown(budget, _BUDGET, "invalid_budget", "budget")
    return max_tokens, per_item, items


def check_scoring(
    request: dict[str, Any],
    ints: IntReading = "integral",
    recency_reading: RecencyReading = "always",
) -> tuple[bool, int, bool, list[str] | None]:
    """(5) scoring, members in spec order; INT-36: the half-life is checked even if unused."""
    scoring = _group(request, "scoring", "invalid_scoring", required=False)
    recency = _bool(scoring, "enable_recency_weight", False)
    if recency_reading == "half-life-when-enabled" and not recency:
        half_life = 30  # INT-36/half-life-when-enabled: not validated, and never used
    else:
        half_life = _positive_int(
            scoring, "recency_half_life_days", 30, "invalid_scoring", "scoring", ints
        )
    tag_overlap = _bool(scoring, "enable_tag_overlap", True)
    terms = None
    if "query_terms" in scoring:
        terms = _string_list(scoring["query_terms"], "invalid_scoring", "/scoring/query_terms")
    _reject_unknown(scoring, _SCORING, "invalid_scoring", "scoring")
    return recency, half_life, tag_overlap, terms


def check_trust_filter(request: dict[str, Any]) -> tuple[list[str], str | None]:
    """(6) trust_filter: deny_classifications (default ["malicious"]), trust_snapshot_path."""
    trust = _group(request, "trust_filter", "invalid_trust_filter", required=False)
    deny = ["malicious"]
    if "deny_classifications" in trust:
        # errors.md: /trust_filter/deny_classifications/<i> for a bad element.
        where = "/trust_filter/deny_classifications"
        deny = _string_list(trust["deny_classifications"], "invalid_trust_filter", where)
    snapshot = trust.get("trust_snapshot_path")
    if "trust_snapshot_path" in trust and (
        not isinstance(snapshot, str) or snapshot == "" or not _well_formed(snapshot)
    ):
        where = "/trust_filter/trust_snapshot_path"
        raise RequestError("invalid_trust_filter", where, "trust_snapshot_path must be non-empty")
    _reject_unknown(trust, _TRUST, "invalid_trust_filter", "trust_filter")
    return deny, snapshot


def check_now_utc(
    request: dict[str, Any],
    ts_grammar: TsGrammar = "profile",
    recency_reading: RecencyReading = "always",
) -> tuple[int, int, str] | None:
    """(7) 'now_utc: string (optional ISO8601 UTC timestamp)', INT-20 grammar (INT-36)."""
    if "now_utc" not in request:
        return None
    raw = request["now_utc"]
    now = parse_ts(raw, ts_grammar) if isinstance(raw, str) else None
    if now is None and recency_reading == "ignore-invalid-now":
        # INT-36/ignore-invalid-now: what errors.md check 7 calls an invalid now_utc ("not a
        # string, or not a valid UTC timestamp") is ignored: no now_utc, so no recency.
        return None
    if now is None:
        raise RequestError("invalid_now_utc", "/now_utc", "now_utc must be a UTC timestamp")
    return now


def check_request(
    request: object,
    *,
    ints: IntReading = "integral",
    ts_grammar: TsGrammar = "profile",
    recency: RecencyReading = "always",
    whitespace: Whitespace = "white-space",
    members: MembersReading = "strict",
    max_items: MaxItemsReading = "at-least-1",
    order: CheckOrder = "spec",
) -> Options:
    """errors.md checks 1-8, in this order; the first failure wins (INT-40).

    ``ints`` is the INT-41 reading of a request int, ``ts_grammar`` the INT-20 reading of
    now_utc, ``recency`` the INT-36 reading of the recency members and ``whitespace`` the INT-05
    reading of the query's trim, ``members`` the INT-42 reading and ``max_items`` the INT-30
    reading of budget.max_items, ``order`` the INT-40 order of the checks; the defaults are the
    pinned readings.
    """
    if not isinstance(request, dict):  # (1)
        raise RequestError("invalid_request", "", "request must be a JSON object")
    request = _as_read(request, members)
    if order == "text":
        _text_order_first(request, ints, ts_grammar, recency, whitespace, max_items)
    query = check_query(request, whitespace)
    store_paths = check_store_paths(request)
    max_tokens, per_item, items = check_budget(request, ints, max_items)
    recency_on, half_life, tag_overlap, terms = check_scoring(request, ints, recency)
    deny, snapshot = check_trust_filter(request)
    now = check_now_utc(request, ts_grammar, recency)
    _reject_unknown(request, _TOP, "invalid_request")  # (8) unknown top-level members
    return Options(
        query, store_paths, max_tokens, per_item, items, recency_on, half_life, tag_overlap,
        terms, deny, snapshot, now,
    )  # fmt: skip


def _text_order_first(
    request: dict[str, Any],
    ints: IntReading,
    ts_grammar: TsGrammar,
    recency: RecencyReading,
    whitespace: Whitespace,
    max_items: MaxItemsReading,
) -> None:
    """INT-40/precedence-json-member-order: "Precedence by JSON member order in the request
    text." Every member written in the request (and in budget, scoring, trust_filter) is checked
    on its own, in the order written; the first that fails is the error. What is left (a
    required member that is absent) fails afterwards, in the usual order."""
    groups = {
        "budget": (_BUDGET, "invalid_budget"),
        "scoring": (_SCORING, "invalid_scoring"),
        "trust_filter": (_TRUST, "invalid_trust_filter"),
    }
    for name, value in request.items():
        if name not in _TOP:
            raise RequestError("invalid_request", pointer(name), f"unknown member {name!r}")
        if name == "query":
            check_query(request, whitespace)
        elif name == "store_paths":
            check_store_paths(request)
        elif name == "now_utc":
            check_now_utc(request, ts_grammar, recency)
        elif not isinstance(value, dict):
            raise RequestError(groups[name][1], pointer(name), f"{name} must be an object")
        else:
            known, code = groups[name]
            for member, item in value.items():
                if member not in known:
                    raise RequestError(code, pointer(name, member), f"unknown member {member!r}")
                alone = {member: item}
                if name == "budget" and member != "max_excerpt_tokens":
                    alone["max_excerpt_tokens"] = 1  # the required member, valid
                    check_budget({"budget": alone}, ints, max_items)
                elif name == "budget":
                    check_budget({"budget": alone}, ints, max_items)
                elif name == "scoring":
                    enabled = value.get("enable_recency_weight")
                    if member == "recency_half_life_days" and isinstance(enabled, bool):
                        alone["enable_recency_weight"] = enabled  # INT-36 reads it
                    check_scoring({"scoring": alone}, ints, recency)
                else:
                    check_trust_filter({"trust_filter": alone})
            if name == "budget":
                check_budget({"budget": value}, ints, max_items)  # a required member absent


def _as_read(request: dict[str, Any], members: MembersReading) -> dict[str, Any]:
    """The request the checks see under an INT-42 alternative: "Ignore unknown members." drops
    the members INPUT CONTRACT does not define; "Treat null as absent." drops null members; both
    at the top level and inside budget, scoring and trust_filter."""
    if members == "strict":
        return request

    def kept(body: dict[str, Any], known: tuple[str, ...]) -> dict[str, Any]:
        if members != "null-absent":  # unknown members dropped
            body = {k: v for k, v in body.items() if k in known}
        if members != "ignore-unknown":  # null members dropped
            body = {k: v for k, v in body.items() if v is not None}
        return body

    out = kept(request, _TOP)
    for name, known in (("budget", _BUDGET), ("scoring", _SCORING), ("trust_filter", _TRUST)):
        if isinstance(out.get(name), dict):
            out[name] = kept(out[name], known)
    return out


_TOP = ("query", "store_paths", "budget", "scoring", "trust_filter", "now_utc")
_BUDGET = ("max_excerpt_tokens", "per_item_max_excerpt_tokens", "max_items")
_SCORING = ("enable_recency_weight", "recency_half_life_days", "enable_tag_overlap", "query_terms")
_TRUST = ("deny_classifications", "trust_snapshot_path")
