"""Hand vectors: substring matching against normalized candidate text (family ``matching``)."""

# ruff: noqa: E501

from __future__ import annotations

from tools.generate.hand._dsl import L, also, bud, lines, ok, package, rec, sel, vec

DESCRIPTION = "Hand-written: term matching (case, collapsed whitespace, overlapping terms, no Unicode normalization)."
S = "s.jsonl"
B100 = {"max_excerpt_tokens": 100}


def _req(query: str, terms: list[str] | None = None) -> dict[str, object]:
    request: dict[str, object] = {"query": query, "store_paths": [S], "budget": B100}
    if terms is not None:
        request["scoring"] = {"query_terms": terms}
    return request


# ---------------------------------------------------------------- matching-h001
_r1 = rec("m1", "The KERNEL panicked")
_h001 = vec(
    "matching-h001",
    "Candidate text is lowercased before substring matching.",
    comment=(
        "query 'kernel' -> term [kernel]. m1 'The KERNEL panicked' -> normalized text 'the kernel panicked' (INT-09) "
        "contains 'kernel' -> base 1, score 1. Excerpt keeps the original case: 19 bytes -> 5 tokens. used 5, remaining 95."
    ),
    clauses=["S6-SCORE-07", "S6-SCORE-08", "S6-TRUNC-01"],
    interpretations=["INT-09"],
    request=_req("kernel"),
    files={S: lines(L(memory_id="m1", text="The KERNEL panicked"))},
    expect=ok(
        package(
            "kernel",
            "kernel",
            bud(100, 5, 95, 100, 50),
            [sel(_r1, S, 1, "The KERNEL panicked", 5)],
            [],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- matching-h002
_r2 = rec("m1", "  NEW\t\t\nYORK  ")
_h002 = vec(
    "matching-h002",
    "A phrase term matches across a collapsed whitespace run in the candidate text.",
    comment=(
        "query 'ny', query_terms ['new york']. m1 text '  NEW\\t\\t\\nYORK  ' -> normalized text: trim, collapse the TAB TAB LF "
        "run to one space, lower -> 'new york' (INT-09) -> contains 'new york' -> score 1. Excerpt: strip only the outer "
        "spaces (INT-31) -> 'NEW\\t\\t\\nYORK' = 3+3+4 = 10 bytes -> 3 tokens. record_hash covers the raw text with its outer "
        "spaces (INT-02). used 3, remaining 97."
    ),
    clauses=["S6-SCORE-07", "S6-TRUNC-02", "S6-INPUT-11"],
    interpretations=["INT-02", "INT-05", "INT-08", "INT-09", "INT-31"],
    request=_req("ny", ["new york"]),
    files={S: lines(L(memory_id="m1", text="  NEW\t\t\nYORK  "))},
    expect=ok(
        package("ny", "ny", bud(100, 3, 97, 100, 50), [sel(_r2, S, 1, "NEW\t\t\nYORK", 3)], []), [S]
    ),
)

# ---------------------------------------------------------------- matching-h003
_r3 = rec("m1", "xabcx")
_h003 = vec(
    "matching-h003",
    "Overlapping and nested terms each count.",
    comment=(
        "query 'abc ab bc' -> terms [abc, ab, bc]. m1 'xabcx' contains 'abc', 'ab' (inside abc) and 'bc' (inside abc) -> "
        "term_match_count 3 (INT-10: each term counted independently) -> score 3. Excerpt 5 bytes -> 2 tokens. used 2, remaining 98."
    ),
    clauses=["S6-SCORE-07", "S6-SCORE-08"],
    interpretations=["INT-10"],
    request=_req("abc ab bc"),
    files={S: lines(L(memory_id="m1", text="xabcx"))},
    expect=ok(
        package(
            "abc ab bc", "abc ab bc", bud(100, 2, 98, 100, 50), [sel(_r3, S, 3, "xabcx", 2)], []
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- matching-h004
_r4 = rec("m1", "la la la")
_h004 = vec(
    "matching-h004",
    "A term occurring several times counts once.",
    comment=(
        "query 'la' -> term [la]. m1 'la la la' has three occurrences -> term_match_count counts terms, not occurrences "
        "(INT-10) -> 1, score 1. Excerpt 8 bytes -> 2 tokens. used 2, remaining 98."
    ),
    clauses=["S6-SCORE-07", "S6-SCORE-08"],
    interpretations=["INT-10"],
    request=_req("la"),
    files={S: lines(L(memory_id="m1", text="la la la"))},
    expect=ok(
        package("la", "la", bud(100, 2, 98, 100, 50), [sel(_r4, S, 1, "la la la", 2)], []), [S]
    ),
)

# ---------------------------------------------------------------- matching-h005
_r5 = rec("m1", "concatenate")
_h005 = vec(
    "matching-h005",
    "Matching is plain substring search, without word boundaries.",
    comment=(
        "query 'cat' -> term [cat]. m1 'concatenate' contains 'cat' inside a word -> 'appear as substrings' -> 1. "
        "Excerpt 11 bytes -> 3 tokens. used 3, remaining 97."
    ),
    clauses=["S6-SCORE-07", "S6-SCORE-08"],
    request=_req("cat"),
    files={S: lines(L(memory_id="m1", text="concatenate"))},
    expect=ok(
        package("cat", "cat", bud(100, 3, 97, 100, 50), [sel(_r5, S, 1, "concatenate", 3)], []), [S]
    ),
)

# ---------------------------------------------------------------- matching-h006
_r6 = rec("m1", "horse")
_h006 = vec(
    "matching-h006",
    "A candidate matching no term scores 0 and is still selected.",
    comment=(
        "query 'zebra' -> term [zebra]; m1 'horse' -> 0 matches, no tags -> score 0. No threshold exists (INT-29) -> selected. "
        "Excerpt 5 bytes -> 2 tokens. used 2, remaining 98."
    ),
    clauses=["S6-SCORE-08", "S6-TRUNC-11"],
    interpretations=["INT-29"],
    request=_req("zebra"),
    files={S: lines(L(memory_id="m1", text="horse"))},
    expect=ok(
        package("zebra", "zebra", bud(100, 2, 98, 100, 50), [sel(_r6, S, 0, "horse", 2)], []), [S]
    ),
)

# ---------------------------------------------------------------- matching-h007
_r7 = rec("m1", "L'\u00c9COLE")
_h007 = vec(
    "matching-h007",
    "Non-ASCII uppercase in query and text is lowercased on both sides.",
    comment=(
        "query '\\u00c9COLE' -> lower 'école' = c3 a9 63 6f 6c 65 (query_hash over these). m1 'L'\\u00c9COLE' -> normalized "
        "\"l'école\" (INT-06, INT-09) contains 'école' -> 1. Excerpt original 'L'ÉCOLE' = 1+1+2+4 = 8 bytes -> 2 tokens. "
        "used 2, remaining 98."
    ),
    clauses=["S6-SCORE-02", "S6-SCORE-07"],
    interpretations=["INT-01", "INT-06", "INT-09"],
    request=_req("\u00c9COLE"),
    files={S: lines(L(memory_id="m1", text="L'\u00c9COLE"))},
    expect=ok(
        package(
            "\u00c9COLE",
            "\u00e9cole",
            bud(100, 2, 98, 100, 50),
            [sel(_r7, S, 1, "L'\u00c9COLE", 2)],
            [],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- matching-h008
_r8 = rec("m1", "hot\u00a0dog")
_h008 = vec(
    "matching-h008",
    "U+00A0 in candidate text is collapsed to a space for matching, kept in the excerpt.",
    comment=(
        "query 'dog', query_terms ['hot dog']. m1 'hot\\u00a0dog' -> normalized text 'hot dog' (U+00A0 is White_Space, INT-05, "
        "INT-09) -> phrase matches -> 1. Excerpt unchanged 'hot\\u00a0dog' = 3+2+3 = 8 bytes -> 2 tokens. used 2, remaining 98."
    ),
    clauses=["S6-SCORE-07", "S6-TRUNC-01"],
    interpretations=["INT-01", "INT-05", "INT-08", "INT-09"],
    request=_req("dog", ["hot dog"]),
    files={S: lines(L(memory_id="m1", text="hot\u00a0dog"))},
    expect=ok(
        package("dog", "dog", bud(100, 2, 98, 100, 50), [sel(_r8, S, 1, "hot\u00a0dog", 2)], []),
        [S],
    ),
)

# ---------------------------------------------------------------- matching-h009
_r9a = rec("m1", "cafe\u0301")
_r9b = rec("m2", "caf\u00e9")
_h009 = vec(
    "matching-h009",
    "No Unicode normalization: NFC 'café' does not match NFD 'cafe\u0301'.",
    comment=(
        "query 'cafe', query_terms ['caf\\u00e9'] (NFC). m1 'cafe\\u0301' (NFD: e + U+0301) does not contain U+00E9 -> 0 "
        "(INT-09: no NFC/NFD). m2 'caf\\u00e9' -> 1. Order m2, m1. Excerpts: m2 5 bytes -> 2; m1 6 bytes -> 2. used 4, remaining 96."
    ),
    clauses=["S6-SCORE-07"],
    interpretations=["INT-01", "INT-08", "INT-09", "INT-29"],
    request=_req("cafe", ["caf\u00e9"]),
    files={S: lines(L(memory_id="m1", text="cafe\u0301"), L(memory_id="m2", text="caf\u00e9"))},
    expect=ok(
        package(
            "cafe",
            "cafe",
            bud(100, 4, 96, 100, 50),
            [sel(_r9b, S, 1, "caf\u00e9", 2), sel(_r9a, S, 0, "cafe\u0301", 2)],
            [],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- matching-h010
_r10a = rec("m1", "D\u0130YARBAKIR")
_r10b = rec("m2", "DIYARBAKIR")
_h010 = vec(
    "matching-h010",
    "Candidate 'İ' lowercases to 'i' + U+0307, so an ASCII term does not match across it.",
    comment=(
        "query 'diyarbakir' -> term [diyarbakir]. m1 'D\\u0130YARBAKIR' -> normalized 'di\\u0307yarbakir' (full, locale-"
        "independent mapping, INT-06) -> no match -> 0. m2 'DIYARBAKIR' -> 'diyarbakir' -> 1. Order m2, m1. "
        "Excerpts: m2 10 bytes -> 3; m1 1+2+8 = 11 bytes -> 3. used 6, remaining 94."
    ),
    clauses=["S6-SCORE-07"],
    interpretations=["INT-01", "INT-06", "INT-09", "INT-29"],
    request=_req("diyarbakir"),
    files={
        S: lines(L(memory_id="m1", text="D\u0130YARBAKIR"), L(memory_id="m2", text="DIYARBAKIR"))
    },
    expect=ok(
        package(
            "diyarbakir",
            "diyarbakir",
            bud(100, 6, 94, 100, 50),
            [sel(_r10b, S, 1, "DIYARBAKIR", 3), sel(_r10a, S, 0, "D\u0130YARBAKIR", 3)],
            [],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- matching-h011
_r11a = rec("m1", "red")
_r11b = rec("m2", "red green")
_r11c = rec("m3", "green blue red")
_h011 = vec(
    "matching-h011",
    "base = number of matching terms ranks candidates 3, 2, 1.",
    comment=(
        "query 'red green blue' -> terms [red, green, blue]. m1 'red' -> 1; m2 'red green' -> 2; m3 'green blue red' -> 3. "
        "Score descending -> m3, m2, m1. Excerpts: m3 14 bytes -> 4; m2 9 -> 3; m1 3 -> 1. used 8, remaining 92."
    ),
    clauses=["S6-SCORE-07", "S6-SCORE-08", "S6-SCORE-18", "S6-ORDER-01", "S6-TRUNC-09"],
    request=_req("red green blue"),
    files={
        S: lines(
            L(memory_id="m1", text="red"),
            L(memory_id="m2", text="red green"),
            L(memory_id="m3", text="green blue red"),
        )
    },
    expect=ok(
        package(
            "red green blue",
            "red green blue",
            bud(100, 8, 92, 100, 50),
            [
                sel(_r11c, S, 3, "green blue red", 4),
                sel(_r11b, S, 2, "red green", 3),
                sel(_r11a, S, 1, "red", 1),
            ],
            [],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- matching-h012
_r12a = rec("m1", "\u039f\u0394\u039f\u03a3")
_r12b = rec("m2", "\u039f\u0394\u039f\u03a3\u039f")
_h012 = vec(
    "matching-h012",
    "Final_Sigma in candidate text: word-final Σ -> ς, medial Σ -> σ.",
    comment=(
        "query 'οδος' (ending U+03C2, already lowercase) -> one term. m1 'ΟΔΟΣ' -> normalized 'οδος' (Σ final -> ς, INT-06) -> 1. "
        "m2 'ΟΔΟΣΟ' -> Σ is followed by a letter, so not final -> 'οδοσο' (σ U+03C3) -> does not contain 'οδος' -> 0. "
        "Order m1, m2. Excerpts: m1 8 bytes -> 2; m2 10 bytes -> 3. used 5, remaining 95."
    ),
    clauses=["S6-SCORE-07"],
    interpretations=["INT-01", "INT-06", "INT-09", "INT-29"],
    request=_req("\u03bf\u03b4\u03bf\u03c2"),
    files={
        S: lines(
            L(memory_id="m1", text="\u039f\u0394\u039f\u03a3"),
            L(memory_id="m2", text="\u039f\u0394\u039f\u03a3\u039f"),
        )
    },
    expect=ok(
        package(
            "\u03bf\u03b4\u03bf\u03c2",
            "\u03bf\u03b4\u03bf\u03c2",
            bud(100, 5, 95, 100, 50),
            [
                sel(_r12a, S, 1, "\u039f\u0394\u039f\u03a3", 2),
                sel(_r12b, S, 0, "\u039f\u0394\u039f\u03a3\u039f", 3),
            ],
            [],
        ),
        [S],
    ),
)

VECTORS = [_h001, _h002, _h003, _h004, _h005, _h006, _h007, _h008, _h009, _h010, _h011, _h012]

# INT-09: a term matches inside a longer word (no word boundaries)
VECTORS = also(
    VECTORS,
    {
        "matching-h003": ["INT-09"],
        "matching-h005": ["INT-09"],
    },
)
