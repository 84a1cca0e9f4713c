"""Hand vectors: query normalization, query.raw and query_hash (family ``query``)."""

# ruff: noqa: E501

from __future__ import annotations

from tools.generate.hand._dsl import L, also, bud, err, lines, ok, package, rec, sel, vec

DESCRIPTION = (
    "Hand-written: query trim / White_Space collapse / lowercasing, query.raw and query_hash."
)
S = "s.jsonl"
B100 = {"max_excerpt_tokens": 100}


def _req(query: object) -> dict[str, object]:
    return {"query": query, "store_paths": [S], "budget": B100}


# ---------------------------------------------------------------- query-h001
_r1 = rec("m1", "hello there world")
_h001 = vec(
    "query-h001",
    "ASCII query is trimmed, its whitespace run collapsed and lowercased; raw kept as given.",
    comment=(
        "query.raw = '  Hello   WORLD\\t' (exactly as given, INT-11). Normalized: trim -> 'Hello   WORLD', "
        "collapse the 3-space run -> 'Hello WORLD', lower -> 'hello world' = 68 65 6c 6c 6f 20 77 6f 72 6c 64; "
        "query_hash = sha256 of those 11 bytes. Terms: split -> [hello, world], both length >= 2. "
        "m1 text 'hello there world' contains 'hello' and 'world' -> base 2; no tags; recency off -> score 2. "
        "Excerpt 'hello there world' = 17 bytes -> ceil(17/4) = 5 tokens; 5 <= 100 -> selected. "
        "used 5, remaining 100-5 = 95, per_item default 100, max_items default 50."
    ),
    clauses=[
        "S6-HASH-04",
        "S6-HASH-05",
        "S6-HASH-06",
        "S6-HASH-07",
        "S6-OUT-02",
        "S6-OUT-03",
        "S6-SCORE-02",
        "S6-SCORE-03",
        "S6-SCORE-04",
    ],
    interpretations=["INT-11"],
    request=_req("  Hello   WORLD\t"),
    files={S: lines(L(memory_id="m1", text="hello there world"))},
    expect=ok(
        package(
            "  Hello   WORLD\t",
            "hello world",
            bud(100, 5, 95, 100, 50),
            [sel(_r1, S, 2, "hello there world", 5)],
            [],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- query-h002
_r2 = rec("m1", "alpha and beta")
_h002 = vec(
    "query-h002",
    "U+00A0 and U+3000 are White_Space: trimmed and collapsed in the query.",
    comment=(
        "query = U+00A0 'alpha' U+3000 U+3000 'beta' U+00A0. U+00A0 and U+3000 are in the White_Space table (INT-05): "
        "trim removes the outer U+00A0s, the U+3000 U+3000 run collapses to one U+0020 -> 'alpha beta' "
        "(61 6c 70 68 61 20 62 65 74 61), query_hash = sha256 of it. Terms [alpha, beta]. "
        "m1 'alpha and beta' contains both -> base 2, score 2. Excerpt 14 bytes -> ceil(14/4) = 4 tokens. "
        "used 4, remaining 96."
    ),
    clauses=["S6-HASH-05", "S6-HASH-06", "S6-SCORE-02", "S6-SCORE-03", "S6-SCORE-07"],
    interpretations=["INT-01", "INT-05", "INT-11"],
    request=_req("\u00a0alpha\u3000\u3000beta\u00a0"),
    files={S: lines(L(memory_id="m1", text="alpha and beta"))},
    expect=ok(
        package(
            "\u00a0alpha\u3000\u3000beta\u00a0",
            "alpha beta",
            bud(100, 4, 96, 100, 50),
            [sel(_r2, S, 2, "alpha and beta", 4)],
            [],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- query-h003
_r3 = rec("m1", "delta only")
_h003 = vec(
    "query-h003",
    "U+0085 (NEL) is White_Space: it splits query terms.",
    comment=(
        "query 'gamma' U+0085 'delta'. U+0085 is White_Space (INT-05; ECMAScript \\s does not match it) -> "
        "normalized 'gamma delta' (67 61 6d 6d 61 20 64 65 6c 74 61), terms [gamma, delta]. "
        "m1 'delta only' contains 'delta' only -> base 1 -> score 1 (if U+0085 were not whitespace the one term "
        "'gamma\\u0085delta' would not match and the score would be 0). Excerpt 10 bytes -> 3 tokens. used 3, remaining 97."
    ),
    clauses=["S6-SCORE-02", "S6-SCORE-03", "S6-HASH-06", "S6-SCORE-07"],
    interpretations=["INT-01", "INT-05"],
    request=_req("gamma\u0085delta"),
    files={S: lines(L(memory_id="m1", text="delta only"))},
    expect=ok(
        package(
            "gamma\u0085delta",
            "gamma delta",
            bud(100, 3, 97, 100, 50),
            [sel(_r3, S, 1, "delta only", 3)],
            [],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- query-h004
_r4a = rec("m1", "foo bar")
_r4b = rec("m2", "xfoo\u200bbarx")
_h004 = vec(
    "query-h004",
    "U+200B ZERO WIDTH SPACE is not White_Space: it stays inside the single query term.",
    comment=(
        "query 'foo' U+200B 'bar' is already normalized (U+200B is not White_Space, INT-05): query_hash = "
        "sha256(66 6f 6f e2 80 8b 62 61 72). One term 'foo\\u200bbar' (7 code points). "
        "m1 'foo bar' does not contain it -> score 0. m2 'xfoo\\u200bbarx' contains it -> score 1. "
        "Order: m2 (1) before m1 (0). Excerpts: m2 = 1+3+3+3+1 = 11 bytes -> 3 tokens; m1 'foo bar' 7 bytes -> 2 tokens. "
        "used 3+2 = 5 <= 100; remaining 95. m1 (score 0) is selectable (INT-29)."
    ),
    clauses=["S6-SCORE-03", "S6-SCORE-07", "S6-ORDER-01", "S6-HASH-06"],
    interpretations=["INT-01", "INT-05", "INT-29"],
    request=_req("foo\u200bbar"),
    files={S: lines(L(memory_id="m1", text="foo bar"), L(memory_id="m2", text="xfoo\u200bbarx"))},
    expect=ok(
        package(
            "foo\u200bbar",
            "foo\u200bbar",
            bud(100, 5, 95, 100, 50),
            [sel(_r4b, S, 1, "xfoo\u200bbarx", 3), sel(_r4a, S, 0, "foo bar", 2)],
            [],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- query-h005
_r5a = rec("m1", "zeta")
_r5b = rec("m2", "\ufeffzeta")
_h005 = vec(
    "query-h005",
    "U+FEFF is not White_Space: a leading U+FEFF is not trimmed from the query or the excerpt.",
    comment=(
        "query U+FEFF 'zeta': U+FEFF is not White_Space (INT-05; ECMAScript trim() would remove it). "
        "Normalized query = ef bb bf 7a 65 74 61 (7 bytes), query_hash over these. One term '\\ufeffzeta' (5 code points). "
        "m1 'zeta' -> no match, score 0. m2 '\\ufeffzeta' -> match, score 1. Order m2, m1. "
        "Excerpts are not stripped of U+FEFF (INT-31): m2 excerpt '\\ufeffzeta' = 7 bytes -> 2 tokens; m1 'zeta' 4 bytes -> 1 token. "
        "used 3, remaining 97."
    ),
    clauses=["S6-HASH-05", "S6-TRUNC-02", "S6-SCORE-07"],
    interpretations=["INT-01", "INT-05", "INT-29", "INT-31"],
    request=_req("\ufeffzeta"),
    files={S: lines(L(memory_id="m1", text="zeta"), L(memory_id="m2", text="\ufeffzeta"))},
    expect=ok(
        package(
            "\ufeffzeta",
            "\ufeffzeta",
            bud(100, 3, 97, 100, 50),
            [sel(_r5b, S, 1, "\ufeffzeta", 2), sel(_r5a, S, 0, "zeta", 1)],
            [],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- query-h006
_r6a = rec("m1", "ab cd")
_r6b = rec("m2", "ab\u001fcd")
_h006 = vec(
    "query-h006",
    "U+001F (which Python's str.split treats as whitespace) is not White_Space.",
    comment=(
        "query 'ab' U+001F 'cd' is already normalized: U+001F is not White_Space (INT-05). query_hash = sha256(61 62 1f 63 64). "
        "One term 'ab\\x1fcd' (5 code points). m1 'ab cd' -> no match, score 0 (with str.split semantics the terms "
        "would be [ab, cd] and m1 would score 2). m2 'ab\\x1fcd' -> match, score 1. Order m2, m1. "
        "Excerpts: m2 5 bytes -> 2 tokens; m1 5 bytes -> 2 tokens. used 4, remaining 96."
    ),
    clauses=["S6-SCORE-03", "S6-SCORE-07", "S6-HASH-06"],
    interpretations=["INT-05", "INT-29"],
    request=_req("ab\u001fcd"),
    files={S: lines(L(memory_id="m1", text="ab cd"), L(memory_id="m2", text="ab\u001fcd"))},
    expect=ok(
        package(
            "ab\u001fcd",
            "ab\u001fcd",
            bud(100, 4, 96, 100, 50),
            [sel(_r6b, S, 1, "ab\u001fcd", 2), sel(_r6a, S, 0, "ab cd", 2)],
            [],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- query-h007
_r7a = rec("m1", "ISTANBUL")
_r7b = rec("m2", "\u0130STANBUL")
_h007 = vec(
    "query-h007",
    "U+0130 lowercases to 'i' + U+0307 (full mapping) in the query and in candidate text.",
    comment=(
        "query '\\u0130stanbul'. Full lowercase mapping (INT-06): U+0130 -> U+0069 U+0307, so the normalized query is "
        "'i\\u0307stanbul' = 69 cc 87 73 74 61 6e 62 75 6c (10 bytes; query_hash over them), one term of 9 code points. "
        "m1 'ISTANBUL' -> normalized 'istanbul' (no U+0307) -> no match, score 0. "
        "m2 '\\u0130STANBUL' -> normalized 'i\\u0307stanbul' -> match, score 1. Order m2, m1. "
        "Excerpts keep original text: m2 = c4 b0 + 7 ASCII = 9 bytes -> 3 tokens; m1 8 bytes -> 2 tokens. used 5, remaining 95."
    ),
    clauses=["S6-HASH-07", "S6-SCORE-02", "S6-SCORE-07"],
    interpretations=["INT-01", "INT-06", "INT-09", "INT-29"],
    request=_req("\u0130stanbul"),
    files={S: lines(L(memory_id="m1", text="ISTANBUL"), L(memory_id="m2", text="\u0130STANBUL"))},
    expect=ok(
        package(
            "\u0130stanbul",
            "i\u0307stanbul",
            bud(100, 5, 95, 100, 50),
            [sel(_r7b, S, 1, "\u0130STANBUL", 3), sel(_r7a, S, 0, "ISTANBUL", 2)],
            [],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- query-h008
_r8a = rec("m1", "\u03bf\u03b4\u03bf\u03c2")
_r8b = rec("m2", "\u03bf\u03b4\u03bf\u03c3")
_h008 = vec(
    "query-h008",
    "Final sigma: an uppercase word-final SIGMA lowercases to U+03C2, not U+03C3.",
    comment=(
        "query '\\u039f\\u0394\\u039f\\u03a3' (OΔOΣ). Full lowercasing applies the Final_Sigma rule (INT-06): the final "
        "Σ becomes ς U+03C2 -> normalized 'οδος' = ce bf ce b4 ce bf cf 82 (query_hash over these 8 bytes), one term. "
        "m1 text 'οδος' (ending U+03C2) -> match, score 1. m2 text 'οδοσ' (ending U+03C3) -> no match, score 0. "
        "(A simple 1:1 mapping would give 'οδοσ' and select the other one first.) Order m1, m2. "
        "Excerpts: 8 bytes each -> 2 tokens each. used 4, remaining 96."
    ),
    clauses=["S6-HASH-07", "S6-SCORE-02", "S6-SCORE-07"],
    interpretations=["INT-01", "INT-06", "INT-29"],
    request=_req("\u039f\u0394\u039f\u03a3"),
    files={
        S: lines(
            L(memory_id="m1", text="\u03bf\u03b4\u03bf\u03c2"),
            L(memory_id="m2", text="\u03bf\u03b4\u03bf\u03c3"),
        )
    },
    expect=ok(
        package(
            "\u039f\u0394\u039f\u03a3",
            "\u03bf\u03b4\u03bf\u03c2",
            bud(100, 4, 96, 100, 50),
            [
                sel(_r8a, S, 1, "\u03bf\u03b4\u03bf\u03c2", 2),
                sel(_r8b, S, 0, "\u03bf\u03b4\u03bf\u03c3", 2),
            ],
            [],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- query-h009
_r9a = rec("m1", "strasse")
_r9b = rec("m2", "Stra\u00dfe")
_h009 = vec(
    "query-h009",
    "Lowercasing is not case folding: U+00DF stays U+00DF (no 'ss').",
    comment=(
        "query 'STRA\\u00dfE' -> lowercase 'straße' = 73 74 72 61 c3 9f 65 (INT-06: lowercase mapping, not casefold, so ß is "
        "kept). One term 'straße'. m1 'strasse' -> no match (casefold would make it match), score 0. "
        "m2 'Straße' -> 'straße' -> match, score 1. Order m2, m1. Excerpts 7 bytes each -> 2 tokens each. used 4, remaining 96."
    ),
    clauses=["S6-HASH-07", "S6-SCORE-02", "S6-SCORE-07"],
    interpretations=["INT-01", "INT-06", "INT-09", "INT-29"],
    request=_req("STRA\u00dfE"),
    files={S: lines(L(memory_id="m1", text="strasse"), L(memory_id="m2", text="Stra\u00dfe"))},
    expect=ok(
        package(
            "STRA\u00dfE",
            "stra\u00dfe",
            bud(100, 4, 96, 100, 50),
            [sel(_r9b, S, 1, "Stra\u00dfe", 2), sel(_r9a, S, 0, "strasse", 2)],
            [],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- query-h010
_r10 = rec("m1", "anything")
_h010 = vec(
    "query-h010",
    "A query of only U+200B is valid (not empty after trim) and yields no terms.",
    comment=(
        "query U+200B: not White_Space, so not empty after trim -> valid (INT-11). Normalized = e2 80 8b, "
        "query_hash over these 3 bytes. Derivation: one term of 1 code point -> dropped by length >= 2 (INT-07) -> no terms. "
        "m1 base 0, no tags, score 0; still selected (INT-29). Excerpt 'anything' 8 bytes -> 2 tokens. used 2, remaining 98."
    ),
    clauses=["S6-INPUT-01", "S6-SCORE-05", "S6-HASH-04"],
    interpretations=["INT-01", "INT-05", "INT-07", "INT-11", "INT-29"],
    request=_req("\u200b"),
    files={S: lines(L(memory_id="m1", text="anything"))},
    expect=ok(
        package("\u200b", "\u200b", bud(100, 2, 98, 100, 50), [sel(_r10, S, 0, "anything", 2)], []),
        [S],
    ),
)

# ---------------------------------------------------------------- query-h011
_h011 = vec(
    "query-h011",
    "A query of only Unicode White_Space (U+3000, U+00A0, TAB) is empty after trim: invalid_query.",
    comment=(
        "query U+3000 U+00A0 U+0009: all three are White_Space (INT-05), trim leaves '' -> 'non-empty after trim' fails -> "
        "invalid_query at /query (errors.md row 2). The store exists and is valid, which does not matter: check (2) runs first."
    ),
    clauses=["S6-INPUT-01", "S6-ERR-01", "S6-ERR-02"],
    interpretations=["INT-05", "INT-11", "INT-40"],
    request=_req("\u3000\u00a0\t"),
    files={S: lines(L(memory_id="m1", text="x"))},
    expect=err("invalid_query", "/query"),
)

# ---------------------------------------------------------------- query-h012
_r12 = rec("m1", "one two three")
_h012 = vec(
    "query-h012",
    "U+2028, U+2029, U+205F and U+1680 are White_Space separators in the query.",
    comment=(
        "query = U+2028 'one' U+2029 'two' U+205F 'three' U+1680. All four are White_Space (INT-05): the leading U+2028 and "
        "trailing U+1680 are trimmed, U+2029 and U+205F become single spaces -> 'one two three' (13 bytes, query_hash over it). "
        "Terms [one, two, three]; m1 'one two three' contains all three -> score 3. Excerpt 13 bytes -> 4 tokens. used 4, remaining 96."
    ),
    clauses=["S6-HASH-05", "S6-HASH-06", "S6-SCORE-03", "S6-SCORE-08"],
    interpretations=["INT-01", "INT-05"],
    request=_req("\u2028one\u2029two\u205fthree\u1680"),
    files={S: lines(L(memory_id="m1", text="one two three"))},
    expect=ok(
        package(
            "\u2028one\u2029two\u205fthree\u1680",
            "one two three",
            bud(100, 4, 96, 100, 50),
            [sel(_r12, S, 3, "one two three", 4)],
            [],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- query-h013
_r13 = rec("m1", "a1b2c3d4")
_h013 = vec(
    "query-h013",
    "U+2000, U+200A and U+202F are White_Space separators in the query.",
    comment=(
        "query 'a1' U+2000 'b2' U+200A 'c3' U+202F 'd4' -> normalized 'a1 b2 c3 d4' (11 bytes, query_hash over it); "
        "terms [a1, b2, c3, d4]. m1 'a1b2c3d4' contains each as a substring -> base 4, score 4. "
        "Excerpt 8 bytes -> 2 tokens. used 2, remaining 98."
    ),
    clauses=["S6-HASH-06", "S6-SCORE-03", "S6-SCORE-07", "S6-SCORE-08"],
    interpretations=["INT-01", "INT-05"],
    request=_req("a1\u2000b2\u200ac3\u202fd4"),
    files={S: lines(L(memory_id="m1", text="a1b2c3d4"))},
    expect=ok(
        package(
            "a1\u2000b2\u200ac3\u202fd4",
            "a1 b2 c3 d4",
            bud(100, 2, 98, 100, 50),
            [sel(_r13, S, 4, "a1b2c3d4", 2)],
            [],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- query-h014
_r14 = rec("m1", "UP and DOWN")
_h014 = vec(
    "query-h014",
    "VT, FF, CR and LF are trimmed and collapsed; candidate text is lowercased for matching.",
    comment=(
        "query U+000B 'up' U+000C 'down' CR LF -> trim removes the leading VT and trailing CR LF, FF becomes a space -> "
        "'up down' (query_hash over 75 70 20 64 6f 77 6e). Terms [up, down]. m1 text 'UP and DOWN' normalizes to "
        "'up and down' (INT-09) -> both match -> score 2. Excerpt keeps the original 'UP and DOWN' (11 bytes) -> 3 tokens. "
        "used 3, remaining 97."
    ),
    clauses=["S6-HASH-05", "S6-HASH-06", "S6-HASH-07", "S6-SCORE-07"],
    # INT-01: query.raw holds U+000C, written \f by RFC 8785 (\u000c by Go before 1.22)
    interpretations=["INT-01", "INT-05", "INT-09"],
    request=_req("\u000bup\u000cdown\r\n"),
    files={S: lines(L(memory_id="m1", text="UP and DOWN"))},
    expect=ok(
        package(
            "\u000bup\u000cdown\r\n",
            "up down",
            bud(100, 3, 97, 100, 50),
            [sel(_r14, S, 2, "UP and DOWN", 3)],
            [],
        ),
        [S],
    ),
)

VECTORS = [
    _h001,
    _h002,
    _h003,
    _h004,
    _h005,
    _h006,
    _h007,
    _h008,
    _h009,
    _h010,
    _h011,
    _h012,
    _h013,
    _h014,
]

# INT-09: a term matches inside a longer word (no word boundaries)
VECTORS = also(
    VECTORS,
    {
        "query-h004": ["INT-09"],
        "query-h013": ["INT-09"],
    },
)
