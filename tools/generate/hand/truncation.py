"""Hand vectors: excerpt strip and per-item truncation at UTF-8 boundaries (family ``truncation``, IDs ``trunc-``)."""

# ruff: noqa: E501

from __future__ import annotations

from tools.generate.hand._dsl import L, also, bud, lines, ok, package, rec, sel, vec

DESCRIPTION = "Hand-written: strip of White_Space, cuts before / inside / after 2-, 3- and 4-byte characters, per-item cap."
S = "s.jsonl"


def _req(
    query: str, budget: dict[str, object], terms: list[str] | None = None
) -> dict[str, object]:
    request: dict[str, object] = {"query": query, "store_paths": [S], "budget": budget}
    if terms is not None:
        request["scoring"] = {"query_terms": terms}
    return request


P1: dict[str, object] = {"max_excerpt_tokens": 100, "per_item_max_excerpt_tokens": 1}
_CAP1 = "per_item_max_excerpt_tokens 1 -> effective min(1, 100) = 1 -> max_bytes = 1 * 4 = 4. "


def _cut1(
    vid: str,
    description: str,
    query: str,
    text: str,
    working: str,
    excerpt: str,
    *,
    score: int = 1,
    cut_back: bool = False,
) -> dict[str, object]:
    """One record m1 cut with max_bytes 4; ``working`` spells out the bytes and the cut by hand."""
    record = rec("m1", text)
    match = (
        f"query {query!r} -> the text contains it -> score 1. "
        if score
        else f"query {query!r} does not match -> score 0, still selected (INT-29). "
    )
    return vec(
        vid,
        description,
        comment=match + _CAP1 + working + " used 1, remaining 99, per_item 1.",
        clauses=["S6-TRUNC-05", "S6-TRUNC-06", "S6-TRUNC-08", "S6-OUT-23"]
        + (["S6-TRUNC-07"] if cut_back else []),
        # INT-01: a non-ASCII text is hashed as raw UTF-8 (not \u-escaped)
        interpretations=(["INT-01"] if not text.isascii() else [])
        + (["INT-31"] if score else ["INT-29", "INT-31"]),
        request=_req(query, P1),
        files={S: lines(L(memory_id="m1", text=text))},
        expect=ok(
            package(query, query, bud(100, 1, 99, 1, 50), [sel(record, S, score, excerpt, 1)], []),
            [S],
        ),
    )


_h001 = _cut1(
    "trunc-h001",
    "Cut inside a 2-byte character moves back to its first byte.",
    "abc",
    "abc\u00e9",
    "Text 'abcé' = 61 62 63 c3 a9 (5 bytes). First 4 bytes 61 62 63 c3 end inside U+00E9 (c3 a9) -> cut back to the "
    "boundary before c3 -> 'abc' (3 bytes) -> ceil(3/4) = 1 token.",
    "abc",
    cut_back=True,
)
_h002 = _cut1(
    "trunc-h002",
    "Cut right after a 2-byte character keeps it whole.",
    "ab",
    "ab\u00e9x",
    "Text 'abéx' = 61 62 c3 a9 78 (5 bytes). First 4 bytes 61 62 c3 a9 end exactly after U+00E9 -> 'abé' (4 bytes) -> 1 token.",
    "ab\u00e9",
)
_h003 = _cut1(
    "trunc-h003",
    "Cut right before a 2-byte character.",
    "ab",
    "abcd\u00e9",
    "Text 'abcdé' = 61 62 63 64 c3 a9 (6 bytes). First 4 bytes 61 62 63 64 end on the boundary before U+00E9 -> 'abcd' -> 1 token.",
    "abcd",
)
_h004 = _cut1(
    "trunc-h004",
    "Cut one byte into a 3-byte character moves back.",
    "abc",
    "abc\u20ac",
    "Text 'abc€' = 61 62 63 e2 82 ac (6 bytes). First 4 bytes 61 62 63 e2 hold only the lead byte of U+20AC -> cut back -> "
    "'abc' (3 bytes) -> 1 token.",
    "abc",
    cut_back=True,
)
_h005 = _cut1(
    "trunc-h005",
    "Cut two bytes into a 3-byte character moves back.",
    "ab",
    "ab\u20ac",
    "Text 'ab€' = 61 62 e2 82 ac (5 bytes). First 4 bytes 61 62 e2 82 split U+20AC after 2 of its 3 bytes -> cut back -> "
    "'ab' (2 bytes) -> 1 token.",
    "ab",
    cut_back=True,
)
_h006 = _cut1(
    "trunc-h006",
    "Cut right after a 3-byte character keeps it whole.",
    "zz",
    "a\u20acb",
    "Text 'a€b' = 61 e2 82 ac 62 (5 bytes). First 4 bytes 61 e2 82 ac end exactly after U+20AC -> 'a€' (4 bytes) -> 1 token.",
    "a\u20ac",
    score=0,
)
_h007 = _cut1(
    "trunc-h007",
    "Cut right before a 3-byte character.",
    "ab",
    "abcd\u20ac",
    "Text 'abcd€' = 61 62 63 64 e2 82 ac (7 bytes). First 4 bytes 61 62 63 64 end before U+20AC -> 'abcd' -> 1 token.",
    "abcd",
)
_h008 = _cut1(
    "trunc-h008",
    "Cut three bytes into a 4-byte character moves back.",
    "zz",
    "a\U0001f600",
    "Text 'a😀' = 61 f0 9f 98 80 (5 bytes). First 4 bytes 61 f0 9f 98 hold 3 of the 4 bytes of U+1F600 -> cut back -> "
    "'a' (1 byte) -> ceil(1/4) = 1 token.",
    "a",
    score=0,
    cut_back=True,
)
_h009 = _cut1(
    "trunc-h009",
    "Cut two bytes into a 4-byte character moves back.",
    "ab",
    "ab\U0001f600",
    "Text 'ab😀' = 61 62 f0 9f 98 80 (6 bytes). First 4 bytes 61 62 f0 9f hold 2 of the 4 bytes of U+1F600 -> cut back -> "
    "'ab' -> 1 token.",
    "ab",
    cut_back=True,
)
_h010 = _cut1(
    "trunc-h010",
    "Cut one byte into a 4-byte character moves back.",
    "abc",
    "abc\U0001f600",
    "Text 'abc😀' = 61 62 63 f0 9f 98 80 (7 bytes). First 4 bytes 61 62 63 f0 hold only the lead byte of U+1F600 -> cut "
    "back -> 'abc' -> 1 token.",
    "abc",
    cut_back=True,
)
_h011 = _cut1(
    "trunc-h011",
    "A 4-byte character exactly filling max_bytes is kept.",
    "\U0001f600b",
    "\U0001f600b",
    "(The query '😀b' is one term of 2 code points.) Text '😀b' = f0 9f 98 80 62 (5 bytes). First 4 bytes f0 9f 98 80 are "
    "exactly U+1F600 -> '😀' (4 bytes) -> 1 token.",
    "\U0001f600",
)
_h012 = _cut1(
    "trunc-h012",
    "Cut right before a 4-byte character.",
    "ab",
    "abcd\U0001f600",
    "Text 'abcd😀' = 61 62 63 64 f0 9f 98 80 (8 bytes). First 4 bytes 61 62 63 64 end before U+1F600 -> 'abcd' -> 1 token.",
    "abcd",
)

# ---------------------------------------------------------------- trunc-h013
_r13a = rec("m1", "\u03b1\u03b2\u03b3\u03b4\u03b5")
_r13b = rec("m2", "a\u03b1\u03b2\u03b3\u03b4")
_h013 = vec(
    "trunc-h013",
    "max_bytes 8: an exact 2-byte boundary vs a cut inside the 5th character.",
    comment=(
        "per_item 2 -> max_bytes 8. query 'αβ' (2 code points) matches both texts -> score 1 each; tie -> memory_id m1, m2. "
        "m1 'αβγδε' = ce b1 ce b2 ce b3 ce b4 ce b5 (10 bytes) -> first 8 bytes end after δ -> 'αβγδ' (8 bytes) -> 2 tokens. "
        "m2 'aαβγδ' = 61 ce b1 ce b2 ce b3 ce b4 (9 bytes) -> first 8 bytes end after ce of δ -> back to 7 -> 'aαβγ' -> "
        "ceil(7/4) = 2 tokens. used 4, remaining 96, per_item 2."
    ),
    clauses=["S6-TRUNC-05", "S6-TRUNC-06", "S6-TRUNC-07", "S6-TOK-01", "S6-OUT-23"],
    interpretations=["INT-01", "INT-31"],
    request=_req("\u03b1\u03b2", {"max_excerpt_tokens": 100, "per_item_max_excerpt_tokens": 2}),
    files={
        S: lines(
            L(memory_id="m1", text="\u03b1\u03b2\u03b3\u03b4\u03b5"),
            L(memory_id="m2", text="a\u03b1\u03b2\u03b3\u03b4"),
        )
    },
    expect=ok(
        package(
            "\u03b1\u03b2",
            "\u03b1\u03b2",
            bud(100, 4, 96, 2, 50),
            [
                sel(_r13a, S, 1, "\u03b1\u03b2\u03b3\u03b4", 2),
                sel(_r13b, S, 1, "a\u03b1\u03b2\u03b3", 2),
            ],
            [],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- trunc-h014
_r14 = rec("m1", "\u00a0\u3000 hi \t\n")
_h014 = vec(
    "trunc-h014",
    "Leading and trailing Unicode White_Space (U+00A0, U+3000, space, TAB, LF) is stripped from the excerpt.",
    comment=(
        "m1 text U+00A0 U+3000 ' hi ' TAB LF. Strip White_Space at both ends (INT-05, INT-31) -> 'hi' (2 bytes) -> 1 token. "
        "query 'hi' -> 1. record_hash covers the unstripped text (INT-02). used 1, remaining 99."
    ),
    clauses=["S6-TRUNC-01", "S6-TRUNC-02", "S6-TOK-01"],
    interpretations=["INT-01", "INT-02", "INT-05", "INT-31"],
    request=_req("hi", {"max_excerpt_tokens": 100}),
    files={S: lines(L(memory_id="m1", text="\u00a0\u3000 hi \t\n"))},
    expect=ok(package("hi", "hi", bud(100, 1, 99, 100, 50), [sel(_r14, S, 1, "hi", 1)], []), [S]),
)

# ---------------------------------------------------------------- trunc-h015
_r15 = rec("m1", "abc def")
_h015 = vec(
    "trunc-h015",
    "The cut excerpt is not stripped again: it may end with a space.",
    comment=(
        "m1 'abc def' (7 bytes), nothing to strip. "
        + _CAP1
        + "First 4 bytes 'abc ' -> excerpt 'abc ' with its trailing "
        "space kept (INT-31: no second strip) -> 1 token. query 'abc' -> 1. used 1, remaining 99, per_item 1."
    ),
    clauses=["S6-TRUNC-02", "S6-TRUNC-06", "S6-OUT-23"],
    interpretations=["INT-31"],
    request=_req("abc", P1),
    files={S: lines(L(memory_id="m1", text="abc def"))},
    expect=ok(package("abc", "abc", bud(100, 1, 99, 1, 50), [sel(_r15, S, 1, "abc ", 1)], []), [S]),
)

# ---------------------------------------------------------------- trunc-h016
_T16 = "\u200bhi\ufeff"
_r16 = rec("m1", _T16)
_h016 = vec(
    "trunc-h016",
    "U+200B and U+FEFF are not White_Space: the excerpt keeps them.",
    comment=(
        "m1 text U+200B 'hi' U+FEFF = e2 80 8b 68 69 ef bb bf (8 bytes). Neither end character is White_Space (INT-05) -> "
        "excerpt unchanged (INT-31) -> 2 tokens (a strip using ECMAScript trim() would drop U+FEFF: 5 bytes, still 2 "
        "tokens but a different excerpt). query 'hi' -> 1. used 2, remaining 98."
    ),
    clauses=["S6-TRUNC-01", "S6-TRUNC-02"],
    interpretations=["INT-01", "INT-05", "INT-31"],
    request=_req("hi", {"max_excerpt_tokens": 100}),
    files={S: lines(L(memory_id="m1", text=_T16))},
    expect=ok(package("hi", "hi", bud(100, 2, 98, 100, 50), [sel(_r16, S, 1, _T16, 2)], []), [S]),
)

# ---------------------------------------------------------------- trunc-h017
_r17a = rec("m1", " \u3000 ")
_r17b = rec("m2", "note")
_h017 = vec(
    "trunc-h017",
    "Text that is only White_Space gives excerpt '' with 0 tokens.",
    comment=(
        "m1 text ' U+3000 ' -> empty after strip (INT-05) -> excerpt '' and excerpt_tokens 0 (TRUNC-03); score 0. "
        "m2 'note' -> score 1, 1 token. Order m2, m1. used 1 + 0 = 1, remaining 99."
    ),
    clauses=["S6-TRUNC-03", "S6-TRUNC-02", "S6-TOK-02"],
    interpretations=["INT-01", "INT-02", "INT-05", "INT-29", "INT-31"],
    request=_req("note", {"max_excerpt_tokens": 100}),
    files={S: lines(L(memory_id="m1", text=" \u3000 "), L(memory_id="m2", text="note"))},
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 1, 99, 100, 50),
            [sel(_r17b, S, 1, "note", 1), sel(_r17a, S, 0, "", 0)],
            [],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- trunc-h018
_r18 = rec("m1", "0123456789")
_h018 = vec(
    "trunc-h018",
    "per_item_max_excerpt_tokens above max_excerpt_tokens is capped to it (and reported capped).",
    comment=(
        "max_excerpt_tokens 2, per_item 10 -> effective per_item = min(10, 2) = 2 (TRUNC-04) -> max_bytes 8. m1 '0123456789' "
        "(10 bytes) -> '01234567' -> 2 tokens. query '0123' -> 1. used 2, remaining 0. The package reports "
        "per_item_max_excerpt_tokens 2, the effective value (INT-30)."
    ),
    clauses=["S6-TRUNC-04", "S6-TRUNC-05", "S6-TRUNC-10", "S6-OUT-07", "S6-TOK-03", "S6-HASH-11"],
    interpretations=["INT-30", "INT-32"],
    request=_req("0123", {"max_excerpt_tokens": 2, "per_item_max_excerpt_tokens": 10}),
    files={S: lines(L(memory_id="m1", text="0123456789"))},
    expect=ok(
        package("0123", "0123", bud(2, 2, 0, 2, 50), [sel(_r18, S, 1, "01234567", 2)], []), [S]
    ),
)

# ---------------------------------------------------------------- trunc-h019
_r19 = rec("m1", "abcdefghijklmnopqrst")
_h019 = vec(
    "trunc-h019",
    "per_item_max_excerpt_tokens defaults to max_excerpt_tokens.",
    comment=(
        "max_excerpt_tokens 3, per_item absent -> 3 -> max_bytes 12. m1 20 ASCII bytes -> 'abcdefghijkl' (12 bytes) -> "
        "ceil(12/4) = 3 tokens (INT-46); 0 + 3 <= 3 -> selected (the untruncated text, 20 bytes = 5 tokens, would not fit). query 'abc' -> 1. used 3, remaining 0, per_item 3."
    ),
    clauses=["S6-INPUT-04", "S6-TRUNC-05", "S6-TRUNC-06", "S6-TRUNC-10", "S6-TRUNC-11"],
    interpretations=["INT-46"],
    request=_req("abc", {"max_excerpt_tokens": 3}),
    files={S: lines(L(memory_id="m1", text="abcdefghijklmnopqrst"))},
    expect=ok(
        package("abc", "abc", bud(3, 3, 0, 3, 50), [sel(_r19, S, 1, "abcdefghijkl", 3)], []), [S]
    ),
)

# ---------------------------------------------------------------- trunc-h020
_r20 = rec("m1", "ab  \n cd")
_h020 = vec(
    "trunc-h020",
    "Interior whitespace of the excerpt is preserved byte for byte.",
    comment=(
        "m1 'ab  \\n cd' (8 bytes): only leading/trailing whitespace is stripped; the interior '  \\n ' stays (no collapse in "
        "excerpts; the collapse is only for matching) -> excerpt 8 bytes -> 2 tokens. query 'ab' -> 1. used 2, remaining 98."
    ),
    clauses=["S6-TRUNC-01", "S6-OUT-14"],
    request=_req("ab", {"max_excerpt_tokens": 100}),
    files={S: lines(L(memory_id="m1", text="ab  \n cd"))},
    expect=ok(
        package("ab", "ab", bud(100, 2, 98, 100, 50), [sel(_r20, S, 1, "ab  \n cd", 2)], []), [S]
    ),
)

# ---------------------------------------------------------------- trunc-h021
_r21 = {m: rec(m, "note and sixteen") for m in ("m1", "m2", "m3")}
_h021 = vec(
    "trunc-h021",
    "The budget check uses the truncated excerpt's tokens, not the full text's.",
    comment=(
        "max_excerpt_tokens 3, per_item 1 -> max_bytes 4. m1, m2, m3 'note and sixteen' (16 bytes = 4 tokens untruncated). "
        "Each excerpt is 'note' -> 1 token (TRUNC-10). Selection: 0+1, 1+1, 2+1 <= 3 -> all three selected (with full-text "
        "tokens not even m1 would fit). query 'note' -> score 1 each, memory_id order. used 3, remaining 0, per_item 1."
    ),
    clauses=["S6-TRUNC-10", "S6-TRUNC-11", "S6-TRUNC-04", "S6-TOK-02"],
    interpretations=["INT-31"],
    request=_req("note", {"max_excerpt_tokens": 3, "per_item_max_excerpt_tokens": 1}),
    files={S: lines(*(L(memory_id=m, text="note and sixteen") for m in ("m1", "m2", "m3")))},
    expect=ok(
        package(
            "note",
            "note",
            bud(3, 3, 0, 1, 50),
            [sel(_r21[m], S, 1, "note", 1) for m in ("m1", "m2", "m3")],
            [],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- trunc-h022
_T22 = {
    "t1": ("a", 1),
    "t2": ("abcd", 1),
    "t3": ("abcde", 2),
    "t4": ("abcdefgh", 2),
    "t5": ("abcdefghi", 3),
}
_h022 = vec(
    "trunc-h022",
    "excerpt_tokens = ceil(bytes / 4): 1->1, 4->1, 5->2, 8->2, 9->3.",
    comment=(
        "query_terms [] -> every score 0 (INT-08), order by memory_id t1..t5. Excerpts: 'a' 1 byte -> ceil(1/4) = 1; 'abcd' "
        "4 -> 1; 'abcde' 5 -> 2; 'abcdefgh' 8 -> 2; 'abcdefghi' 9 -> 3 (INT-46: exactly this estimator). used 1+1+2+2+3 = 9, "
        "remaining 91."
    ),
    clauses=["S6-TOK-01", "S6-TOK-02", "S6-TRUNC-08", "S6-OUT-15"],
    interpretations=["INT-08", "INT-29", "INT-46"],
    request=_req("abc", {"max_excerpt_tokens": 100}, []),
    files={S: lines(*(L(memory_id=m, text=t) for m, (t, _) in _T22.items()))},
    expect=ok(
        package(
            "abc",
            "abc",
            bud(100, 9, 91, 100, 50),
            [sel(rec(m, t), S, 0, t, n) for m, (t, n) in _T22.items()],
            [],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- trunc-h023
_r23 = rec("m1", "xy\u0085\r\n")
_h023 = vec(
    "trunc-h023",
    "Trailing U+0085 CR LF is stripped (U+0085 is White_Space).",
    comment=(
        "m1 text 'xy' U+0085 CR LF -> strip trailing White_Space (U+0085 included, INT-05) -> 'xy' (2 bytes) -> 1 token. "
        "query 'xy' -> 1. used 1, remaining 99."
    ),
    clauses=["S6-TRUNC-02"],
    interpretations=["INT-01", "INT-02", "INT-05", "INT-31"],
    request=_req("xy", {"max_excerpt_tokens": 100}),
    files={S: lines(L(memory_id="m1", text="xy\u0085\r\n"))},
    expect=ok(package("xy", "xy", bud(100, 1, 99, 100, 50), [sel(_r23, S, 1, "xy", 1)], []), [S]),
)

# ---------------------------------------------------------------- trunc-h024
_r24 = rec("m1", "   abcdef")
_h024 = vec(
    "trunc-h024",
    "Strip happens before the cut: leading spaces do not use up max_bytes.",
    comment=(
        "m1 '   abcdef'. Strip -> 'abcdef', then "
        + _CAP1
        + "-> 'abcd' (1 token). (Cutting first would give '   a'.) "
        "query 'abc' -> 1. used 1, remaining 99, per_item 1."
    ),
    clauses=["S6-TRUNC-02", "S6-TRUNC-06"],
    interpretations=["INT-02", "INT-31"],
    request=_req("abc", P1),
    files={S: lines(L(memory_id="m1", text="   abcdef"))},
    expect=ok(package("abc", "abc", bud(100, 1, 99, 1, 50), [sel(_r24, S, 1, "abcd", 1)], []), [S]),
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
    _h015,
    _h016,
    _h017,
    _h018,
    _h019,
    _h020,
    _h021,
    _h022,
    _h023,
    _h024,
]

# INT-09: a term matches inside a longer word (no word boundaries)
VECTORS = also(
    VECTORS,
    {
        "trunc-h001": ["INT-09"],
        "trunc-h002": ["INT-09"],
        "trunc-h003": ["INT-09"],
        "trunc-h004": ["INT-09"],
        "trunc-h005": ["INT-09"],
        "trunc-h007": ["INT-09"],
        "trunc-h009": ["INT-09"],
        "trunc-h010": ["INT-09"],
        "trunc-h012": ["INT-09"],
        "trunc-h013": ["INT-09"],
        "trunc-h016": ["INT-09"],
        "trunc-h018": ["INT-09"],
        "trunc-h019": ["INT-09"],
        "trunc-h024": ["INT-09"],
    },
)
