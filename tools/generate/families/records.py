"""Invalid records (INT-14..INT-19, INT-22): every kind of line that is not a valid record, each
between two valid records ("m0" first, "m9" last), with the INT-19 dropped entry as the intent:
memory_id (the string member of a well-formed object that only fails the record schema, else
"") and record_hash = SHA-256 of the raw line bytes without the terminator (LF, and the CR of a
CRLF). Also the lines that ARE valid although they look odd (depth 64, a paired surrogate
escape, 1e308, JSON whitespace around the object, duplicate members resolved last-wins), and the
lines that are not records at all (blank and whitespace-only lines), which appear nowhere.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator

from tools.generate.families._case import (
    Case,
    Json,
    dropped_reasons,
    line,
    make_request,
    raw_line,
    store,
)

__all__ = ["DESCRIPTION", "cases"]

DESCRIPTION = (
    "Generated: every invalid-record kind with its INT-19 dropped entry; blank lines; CRLF."
)

_FIRST = line("m0", "ok first")
_LAST = line("m9", "ok last")
VALID = None


def _nest(depth: int) -> str:
    return "[" * depth + "]" * depth


def _t(inner: str) -> str:
    """A record line m5 with ``inner`` spliced in after the text member."""
    return '{"memory_id":"m5","text":"a"' + inner + "}"


def _bad_utf8(data: bytes) -> bytes:
    return b'{"memory_id":"m5","text":"a' + data + b'b"}'


#: (slug, line, memory_id of the dropped entry or VALID, interpretations, what)
Row = tuple[str, str | bytes, str | None, tuple[str, ...], str]

ENCODING: tuple[Row, ...] = (
    *(
        (f"utf8-{slug}", _bad_utf8(data), "", ("INT-15", "INT-19"), f"invalid UTF-8: {what}")
        for slug, data, what in (
            ("overlong-c0af", b"\xc0\xaf", "overlong 2-byte '/'"),
            ("overlong-c1bf", b"\xc1\xbf", "overlong 2-byte U+007F"),
            ("overlong-e080af", b"\xe0\x80\xaf", "overlong 3-byte '/'"),
            ("overlong-f08080af", b"\xf0\x80\x80\xaf", "overlong 4-byte '/'"),
            ("surrogate-eda080", b"\xed\xa0\x80", "UTF-8-encoded U+D800"),
            ("surrogate-edbfbf", b"\xed\xbf\xbf", "UTF-8-encoded U+DFFF"),
            ("cesu8-pair", b"\xed\xa0\xbd\xed\xb8\x80", "CESU-8 surrogate pair for U+1F600"),
            ("byte-f5", b"\xf5\x80\x80\x80", "lead byte F5"),
            ("byte-f8", b"\xf8\x88\x80\x80\x80", "lead byte F8 (5-byte form)"),
            ("byte-fc", b"\xfc\x84\x80\x80\x80\x80", "lead byte FC (6-byte form)"),
            ("byte-fe", b"\xfe", "byte FE"),
            ("byte-ff", b"\xff", "byte FF"),
            ("above-10ffff", b"\xf4\x90\x80\x80", "a code point above U+10FFFF"),
            ("lone-continuation", b"\x80", "a lone continuation byte"),
            ("truncated-2", b"\xc3", "a truncated 2-byte sequence"),
            ("truncated-3", b"\xe2\x82", "a truncated 3-byte sequence"),
            ("truncated-4", b"\xf0\x9f\x98", "a truncated 4-byte sequence"),
            ("latin1", b"\xe9", "a Latin-1 byte"),
        )
    ),
    (
        "utf8-in-key",
        b'{"memory_id":"m5","te\xffxt":"a"}',
        "",
        ("INT-15", "INT-19"),
        "invalid UTF-8 in a key",
    ),
    (
        "utf8-in-id",
        b'{"memory_id":"m\xff","text":"a"}',
        "",
        ("INT-15", "INT-19"),
        "invalid UTF-8 in memory_id",
    ),
    (
        "utf8-after",
        b'{"memory_id":"m5","text":"a"}\xff',
        "",
        ("INT-15", "INT-19"),
        "invalid UTF-8 after the object",
    ),
    (
        "bom",
        b'\xef\xbb\xbf{"memory_id":"m5","text":"a"}',
        "",
        ("INT-15", "INT-19"),
        "a UTF-8 BOM before the object",
    ),
    (
        "bom-inside",
        b'{"memory_id":"m5",\xef\xbb\xbf"text":"a"}',
        "",
        ("INT-15", "INT-19"),
        "U+FEFF between members",
    ),
)


def _syntax_labels(slug: str) -> tuple[str, ...]:
    """INT-18 for the nesting rows; INT-17 for the overflow rows (JavaScript reads 1e400 as
    Infinity); INT-14 for a raw CR (a CR alone may end a line)."""
    return (
        "INT-15",
        *(("INT-17",) if slug.startswith("overflow") else ()),
        "INT-19",
        *(("INT-18",) if "depth" in slug else ()),
        *(("INT-14",) if slug == "raw-cr" else ()),
    )


SYNTAX: tuple[Row, ...] = tuple(
    (slug, text, "", _syntax_labels(slug), what)
    for slug, text, what in (
        ("nan", _t(',"x":NaN'), "NaN"),
        ("infinity", _t(',"x":Infinity'), "Infinity"),
        ("minus-infinity", _t(',"x":-Infinity'), "-Infinity"),
        ("nan-in-refs", '{"memory_id":"m5","text":"a","refs":[{"v":NaN}]}', "NaN inside refs"),
        ("trailing-comma", _t(","), "a trailing comma in the object"),
        (
            "trailing-comma-array",
            '{"memory_id":"m5","text":"a","tags":["x",]}',
            "a trailing comma in an array",
        ),
        ("comment-line", _t("") + " // note", "a // comment"),
        ("comment-block", '{"memory_id":"m5",/* c */"text":"a"}', "a /* */ comment"),
        ("comment-hash", "# " + _t(""), "a # comment"),
        ("single-quotes", "{'memory_id':'m5','text':'a'}", "single-quoted strings"),
        ("unquoted-keys", '{memory_id:"m5",text:"a"}', "unquoted member names"),
        ("trailing-garbage", _t("") + " x", "garbage after the object"),
        ("two-objects", _t("") + _t(""), "two objects on one line"),
        ("trailing-comma-line", _t("") + ",", "a comma after the object"),
        ("trailing-bracket", _t("") + "]", "a bracket after the object"),
        ("leading-garbage", "x" + _t(""), "garbage before the object"),
        ("hex-number", _t(',"x":0x10'), "a hex number"),
        ("leading-zero", _t(',"x":01'), "a number with a leading zero"),
        ("plus-sign", _t(',"x":+1'), "a number with a plus sign"),
        ("bare-fraction", _t(',"x":.5'), "a number without an integer part"),
        ("bare-point", _t(',"x":1.'), "a number ending in a point"),
        ("raw-tab", '{"memory_id":"m5","text":"a\tb"}', "a raw TAB inside a string"),
        ("raw-control", '{"memory_id":"m5","text":"a\u0001b"}', "a raw U+0001 inside a string"),
        ("raw-cr", '{"memory_id":"m5","text":"a\rb"}', "a raw CR inside a string"),
        ("bad-escape", '{"memory_id":"m5","text":"a\\xb"}', "an invalid escape \\x"),
        ("short-unicode-escape", '{"memory_id":"m5","text":"a\\u12"}', "a short \\u escape"),
        ("upper-u-escape", '{"memory_id":"m5","text":"\\U0041"}', "\\U is not an escape"),
        ("unterminated", '{"memory_id":"m5","text":"a', "an unterminated string"),
        ("unclosed", '{"memory_id":"m5","text":"a"', "an unclosed object"),
        ("empty-object-comma", "{,}", "a lone comma"),
        ("nbsp-line", "\u00a0", "a line of U+00A0 (not JSON whitespace)"),
        ("formfeed-line", "\u000c", "a line of FORM FEED (not JSON whitespace)"),
        ("vt-line", "\u000b", "a line of LINE TABULATION"),
        ("ideographic-line", "\u3000", "a line of U+3000"),
        ("nbsp-before", "\u00a0" + _t(""), "U+00A0 before the object"),
        (
            "lone-surrogate-text",
            '{"memory_id":"m5","text":"\\ud800"}',
            "an escaped lone high surrogate",
        ),
        (
            "lone-low-surrogate",
            '{"memory_id":"m5","text":"x\\udc00"}',
            "an escaped lone low surrogate",
        ),
        (
            "reversed-pair",
            '{"memory_id":"m5","text":"\\ude00\\ud83d"}',
            "a reversed surrogate pair",
        ),
        (
            "high-then-letter",
            '{"memory_id":"m5","text":"\\ud83dx"}',
            "a high surrogate before a letter",
        ),
        (
            "surrogate-in-key",
            '{"memory_id":"m5","text":"a","\\udc00":1}',
            "a lone surrogate in a member name",
        ),
        ("surrogate-in-unknown", _t(',"x":["\\ud800"]'), "a lone surrogate in an unknown member"),
        ("surrogate-in-id", '{"memory_id":"\\ud800","text":"a"}', "a lone surrogate in memory_id"),
        (
            "surrogate-in-tag",
            '{"memory_id":"m5","text":"a","tags":["\\udbff"]}',
            "a lone surrogate in a tag",
        ),
        (
            "surrogate-overwritten",
            '{"memory_id":"m5","text":"\\ud800","text":"ok"}',
            "a lone surrogate in an overwritten duplicate",
        ),
        ("overflow", _t(',"x":1e400'), "1e400 rounds to infinity"),
        ("overflow-negative", _t(',"x":-1e400'), "-1e400"),
        (
            "overflow-in-refs",
            '{"memory_id":"m5","text":"a","refs":[{"v":1e400}]}',
            "1e400 inside refs",
        ),
        ("overflow-overwritten", _t(',"x":1e400,"x":1'), "1e400 in an overwritten duplicate"),
        ("overflow-digits", _t(',"x":' + "9" * 400), "a 400-digit integer rounds to infinity"),
        (
            "depth-65-refs",
            '{"memory_id":"m5","text":"a","refs":[{"x":' + _nest(62) + "}]}",
            "nesting depth 65 inside refs",
        ),
        ("depth-65-unknown", _t(',"x":' + _nest(64)), "nesting depth 65 in an unknown member"),
        (
            "depth-65-overwritten",
            _t(',"x":' + _nest(64) + ',"x":1'),
            "depth 65 in an overwritten duplicate",
        ),
        (
            "depth-65-refs-overwritten",
            '{"memory_id":"m5","refs":[' + _nest(63) + '],"refs":[],"text":"a"}',
            "depth 65 in overwritten refs",
        ),
        ("depth-200", _t(',"x":' + _nest(199)), "nesting depth 200"),
    )
)

SHAPES: tuple[Row, ...] = tuple(
    (slug, text, "", ("INT-15", "INT-19"), what)
    for slug, text, what in (
        ("top-array", "[]", "an array"),
        ("top-array-of-record", "[" + _t("") + "]", "an array holding a record"),
        ("top-string", '"m5"', "a string"),
        ("top-number", "1", "a number"),
        ("top-null", "null", "null"),
        ("top-true", "true", "true"),
        ("top-false", "false", "false"),
    )
)


def _schema(slug: str, text: str, memory_id: str, what: str, more: tuple[str, ...] = ()) -> Row:
    duplicates = ("INT-16",) if slug.startswith("dup-") else ()  # which duplicate wins
    return (slug, text, memory_id, ("INT-22", "INT-19", *duplicates, *more), what)


SCHEMA: tuple[Row, ...] = (
    _schema("id-null", '{"memory_id":null,"text":"a"}', "", "memory_id null"),
    _schema("id-number", '{"memory_id":5,"text":"a"}', "", "memory_id a number"),
    _schema("id-true", '{"memory_id":true,"text":"a"}', "", "memory_id a bool"),
    _schema("id-array", '{"memory_id":["m5"],"text":"a"}', "", "memory_id an array"),
    _schema("id-object", '{"memory_id":{},"text":"a"}', "", "memory_id an object"),
    _schema("id-missing", '{"text":"a"}', "", "memory_id missing"),
    _schema("empty-object", "{}", "", "an empty object"),
    _schema("text-null", '{"memory_id":"m5","text":null}', "m5", "text null"),
    _schema("text-number", '{"memory_id":"m5","text":1}', "m5", "text a number"),
    _schema("text-array", '{"memory_id":"m5","text":["a"]}', "m5", "text an array"),
    _schema("text-object", '{"memory_id":"m5","text":{}}', "m5", "text an object"),
    _schema("text-bool", '{"memory_id":"m5","text":false}', "m5", "text a bool"),
    _schema("text-missing", '{"memory_id":"m5"}', "m5", "text missing"),
    _schema("tags-string", _t(',"tags":"a"'), "m5", "tags a string"),
    _schema("tags-null", _t(',"tags":null'), "m5", "tags null"),
    _schema("tags-object", _t(',"tags":{}'), "m5", "tags an object"),
    _schema("tags-number-element", _t(',"tags":[1]'), "m5", "a number in tags"),
    _schema("tags-null-element", _t(',"tags":[null]'), "m5", "null in tags"),
    _schema("tags-array-element", _t(',"tags":[["a"]]'), "m5", "an array in tags"),
    _schema("tags-bool-element", _t(',"tags":[true]'), "m5", "a bool in tags"),
    _schema("tags-mixed", _t(',"tags":["a",1]'), "m5", "a string then a number in tags"),
    _schema("refs-object", _t(',"refs":{}'), "m5", "refs an object"),
    _schema("refs-null", _t(',"refs":null'), "m5", "refs null"),
    _schema("refs-string", _t(',"refs":"run-1"'), "m5", "refs a string"),
    _schema("refs-number-element", _t(',"refs":[1]'), "m5", "a number in refs"),
    _schema(
        "refs-string-element",
        _t(',"refs":["run-1"]'),
        "m5",
        "a string in refs (SPEC-005 style)",
        ("INT-24",),  # INT-24/wrap-string-refs-ref reads it as {"ref": "run-1"}
    ),
    _schema("refs-null-element", _t(',"refs":[null]'), "m5", "null in refs"),
    _schema("refs-array-element", _t(',"refs":[[]]'), "m5", "an array in refs"),
    _schema("refs-mixed", _t(',"refs":[{},1]'), "m5", "an object then a number in refs"),
    _schema("ts-number", _t(',"ts_utc":1718452800'), "m5", "ts_utc a number"),
    _schema("ts-null", _t(',"ts_utc":null'), "m5", "ts_utc null"),
    _schema("ts-bool", _t(',"ts_utc":true'), "m5", "ts_utc a bool"),
    _schema("ts-array", _t(',"ts_utc":["2024-01-01T00:00:00Z"]'), "m5", "ts_utc an array"),
    _schema(
        "dup-text-last-wrong",
        '{"memory_id":"m5","text":"ok","text":1}',
        "m5",
        "the last duplicate text is a number",
    ),
    _schema(
        "dup-id-last-wrong",
        '{"memory_id":"m5","memory_id":1,"text":"a"}',
        "",
        "the last duplicate memory_id is a number",
    ),
    _schema(
        "spec005-string-refs",
        '{"memory_id":"m5","type":"episodic","created_at_utc":"2024-01-01T00:00:00Z","text":"a","refs":["run-7"],"hash":"00"}',
        "m5",
        "SPEC-005 string refs",
        ("INT-24",),
    ),
)

VALID_ODD: tuple[Row, ...] = tuple(
    (slug, text, VALID, ints, what)
    for slug, text, ints, what in (
        (
            "depth-64-refs",
            '{"memory_id":"m5","text":"a","refs":[{"x":' + _nest(61) + "}]}",
            ("INT-18",),
            "nesting depth exactly 64 in refs",
        ),
        (
            "depth-64-unknown",
            _t(',"x":' + _nest(63)),
            ("INT-18", "INT-23"),
            "nesting depth exactly 64",
        ),
        (
            "brackets-in-string",
            '{"memory_id":"m5","text":"' + "[" * 100 + '"}',
            ("INT-18",),
            "brackets inside a string do not nest",
        ),
        (
            "paired-surrogate",
            '{"memory_id":"m5","text":"\\ud83d\\ude00"}',
            ("INT-01", "INT-15"),  # INT-01: the decoded U+1F600 is hashed as raw UTF-8
            "an escaped surrogate pair",
        ),
        ("big-finite", _t(',"x":1e308'), ("INT-17", "INT-23"), "1e308 is finite"),
        (
            "tiny-underflow",
            _t(',"x":1e-400'),
            ("INT-17", "INT-23"),
            "1e-400 underflows to 0: finite",
        ),
        (
            "json-ws-around",
            " \t" + _t("") + "\t ",
            ("INT-14",),
            "JSON whitespace around the object",
        ),
        (
            "cr-inside",
            '{"memory_id":"m5",\r"text":"a"}',
            ("INT-14",),
            "a CR between members (JSON whitespace)",
        ),
        (
            "raw-del",
            '{"memory_id":"m5","text":"a\u007fb"}',
            ("INT-15",),
            "a raw DEL needs no escape",
        ),
        (
            "raw-nel",
            '{"memory_id":"m5","text":"a\u0085b"}',
            ("INT-15",),
            "a raw U+0085 inside a string",
        ),
        (
            "raw-line-separator",
            '{"memory_id":"m5","text":"a\u2028b\u2029c"}',
            ("INT-14",),
            "raw U+2028/U+2029 do not end a line",
        ),
        (
            "dup-id-last-wins",
            '{"memory_id":"x","memory_id":"m5","text":"a"}',
            ("INT-16",),
            "duplicate memory_id: the last wins",
        ),
        (
            "dup-text-last-valid",
            '{"memory_id":"m5","text":1,"text":"ok"}',
            ("INT-16",),
            "a wrong-typed text overwritten by a string",
        ),
        (
            "unknown-fields",
            _t(',"x":1,"type":"episodic","hash":"00"'),
            ("INT-23", "INT-47"),  # INT-47: a SPEC-005 hash member is not the record_hash
            "unknown fields are ignored",
        ),
        (
            "spec005-record",
            '{"memory_id":"m5","type":"episodic","created_at_utc":"2024-01-01T00:00:00Z","text":"a","refs":[{"kind":"run_id","value":"r7"}],"hash":"00"}',
            ("INT-23", "INT-24", "INT-47"),
            "a SPEC-005 record with object refs",
        ),
        ("empty-text", '{"memory_id":"m5","text":""}', (), "an empty text is valid"),
        (
            "id-empty",
            '{"memory_id":"","text":"a"}',
            ("INT-22",),
            "an empty memory_id is a string: valid",
        ),
        (
            "dup-id-last-empty",
            '{"memory_id":"m5","memory_id":"","text":"a"}',
            ("INT-16", "INT-22"),
            "the last duplicate memory_id is empty: valid, memory_id ''",
        ),
        ("empty-tag", _t(',"tags":[""]'), ("INT-22",), "an empty tag string is kept"),
        ("empty-refs-object", _t(',"refs":[{}]'), ("INT-22",), "refs [{}] is valid"),
        ("escaped-slash", '{"memory_id":"m5","text":"a\\/b"}', (), "an escaped solidus"),
        (
            "invalid-ts-string",
            _t(',"ts_utc":"yesterday"'),
            ("INT-20",),
            "an invalid ts_utc string keeps the record",
        ),
        ("nul-escape", '{"memory_id":"m5","text":"a\\u0000b"}', (), "an escaped NUL in text"),
    )
)

#: blank and whitespace-only lines: not records, appear nowhere (INT-14)
BLANKS: tuple[tuple[str, str], ...] = (
    ("empty", ""),
    ("spaces", "   "),
    ("tab", "\t"),
    ("mixed", " \t \t"),
    ("cr", "\r"),
    ("spaces-cr", "  \r"),
)


def _row_case(row: Row, group: str) -> Case:
    slug, text, memory_id, ints, what = row
    raw = text if isinstance(text, bytes) else text.encode("utf-8")
    spec_line: Json = raw_line(raw) if isinstance(text, bytes) else text
    files = {"stores/s.jsonl": store(_FIRST, spec_line, _LAST)}
    if memory_id is None:
        return Case(
            id=f"inv-valid-{slug}",
            description=f"Valid record despite appearances: {what}.",
            comment=f"line: {raw[:160]!r}",
            clauses=("S6-REC-01", "S6-REC-02", "S6-READ-06", "S6-READ-07", "S6-READ-10"),
            interpretations=ints,
            request=make_request("zz"),
            files=files,
            check=_no_drops,
        )
    hashed = hashlib.sha256(raw.removesuffix(b"\r")).hexdigest()
    clauses: tuple[str, ...] = ("S6-REC-10", "S6-REC-11", "S6-OUT-17", "S6-OUT-18", "S6-OUT-19")
    clauses = (*clauses, "S6-OUT-20")
    if group == "schema":
        clauses = (*clauses, "S6-REC-03", "S6-REC-05", "S6-REC-07", "S6-REC-08", "S6-REC-09")
    else:
        clauses = (*clauses, "S6-REC-01")
    return Case(
        id=f"inv-{slug}",
        description=f"Invalid record: {what}.",
        comment=f"line: {raw[:160]!r}; dropped memory_id {memory_id!r}, record_hash SHA-256 "
        "of the line.",
        clauses=clauses,
        interpretations=ints,
        request=make_request("zz"),
        files=files,
        selected=("m0", "m9"),
        check=_dropped_is(memory_id, hashed),
    )


def _no_drops(result: Json) -> str | None:
    dropped = result["package"]["selection"]["dropped"]
    return None if not dropped else f"dropped {dropped_reasons(result)!r}"


def _dropped_is(memory_id: str, hashed: str) -> Callable[[Json], str | None]:
    def check(result: Json) -> str | None:
        dropped = result["package"]["selection"]["dropped"]
        want = [(memory_id, "invalid_record_schema", hashed)]
        got = [(d["memory_id"], d["reason"], d["record_hash"]) for d in dropped]
        return None if got == want else f"dropped {got!r}, intended {want!r}"

    return check


def _line_cases() -> Iterator[Case]:
    for slug, blank in BLANKS:
        yield Case(
            id=f"inv-blank-{slug}",
            description=f"A blank line ({blank!r}) is not a record and appears nowhere.",
            comment=f"store lines: m0, {blank!r}, m9.",
            clauses=("S6-REC-01", "S6-READ-06"),
            interpretations=("INT-14",),
            request=make_request("zz"),
            files={"stores/s.jsonl": store(_FIRST, blank, _LAST)},
            selected=("m0", "m9"),
            check=_no_drops,
        )
    bad = _t(",")
    bad_hash = hashlib.sha256(bad.encode()).hexdigest()
    layouts: tuple[tuple[str, dict[str, Json], str, Callable[[Json], str | None] | None], ...] = (
        ("crlf-valid", store(_FIRST, _LAST, eol="\r\n"), "CRLF line ends", _no_drops),
        (
            "crlf-invalid",
            store(_FIRST, bad, _LAST, eol="\r\n"),
            "the CR is not hashed",
            _dropped_is("", bad_hash),
        ),
        (
            "no-final-eol",
            store(_FIRST, _LAST, final_eol=False),
            "the last line has no LF",
            _no_drops,
        ),
        (
            "no-final-eol-invalid",
            store(_FIRST, bad, final_eol=False),
            "an invalid last line without LF",
            _dropped_is("", bad_hash),
        ),
        (
            "final-cr-no-lf",
            store(_FIRST, bad + "\r", final_eol=False),
            "a final CR without LF is removed",
            _dropped_is("", bad_hash),
        ),
        (
            "crlf-no-final",
            store(_FIRST, bad, eol="\r\n", final_eol=False),
            "CRLF file without a final CRLF",
            _dropped_is("", bad_hash),
        ),
        (
            "mixed-eol",
            store(_FIRST + "\r", bad + "\r", _LAST),
            "CRLF and LF lines mixed",
            _dropped_is("", bad_hash),
        ),
        (
            "double-cr",
            store(_FIRST + "\r", bad + "\r", _LAST, eol="\r\n"),
            "CR CR LF: one CR removed",
            _dropped_is("", hashlib.sha256((bad + "\r").encode()).hexdigest()),
        ),
        (
            "lone-cr-joins",
            store(_FIRST + "\r" + _LAST),
            "a lone CR does not split lines",
            _dropped_is("", hashlib.sha256((_FIRST + "\r" + _LAST).encode()).hexdigest()),
        ),
        (
            "blank-run",
            store("", _FIRST, "", "", "   ", _LAST, ""),
            "blank lines around records",
            _no_drops,
        ),
        ("crlf-blank", store(_FIRST, "", "", _LAST, eol="\r\n"), "blank CRLF lines", _no_drops),
    )
    for slug, spec, what, check in layouts:
        yield Case(
            id=f"inv-layout-{slug}",
            description=f"Line splitting: {what}.",
            comment=f"store spec {str(spec)[:200]}",
            clauses=("S6-REC-01", "S6-READ-06", "S6-REC-11"),
            interpretations=("INT-14", "INT-19"),
            request=make_request("zz"),
            files={"stores/s.jsonl": spec},
            check=check,
        )
    for slug, spec in (
        ("empty-file", {"text": ""}),
        ("only-newlines", {"text": "\n\n\n"}),
        ("only-blank-crlf", {"text": " \r\n\t\r\n"}),
    ):
        yield Case(
            id=f"inv-store-{slug}",
            description=f"A store with no record lines ({slug}): empty selection.",
            comment=f"file content {spec['text']!r}.",
            clauses=("S6-OUT-09", "S6-OUT-16", "S6-READ-06"),
            interpretations=("INT-14",),
            request=make_request("zz"),
            files={"stores/s.jsonl": spec},
            selected=(),
            check=_no_drops,
        )


def cases() -> Iterator[Case]:
    """Encoding, syntax, shape and schema failures; odd-but-valid lines; blanks and layouts."""
    for group, rows in (
        ("encoding", ENCODING),
        ("syntax", SYNTAX),
        ("shape", SHAPES),
        ("schema", SCHEMA),
    ):
        for row in rows:
            yield _row_case(row, group)
    for row in VALID_ODD:
        yield _row_case(row, "valid")
    yield from _line_cases()
