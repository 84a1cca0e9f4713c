"""Hand vectors: line splitting, blank lines, CRLF, read order, candidate fields (family ``reader``)."""

# ruff: noqa: E501

from __future__ import annotations

from tools.generate.hand._dsl import (
    LHRAW,
    L,
    bud,
    drop_line,
    lines,
    ok,
    package,
    rec,
    sel,
    text_file,
    vec,
)

DESCRIPTION = "Hand-written: blank lines, CRLF, missing final newline, read order within and across stores, candidate fields."
S = "s.jsonl"
B100 = {"max_excerpt_tokens": 100}


def _req(stores: list[str] | None = None, query: str = "note") -> dict[str, object]:
    return {"query": query, "store_paths": stores or [S], "budget": B100}


_m1 = rec("m1", "note")
_m2 = rec("m2", "note")

# ---------------------------------------------------------------- reader-h001
_h001 = vec(
    "reader-h001",
    "Empty and JSON-whitespace-only lines are skipped silently.",
    comment=(
        "Lines: '' / m1 / '   ' / TAB / m2. Lines that are empty or only 0x20, 0x09, 0x0D are not records and appear nowhere "
        "(INT-14). Candidates m1, m2 ('note' -> score 1 each); tie -> memory_id -> m1, m2. dropped is empty. "
        "Excerpts 1 token each; used 2, remaining 98."
    ),
    clauses=["S6-REC-01", "S6-READ-06", "S6-OUT-16"],
    interpretations=["INT-14", "INT-28"],
    request=_req(),
    files={
        S: lines("", L(memory_id="m1", text="note"), "   ", "\t", L(memory_id="m2", text="note"))
    },
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 2, 98, 100, 50),
            [sel(_m1, S, 1, "note", 1), sel(_m2, S, 1, "note", 1)],
            [],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- reader-h002
_r2b = rec("m2", "other")
_h002 = vec(
    "reader-h002",
    "CRLF line endings: the CR is removed; records read normally.",
    comment=(
        "File = m1-line CR LF m2-line CR LF (eol '\\r\\n'). Split on LF, one CR before LF removed (INT-14). m1 'note' -> 1, "
        "m2 'other' -> 0. Order m1, m2. Texts carry no CR. Excerpts 'note' 1 token, 'other' 5 bytes -> 2. used 3, remaining 97."
    ),
    clauses=["S6-REC-01", "S6-READ-06"],
    interpretations=["INT-14", "INT-29"],
    request=_req(),
    files={S: lines(L(memory_id="m1", text="note"), L(memory_id="m2", text="other"), eol="\r\n")},
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 3, 97, 100, 50),
            [sel(_m1, S, 1, "note", 1), sel(_r2b, S, 0, "other", 2)],
            [],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- reader-h003
_h003 = vec(
    "reader-h003",
    "A final line without a newline is still a line.",
    comment=(
        "File = m1-line LF m2-line (no final LF). The final line is a line (INT-14) -> candidates m1, m2, score 1 each, "
        "order m1, m2. Excerpts 1 token each; used 2, remaining 98."
    ),
    clauses=["S6-REC-01", "S6-READ-06"],
    interpretations=["INT-14"],
    request=_req(),
    files={
        S: lines(L(memory_id="m1", text="note"), L(memory_id="m2", text="note"), final_eol=False)
    },
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 2, 98, 100, 50),
            [sel(_m1, S, 1, "note", 1), sel(_m2, S, 1, "note", 1)],
            [],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- reader-h004
_m3 = rec("m3", "note")
_h004 = vec(
    "reader-h004",
    "CRLF file with an invalid line: its raw-line hash excludes the CR.",
    comment=(
        "eol CR LF. Line 1 '{\"memory_id\":\"m2\"}' has no text -> invalid_record_schema (INT-22); dropped memory_id 'm2' "
        '(a JSON object with a string memory_id, INT-19); record_hash = sha256 of the 18 bytes \'{"memory_id":"m2"}\' without '
        "CR LF (INT-14, INT-19). m1, m3 'note' -> score 1 each, order m1, m3. Excerpts 1 token each; used 2, remaining 98."
    ),
    clauses=["S6-REC-10", "S6-REC-11", "S6-REC-05"],
    interpretations=["INT-14", "INT-19", "INT-22"],
    request=_req(),
    files={
        S: lines(
            L(memory_id="m1", text="note"),
            '{"memory_id":"m2"}',
            L(memory_id="m3", text="note"),
            eol="\r\n",
        )
    },
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 2, 98, 100, 50),
            [sel(_m1, S, 1, "note", 1), sel(_m3, S, 1, "note", 1)],
            [drop_line("m2", S, 1)],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- reader-h005
_a2 = rec("a2", "note")
_b2 = rec("b2", "note")
_h005 = vec(
    "reader-h005",
    "Stores are read in sorted order and lines in file order: dropped lists a1, a0, b1.",
    comment=(
        "store_paths ['b.jsonl', 'a.jsonl'] -> sorted ['a.jsonl', 'b.jsonl']. a.jsonl lines: {a1 no text} / a2 'note' / "
        "{a0 no text}; b.jsonl: {b1 no text} / b2 'note'. Invalid lines (INT-22) are dropped in read order (INT-28): a1, a0 "
        "(file order, not memory_id order), then b1; memory_ids from the objects (INT-19), hashes of the raw lines. "
        "Selected: a2, b2 (score 1 each; tie -> store_path a.jsonl first). Excerpts 1 token each; used 2, remaining 98. "
        "Receipt store_paths sorted (INT-43)."
    ),
    clauses=["S6-READ-05", "S6-READ-06", "S6-REC-11", "S6-ORDER-03"],
    interpretations=["INT-19", "INT-22", "INT-28", "INT-43"],
    request=_req(["b.jsonl", "a.jsonl"]),
    files={
        "a.jsonl": lines(
            '{"memory_id":"a1"}', L(memory_id="a2", text="note"), '{"memory_id":"a0"}'
        ),
        "b.jsonl": lines('{"memory_id":"b1"}', L(memory_id="b2", text="note")),
    },
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 2, 98, 100, 50),
            [sel(_a2, "a.jsonl", 1, "note", 1), sel(_b2, "b.jsonl", 1, "note", 1)],
            [
                drop_line("a1", "a.jsonl", 0),
                drop_line("a0", "a.jsonl", 2),
                drop_line("b1", "b.jsonl", 0),
            ],
        ),
        ["a.jsonl", "b.jsonl"],
    ),
)

# ---------------------------------------------------------------- reader-h006
_h006 = vec(
    "reader-h006",
    "Lines holding only U+00A0 or FF are not blank: they are invalid records.",
    comment=(
        "Line 1 is U+00A0 (c2 a0) and line 2 is FORM FEED (0c): neither is a JSON whitespace byte (0x20 0x09 0x0D), so the "
        "lines are not blank (INT-14) and are not JSON -> invalid_record_schema (INT-15), memory_id '' (not an object, "
        "INT-19), record_hash = sha256(c2 a0) and sha256(0c). m1 'note' selected, score 1, 1 token. used 1, remaining 99."
    ),
    clauses=["S6-REC-01", "S6-REC-11"],
    interpretations=["INT-14", "INT-15", "INT-19", "INT-28"],
    request=_req(),
    files={S: lines(L(memory_id="m1", text="note"), "\u00a0", "\u000c")},
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 1, 99, 100, 50),
            [sel(_m1, S, 1, "note", 1)],
            [drop_line("", S, 1), drop_line("", S, 2)],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- reader-h007
_h007 = vec(
    "reader-h007",
    "An empty store gives an empty selection and a full budget.",
    comment=(
        "s.jsonl is 0 bytes -> no lines, no candidates. selected [] and dropped [] are present as empty lists. used 0, "
        "remaining 100 - 0 = 100. Receipt selected_count 0."
    ),
    clauses=["S6-OUT-09", "S6-OUT-16", "S6-TOK-02", "S6-TOK-03"],
    request=_req(),
    files={S: lines()},
    expect=ok(package("note", "note", bud(100, 0, 100, 100, 50), [], []), [S]),
)

# ---------------------------------------------------------------- reader-h008
_h008 = vec(
    "reader-h008",
    "A store of only blank lines (LF, CRLF, spaces) has no records.",
    comment=(
        "Content LF / CR LF / '  ' LF / TAB CR LF: every line is empty or JSON whitespace after removing the CR (INT-14) -> no "
        "records, nothing in selected or dropped. used 0, remaining 100."
    ),
    clauses=["S6-REC-01", "S6-OUT-09"],
    interpretations=["INT-14"],
    request=_req(),
    files={S: text_file("\n\r\n  \n\t\r\n")},
    expect=ok(package("note", "note", bud(100, 0, 100, 100, 50), [], []), [S]),
)

# ---------------------------------------------------------------- reader-h009
_h009 = vec(
    "reader-h009",
    "A CR at the very end of the file (no LF) is removed from the last line.",
    comment=(
        'Content: \'{"memory_id":"m1","text":"note"}\' LF \'{"memory_id":"m2"}\' CR (end of file). The final CR is '
        "removed (INT-14), so the last line is '{\"memory_id\":\"m2\"}' (no text -> invalid_record_schema, memory_id 'm2') "
        "and its record_hash = sha256 of those 18 bytes without the CR (INT-19). m1 selected, score 1, 1 token. used 1, remaining 99."
    ),
    clauses=["S6-REC-11", "S6-REC-05"],
    interpretations=["INT-14", "INT-19", "INT-22"],
    request=_req(),
    files={S: text_file('{"memory_id":"m1","text":"note"}\n{"memory_id":"m2"}\r')},
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 1, 99, 100, 50),
            [sel(_m1, S, 1, "note", 1)],
            [
                {
                    "memory_id": "m2",
                    "record_hash": LHRAW('{"memory_id":"m2"}'),
                    "store_path": S,
                    "reason": "invalid_record_schema",
                }
            ],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- reader-h010
_r10one = rec("m1", "note one")
_r10two = rec("m1", "note two")
_h010 = vec(
    "reader-h010",
    "Duplicate memory_ids within and across stores are separate candidates.",
    comment=(
        "a.jsonl: {m1 'note two'}, {m1 'note one'}; b.jsonl: {m1 'note one'}. Three candidates (INT-23), all score 1, no ts. "
        "Order: store_path a.jsonl first; within a.jsonl memory_id ties -> record_hash: 'note one' -> 7eab8b20288f... < "
        "'note two' -> ad597e67350c... -> note one, note two; then b.jsonl's 'note one' (same record_hash as a.jsonl's, "
        "INT-02). Excerpts 8 bytes -> 2 tokens each; used 6, remaining 94."
    ),
    clauses=["S6-ORDER-03", "S6-ORDER-05", "S6-READ-07", "S6-OUT-24"],
    interpretations=["INT-02", "INT-23"],
    request=_req(["a.jsonl", "b.jsonl"]),
    files={
        "a.jsonl": lines(L(memory_id="m1", text="note two"), L(memory_id="m1", text="note one")),
        "b.jsonl": lines(L(memory_id="m1", text="note one")),
    },
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 6, 94, 100, 50),
            [
                sel(_r10one, "a.jsonl", 1, "note one", 2),
                sel(_r10two, "a.jsonl", 1, "note two", 2),
                sel(_r10one, "b.jsonl", 1, "note one", 2),
            ],
            [],
        ),
        ["a.jsonl", "b.jsonl"],
    ),
)

# ---------------------------------------------------------------- reader-h011
_r11a = rec("m1", "note")
_r11b = rec("m2", "note", refs=[{"kind": "run_id", "value": "r1"}])
_h011 = vec(
    "reader-h011",
    "refs absent normalizes to []; present refs (list of objects) are kept in record_hash.",
    comment=(
        'm1 has no refs -> normalized refs [] (READ-13); m2 refs [{"kind":"run_id","value":"r1"}] -> kept as is. '
        'Preimages: {"memory_id":"m1","refs":[],"tags":[],"text":"note"} and '
        '{"memory_id":"m2","refs":[{"kind":"run_id","value":"r1"}],"tags":[],"text":"note"}. '
        "Both score 1; order m1, m2. 1 token each; used 2, remaining 98."
    ),
    clauses=["S6-READ-13", "S6-REC-08", "S6-REC-09", "S6-HASH-01"],
    interpretations=["INT-02"],
    request=_req(),
    files={
        S: lines(
            L(memory_id="m1", text="note"),
            L(memory_id="m2", text="note", refs=[{"kind": "run_id", "value": "r1"}]),
        )
    },
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 2, 98, 100, 50),
            [sel(_r11a, S, 1, "note", 1), sel(_r11b, S, 1, "note", 1)],
            [],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- reader-h012
_r12 = rec("mémoire-1", "note")
_h012 = vec(
    "reader-h012",
    "A store in a nested relative directory; non-ASCII memory_id carried as read.",
    comment=(
        "store 'stores/deep/s.jsonl' (already normalized) appears as store_path verbatim (INT-45: relative, never absolutized). "
        "memory_id 'mémoire-1' is output as read. score 1, 1 token; used 1, remaining 99."
    ),
    clauses=["S6-READ-07", "S6-READ-08", "S6-READ-10", "S6-INPUT-02"],
    interpretations=["INT-01", "INT-45"],
    request=_req(["stores/deep/s.jsonl"]),
    files={"stores/deep/s.jsonl": lines(L(memory_id="mémoire-1", text="note"))},
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 1, 99, 100, 50),
            [sel(_r12, "stores/deep/s.jsonl", 1, "note", 1)],
            [],
        ),
        ["stores/deep/s.jsonl"],
    ),
)

# ---------------------------------------------------------------- reader-h013
#: INT-18: a line longer than this (without its LF) is invalid whatever it holds.
_LIMIT = 1_048_576
_HEAD, _TAIL = '{"memory_id":"big","text":"', '"}'  # 27 and 2 bytes
_BIG = _HEAD + "a" * (_LIMIT + 1 - len(_HEAD) - len(_TAIL)) + _TAIL
assert len(_BIG.encode("utf-8")) == _LIMIT + 1
_h013 = vec(
    "reader-h013",
    "A record line one byte over the 1 MiB line limit is invalid, whatever it holds.",
    comment=(
        'Line 1 is \'{"memory_id":"big","text":"\' (27 bytes) + 1,048,548 \'a\' + \'"}\' (2 bytes) = 1,048,577 bytes '
        "without its LF: one byte over INT-18's limit of 1,048,576 -> invalid_record_schema although it is a valid "
        "record, memory_id '' (INT-18), record_hash = sha256 of its 1,048,577 bytes (INT-19). m1 'note' -> score 1, "
        "excerpt 'note', 1 token; used 1, remaining 99. No length limit would select or drop 'big' as a record; "
        "truncating reads its first 1,048,576 bytes (no closing '}': invalid, another hash); failing gives "
        "store_not_readable."
    ),
    clauses=["S6-REC-11", "S6-READ-02"],
    interpretations=["INT-18", "INT-19"],
    request=_req(),
    files={S: lines(_BIG, L(memory_id="m1", text="note"))},
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 1, 99, 100, 50),
            [sel(_m1, S, 1, "note", 1)],
            [drop_line("", S, 0)],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- reader-h014
#: INT-18/go-bufio-scanner: Go's bufio.Scanner stops (ErrTooLong) on a line this long.
_GO_TOKEN = 65_536
_TEXT = "note " + "a" * (_GO_TOKEN - len(_HEAD) - len(_TAIL) - 5)
_SCANNER = _HEAD + _TEXT + _TAIL
assert len(_SCANNER.encode("utf-8")) == _GO_TOKEN
_h014 = vec(
    "reader-h014",
    "A record line of 65,536 bytes, far below the 1 MiB limit, is an ordinary record.",
    comment=(
        "Line 2 is '{\"memory_id\":\"big\",\"text\":\"' (27 bytes) + 'note ' + 65,502 'a' + '\"}' (2 bytes) = 65,536 "
        "bytes: under INT-18's 1,048,576 a valid record. m1 'note' and big 'note aaa...' -> score 1 each; tie -> "
        "memory_id -> big, m1. per_item_max_excerpt_tokens 50: big's excerpt is the stripped text cut at 50 * 4 = 200 bytes = 'note ' + 195 'a', 50 tokens; "
        "m1's 'note', 1 token; used 51, remaining 49. Go's bufio.Scanner (default buffer, MaxScanTokenSize 65,536) "
        "stops on this line with ErrTooLong: the obvious Go reader returns scanner.Err(), store_not_readable at "
        "/store_paths/0 (INT-18/go-bufio-scanner)."
    ),
    clauses=["S6-REC-11", "S6-READ-02"],
    interpretations=["INT-18"],
    request={
        "query": "note",
        "store_paths": [S],
        "budget": {"max_excerpt_tokens": 100, "per_item_max_excerpt_tokens": 50},
    },
    files={S: lines(L(memory_id="m1", text="note"), _SCANNER)},
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 51, 49, 50, 50),
            [sel(rec("big", _TEXT), S, 1, "note " + "a" * 195, 50), sel(_m1, S, 1, "note", 1)],
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
]
