"""Hand vectors: tag normalization and the tag overlap bonus (family ``tags``)."""

# ruff: noqa: E501

from __future__ import annotations

from tools.generate.hand._dsl import L, bud, lines, ok, package, rec, sel, vec

DESCRIPTION = (
    "Hand-written: tag overlap on/off, tag lowercasing / dedupe / code-point sort, exact tag match."
)
S = "s.jsonl"
B100 = {"max_excerpt_tokens": 100}


def _req(query: str, scoring: dict[str, object] | None = None) -> dict[str, object]:
    request: dict[str, object] = {"query": query, "store_paths": [S], "budget": B100}
    if scoring is not None:
        request["scoring"] = scoring
    return request


# ---------------------------------------------------------------- tags-h001
_r1 = rec("m1", "systems programming", tags=["rust"])
_h001 = vec(
    "tags-h001",
    "Tag overlap is on by default: a term equal to a tag adds 0.5.",
    comment=(
        "query 'rust' -> [rust]. scoring absent -> enable_tag_overlap defaults to true. m1 text 'systems programming' has no "
        "'rust' -> base 0; tags ['rust'] -> overlap 1 -> tag_bonus 1 * 0.5 = 0.5; score 0 + 0.5 = 0.5. "
        "Excerpt 19 bytes -> 5 tokens. used 5, remaining 95."
    ),
    clauses=[
        "S6-INPUT-10",
        "S6-SCORE-09",
        "S6-SCORE-10",
        "S6-SCORE-11",
        "S6-SCORE-18",
        "S6-DET-01",
    ],
    request=_req("rust"),
    files={S: lines(L(memory_id="m1", text="systems programming", tags=["rust"]))},
    expect=ok(
        package(
            "rust",
            "rust",
            bud(100, 5, 95, 100, 50),
            [sel(_r1, S, 0.5, "systems programming", 5)],
            [],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- tags-h002
_h002 = vec(
    "tags-h002",
    "enable_tag_overlap false: no tag bonus.",
    comment=(
        "Same store as tags-h001, scoring.enable_tag_overlap = false -> tag_bonus 0. base 0 -> score 0, selected (INT-29). "
        "Excerpt 19 bytes -> 5 tokens. used 5, remaining 95."
    ),
    clauses=["S6-SCORE-09", "S6-SCORE-18"],
    interpretations=["INT-29"],
    request=_req("rust", {"enable_tag_overlap": False}),
    files={S: lines(L(memory_id="m1", text="systems programming", tags=["rust"]))},
    expect=ok(
        package(
            "rust", "rust", bud(100, 5, 95, 100, 50), [sel(_r1, S, 0, "systems programming", 5)], []
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- tags-h003
_r3 = rec("m1", "crab", tags=["rust"])
_h003 = vec(
    "tags-h003",
    "Tags are lowercased then deduplicated: ['RUST', 'Rust'] -> ['rust'].",
    comment=(
        "m1 tags ['RUST', 'Rust'] -> lowercase each -> ['rust', 'rust'] -> unique -> ['rust'] (INT-25; the normalized record "
        "for record_hash has tags ['rust']). query 'rust': overlap 1 -> 0.5; text 'crab' -> base 0; score 0.5. "
        "Excerpt 4 bytes -> 1 token. used 1, remaining 99."
    ),
    clauses=["S6-READ-11", "S6-READ-12", "S6-SCORE-10", "S6-SCORE-11"],
    interpretations=["INT-25"],
    request=_req("rust"),
    files={S: lines(L(memory_id="m1", text="crab", tags=["RUST", "Rust"]))},
    expect=ok(
        package("rust", "rust", bud(100, 1, 99, 100, 50), [sel(_r3, S, 0.5, "crab", 1)], []), [S]
    ),
)

# ---------------------------------------------------------------- tags-h004
_r4 = rec("m1", "rust is fun", tags=["rust"])
_h004 = vec(
    "tags-h004",
    "Base and tag bonus add: 1 + 0.5 = 1.5.",
    comment=(
        "query 'rust'. m1 text 'rust is fun' -> base 1; tags ['rust'] -> overlap 1 -> 0.5; score = 1 + 0.5 = 1.5. "
        "Excerpt 11 bytes -> 3 tokens. used 3, remaining 97."
    ),
    clauses=["S6-SCORE-08", "S6-SCORE-11", "S6-SCORE-18", "S6-OUT-13"],
    request=_req("rust"),
    files={S: lines(L(memory_id="m1", text="rust is fun", tags=["rust"]))},
    expect=ok(
        package("rust", "rust", bud(100, 3, 97, 100, 50), [sel(_r4, S, 1.5, "rust is fun", 3)], []),
        [S],
    ),
)

# ---------------------------------------------------------------- tags-h005
_r5 = rec("m1", "x", tags=["c", "go", "rust"])
_h005 = vec(
    "tags-h005",
    "Two terms matching tags give overlap 2 -> tag_bonus 1.0.",
    comment=(
        "query 'rust go' -> [rust, go]. m1 tags ['go', 'Rust', 'c'] -> normalized ['c', 'go', 'rust'] (lowercase, unique, "
        "code-point sort). Terms equal to a tag: rust, go -> overlap 2 -> 2 * 0.5 = 1.0. Text 'x' -> base 0. score 1.0. "
        "Excerpt 1 byte -> 1 token. used 1, remaining 99."
    ),
    clauses=["S6-SCORE-10", "S6-SCORE-11", "S6-READ-11"],
    interpretations=["INT-25"],
    request=_req("rust go"),
    files={S: lines(L(memory_id="m1", text="x", tags=["go", "Rust", "c"]))},
    expect=ok(
        package("rust go", "rust go", bud(100, 1, 99, 100, 50), [sel(_r5, S, 1.0, "x", 1)], []), [S]
    ),
)

# ---------------------------------------------------------------- tags-h006
_r6 = rec("m1", "crab", tags=["rustacean"])
_h006 = vec(
    "tags-h006",
    "Tag overlap needs exact equality: term 'rust' does not match tag 'rustacean'.",
    comment=(
        "query 'rust'. m1 tags ['rustacean'] -> 'exactly match any candidate tag' fails -> overlap 0. Text 'crab' -> base 0. "
        "score 0, selected (INT-29). Excerpt 4 bytes -> 1 token. used 1, remaining 99."
    ),
    clauses=["S6-SCORE-10"],
    interpretations=["INT-29"],
    request=_req("rust"),
    files={S: lines(L(memory_id="m1", text="crab", tags=["rustacean"]))},
    expect=ok(
        package("rust", "rust", bud(100, 1, 99, 100, 50), [sel(_r6, S, 0, "crab", 1)], []), [S]
    ),
)

# ---------------------------------------------------------------- tags-h007
_r7 = rec("m1", "x", tags=[" rust"])
_h007 = vec(
    "tags-h007",
    "Tags are not trimmed: ' rust' does not equal the term 'rust'.",
    comment=(
        "m1 tags [' rust'] -> normalized [' rust'] (lowercase only, no trim, INT-25). query 'rust' -> overlap 0 -> score 0 "
        "(a trimming reader would give 0.5). Excerpt 'x' 1 byte -> 1 token. used 1, remaining 99."
    ),
    clauses=["S6-SCORE-10", "S6-READ-12"],
    interpretations=["INT-25", "INT-29"],
    request=_req("rust"),
    files={S: lines(L(memory_id="m1", text="x", tags=[" rust"]))},
    expect=ok(package("rust", "rust", bud(100, 1, 99, 100, 50), [sel(_r7, S, 0, "x", 1)], []), [S]),
)

# ---------------------------------------------------------------- tags-h008
_r8 = rec("m1", "x", tags=["", "a", "b", "z", "\u00e9"])
_h008 = vec(
    "tags-h008",
    "Tag normalization: lowercase, unique, code-point sort; an empty tag is kept.",
    comment=(
        "m1 tags ['b', '', 'B', 'a', 'é', 'z'] -> lowercase ['b', '', 'b', 'a', 'é', 'z'] -> unique ['b', '', 'a', 'é', 'z'] -> "
        "code-point sort ['', 'a', 'b', 'z', 'é'] (U+00E9 > 'z'; INT-25; '' is a valid tag, INT-22). Only record_hash sees this: "
        'canonical preimage {"memory_id":"m1","refs":[],"tags":["","a","b","z","é"],"text":"x"}. '
        "query 'qq' matches nothing -> score 0. Excerpt 1 byte -> 1 token. used 1, remaining 99."
    ),
    clauses=["S6-READ-11", "S6-READ-12", "S6-READ-14", "S6-REC-07"],
    interpretations=["INT-01", "INT-22", "INT-25", "INT-29"],
    request=_req("qq"),
    files={S: lines(L(memory_id="m1", text="x", tags=["b", "", "B", "a", "\u00e9", "z"]))},
    expect=ok(package("qq", "qq", bud(100, 1, 99, 100, 50), [sel(_r8, S, 0, "x", 1)], []), [S]),
)

# ---------------------------------------------------------------- tags-h009
_r9 = rec("m1", "x", tags=["\uff41", "\U0001f600"])
_h009 = vec(
    "tags-h009",
    "Tags sort by code point: U+FF41 before U+1F600 (UTF-16 order would differ).",
    comment=(
        "m1 tags ['😀', 'Ａ' U+FF21] -> lowercase: U+FF21 -> U+FF41, 😀 unchanged -> sort by code point: U+FF41 < U+1F600 -> "
        "['\\uff41', '😀'] (INT-25; a UTF-16 sort puts the surrogate D83D first). The list order is visible only in "
        "record_hash (JCS keeps array order). query 'qq' -> score 0. Excerpt 1 byte -> 1 token. used 1, remaining 99."
    ),
    clauses=["S6-READ-11", "S6-READ-12", "S6-READ-14"],
    interpretations=["INT-01", "INT-06", "INT-25", "INT-29"],
    request=_req("qq"),
    files={S: lines(L(memory_id="m1", text="x", tags=["\U0001f600", "\uff21"]))},
    expect=ok(package("qq", "qq", bud(100, 1, 99, 100, 50), [sel(_r9, S, 0, "x", 1)], []), [S]),
)

# ---------------------------------------------------------------- tags-h010
_r10 = rec("m1", "x", tags=["\u03bf\u03b4\u03bf\u03c2"])
_h010 = vec(
    "tags-h010",
    "Greek tag 'ΟΔΟΣ' lowercases to 'οδος' (final sigma) and matches the term.",
    comment=(
        "m1 tags ['ΟΔΟΣ'] -> 'οδος' ending U+03C2 (INT-06 Final_Sigma, INT-25). query 'οδος' (U+03C2) -> overlap 1 -> 0.5. "
        "Text 'x' -> base 0. score 0.5. Excerpt 1 byte -> 1 token. used 1, remaining 99."
    ),
    clauses=["S6-READ-12", "S6-SCORE-10", "S6-SCORE-11"],
    interpretations=["INT-01", "INT-06", "INT-25"],
    request=_req("\u03bf\u03b4\u03bf\u03c2"),
    files={S: lines(L(memory_id="m1", text="x", tags=["\u039f\u0394\u039f\u03a3"]))},
    expect=ok(
        package(
            "\u03bf\u03b4\u03bf\u03c2",
            "\u03bf\u03b4\u03bf\u03c2",
            bud(100, 1, 99, 100, 50),
            [sel(_r10, S, 0.5, "x", 1)],
            [],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- tags-h011
_r11 = rec("m1", "x", tags=["c"])
_h011 = vec(
    "tags-h011",
    "A one-character query word is not a term, so it cannot match a tag.",
    comment=(
        "query 'c rust' -> terms: 'c' dropped (length 1), [rust]. m1 tags ['c'] -> no term equals 'c' -> overlap 0; "
        "text 'x' -> base 0; score 0. Excerpt 1 byte -> 1 token. used 1, remaining 99."
    ),
    clauses=["S6-SCORE-05", "S6-SCORE-10"],
    interpretations=["INT-29"],
    request=_req("c rust"),
    files={S: lines(L(memory_id="m1", text="x", tags=["c"]))},
    expect=ok(
        package("c rust", "c rust", bud(100, 1, 99, 100, 50), [sel(_r11, S, 0, "x", 1)], []), [S]
    ),
)

# ---------------------------------------------------------------- tags-h012
_r12 = rec("m1", "dup")
_h012 = vec(
    "tags-h012",
    "Absent tags and tags [] normalize alike: two identical candidates with one record_hash.",
    comment=(
        "Line 0 has no tags, line 1 has \"tags\": [] -> both normalize to {memory_id m1, refs [], tags [], text 'dup'} "
        "(INT-25: absent -> []), so both have the same record_hash. They are two candidates (INT-23), equal on all five "
        "keys (score 0, no ts, same store, same id, same hash) -> read order (INT-33); the two selected entries are identical. "
        "Excerpts 'dup' 3 bytes -> 1 token each. used 2, remaining 98."
    ),
    clauses=["S6-READ-11", "S6-READ-13", "S6-OUT-24", "S6-ORDER-05"],
    interpretations=["INT-02", "INT-23", "INT-25", "INT-29", "INT-33"],
    request=_req("qq"),
    files={S: lines(L(memory_id="m1", text="dup"), L(memory_id="m1", text="dup", tags=[]))},
    expect=ok(
        package(
            "qq",
            "qq",
            bud(100, 2, 98, 100, 50),
            [sel(_r12, S, 0, "dup", 1), sel(_r12, S, 0, "dup", 1)],
            [],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- tags-h013
_r13 = rec("m1", "rust", tags=["rust"])
_h013 = vec(
    "tags-h013",
    "enable_tag_overlap false keeps the base score only.",
    comment=(
        "query 'rust', scoring.enable_tag_overlap false. m1 text 'rust' -> base 1; tag_bonus 0 (disabled) -> score 1 "
        "(1.5 when enabled). Excerpt 4 bytes -> 1 token. used 1, remaining 99."
    ),
    clauses=["S6-SCORE-09", "S6-SCORE-18"],
    request=_req("rust", {"enable_tag_overlap": False}),
    files={S: lines(L(memory_id="m1", text="rust", tags=["rust"]))},
    expect=ok(
        package("rust", "rust", bud(100, 1, 99, 100, 50), [sel(_r13, S, 1, "rust", 1)], []), [S]
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
]
