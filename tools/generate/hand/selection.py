"""Hand vectors: selected in rank order, dropped in read order with every reason (family ``selection``)."""

# ruff: noqa: E501

from __future__ import annotations

from tools.generate.hand._dsl import (
    L,
    bud,
    drop,
    drop_line,
    lines,
    ok,
    package,
    rec,
    sel,
    snapshot,
    vec,
)

DESCRIPTION = "Hand-written: every record line once in selected (rank order) or dropped (read order), all four reasons."
S = "s.jsonl"
T = "trust.json"

# ---------------------------------------------------------------- selection-h001
_r1lo = rec("lo", "aa")
_r1dn = rec("dn", "aa bb cc")
_r1hi = rec("hi", "aa bb")
_h001 = vec(
    "selection-h001",
    "dropped mixes invalid_record_schema, budget_exhausted and trust_denied in read order.",
    comment=(
        "query 'aa bb cc'. Lines: 0 '{\"memory_id\":\"x1\"}' (no text -> invalid, memory_id 'x1'); 1 lo 'aa' (score 1, 1 "
        "token); 2 dn 'aa bb cc' (score 3, denied by the snapshot); 3 hi 'aa bb' (score 2, 5 bytes -> 2 tokens). "
        "Candidates after trust: hi, lo. max 2: hi 0+2 = 2 -> selected; lo 2+1 = 3 > 2 -> budget_exhausted. dropped in read "
        "order (INT-28): x1 invalid_record_schema, lo budget_exhausted, dn trust_denied. used 2, remaining 0."
    ),
    clauses=[
        "S6-REC-11",
        "S6-TRUST-08",
        "S6-TRUNC-12",
        "S6-OUT-16",
        "S6-OUT-17",
        "S6-OUT-18",
        "S6-OUT-19",
        "S6-OUT-20",
    ],
    interpretations=["INT-19", "INT-28", "INT-38", "INT-39"],
    request={
        "query": "aa bb cc",
        "store_paths": [S],
        "budget": {"max_excerpt_tokens": 2},
        "trust_filter": {"trust_snapshot_path": T},
    },
    files={
        S: lines(
            '{"memory_id":"x1"}',
            L(memory_id="lo", text="aa"),
            L(memory_id="dn", text="aa bb cc"),
            L(memory_id="hi", text="aa bb"),
        ),
        T: snapshot(
            {
                "format": "phase6-trust/1",
                "entries": [{"memory_id": "dn", "classification": "malicious"}],
            }
        ),
    },
    expect=ok(
        package(
            "aa bb cc",
            "aa bb cc",
            bud(2, 2, 0, 2, 50),
            [sel(_r1hi, S, 2, "aa bb", 2)],
            [
                drop_line("x1", S, 0),
                drop(_r1lo, S, "budget_exhausted"),
                drop(_r1dn, S, "trust_denied"),
            ],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- selection-h002
_r2a1 = rec("a1", "aa")
_r2a2 = rec("a2", "aa bb cc")
_r2b1 = rec("b1", "aa bb")
_h002 = vec(
    "selection-h002",
    "Across stores: dropped follows read order (a.jsonl then b.jsonl), not rank order.",
    comment=(
        "query 'aa bb cc'. a.jsonl: a1 'aa' (1, 1 token), a2 'aa bb cc' (3, 8 bytes -> 2 tokens); b.jsonl: b1 'aa bb' (2, 2 "
        "tokens). Rank a2, b1, a1. max 2: a2 selected (2); b1 2+2 > 2 -> stop (INT-26) -> b1 and a1 budget_exhausted. "
        "dropped in read order (INT-28): a1 (a.jsonl line 0) before b1 (b.jsonl line 0), although b1 ranks higher. "
        "used 2, remaining 0."
    ),
    clauses=["S6-READ-05", "S6-READ-06", "S6-TRUNC-09", "S6-TRUNC-12"],
    interpretations=["INT-26", "INT-28"],
    request={
        "query": "aa bb cc",
        "store_paths": ["a.jsonl", "b.jsonl"],
        "budget": {"max_excerpt_tokens": 2},
    },
    files={
        "a.jsonl": lines(L(memory_id="a1", text="aa"), L(memory_id="a2", text="aa bb cc")),
        "b.jsonl": lines(L(memory_id="b1", text="aa bb")),
    },
    expect=ok(
        package(
            "aa bb cc",
            "aa bb cc",
            bud(2, 2, 0, 2, 50),
            [sel(_r2a2, "a.jsonl", 3, "aa bb cc", 2)],
            [
                drop(_r2a1, "a.jsonl", "budget_exhausted"),
                drop(_r2b1, "b.jsonl", "budget_exhausted"),
            ],
        ),
        ["a.jsonl", "b.jsonl"],
    ),
)

# ---------------------------------------------------------------- selection-h003
_h003 = vec(
    "selection-h003",
    "A store of only invalid lines: empty selection, every line dropped.",
    comment=(
        'Lines \'[]\' (not an object -> memory_id \'\') and \'{"memory_id":"m1","text":"note","tags":["a",2]}\' (tag not a '
        "string -> memory_id 'm1') are both invalid_record_schema. selected []; used 0, remaining 100; receipt "
        "selected_count 0."
    ),
    clauses=["S6-REC-10", "S6-REC-11", "S6-OUT-09", "S6-RCPT-05"],
    interpretations=["INT-19", "INT-22", "INT-28"],
    request={"query": "note", "store_paths": [S], "budget": {"max_excerpt_tokens": 100}},
    files={S: lines("[]", '{"memory_id":"m1","text":"note","tags":["a",2]}')},
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 0, 100, 100, 50),
            [],
            [drop_line("", S, 0), drop_line("m1", S, 1)],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- selection-h004
_r4 = {
    m: rec(m, t)
    for m, t in (("m1", "aa bb cc dd"), ("m2", "aa bb cc"), ("m3", "aa bb"), ("m5", "aa"))
}
_h004 = vec(
    "selection-h004",
    "All four reasons in one package, with max_items, trust and an invalid line.",
    comment=(
        "query 'aa bb cc dd'. Lines: 0 m5 'aa' (score 1); 1 m6 with tags 'x' (not a list -> invalid, memory_id 'm6'); 2 m1 "
        "'aa bb cc dd' (4, denied by the snapshot); 3 m2 'aa bb cc' (3, 8 bytes -> 2 tokens); 4 m3 'aa bb' (2, 2 tokens). "
        "max_items 2: rank after trust m2, m3, m5 -> m2, m3 selected -> count 2 -> m5 max_items_reached (INT-27). "
        "dropped in read order (INT-28): m5 max_items_reached, m6 invalid_record_schema, m1 trust_denied. used 4, remaining 96."
    ),
    clauses=["S6-TOK-05", "S6-TRUST-08", "S6-REC-11", "S6-OUT-20"],
    interpretations=["INT-19", "INT-27", "INT-28", "INT-38", "INT-39"],
    request={
        "query": "aa bb cc dd",
        "store_paths": [S],
        "budget": {"max_excerpt_tokens": 100, "max_items": 2},
        "trust_filter": {"trust_snapshot_path": T},
    },
    files={
        S: lines(
            L(memory_id="m5", text="aa"),
            '{"memory_id":"m6","text":"aa","tags":"x"}',
            L(memory_id="m1", text="aa bb cc dd"),
            L(memory_id="m2", text="aa bb cc"),
            L(memory_id="m3", text="aa bb"),
        ),
        T: snapshot(
            {
                "format": "phase6-trust/1",
                "entries": [{"memory_id": "m1", "classification": "malicious"}],
            }
        ),
    },
    expect=ok(
        package(
            "aa bb cc dd",
            "aa bb cc dd",
            bud(100, 4, 96, 100, 2),
            [sel(_r4["m2"], S, 3, "aa bb cc", 2), sel(_r4["m3"], S, 2, "aa bb", 2)],
            [
                drop(_r4["m5"], S, "max_items_reached"),
                drop_line("m6", S, 1),
                drop(_r4["m1"], S, "trust_denied"),
            ],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- selection-h005
_r5 = {m: rec(m, t) for m, t in (("z", "zebra"), ("y", "yak"), ("x", "note"))}
_h005 = vec(
    "selection-h005",
    "Score-0 candidates are selected after the matching ones (no threshold).",
    comment=(
        "query 'note'. x 'note' -> 1; y 'yak' -> 0; z 'zebra' -> 0. Rank x, then y, z (score tie 0, memory_id). No score "
        "threshold (INT-29) -> all selected. Excerpts 4 bytes -> 1, 3 -> 1, 5 -> 2. used 4, remaining 96."
    ),
    clauses=["S6-TRUNC-09", "S6-TRUNC-11", "S6-ORDER-01", "S6-ORDER-04"],
    interpretations=["INT-29"],
    request={"query": "note", "store_paths": [S], "budget": {"max_excerpt_tokens": 100}},
    files={
        S: lines(
            L(memory_id="z", text="zebra"),
            L(memory_id="y", text="yak"),
            L(memory_id="x", text="note"),
        )
    },
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 4, 96, 100, 50),
            [
                sel(_r5["x"], S, 1, "note", 1),
                sel(_r5["y"], S, 0, "yak", 1),
                sel(_r5["z"], S, 0, "zebra", 2),
            ],
            [],
        ),
        [S],
    ),
)

VECTORS = [_h001, _h002, _h003, _h004, _h005]
