"""Hand vectors: every error code of specs/errors.md, paths, precedence, type confusion (family ``errors``).

Every request here names an existing, valid store s.jsonl unless the vector is about stores, so
the only fault is the one the vector is about (or the two whose precedence it checks).
"""

# ruff: noqa: E501

from __future__ import annotations

from typing import Any

from tools.generate.hand._dsl import L, bud, err, lines, ok, package, rec, sel, snapshot, vec

DESCRIPTION = "Hand-written: error codes and JSON Pointer paths, check order and precedence, integer type confusion."
S = "s.jsonl"
FILES = {S: lines(L(memory_id="m1", text="note"))}
_m1 = rec("m1", "note")


def _base(**changes: Any) -> dict[str, Any]:
    """A valid request with members replaced or added (a None value is JSON null, not removal)."""
    request: dict[str, Any] = {
        "query": "note",
        "store_paths": [S],
        "budget": {"max_excerpt_tokens": 10},
    }
    request.update(changes)
    return request


def _without(key: str) -> dict[str, Any]:
    request = _base()
    del request[key]
    return request


_E = ["INT-40"]
_counter = iter(range(1, 1000))


def _e(
    description: str,
    comment: str,
    clauses: list[str],
    request: Any,
    code: str,
    path: str,
    ints: list[str] | None = None,
    files: dict[str, Any] | None = None,
) -> dict[str, Any]:
    return vec(
        f"errors-h{next(_counter):03d}",
        description,
        comment=comment,
        clauses=[*clauses, "S6-ERR-01", "S6-ERR-07"],
        interpretations=sorted(set(_E + (ints or []))),
        request=request,
        files=FILES if files is None else files,
        expect=err(code, path),
    )


VECTORS = [
    # ------------------------------------------------------------ (2) query
    _e(
        "query missing: invalid_query.",
        "No 'query' member -> 'query missing' -> invalid_query at /query (errors.md row 2).",
        ["S6-INPUT-01", "S6-ERR-02"],
        _without("query"),
        "invalid_query",
        "/query",
    ),
    _e(
        "query not a string: invalid_query.",
        "query 5 (a number) -> not a string -> invalid_query at /query.",
        ["S6-INPUT-01", "S6-ERR-02"],
        _base(query=5),
        "invalid_query",
        "/query",
    ),
    _e(
        "query empty string: invalid_query.",
        "query '' -> empty after trim -> invalid_query at /query.",
        ["S6-INPUT-01", "S6-ERR-02"],
        _base(query=""),
        "invalid_query",
        "/query",
    ),
    _e(
        "query null: invalid_query (null is not absent, and not a string).",
        "query null -> not a string (INT-42: null is never 'absent'; query is required anyway) -> invalid_query at /query.",
        ["S6-INPUT-01", "S6-ERR-02"],
        _base(query=None),
        "invalid_query",
        "/query",
        ["INT-42"],
    ),
    # ------------------------------------------------------------ (3) store_paths
    _e(
        "store_paths missing: invalid_store_paths.",
        "No 'store_paths' -> invalid_store_paths at /store_paths (row 3).",
        ["S6-INPUT-02", "S6-ERR-03"],
        _without("store_paths"),
        "invalid_store_paths",
        "/store_paths",
    ),
    _e(
        "store_paths empty: invalid_store_paths.",
        "store_paths [] -> 'required, non-empty' -> invalid_store_paths at /store_paths.",
        ["S6-INPUT-02", "S6-ERR-03"],
        _base(store_paths=[]),
        "invalid_store_paths",
        "/store_paths",
    ),
    _e(
        "store_paths a string, not a list: invalid_store_paths.",
        "store_paths 's.jsonl' (a string) -> not an array -> invalid_store_paths at /store_paths (no coercion to a one-element list).",
        ["S6-INPUT-02", "S6-ERR-03"],
        _base(store_paths=S),
        "invalid_store_paths",
        "/store_paths",
    ),
    _e(
        "An empty-string element: invalid_store_paths at its index.",
        "store_paths ['s.jsonl', ''] -> element 1 is not a non-empty string -> invalid_store_paths at /store_paths/1.",
        ["S6-INPUT-02"],
        _base(store_paths=[S, ""]),
        "invalid_store_paths",
        "/store_paths/1",
    ),
    _e(
        "The first bad element is reported.",
        "store_paths ['s.jsonl', 5, ''] -> elements 1 (a number) and 2 (empty) are bad; the first bad element wins -> /store_paths/1.",
        ["S6-INPUT-02"],
        _base(store_paths=[S, 5, ""]),
        "invalid_store_paths",
        "/store_paths/1",
    ),
    # ------------------------------------------------------------ (4) budget
    _e(
        "budget missing: invalid_budget.",
        "No 'budget' -> invalid_budget at /budget (row 4).",
        ["S6-INPUT-03"],
        _without("budget"),
        "invalid_budget",
        "/budget",
    ),
    _e(
        "budget not an object: invalid_budget.",
        "budget [10] -> not an object -> invalid_budget at /budget.",
        ["S6-INPUT-03"],
        _base(budget=[10]),
        "invalid_budget",
        "/budget",
    ),
    _e(
        "max_excerpt_tokens missing: invalid_budget at the member.",
        "budget {} -> max_excerpt_tokens is required -> invalid_budget; path points at the missing member /budget/max_excerpt_tokens (as /query does for a missing query; errors.md row 4 lists /budget/<member>).",
        ["S6-INPUT-03"],
        _base(budget={}),
        "invalid_budget",
        "/budget/max_excerpt_tokens",
    ),
    _e(
        "max_excerpt_tokens 0: invalid_budget.",
        "max_excerpt_tokens 0 -> 'budget.max_excerpt_tokens <= 0' -> invalid_budget at /budget/max_excerpt_tokens.",
        ["S6-INPUT-03", "S6-ERR-04"],
        _base(budget={"max_excerpt_tokens": 0}),
        "invalid_budget",
        "/budget/max_excerpt_tokens",
    ),
    _e(
        "max_excerpt_tokens negative: invalid_budget.",
        "max_excerpt_tokens -5 -> <= 0 -> invalid_budget at /budget/max_excerpt_tokens.",
        ["S6-INPUT-03", "S6-ERR-04"],
        _base(budget={"max_excerpt_tokens": -5}),
        "invalid_budget",
        "/budget/max_excerpt_tokens",
    ),
    _e(
        "max_excerpt_tokens true: a bool is not an int.",
        "max_excerpt_tokens true -> a bool is never an int (INT-41; Python's bool subclasses int) -> invalid_budget at /budget/max_excerpt_tokens.",
        ["S6-INPUT-03"],
        _base(budget={"max_excerpt_tokens": True}),
        "invalid_budget",
        "/budget/max_excerpt_tokens",
        ["INT-41"],
    ),
    _e(
        'max_excerpt_tokens "10": strings are not coerced.',
        "max_excerpt_tokens '10' (a string) -> not an int, never coerced (INT-41) -> invalid_budget at /budget/max_excerpt_tokens.",
        ["S6-INPUT-03"],
        _base(budget={"max_excerpt_tokens": "10"}),
        "invalid_budget",
        "/budget/max_excerpt_tokens",
        ["INT-41"],
    ),
    _e(
        "max_excerpt_tokens 1.5: not integral.",
        "max_excerpt_tokens 1.5 -> not an integral value (INT-41) -> invalid_budget at /budget/max_excerpt_tokens.",
        ["S6-INPUT-03"],
        _base(budget={"max_excerpt_tokens": 1.5}),
        "invalid_budget",
        "/budget/max_excerpt_tokens",
        ["INT-41"],
    ),
    _e(
        "max_excerpt_tokens 2**53 is out of range.",
        "max_excerpt_tokens 9007199254740992 = 2**53 > 2**53 - 1 -> integral but beyond the int range (INT-41) -> invalid_budget at /budget/max_excerpt_tokens.",
        ["S6-INPUT-03"],
        _base(budget={"max_excerpt_tokens": 9007199254740992}),
        "invalid_budget",
        "/budget/max_excerpt_tokens",
        ["INT-41"],
    ),
    _e(
        "per_item_max_excerpt_tokens 0: invalid_budget.",
        "per_item_max_excerpt_tokens 0 -> <= 0 (INT-30) -> invalid_budget at /budget/per_item_max_excerpt_tokens.",
        ["S6-INPUT-04"],
        _base(budget={"max_excerpt_tokens": 10, "per_item_max_excerpt_tokens": 0}),
        "invalid_budget",
        "/budget/per_item_max_excerpt_tokens",
        ["INT-30"],
    ),
    _e(
        "per_item_max_excerpt_tokens true: invalid_budget.",
        "per_item_max_excerpt_tokens true -> a bool is not an int (INT-41) -> invalid_budget at /budget/per_item_max_excerpt_tokens.",
        ["S6-INPUT-04"],
        _base(budget={"max_excerpt_tokens": 10, "per_item_max_excerpt_tokens": True}),
        "invalid_budget",
        "/budget/per_item_max_excerpt_tokens",
        ["INT-41"],
    ),
    _e(
        "max_items 0: invalid_budget.",
        "max_items 0 -> <= 0 (INT-30: not 'select nothing') -> invalid_budget at /budget/max_items.",
        ["S6-INPUT-05", "S6-INPUT-06"],
        _base(budget={"max_excerpt_tokens": 10, "max_items": 0}),
        "invalid_budget",
        "/budget/max_items",
        ["INT-30"],
    ),
    _e(
        "max_items null: invalid_budget (null is not absent).",
        "max_items null -> null is never 'absent' (INT-42) -> not an int -> invalid_budget at /budget/max_items (not the default 50).",
        ["S6-INPUT-05"],
        _base(budget={"max_excerpt_tokens": 10, "max_items": None}),
        "invalid_budget",
        "/budget/max_items",
        ["INT-42"],
    ),
    _e(
        'max_items "5": invalid_budget.',
        "max_items '5' (a string) -> not an int (INT-41) -> invalid_budget at /budget/max_items.",
        ["S6-INPUT-05"],
        _base(budget={"max_excerpt_tokens": 10, "max_items": "5"}),
        "invalid_budget",
        "/budget/max_items",
        ["INT-41"],
    ),
    _e(
        "Unknown budget member (typo): invalid_budget at it.",
        "budget {max_excerpt_tokens 10, max_item 5}: 'max_item' is not a budget member -> invalid_budget (the group's code, not invalid_request) at /budget/max_item (INT-42).",
        ["S6-INPUT-05"],
        _base(budget={"max_excerpt_tokens": 10, "max_item": 5}),
        "invalid_budget",
        "/budget/max_item",
        ["INT-42"],
    ),
    _e(
        "Budget members are checked in spec order, before unknown members.",
        "budget {zzz 1, max_items 0, per_item_max_excerpt_tokens 'x', max_excerpt_tokens 5} (JSON order irrelevant): check order max_excerpt_tokens (ok), per_item (bad) -> reported first -> /budget/per_item_max_excerpt_tokens.",
        ["S6-INPUT-04"],
        _base(
            budget={
                "zzz": 1,
                "max_items": 0,
                "per_item_max_excerpt_tokens": "x",
                "max_excerpt_tokens": 5,
            }
        ),
        "invalid_budget",
        "/budget/per_item_max_excerpt_tokens",
        ["INT-42"],
    ),
    _e(
        "Two unknown budget members: the first in code-point order is reported.",
        "budget {max_excerpt_tokens 5, zeta 1, Alpha 2}: unknown members 'zeta', 'Alpha'; code-point order 'A' 0x41 < 'z' -> /budget/Alpha.",
        ["S6-INPUT-03"],
        _base(budget={"max_excerpt_tokens": 5, "zeta": 1, "Alpha": 2}),
        "invalid_budget",
        "/budget/Alpha",
        ["INT-42"],
    ),
    # ------------------------------------------------------------ (5) scoring
    _e(
        "scoring not an object: invalid_scoring.",
        "scoring 'yes' -> not an object -> invalid_scoring at /scoring (row 5).",
        ["S6-INPUT-07"],
        _base(scoring="yes"),
        "invalid_scoring",
        "/scoring",
    ),
    _e(
        "scoring null: invalid_scoring.",
        "scoring null -> not 'absent' (INT-42) -> not an object -> invalid_scoring at /scoring.",
        ["S6-INPUT-07"],
        _base(scoring=None),
        "invalid_scoring",
        "/scoring",
        ["INT-42"],
    ),
    _e(
        'enable_recency_weight "true": invalid_scoring.',
        "enable_recency_weight 'true' (a string) -> not a bool -> invalid_scoring at /scoring/enable_recency_weight.",
        ["S6-INPUT-07"],
        _base(scoring={"enable_recency_weight": "true"}),
        "invalid_scoring",
        "/scoring/enable_recency_weight",
    ),
    _e(
        "recency_half_life_days 0 is invalid even with recency disabled.",
        "recency_half_life_days 0 with enable_recency_weight absent (false): the half-life must be an int >= 1 whether or not recency is enabled (INT-36) -> invalid_scoring at /scoring/recency_half_life_days.",
        ["S6-INPUT-08", "S6-INPUT-09"],
        _base(scoring={"recency_half_life_days": 0}),
        "invalid_scoring",
        "/scoring/recency_half_life_days",
        ["INT-36"],
    ),
    _e(
        "recency_half_life_days 1.5: invalid_scoring.",
        "recency_half_life_days 1.5 -> not integral (INT-41) -> invalid_scoring at /scoring/recency_half_life_days.",
        ["S6-INPUT-08"],
        _base(scoring={"enable_recency_weight": True, "recency_half_life_days": 1.5}),
        "invalid_scoring",
        "/scoring/recency_half_life_days",
        ["INT-41"],
    ),
    _e(
        "enable_tag_overlap 1: a number is not a bool.",
        "enable_tag_overlap 1 -> not a bool -> invalid_scoring at /scoring/enable_tag_overlap.",
        ["S6-INPUT-10"],
        _base(scoring={"enable_tag_overlap": 1}),
        "invalid_scoring",
        "/scoring/enable_tag_overlap",
    ),
    _e(
        "query_terms a string: invalid_scoring.",
        "query_terms 'abc' -> not an array -> invalid_scoring at /scoring/query_terms.",
        ["S6-INPUT-11"],
        _base(scoring={"query_terms": "abc"}),
        "invalid_scoring",
        "/scoring/query_terms",
    ),
    _e(
        "query_terms with a non-string element: path to the element.",
        "query_terms ['ok', 5] -> element 1 is not a string -> invalid_scoring at /scoring/query_terms/1.",
        ["S6-INPUT-11"],
        _base(scoring={"query_terms": ["ok", 5]}),
        "invalid_scoring",
        "/scoring/query_terms/1",
    ),
    _e(
        "Unknown scoring member: invalid_scoring at it.",
        "scoring {query_term ['x']} (typo) -> unknown member -> invalid_scoring at /scoring/query_term (INT-42).",
        ["S6-INPUT-11"],
        _base(scoring={"query_term": ["x"]}),
        "invalid_scoring",
        "/scoring/query_term",
        ["INT-42"],
    ),
    _e(
        "Scoring members are checked in spec order, not JSON order.",
        "scoring {query_terms 5, enable_recency_weight 'no'}: spec order enable_recency_weight, recency_half_life_days, enable_tag_overlap, query_terms -> enable_recency_weight is reported first -> /scoring/enable_recency_weight.",
        ["S6-INPUT-07"],
        _base(scoring={"query_terms": 5, "enable_recency_weight": "no"}),
        "invalid_scoring",
        "/scoring/enable_recency_weight",
    ),
    # ------------------------------------------------------------ (6) trust_filter
    _e(
        "trust_filter not an object: invalid_trust_filter.",
        "trust_filter ['malicious'] -> not an object -> invalid_trust_filter at /trust_filter (row 6).",
        ["S6-INPUT-12"],
        _base(trust_filter=["malicious"]),
        "invalid_trust_filter",
        "/trust_filter",
    ),
    _e(
        "deny_classifications a string: invalid_trust_filter.",
        "deny_classifications 'malicious' -> not an array of strings -> invalid_trust_filter at /trust_filter/deny_classifications.",
        ["S6-INPUT-12"],
        _base(trust_filter={"deny_classifications": "malicious"}),
        "invalid_trust_filter",
        "/trust_filter/deny_classifications",
    ),
    _e(
        "deny_classifications with a non-string element: path to the element.",
        "deny_classifications ['malicious', 1] -> not an array of strings -> invalid_trust_filter; errors.md row 6: '/trust_filter/deny_classifications/<i> for a bad element' -> /trust_filter/deny_classifications/1.",
        ["S6-INPUT-12"],
        _base(trust_filter={"deny_classifications": ["malicious", 1]}),
        "invalid_trust_filter",
        "/trust_filter/deny_classifications/1",
    ),
    _e(
        "trust_snapshot_path empty: invalid_trust_filter.",
        "trust_snapshot_path '' -> not a non-empty string -> invalid_trust_filter at /trust_filter/trust_snapshot_path (a validation error, checked before any file access).",
        ["S6-INPUT-13"],
        _base(trust_filter={"trust_snapshot_path": ""}),
        "invalid_trust_filter",
        "/trust_filter/trust_snapshot_path",
    ),
    _e(
        "Unknown trust_filter member: invalid_trust_filter at it.",
        "trust_filter {snapshot 'trust.json'} -> unknown member -> invalid_trust_filter at /trust_filter/snapshot (INT-42).",
        ["S6-INPUT-13"],
        _base(trust_filter={"snapshot": "trust.json"}),
        "invalid_trust_filter",
        "/trust_filter/snapshot",
        ["INT-42"],
    ),
    # ------------------------------------------------------------ (7) now_utc
    _e(
        "now_utc a date without time: invalid_now_utc.",
        "now_utc '2024-01-01' -> not the INT-20 date-time grammar -> invalid_now_utc at /now_utc (row 7), even with recency disabled (INT-36).",
        ["S6-INPUT-14"],
        _base(now_utc="2024-01-01"),
        "invalid_now_utc",
        "/now_utc",
        ["INT-20", "INT-36"],
    ),
    _e(
        "now_utc with a non-UTC offset: invalid_now_utc.",
        "now_utc '2024-01-01T00:00:00+01:00' -> not UTC (INT-20) -> invalid_now_utc at /now_utc.",
        ["S6-INPUT-14"],
        _base(now_utc="2024-01-01T00:00:00+01:00", scoring={"enable_recency_weight": True}),
        "invalid_now_utc",
        "/now_utc",
        ["INT-20", "INT-36"],
    ),
    _e(
        "now_utc a number: invalid_now_utc.",
        "now_utc 1704067200 (epoch seconds) -> not a string -> invalid_now_utc at /now_utc.",
        ["S6-INPUT-14"],
        _base(now_utc=1704067200),
        "invalid_now_utc",
        "/now_utc",
        ["INT-36"],
    ),
    _e(
        "now_utc null: invalid_now_utc.",
        "now_utc null -> not 'absent' (INT-42) -> not a string -> invalid_now_utc at /now_utc.",
        ["S6-INPUT-14", "S6-INPUT-15"],
        _base(now_utc=None),
        "invalid_now_utc",
        "/now_utc",
        ["INT-42", "INT-36"],
    ),
    # ------------------------------------------------------------ (1), (8) request
    _e(
        "Unknown top-level member: invalid_request at it.",
        "Request has 'Query' (capitalized typo) besides a valid 'query' -> undefined member -> invalid_request at /Query (row 8, INT-42).",
        ["S6-INPUT-01"],
        _base(Query="note"),
        "invalid_request",
        "/Query",
        ["INT-42"],
    ),
    _e(
        "Two unknown top-level members: the first in code-point order.",
        "Unknown 'zeta' and 'alpha' -> code-point order -> invalid_request at /alpha.",
        ["S6-INPUT-01"],
        _base(zeta=1, alpha=2),
        "invalid_request",
        "/alpha",
        ["INT-42"],
    ),
    _e(
        "A request that is not an object: invalid_request at ''.",
        "request ['note'] (an array) -> check (1) -> invalid_request at '' (the whole request).",
        [],
        ["note"],
        "invalid_request",
        "",
        ["INT-44"],
    ),
    _e(
        "A request that is a string: invalid_request at ''.",
        "request 'note' (a JSON string) -> not an object -> invalid_request at ''.",
        [],
        "note",
        "invalid_request",
        "",
        ["INT-44"],
    ),
    # ------------------------------------------------------------ precedence
    _e(
        "Precedence: invalid query beats invalid store_paths.",
        "query '' and store_paths [] are both invalid; check (2) query runs before (3) store_paths -> invalid_query at /query.",
        ["S6-ERR-02", "S6-ERR-03"],
        _base(query="", store_paths=[]),
        "invalid_query",
        "/query",
    ),
    _e(
        "Precedence: invalid store_paths beats missing budget.",
        "store_paths [''] and no budget: (3) before (4) -> invalid_store_paths at /store_paths/0.",
        ["S6-ERR-03"],
        {"query": "note", "store_paths": [""]},
        "invalid_store_paths",
        "/store_paths/0",
    ),
    _e(
        "Precedence: invalid budget beats invalid scoring.",
        "max_excerpt_tokens 0 and scoring 'x': (4) before (5) -> invalid_budget at /budget/max_excerpt_tokens.",
        ["S6-ERR-04"],
        _base(budget={"max_excerpt_tokens": 0}, scoring="x"),
        "invalid_budget",
        "/budget/max_excerpt_tokens",
    ),
    _e(
        "Precedence: invalid scoring beats invalid trust_filter.",
        "scoring {enable_tag_overlap 'yes'} and trust_filter 5: (5) before (6) -> invalid_scoring at /scoring/enable_tag_overlap.",
        ["S6-INPUT-10"],
        _base(scoring={"enable_tag_overlap": "yes"}, trust_filter=5),
        "invalid_scoring",
        "/scoring/enable_tag_overlap",
    ),
    _e(
        "Precedence: invalid trust_filter beats invalid now_utc.",
        "trust_filter {deny_classifications 5} and now_utc 'yesterday': (6) before (7) -> invalid_trust_filter at /trust_filter/deny_classifications.",
        ["S6-INPUT-12"],
        _base(trust_filter={"deny_classifications": 5}, now_utc="yesterday"),
        "invalid_trust_filter",
        "/trust_filter/deny_classifications",
    ),
    _e(
        "Precedence: invalid now_utc beats an unknown member.",
        "now_utc 'yesterday' and unknown member 'extra': (7) before (8) -> invalid_now_utc at /now_utc.",
        ["S6-INPUT-14"],
        _base(now_utc="yesterday", extra=True),
        "invalid_now_utc",
        "/now_utc",
        ["INT-20", "INT-36"],
    ),
    _e(
        "Precedence: an unknown member beats a missing store.",
        "Unknown member 'extra' and store_paths ['missing.jsonl']: request checks (8) run before any filesystem check (9) -> invalid_request at /extra.",
        ["S6-ERR-05"],
        _base(store_paths=["missing.jsonl"], extra=True),
        "invalid_request",
        "/extra",
        ["INT-42"],
    ),
    _e(
        "Precedence: a missing store beats a missing trust snapshot.",
        "store_paths ['missing.jsonl'] and trust_snapshot_path 'missing-trust.json', neither exists: (9) stores before (10) snapshot -> store_not_found at /store_paths/0.",
        ["S6-ERR-05", "S6-ERR-06"],
        _base(
            store_paths=["missing.jsonl"],
            trust_filter={"trust_snapshot_path": "missing-trust.json"},
        ),
        "store_not_found",
        "/store_paths/0",
        ["INT-13"],
    ),
    _e(
        "Precedence: a bad store path element beats a negative budget (both request checks).",
        "store_paths [5] and max_excerpt_tokens -1: (3) before (4) -> invalid_store_paths at /store_paths/0.",
        ["S6-ERR-03", "S6-ERR-04"],
        _base(store_paths=[5], budget={"max_excerpt_tokens": -1}),
        "invalid_store_paths",
        "/store_paths/0",
    ),
    _e(
        "Error before store access: a missing store is not reported when the budget is invalid.",
        "store_paths ['missing.jsonl'], max_excerpt_tokens 0 -> invalid_budget at /budget/max_excerpt_tokens (fail fast on input checks before touching the filesystem).",
        ["S6-ERR-04", "S6-ERR-05"],
        _base(store_paths=["missing.jsonl"], budget={"max_excerpt_tokens": 0}),
        "invalid_budget",
        "/budget/max_excerpt_tokens",
        ["INT-13"],
    ),
    _e(
        "Precedence: a store error beats an invalid snapshot file.",
        "store_paths ['missing.jsonl'], trust.json exists but is '{}' (invalid snapshot): (9) before (10) -> store_not_found at /store_paths/0.",
        ["S6-ERR-05"],
        _base(store_paths=["missing.jsonl"], trust_filter={"trust_snapshot_path": "trust.json"}),
        "store_not_found",
        "/store_paths/0",
        ["INT-13", "INT-38"],
        files={"trust.json": snapshot({})},
    ),
    _e(
        "A trust snapshot check runs only after every store passed.",
        "Stores fine; trust_snapshot_path 'missing-trust.json' does not exist -> trust_snapshot_not_found at /trust_filter/trust_snapshot_path (row 11).",
        ["S6-INPUT-13"],
        _base(trust_filter={"trust_snapshot_path": "missing-trust.json"}),
        "trust_snapshot_not_found",
        "/trust_filter/trust_snapshot_path",
        ["INT-38"],
    ),
]

# ---------------------------------------------------------------- accepted integer spellings
VECTORS.append(
    vec(
        f"errors-h{next(_counter):03d}",
        "max_excerpt_tokens 10.0 is the integer 10 (accepted).",
        comment=(
            "max_excerpt_tokens written 10.0 in the request JSON: an integral JSON number is an int (INT-41; JSON has one number "
            "type) -> valid, budget 10. m1 'note' -> score 1, 1 token. Package budget max 10 (10 == 10.0 as doubles, INT-48), "
            "used 1, remaining 9, per_item 10."
        ),
        clauses=["S6-INPUT-03", "S6-OUT-04"],
        interpretations=["INT-41", "INT-48"],
        request=_base(budget={"max_excerpt_tokens": 10.0}),
        files=FILES,
        expect=ok(
            package("note", "note", bud(10, 1, 9, 10, 50), [sel(_m1, S, 1, "note", 1)], []), [S]
        ),
    )
)
VECTORS.append(
    vec(
        f"errors-h{next(_counter):03d}",
        "max_excerpt_tokens 2**53 - 1 is the largest accepted int.",
        comment=(
            "max_excerpt_tokens 9007199254740991 = 2**53 - 1 -> in range (INT-41) -> valid. per_item defaults to it; max_bytes is "
            "huge, no cut. m1 'note' -> 1 token. used 1, remaining 9007199254740991 - 1 = 9007199254740990, per_item "
            "9007199254740991, max_items 50. Both integers are exact doubles, so JCS writes them digit for digit."
        ),
        clauses=["S6-INPUT-03", "S6-TOK-03"],
        interpretations=["INT-41"],
        request=_base(budget={"max_excerpt_tokens": 9007199254740991}),
        files=FILES,
        expect=ok(
            package(
                "note",
                "note",
                bud(9007199254740991, 1, 9007199254740990, 9007199254740991, 50),
                [sel(_m1, S, 1, "note", 1)],
                [],
            ),
            [S],
        ),
    )
)
VECTORS.append(
    vec(
        f"errors-h{next(_counter):03d}",
        "max_items 3.0 and per_item_max_excerpt_tokens 2.0 are ints (accepted).",
        comment=(
            "budget {max_excerpt_tokens 10, per_item_max_excerpt_tokens 2.0, max_items 3.0}: integral numbers are ints (INT-41). "
            "per_item min(2, 10) = 2 -> max_bytes 8. m1 'note' -> 1 token. Package budget: max 10, used 1, remaining 9, per_item 2, "
            "max_items 3."
        ),
        clauses=["S6-INPUT-04", "S6-INPUT-05", "S6-TRUNC-04"],
        interpretations=["INT-41", "INT-48"],
        request=_base(
            budget={"max_excerpt_tokens": 10, "per_item_max_excerpt_tokens": 2.0, "max_items": 3.0}
        ),
        files=FILES,
        expect=ok(
            package("note", "note", bud(10, 1, 9, 2, 3), [sel(_m1, S, 1, "note", 1)], []), [S]
        ),
    )
)
