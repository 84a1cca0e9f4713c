"""Hand vectors: the five tie-break keys, each in isolation (family ``ordering``)."""

# ruff: noqa: E501

from __future__ import annotations

from tools.generate.hand._dsl import L, bud, lines, ok, package, rec, sel, vec

DESCRIPTION = "Hand-written: score desc, ts_utc desc (missing last, by instant), store_path, memory_id, record_hash (code point)."
S = "s.jsonl"
B100 = {"max_excerpt_tokens": 100}


def _req(query: str = "note", stores: list[str] | None = None) -> dict[str, object]:
    return {"query": query, "store_paths": stores or [S], "budget": B100}


_NOTE = "query 'note' -> [note]; every text contains 'note' -> base 1, no tags, recency off -> score 1 for all. "

# ---------------------------------------------------------------- ordering-h001
_r1a = rec("m1", "apple")
_r1b = rec("m2", "kiwi")
_h001 = vec(
    "ordering-h001",
    "Key 1: higher score first, regardless of read order.",
    comment=(
        "query 'kiwi'. m1 'apple' (line 0) -> 0; m2 'kiwi' (line 1) -> 1. Score descending -> m2, m1. "
        "Excerpts 'kiwi' 4 bytes -> 1, 'apple' 5 bytes -> 2. used 3, remaining 97."
    ),
    clauses=["S6-ORDER-01", "S6-TRUNC-09"],
    interpretations=["INT-29"],
    request=_req("kiwi"),
    files={S: lines(L(memory_id="m1", text="apple"), L(memory_id="m2", text="kiwi"))},
    expect=ok(
        package(
            "kiwi",
            "kiwi",
            bud(100, 3, 97, 100, 50),
            [sel(_r1b, S, 1, "kiwi", 1), sel(_r1a, S, 0, "apple", 2)],
            [],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- ordering-h002
_r2a = rec("a", "note", ts="2024-01-01T00:00:00Z")
_r2b = rec("b", "note", ts="2024-01-02T00:00:00Z")
_h002 = vec(
    "ordering-h002",
    "Key 2: newer ts_utc first when scores tie.",
    comment=_NOTE
    + (
        "a ts 2024-01-01, b ts 2024-01-02. ts descending -> b before a (memory_id order would give a first). "
        "Excerpts 1 token each. used 2, remaining 98."
    ),
    clauses=["S6-ORDER-02"],
    interpretations=["INT-21"],
    request=_req(),
    files={
        S: lines(
            L(memory_id="a", ts_utc="2024-01-01T00:00:00Z", text="note"),
            L(memory_id="b", ts_utc="2024-01-02T00:00:00Z", text="note"),
        )
    },
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 2, 98, 100, 50),
            [sel(_r2b, S, 1, "note", 1), sel(_r2a, S, 1, "note", 1)],
            [],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- ordering-h003
_r3a = rec("a", "note")
_r3b = rec("b", "note", ts="2000-01-01T00:00:00Z")
_h003 = vec(
    "ordering-h003",
    "Key 2: a candidate without ts_utc sorts after one with any ts_utc.",
    comment=_NOTE
    + (
        "a has no ts_utc; b has ts 2000-01-01T00:00:00Z. 'missing ts_utc sorts last' -> b before a (memory_id would give a). "
        "Excerpts 1 token each. used 2, remaining 98."
    ),
    clauses=["S6-ORDER-02"],
    interpretations=["INT-21"],
    request=_req(),
    files={
        S: lines(
            L(memory_id="a", text="note"),
            L(memory_id="b", ts_utc="2000-01-01T00:00:00Z", text="note"),
        )
    },
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 2, 98, 100, 50),
            [sel(_r3b, S, 1, "note", 1), sel(_r3a, S, 1, "note", 1)],
            [],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- ordering-h004
_r4 = rec("m", "note")
_h004 = vec(
    "ordering-h004",
    "Key 3: store_path ascending by code point ('B.jsonl' < 'a.jsonl').",
    comment=_NOTE
    + (
        "The same record {m, 'note'} sits in 'a.jsonl' and 'B.jsonl' -> same record_hash (store_path is not hashed, INT-02). "
        "Scores tie, no ts -> store_path ascending by code point: 'B' (0x42) < 'a' (0x61) -> B.jsonl first (a locale "
        "collation would put a.jsonl first) (INT-33). Receipt store_paths sorted the same way (INT-12, INT-43). "
        "Excerpts 1 token each. used 2, remaining 98."
    ),
    clauses=["S6-ORDER-03", "S6-READ-05", "S6-READ-08"],
    interpretations=["INT-02", "INT-12", "INT-23", "INT-33", "INT-43"],
    request=_req("note", ["a.jsonl", "B.jsonl"]),
    files={
        "a.jsonl": lines(L(memory_id="m", text="note")),
        "B.jsonl": lines(L(memory_id="m", text="note")),
    },
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 2, 98, 100, 50),
            [sel(_r4, "B.jsonl", 1, "note", 1), sel(_r4, "a.jsonl", 1, "note", 1)],
            [],
        ),
        ["B.jsonl", "a.jsonl"],
    ),
)

# ---------------------------------------------------------------- ordering-h005
_r5 = {m: rec(m, "note") for m in ("b", "a", "B")}
_h005 = vec(
    "ordering-h005",
    "Key 4: memory_id ascending by code point ('B' < 'a' < 'b').",
    comment=_NOTE
    + (
        "File order b, a, B; no ts; one store. memory_id by code point: 'B' 0x42 < 'a' 0x61 < 'b' 0x62 (INT-33) -> B, a, b. "
        "Excerpts 1 token each. used 3, remaining 97."
    ),
    clauses=["S6-ORDER-04"],
    interpretations=["INT-33"],
    request=_req(),
    files={
        S: lines(
            L(memory_id="b", text="note"),
            L(memory_id="a", text="note"),
            L(memory_id="B", text="note"),
        )
    },
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 3, 97, 100, 50),
            [sel(_r5[m], S, 1, "note", 1) for m in ("B", "a", "b")],
            [],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- ordering-h006
_r6 = {t: rec("m", t) for t in ("note 1", "note 2", "note 3")}
_h006 = vec(
    "ordering-h006",
    "Key 5: record_hash ascending when score, ts, store and memory_id tie.",
    comment=_NOTE
    + (
        "Three records with memory_id 'm' in one store, no ts, texts 'note 2', 'note 3', 'note 1' (file order). Canonical "
        'preimages {"memory_id":"m","refs":[],"tags":[],"text":"note N"} hash to: note 1 -> 233987299f05..., '
        "note 3 -> 76fea09937a4..., note 2 -> 9741918d0336... -> ascending hex: note 1, note 3, note 2 (neither file nor text "
        "order). Excerpts 6 bytes -> 2 tokens each. used 6, remaining 94."
    ),
    clauses=["S6-ORDER-05", "S6-READ-14"],
    interpretations=["INT-02", "INT-23", "INT-33"],
    request=_req(),
    files={
        S: lines(
            L(memory_id="m", text="note 2"),
            L(memory_id="m", text="note 3"),
            L(memory_id="m", text="note 1"),
        )
    },
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 6, 94, 100, 50),
            [sel(_r6[t], S, 1, t, 2) for t in ("note 1", "note 3", "note 2")],
            [],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- ordering-h007
_r7a = rec("a", "note", ts="2024-01-01T00:00:00Z")
_r7b = rec("b", "note", ts="2024-01-01T00:00:00.5Z")
_h007 = vec(
    "ordering-h007",
    "ts_utc compares by instant: '...00.5Z' is later than '...00Z' (string order says the opposite).",
    comment=_NOTE
    + (
        "a ts '2024-01-01T00:00:00Z', b ts '2024-01-01T00:00:00.5Z' (half a second later). By instant (INT-21) b is newer -> "
        "b first. Comparing the strings, '.' 0x2E < 'Z' 0x5A would make a's string the larger one and put a first. "
        "b's normalized ts '2024-01-01T00:00:00.5Z' is in its record_hash. Excerpts 1 token each; used 2, remaining 98."
    ),
    clauses=["S6-ORDER-02", "S6-READ-09"],
    interpretations=["INT-21", "INT-33"],
    request=_req(),
    files={
        S: lines(
            L(memory_id="a", ts_utc="2024-01-01T00:00:00Z", text="note"),
            L(memory_id="b", ts_utc="2024-01-01T00:00:00.5Z", text="note"),
        )
    },
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 2, 98, 100, 50),
            [sel(_r7b, S, 1, "note", 1), sel(_r7a, S, 1, "note", 1)],
            [],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- ordering-h008
_r8a = rec("a", "note", ts="2024-01-01T00:00:00Z")
_r8b = rec("b", "note", ts="2024-01-01T00:00:00Z")
_h008 = vec(
    "ordering-h008",
    "Equal instants written differently ('+00:00' vs '.000Z') tie on ts; memory_id decides.",
    comment=_NOTE
    + (
        "b ts '2024-01-01T00:00:00.000Z' (line 0), a ts '2024-01-01T00:00:00+00:00' (line 1): both normalize to "
        "'2024-01-01T00:00:00Z' (INT-21) -> equal instants -> memory_id ascending -> a, b. (Raw-string descending would put "
        "b first: '.' 0x2E > '+' 0x2B.) Both hashes use the normalized ts. Excerpts 1 token each; used 2, remaining 98."
    ),
    clauses=["S6-ORDER-02", "S6-ORDER-04", "S6-READ-09"],
    interpretations=["INT-20", "INT-21"],
    request=_req(),
    files={
        S: lines(
            L(memory_id="b", ts_utc="2024-01-01T00:00:00.000Z", text="note"),
            L(memory_id="a", ts_utc="2024-01-01T00:00:00+00:00", text="note"),
        )
    },
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 2, 98, 100, 50),
            [sel(_r8a, S, 1, "note", 1), sel(_r8b, S, 1, "note", 1)],
            [],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- ordering-h009
_r9a = rec("\U0001f600", "note")
_r9b = rec("\uff41", "note")
_h009 = vec(
    "ordering-h009",
    "memory_id order is by code point: U+FF41 before U+1F600 (UTF-16 order is the reverse).",
    comment=_NOTE
    + (
        "memory_ids '😀' (U+1F600, UTF-16 D83D DE00) and 'ａ' (U+FF41). Code point order (INT-33): FF41 < 1F600 -> 'ａ' first; "
        "a JavaScript default string compare (UTF-16 units, D83D < FF41) would put '😀' first. Excerpts 1 token each; used 2, remaining 98."
    ),
    clauses=["S6-ORDER-04"],
    interpretations=["INT-01", "INT-33"],
    request=_req(),
    files={S: lines(L(memory_id="\U0001f600", text="note"), L(memory_id="\uff41", text="note"))},
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 2, 98, 100, 50),
            [sel(_r9b, S, 1, "note", 1), sel(_r9a, S, 1, "note", 1)],
            [],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- ordering-h010
_r10a = rec("m1", "note pad", ts="2000-01-01T00:00:00Z")
_r10b = rec("m2", "note", ts="2024-01-01T00:00:00Z")
_h010 = vec(
    "ordering-h010",
    "Score outranks ts_utc: an older candidate with a higher score comes first.",
    comment=(
        "query 'note pad' -> [note, pad]. m1 'note pad' (ts 2000) -> 2; m2 'note' (ts 2024) -> 1; recency off. Score first -> "
        "m1, m2. Excerpts 8 bytes -> 2, 4 bytes -> 1. used 3, remaining 97."
    ),
    clauses=["S6-ORDER-01", "S6-ORDER-02"],
    interpretations=["INT-21"],
    request=_req("note pad"),
    files={
        S: lines(
            L(memory_id="m2", ts_utc="2024-01-01T00:00:00Z", text="note"),
            L(memory_id="m1", ts_utc="2000-01-01T00:00:00Z", text="note pad"),
        )
    },
    expect=ok(
        package(
            "note pad",
            "note pad",
            bud(100, 3, 97, 100, 50),
            [sel(_r10a, S, 2, "note pad", 2), sel(_r10b, S, 1, "note", 1)],
            [],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- ordering-h011
_r11a = rec("m", "note", ts="2024-01-01T00:00:00Z")
_r11b = rec("m", "note", ts="2024-06-01T00:00:00Z")
_h011 = vec(
    "ordering-h011",
    "ts_utc outranks store_path: the newer record from the later store comes first.",
    comment=_NOTE
    + (
        "a.jsonl holds {m, ts 2024-01-01}, b.jsonl holds {m, ts 2024-06-01}. Scores tie; ts descending -> b.jsonl's record "
        "first, although 'a.jsonl' < 'b.jsonl' and a.jsonl is read first. Excerpts 1 token each; used 2, remaining 98."
    ),
    clauses=["S6-ORDER-02", "S6-ORDER-03"],
    interpretations=["INT-21", "INT-23"],
    request=_req("note", ["a.jsonl", "b.jsonl"]),
    files={
        "a.jsonl": lines(L(memory_id="m", ts_utc="2024-01-01T00:00:00Z", text="note")),
        "b.jsonl": lines(L(memory_id="m", ts_utc="2024-06-01T00:00:00Z", text="note")),
    },
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 2, 98, 100, 50),
            [sel(_r11b, "b.jsonl", 1, "note", 1), sel(_r11a, "a.jsonl", 1, "note", 1)],
            [],
        ),
        ["a.jsonl", "b.jsonl"],
    ),
)

# ---------------------------------------------------------------- ordering-h012
_r12a = rec("e1", "note")
_r12b = rec("s1", "note")
_h012 = vec(
    "ordering-h012",
    "No 'episodic first' priority: store names only matter through store_path ascending.",
    comment=_NOTE
    + (
        "Stores 'episodic.jsonl' {e1} and 'archive.jsonl' {s1}. SPEC-003's episodic priority is not applied (INT-34): scores "
        "tie, no ts -> store_path ascending: 'archive.jsonl' < 'episodic.jsonl' -> s1 first. Receipt store_paths sorted "
        "(INT-43). Excerpts 1 token each; used 2, remaining 98."
    ),
    clauses=["S6-ORDER-03"],
    interpretations=["INT-34", "INT-43"],
    request=_req("note", ["episodic.jsonl", "archive.jsonl"]),
    files={
        "episodic.jsonl": lines(L(memory_id="e1", text="note")),
        "archive.jsonl": lines(L(memory_id="s1", text="note")),
    },
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 2, 98, 100, 50),
            [sel(_r12b, "archive.jsonl", 1, "note", 1), sel(_r12a, "episodic.jsonl", 1, "note", 1)],
            [],
        ),
        ["archive.jsonl", "episodic.jsonl"],
    ),
)

# ---------------------------------------------------------------- ordering-h013
_r13a = rec("a", "note")
_r13b = rec("b", "note")
_h013 = vec(
    "ordering-h013",
    "memory_id outranks record_hash.",
    comment=_NOTE
    + (
        "a and b, text 'note', no ts, one store. Hashes: b -> 475b581a25c2..., a -> 75f5ed8bb020... (b's is smaller), but key 4 "
        "(memory_id) comes before key 5 -> a, b. Excerpts 1 token each; used 2, remaining 98."
    ),
    clauses=["S6-ORDER-04", "S6-ORDER-05"],
    request=_req(),
    files={S: lines(L(memory_id="b", text="note"), L(memory_id="a", text="note"))},
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 2, 98, 100, 50),
            [sel(_r13a, S, 1, "note", 1), sel(_r13b, S, 1, "note", 1)],
            [],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- ordering-h014
_r14a = rec("a", "note", ts="2024-01-01T00:00:00Z")
_r14b = rec("b", "note", ts="2024-01-01T00:00:00.000000001Z")
_h014 = vec(
    "ordering-h014",
    "ts_utc ordering is exact to the nanosecond.",
    comment=_NOTE
    + (
        "a ts '2024-01-01T00:00:00Z', b ts '2024-01-01T00:00:00.000000001Z' (1 ns later; normalized unchanged, INT-21). "
        "By exact instant b is newer -> b, a. Truncating to micro- or milliseconds would tie them and memory_id would put a "
        "first. Excerpts 1 token each; used 2, remaining 98."
    ),
    clauses=["S6-ORDER-02", "S6-READ-09"],
    interpretations=["INT-20", "INT-21"],
    request=_req(),
    files={
        S: lines(
            L(memory_id="a", ts_utc="2024-01-01T00:00:00Z", text="note"),
            L(memory_id="b", ts_utc="2024-01-01T00:00:00.000000001Z", text="note"),
        )
    },
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 2, 98, 100, 50),
            [sel(_r14b, S, 1, "note", 1), sel(_r14a, S, 1, "note", 1)],
            [],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- ordering-h015
_r15e = rec("e1", "note", ts="2024-01-01T00:00:00Z")
_r15s = rec("s1", "note", ts="2024-02-01T00:00:00Z")
_h015 = vec(
    "ordering-h015",
    "An episodic store gets no priority: a newer record from semantic.jsonl ranks first.",
    comment=_NOTE
    + (
        "episodic.jsonl {e1, ts 2024-01-01}, semantic.jsonl {s1, ts 2024-02-01}. No source priority (INT-34): scores tie -> "
        "ts descending -> s1 first (an 'episodic first' ranking would put e1 first). 1 token each; used 2, remaining 98."
    ),
    clauses=["S6-ORDER-02", "S6-ORDER-03"],
    interpretations=["INT-21", "INT-34"],
    request=_req("note", ["episodic.jsonl", "semantic.jsonl"]),
    files={
        "episodic.jsonl": lines(L(memory_id="e1", ts_utc="2024-01-01T00:00:00Z", text="note")),
        "semantic.jsonl": lines(L(memory_id="s1", ts_utc="2024-02-01T00:00:00Z", text="note")),
    },
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 2, 98, 100, 50),
            [
                sel(_r15s, "semantic.jsonl", 1, "note", 1),
                sel(_r15e, "episodic.jsonl", 1, "note", 1),
            ],
            [],
        ),
        ["episodic.jsonl", "semantic.jsonl"],
    ),
)

# ---------------------------------------------------------------- ordering-h016
_r16 = {m: rec(m, "note") for m in ("\uff5e", "\U0001f600")}
_h016 = vec(
    "ordering-h016",
    "Key 4: memory_id by code point: U+FF5E before U+1F600 (UTF-16 order would swap them).",
    comment=_NOTE
    + (
        "memory_ids U+FF5E (FULLWIDTH TILDE) and U+1F600 (GRINNING FACE), no ts -> key 4, memory_id ascending by code "
        "point (INT-33): 0xFF5E < 0x1F600 -> U+FF5E first. In UTF-16 code units U+1F600 is D83D DE00 and D83D < FF5E, "
        "so JavaScript's default sort would put U+1F600 first (INT-33/utf-16-order-javascript). "
        "Excerpts 1 token each. used 2, remaining 98."
    ),
    clauses=["S6-ORDER-04"],
    interpretations=["INT-01", "INT-33"],  # INT-01: non-ASCII memory_ids in the hashed package
    request=_req(),
    files={
        S: lines(
            L(memory_id="\U0001f600", text="note"),
            L(memory_id="\uff5e", text="note"),
        )
    },
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 2, 98, 100, 50),
            [sel(_r16["\uff5e"], S, 1, "note", 1), sel(_r16["\U0001f600"], S, 1, "note", 1)],
            [],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- ordering-h017
_r17 = rec("m", "note")
_P17 = ("\uff5e.jsonl", "\U0001f600.jsonl")
_h017 = vec(
    "ordering-h017",
    "Key 3: store_path by code point: 'U+FF5E.jsonl' before 'U+1F600.jsonl' (UTF-16 order would swap them).",
    comment=_NOTE
    + (
        "The same record {m, 'note'} sits in 'U+1F600.jsonl' and 'U+FF5E.jsonl' -> same record_hash (INT-02). Scores "
        "tie, no ts, same memory_id -> key 3, store_path ascending by code point (INT-33): 0xFF5E < 0x1F600 -> "
        "'U+FF5E.jsonl' first; the stores are read in the same order and the receipt lists them so (INT-12, INT-43). "
        "By UTF-16 code units (D83D < FF5E) the tie-break would put 'U+1F600.jsonl' first. "
        "Excerpts 1 token each. used 2, remaining 98."
    ),
    clauses=["S6-ORDER-03", "S6-READ-05"],
    interpretations=["INT-01", "INT-02", "INT-12", "INT-23", "INT-33", "INT-43"],
    request=_req("note", [_P17[1], _P17[0]]),
    files={
        _P17[0]: lines(L(memory_id="m", text="note")),
        _P17[1]: lines(L(memory_id="m", text="note")),
    },
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 2, 98, 100, 50),
            [sel(_r17, _P17[0], 1, "note", 1), sel(_r17, _P17[1], 1, "note", 1)],
            [],
        ),
        [_P17[0], _P17[1]],
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
    _h015,
    _h016,
    _h017,
]
