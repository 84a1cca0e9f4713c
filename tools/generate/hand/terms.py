"""Hand vectors: query term derivation and caller-supplied query_terms (family ``terms``)."""

# ruff: noqa: E501

from __future__ import annotations

from tools.generate.hand._dsl import L, also, bud, lines, ok, package, rec, sel, vec

DESCRIPTION = "Hand-written: term derivation (short terms, duplicates, code-point length) and supplied query_terms."
S = "s.jsonl"
B100 = {"max_excerpt_tokens": 100}


def _req(query: str, terms: list[str] | None = None) -> dict[str, object]:
    request: dict[str, object] = {"query": query, "store_paths": [S], "budget": B100}
    if terms is not None:
        request["scoring"] = {"query_terms": terms}
    return request


# ---------------------------------------------------------------- terms-h001
_r1 = rec("m1", "a bb c")
_h001 = vec(
    "terms-h001",
    "Derived terms shorter than 2 code points are dropped.",
    comment=(
        "query 'a bb c dd' (already normalized; query_hash over it). Split -> [a, bb, c, dd]; keep length >= 2 -> [bb, dd]. "
        "m1 'a bb c': 'bb' matches, 'dd' does not -> base 1, score 1 (keeping 'a' and 'c' would give 3). "
        "Excerpt 'a bb c' 6 bytes -> 2 tokens. used 2, remaining 98."
    ),
    clauses=["S6-SCORE-03", "S6-SCORE-05", "S6-SCORE-07", "S6-SCORE-08"],
    request=_req("a bb c dd"),
    files={S: lines(L(memory_id="m1", text="a bb c"))},
    expect=ok(
        package(
            "a bb c dd", "a bb c dd", bud(100, 2, 98, 100, 50), [sel(_r1, S, 1, "a bb c", 2)], []
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- terms-h002
_r2 = rec("m1", "xy")
_h002 = vec(
    "terms-h002",
    "Duplicate derived terms (after lowercasing) count once.",
    comment=(
        "query ' xy  XY\\txy ' -> trim, collapse, lower -> 'xy xy xy' (query_hash over it). Split -> [xy, xy, xy] (no empty "
        "term survives the collapse); unique, first occurrence wins -> [xy]. m1 'xy' -> base 1, score 1 (3 if duplicates "
        "were kept). Excerpt 2 bytes -> ceil(2/4) = 1 token. used 1, remaining 99."
    ),
    clauses=["S6-SCORE-02", "S6-SCORE-04", "S6-SCORE-06", "S6-SCORE-08"],
    request=_req(" xy  XY\txy "),
    files={S: lines(L(memory_id="m1", text="xy"))},
    expect=ok(
        package(
            " xy  XY\txy ", "xy xy xy", bud(100, 1, 99, 100, 50), [sel(_r2, S, 1, "xy", 1)], []
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- terms-h003
_r3 = rec("m1", "\u00e9\U0001f600e\u0301")
_h003 = vec(
    "terms-h003",
    "Term length counts code points: U+00E9 and U+1F600 are dropped, e + U+0301 is kept.",
    comment=(
        "query 'é 😀 e\\u0301' (already normalized; query_hash over c3 a9 20 f0 9f 98 80 20 65 cc 81). Terms by code points "
        "(INT-07): 'é' 1 cp -> dropped (2 bytes), '😀' 1 cp -> dropped (4 bytes, 2 UTF-16 units), 'e\\u0301' 2 cps -> kept. "
        "m1 text 'é😀e\\u0301' contains 'e\\u0301' -> base 1, score 1 (byte or UTF-16 length would keep more terms and score 2 or 3). "
        "Excerpt = c3 a9 f0 9f 98 80 65 cc 81 = 9 bytes -> 3 tokens. used 3, remaining 97."
    ),
    clauses=["S6-SCORE-05", "S6-SCORE-07"],
    interpretations=["INT-01", "INT-07"],
    request=_req("\u00e9 \U0001f600 e\u0301"),
    files={S: lines(L(memory_id="m1", text="\u00e9\U0001f600e\u0301"))},
    expect=ok(
        package(
            "\u00e9 \U0001f600 e\u0301",
            "\u00e9 \U0001f600 e\u0301",
            bud(100, 3, 97, 100, 50),
            [sel(_r3, S, 1, "\u00e9\U0001f600e\u0301", 3)],
            [],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- terms-h004
_r4a = rec("m1", "alpha beta")
_r4b = rec("m2", "gamma ray")
_h004 = vec(
    "terms-h004",
    "Supplied query_terms replace derivation; query_hash still comes from the query.",
    comment=(
        "query 'alpha beta' -> query_hash = sha256('alpha beta'). scoring.query_terms ['gamma'] is present, so derivation "
        "is not used (INPUT-11, INT-08): terms [gamma]. m1 'alpha beta' -> 0; m2 'gamma ray' -> 1. Order m2, m1. "
        "Excerpts: 'gamma ray' 9 bytes -> 3; 'alpha beta' 10 bytes -> 3. used 6, remaining 94."
    ),
    clauses=["S6-INPUT-11", "S6-SCORE-07", "S6-HASH-04"],
    interpretations=["INT-08", "INT-29"],
    request=_req("alpha beta", ["gamma"]),
    files={S: lines(L(memory_id="m1", text="alpha beta"), L(memory_id="m2", text="gamma ray"))},
    expect=ok(
        package(
            "alpha beta",
            "alpha beta",
            bud(100, 6, 94, 100, 50),
            [sel(_r4b, S, 1, "gamma ray", 3), sel(_r4a, S, 0, "alpha beta", 3)],
            [],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- terms-h005
_r5 = rec("m1", "alpha", tags=["alpha"])
_h005 = vec(
    "terms-h005",
    "Supplied empty query_terms means no terms: base and tag bonus are 0.",
    comment=(
        "query 'alpha', scoring.query_terms [] -> an empty list is valid and means no terms (INT-08; not 'absent'). "
        "m1 text 'alpha', tags ['alpha']: base 0 (no term), overlap 0 -> score 0 (deriving from the query would give 1.5). "
        "Selected anyway (INT-29). Excerpt 5 bytes -> 2 tokens. used 2, remaining 98."
    ),
    clauses=["S6-INPUT-11", "S6-SCORE-08", "S6-SCORE-10"],
    interpretations=["INT-08", "INT-29"],
    request=_req("alpha", []),
    files={S: lines(L(memory_id="m1", text="alpha", tags=["alpha"]))},
    expect=ok(
        package("alpha", "alpha", bud(100, 2, 98, 100, 50), [sel(_r5, S, 0, "alpha", 2)], []), [S]
    ),
)

# ---------------------------------------------------------------- terms-h006
_r6a = rec("m1", "The QUICK\nbrown fox")
_r6b = rec("m2", "quick fox brown")
_h006 = vec(
    "terms-h006",
    "A supplied term is normalized (collapse, lower) and kept as a phrase.",
    comment=(
        "scoring.query_terms ['Quick  Brown'] -> normalized like the query (INT-08): 'quick brown' (not split). "
        "m1 'The QUICK\\nbrown fox' -> normalized text 'the quick brown fox' (INT-09) contains 'quick brown' -> 1. "
        "m2 'quick fox brown' -> no -> 0. Order m1, m2. query 'fox' -> query_hash = sha256('fox'). "
        "Excerpts: m1 19 bytes (newline kept) -> 5 tokens; m2 15 bytes -> 4 tokens. used 9, remaining 91."
    ),
    clauses=["S6-INPUT-11", "S6-SCORE-07"],
    interpretations=["INT-08", "INT-09", "INT-29"],
    request=_req("fox", ["Quick  Brown"]),
    files={
        S: lines(
            L(memory_id="m1", text="The QUICK\nbrown fox"),
            L(memory_id="m2", text="quick fox brown"),
        )
    },
    expect=ok(
        package(
            "fox",
            "fox",
            bud(100, 9, 91, 100, 50),
            [sel(_r6a, S, 1, "The QUICK\nbrown fox", 5), sel(_r6b, S, 0, "quick fox brown", 4)],
            [],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- terms-h007
_r7a = rec("m1", "abc")
_r7b = rec("m2", "Xylophone")
_h007 = vec(
    "terms-h007",
    "A supplied one-character term is kept (no length filter for supplied terms).",
    comment=(
        "scoring.query_terms ['X'] -> lowercased 'x', kept although 1 code point (INT-08: the length filter only applies "
        "to derived terms). m1 'abc' -> 0; m2 'Xylophone' -> 'xylophone' contains 'x' -> 1. Order m2, m1. "
        "query 'xylophone' -> query_hash = sha256('xylophone'). Excerpts: 9 bytes -> 3; 3 bytes -> 1. used 4, remaining 96."
    ),
    clauses=["S6-INPUT-11", "S6-SCORE-07"],
    interpretations=["INT-08", "INT-09", "INT-29"],
    request=_req("xylophone", ["X"]),
    files={S: lines(L(memory_id="m1", text="abc"), L(memory_id="m2", text="Xylophone"))},
    expect=ok(
        package(
            "xylophone",
            "xylophone",
            bud(100, 4, 96, 100, 50),
            [sel(_r7b, S, 1, "Xylophone", 3), sel(_r7a, S, 0, "abc", 1)],
            [],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- terms-h008
_r8 = rec("m1", "ab")
_h008 = vec(
    "terms-h008",
    "Supplied terms: empty-after-normalization terms removed, duplicates removed after normalization.",
    comment=(
        "query_terms ['Ab', 'ab', ' AB ', U+3000, ''] -> normalized ['ab', 'ab', 'ab', '', ''] (U+3000 is White_Space, "
        "INT-05) -> empties removed, duplicates removed -> ['ab'] (INT-08). m1 'ab' -> base 1 (3 if duplicates survived). "
        "Excerpt 2 bytes -> 1 token. used 1, remaining 99."
    ),
    clauses=["S6-INPUT-11", "S6-SCORE-07", "S6-SCORE-08"],
    interpretations=["INT-05", "INT-08", "INT-10"],
    request=_req("ab", ["Ab", "ab", " AB ", "\u3000", ""]),
    files={S: lines(L(memory_id="m1", text="ab"))},
    expect=ok(package("ab", "ab", bud(100, 1, 99, 100, 50), [sel(_r8, S, 1, "ab", 1)], []), [S]),
)

# ---------------------------------------------------------------- terms-h009
_r9 = rec("m1", "nothing here", tags=["rust lang"])
_h009 = vec(
    "terms-h009",
    "A supplied phrase term can match a tag exactly.",
    comment=(
        "query_terms ['Rust  Lang'] -> 'rust lang' (INT-08). m1 tags ['Rust Lang'] -> normalized ['rust lang'] (lowercased "
        "only, INT-25). Overlap: 'rust lang' equals the tag -> 1 -> tag_bonus 0.5. Text 'nothing here' -> base 0. "
        "score = 0 + 0.5 = 0.5. query 'zz' -> query_hash = sha256('zz'). Excerpt 12 bytes -> 3 tokens. used 3, remaining 97."
    ),
    clauses=["S6-INPUT-11", "S6-SCORE-10", "S6-SCORE-11", "S6-READ-12"],
    interpretations=["INT-08", "INT-25"],
    request=_req("zz", ["Rust  Lang"]),
    files={S: lines(L(memory_id="m1", text="nothing here", tags=["Rust Lang"]))},
    expect=ok(
        package("zz", "zz", bud(100, 3, 97, 100, 50), [sel(_r9, S, 0.5, "nothing here", 3)], []),
        [S],
    ),
)

# ---------------------------------------------------------------- terms-h010
_r10 = rec("m1", "a b c", tags=["a"])
_h010 = vec(
    "terms-h010",
    "A query whose words are all single characters derives no terms.",
    comment=(
        "query 'a b c' -> terms [a, b, c] all length 1 -> dropped -> []. m1 'a b c' with tag 'a': base 0, overlap 0 -> "
        "score 0, selected (INT-29). Excerpt 5 bytes -> 2 tokens. used 2, remaining 98."
    ),
    clauses=["S6-SCORE-05", "S6-SCORE-08", "S6-SCORE-10"],
    interpretations=["INT-29"],
    request=_req("a b c"),
    files={S: lines(L(memory_id="m1", text="a b c", tags=["a"]))},
    expect=ok(
        package("a b c", "a b c", bud(100, 2, 98, 100, 50), [sel(_r10, S, 0, "a b c", 2)], []), [S]
    ),
)

# ---------------------------------------------------------------- terms-h011
_r11a = rec("m1", "red and apple")
_r11b = rec("m2", "a red apple")
_h011 = vec(
    "terms-h011",
    "A supplied term containing a space is not split into words.",
    comment=(
        "query 'red apple', query_terms ['red apple'] -> one phrase term (INT-08: no splitting of supplied terms). "
        "m1 'red and apple' -> phrase absent -> 0 (2 if it were split). m2 'a red apple' -> 1. Order m2, m1. "
        "Excerpts: 11 bytes -> 3; 13 bytes -> 4. used 7, remaining 93."
    ),
    clauses=["S6-INPUT-11", "S6-SCORE-07"],
    interpretations=["INT-08", "INT-29"],
    request=_req("red apple", ["red apple"]),
    files={
        S: lines(L(memory_id="m1", text="red and apple"), L(memory_id="m2", text="a red apple"))
    },
    expect=ok(
        package(
            "red apple",
            "red apple",
            bud(100, 7, 93, 100, 50),
            [sel(_r11b, S, 1, "a red apple", 3), sel(_r11a, S, 0, "red and apple", 4)],
            [],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- terms-h012
_r12 = rec("m1", "hello world")
_h012 = vec(
    "terms-h012",
    "Derived terms keep punctuation: 'hello,' does not match 'hello'.",
    comment=(
        "query 'Hello, world' -> 'hello, world' (query_hash over it); split on whitespace -> ['hello,', 'world']. "
        "m1 'hello world' contains 'world' but not 'hello,' -> base 1, score 1. Excerpt 11 bytes -> 3 tokens. used 3, remaining 97."
    ),
    clauses=["S6-SCORE-03", "S6-SCORE-07", "S6-SCORE-08"],
    request=_req("Hello, world"),
    files={S: lines(L(memory_id="m1", text="hello world"))},
    expect=ok(
        package(
            "Hello, world",
            "hello, world",
            bud(100, 3, 97, 100, 50),
            [sel(_r12, S, 1, "hello world", 3)],
            [],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- terms-h013
_r13a = rec("m1", "\u8a9e")
_r13b = rec("m2", "\u65e5\u672c\u8a9e")
_h013 = vec(
    "terms-h013",
    "A 2-code-point CJK term is kept; a 1-code-point (3-byte) term is dropped.",
    comment=(
        "query '日本 語' (already normalized). Terms by code points (INT-07): '日本' 2 cps -> kept; '語' 1 cp (3 bytes) -> dropped. "
        "m1 '語' -> 0 (a byte-length rule would keep '語' and score it 1); m2 '日本語' contains '日本' -> 1. Order m2, m1. "
        "Excerpts: m2 9 bytes -> 3 tokens; m1 3 bytes -> 1 token. used 4, remaining 96."
    ),
    clauses=["S6-SCORE-05", "S6-SCORE-07"],
    interpretations=["INT-01", "INT-07", "INT-29"],
    request=_req("\u65e5\u672c \u8a9e"),
    files={
        S: lines(L(memory_id="m1", text="\u8a9e"), L(memory_id="m2", text="\u65e5\u672c\u8a9e"))
    },
    expect=ok(
        package(
            "\u65e5\u672c \u8a9e",
            "\u65e5\u672c \u8a9e",
            bud(100, 4, 96, 100, 50),
            [sel(_r13b, S, 1, "\u65e5\u672c\u8a9e", 3), sel(_r13a, S, 0, "\u8a9e", 1)],
            [],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- terms-h014
_r14 = rec("m1", "gopher")
_h014 = vec(
    "terms-h014",
    "Duplicate terms are removed after lowercasing, keeping the first occurrence.",
    comment=(
        "query 'Go go GO gopher' -> normalized 'go go go gopher' (query_hash over it) -> split [go, go, go, gopher] -> unique, "
        "first occurrence wins -> [go, gopher]. m1 'gopher' contains 'go' and 'gopher' -> base 2 (4 if duplicates counted). "
        "Excerpt 6 bytes -> 2 tokens. used 2, remaining 98."
    ),
    clauses=["S6-SCORE-06", "S6-SCORE-07", "S6-SCORE-08"],
    request=_req("Go go GO gopher"),
    files={S: lines(L(memory_id="m1", text="gopher"))},
    expect=ok(
        package(
            "Go go GO gopher",
            "go go go gopher",
            bud(100, 2, 98, 100, 50),
            [sel(_r14, S, 2, "gopher", 2)],
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
        "terms-h003": ["INT-09"],
        "terms-h013": ["INT-09"],
        "terms-h014": ["INT-09", "INT-10"],
    },
)
