"""Hand vectors: the token estimator, block by block (family ``tokens``)."""

# ruff: noqa: E501

from __future__ import annotations

from tools.generate.phase2._dsl import POLICY, blk, ctx, fixture, ok, qry, ts, turn, vec

DESCRIPTION = "Hand-written: the estimator max(words, ceil(code points / 4)) on query and turn texts; code points, not bytes or UTF-16 units; the White_Space table."
_BASE = "Empty database, no max_tokens: requested null, applied 3000 (P2-INT-13); context [policy, query] (P2-INT-17: no rows is not an error). Policy: 75 code points, 12 words -> max(12, 19) = 19. "
_CL = ["P2-TOK-01", "P2-ASM-02", "P2-ASM-06", "P2-API-06", "P2-API-07", "P2-API-09"]
_INT = ["P2-INT-01", "P2-INT-02", "P2-INT-03", "P2-INT-04", "P2-INT-05", "P2-INT-13", "P2-INT-17"]


def _q(vid: str, description: str, query: str, working: str, tokens: int) -> dict[str, object]:
    return vec(
        vid,
        description,
        comment=_BASE + working + f" estimated_used = 19 + {tokens} = {19 + tokens}.",
        clauses=_CL,
        interpretations=_INT,
        fixture={},
        call=ctx(query),
        expect=ok(None, 3000, 19 + tokens, POLICY, qry(query, tokens)),
    )


VECTORS = [
    _q(
        "p2-tokens-h001",
        "A two-letter word is one token.",
        "hi",
        "Query 'hi': C 2 -> ceil(2/4) = 1, W 1 -> 1.",
        1,
    ),
    _q(
        "p2-tokens-h002",
        "Five one-letter words: the word count wins over characters / 4.",
        "a b c d e",
        "Query 'a b c d e': C 9 -> ceil(9/4) = 3, W 5 -> max(5, 3) = 5.",
        5,
    ),
    _q(
        "p2-tokens-h003",
        "One eight-letter word: characters / 4 exactly.",
        "passport",
        "Query 'passport': C 8 -> 2, W 1 -> 2.",
        2,
    ),
    _q(
        "p2-tokens-h004",
        "Code points, not UTF-8 bytes.",
        "ééééé",
        "Query 'ééééé': C 5 code points (10 UTF-8 bytes would give 3) -> ceil(5/4) = 2, W 1 -> 2.",
        2,
    ),
    _q(
        "p2-tokens-h005",
        "Code points, not UTF-16 code units.",
        "😀😀😀😀😀",
        "Query: five U+1F600 -> C 5 (10 UTF-16 units would give 3, 20 bytes 5) -> 2, W 1 -> 2.",
        2,
    ),
    _q(
        "p2-tokens-h006",
        "NO-BREAK SPACE and IDEOGRAPHIC SPACE separate words.",
        "a\u00a0b\u3000c",
        "Query 'a U+00A0 b U+3000 c': both are White_Space (P2-INT-02) -> W 3; C 5 -> 2; max(3, 2) = 3.",
        3,
    ),
    _q(
        "p2-tokens-h007",
        "ZERO WIDTH SPACE is not whitespace.",
        "a\u200bb\u200bc",
        "Query 'a U+200B b U+200B c': U+200B is not White_Space -> W 1; C 5 -> 2; max(1, 2) = 2.",
        2,
    ),
    _q(
        "p2-tokens-h008",
        "The query is counted as received: surrounding spaces are not trimmed.",
        "  passport  ",
        "Query '  passport  ' kept untrimmed (P2-INT-17): C 12 -> 3, W 1 -> 3.",
        3,
    ),
    _q(
        "p2-tokens-h009",
        "Seventeen characters round up to five tokens.",
        "x" * 17,
        "Query 17 x: C 17 -> ceil(17/4) = 5 (4.25 up), W 1 -> 5.",
        5,
    ),
    _q(
        "p2-tokens-h010",
        "U+001F is not whitespace (Python's str.split disagrees).",
        "a\u001fb",
        "Query 'a U+001F b': U+001F is not White_Space -> W 1; C 3 -> 1; max(1, 1) = 1 (splitting on it would give 2).",
        1,
    ),
    _q(
        "p2-tokens-h011",
        "A run of spaces separates two words once.",
        "a  b",
        "Query 'a  b': C 4 -> 1, W 2 (one run of two spaces) -> 2.",
        2,
    ),
    vec(
        "p2-tokens-h012",
        "An empty hot turn is a block of zero tokens, still counted in sources.",
        comment="One turn of u1 in c1 with text '' -> hot_turn block id 1, C 0, W 0 -> 0 tokens; sources.hot_turns 1 (P2-INT-18). Query 'hi' -> 1. estimated_used = 19 + 0 + 1 = 20; applied 3000.",
        clauses=["P2-TOK-01", "P2-ASM-04", "P2-API-08"],
        interpretations=["P2-INT-01", "P2-INT-03", "P2-INT-07", "P2-INT-18"],
        fixture=fixture(turns=[turn(1, "", ts())]),
        call=ctx("hi"),
        expect=ok(None, 3000, 20, POLICY, blk("hot_turn", 1, "", 0), qry("hi", 1)),
    ),
    _q(
        "p2-tokens-h013",
        "ZERO WIDTH NO-BREAK SPACE (U+FEFF) is not whitespace (JavaScript's \\s disagrees).",
        "a\ufeffb\ufeffc d",
        "Query 'a U+FEFF b U+FEFF c d': U+FEFF is not White_Space -> W 2; C 7 -> 2; max(2, 2) = 2 (splitting on U+FEFF too, as ECMAScript's \\s does, would give W 4).",
        2,
    ),
]
