"""Hand vectors: recency weight, switches, timestamps (family ``recency``).

Every weight here is an exact power of two (integer exponent), except recency-h009 whose weight
0.5 ** 0.5 was confirmed with mpmath at 60 digits (stated in its comment).
"""

# ruff: noqa: E501

from __future__ import annotations

from tools.generate.hand._dsl import L, bud, lines, ok, package, rec, sel, vec

DESCRIPTION = "Hand-written: recency weight at exact powers of two, clamping, invalid timestamps, switches and now_utc."
S = "s.jsonl"
NOW = "2024-03-01T00:00:00Z"


def _req(
    scoring: dict[str, object] | None, now: str | None, query: str = "note"
) -> dict[str, object]:
    request: dict[str, object] = {
        "query": query,
        "store_paths": [S],
        "budget": {"max_excerpt_tokens": 100},
    }
    if scoring is not None:
        request["scoring"] = scoring
    if now is not None:
        request["now_utc"] = now
    return request


def _one(ts_line: str | None) -> dict[str, object]:
    if ts_line is None:
        return {S: lines(L(memory_id="m1", text="note"))}
    return {S: lines(L(memory_id="m1", ts_utc=ts_line, text="note"))}


def _pkg1(record: dict[str, object], score: float) -> dict[str, object]:
    return package("note", "note", bud(100, 1, 99, 100, 50), [sel(record, S, score, "note", 1)], [])


_BASE = "query 'note' -> [note]; m1 text 'note' -> base 1, no tags. Excerpt 'note' 4 bytes -> 1 token; used 1, remaining 99. "

# ---------------------------------------------------------------- recency-h001
_r1 = rec("m1", "note", ts="2024-01-31T00:00:00Z")
_h001 = vec(
    "recency-h001",
    "Age equal to the default half-life (30 days) gives weight 0.5.",
    comment=_BASE
    + (
        "enable_recency_weight true, recency_half_life_days absent -> 30. now 2024-03-01T00:00:00Z, ts 2024-01-31T00:00:00Z: "
        "Jan 31 -> Feb 1 = 1 day, Feb 1 -> Mar 1 = 29 days (2024 is a leap year) -> age 30 days -> exponent 30/30 = 1 -> "
        "weight 0.5 ** 1 = 0.5. score = 1 + 0 + 0.5 = 1.5."
    ),
    clauses=[
        "S6-INPUT-07",
        "S6-INPUT-08",
        "S6-SCORE-12",
        "S6-SCORE-14",
        "S6-SCORE-16",
        "S6-SCORE-17",
    ],
    interpretations=["INT-21"],
    request=_req({"enable_recency_weight": True}, NOW),
    files=_one("2024-01-31T00:00:00Z"),
    expect=ok(_pkg1(_r1, 1.5), [S]),
)

# ---------------------------------------------------------------- recency-h002
_r2 = rec("m1", "note", ts="2024-03-01T00:00:00Z")
_h002 = vec(
    "recency-h002",
    "Age 0 gives weight 1.",
    comment=_BASE + "ts == now_utc -> age 0 -> weight 0.5 ** 0 = 1 -> score 1 + 1 = 2.",
    clauses=["S6-SCORE-14", "S6-SCORE-16", "S6-SCORE-17", "S6-SCORE-18"],
    interpretations=["INT-21"],
    request=_req({"enable_recency_weight": True, "recency_half_life_days": 30}, NOW),
    files=_one("2024-03-01T00:00:00Z"),
    expect=ok(_pkg1(_r2, 2), [S]),
)

# ---------------------------------------------------------------- recency-h003
_r3 = rec("m1", "note", ts="2024-03-02T00:00:00Z")
_h003 = vec(
    "recency-h003",
    "A future ts_utc (negative age) is clamped to weight 1.",
    comment=_BASE
    + (
        "ts 2024-03-02T00:00:00Z is one day after now -> age -1 day -> 0.5 ** (-1/30) = 2 ** (1/30) > 1 -> bounded [0,1] "
        "read as clamping (INT-35) -> recency_bonus 1 -> score 2."
    ),
    clauses=["S6-SCORE-14", "S6-SCORE-17"],
    interpretations=["INT-21", "INT-35"],
    request=_req({"enable_recency_weight": True, "recency_half_life_days": 30}, NOW),
    files=_one("2024-03-02T00:00:00Z"),
    expect=ok(_pkg1(_r3, 2), [S]),
)

# ---------------------------------------------------------------- recency-h004
_r4 = rec("m1", "note")
_h004 = vec(
    "recency-h004",
    "An impossible calendar date (Feb 30) is an invalid ts: no recency, no ts in record_hash.",
    comment=_BASE
    + (
        "ts_utc '2024-02-30T00:00:00Z' is a string but not a real date (INT-20) -> record stays valid, treated as having no "
        "ts_utc: normalized record omits ts_utc (INT-20/INT-21) and the recency bonus is 0 (invalid => no recency) -> score 1."
    ),
    clauses=["S6-SCORE-13", "S6-SCORE-15", "S6-REC-04", "S6-READ-09"],
    interpretations=["INT-20"],
    request=_req({"enable_recency_weight": True}, NOW),
    files=_one("2024-02-30T00:00:00Z"),
    expect=ok(_pkg1(_r4, 1), [S]),
)

# ---------------------------------------------------------------- recency-h005
_r5 = rec("m1", "note", ts="2024-03-01T00:00:00Z")
_h005 = vec(
    "recency-h005",
    "enable_recency_weight true without now_utc: recency disabled.",
    comment=_BASE
    + (
        "scoring.enable_recency_weight true but now_utc absent -> 'If absent, recency weighting MUST be disabled' -> bonus 0 "
        "(the ts would otherwise give weight 1) -> score 1. The valid ts stays in record_hash."
    ),
    clauses=["S6-INPUT-15", "S6-SCORE-13"],
    interpretations=["INT-21"],
    request=_req({"enable_recency_weight": True}, None),
    files=_one("2024-03-01T00:00:00Z"),
    expect=ok(_pkg1(_r5, 1), [S]),
)

# ---------------------------------------------------------------- recency-h006
_h006 = vec(
    "recency-h006",
    "now_utc given but enable_recency_weight false: no bonus.",
    comment=_BASE
    + (
        "now_utc present, enable_recency_weight explicitly false -> recency_bonus 0 (INT-36: now_utc without the switch "
        "changes nothing) -> score 1 (it would be 2: ts == now)."
    ),
    clauses=["S6-SCORE-12", "S6-INPUT-14"],
    interpretations=["INT-21", "INT-36"],
    request=_req({"enable_recency_weight": False}, NOW),
    files=_one("2024-03-01T00:00:00Z"),
    expect=ok(_pkg1(_r5, 1), [S]),
)

# ---------------------------------------------------------------- recency-h007
_h007 = vec(
    "recency-h007",
    "now_utc given, enable_recency_weight omitted (default false): no bonus.",
    comment=_BASE
    + "scoring absent -> enable_recency_weight defaults to false -> no bonus although now_utc is given -> score 1.",
    clauses=["S6-INPUT-07", "S6-DET-01", "S6-SCORE-12"],
    interpretations=["INT-21"],
    request=_req(None, NOW),
    files=_one("2024-03-01T00:00:00Z"),
    expect=ok(_pkg1(_r5, 1), [S]),
)

# ---------------------------------------------------------------- recency-h008
_r8 = rec("m1", "note", ts="2024-02-16T00:00:00Z")
_h008 = vec(
    "recency-h008",
    "Two half-lives of 7 days (14 days) give weight 0.25.",
    comment=_BASE
    + (
        "recency_half_life_days 7. now 2024-03-01 - ts 2024-02-16 = 14 days (Feb 16 -> Feb 29 = 13, -> Mar 1 = 14) -> "
        "exponent 14/7 = 2 -> weight 0.25 -> score 1.25."
    ),
    clauses=["S6-SCORE-14", "S6-SCORE-16"],
    interpretations=["INT-21"],
    request=_req({"enable_recency_weight": True, "recency_half_life_days": 7}, NOW),
    files=_one("2024-02-16T00:00:00Z"),
    expect=ok(_pkg1(_r8, 1.25), [S]),
)

# ---------------------------------------------------------------- recency-h009
_r9 = rec("m1", "note", ts="2024-02-29T12:00:00Z")
_h009 = vec(
    "recency-h009",
    "Fractional age: 12 hours with a 1-day half-life gives 0.5 ** 0.5.",
    comment=_BASE
    + (
        "half-life 1. now 2024-03-01T00:00:00Z - ts 2024-02-29T12:00:00Z = 43200 s -> age_days 0.5 exactly (fractional, "
        "INT-35; whole-day flooring would give 0 and weight 1). exponent 0.5. mpmath at 60 digits: 0.5 ** 0.5 = "
        "0.707106781186547524400844362104849039284..., correctly rounded double 0.7071067811865476 (0x1.6a09e667f3bcdp-1, "
        "0.44 ulp away; CPython and Node agree). score = (1 + 0) + 0.7071067811865476 = 1.7071067811865475 (the double sum)."
    ),
    clauses=["S6-SCORE-14", "S6-SCORE-16", "S6-SCORE-18"],
    interpretations=["INT-04", "INT-21", "INT-35"],
    request=_req({"enable_recency_weight": True, "recency_half_life_days": 1}, NOW),
    files=_one("2024-02-29T12:00:00Z"),
    expect=ok(_pkg1(_r9, 1.7071067811865475), [S]),
)

# ---------------------------------------------------------------- recency-h010
_r10 = rec("m1", "note", ts="2024-02-27T00:00:00Z")
_h010 = vec(
    "recency-h010",
    "Three half-lives of 1 day give weight 0.125.",
    comment=_BASE
    + "half-life 1; 2024-02-27 -> 2024-03-01 = 3 days (via Feb 29) -> 0.5 ** 3 = 0.125 -> score 1.125.",
    clauses=["S6-SCORE-14", "S6-SCORE-16"],
    interpretations=["INT-21"],
    request=_req({"enable_recency_weight": True, "recency_half_life_days": 1}, NOW),
    files=_one("2024-02-27T00:00:00Z"),
    expect=ok(_pkg1(_r10, 1.125), [S]),
)

# ---------------------------------------------------------------- recency-h011
_r11a = rec("m1", "note", ts="2024-01-31T00:00:00Z")
_r11b = rec("m2", "note", ts="2024-03-01T00:00:00Z")
_r11c = rec("m3", "note")
_h011 = vec(
    "recency-h011",
    "Recency reorders equal-base candidates: newest first, no-ts last.",
    comment=(
        "query 'note'; all three texts 'note' -> base 1. half-life 30 (default), now 2024-03-01. m1 ts 2024-01-31 -> 30 days -> "
        "0.5 -> 1.5. m2 ts = now -> 1 -> 2. m3 no ts -> no bonus -> 1. Score descending: m2 (2), m1 (1.5), m3 (1). "
        "Excerpts 1 token each; used 3, remaining 97."
    ),
    clauses=["S6-SCORE-13", "S6-SCORE-16", "S6-ORDER-01"],
    interpretations=["INT-21"],
    request=_req({"enable_recency_weight": True}, NOW),
    files={
        S: lines(
            L(memory_id="m1", ts_utc="2024-01-31T00:00:00Z", text="note"),
            L(memory_id="m2", ts_utc="2024-03-01T00:00:00Z", text="note"),
            L(memory_id="m3", text="note"),
        )
    },
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 3, 97, 100, 50),
            [
                sel(_r11b, S, 2, "note", 1),
                sel(_r11a, S, 1.5, "note", 1),
                sel(_r11c, S, 1, "note", 1),
            ],
            [],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- recency-h012
_r12a = rec("a1", "note")
_r12z = rec("z1", "note", ts="0001-01-01T00:00:00Z")
_h012 = vec(
    "recency-h012",
    "A weight that underflows is 0; the valid ts still sorts before a missing one.",
    comment=(
        "query 'note'; both texts 'note' -> base 1. half-life 1. z1 ts 0001-01-01T00:00:00Z: age = 738945 days to "
        "2024-03-01 -> weight 0.5 ** 738945, far below the smallest subnormal 2**-1074 -> correctly rounded 0 (INT-35: "
        "underflow gives 0) -> score 1 + 0 = 1. a1 no ts -> score 1. Tie on score; ts_utc descending with missing last -> "
        "z1 (has ts) before a1, although 'a1' < 'z1' and a1 is read first. Excerpts 1 token each; used 2, remaining 98."
    ),
    clauses=["S6-SCORE-17", "S6-ORDER-02"],
    interpretations=["INT-20", "INT-21", "INT-35"],
    request=_req({"enable_recency_weight": True, "recency_half_life_days": 1}, NOW),
    files={
        S: lines(
            L(memory_id="a1", text="note"),
            L(memory_id="z1", ts_utc="0001-01-01T00:00:00Z", text="note"),
        )
    },
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 2, 98, 100, 50),
            [sel(_r12z, S, 1, "note", 1), sel(_r12a, S, 1, "note", 1)],
            [],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- recency-h013
_r13 = rec("m1", "note", ts="2024-02-29T00:00:00Z")
_h013 = vec(
    "recency-h013",
    "ts_utc with '.000' and '+00:00' is valid UTC and normalizes to ...00Z.",
    comment=_BASE
    + (
        "ts '2024-02-29T00:00:00.000+00:00' is valid (INT-20: '+00:00' allowed); normalized 'YYYY-MM-DDThh:mm:ss' + no "
        "fraction (all zeros) + 'Z' = '2024-02-29T00:00:00Z' (INT-21), which record_hash covers. Half-life 1, age 1 day -> "
        "0.5 -> score 1.5."
    ),
    clauses=["S6-READ-09", "S6-SCORE-15", "S6-SCORE-16"],
    interpretations=["INT-20", "INT-21"],
    request=_req({"enable_recency_weight": True, "recency_half_life_days": 1}, NOW),
    files=_one("2024-02-29T00:00:00.000+00:00"),
    expect=ok(_pkg1(_r13, 1.5), [S]),
)

# ---------------------------------------------------------------- recency-h014
_r14 = rec("m1", "note", ts="2024-02-01T00:00:00Z")
_h014 = vec(
    "recency-h014",
    "now_utc with nine fraction digits and '+00:00' is valid; 29 days / 29 = 1 half-life.",
    comment=_BASE
    + (
        "now_utc '2024-03-01T00:00:00.000000000+00:00' matches the INT-20 grammar (1..9 fraction digits, '+00:00') -> the "
        "instant 2024-03-01T00:00:00Z. ts 2024-02-01 -> 29 days (Feb 2024). half-life 29 -> exponent 1 -> 0.5 -> score 1.5."
    ),
    clauses=["S6-INPUT-14", "S6-SCORE-14", "S6-SCORE-16"],
    interpretations=["INT-20", "INT-21", "INT-36"],
    request=_req(
        {"enable_recency_weight": True, "recency_half_life_days": 29},
        "2024-03-01T00:00:00.000000000+00:00",
    ),
    files=_one("2024-02-01T00:00:00Z"),
    expect=ok(_pkg1(_r14, 1.5), [S]),
)

# ---------------------------------------------------------------- recency-h015
_r15 = rec("m1", "note", ts="2024-02-29T00:00:00Z")
_h015 = vec(
    "recency-h015",
    "recency_half_life_days has no effect while recency is disabled.",
    comment=_BASE
    + (
        "recency_half_life_days 1 and now_utc given, but enable_recency_weight false -> half-life 'only used if "
        "enable_recency_weight=true' -> bonus 0 -> score 1 (enabled it would be 1 + 0.5 for age 1 day)."
    ),
    clauses=["S6-INPUT-09", "S6-SCORE-12"],
    interpretations=["INT-21"],
    request=_req({"enable_recency_weight": False, "recency_half_life_days": 1}, NOW),
    files=_one("2024-02-29T00:00:00Z"),
    expect=ok(_pkg1(_r15, 1), [S]),
)

# ---------------------------------------------------------------- recency-h016
_r16 = rec("m1", "note", ts="2023-03-01T00:00:00Z")
_h016 = vec(
    "recency-h016",
    "A year spanning Feb 29 is 366 days: two half-lives of 183 days.",
    comment=_BASE
    + "ts 2023-03-01 -> now 2024-03-01 = 366 days (includes 2024-02-29). half-life 183 -> exponent 2 -> 0.25 -> score 1.25.",
    clauses=["S6-SCORE-14", "S6-SCORE-16"],
    interpretations=["INT-21"],
    request=_req({"enable_recency_weight": True, "recency_half_life_days": 183}, NOW),
    files=_one("2023-03-01T00:00:00Z"),
    expect=ok(_pkg1(_r16, 1.25), [S]),
)

# ---------------------------------------------------------------- recency-h017
_r17 = {m: rec(m, "note") for m in ("a", "b", "c", "d")}
_r17e = rec("e", "note", ts="2024-03-01T00:00:00Z")
_h017 = vec(
    "recency-h017",
    "Non-UTC or malformed ts strings are invalid timestamps: no bonus, sort as missing.",
    comment=(
        "query 'note', every text 'note' -> base 1; recency on, half-life 30, now 2024-03-01T00:00:00Z. "
        "c '2024-03-01T00:00:00' (no offset), a '2024-03-01T00:00:00+02:00' (non-UTC), b '2024-03-01t00:00:00z' (lowercase), "
        "d '2024-03-01T00:00:00-00:00' ('-00:00' is not allowed): all invalid under INT-20 -> records stay valid, no ts "
        "(omitted from record_hash), no bonus -> score 1. e '2024-03-01T00:00:00Z' -> age 0 -> 2. Order: e (2); then a, b, c, d "
        "(score 1, all missing ts, same store, memory_id ascending) although the file order is c, a, b, d, e. "
        "Excerpts 1 token each; used 5, remaining 95."
    ),
    clauses=["S6-SCORE-15", "S6-REC-04", "S6-ORDER-04", "S6-READ-09"],
    interpretations=["INT-20", "INT-21"],
    request=_req({"enable_recency_weight": True}, NOW),
    files={
        S: lines(
            L(memory_id="c", ts_utc="2024-03-01T00:00:00", text="note"),
            L(memory_id="a", ts_utc="2024-03-01T00:00:00+02:00", text="note"),
            L(memory_id="b", ts_utc="2024-03-01t00:00:00z", text="note"),
            L(memory_id="d", ts_utc="2024-03-01T00:00:00-00:00", text="note"),
            L(memory_id="e", ts_utc="2024-03-01T00:00:00Z", text="note"),
        )
    },
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 5, 95, 100, 50),
            [sel(_r17e, S, 2, "note", 1)]
            + [sel(_r17[m], S, 1, "note", 1) for m in ("a", "b", "c", "d")],
            [],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- recency-h018
_r18a = rec("m1", "note", ts="2000-02-29T00:00:00Z")
_r18b = rec("m2", "note")
_h018 = vec(
    "recency-h018",
    "Gregorian leap rule: 2000-02-29 is valid, 1900-02-29 is not.",
    comment=(
        "query 'note'; both texts 'note' -> base 1. half-life 1, now 2000-03-01T00:00:00Z. m1 ts 2000-02-29 (2000 divisible by "
        "400 -> leap) -> 1 day -> 0.5 -> 1.5. m2 ts 1900-02-29 (1900 divisible by 100, not 400 -> no Feb 29) -> invalid "
        "(INT-20) -> no ts, no bonus -> 1. Order m1, m2. Excerpts 1 token each; used 2, remaining 98."
    ),
    clauses=["S6-SCORE-15", "S6-REC-04"],
    interpretations=["INT-20", "INT-21"],
    request=_req(
        {"enable_recency_weight": True, "recency_half_life_days": 1}, "2000-03-01T00:00:00Z"
    ),
    files={
        S: lines(
            L(memory_id="m2", ts_utc="1900-02-29T00:00:00Z", text="note"),
            L(memory_id="m1", ts_utc="2000-02-29T00:00:00Z", text="note"),
        )
    },
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 2, 98, 100, 50),
            [sel(_r18a, S, 1.5, "note", 1), sel(_r18b, S, 1, "note", 1)],
            [],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- recency-h019
_r19 = rec("m1", "note", ts="2099-12-31T00:00:00Z")
_h019 = vec(
    "recency-h019",
    "now_utc is the time: a ts in the real future but one day before now_utc gets 0.5.",
    comment=_BASE
    + (
        "now_utc 2100-01-01T00:00:00Z, ts 2099-12-31T00:00:00Z -> age 1 day, half-life 1 -> 0.5 -> score 1.5. The system "
        "clock is never read (INT-37): an implementation that used the wall clock would see a future ts and clamp to 1 (score 2)."
    ),
    clauses=["S6-INPUT-14", "S6-SCORE-14"],
    interpretations=["INT-21", "INT-37"],
    request=_req(
        {"enable_recency_weight": True, "recency_half_life_days": 1}, "2100-01-01T00:00:00Z"
    ),
    files=_one("2099-12-31T00:00:00Z"),
    expect=ok(_pkg1(_r19, 1.5), [S]),
)

# ---------------------------------------------------------------- recency-h020
_r20 = {m: rec(m, "note") for m in ("p", "q", "r")}
_h020 = vec(
    "recency-h020",
    "Hour 24, second 60 and ten fraction digits are invalid timestamps.",
    comment=(
        "query 'note', texts 'note' -> base 1; recency on, half-life 1, now 2024-03-01T00:00:00Z. p '2024-02-29T24:00:00Z' "
        "(hh <= 23), q '2016-12-31T23:59:60Z' (no leap second), r '2024-02-29T00:00:00.0000000000Z' (10 fraction digits, "
        "max 9) -> all invalid (INT-20) -> no ts, no bonus, score 1 each. Order by memory_id p, q, r (file order r, q, p). "
        "Excerpts 1 token each; used 3, remaining 97."
    ),
    clauses=["S6-SCORE-15", "S6-REC-04"],
    interpretations=["INT-20"],
    request=_req({"enable_recency_weight": True, "recency_half_life_days": 1}, NOW),
    files={
        S: lines(
            L(memory_id="r", ts_utc="2024-02-29T00:00:00.0000000000Z", text="note"),
            L(memory_id="q", ts_utc="2016-12-31T23:59:60Z", text="note"),
            L(memory_id="p", ts_utc="2024-02-29T24:00:00Z", text="note"),
        )
    },
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 3, 97, 100, 50),
            [sel(_r20[m], S, 1, "note", 1) for m in ("p", "q", "r")],
            [],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- recency-h021
_r21 = rec("m1", "note", ts="1999-12-30T00:00:00Z")
_h021 = vec(
    "recency-h021",
    "now_utc in the past is used as given: one day old -> 0.5.",
    comment=_BASE
    + (
        "now_utc 1999-12-31T00:00:00Z, ts 1999-12-30T00:00:00Z -> age 1 day, half-life 1 -> 0.5 -> score 1.5. The controller "
        "never reads the clock (INT-37); with the wall clock the age would be decades and the weight 0."
    ),
    clauses=["S6-INPUT-14", "S6-SCORE-14", "S6-SCORE-16"],
    interpretations=["INT-21", "INT-37"],
    request=_req(
        {"enable_recency_weight": True, "recency_half_life_days": 1}, "1999-12-31T00:00:00Z"
    ),
    files=_one("1999-12-30T00:00:00Z"),
    expect=ok(_pkg1(_r21, 1.5), [S]),
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
]
