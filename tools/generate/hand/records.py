"""Hand vectors: record schema and every kind of invalid line (family ``records``).

Dropped memory_id of an invalid line (INT-19): the line's top-level string memory_id when the
line is a well-formed JSON object (passes INT-15, INT-17, INT-18, INT-16 last-wins) that fails
only the record schema (INT-22); "" for every other invalid line (bad UTF-8, not JSON, BOM, lone
surrogate, overflow, too deep, not an object).
"""

# ruff: noqa: E501

from __future__ import annotations

from tools.generate.hand._dsl import (
    L,
    bline,
    bud,
    drop_line,
    lines,
    ok,
    package,
    rec,
    sel,
    vec,
)

DESCRIPTION = "Hand-written: record schema (required fields, types, null; an empty memory_id is valid) and invalid lines of every kind."
S = "s.jsonl"
B100 = {"max_excerpt_tokens": 100}
REQ = {"query": "note", "store_paths": [S], "budget": B100}
_m0 = rec("m0", "note")
_M0_LINE = L(memory_id="m0", text="note")
_VALID = "Line 0 is the valid record m0 'note' -> score 1, excerpt 4 bytes -> 1 token; used 1, remaining 99. "


def _only_m0(dropped: list[dict[str, object]]) -> dict[str, object]:
    return ok(
        package("note", "note", bud(100, 1, 99, 100, 50), [sel(_m0, S, 1, "note", 1)], dropped), [S]
    )


# ---------------------------------------------------------------- records-h001
_h001 = vec(
    "records-h001",
    "Lines that are not valid UTF-8 (0xFF, overlong, encoded surrogate, 0xF5) are invalid.",
    comment=_VALID
    + (
        'Lines 1-4 are {"memory_id":"mN","text":"<bad>"} with <bad> = ff / c0 af (overlong \'/\') / ed a0 80 (UTF-8 of '
        "U+D800) / f5 80 80 80 (beyond U+10FFFF), given as base64. Not UTF-8 -> invalid_record_schema (INT-15); not parsed, "
        "so memory_id '' (INT-19); record_hash = sha256 of each line's raw bytes. dropped in line order."
    ),
    clauses=["S6-REC-01", "S6-REC-10", "S6-REC-11"],
    interpretations=["INT-15", "INT-19", "INT-28"],
    request=REQ,
    files={
        S: lines(
            _M0_LINE,
            bline(b'{"memory_id":"m1","text":"\xff"}'),
            bline(b'{"memory_id":"m2","text":"\xc0\xaf"}'),
            bline(b'{"memory_id":"m3","text":"\xed\xa0\x80"}'),
            bline(b'{"memory_id":"m4","text":"\xf5\x80\x80\x80"}'),
        )
    },
    expect=_only_m0([drop_line("", S, i) for i in (1, 2, 3, 4)]),
)

# ---------------------------------------------------------------- records-h002
_h002 = vec(
    "records-h002",
    "A line starting with a UTF-8 BOM is invalid.",
    comment=_VALID
    + (
        'Line 1 = ef bb bf + \'{"memory_id":"m1","text":"note"}\'. U+FEFF is not JSON whitespace, so the line is not one '
        "JSON text (INT-15) -> invalid_record_schema, memory_id '' (INT-19), record_hash = sha256 of the line bytes including "
        "the BOM. (Stripping the BOM would select m1.)"
    ),
    clauses=["S6-REC-01", "S6-REC-11"],
    interpretations=["INT-15", "INT-19"],
    request=REQ,
    files={S: lines(_M0_LINE, "\ufeff" + L(memory_id="m1", text="note"))},
    expect=_only_m0([drop_line("", S, 1)]),
)

# ---------------------------------------------------------------- records-h003
_h003 = vec(
    "records-h003",
    "NaN, Infinity and -Infinity are not JSON.",
    comment=_VALID
    + (
        'Lines 1-3 carry refs [{"a":NaN}], [{"a":Infinity}], [{"a":-Infinity}] -> not RFC 8259 JSON (INT-15; Python\'s json '
        "module would accept them) -> invalid_record_schema, memory_id '' (parse failed, INT-19), raw-line hashes."
    ),
    clauses=["S6-REC-01", "S6-REC-11"],
    interpretations=["INT-15", "INT-19", "INT-28"],
    request=REQ,
    files={
        S: lines(
            _M0_LINE,
            '{"memory_id":"m1","text":"note","refs":[{"a":NaN}]}',
            '{"memory_id":"m2","text":"note","refs":[{"a":Infinity}]}',
            '{"memory_id":"m3","text":"note","refs":[{"a":-Infinity}]}',
        )
    },
    expect=_only_m0([drop_line("", S, i) for i in (1, 2, 3)]),
)

# ---------------------------------------------------------------- records-h004
_h004 = vec(
    "records-h004",
    "Trailing comma, single quotes, trailing garbage, a comment, two values: not one JSON text.",
    comment=_VALID
    + (
        "Line 1 '{...,\"text\":\"note\",}' (trailing comma); line 2 single-quoted; line 3 '{...} x'; line 4 '{...} // c'; "
        "line 5 '{...}{}' -> none is exactly one RFC 8259 JSON text (INT-15) -> invalid_record_schema, memory_id '' "
        "(INT-19), raw-line hashes, in line order."
    ),
    clauses=["S6-REC-01", "S6-REC-11"],
    interpretations=["INT-15", "INT-19", "INT-28"],
    request=REQ,
    files={
        S: lines(
            _M0_LINE,
            '{"memory_id":"m1","text":"note",}',
            "{'memory_id':'m2','text':'note'}",
            '{"memory_id":"m3","text":"note"} x',
            '{"memory_id":"m4","text":"note"} // c',
            '{"memory_id":"m5","text":"note"}{}',
        )
    },
    expect=_only_m0([drop_line("", S, i) for i in (1, 2, 3, 4, 5)]),
)

# ---------------------------------------------------------------- records-h005
_h005 = vec(
    "records-h005",
    "JSON values that are not objects (array, string, number, null, true) are invalid records.",
    comment=_VALID
    + (
        "Lines 1-5: '[\"m1\",\"note\"]', '\"note\"', '42', 'null', 'true' -> valid JSON but not an object -> "
        "invalid_record_schema (REC-01: 'one JSON object'); not an object -> memory_id '' (INT-19); raw-line hashes."
    ),
    clauses=["S6-REC-01", "S6-REC-10", "S6-REC-11"],
    interpretations=["INT-15", "INT-19", "INT-28"],
    request=REQ,
    files={S: lines(_M0_LINE, '["m1","note"]', '"note"', "42", "null", "true")},
    expect=_only_m0([drop_line("", S, i) for i in (1, 2, 3, 4, 5)]),
)

# ---------------------------------------------------------------- records-h006
_h006 = vec(
    "records-h006",
    "null is not 'absent': a null field makes the record invalid.",
    comment=_VALID
    + (
        "Line 1 tags null, line 2 refs null, line 3 ts_utc null, line 4 text null, line 5 memory_id null. null has the wrong "
        "type (INT-22) -> all invalid_record_schema. memory_id: lines 1-4 are objects with string memory_id m1..m4 -> kept "
        "(INT-19); line 5's memory_id is null -> ''. Raw-line hashes, line order."
    ),
    clauses=["S6-REC-03", "S6-REC-04", "S6-REC-05", "S6-REC-07", "S6-REC-08", "S6-REC-11"],
    interpretations=["INT-19", "INT-22", "INT-28"],
    request=REQ,
    files={
        S: lines(
            _M0_LINE,
            '{"memory_id":"m1","text":"note","tags":null}',
            '{"memory_id":"m2","text":"note","refs":null}',
            '{"memory_id":"m3","text":"note","ts_utc":null}',
            '{"memory_id":"m4","text":null}',
            '{"memory_id":null,"text":"note"}',
        )
    },
    expect=_only_m0(
        [
            drop_line("m1", S, 1),
            drop_line("m2", S, 2),
            drop_line("m3", S, 3),
            drop_line("m4", S, 4),
            drop_line("", S, 5),
        ]
    ),
)

# ---------------------------------------------------------------- records-h007
_r7 = rec("m8", "note")
_h007 = vec(
    "records-h007",
    "Wrong field types make a record invalid; an unparseable ts_utc string does not.",
    comment=(
        "query 'note'. Line 0 m0 'note' valid. Invalid (INT-22): m1 text 5; m2 tags 'note' (not a list); m3 tags [1]; "
        'm4 refs [1]; m5 refs {} (not a list); m6 ts_utc 5 (not a string, INT-20); m7 refs [["a"]] (element not an '
        "object, REC-09); line 8 memory_id 5 -> memory_id '' (not a string), the others keep m1..m7 (INT-19). Line 9 m8 "
        "ts_utc 'yesterday' is a string that is not a timestamp -> record valid, no ts (INT-20). Selected: m0, m8 (score 1 "
        "each, no ts; memory_id order). Excerpts 1 token each; used 2, remaining 98."
    ),
    clauses=[
        "S6-REC-03",
        "S6-REC-04",
        "S6-REC-05",
        "S6-REC-07",
        "S6-REC-08",
        "S6-REC-09",
        "S6-REC-10",
        "S6-REC-11",
    ],
    interpretations=["INT-19", "INT-20", "INT-22", "INT-28"],
    request=REQ,
    files={
        S: lines(
            _M0_LINE,
            '{"memory_id":"m1","text":5}',
            '{"memory_id":"m2","text":"note","tags":"note"}',
            '{"memory_id":"m3","text":"note","tags":[1]}',
            '{"memory_id":"m4","text":"note","refs":[1]}',
            '{"memory_id":"m5","text":"note","refs":{}}',
            '{"memory_id":"m6","text":"note","ts_utc":5}',
            '{"memory_id":"m7","text":"note","refs":[["a"]]}',
            '{"memory_id":5,"text":"note"}',
            '{"memory_id":"m8","text":"note","ts_utc":"yesterday"}',
        )
    },
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 2, 98, 100, 50),
            [sel(_m0, S, 1, "note", 1), sel(_r7, S, 1, "note", 1)],
            [drop_line(f"m{i}", S, i) for i in range(1, 8)] + [drop_line("", S, 8)],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- records-h008
_e8 = rec("", "note")
_h008 = vec(
    "records-h008",
    "An empty memory_id string is a valid memory_id.",
    comment=(
        'query \'note\'. Line 0 m0 \'note\'; line 1 \'{"memory_id":"","text":"note"}\': memory_id is a string, '
        "which is all RECORD asks ('memory_id: string (required)', INT-22) -> a valid record. Both score 1, no ts, "
        "same store; memory_id ascending: '' < 'm0' -> '' first. Excerpts 'note' 4 bytes -> 1 token each; used 2, "
        "remaining 98; nothing dropped."
    ),
    clauses=["S6-REC-03", "S6-REC-01"],
    interpretations=["INT-22", "INT-33"],
    request=REQ,
    files={S: lines(_M0_LINE, '{"memory_id":"","text":"note"}')},
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 2, 98, 100, 50),
            [sel(_e8, S, 1, "note", 1), sel(_m0, S, 1, "note", 1)],
            [],
        ),
        [S],
    ),
)


# ---------------------------------------------------------------- records-h009
def _nest(arrays: int) -> str:
    return "[" * arrays + "]" * arrays


def _nested_list(arrays: int) -> list[object]:
    value: list[object] = []
    for _ in range(arrays - 1):
        value = [value]
    return value


_r9 = rec("d64", "note", refs=[{"a": _nested_list(61)}])
_h009 = vec(
    "records-h009",
    "Nesting depth 64 is accepted, depth 65 is invalid.",
    comment=(
        'query \'note\'. Line 0: {"memory_id":"d64","text":"note","refs":[{"a": 61 nested arrays}]}: depth = object 1 + '
        "refs array 2 + ref object 3 + 61 arrays (4..64) = 64 -> valid; its normalized refs keep the 61 nested empty arrays. "
        "Line 1 is the same with 62 arrays (memory_id 'd65') -> depth 65 > 64 -> invalid_record_schema (INT-18); the depth "
        "limit is a parse rule, so memory_id '' (INT-19), raw-line hash. d64 score 1, 1 token; used 1, remaining 99."
    ),
    clauses=["S6-REC-01", "S6-REC-08", "S6-REC-11"],
    interpretations=["INT-18", "INT-19"],
    request=REQ,
    files={
        S: lines(
            '{"memory_id":"d64","text":"note","refs":[{"a":' + _nest(61) + "}]}",
            '{"memory_id":"d65","text":"note","refs":[{"a":' + _nest(62) + "}]}",
        )
    },
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 1, 99, 100, 50),
            [sel(_r9, S, 1, "note", 1)],
            [drop_line("", S, 1)],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- records-h010
_r10 = rec("s2", "note \U0001f600")
_h010 = vec(
    "records-h010",
    "An escaped lone surrogate makes a line invalid; an escaped surrogate pair is fine.",
    comment=(
        "query 'note'. Line 0 s1 text 'a\\ud800' (escaped lone high surrogate), line 2 s3 'a\\udc00' (lone low), line 3 s4 "
        "'\\ude00\\ud83d' (pair in the wrong order): invalid (INT-15), memory_id '' (parse rule), raw-line hashes. Line 1 s2 "
        "'note \\ud83d\\ude00' is a valid pair -> text 'note 😀' (9 bytes) -> score 1, excerpt 9 bytes -> 3 tokens; its "
        "record_hash covers the decoded text. used 3, remaining 97."
    ),
    clauses=["S6-REC-01", "S6-REC-11", "S6-READ-10"],
    interpretations=["INT-01", "INT-15", "INT-19", "INT-28"],
    request=REQ,
    files={
        S: lines(
            r'{"memory_id":"s1","text":"a\ud800"}',
            r'{"memory_id":"s2","text":"note \ud83d\ude00"}',
            r'{"memory_id":"s3","text":"a\udc00"}',
            r'{"memory_id":"s4","text":"\ude00\ud83d"}',
        )
    },
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 3, 97, 100, 50),
            [sel(_r10, S, 1, "note \U0001f600", 3)],
            [drop_line("", S, 0), drop_line("", S, 2), drop_line("", S, 3)],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- records-h011
_r11 = rec("n3", "note", refs=[{"x": 1e308}])
_h011 = vec(
    "records-h011",
    "A number that overflows a double (1e400) makes the line invalid; 1e308 is fine.",
    comment=(
        'query \'note\'. Line 0 n1 refs [{"x":1e400}] and line 1 n2 refs [{"x":-1e400}]: the nearest double is +-infinity, '
        "which cannot be canonically serialized (INT-17) -> invalid_record_schema, memory_id '' (number rule is a parse "
        'rule, INT-19), raw-line hashes. Line 2 n3 refs [{"x":1e308}] is finite -> valid; JCS writes it 1e+308 in the hash '
        "preimage. n3 score 1, 1 token; used 1, remaining 99. Both invalid lines are listed in dropped, in read order "
        "(INT-28)."
    ),
    clauses=["S6-REC-11", "S6-HASH-02"],
    interpretations=["INT-01", "INT-17", "INT-19", "INT-28"],
    request=REQ,
    files={
        S: lines(
            '{"memory_id":"n1","text":"note","refs":[{"x":1e400}]}',
            '{"memory_id":"n2","text":"note","refs":[{"x":-1e400}]}',
            '{"memory_id":"n3","text":"note","refs":[{"x":1e308}]}',
        )
    },
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 1, 99, 100, 50),
            [sel(_r11, S, 1, "note", 1)],
            [drop_line("", S, 0), drop_line("", S, 1)],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- records-h012
_h012 = vec(
    "records-h012",
    "Missing text or missing memory_id makes a record invalid.",
    comment=_VALID
    + (
        "Line 1 '{\"memory_id\":\"m1\"}' lacks text (required) -> invalid, memory_id 'm1' (object with a string memory_id, "
        "INT-19). Line 2 '{\"text\":\"note\"}' lacks memory_id -> invalid, memory_id ''. Raw-line hashes, line order."
    ),
    clauses=["S6-REC-03", "S6-REC-05", "S6-REC-10", "S6-REC-11"],
    interpretations=["INT-19", "INT-28"],
    request=REQ,
    files={S: lines(_M0_LINE, '{"memory_id":"m1"}', '{"text":"note"}')},
    expect=_only_m0([drop_line("m1", S, 1), drop_line("", S, 2)]),
)

# ---------------------------------------------------------------- records-h013
_r13 = rec("m1", "")
_h013 = vec(
    "records-h013",
    "An empty text is valid: excerpt '' with 0 tokens.",
    comment=(
        "query 'note'. m1 text '' -> schema-valid ('may be empty'); score 0; excerpt '' and excerpt_tokens 0 (TRUNC-03). "
        "m0 'note' -> score 1, 1 token. Order m0, m1. used 1 + 0 = 1, remaining 99."
    ),
    clauses=["S6-REC-06", "S6-TRUNC-03", "S6-TOK-01"],
    interpretations=["INT-29"],
    request=REQ,
    files={S: lines(L(memory_id="m1", text=""), _M0_LINE)},
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 1, 99, 100, 50),
            [sel(_m0, S, 1, "note", 1), sel(_r13, S, 0, "", 0)],
            [],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- records-h014
_r14 = rec("m1", "note")
_h014 = vec(
    "records-h014",
    "Unknown record members are accepted and not part of record_hash.",
    comment=(
        'Line \'{"memory_id":"m1","text":"note","source":"chat","extra":{"deep":[1,2]}}\' -> extra members allowed '
        '(\'Minimum accepted fields\', INT-23), ignored by record_hash: preimage {"memory_id":"m1","refs":[],"tags":[],'
        '"text":"note"}. score 1, 1 token; used 1, remaining 99.'
    ),
    clauses=["S6-REC-02", "S6-HASH-01"],
    interpretations=["INT-02", "INT-23"],
    request=REQ,
    files={S: lines('{"memory_id":"m1","text":"note","source":"chat","extra":{"deep":[1,2]}}')},
    expect=ok(
        package("note", "note", bud(100, 1, 99, 100, 50), [sel(_r14, S, 1, "note", 1)], []), [S]
    ),
)

# ---------------------------------------------------------------- records-h015
_r15 = rec("m1", "note")
_h015 = vec(
    "records-h015",
    "Duplicate member names: the last occurrence wins.",
    comment=(
        'query \'note\'. Line 0 \'{"memory_id":"x","memory_id":"m1","text":5,"text":"note"}\' -> last wins (INT-16): '
        "memory_id 'm1', text 'note' -> valid, same record_hash as the plain record {m1, 'note'}; score 1, 1 token. "
        'Line 1 \'{"memory_id":"m2","text":"note","memory_id":7}\' -> memory_id 7 -> invalid; the last memory_id is not a '
        "string -> dropped memory_id '' (INT-19). used 1, remaining 99."
    ),
    clauses=["S6-REC-03", "S6-REC-11"],
    interpretations=["INT-16", "INT-19", "INT-22"],
    request=REQ,
    files={
        S: lines(
            '{"memory_id":"x","memory_id":"m1","text":5,"text":"note"}',
            '{"memory_id":"m2","text":"note","memory_id":7}',
        )
    },
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 1, 99, 100, 50),
            [sel(_r15, S, 1, "note", 1)],
            [drop_line("", S, 1)],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- records-h016
_r16b = rec("p2", "note", refs=[{"kind": "run_id", "value": "run-1"}])
_r16c = rec("p3", "note", refs=[{"kind": "run_id", "value": "run-1"}], ts="2024-01-01T00:00:00Z")
_h016 = vec(
    "records-h016",
    "SPEC-005 records: string refs are invalid; created_at_utc is not ts_utc; type/source/hash are ignored.",
    comment=(
        "query 'note'. p1 (SPEC-005 style: type, created_at_utc, refs ['run-1'], source, hash) -> refs not list[dict] -> "
        "invalid_record_schema, memory_id 'p1' (INT-24). p2 same with refs [{kind run_id, value run-1}] -> valid; "
        "created_at_utc is an unknown field, NOT read as ts_utc (INT-24); type and hash are ignored and not hashed "
        "(INT-47) -> normalized {p2, refs [{kind, value}], tags [], text 'note'}, no ts. p3 = p2 plus ts_utc equal to "
        "created_at_utc -> has ts 2024-01-01T00:00:00Z. Both score 1; ts desc with missing last -> p3, p2. "
        "1 token each; used 2, remaining 98."
    ),
    clauses=["S6-REC-09", "S6-REC-02", "S6-ORDER-02"],
    interpretations=["INT-19", "INT-21", "INT-23", "INT-24", "INT-47"],
    request=REQ,
    files={
        S: lines(
            '{"memory_id":"p1","type":"episodic","created_at_utc":"2024-01-01T00:00:00Z","text":"note","refs":["run-1"],"source":"chat","hash":"0000"}',
            '{"memory_id":"p2","type":"episodic","created_at_utc":"2024-01-01T00:00:00Z","text":"note","refs":[{"kind":"run_id","value":"run-1"}],"hash":"0000"}',
            '{"memory_id":"p3","type":"episodic","created_at_utc":"2024-01-01T00:00:00Z","ts_utc":"2024-01-01T00:00:00Z","text":"note","refs":[{"kind":"run_id","value":"run-1"}],"hash":"0000"}',
        )
    },
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 2, 98, 100, 50),
            [sel(_r16c, S, 1, "note", 1), sel(_r16b, S, 1, "note", 1)],
            [drop_line("p1", S, 0)],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- records-h017
_r17 = rec("m1", "note")
_h017 = vec(
    "records-h017",
    "JSON whitespace around the object is allowed.",
    comment=(
        'Line = SPACE TAB \'{"memory_id":"m1","text":"note"}\' SPACE SPACE: one JSON text with insignificant whitespace '
        "(RFC 8259; INT-15) and not blank (INT-14) -> valid record. score 1, 1 token; used 1, remaining 99."
    ),
    clauses=["S6-REC-01"],
    interpretations=["INT-14", "INT-15"],
    request=REQ,
    files={S: lines(' \t{"memory_id":"m1","text":"note"}  ')},
    expect=ok(
        package("note", "note", bud(100, 1, 99, 100, 50), [sel(_r17, S, 1, "note", 1)], []), [S]
    ),
)


# ---------------------------------------------------------------- records-h018
def _nested_objects(wraps: int) -> dict[str, object]:
    value: dict[str, object] = {}
    for _ in range(wraps):
        value = {"a": value}
    return value


def _obj_line(memory_id: str, wraps: int) -> str:
    return (
        '{"memory_id":"'
        + memory_id
        + '","text":"note","refs":[{"a":'
        + '{"a":' * wraps
        + "{}"
        + "}" * wraps
        + "}]}"
    )


_r18 = rec("o64", "note", refs=[{"a": _nested_objects(60)}])
_h018 = vec(
    "records-h018",
    "Nesting depth counts objects too: 64 levels accepted, 65 invalid.",
    comment=(
        "query 'note'. Line 0 o64: top object (depth 1) > refs array (2) > ref object (3) > 'a': 60 objects {\"a\": ...} "
        "(depths 4..63) > innermost {} (64) -> depth 64 -> valid; normalized refs keep the chain. Line 1 o65 has one more "
        "object level -> depth 65 > 64 -> invalid_record_schema (INT-18), memory_id '' (parse rule, INT-19), raw-line hash. "
        "o64 score 1, 1 token; used 1, remaining 99."
    ),
    clauses=["S6-REC-01", "S6-REC-09", "S6-REC-11"],
    interpretations=["INT-18", "INT-19"],
    request=REQ,
    files={S: lines(_obj_line("o64", 60), _obj_line("o65", 61))},
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 1, 99, 100, 50),
            [sel(_r18, S, 1, "note", 1)],
            [drop_line("", S, 1)],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- records-h019
_r19a = rec("c1", "note")
_r19b = rec("c2", "note", ts="2024-01-01T00:00:00Z")
_h019 = vec(
    "records-h019",
    "created_at_utc gives no recency; a non-string SPEC-005 'hash' member is ignored.",
    comment=(
        "Recency on (half-life 30), now 2024-01-01T00:00:00Z, query 'note'. c1 has created_at_utc 2024-01-01T00:00:00Z, no "
        "ts_utc, type 'episodic' and hash 12345 (a number): SPEC-006 ignores all three (INT-24, INT-47) -> valid, no ts -> no "
        "bonus -> score 1 (reading created_at_utc as ts would give 2). c2 has ts_utc 2024-01-01T00:00:00Z -> age 0 -> "
        "weight 1 -> score 2. Order c2, c1. 1 token each; used 2, remaining 98."
    ),
    clauses=["S6-REC-02", "S6-SCORE-13", "S6-READ-09"],
    interpretations=["INT-21", "INT-23", "INT-24", "INT-47"],
    request={
        "query": "note",
        "store_paths": [S],
        "budget": B100,
        "scoring": {"enable_recency_weight": True},
        "now_utc": "2024-01-01T00:00:00Z",
    },
    files={
        S: lines(
            '{"memory_id":"c1","type":"episodic","created_at_utc":"2024-01-01T00:00:00Z","text":"note","hash":12345}',
            '{"memory_id":"c2","ts_utc":"2024-01-01T00:00:00Z","text":"note"}',
        )
    },
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 2, 98, 100, 50),
            [sel(_r19b, S, 2, "note", 1), sel(_r19a, S, 1, "note", 1)],
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
    _h015,
    _h016,
    _h017,
    _h018,
    _h019,
]

# ---------------------------------------------------------------- records-h020
_r20 = rec("m3", "note")
_h020 = vec(
    "records-h020",
    "A duplicate member overwritten later is still checked: a lone surrogate or 1e400 in it invalidates the line.",
    comment=(
        'query \'note\'. Line 0 \'{"memory_id":"m1","text":"a\\ud800","text":"note"}\': the first text holds an escaped '
        "lone surrogate; the line is judged as text before last-wins (INT-16, INT-15) -> invalid, memory_id '' (INT-19). "
        'Line 1 \'{"memory_id":"m2","refs":[{"x":1e400}],"refs":[],"text":"note"}\': the overwritten refs hold 1e400 '
        '(INT-17) -> invalid, memory_id \'\'. Line 2 \'{"memory_id":"m3","text":5,"text":"note"}\': the overwritten 5 is a '
        "fine JSON value; after last-wins text is 'note' -> valid, same record_hash as {m3, 'note'}; score 1, 1 token. "
        "used 1, remaining 99. Both invalid lines are listed in dropped, in read order (INT-28)."
    ),
    clauses=["S6-REC-01", "S6-REC-11"],
    interpretations=["INT-15", "INT-16", "INT-17", "INT-19", "INT-28"],
    request=REQ,
    files={
        S: lines(
            r'{"memory_id":"m1","text":"a\ud800","text":"note"}',
            '{"memory_id":"m2","refs":[{"x":1e400}],"refs":[],"text":"note"}',
            '{"memory_id":"m3","text":5,"text":"note"}',
        )
    },
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 1, 99, 100, 50),
            [sel(_r20, S, 1, "note", 1)],
            [drop_line("", S, 0), drop_line("", S, 1)],
        ),
        [S],
    ),
)

VECTORS += [_h020]
