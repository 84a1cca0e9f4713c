"""Hand vectors: record_hash preimage and canonical JSON edge cases (family ``hashing``).

Each normalized record below holds values as a JSON parser produces them (numbers as IEEE
doubles, INT-17); rfc8785 produces the canonical bytes the hash covers.
"""

# ruff: noqa: E501

from __future__ import annotations

from tools.generate.hand._dsl import L, also, bud, lines, ok, package, rec, sel, vec

DESCRIPTION = "Hand-written: record_hash preimage (INT-02) and RFC 8785 edge cases reached through refs and text."
S = "s.jsonl"
B100 = {"max_excerpt_tokens": 100}


def _req(query: str = "note") -> dict[str, object]:
    return {"query": query, "store_paths": [S], "budget": B100}


def _pkg1(
    record: dict[str, object], excerpt: str, tokens: int, query: str = "note"
) -> dict[str, object]:
    return ok(
        package(
            query,
            query,
            bud(100, tokens, 100 - tokens, 100, 50),
            [sel(record, S, 1, excerpt, tokens)],
            [],
        ),
        [S],
    )


_NOTE1 = "query 'note' -> score 1 (text contains 'note'); excerpt 'note' 4 bytes -> 1 token; used 1, remaining 99. "

# ---------------------------------------------------------------- hashing-h001
_r1 = rec("m1", "hello")
_h001 = vec(
    "hashing-h001",
    "record_hash = sha256 of the JCS bytes of {memory_id, refs, tags, text}.",
    comment=(
        "m1 'hello', no tags/refs/ts. Normalized record (INT-02) in JCS (INT-01): "
        '{"memory_id":"m1","refs":[],"tags":[],"text":"hello"} (keys sorted, no whitespace, UTF-8); record_hash = '
        "lowercase hex SHA-256 of those 53 bytes. query 'hello' -> 1; excerpt 5 bytes -> 2 tokens; used 2, remaining 98."
    ),
    clauses=["S6-HASH-01", "S6-HASH-02", "S6-HASH-03", "S6-READ-14", "S6-OUT-11", "S6-OUT-24"],
    interpretations=["INT-01", "INT-02"],
    request=_req("hello"),
    files={S: lines(L(memory_id="m1", text="hello"))},
    expect=_pkg1(_r1, "hello", 2, "hello"),
)

# ---------------------------------------------------------------- hashing-h002
_r2 = rec("m1", "  padded  ")
_h002 = vec(
    "hashing-h002",
    "record_hash covers the raw text (not stripped); the excerpt is stripped.",
    comment=(
        'm1 text \'  padded  \'. Preimage {"memory_id":"m1","refs":[],"tags":[],"text":"  padded  "} (text as read, '
        "INT-02). Excerpt strips the outer spaces -> 'padded' 6 bytes -> 2 tokens (INT-31). query 'padded' -> 1. "
        "used 2, remaining 98."
    ),
    clauses=["S6-HASH-01", "S6-HASH-03", "S6-TRUNC-02", "S6-READ-10"],
    interpretations=["INT-02", "INT-31"],
    request=_req("padded"),
    files={S: lines(L(memory_id="m1", text="  padded  "))},
    expect=_pkg1(_r2, "padded", 2, "padded"),
)

# ---------------------------------------------------------------- hashing-h003
_r3 = rec(
    "f1",
    "note",
    refs=[
        {
            "a": 1.0,
            "b": 1e21,
            "c": 1e-7,
            "d": -0.0,
            "e": 100.0,
            "f": 0.1,
            "g": 1e-6,
            "h": 5e-324,
            "i": 1e20,
        }
    ],
)
_h003 = vec(
    "hashing-h003",
    "Numbers in refs hash in ECMAScript form: 1.0->1, 1e21->1e+21, 1e-7, -0->0, 1E2->100, 1e-6->0.000001.",
    comment=_NOTE1
    + (
        'refs [{"a":1.0,"b":1e21,"c":1e-7,"d":-0.0,"e":1E2,"f":0.1,"g":1e-6,"h":5e-324,"i":1e20}] are read as doubles '
        '(INT-17) and serialized by JCS (INT-01) as {"a":1,"b":1e+21,"c":1e-7,"d":0,"e":100,"f":0.1,"g":0.000001,'
        '"h":5e-324,"i":100000000000000000000}. (Python json.dumps would write 1.0, 1e+21, 1e-07, -0.0, 100.0, 1e-06, 1e+20.)'
    ),
    clauses=["S6-HASH-01", "S6-HASH-02", "S6-READ-13"],
    interpretations=["INT-01", "INT-17"],
    request=_req(),
    files={
        S: lines(
            '{"memory_id":"f1","text":"note","refs":[{"a":1.0,"b":1e21,"c":1e-7,"d":-0.0,"e":1E2,"f":0.1,"g":1e-6,"h":5e-324,"i":1e20}]}'
        )
    },
    expect=_pkg1(_r3, "note", 1),
)

# ---------------------------------------------------------------- hashing-h004
_r4 = rec("big", "note", refs=[{"n": 9007199254740992.0, "p": 1.2345678901234568e29}])
_h004 = vec(
    "hashing-h004",
    "9007199254740993 reads as the double 9007199254740992: two spellings, one record_hash.",
    comment=(
        'query \'note\'. Line 0 refs [{"n":9007199254740993,"p":123456789012345678901234567890}], line 1 refs '
        '[{"n":9007199254740992.0,"p":1.2345678901234568e29}]. As doubles (INT-17) both are n = 2**53 = 9007199254740992 '
        "and p = 1.2345678901234568e+29, so both normalize to the same record {big, refs [{n, p}], 'note'}; JCS "
        'writes {"n":9007199254740992,"p":1.2345678901234568e+29} (INT-01) -> one record_hash. Keeping integers exact '
        "would give two hashes. Both score 1; equal on all five keys -> read order (INT-33); entries identical. "
        "1 token each; used 2, remaining 98."
    ),
    clauses=["S6-HASH-01", "S6-OUT-24", "S6-READ-14"],
    interpretations=["INT-01", "INT-17", "INT-23", "INT-33"],
    request=_req(),
    files={
        S: lines(
            '{"memory_id":"big","text":"note","refs":[{"n":9007199254740993,"p":123456789012345678901234567890}]}',
            '{"memory_id":"big","text":"note","refs":[{"n":9007199254740992.0,"p":1.2345678901234568e29}]}',
        )
    },
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 2, 98, 100, 50),
            [sel(_r4, S, 1, "note", 1), sel(_r4, S, 1, "note", 1)],
            [],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- hashing-h005
_r5 = rec("k1", "note", refs=[{"\uff61": 1.0, "\U0001f600": 2.0, "a": 3.0}])
_h005 = vec(
    "hashing-h005",
    "Object keys sort by UTF-16 code units: 'a' < U+1F600 < U+FF61.",
    comment=_NOTE1
    + (
        'refs [{"\\uff61":1,"😀":2,"a":3}]. JCS sorts member names by UTF-16 code units (INT-01): \'a\' 0061, \'😀\' D83D DE00, '
        '\'｡\' FF61 -> {"a":3,"😀":2,"｡":1}. Sorting by code point would put U+FF61 before U+1F600 (different bytes, '
        "different hash)."
    ),
    clauses=["S6-HASH-02"],
    interpretations=["INT-01"],
    request=_req(),
    files={S: lines('{"memory_id":"k1","text":"note","refs":[{"\uff61":1,"\U0001f600":2,"a":3}]}')},
    expect=_pkg1(_r5, "note", 1),
)

# ---------------------------------------------------------------- hashing-h006
_T6 = "note\u0001\u001f\t\u007f\u2028x"
_r6 = rec("c1", _T6)
_h006 = vec(
    "hashing-h006",
    "Control characters in text: JCS escapes U+0001, U+001F (\\u00xx) and TAB (\\t); DEL and U+2028 stay raw.",
    comment=(
        "text = 'note' 01 1f 09 7f e2 80 a8 'x'. In the preimage (INT-01) it is written \"note\\u0001\\u001f\\t\" then raw 7f, "
        "raw e2 80 a8, 'x' (lowercase hex in \\u00xx; only U+0000..U+001F, '\"' and '\\' are escaped). query 'note' -> 1. "
        "Excerpt = the whole text (nothing to strip: starts with 'n', ends with 'x') = 4+1+1+1+1+3+1 = 12 bytes -> 3 tokens. "
        "used 3, remaining 97."
    ),
    clauses=["S6-HASH-02", "S6-TRUNC-01"],
    interpretations=["INT-01"],
    request=_req(),
    files={S: lines(L(memory_id="c1", text=_T6))},
    expect=_pkg1(_r6, _T6, 3),
)

# ---------------------------------------------------------------- hashing-h007
_T7 = 'note / "q" \\'
_r7 = rec("m1", _T7)
_h007 = vec(
    "hashing-h007",
    "Escapes in the input line are decoded; JCS re-escapes only '\"' and '\\' (not '/').",
    comment=(
        'Line \'{"memory_id":"m\\u0031","text":"n\\u006fte \\/ \\"q\\" \\\\"}\' decodes to memory_id \'m1\' and text '
        '\'note / "q" \\\'. Preimage text written "note / \\"q\\" \\\\" (INT-01: \'/\' not escaped, no \\u for ASCII). '
        "query 'note' -> 1. Excerpt 12 bytes -> 3 tokens. used 3, remaining 97."
    ),
    clauses=["S6-HASH-02", "S6-READ-07", "S6-READ-10"],
    interpretations=["INT-01"],
    request=_req(),
    files={S: lines(r'{"memory_id":"m\u0031","text":"n\u006fte \/ \"q\" \\"}')},
    expect=_pkg1(_r7, _T7, 3),
)

# ---------------------------------------------------------------- hashing-h008
_r8 = rec("t1", "note", ts="2024-01-02T03:04:05.12Z")
_h008 = vec(
    "hashing-h008",
    "ts_utc enters record_hash normalized: '.120+00:00' -> '.12Z'.",
    comment=_NOTE1
    + (
        "ts_utc '2024-01-02T03:04:05.120+00:00' is valid (INT-20); normalized (INT-21): fraction trailing zero removed, "
        '\'+00:00\' -> \'Z\' -> \'2024-01-02T03:04:05.12Z\'. Preimage {"memory_id":"t1","refs":[],"tags":[],"text":"note",'
        '"ts_utc":"2024-01-02T03:04:05.12Z"}. Recency is off, so the ts affects only the hash.'
    ),
    clauses=["S6-READ-09", "S6-HASH-01", "S6-REC-04"],
    interpretations=["INT-02", "INT-20", "INT-21"],
    request=_req(),
    files={S: lines(L(memory_id="t1", ts_utc="2024-01-02T03:04:05.120+00:00", text="note"))},
    expect=_pkg1(_r8, "note", 1),
)

# ---------------------------------------------------------------- hashing-h009
_r9 = rec("o1", "note", refs=[{"a": "x", "b": {"c": [True, False, None], "d": 2.0}}])
_h009 = vec(
    "hashing-h009",
    "Nested objects are key-sorted at every level; duplicate keys inside refs: last wins.",
    comment=_NOTE1
    + (
        'refs [{"b":{"d":1,"c":[true,false,null],"d":2},"a":"x"}] -> inner duplicate \'d\': last wins -> 2 (INT-16); '
        'JCS (INT-01) sorts members at every depth, keeps array order: {"a":"x","b":{"c":[true,false,null],"d":2}}.'
    ),
    clauses=["S6-HASH-02", "S6-READ-13"],
    interpretations=["INT-01", "INT-16"],
    request=_req(),
    files={
        S: lines(
            '{"memory_id":"o1","text":"note","refs":[{"b":{"d":1,"c":[true,false,null],"d":2},"a":"x"}]}'
        )
    },
    expect=_pkg1(_r9, "note", 1),
)

# ---------------------------------------------------------------- hashing-h010
_r10 = rec("g1", "\u03bd\u03b1\u03b9 note")
_h010 = vec(
    "hashing-h010",
    "Non-ASCII text is hashed as raw UTF-8, not \\u-escaped.",
    comment=(
        "text 'ναι note' = ce bd ce b1 ce b9 20 6e 6f 74 65 (10 bytes). The preimage holds those raw bytes (INT-01; "
        "ensure_ascii-style \\u03bd escapes would change the hash). query 'note' -> 1. Excerpt 10 bytes -> 3 tokens. "
        "used 3, remaining 97."
    ),
    clauses=["S6-HASH-02"],
    interpretations=["INT-01"],
    request=_req(),
    files={S: lines(L(memory_id="g1", text="\u03bd\u03b1\u03b9 note"))},
    expect=_pkg1(_r10, "\u03bd\u03b1\u03b9 note", 3),
)

# ---------------------------------------------------------------- hashing-h011
_r11 = rec("e1", "note", refs=[{"": 1.0, "\u0000": 2.0}, {}])
_h011 = vec(
    "hashing-h011",
    "Empty and NUL member names; an empty ref object.",
    comment=_NOTE1
    + (
        'refs [{"\\u0000":2,"":1},{}] -> JCS: \'\' sorts before U+0000, NUL is escaped as \\u0000 -> '
        '[{"":1,"\\u0000":2},{}] (INT-01). An empty object is a valid ref (INT-22).'
    ),
    clauses=["S6-HASH-02", "S6-REC-09"],
    interpretations=["INT-01", "INT-22"],
    request=_req(),
    files={S: lines('{"memory_id":"e1","text":"note","refs":[{"\\u0000":2,"":1},{}]}')},
    expect=_pkg1(_r11, "note", 1),
)

# ---------------------------------------------------------------- hashing-h012
_r12 = rec("m1", "note", tags=["x"])
_h012 = vec(
    "hashing-h012",
    "record_hash does not include store_path: the same record in two stores has one hash.",
    comment=(
        "a.jsonl and b.jsonl both hold {m1, 'note', tags ['X']} -> normalized tags ['x'] -> one preimage "
        '{"memory_id":"m1","refs":[],"tags":["x"],"text":"note"} -> same record_hash for both entries (store_path '
        "excluded, INT-02). query 'note' -> 1 each; tie -> store_path a.jsonl first. 1 token each; used 2, remaining 98."
    ),
    clauses=["S6-HASH-01", "S6-HASH-03", "S6-OUT-24", "S6-ORDER-03"],
    interpretations=["INT-02", "INT-23", "INT-25"],
    request={"query": "note", "store_paths": ["a.jsonl", "b.jsonl"], "budget": B100},
    files={
        "a.jsonl": lines(L(memory_id="m1", text="note", tags=["X"])),
        "b.jsonl": lines(L(memory_id="m1", text="note", tags=["X"])),
    },
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 2, 98, 100, 50),
            [sel(_r12, "a.jsonl", 1, "note", 1), sel(_r12, "b.jsonl", 1, "note", 1)],
            [],
        ),
        ["a.jsonl", "b.jsonl"],
    ),
)

VECTORS = [_h001, _h002, _h003, _h004, _h005, _h006, _h007, _h008, _h009, _h010, _h011, _h012]

# ---------------------------------------------------------------- hashing-h013
_r13 = rec("n53", "note", refs=[{"ké": "x"}, {"n": 9007199254740992.0}])
_h013 = vec(
    "hashing-h013",
    "The integer 2**53 in refs, beside a member whose name is not ASCII, is the double 2**53.",
    comment=(
        'query \'note\'. Line 0 refs [{"ké":"x"},{"n":9007199254740992}]. 9007199254740992 = 2**53 is exactly a double '
        "(INT-17: numbers are read as doubles), so the normalized refs are [{ké: 'x'}, {n: 2**53}]; JCS writes the double "
        "2**53 as 9007199254740992 (ECMAScript Number::toString: an integer below 1e21 has no exponent, INT-01), and the "
        "member name 'ké' as is. The record is valid: no number of it is beyond the double range. score 1, excerpt "
        "'note' 1 token; used 1, remaining 99."
    ),
    clauses=["S6-HASH-01", "S6-REC-09", "S6-READ-14"],
    interpretations=["INT-01", "INT-17"],
    request=_req(),
    files={
        S: lines('{"memory_id":"n53","text":"note","refs":[{"ké":"x"},{"n":9007199254740992}]}')
    },
    expect=_pkg1(_r13, "note", 1),
)
VECTORS += [_h013]

# INT-09: a term matches inside a longer word (no word boundaries)
VECTORS = also(
    VECTORS,
    {
        "hashing-h006": ["INT-09"],
    },
)
