"""Hand vectors: the ContextPackage as a whole and package_hash (family ``package``)."""

# ruff: noqa: E501

from __future__ import annotations

from tools.generate.hand._dsl import L, bud, drop, lines, ok, package, rec, sel, vec

DESCRIPTION = "Hand-written: full ContextPackage structure, controller_version, package_hash preimage (INT-03), number form."
S = "s.jsonl"

# ---------------------------------------------------------------- package-h001
_r1a = rec("m1", "note one", tags=["note"])
_r1b = rec("m2", "note two")
_h001 = vec(
    "package-h001",
    "A full package: query, budget, selected, dropped, package_hash over all of it, controller_version phase6-v1.",
    comment=(
        "query 'Note' -> raw 'Note', query_hash = sha256('note'). m1 'note one' tags ['note'] -> 1 + 0.5 = 1.5, 8 bytes -> "
        "2 tokens; m2 'note two' -> 1, 2 tokens. max 3: m1 0+2 <= 3 selected; m2 2+2 = 4 > 3 -> budget_exhausted. "
        "Package = {query {raw, query_hash}, budget {3, 2, 1, 3, 50}, selection {selected [m1 ... score 1.5, excerpt "
        "'note one', 2], dropped [m2 budget_exhausted]}, package_hash, controller_version 'phase6-v1'}. package_hash = sha256 "
        "of the JCS bytes of this package without package_hash: query, budget, selection (with excerpts and dropped) and "
        "controller_version all included (INT-03). Receipt echoes query_hash and package_hash."
    ),
    clauses=[
        "S6-OUT-01",
        "S6-OUT-02",
        "S6-OUT-03",
        "S6-OUT-04",
        "S6-OUT-05",
        "S6-OUT-06",
        "S6-OUT-07",
        "S6-OUT-08",
        "S6-OUT-09",
        "S6-OUT-10",
        "S6-OUT-11",
        "S6-OUT-12",
        "S6-OUT-13",
        "S6-OUT-14",
        "S6-OUT-15",
        "S6-OUT-16",
        "S6-OUT-17",
        "S6-OUT-18",
        "S6-OUT-19",
        "S6-OUT-20",
        "S6-OUT-21",
        "S6-OUT-22",
        "S6-OUT-25",
        "S6-VER-01",
        "S6-VER-02",
        "S6-HASH-08",
        "S6-HASH-09",
        "S6-HASH-10",
        "S6-HASH-11",
        "S6-ACC-01",
    ],
    interpretations=["INT-01", "INT-03", "INT-44"],
    request={"query": "Note", "store_paths": [S], "budget": {"max_excerpt_tokens": 3}},
    files={
        S: lines(
            L(memory_id="m1", text="note one", tags=["note"]), L(memory_id="m2", text="note two")
        )
    },
    expect=ok(
        package(
            "Note",
            "note",
            bud(3, 2, 1, 3, 50),
            [sel(_r1a, S, 1.5, "note one", 2)],
            [drop(_r1b, S, "budget_exhausted")],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- package-h002 / h003
_r2 = rec("m1", "note")
_PKG_NOTE = "m1 'note' -> score 1, 1 token; used 1, remaining 99. "
_h002 = vec(
    "package-h002",
    "package_hash covers query.raw: 'note' here, ' note ' in package-h003 (same query_hash, different package_hash).",
    comment=_PKG_NOTE
    + (
        "query 'note' -> raw 'note', query_hash sha256('note'). package-h003 differs only in raw ' note ' (same normalized "
        "query and query_hash); because package_hash covers query.raw (INT-03), the two package_hash values differ."
    ),
    clauses=[
        "S6-HASH-08",
        "S6-HASH-09",
        "S6-OUT-01",
        "S6-OUT-02",
        "S6-OUT-10",
        "S6-OUT-12",
        "S6-OUT-21",
        "S6-OUT-22",
        "S6-OUT-25",
        "S6-VER-01",
        "S6-VER-02",
    ],
    interpretations=["INT-03", "INT-11"],
    request={"query": "note", "store_paths": [S], "budget": {"max_excerpt_tokens": 100}},
    files={S: lines(L(memory_id="m1", text="note"))},
    expect=ok(
        package("note", "note", bud(100, 1, 99, 100, 50), [sel(_r2, S, 1, "note", 1)], []), [S]
    ),
)
_h003 = vec(
    "package-h003",
    "package_hash covers query.raw: ' note ' here (compare package-h002).",
    comment=_PKG_NOTE
    + "query ' note ' -> raw ' note ' (as given, INT-11), normalized 'note' -> same query_hash as package-h002; package_hash differs (INT-03).",
    clauses=[
        "S6-HASH-08",
        "S6-HASH-09",
        "S6-OUT-01",
        "S6-OUT-02",
        "S6-OUT-10",
        "S6-OUT-12",
        "S6-OUT-21",
        "S6-OUT-22",
        "S6-OUT-25",
        "S6-VER-01",
        "S6-VER-02",
    ],
    interpretations=["INT-03", "INT-11"],
    request={"query": " note ", "store_paths": [S], "budget": {"max_excerpt_tokens": 100}},
    files={S: lines(L(memory_id="m1", text="note"))},
    expect=ok(
        package(" note ", "note", bud(100, 1, 99, 100, 50), [sel(_r2, S, 1, "note", 1)], []), [S]
    ),
)

# ---------------------------------------------------------------- package-h004
_r4a = rec("m1", "aa bb")
_r4b = rec("m2", "x", tags=["aa"])
_h004 = vec(
    "package-h004",
    "Scores in package_hash use the JCS number form: 2.0 -> 2, 0.5 -> 0.5.",
    comment=(
        "query 'aa bb'. m1 'aa bb' -> base 2 -> score 2 (a double; JSON may print 2 or 2.0, equal as values, INT-48); in the "
        "package_hash preimage JCS writes \"score\":2 (INT-01). m2 'x' tags ['aa'] -> 0.5 -> \"score\":0.5. Excerpts 5 bytes "
        "-> 2, 1 byte -> 1. used 3, remaining 97."
    ),
    clauses=["S6-OUT-13", "S6-HASH-08", "S6-HASH-10", "S6-VER-01"],
    interpretations=["INT-01", "INT-03", "INT-48"],
    request={"query": "aa bb", "store_paths": [S], "budget": {"max_excerpt_tokens": 100}},
    files={S: lines(L(memory_id="m2", text="x", tags=["aa"]), L(memory_id="m1", text="aa bb"))},
    expect=ok(
        package(
            "aa bb",
            "aa bb",
            bud(100, 3, 97, 100, 50),
            [sel(_r4a, S, 2.0, "aa bb", 2), sel(_r4b, S, 0.5, "x", 1)],
            [],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- package-h005
_r5 = rec("m1", "note")
_h005 = vec(
    "package-h005",
    "package_hash covers dropped entries: an invalid line changes the hash though selection is the same.",
    comment=(
        "Same as package-h002 (query 'note', m1 selected, 1 token) plus a second line '{\"memory_id\":\"m2\"}' (no text -> "
        "invalid, memory_id 'm2', raw-line hash). selected and budget are identical to package-h002, but dropped is not "
        "empty, and package_hash covers dropped (INT-03) -> a different package_hash."
    ),
    clauses=["S6-HASH-08", "S6-HASH-09", "S6-OUT-16", "S6-REC-11"],
    interpretations=["INT-03", "INT-19"],
    request={"query": "note", "store_paths": [S], "budget": {"max_excerpt_tokens": 100}},
    files={S: lines(L(memory_id="m1", text="note"), '{"memory_id":"m2"}')},
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 1, 99, 100, 50),
            [sel(_r5, S, 1, "note", 1)],
            [
                {
                    "memory_id": "m2",
                    "record_hash": {"$line_hash": [S, 1]},
                    "store_path": S,
                    "reason": "invalid_record_schema",
                }
            ],
        ),
        [S],
    ),
)

VECTORS = [_h001, _h002, _h003, _h004, _h005]
