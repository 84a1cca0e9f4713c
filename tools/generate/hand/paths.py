"""Hand vectors: store path normalization, dedupe, sort, missing and unreadable stores (family ``paths``)."""

# ruff: noqa: E501

from __future__ import annotations

from tools.generate.hand._dsl import (
    L,
    bud,
    directory,
    drop,
    err,
    lines,
    ok,
    package,
    rec,
    sel,
    vec,
)

DESCRIPTION = "Hand-written: lexical path normalization, deduplication, code-point sort, store_not_found / store_not_readable."
B100 = {"max_excerpt_tokens": 100}


def _req(stores: list[object], budget: dict[str, object] | None = None) -> dict[str, object]:
    return {"query": "note", "store_paths": stores, "budget": budget or B100}


_m1 = rec("m1", "note")
_ONE = "query 'note'; the record m1 'note' -> score 1, excerpt 4 bytes -> 1 token; used 1, remaining 99. "

# ---------------------------------------------------------------- paths-h001
_h001 = vec(
    "paths-h001",
    "'./s/../b.jsonl' normalizes to 'b.jsonl' (lexically).",
    comment=_ONE
    + (
        "store_paths ['./s/../b.jsonl'] -> remove '.', resolve 's/..' lexically (no filesystem access; directory s need not "
        "exist) -> 'b.jsonl' (INT-12). store_path in the package and the receipt is the normalized 'b.jsonl'."
    ),
    clauses=["S6-READ-04", "S6-READ-08", "S6-RCPT-04", "S6-INPUT-02"],
    interpretations=["INT-12", "INT-43", "INT-45"],
    request=_req(["./s/../b.jsonl"]),
    files={"b.jsonl": lines(L(memory_id="m1", text="note"))},
    expect=ok(
        package("note", "note", bud(100, 1, 99, 100, 50), [sel(_m1, "b.jsonl", 1, "note", 1)], []),
        ["b.jsonl"],
    ),
)

# ---------------------------------------------------------------- paths-h002
_h002 = vec(
    "paths-h002",
    "Duplicate store paths (after normalization) are read once.",
    comment=_ONE
    + (
        "store_paths ['s.jsonl', './s.jsonl', 's.jsonl'] -> all normalize to 's.jsonl' -> deduplicated (INT-12): the store "
        "is read once, m1 appears once (not three times). Receipt store_paths ['s.jsonl'] (INT-43)."
    ),
    clauses=["S6-READ-04", "S6-RCPT-04"],
    interpretations=["INT-12", "INT-43"],
    request=_req(["s.jsonl", "./s.jsonl", "s.jsonl"]),
    files={"s.jsonl": lines(L(memory_id="m1", text="note"))},
    expect=ok(
        package("note", "note", bud(100, 1, 99, 100, 50), [sel(_m1, "s.jsonl", 1, "note", 1)], []),
        ["s.jsonl"],
    ),
)

# ---------------------------------------------------------------- paths-h003
_r3 = {
    "B.jsonl": rec("r4", "note"),
    "a-b.jsonl": rec("r3", "note"),
    "a.jsonl": rec("r2", "note"),
    "a/b.jsonl": rec("r1", "note"),
}
_h003 = vec(
    "paths-h003",
    "Normalized paths sort by code point: 'B.jsonl' < 'a-b.jsonl' < 'a.jsonl' < 'a/b.jsonl'.",
    comment=(
        "store_paths ['a/b.jsonl', 'a.jsonl', 'a-b.jsonl', 'B.jsonl'], one record 'note' each (r1..r4), max_items 1. "
        "Code-point order (INT-12): 'B' 0x42 first; then 'a' followed by '-' 0x2D < '.' 0x2E < '/' 0x2F -> B.jsonl, "
        "a-b.jsonl, a.jsonl, a/b.jsonl. All score 1, no ts -> rank = store_path order -> r4 (B.jsonl) selected (1 token); "
        "then max_items 1 is reached -> r3, r2, r1 dropped max_items_reached (INT-27) in read order (INT-28), which is the "
        "sorted store order. used 1, remaining 99, max_items 1. Receipt store_paths in that sorted order (INT-43)."
    ),
    clauses=["S6-READ-05", "S6-ORDER-03", "S6-RCPT-04", "S6-TOK-05"],
    interpretations=["INT-12", "INT-27", "INT-28", "INT-33", "INT-43"],
    request=_req(
        ["a/b.jsonl", "a.jsonl", "a-b.jsonl", "B.jsonl"],
        {"max_excerpt_tokens": 100, "max_items": 1},
    ),
    files={
        "a/b.jsonl": lines(L(memory_id="r1", text="note")),
        "a.jsonl": lines(L(memory_id="r2", text="note")),
        "a-b.jsonl": lines(L(memory_id="r3", text="note")),
        "B.jsonl": lines(L(memory_id="r4", text="note")),
    },
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 1, 99, 100, 1),
            [sel(_r3["B.jsonl"], "B.jsonl", 1, "note", 1)],
            [drop(_r3[p], p, "max_items_reached") for p in ("a-b.jsonl", "a.jsonl", "a/b.jsonl")],
        ),
        ["B.jsonl", "a-b.jsonl", "a.jsonl", "a/b.jsonl"],
    ),
)

# ---------------------------------------------------------------- paths-h004
_r4y = rec("y1", "note")
_r4z = rec("z1", "note")
_h004 = vec(
    "paths-h004",
    "Repeated '/' collapse and '.' segments are removed.",
    comment=(
        "store_paths ['x//y.jsonl', 'x/./z.jsonl'] -> 'x/y.jsonl', 'x/z.jsonl' (INT-12). y1 and z1 'note' -> score 1 each; "
        "tie -> store_path 'x/y.jsonl' < 'x/z.jsonl'. 1 token each; used 2, remaining 98. Receipt ['x/y.jsonl', 'x/z.jsonl']."
    ),
    clauses=["S6-READ-04", "S6-READ-08", "S6-INPUT-02"],
    interpretations=["INT-12", "INT-43", "INT-45"],
    request=_req(["x//y.jsonl", "x/./z.jsonl"]),
    files={
        "x/y.jsonl": lines(L(memory_id="y1", text="note")),
        "x/z.jsonl": lines(L(memory_id="z1", text="note")),
    },
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 2, 98, 100, 50),
            [sel(_r4y, "x/y.jsonl", 1, "note", 1), sel(_r4z, "x/z.jsonl", 1, "note", 1)],
            [],
        ),
        ["x/y.jsonl", "x/z.jsonl"],
    ),
)

# ---------------------------------------------------------------- paths-h005
_h005 = vec(
    "paths-h005",
    "A trailing '/' is removed by normalization.",
    comment=_ONE
    + "store_paths ['s.jsonl/'] -> trailing '/' removed (INT-12) -> 's.jsonl', which is a regular file -> read normally.",
    clauses=["S6-READ-04"],
    interpretations=["INT-12", "INT-43"],
    request=_req(["s.jsonl/"]),
    files={"s.jsonl": lines(L(memory_id="m1", text="note"))},
    expect=ok(
        package("note", "note", bud(100, 1, 99, 100, 50), [sel(_m1, "s.jsonl", 1, "note", 1)], []),
        ["s.jsonl"],
    ),
)

# ---------------------------------------------------------------- paths-h006
_h006 = vec(
    "paths-h006",
    "'./a/b/../../c.jsonl' resolves both '..' segments lexically.",
    comment=_ONE
    + "store_paths ['./a/b/../../c.jsonl'] -> drop '.', 'b/..' and then 'a/..' cancel -> 'c.jsonl' (INT-12; directories a, a/b need not exist).",
    clauses=["S6-READ-04", "S6-READ-08"],
    interpretations=["INT-12", "INT-43"],
    request=_req(["./a/b/../../c.jsonl"]),
    files={"c.jsonl": lines(L(memory_id="m1", text="note"))},
    expect=ok(
        package("note", "note", bud(100, 1, 99, 100, 50), [sel(_m1, "c.jsonl", 1, "note", 1)], []),
        ["c.jsonl"],
    ),
)

# ---------------------------------------------------------------- paths-h007
_h007 = vec(
    "paths-h007",
    "Two spellings of one store ('x/../s.jsonl', 's.jsonl') are one store.",
    comment=_ONE
    + "store_paths ['x/../s.jsonl', 's.jsonl'] -> both 's.jsonl' -> read once (INT-12); m1 once. Receipt ['s.jsonl'].",
    clauses=["S6-READ-04", "S6-RCPT-04"],
    interpretations=["INT-12", "INT-43"],
    request=_req(["x/../s.jsonl", "s.jsonl"]),
    files={"s.jsonl": lines(L(memory_id="m1", text="note"))},
    expect=ok(
        package("note", "note", bud(100, 1, 99, 100, 50), [sel(_m1, "s.jsonl", 1, "note", 1)], []),
        ["s.jsonl"],
    ),
)

# ---------------------------------------------------------------- paths-h008
_h008 = vec(
    "paths-h008",
    "store_not_found points at the first request index of the missing normalized path.",
    comment=(
        "store_paths ['z.jsonl', './m.jsonl', 'm.jsonl']; z.jsonl exists, m.jsonl does not. Normalized and sorted: "
        "['m.jsonl', 'z.jsonl']; checked in that order (INT-13) -> m.jsonl is missing -> store_not_found; path is the "
        "index of its first occurrence in the request: './m.jsonl' at index 1 -> /store_paths/1 (errors.md row 9)."
    ),
    clauses=["S6-ERR-05", "S6-ERR-06", "S6-READ-04"],
    interpretations=["INT-12", "INT-13", "INT-40"],
    request=_req(["z.jsonl", "./m.jsonl", "m.jsonl"]),
    files={"z.jsonl": lines(L(memory_id="m1", text="note"))},
    expect=err("store_not_found", "/store_paths/1"),
)

# ---------------------------------------------------------------- paths-h009
_h009 = vec(
    "paths-h009",
    "A store path that is a directory: store_not_readable.",
    comment="store_paths ['d.jsonl'] where d.jsonl is a directory -> exists but is not a regular file -> store_not_readable at /store_paths/0 (INT-13, errors.md row 10).",
    clauses=["S6-ERR-01"],
    interpretations=["INT-13", "INT-40"],
    request=_req(["d.jsonl"]),
    files={"d.jsonl": directory()},
    expect=err("store_not_readable", "/store_paths/0"),
)

# ---------------------------------------------------------------- paths-h010
_h010 = vec(
    "paths-h010",
    "One missing store fails the whole call (no partial package).",
    comment=(
        "store_paths ['a.jsonl', 'b.jsonl']; a.jsonl exists with a valid record, b.jsonl is missing -> 'treat missing store "
        "as error (fail), not partial success' -> store_not_found at /store_paths/1; no package, no receipt."
    ),
    clauses=["S6-ERR-05", "S6-ERR-06", "S6-ERR-01"],
    interpretations=["INT-13", "INT-40"],
    request=_req(["a.jsonl", "b.jsonl"]),
    files={"a.jsonl": lines(L(memory_id="m1", text="note"))},
    expect=err("store_not_found", "/store_paths/1"),
)

# ---------------------------------------------------------------- paths-h011
_h011 = vec(
    "paths-h011",
    "Stores are checked in sorted order: with two missing stores the first in code-point order is reported.",
    comment=(
        "store_paths ['z.jsonl', 'a.jsonl'], both missing. Sorted: ['a.jsonl', 'z.jsonl'] -> a.jsonl is checked first "
        "(INT-13: sorted order, not request order) -> store_not_found at /store_paths/1 (a.jsonl's request index)."
    ),
    clauses=["S6-ERR-05", "S6-READ-05"],
    interpretations=["INT-12", "INT-13", "INT-40"],
    request=_req(["z.jsonl", "a.jsonl"]),
    files={},
    expect=err("store_not_found", "/store_paths/1"),
)

# ---------------------------------------------------------------- paths-h012
_h012 = vec(
    "paths-h012",
    "A directory sorted before a missing store: store_not_readable wins.",
    comment=(
        "store_paths ['z.jsonl', 'a.jsonl']; z.jsonl is missing, a.jsonl is a directory. Checked in sorted order, first "
        "failure wins (INT-13): a.jsonl exists but is not a regular file -> store_not_readable at /store_paths/1 (not the "
        "store_not_found of z.jsonl)."
    ),
    clauses=["S6-ERR-05", "S6-ERR-01"],
    interpretations=["INT-13", "INT-40"],
    request=_req(["z.jsonl", "a.jsonl"]),
    files={"a.jsonl": directory()},
    expect=err("store_not_readable", "/store_paths/1"),
)

VECTORS = [_h001, _h002, _h003, _h004, _h005, _h006, _h007, _h008, _h009, _h010, _h011, _h012]

# ---------------------------------------------------------------- paths-h013
_h013 = vec(
    "paths-h013",
    "A store path containing NUL names no file: store_not_found.",
    comment=(
        "store_paths ['s\\u0000.jsonl'] (a valid JSON string with U+0000). No file can have that name -> store_not_found at "
        "/store_paths/0 (INT-13; errors.md note), not a crash and not store_not_readable."
    ),
    clauses=["S6-ERR-05", "S6-ERR-06"],
    interpretations=["INT-13", "INT-40"],
    request=_req(["s\u0000.jsonl"]),
    files={"s.jsonl": lines(L(memory_id="m1", text="note"))},
    expect=err("store_not_found", "/store_paths/0"),
)

# ---------------------------------------------------------------- paths-h014
_h014 = vec(
    "paths-h014",
    "A path through a regular file ('f.jsonl/x.jsonl') does not exist: store_not_found.",
    comment=(
        "store_paths ['f.jsonl/x.jsonl'] where f.jsonl is a regular file: opening fails with ENOTDIR, i.e. nothing exists at "
        "that path -> store_not_found at /store_paths/0 (INT-13)."
    ),
    clauses=["S6-ERR-05"],
    interpretations=["INT-13", "INT-40"],
    request=_req(["f.jsonl/x.jsonl"]),
    files={"f.jsonl": lines(L(memory_id="m1", text="note"))},
    expect=err("store_not_found", "/store_paths/0"),
)

# ---------------------------------------------------------------- paths-h015
_h015 = vec(
    "paths-h015",
    "A store path that normalizes to '.' is a directory: store_not_readable.",
    comment=(
        "store_paths ['x/..'] -> 'x' and '..' cancel -> '.' (INT-12), the vector root, a directory -> store_not_readable at "
        "/store_paths/0 (INT-13)."
    ),
    clauses=["S6-READ-04"],
    interpretations=["INT-12", "INT-13", "INT-40"],
    request=_req(["x/.."]),
    files={"s.jsonl": lines(L(memory_id="m1", text="note"))},
    expect=err("store_not_readable", "/store_paths/0"),
)

VECTORS += [_h013, _h014, _h015]

# ---------------------------------------------------------------- paths-h016
# Added after the mutation gallery: the mutant 'sibling-stores-read' (every *.jsonl beside a
# requested store is read too) was killed by a probe only, never by a vector.
_a1 = rec("m1", "alpha")
_h016 = vec(
    "paths-h016",
    "Only the stores the request names are read, never their sibling files.",
    comment=(
        "Files stores/a.jsonl {m1 'alpha'} and stores/b.jsonl {m2 'alpha'}; store_paths ['stores/a.jsonl'] "
        "(INPUT-02: explicit paths). Only m1 is a candidate: 'alpha' matches -> score 1; 'alpha' = 5 bytes -> "
        "2 tokens; used 2, remaining 98. Nothing dropped (m2 is in no requested store); the receipt lists "
        "only stores/a.jsonl."
    ),
    clauses=["S6-INPUT-02", "S6-READ-05", "S6-RCPT-04"],
    request={
        "query": "alpha",
        "store_paths": ["stores/a.jsonl"],
        "budget": {"max_excerpt_tokens": 100},
    },
    files={
        "stores/a.jsonl": lines(L(memory_id="m1", text="alpha")),
        "stores/b.jsonl": lines(L(memory_id="m2", text="alpha")),
    },
    expect=ok(
        package(
            "alpha",
            "alpha",
            bud(100, 2, 98, 100, 50),
            [sel(_a1, "stores/a.jsonl", 1, "alpha", 2)],
            [],
        ),
        ["stores/a.jsonl"],
    ),
)
VECTORS += [_h016]
