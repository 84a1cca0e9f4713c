"""Hashing (HASHING, INT-01 JCS, INT-02 record_hash, INT-03 package_hash, INT-17 numbers).

1. Canonical-JSON edge cases that reach record_hash through refs (and text, tags, ts_utc):
   pairs of records with one memory_id spelled two ways whose record_hash must be EQUAL (same
   value after parsing and normalization) or DIFFERENT (different content) — the intent;
2. single records whose hash exercises one JCS rule (number formatting, UTF-16 key order,
   escapes); their value comes from the reference, confirmed by the oracle;
3. package_hash sensitivity: variants of one base request, each changing one thing, whose
   package_hash must differ from the base's (or stay equal when nothing covered changes).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from tools.generate.families._case import Case, Json, Relation, line, make_request, store

__all__ = ["DESCRIPTION", "cases"]

DESCRIPTION = (
    "Generated: canonical JSON through record_hash (refs, text, tags, ts) and package_hash "
    "sensitivity."
)


def _rec(refs: str | None = None, *, text: str = "t", extra: str = "") -> str:
    """A raw record line for memory_id "m" with ``refs`` spliced in as written."""
    body = '{"memory_id":"m","text":' + _jstr(text)
    if refs is not None:
        body += ',"refs":' + refs
    return body + extra + "}"


def _jstr(text: str) -> str:
    import json

    return json.dumps(text, ensure_ascii=False)


def _v(value: str) -> str:
    return '[{"v":' + value + "}]"


#: slug -> (line a, line b, equal?)
PAIRS: tuple[tuple[str, str, str, bool], ...] = (
    ("one-point-zero", _rec(_v("1.0")), _rec(_v("1")), True),
    ("exponent", _rec(_v("1e2")), _rec(_v("100")), True),
    ("exponent-upper", _rec(_v("1E2")), _rec(_v("100")), True),
    ("exponent-plus", _rec(_v("1e+2")), _rec(_v("100")), True),
    ("neg-zero-float", _rec(_v("-0.0")), _rec(_v("0")), True),
    ("neg-zero-int", _rec(_v("-0")), _rec(_v("0")), True),
    ("beyond-2-53", _rec(_v("9007199254740993")), _rec(_v("9007199254740992")), True),
    (
        "huge-int",
        _rec(_v("123456789012345678901234567890")),
        _rec(_v("1.2345678901234568e+29")),
        True,
    ),
    ("1e21", _rec(_v("1e21")), _rec(_v("1000000000000000000000")), True),
    ("1e-7", _rec(_v("1e-7")), _rec(_v("0.0000001")), True),
    ("point-three", _rec(_v("0.30000000000000004")), _rec(_v("3.0000000000000004e-1")), True),
    ("long-fraction", _rec(_v("0.1")), _rec(_v("0.1000000000000000055511151231257827")), True),
    ("trailing-zeros", _rec(_v("1.50")), _rec(_v("1.5")), True),
    ("underflow", _rec(_v("1e-400")), _rec(_v("0")), True),
    ("min-subnormal", _rec(_v("5e-324")), _rec(_v("4.9406564584124654e-324")), True),
    ("key-order", _rec('[{"b":1,"a":2}]'), _rec('[{"a":2,"b":1}]'), True),
    (
        "nested-key-order",
        _rec('[{"x":{"d":1,"c":[{"f":1,"e":2}]}}]'),
        _rec('[{"x":{"c":[{"e":2,"f":1}],"d":1}}]'),
        True,
    ),
    ("escape-ascii", _rec('[{"v":"\\u0041"}]'), _rec('[{"v":"A"}]'), True),
    ("escape-latin1", _rec('[{"v":"\\u00e9"}]'), _rec('[{"v":"é"}]'), True),
    ("escape-nonbmp", _rec('[{"v":"\\ud83d\\ude00"}]'), _rec('[{"v":"😀"}]'), True),
    ("escape-solidus", _rec('[{"v":"a\\/b"}]'), _rec('[{"v":"a/b"}]'), True),
    ("escape-newline", _rec('[{"v":"\\u000a"}]'), _rec('[{"v":"\\n"}]'), True),
    ("escape-key", _rec('[{"\\u0076":1}]'), _rec('[{"v":1}]'), True),
    ("whitespace", _rec('[ { "v" : 1 } ]'), _rec('[{"v":1}]'), True),
    ("dup-key-last", _rec('[{"v":1,"v":2}]'), _rec('[{"v":2}]'), True),
    ("refs-absent", _rec(None), _rec("[]"), True),
    ("tags-absent", _rec(None), _rec(None, extra=',"tags":[]'), True),
    (
        "tags-normalized",
        _rec(None, extra=',"tags":["B","a","b"]'),
        _rec(None, extra=',"tags":["a","b"]'),
        True,
    ),
    (
        "tags-order",
        _rec(None, extra=',"tags":["b","a"]'),
        _rec(None, extra=',"tags":["a","b"]'),
        True,
    ),
    (
        "ts-normalized",
        _rec(None, extra=',"ts_utc":"2024-01-02T03:04:05.120+00:00"'),
        _rec(None, extra=',"ts_utc":"2024-01-02T03:04:05.12Z"'),
        True,
    ),
    (
        "ts-zero-fraction",
        _rec(None, extra=',"ts_utc":"2024-01-02T03:04:05.000Z"'),
        _rec(None, extra=',"ts_utc":"2024-01-02T03:04:05Z"'),
        True,
    ),
    ("ts-invalid", _rec(None, extra=',"ts_utc":"yesterday"'), _rec(None), True),
    ("unknown-field", _rec(None, extra=',"x":{"y":[1,2]}'), _rec(None), True),
    ("member-order", '{"text":"t","memory_id":"m"}', _rec(None), True),
    ("string-vs-number", _rec(_v('"1"')), _rec(_v("1")), False),
    ("array-order", _rec('[{"v":[1,2]}]'), _rec('[{"v":[2,1]}]'), False),
    ("refs-order", _rec('[{"a":1},{"b":1}]'), _rec('[{"b":1},{"a":1}]'), False),
    ("null-vs-missing", _rec('[{"v":null}]'), _rec("[{}]"), False),
    ("true-vs-1", _rec(_v("true")), _rec(_v("1")), False),
    ("text-not-stripped", _rec(None, text=" t"), _rec(None), False),
    ("text-case", _rec(None, text="T"), _rec(None), False),
    ("text-nfc-nfd", _rec(None, text="é"), _rec(None, text="e\u0301"), False),
    ("tag-space", _rec(None, extra=',"tags":[" a"]'), _rec(None, extra=',"tags":["a"]'), False),
    (
        "ts-instant",
        _rec(None, extra=',"ts_utc":"2024-01-02T03:04:05Z"'),
        _rec(None, extra=',"ts_utc":"2024-01-02T03:04:06Z"'),
        False,
    ),
    ("1e21-vs-1e20", _rec(_v("1e21")), _rec(_v("1e20")), False),
    ("float-neighbours", _rec(_v("0.1")), _rec(_v("0.10000000000000002")), False),
)

#: slug -> line: one JCS rule each
SINGLES: tuple[tuple[str, str, str], ...] = (
    (
        "utf16-key-order",
        _rec('[{"\\ud83d\\ude00":1,"\\uff21":2}]'),
        "keys sort by UTF-16 units: U+1F600 before U+FF21",
    ),
    (
        "utf16-key-order-e000",
        _rec('[{"\\ue000":1,"\\ud800\\udc00":2}]'),
        "U+10000 (D800 DC00) sorts before U+E000",
    ),
    (
        "ascii-key-order",
        _rec('[{"a":1,"B":2,"_":3,"":4,"aa":5}]'),
        "ASCII key order, the empty key first",
    ),
    ("latin1-key-order", _rec('[{"\\u00e9":1,"e\\u0301":2,"f":3}]'), "e + U+0301 < f < U+00E9"),
    (
        "control-chars",
        _rec(None, text='\u0000\u001f\u007f\b\f\n\r\t"\\'),
        "control characters: short and \\u00xx escapes, DEL raw",
    ),
    (
        "line-separators",
        _rec(None, text="a\u2028b\u2029c\ufeffd"),
        "U+2028, U+2029 and U+FEFF stay raw",
    ),
    ("num-1e21", _rec(_v("1e21")), "1e21 serializes as 1e+21"),
    ("num-1e-7", _rec(_v("1e-7")), "1e-7 serializes as 1e-7"),
    ("num-1e16", _rec(_v("1e16")), "1e16 serializes as 10000000000000000"),
    ("num-1e-6", _rec(_v("0.000001")), "0.000001 stays fixed-point"),
    ("num-max", _rec(_v("1.7976931348623157e308")), "the largest double"),
    ("num-negative", _rec(_v("-123.456e-10")), "a negative exponent form"),
    ("num-2-53-plus", _rec(_v("18014398509481985")), "2**54 + 1 rounds to 2**54"),
    ("deep-64", _rec('[{"v":' + "[" * 61 + "]" * 61 + "}]"), "depth exactly 64 hashed"),
    (
        "many-refs",
        _rec("[" + ",".join(f'{{"i":{i},"s":"{i:x}"}}' for i in range(40)) + "]"),
        "forty refs",
    ),
    ("nested-empty", _rec('[{"a":{},"b":[],"c":[{}],"d":""}]'), "empty containers and strings"),
    ("text-nonbmp", _rec(None, text="𝄞😀\U0010fffd"), "non-BMP text raw in UTF-8"),
)


#: slug -> the entries besides INT-01/02 (INT-17) a pair's equality rests on: their
#: alternatives change it (python -m tools readings checks the labels).
_PAIR_READINGS: dict[str, tuple[str, ...]] = {
    "ts-invalid": ("INT-20",),
    "unknown-field": ("INT-23",),
    "tag-space": ("INT-25",),
}


def _hash_relation(equal: bool) -> Callable[[Json], str | None]:
    def check(result: Json) -> str | None:
        hashes = [i["record_hash"] for i in result["package"]["selection"]["selected"]]
        if len(hashes) != 2:
            return f"{len(hashes)} selected, intended 2"
        return None if (hashes[0] == hashes[1]) == equal else f"record_hash equality is not {equal}"

    return check


def _record_cases() -> Iterator[Case]:
    for slug, first, second, equal in PAIRS:
        yield Case(
            id=f"hash-{'same' if equal else 'diff'}-{slug}",
            description=f"record_hash {'equal' if equal else 'different'} for two spellings "
            f"({slug}).",
            comment=f"line a {first[:150]}; line b {second[:150]}.",
            clauses=("S6-HASH-01", "S6-HASH-02", "S6-OUT-24", "S6-READ-14", "S6-OUT-11"),
            interpretations=(
                "INT-01",
                "INT-02",
                *(("INT-17",) if "v" in first else ()),
                *(("INT-16",) if slug.startswith("dup-") else ()),
                *_PAIR_READINGS.get(slug, ()),
            ),
            request=make_request("zz"),
            files={"stores/s.jsonl": store(first, second)},
            check=_hash_relation(equal),
        )
    for slug, text, what in SINGLES:
        yield Case(
            id=f"hash-jcs-{slug}",
            description=f"record_hash under JCS: {what}.",
            comment=f"line {text[:200]}",
            clauses=("S6-HASH-02", "S6-HASH-03", "S6-OUT-24", "S6-READ-13"),
            # INT-17: an integer beyond 2**53 is read as a double (its alternatives differ)
            interpretations=("INT-01", "INT-02", "INT-17")
            if slug == "num-2-53-plus"
            else ("INT-01", "INT-02"),
            request=make_request("zz"),
            files={"stores/s.jsonl": store(text)},
        )


_BASE = "hash-pkg-base"
_BASE_FILES: dict[str, Json] = {
    "stores/s.jsonl": store(line("m1", "alpha one", tags=["beta"]), line("m2", "two")),
}

#: slug -> (request changes, files, relation to the base, clauses)
VARIANTS: tuple[tuple[str, dict[str, Json], dict[str, Json], str, tuple[str, ...]], ...] = (
    ("base", {}, _BASE_FILES, "", ("S6-HASH-08", "S6-OUT-21", "S6-OUT-25")),
    (
        "memory-id",
        {},
        {"stores/s.jsonl": store(line("m1x", "alpha one", tags=["beta"]), line("m2", "two"))},
        "different",
        ("S6-HASH-10",),
    ),
    (
        "store-path",
        {"store_paths": ["stores/t.jsonl"]},
        {"stores/t.jsonl": _BASE_FILES["stores/s.jsonl"]},
        "different",
        ("S6-HASH-10",),
    ),
    (
        "score",
        {"scoring": {"enable_tag_overlap": False}},
        _BASE_FILES,
        "different",
        ("S6-HASH-10",),
    ),
    (
        "excerpt-tokens",
        {"budget": {"max_excerpt_tokens": 10, "per_item_max_excerpt_tokens": 2}},
        _BASE_FILES,
        "different",
        ("S6-HASH-10", "S6-HASH-11"),
    ),
    (
        "max-tokens",
        {"budget": {"max_excerpt_tokens": 11}},
        _BASE_FILES,
        "different",
        ("S6-HASH-11",),
    ),
    (
        "max-items",
        {"budget": {"max_excerpt_tokens": 10, "max_items": 49}},
        _BASE_FILES,
        "different",
        ("S6-HASH-11",),
    ),
    (
        "record-hash",
        {},
        {"stores/s.jsonl": store(line("m1", "alpha one", tags=["beta", "x"]), line("m2", "two"))},
        "different",
        ("S6-HASH-10",),
    ),
    ("query-raw-case", {"query": "ALPHA beta"}, _BASE_FILES, "different", ("S6-HASH-09",)),
    ("query-raw-space", {"query": " alpha beta "}, _BASE_FILES, "different", ("S6-HASH-09",)),
    (
        "dropped",
        {},
        {"stores/s.jsonl": store(line("m1", "alpha one", tags=["beta"]), line("m2", "two"), "{}")},
        "different",
        ("S6-HASH-09",),
    ),
    (
        "excerpt",
        {},
        {"stores/s.jsonl": store(line("m1", "alpha onf", tags=["beta"]), line("m2", "two"))},
        "different",
        ("S6-HASH-09",),
    ),
    ("member-order", {"_reverse": True}, _BASE_FILES, "same", ("S6-ACC-01", "S6-OUT-25")),
    (
        "path-spelling",
        {"store_paths": ["./stores//s.jsonl"]},
        _BASE_FILES,
        "same",
        ("S6-ACC-01", "S6-READ-04"),
    ),
    (
        "terms-explicit",
        {"scoring": {"query_terms": ["alpha", "beta"]}},
        _BASE_FILES,
        "same",
        ("S6-ACC-01", "S6-DET-01"),
    ),
    (
        "now-unused",
        {"now_utc": "2030-01-01T00:00:00Z"},
        _BASE_FILES,
        "same",
        ("S6-ACC-01", "S6-DET-02"),
    ),
    (
        "crlf-store",
        {},
        {
            "stores/s.jsonl": store(
                line("m1", "alpha one", tags=["beta"]), line("m2", "two"), eol="\r\n"
            )
        },
        "same",
        ("S6-ACC-01", "S6-OUT-24"),
    ),
)


def _package_cases() -> Iterator[Case]:
    for slug, changes, files, relation, clauses in VARIANTS:
        request = make_request("alpha beta", tokens=10)
        reverse = bool(changes.get("_reverse"))
        request.update({k: v for k, v in changes.items() if k != "_reverse"})
        if reverse:
            request = dict(reversed(list(request.items())))
        relations: tuple[Relation, ...] = ()
        if relation in ("same", "different"):
            relations = ((_BASE, "same" if relation == "same" else "different"),)
        yield Case(
            id=f"hash-pkg-{slug}",
            description=f"package_hash {'unchanged' if relation == 'same' else 'changes'}: {slug}."
            if relation
            else "package_hash of the base request (variants compare with it).",
            comment="base: query 'alpha beta', max 10, m1 'alpha one' tags [beta], m2 'two'; "
            f"change {changes!r}.",
            clauses=("S6-HASH-08", "S6-OUT-21", *clauses),
            # INT-43: the receipt lists the normalized store path, not the spelling given
            interpretations={
                "now-unused": ("INT-03", "INT-37"),
                "path-spelling": ("INT-03", "INT-43"),
            }.get(slug, ("INT-03",)),
            request=request,
            files=files,
            relations=relations,
        )


def cases() -> Iterator[Case]:
    """record_hash pairs and singles, then package_hash sensitivity."""
    yield from _record_cases()
    yield from _package_cases()
