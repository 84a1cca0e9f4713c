"""Hand vectors: bad parameters of GET /v1/memory/context (family ``errors``)."""

# ruff: noqa: E501

from __future__ import annotations

from tools.generate.phase2._dsl import (
    POLICY,
    C,
    U,
    blk,
    call,
    ctx,
    err,
    fixture,
    ok,
    qry,
    ts,
    turn,
    vec,
)

DESCRIPTION = "Hand-written: 400 missing_parameter / invalid_parameter with the parameter named, the check order, repeated and unknown parameters, max_tokens syntax and range; nothing is written."

# A small fixture, so that 'nothing written' is checked against real rows.
_F = fixture(turns=[turn(1, "hi", ts())])
_W = "Fixture: one turn of u1/c1. The state after must equal the fixture (P2-INT-20). "
_INT = ["P2-INT-15"]


def _e(
    vid: str,
    description: str,
    params: list[tuple[str, str]],
    code: str,
    param: str,
    working: str,
    clauses: list[str],
    extra: list[str],
) -> dict[str, object]:
    return vec(
        vid,
        description,
        comment=_W + working,
        clauses=[*clauses, "P2-API-10"],
        interpretations=[*_INT, *extra, "P2-INT-20"],
        fixture=_F,
        call=call(*params),
        expect=err(400, code, param),
    )


_OK = [("chat_id", C), ("user_id", U), ("query", "passport")]

VECTORS = [
    _e(
        "p2-errors-h001",
        "chat_id absent: 400 missing_parameter chat_id.",
        [("query", "passport")],
        "missing_parameter",
        "chat_id",
        "No chat_id -> first check fails (P2-API-03).",
        ["P2-API-03"],
        [],
    ),
    _e(
        "p2-errors-h002",
        "query absent: 400 missing_parameter query.",
        [("chat_id", C)],
        "missing_parameter",
        "query",
        "chat_id fine, no query (P2-API-04).",
        ["P2-API-04"],
        [],
    ),
    _e(
        "p2-errors-h003",
        "Both absent: chat_id is checked first.",
        [],
        "missing_parameter",
        "chat_id",
        "Check order chat_id, query, max_tokens, user_id -> chat_id.",
        ["P2-API-03", "P2-API-04"],
        [],
    ),
    _e(
        "p2-errors-h004",
        "A query of whitespace only is invalid.",
        [("chat_id", C), ("query", "  \u3000\t")],
        "invalid_parameter",
        "query",
        "Query '  U+3000 TAB' is blank by the White_Space table (P2-INT-02, P2-INT-17).",
        ["P2-API-04"],
        ["P2-INT-02", "P2-INT-17"],
    ),
    _e(
        "p2-errors-h005",
        "An empty chat_id is invalid.",
        [("chat_id", ""), ("query", "passport")],
        "invalid_parameter",
        "chat_id",
        "chat_id '' present but empty (P2-INT-17).",
        ["P2-API-03"],
        ["P2-INT-17"],
    ),
    _e(
        "p2-errors-h006",
        "max_tokens 0 is out of range.",
        [*_OK, ("max_tokens", "0")],
        "invalid_parameter",
        "max_tokens",
        "'0' is digits but below 1 (P2-INT-14).",
        ["P2-API-05"],
        ["P2-INT-14"],
    ),
    _e(
        "p2-errors-h007",
        "A negative max_tokens is invalid.",
        [*_OK, ("max_tokens", "-5")],
        "invalid_parameter",
        "max_tokens",
        "'-5' is not ASCII digits only (P2-INT-14).",
        ["P2-API-05"],
        ["P2-INT-14"],
    ),
    _e(
        "p2-errors-h008",
        "A non-numeric max_tokens is invalid.",
        [*_OK, ("max_tokens", "abc")],
        "invalid_parameter",
        "max_tokens",
        "'abc' (P2-INT-14).",
        ["P2-API-05"],
        ["P2-INT-14"],
    ),
    _e(
        "p2-errors-h009",
        "A decimal max_tokens is invalid.",
        [*_OK, ("max_tokens", "1.5")],
        "invalid_parameter",
        "max_tokens",
        "'1.5' has a '.' (P2-INT-14).",
        ["P2-API-05"],
        ["P2-INT-14"],
    ),
    _e(
        "p2-errors-h010",
        "An empty max_tokens is present and invalid, not absent.",
        [*_OK, ("max_tokens", "")],
        "invalid_parameter",
        "max_tokens",
        "'max_tokens=' -> '' is not ^[0-9]+$ (P2-INT-14).",
        ["P2-API-05"],
        ["P2-INT-14"],
    ),
    _e(
        "p2-errors-h011",
        "A plus sign is not allowed.",
        [*_OK, ("max_tokens", "+5")],
        "invalid_parameter",
        "max_tokens",
        "'+5' (P2-INT-14).",
        ["P2-API-05"],
        ["P2-INT-14"],
    ),
    _e(
        "p2-errors-h012",
        "2^53 is too large.",
        [*_OK, ("max_tokens", "9007199254740992")],
        "invalid_parameter",
        "max_tokens",
        "2^53 = 9007199254740992 > 2^53 - 1 (P2-INT-14).",
        ["P2-API-05"],
        ["P2-INT-14"],
    ),
    vec(
        "p2-errors-h013",
        "2^53 - 1 is the largest valid max_tokens, echoed exactly and capped.",
        comment=_W
        + "max_tokens '9007199254740991' = 2^53 - 1 -> valid; requested 9007199254740991, applied min(., 3000) = 3000. Context: policy 19, hot 1 'hi' (1), query 'passport' (2). Used 22.",
        clauses=["P2-API-05", "P2-BUD-05", "P2-CFG-01", "P2-API-10"],
        interpretations=["P2-INT-13", "P2-INT-14", "P2-INT-20", "P2-INT-01"],
        fixture=_F,
        call=ctx("passport", "9007199254740991"),
        expect=ok(
            9007199254740991, 3000, 22, POLICY, blk("hot_turn", 1, "hi", 1), qry("passport", 2)
        ),
    ),
    _e(
        "p2-errors-h014",
        "A repeated max_tokens is invalid even with equal values.",
        [*_OK, ("max_tokens", "10"), ("max_tokens", "10")],
        "invalid_parameter",
        "max_tokens",
        "max_tokens given twice (P2-INT-15).",
        ["P2-API-05"],
        [],
    ),
    _e(
        "p2-errors-h015",
        "A repeated chat_id is invalid.",
        [("chat_id", C), ("chat_id", "c2"), ("query", "passport")],
        "invalid_parameter",
        "chat_id",
        "chat_id given twice (P2-INT-15).",
        ["P2-API-03"],
        [],
    ),
    _e(
        "p2-errors-h016",
        "A blank query is reported before a bad max_tokens.",
        [("chat_id", C), ("query", " "), ("max_tokens", "x")],
        "invalid_parameter",
        "query",
        "Check order: query before max_tokens.",
        ["P2-API-04", "P2-API-05"],
        ["P2-INT-17", "P2-INT-14"],
    ),
    _e(
        "p2-errors-h017",
        "A bad max_tokens is reported before an empty user_id.",
        [("chat_id", C), ("user_id", ""), ("query", "passport"), ("max_tokens", "0")],
        "invalid_parameter",
        "max_tokens",
        "Check order: max_tokens before user_id.",
        ["P2-API-05"],
        ["P2-INT-14", "P2-INT-16"],
    ),
    _e(
        "p2-errors-h018",
        "An empty user_id is invalid.",
        [("chat_id", C), ("user_id", ""), ("query", "passport")],
        "invalid_parameter",
        "user_id",
        "user_id present but empty (P2-INT-16).",
        ["P2-API-03"],
        ["P2-INT-16"],
    ),
    _e(
        "p2-errors-h019",
        "A space before the digits is invalid.",
        [*_OK, ("max_tokens", " 5")],
        "invalid_parameter",
        "max_tokens",
        "' 5' (P2-INT-14).",
        ["P2-API-05"],
        ["P2-INT-14"],
    ),
    _e(
        "p2-errors-h020",
        "Non-ASCII digits are invalid.",
        [*_OK, ("max_tokens", "\u0665")],
        "invalid_parameter",
        "max_tokens",
        "U+0665 ARABIC-INDIC DIGIT FIVE is a Unicode digit, not [0-9] (P2-INT-14).",
        ["P2-API-05"],
        ["P2-INT-14"],
    ),
    vec(
        "p2-errors-h021",
        "Unknown parameters are ignored.",
        comment=_W
        + "Extra 'debug=1' and 'limit=zz' ignored (P2-INT-15). Context: policy 19, hot 1 'hi' (1), query 'passport' (2); applied 3000. Used 22.",
        clauses=["P2-API-06", "P2-API-10"],
        interpretations=["P2-INT-15", "P2-INT-13", "P2-INT-20", "P2-INT-01"],
        fixture=_F,
        call=call(("debug", "1"), *_OK, ("limit", "zz")),
        expect=ok(None, 3000, 22, POLICY, blk("hot_turn", 1, "hi", 1), qry("passport", 2)),
    ),
    _e(
        "p2-errors-h022",
        "A repeated query is invalid even when its values differ.",
        [*_OK[:2], ("query", "passport"), ("query", "hi")],
        "invalid_parameter",
        "query",
        "query given twice, 'passport' then 'hi' (P2-INT-15): refused, neither value is taken. "
        + "The first value (P2-INT-15/first-value) would answer policy 19, hot 'hi' (1), query 'passport' (2), used 22; "
        + "the last (P2-INT-15/last-value) query 'hi' (1), used 21.",
        ["P2-API-04"],
        [],
    ),
    _e(
        "p2-errors-h023",
        "A repeated user_id is invalid even when its values differ.",
        [("chat_id", C), ("user_id", "u2"), ("user_id", U), ("query", "passport")],
        "invalid_parameter",
        "user_id",
        "user_id given twice, 'u2' then 'u1' (P2-INT-15): refused. "
        + "The first value (P2-INT-15/first-value) names u2, who has no row: policy 19, query 'passport' (2), used 21; "
        + "the last (P2-INT-15/last-value) names u1: policy, hot 'hi' (1), query, used 22.",
        ["P2-API-03"],
        ["P2-INT-16"],
    ),
]
