"""Hand vectors: score = (base + tag_bonus) + recency_bonus, defaults (family ``scoring``)."""

# ruff: noqa: E501

from __future__ import annotations

from tools.generate.hand._dsl import L, bud, lines, ok, package, rec, sel, vec

DESCRIPTION = "Hand-written: score composition, evaluation order of the float sum, defaults equal to explicit values."
S = "s.jsonl"

# ---------------------------------------------------------------- scoring-h001
_r1 = rec("m1", "alpha beta gamma", tags=["beta"])
_h001 = vec(
    "scoring-h001",
    "score = base + tag_bonus: 2 matching terms + 1 matching tag = 2.5.",
    comment=(
        "query 'alpha beta' -> [alpha, beta]. m1 text 'alpha beta gamma' -> base 2; tags ['beta'] -> overlap 1 -> 0.5; "
        "recency disabled (default) -> 0. score = 2 + 0.5 + 0 = 2.5. Excerpt 16 bytes -> 4 tokens. used 4, remaining 96."
    ),
    clauses=["S6-SCORE-08", "S6-SCORE-11", "S6-SCORE-12", "S6-SCORE-18", "S6-INPUT-07"],
    request={"query": "alpha beta", "store_paths": [S], "budget": {"max_excerpt_tokens": 100}},
    files={S: lines(L(memory_id="m1", text="alpha beta gamma", tags=["beta"]))},
    expect=ok(
        package(
            "alpha beta",
            "alpha beta",
            bud(100, 4, 96, 100, 50),
            [sel(_r1, S, 2.5, "alpha beta gamma", 4)],
            [],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- scoring-h002 / h003
_r2a = rec("m1", "note one", tags=["note"], ts="2024-01-01T00:00:00Z")
_r2b = rec("m2", "other")
_FILES_DEF = {
    S: lines(
        L(memory_id="m1", ts_utc="2024-01-01T00:00:00Z", text="note one", tags=["note"]),
        L(memory_id="m2", text="other"),
    )
}
_PKG_DEF = package(
    "note",
    "note",
    bud(10, 4, 6, 10, 50),
    [sel(_r2a, S, 1.5, "note one", 2), sel(_r2b, S, 0, "other", 2)],
    [],
)
_COMMENT_DEF = (
    "query 'note' -> [note]. m1 'note one' -> base 1, tags ['note'] -> +0.5 (tag overlap defaults to true) -> 1.5; "
    "recency off (default false) although m1 has a ts. m2 'other' -> 0. Order m1, m2. Excerpts: 8 bytes -> 2; 5 bytes -> 2. "
    "budget: max 10, used 4, remaining 6, per_item defaults to max_excerpt_tokens = 10, max_items defaults to 50. "
)
_h002 = vec(
    "scoring-h002",
    "All optional fields omitted: defaults apply (compare scoring-h003, same package).",
    comment=_COMMENT_DEF
    + "Every optional field is omitted here; scoring-h003 passes the defaults explicitly and expects the identical package and package_hash.",
    clauses=[
        "S6-DET-01",
        "S6-INPUT-04",
        "S6-INPUT-05",
        "S6-INPUT-07",
        "S6-INPUT-08",
        "S6-INPUT-10",
        "S6-INPUT-12",
        "S6-OUT-07",
        "S6-OUT-08",
    ],
    interpretations=["INT-21", "INT-29"],  # INT-29: a score-0 candidate is selected
    request={"query": "note", "store_paths": [S], "budget": {"max_excerpt_tokens": 10}},
    files=_FILES_DEF,
    expect=ok(_PKG_DEF, [S]),
)
_h003 = vec(
    "scoring-h003",
    "All optional fields passed with their default values: same package as scoring-h002.",
    comment=_COMMENT_DEF
    + "Here per_item_max_excerpt_tokens 10, max_items 50, enable_recency_weight false, recency_half_life_days 30, enable_tag_overlap true and deny_classifications ['malicious'] are explicit (no snapshot): S6-DET-01 requires the same package and package_hash as scoring-h002.",
    clauses=[
        "S6-DET-01",
        "S6-INPUT-04",
        "S6-INPUT-05",
        "S6-INPUT-07",
        "S6-INPUT-08",
        "S6-INPUT-10",
        "S6-INPUT-12",
        "S6-ACC-01",
    ],
    interpretations=["INT-21", "INT-29"],  # INT-29: a score-0 candidate is selected
    request={
        "query": "note",
        "store_paths": [S],
        "budget": {"max_excerpt_tokens": 10, "per_item_max_excerpt_tokens": 10, "max_items": 50},
        "scoring": {
            "enable_recency_weight": False,
            "recency_half_life_days": 30,
            "enable_tag_overlap": True,
        },
        "trust_filter": {"deny_classifications": ["malicious"]},
    },
    files=_FILES_DEF,
    expect=ok(_PKG_DEF, [S]),
)

# ---------------------------------------------------------------- scoring-h004
_r4a = rec("m1", "kiwi")
_r4b = rec("m2", "x", tags=["kiwi", "lime"])
_h004 = vec(
    "scoring-h004",
    "A base of 1 and a tag bonus of 2 * 0.5 tie at score 1; memory_id breaks the tie.",
    comment=(
        "query 'kiwi lime' -> [kiwi, lime]. m1 'kiwi' -> base 1, no tags -> 1. m2 'x' -> base 0, tags ['kiwi', 'lime'] -> "
        "overlap 2 -> 1.0 -> score 1.0. Equal scores (1 == 1.0 as doubles); neither has ts_utc; same store; memory_id "
        "'m1' < 'm2' -> m1 first. Excerpts 4 bytes -> 1, 1 byte -> 1. used 2, remaining 98."
    ),
    clauses=["S6-SCORE-11", "S6-SCORE-18", "S6-ORDER-01", "S6-ORDER-04"],
    request={"query": "kiwi lime", "store_paths": [S], "budget": {"max_excerpt_tokens": 100}},
    files={
        S: lines(L(memory_id="m2", text="x", tags=["kiwi", "lime"]), L(memory_id="m1", text="kiwi"))
    },
    expect=ok(
        package(
            "kiwi lime",
            "kiwi lime",
            bud(100, 2, 98, 100, 50),
            [sel(_r4a, S, 1, "kiwi", 1), sel(_r4b, S, 1.0, "x", 1)],
            [],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- scoring-h005
_r5 = rec("m1", "aa bb cc", tags=["dd"], ts="2024-03-01T00:00:00Z")
_h005 = vec(
    "scoring-h005",
    "Float sum is (base + tag_bonus) + recency_bonus, left to right: 4.129960524947436.",
    comment=(
        "query 'aa bb cc dd' -> 4 terms. m1 text 'aa bb cc' -> base 3; tags ['dd'] -> overlap 1 -> 0.5. Recency on, half-life 3, "
        "now 2024-03-03T00:00:00Z, ts 2024-03-01T00:00:00Z -> age_days = 172800 s / 86400 = 2 exactly; exponent = 2/3 -> "
        "double 0.6666666666666666 (0x1.5555555555555p-1). weight = 0.5 ** that: mpmath at 60 digits gives "
        "0.62996052494743659854309985097921951201..., correctly rounded double 0.6299605249474366 (0x1.428a2f98d728bp-1; "
        "0.03 ulp from it, far from a midpoint; CPython and Node agree). score = (3 + 0.5) + 0.6299605249474366 = "
        "3.5 + w = 4.129960524947436 (INT-04). The other orders 3 + (0.5 + w) and (3 + w) + 0.5 give 4.129960524947437. "
        "Excerpt 8 bytes -> 2 tokens. used 2, remaining 98."
    ),
    clauses=["S6-SCORE-16", "S6-SCORE-17", "S6-SCORE-18", "S6-SCORE-14"],
    interpretations=["INT-04", "INT-21", "INT-35"],
    request={
        "query": "aa bb cc dd",
        "store_paths": [S],
        "budget": {"max_excerpt_tokens": 100},
        "scoring": {"enable_recency_weight": True, "recency_half_life_days": 3},
        "now_utc": "2024-03-03T00:00:00Z",
    },
    files={
        S: lines(L(memory_id="m1", ts_utc="2024-03-01T00:00:00Z", text="aa bb cc", tags=["dd"]))
    },
    expect=ok(
        package(
            "aa bb cc dd",
            "aa bb cc dd",
            bud(100, 2, 98, 100, 50),
            [sel(_r5, S, 4.129960524947436, "aa bb cc", 2)],
            [],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- scoring-h006
_r6 = rec("m1", "ee", tags=["ff", "gg"], ts="2024-03-01T00:00:00Z")
_h006 = vec(
    "scoring-h006",
    "Float sum order with tag_bonus 1.0: (1 + 1.0) + w = 2.314980262473718.",
    comment=(
        "query 'ee ff gg'. m1 text 'ee' -> base 1; tags ['ff', 'gg'] -> overlap 2 -> 1.0. Recency: half-life 3, "
        "now 2024-03-06T00:00:00Z, ts 2024-03-01T00:00:00Z -> age 5 days exactly; exponent 5/3 -> double 1.6666666666666667; "
        "weight: mpmath (60 digits) 0.31498026247371827503230810447945237268..., correctly rounded 0.3149802624737183 "
        "(0.41 ulp below, CPython and Node agree). score = (1 + 1.0) + 0.3149802624737183 = 2.314980262473718 (INT-04); "
        "1 + (1.0 + w) would give 2.3149802624737186. Excerpt 2 bytes -> 1 token. used 1, remaining 99."
    ),
    clauses=["S6-SCORE-16", "S6-SCORE-18"],
    interpretations=["INT-04", "INT-21", "INT-35"],
    request={
        "query": "ee ff gg",
        "store_paths": [S],
        "budget": {"max_excerpt_tokens": 100},
        "scoring": {"enable_recency_weight": True, "recency_half_life_days": 3},
        "now_utc": "2024-03-06T00:00:00Z",
    },
    files={
        S: lines(L(memory_id="m1", ts_utc="2024-03-01T00:00:00Z", text="ee", tags=["ff", "gg"]))
    },
    expect=ok(
        package(
            "ee ff gg",
            "ee ff gg",
            bud(100, 1, 99, 100, 50),
            [sel(_r6, S, 2.314980262473718, "ee", 1)],
            [],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- scoring-h007
_r7 = rec("m1", "plum", tags=["plum"], ts="2024-01-01T00:00:00Z")
_h007 = vec(
    "scoring-h007",
    "All three parts: 1 + 0.5 + 0.5 = 2 (recency at exactly one default half-life).",
    comment=(
        "query 'plum'. m1 'plum' -> base 1; tags ['plum'] -> 0.5. Recency on, recency_half_life_days absent -> 30. "
        "now 2024-01-31T00:00:00Z - ts 2024-01-01T00:00:00Z = 30 days -> exponent 1 -> weight 0.5 exactly. "
        "score = (1 + 0.5) + 0.5 = 2. Excerpt 4 bytes -> 1 token. used 1, remaining 99."
    ),
    clauses=["S6-SCORE-18", "S6-INPUT-08", "S6-SCORE-16"],
    interpretations=["INT-04", "INT-21"],
    request={
        "query": "plum",
        "store_paths": [S],
        "budget": {"max_excerpt_tokens": 100},
        "scoring": {"enable_recency_weight": True},
        "now_utc": "2024-01-31T00:00:00Z",
    },
    files={S: lines(L(memory_id="m1", ts_utc="2024-01-01T00:00:00Z", text="plum", tags=["plum"]))},
    expect=ok(
        package("plum", "plum", bud(100, 1, 99, 100, 50), [sel(_r7, S, 2, "plum", 1)], []), [S]
    ),
)

# ---------------------------------------------------------------- scoring-h008
_r8 = rec("m1", "pear", tags=["pear"], ts="2023-12-02T00:00:00Z")
_h008 = vec(
    "scoring-h008",
    "Tag overlap off, recency on: 1 + 0 + 0.25.",
    comment=(
        "query 'pear'. m1 'pear' -> base 1; tags ['pear'] but enable_tag_overlap false -> 0. Recency: half-life 30, "
        "now 2024-01-31T00:00:00Z - ts 2023-12-02T00:00:00Z: Dec 2 -> Jan 1 = 30 days (December has 31), Jan 1 -> Jan 31 = "
        "30 days, total 60 days -> exponent 60/30 = 2 -> weight 0.5 ** 2 = 0.25. "
        "score = (1 + 0) + 0.25 = 1.25. Excerpt 4 bytes -> 1 token. used 1, remaining 99."
    ),
    clauses=["S6-SCORE-09", "S6-SCORE-12", "S6-SCORE-16", "S6-SCORE-18"],
    interpretations=["INT-21"],
    request={
        "query": "pear",
        "store_paths": [S],
        "budget": {"max_excerpt_tokens": 100},
        "scoring": {
            "enable_recency_weight": True,
            "recency_half_life_days": 30,
            "enable_tag_overlap": False,
        },
        "now_utc": "2024-01-31T00:00:00Z",
    },
    files={S: lines(L(memory_id="m1", ts_utc="2023-12-02T00:00:00Z", text="pear", tags=["pear"]))},
    expect=ok(
        package("pear", "pear", bud(100, 1, 99, 100, 50), [sel(_r8, S, 1.25, "pear", 1)], []), [S]
    ),
)

# ---------------------------------------------------------------- scoring-h009
_r9 = rec("m1", "note", ts="2024-02-29T00:00:00Z")
_h009 = vec(
    "scoring-h009",
    "Score = base + recency_bonus as a double: one day with a 4-day half-life gives 1 + 0.5 ** 0.25.",
    comment=(
        "query 'note' -> [note]; m1 text 'note' -> base 1, no tags. Excerpt 'note' 4 bytes -> 1 token; used 1, remaining "
        "99. half-life 4. now 2024-03-01T00:00:00Z - ts 2024-02-29T00:00:00Z = 86400 s -> age_days 1 -> exponent 1/4 = "
        "0.25 exactly. mpmath at 60 digits: 0.5 ** 0.25 = 0.840896415253714543031125476233214895..., correctly rounded "
        "double 0.8408964152537145 (0x1.ae89f995ad3adp-1, 0.37 ulp away). score = (1 + 0) + 0.8408964152537145: the "
        "exact sum 1.84089641525371450... needs one bit more than a double near 1.84 holds; round to nearest even gives "
        "1.8408964152537144. (This vector tells rounding the bonus from rounding the score: INT-04's rejected 'round "
        "recency_bonus to 2 decimals' gives 1 + 0.84 = 1.8399999999999999 as a double, a score rounded to 2 decimals "
        "1.84.) The normalized ts_utc '2024-02-29T00:00:00Z' (INT-21) is in record_hash."
    ),
    clauses=["S6-SCORE-14", "S6-SCORE-16", "S6-SCORE-18"],
    interpretations=["INT-04", "INT-21", "INT-35"],
    request={
        "query": "note",
        "store_paths": [S],
        "budget": {"max_excerpt_tokens": 100},
        "scoring": {"enable_recency_weight": True, "recency_half_life_days": 4},
        "now_utc": "2024-03-01T00:00:00Z",
    },
    files={S: lines(L(memory_id="m1", ts_utc="2024-02-29T00:00:00Z", text="note"))},
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 1, 99, 100, 50),
            [sel(_r9, S, 1.8408964152537144, "note", 1)],
            [],
        ),
        [S],
    ),
)

VECTORS = [_h001, _h002, _h003, _h004, _h005, _h006, _h007, _h008, _h009]
