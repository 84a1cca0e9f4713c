"""Hand-worked checks of the independent SPEC-006 oracle (conformance/_oracle.py).

Every expected value is worked out from the spec text and the interpretation register in the
comments; hashes are recomputed here from their canonical preimage written out in full.
"""

from __future__ import annotations

import hashlib
import json
import math
import tomllib
from pathlib import Path
from typing import Any

import pytest
from paths import REPO

from tools import oracle as _oracle
from tools.oracle import (
    derive_terms,
    normalize_path,
    oracle_read,
    supplied_terms,
)

# ------------------------------------------------------------------------------ helpers


def sha(data: str | bytes) -> str:
    """Lowercase hex SHA-256 of a preimage (str -> its UTF-8 bytes)."""
    return hashlib.sha256(data.encode("utf-8") if isinstance(data, str) else data).hexdigest()


def rec(**fields: Any) -> str:
    """One JSONL record line."""
    return json.dumps(fields, ensure_ascii=False, separators=(",", ":"))


def lines(*items: str | bytes) -> bytes:
    """Store content: each line followed by LF."""
    return b"".join((i.encode("utf-8") if isinstance(i, str) else i) + b"\n" for i in items)


def call(tmp_path: Path, request: Any, files: dict[str, bytes | None] | None = None) -> Any:
    """Create the files (None = a directory) under tmp_path and run the oracle there."""
    for rel, content in (files or {}).items():
        target = tmp_path / rel
        if content is None:
            target.mkdir(parents=True, exist_ok=True)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(content)
    return oracle_read(request, tmp_path)


def req(query: str = "q", tokens: int = 100, **extra: Any) -> dict[str, Any]:
    """A minimal valid request over s.jsonl."""
    budget = {"max_excerpt_tokens": tokens}
    return {"query": query, "store_paths": ["s.jsonl"], "budget": budget} | extra


def package(tmp_path: Path, request: dict[str, Any], *store_lines: str | bytes) -> Any:
    result = call(tmp_path, request, {"s.jsonl": lines(*store_lines)})
    assert set(result) == {"package", "receipt"}, result
    return result["package"]


def scores(pkg: Any) -> dict[str, float]:
    return {item["memory_id"]: item["score"] for item in pkg["selection"]["selected"]}


def order(pkg: Any) -> list[str]:
    return [item["memory_id"] for item in pkg["selection"]["selected"]]


def reasons(pkg: Any) -> list[tuple[str, str]]:
    return [(d["memory_id"], d["reason"]) for d in pkg["selection"]["dropped"]]


def error(tmp_path: Path, request: Any, files: dict[str, bytes | None] | None = None) -> Any:
    result = call(tmp_path, request, files)
    assert set(result) == {"error"}, result
    return (result["error"]["code"], result["error"]["path"])


EMPTY_RECORD = '{{"memory_id":"{mid}","refs":[],"tags":[],"text":"{text}"}}'


# ------------------------------------------------------------------------ query and hashing


class TestQueryHash:
    def test_trim_collapse_lower(self, tmp_path: Path) -> None:
        """S6-HASH-04..07 / INT-11: query_hash hashes the trimmed, collapsed, lowercased query."""
        # "  Hello\u3000\tWORLD \n" -> trim -> "Hello\u3000\tWORLD" -> collapse -> "Hello WORLD"
        # -> lower -> "hello world"; query.raw keeps the string as given.
        pkg = package(tmp_path, req("  Hello\u3000\tWORLD \n"), rec(memory_id="m", text=""))
        assert pkg["query"] == {"raw": "  Hello\u3000\tWORLD \n", "query_hash": sha("hello world")}

    def test_white_space_table(self, tmp_path: Path) -> None:
        """INT-05: U+001C and U+FEFF are not whitespace; U+0085 and U+2028 are."""
        # "a\x1cb\u0085c\ufeffd\u2028E" -> "a\x1cb c\ufeffd e"
        pkg = package(tmp_path, req("a\x1cb\u0085c\ufeffd\u2028E"), rec(memory_id="m", text=""))
        assert pkg["query"]["query_hash"] == sha("a\x1cb c\ufeffd e")

    def test_full_lowercase_mapping(self, tmp_path: Path) -> None:
        """INT-06: default full lowercase mapping with Final_Sigma, not case folding."""
        # "ΟΔΟΣ Straße" -> "οδος straße" (final sigma U+03C2, ß unchanged)
        pkg = package(tmp_path, req("ΟΔΟΣ Straße"), rec(memory_id="m", text=""))
        assert pkg["query"]["query_hash"] == sha("\u03bf\u03b4\u03bf\u03c2 stra\u00dfe")

    def test_record_hash_preimage(self, tmp_path: Path) -> None:
        """INT-02/INT-21/INT-25: record_hash covers the normalized record only."""
        line = (
            '{"text":" Hi ","memory_id":"m1","tags":["B","b"," a"],'
            '"ts_utc":"2024-01-02T03:04:05.120+00:00","extra":1,"refs":[{"k":2.0}]}'
        )
        # tags: lower -> ["b","b"," a"], unique, code-point sort -> [" a","b"]; ts +00:00 -> Z,
        # trailing zero dropped; 2.0 -> 2 (JCS); "extra" not covered; text not stripped.
        preimage = (
            '{"memory_id":"m1","refs":[{"k":2}],"tags":[" a","b"],"text":" Hi ",'
            '"ts_utc":"2024-01-02T03:04:05.12Z"}'
        )
        pkg = package(tmp_path, req(), line)
        assert pkg["selection"]["selected"][0]["record_hash"] == sha(preimage)

    def test_big_integer_is_a_double(self, tmp_path: Path) -> None:
        """INT-17: 9007199254740993 is read as the double 9007199254740992."""
        line = '{"memory_id":"m","text":"","refs":[{"n":9007199254740993}]}'
        preimage = '{"memory_id":"m","refs":[{"n":9007199254740992}],"tags":[],"text":""}'
        pkg = package(tmp_path, req(), line)
        assert pkg["selection"]["selected"][0]["record_hash"] == sha(preimage)

    def test_duplicate_member_last_wins(self, tmp_path: Path) -> None:
        """INT-16: the last duplicate member wins and the record hashes like its one-key form."""
        pkg = package(tmp_path, req(), '{"memory_id":"a","memory_id":"b","text":"x"}')
        item = pkg["selection"]["selected"][0]
        assert item["memory_id"] == "b"
        assert item["record_hash"] == sha(EMPTY_RECORD.format(mid="b", text="x"))

    def test_package_hash_preimage(self, tmp_path: Path) -> None:
        """INT-03: package_hash is SHA-256 of the JCS package without package_hash."""
        # query "Hi" -> terms ["hi"]; text "hi" matches: base 1, no tags -> score 1 (JCS "1").
        # excerpt "hi" = 2 bytes -> ceil(2/4) = 1 token; budget 5 -> used 1, remaining 4.
        # Line 2 is not JSON -> dropped invalid_record_schema, memory_id "", hash of raw bytes.
        qh, rh = sha("hi"), sha(EMPTY_RECORD.format(mid="m1", text="hi"))
        bad = sha("oops")
        preimage = (
            '{"budget":{"max_excerpt_tokens":5,"max_items":50,"per_item_max_excerpt_tokens":5,'
            '"remaining_excerpt_tokens":4,"used_excerpt_tokens":1},'
            '"controller_version":"phase6-v1",'
            f'"query":{{"query_hash":"{qh}","raw":"Hi"}},'
            f'"selection":{{"dropped":[{{"memory_id":"","reason":"invalid_record_schema",'
            f'"record_hash":"{bad}","store_path":"s.jsonl"}}],'
            '"selected":[{"excerpt":"hi","excerpt_tokens":1,"memory_id":"m1",'
            f'"record_hash":"{rh}","score":1,"store_path":"s.jsonl"}}]}}}}'
        )
        result = call(
            tmp_path, req("Hi", 5), {"s.jsonl": lines(rec(memory_id="m1", text="hi"), "oops")}
        )
        assert result["package"]["package_hash"] == sha(preimage)
        assert result["receipt"] == {
            "kind": "memory.read",
            "data": {
                "query_hash": qh,
                "store_paths": ["s.jsonl"],
                "selected_count": 1,
                "package_hash": sha(preimage),
            },
        }


# --------------------------------------------------------------------------- query terms


class TestTerms:
    def test_derivation_steps(self) -> None:
        """S6-SCORE-02..06: normalize, split, drop empty, keep length >= 2, unique in order."""
        # "The cat  sat on a MAT the" -> "the cat sat on a mat the" -> "a" dropped, "the" dup
        assert derive_terms("The cat  sat on a MAT the") == ["the", "cat", "sat", "on", "mat"]

    def test_length_in_code_points(self) -> None:
        """INT-07: length counts code points: é and 😀 are dropped, e + U+0301 is kept."""
        assert derive_terms("\u00e9 \U0001f600 e\u0301 ok") == ["e\u0301", "ok"]

    def test_supplied_terms_normalized_not_derived(self) -> None:
        """INT-08: supplied terms are normalized and deduplicated, with no length filter."""
        # "  Foo   BAR " -> "foo bar"; "x" kept (length 1); "" and "\t" removed; "FOO bar" dup
        assert supplied_terms(["  Foo   BAR ", "x", "", "\t", "FOO bar"]) == ["foo bar", "x"]

    def test_supplied_phrase_matches_across_line_break(self, tmp_path: Path) -> None:
        """INT-08/INT-09: a supplied phrase matches the whitespace-collapsed, lowercased text."""
        # terms ["foo bar", "x"]; text "FOO\n\nbar X" -> "foo bar x": both match -> base 2
        request = req("ignored", scoring={"query_terms": ["Foo  Bar", "x"]})
        pkg = package(tmp_path, request, rec(memory_id="m", text="FOO\n\nbar X"))
        assert scores(pkg) == {"m": 2.0}

    def test_empty_supplied_list_means_no_terms(self, tmp_path: Path) -> None:
        """INT-08: an empty query_terms list scores every candidate 0 (no derivation)."""
        request = req("alpha", scoring={"query_terms": []})
        pkg = package(tmp_path, request, rec(memory_id="m", text="alpha", tags=["alpha"]))
        assert scores(pkg) == {"m": 0.0}


# ------------------------------------------------------------------------------- scoring


class TestScoring:
    def test_substring_and_tag_bonus(self, tmp_path: Path) -> None:
        """S6-SCORE-07..11: substring matches count once each; each exact tag match adds 0.5."""
        # terms ["cat", "dog"]; "concatenate dogs dogs" contains both -> base 2;
        # tags ["DOG","Bird"] -> ["bird","dog"]: "dog" matches -> 0.5; score 2.5
        line = rec(memory_id="m", text="concatenate dogs dogs", tags=["DOG", "Bird"])
        assert scores(package(tmp_path, req("cat dog"), line)) == {"m": 2.5}

    def test_tag_overlap_disabled(self, tmp_path: Path) -> None:
        """S6-SCORE-09: with enable_tag_overlap=false the tag bonus is 0."""
        request = req("cat", scoring={"enable_tag_overlap": False})
        assert scores(package(tmp_path, request, rec(memory_id="m", text="", tags=["cat"]))) == {
            "m": 0.0
        }

    def test_recency_integer_exponent(self, tmp_path: Path) -> None:
        """S6-SCORE-14/16, INT-35: 60 days at half-life 30 gives exactly 0.5 ** 2 = 0.25."""
        # 2024-01-01 -> 2024-03-01 = 31 (Jan) + 29 (Feb, leap) = 60 days; 60 / 30 = 2
        request = req("zz", now_utc="2024-03-01T00:00:00Z", scoring={"enable_recency_weight": True})
        line = rec(memory_id="m", text="", ts_utc="2024-01-01T00:00:00Z")
        assert scores(package(tmp_path, request, line)) == {"m": 0.25}

    def test_recency_fractional_days(self, tmp_path: Path) -> None:
        """INT-35: age_days is fractional: 36 hours = 1.5 days, / 3 = 0.5, weight sqrt(0.5)."""
        scoring = {"enable_recency_weight": True, "recency_half_life_days": 3}
        request = req("zz", now_utc="2024-01-02T12:00:00Z", scoring=scoring)
        line = rec(memory_id="m", text="", ts_utc="2024-01-01T00:00:00.000+00:00")
        assert scores(package(tmp_path, request, line)) == {"m": math.sqrt(0.5)}

    def test_future_timestamp_clamped_to_one(self, tmp_path: Path) -> None:
        """INT-35: a future ts_utc has weight > 1, clamped to recency_bonus 1."""
        request = req("zz", now_utc="2024-01-01T00:00:00Z", scoring={"enable_recency_weight": True})
        line = rec(memory_id="m", text="", ts_utc="9999-12-31T23:59:59.999999999Z")
        assert scores(package(tmp_path, request, line)) == {"m": 1.0}

    def test_no_recency_without_now_or_switch(self, tmp_path: Path) -> None:
        """S6-INPUT-15/INT-36: no now_utc, or now_utc without the switch, gives no bonus."""
        line = rec(memory_id="m", text="", ts_utc="2024-01-01T00:00:00Z")
        without_now = req("zz", scoring={"enable_recency_weight": True})
        without_switch = req("zz", now_utc="2024-01-01T00:00:00Z")
        assert scores(package(tmp_path, without_now, line)) == {"m": 0.0}
        assert scores(package(tmp_path, without_switch, line)) == {"m": 0.0}

    def test_weight_is_correctly_rounded_whatever_libm_says(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """INT-04: the weight is the correctly rounded 2**-e even where libm pow is not."""
        # age 1 day, half-life 2 -> exponent 0.5 -> 2**-0.5 = sqrt(0.5), which IEEE sqrt
        # rounds correctly; a platform pow that is 1 ulp low must not leak into the score.
        monkeypatch.setattr(math, "pow", lambda a, b: math.nextafter(math.sqrt(0.5), 0.0))
        scoring = {"enable_recency_weight": True, "recency_half_life_days": 2}
        request = req("zz", now_utc="2024-01-02T00:00:00Z", scoring=scoring)
        pkg = package(tmp_path, request, rec(memory_id="m", text="", ts_utc="2024-01-01T00:00:00Z"))
        assert scores(pkg) == {"m": math.sqrt(0.5)}

    def test_invalid_ts_means_no_timestamp(self, tmp_path: Path) -> None:
        """INT-20: an invalid ts_utc string keeps the record, without ts in hash or recency."""
        request = req("zz", now_utc="2024-01-01T00:00:00Z", scoring={"enable_recency_weight": True})
        pkg = package(
            tmp_path, request, rec(memory_id="m", text="", ts_utc="2024-01-01T00:00:00+02:00")
        )
        item = pkg["selection"]["selected"][0]
        assert (item["score"], item["record_hash"]) == (
            0.0,
            sha(EMPTY_RECORD.format(mid="m", text="")),
        )

    def test_score_zero_is_selectable(self, tmp_path: Path) -> None:
        """INT-29: a score-0 candidate is selected when the budget allows."""
        assert order(package(tmp_path, req("zz"), rec(memory_id="m", text="nothing"))) == ["m"]


# ------------------------------------------------------------------------------ ordering


class TestOrdering:
    def test_score_descending(self, tmp_path: Path) -> None:
        """S6-ORDER-01: higher score first (1.0 before 2.0 in file order, reversed in rank)."""
        pkg = package(
            tmp_path,
            req("aa bb"),
            rec(memory_id="m1", text="aa"),
            rec(memory_id="m2", text="aa bb"),
        )
        assert order(pkg) == ["m2", "m1"]

    def test_ts_descending_missing_last(self, tmp_path: Path) -> None:
        """S6-ORDER-02: equal scores order by ts_utc descending, missing ts_utc last."""
        pkg = package(
            tmp_path,
            req("zz"),
            rec(memory_id="none", text=""),
            rec(memory_id="old", text="", ts_utc="2024-01-01T00:00:00Z"),
            rec(memory_id="new", text="", ts_utc="2024-01-02T00:00:00Z"),
        )
        assert order(pkg) == ["new", "old", "none"]

    def test_ts_by_instant_to_the_nanosecond(self, tmp_path: Path) -> None:
        """INT-21: ts ordering is by instant: .5 after whole second, 2 ns after 1 ns."""
        pkg = package(
            tmp_path,
            req("zz"),
            rec(memory_id="a", text="", ts_utc="2024-01-01T00:00:05Z"),
            rec(memory_id="b", text="", ts_utc="2024-01-01T00:00:05.5Z"),
            rec(memory_id="c", text="", ts_utc="2024-01-01T00:00:00.000000001Z"),
            rec(memory_id="d", text="", ts_utc="2024-01-01T00:00:00.000000002+00:00"),
        )
        assert order(pkg) == ["b", "a", "d", "c"]

    def test_store_path_ascending(self, tmp_path: Path) -> None:
        """S6-ORDER-03/INT-12: equal records order by normalized store_path ascending."""
        line = lines(rec(memory_id="m", text=""))
        request = req("zz") | {"store_paths": ["b.jsonl", "./a.jsonl"]}
        result = call(tmp_path, request, {"a.jsonl": line, "b.jsonl": line})
        selected = result["package"]["selection"]["selected"]
        assert [s["store_path"] for s in selected] == ["a.jsonl", "b.jsonl"]
        assert result["receipt"]["data"]["store_paths"] == ["a.jsonl", "b.jsonl"]

    def test_store_path_before_memory_id(self, tmp_path: Path) -> None:
        """S6-ORDER-03/04: store_path decides before memory_id ("b" in a.jsonl ranks first)."""
        request = req("zz") | {"store_paths": ["b.jsonl", "a.jsonl"]}
        files: dict[str, bytes | None] = {
            "a.jsonl": lines(rec(memory_id="b", text="")),
            "b.jsonl": lines(rec(memory_id="a", text="")),
        }
        assert order(call(tmp_path, request, files)["package"]) == ["b", "a"]

    def test_memory_id_ascending_by_code_point(self, tmp_path: Path) -> None:
        """S6-ORDER-04/INT-33: memory_id ascending by code point ("B" < "a" < "b")."""
        pkg = package(
            tmp_path,
            req("zz"),
            *(rec(memory_id=m, text="") for m in ("b", "a", "B")),
        )
        assert order(pkg) == ["B", "a", "b"]

    def test_record_hash_ascending(self, tmp_path: Path) -> None:
        """S6-ORDER-05: equal on all other keys, record_hash ascending decides."""
        hx = sha(EMPTY_RECORD.format(mid="m", text="x"))
        hy = sha(EMPTY_RECORD.format(mid="m", text="y"))
        pkg = package(
            tmp_path, req("zz"), rec(memory_id="m", text="x"), rec(memory_id="m", text="y")
        )
        assert [s["record_hash"] for s in pkg["selection"]["selected"]] == sorted([hx, hy])


# --------------------------------------------------------------------------------- paths


class TestPaths:
    @pytest.mark.parametrize(
        ("raw", "normalized"),
        [
            ("./a//b/", "a/b"),
            ("a/./b/../c", "a/c"),
            ("a/../../b", "../b"),
            ("../../x", "../../x"),
            ("/../a", "/a"),
            ("//a///b", "/a/b"),
            ("a\\b", "a\\b"),
        ],
    )
    def test_lexical_normalization(self, raw: str, normalized: str) -> None:
        """INT-12: lexical POSIX normalization; '..' kept only where nothing precedes it."""
        assert normalize_path(raw) == normalized

    def test_duplicates_read_once(self, tmp_path: Path) -> None:
        """INT-12/INT-43: paths normalizing alike are one store, listed once in the receipt."""
        request = req("zz") | {"store_paths": ["s.jsonl", "./s.jsonl", "x/../s.jsonl"]}
        result = call(tmp_path, request, STORE)
        assert order(result["package"]) == ["m"]
        assert result["receipt"]["data"]["store_paths"] == ["s.jsonl"]

    def test_absolute_path_kept(self, tmp_path: Path) -> None:
        """INT-45: an absolute store path is used and reported as given (normalized)."""
        request = req("zz") | {"store_paths": [f"{tmp_path}//s.jsonl"]}
        result = call(tmp_path, request, STORE)
        assert result["receipt"]["data"]["store_paths"] == [f"{tmp_path}/s.jsonl"]


# ---------------------------------------------------------------------------- truncation


class TestTruncation:
    def test_cut_back_to_utf8_boundary(self, tmp_path: Path) -> None:
        """S6-TRUNC-05..07: a cut inside é (C3 A9) moves back to the previous boundary."""
        # "abcé" = 61 62 63 C3 A9 (5 bytes); per_item 1 -> 4 bytes; byte 4 (A9) continues é
        # -> cut at 3 -> "abc", ceil(3/4) = 1 token
        request = req("zz") | {
            "budget": {"max_excerpt_tokens": 5, "per_item_max_excerpt_tokens": 1}
        }
        item = package(tmp_path, request, rec(memory_id="m", text="abcé"))["selection"]["selected"][
            0
        ]
        assert (item["excerpt"], item["excerpt_tokens"]) == ("abc", 1)

    def test_four_byte_character(self, tmp_path: Path) -> None:
        """S6-TRUNC-07: a cut inside a 4-byte character moves back to its first byte."""
        # "a😀😀" = 61 | F0 9F 98 80 | F0 9F 98 80 (9 bytes); per_item = min(2, 2) = 2 -> 8 bytes;
        # byte 8 (80) continues, back over 98, 9F to the lead F0 at 5 -> "a😀", ceil(5/4) = 2
        request = req("zz", 2)
        item = package(tmp_path, request, rec(memory_id="m", text="a😀😀"))["selection"][
            "selected"
        ][0]
        assert (item["excerpt"], item["excerpt_tokens"]) == ("a😀", 2)

    def test_strip_white_space_only(self, tmp_path: Path) -> None:
        """S6-TRUNC-02/INT-31: strip White_Space (U+3000, U+0085), not U+200B."""
        # "\u3000 hi\u0085" -> "hi" (2 bytes, 1 token); "\u200bhi" keeps U+200B (5 bytes, 2 tokens)
        pkg = package(
            tmp_path,
            req("zz"),
            rec(memory_id="a", text="\u3000 hi\u0085"),
            rec(memory_id="b", text="\u200bhi"),
        )
        got = [(s["excerpt"], s["excerpt_tokens"]) for s in pkg["selection"]["selected"]]
        assert got == [("hi", 1), ("\u200bhi", 2)]

    def test_empty_after_strip(self, tmp_path: Path) -> None:
        """S6-TRUNC-03: text empty after strip gives excerpt "" and 0 tokens."""
        item = package(tmp_path, req("zz"), rec(memory_id="m", text=" \t\n"))["selection"][
            "selected"
        ][0]
        assert (item["excerpt"], item["excerpt_tokens"]) == ("", 0)

    def test_cut_excerpt_not_stripped_again(self, tmp_path: Path) -> None:
        """INT-31: "abc def" cut to 4 bytes is "abc " (trailing space kept)."""
        request = req("zz") | {
            "budget": {"max_excerpt_tokens": 9, "per_item_max_excerpt_tokens": 1}
        }
        item = package(tmp_path, request, rec(memory_id="m", text="abc def"))["selection"][
            "selected"
        ][0]
        assert item["excerpt"] == "abc "

    def test_per_item_capped_by_max(self, tmp_path: Path) -> None:
        """S6-TRUNC-04/INT-30: per_item_max_excerpt_tokens = min(10, 2) = 2 in the package."""
        request = req("zz") | {
            "budget": {"max_excerpt_tokens": 2, "per_item_max_excerpt_tokens": 10}
        }
        pkg = package(tmp_path, request, rec(memory_id="m", text="123456789"))
        # 9 bytes cut to 8 -> "12345678", 2 tokens; used 2, remaining 0
        assert pkg["selection"]["selected"][0]["excerpt"] == "12345678"
        assert pkg["budget"] == {
            "max_excerpt_tokens": 2,
            "used_excerpt_tokens": 2,
            "remaining_excerpt_tokens": 0,
            "per_item_max_excerpt_tokens": 2,
            "max_items": 50,
        }


# ----------------------------------------------------------------------------- selection


class TestSelection:
    def test_stop_at_first_over_budget(self, tmp_path: Path) -> None:
        """INT-26: selection stops at the first over-budget candidate (zero-token ones too)."""
        # query "aa": "aa aa2" (score 1, 6 bytes = 2 tokens), "aa 4567" (score 1, 7 bytes = 2
        # tokens), "" (score 0, 0 tokens). Budget 3: first used 2; second 2+2 = 4 > 3 -> stop.
        pkg = package(
            tmp_path,
            req("aa", 3),
            rec(memory_id="m1", text="aa aa2"),
            rec(memory_id="m2", text="aa 4567"),
            rec(memory_id="m3", text=""),
        )
        assert order(pkg) == ["m1"]
        assert reasons(pkg) == [("m2", "budget_exhausted"), ("m3", "budget_exhausted")]
        assert pkg["budget"]["used_excerpt_tokens"] == 2
        assert pkg["budget"]["remaining_excerpt_tokens"] == 1

    def test_max_items_reached(self, tmp_path: Path) -> None:
        """INT-27: once max_items is reached the rest is max_items_reached, even over budget."""
        # max_items 1, budget 2: m1 (2 tokens) selected; m2 (3 tokens) would also overflow
        request = req("aa") | {"budget": {"max_excerpt_tokens": 2, "max_items": 1}}
        pkg = package(
            tmp_path,
            request,
            rec(memory_id="m1", text="aa xxxx"),
            rec(memory_id="m2", text="123456789"),
        )
        assert order(pkg) == ["m1"]
        assert reasons(pkg) == [("m2", "max_items_reached")]
        assert pkg["budget"]["max_items"] == 1

    def test_dropped_in_read_order(self, tmp_path: Path) -> None:
        """INT-28: dropped lists every non-selected record line in read order, any reason."""
        # rank: m3 (score 1) selected; m1, m2 score 0; budget 1 token exhausted by m3
        pkg = package(
            tmp_path,
            req("aa", 1),
            rec(memory_id="m1", text="x"),
            "[1]",
            rec(memory_id="m2", text="y"),
            rec(memory_id="m3", text="aa"),
        )
        assert order(pkg) == ["m3"]
        assert reasons(pkg) == [
            ("m1", "budget_exhausted"),
            ("", "invalid_record_schema"),
            ("m2", "budget_exhausted"),
        ]

    def test_blank_and_crlf_lines(self, tmp_path: Path) -> None:
        """INT-14: blank lines are skipped; CRLF and a last line without LF are lines."""
        content = b'\r\n  \t\r\n{"memory_id":"a","text":""}\r\n{"memory_id":"b","text":""}'
        result = call(tmp_path, req("zz"), {"s.jsonl": content})
        assert order(result["package"]) == ["a", "b"]
        assert result["package"]["selection"]["dropped"] == []


# ------------------------------------------------------------------------- invalid lines


def _depth_line(objects: int) -> str:
    inner = "{}"
    for _ in range(objects - 1):
        inner = '{"a":' + inner + "}"
    return '{"memory_id":"m1","text":"x","refs":[' + inner + "]}"


INVALID_LINES: list[tuple[str, bytes, str]] = [
    # (case, raw line, expected memory_id per INT-19)
    ("bad-utf8", b'{"memory_id":"m1","text":"\xff"}', ""),
    ("overlong", b'{"memory_id":"m1","text":"\xc0\xaf"}', ""),
    ("bom", b'\xef\xbb\xbf{"memory_id":"m1","text":"x"}', ""),
    ("nan", b'{"memory_id":"m1","text":"x","refs":[{"v":NaN}]}', ""),
    ("infinity-literal", b'{"memory_id":"m1","text":"x","refs":[{"v":-Infinity}]}', ""),
    ("overflow-1e400", b'{"memory_id":"m1","text":"x","refs":[{"v":1e400}]}', ""),
    ("lone-surrogate", b'{"memory_id":"m1","text":"\\ud800"}', ""),
    ("trailing-comma", b'{"memory_id":"m1","text":"x",}', ""),
    ("trailing-garbage", b'{"memory_id":"m1","text":"x"} x', ""),
    ("non-object", b'["m1"]', ""),
    ("null-field", b'{"memory_id":"m1","text":null}', "m1"),
    ("null-tags", b'{"memory_id":"m1","text":"x","tags":null}', "m1"),
    ("empty-memory-id-null-text", b'{"memory_id":"","text":null}', ""),
    ("numeric-memory-id", b'{"memory_id":1,"text":"x"}', ""),
    ("missing-text", b'{"memory_id":"m1"}', "m1"),
    ("non-string-tag", b'{"memory_id":"m1","text":"x","tags":["a",1]}', "m1"),
    ("string-ref", b'{"memory_id":"m1","text":"x","refs":["run-1"]}', "m1"),
    ("numeric-ts", b'{"memory_id":"m1","text":"x","ts_utc":1700000000}', "m1"),
    # depth 65 = top object (1) + refs array (2) + 63 nested objects; oracle choice: "" (the
    # line breaks a JSON-level rule, INT-18, so no memory_id is taken from it)
    ("depth-65", _depth_line(63).encode(), ""),
]


class TestInvalidLines:
    @pytest.mark.parametrize(
        ("case", "raw", "memory_id"), INVALID_LINES, ids=[c[0] for c in INVALID_LINES]
    )
    def test_invalid_line_dropped(
        self, tmp_path: Path, case: str, raw: bytes, memory_id: str
    ) -> None:
        """INT-15/INT-19/INT-22: an invalid line is dropped with the raw-bytes hash."""
        result = call(tmp_path, req("zz"), {"s.jsonl": raw + b"\n"})
        assert result["package"]["selection"]["dropped"] == [
            {
                "memory_id": memory_id,
                "record_hash": sha(raw),
                "store_path": "s.jsonl",
                "reason": "invalid_record_schema",
            }
        ], case

    def test_depth_64_is_valid(self, tmp_path: Path) -> None:
        """INT-18: depth 64 (1 + 1 + 62 objects) is still a valid record."""
        pkg = package(tmp_path, req("zz"), _depth_line(62))
        assert order(pkg) == ["m1"]

    def test_crlf_removed_before_raw_hash(self, tmp_path: Path) -> None:
        """INT-14/INT-19: the raw-line hash excludes the CR of a CRLF terminator."""
        result = call(tmp_path, req("zz"), {"s.jsonl": b"oops\r\n"})
        assert result["package"]["selection"]["dropped"][0]["record_hash"] == sha("oops")


# --------------------------------------------------------------------------------- trust


def _snapshot(*entries: dict[str, str]) -> bytes:
    return json.dumps({"format": "phase6-trust/1", "entries": list(entries)}).encode()


class TestTrust:
    def _run(self, tmp_path: Path, snapshot: bytes, **trust: Any) -> Any:
        request = req("zz", 1, trust_filter={"trust_snapshot_path": "t.json"} | trust)
        store = lines(rec(memory_id="m1", text="x"), rec(memory_id="m2", text="y"))
        return call(tmp_path, request, {"s.jsonl": store, "t.json": snapshot})["package"]

    def test_by_memory_id(self, tmp_path: Path) -> None:
        """S6-TRUST-03/08: an entry naming memory_id m1 as malicious denies m1, budget untouched."""
        # budget 1 token: m1 denied before selection, so m2 ("y", 1 token) is selected
        pkg = self._run(tmp_path, _snapshot({"memory_id": "m1", "classification": "malicious"}))
        assert order(pkg) == ["m2"]
        assert reasons(pkg) == [("m1", "trust_denied")]

    def test_by_record_hash(self, tmp_path: Path) -> None:
        """S6-TRUST-04: an entry naming only a record_hash denies the record with that hash."""
        h2 = sha(EMPTY_RECORD.format(mid="m2", text="y"))
        pkg = self._run(tmp_path, _snapshot({"record_hash": h2, "classification": "malicious"}))
        assert reasons(pkg) == [("m2", "trust_denied")]

    def test_either_key_matches(self, tmp_path: Path) -> None:
        """INT-39: an entry naming memory_id and record_hash denies a candidate equal on either."""
        h1 = sha(EMPTY_RECORD.format(mid="m1", text="x"))
        h2 = sha(EMPTY_RECORD.format(mid="m2", text="y"))
        split = {"memory_id": "m1", "record_hash": h2, "classification": "malicious"}
        assert reasons(self._run(tmp_path, _snapshot(split))) == [
            ("m1", "trust_denied"),
            ("m2", "trust_denied"),
        ]
        match = {"memory_id": "m1", "record_hash": h1, "classification": "malicious"}
        assert reasons(self._run(tmp_path, _snapshot(match))) == [("m1", "trust_denied")]
        neither = {"memory_id": "m9", "record_hash": "0" * 64, "classification": "malicious"}
        assert reasons(self._run(tmp_path, _snapshot(neither))) == [("m2", "budget_exhausted")]

    def test_classification_exact_and_listed(self, tmp_path: Path) -> None:
        """INT-39: classifications match exactly (case-sensitive) against deny_classifications."""
        entries = [
            {"memory_id": "m1", "classification": "Malicious"},
            {"memory_id": "m2", "classification": "spam"},
        ]
        assert reasons(self._run(tmp_path, _snapshot(*entries))) == [("m2", "budget_exhausted")]
        pkg = self._run(tmp_path, _snapshot(*entries), deny_classifications=["spam"])
        assert reasons(pkg) == [("m2", "trust_denied")]

    def test_empty_deny_list_still_validates(self, tmp_path: Path) -> None:
        """INT-38: the snapshot is read and validated even when deny_classifications is []."""
        request = req(trust_filter={"trust_snapshot_path": "t.json", "deny_classifications": []})
        files: dict[str, bytes | None] = {"s.jsonl": b"", "t.json": b"{}"}
        assert error(tmp_path, request, files) == (
            "invalid_trust_snapshot",
            "/trust_filter/trust_snapshot_path",
        )


# -------------------------------------------------------------------------------- errors

STORE: dict[str, bytes | None] = {"s.jsonl": lines(rec(memory_id="m", text=""))}


def _with(**changes: Any) -> dict[str, Any]:
    """A valid request with top-level members replaced (a value of ... removes the member)."""
    request = req()
    for name, value in changes.items():
        if value is ...:
            del request[name]
        else:
            request[name] = value
    return request


ERROR_CASES: list[tuple[str, Any, str, str]] = [
    ("not-object", [], "invalid_request", ""),
    ("unknown-top", _with(zeta=1, alpha=1, beta=1, Zulu=1, é=1), "invalid_request", "/Zulu"),
    ("unknown-top-escaped", _with(**{"a/b~": 1}), "invalid_request", "/a~1b~0"),
    ("query-missing", _with(query=...), "invalid_query", "/query"),
    ("query-not-string", _with(query=5), "invalid_query", "/query"),
    ("query-blank", _with(query=" \u3000\u2028"), "invalid_query", "/query"),
    ("paths-missing", _with(store_paths=...), "invalid_store_paths", "/store_paths"),
    ("paths-empty", _with(store_paths=[]), "invalid_store_paths", "/store_paths"),
    ("paths-string", _with(store_paths="s.jsonl"), "invalid_store_paths", "/store_paths"),
    ("paths-element", _with(store_paths=["s.jsonl", ""]), "invalid_store_paths", "/store_paths/1"),
    ("budget-missing", _with(budget=...), "invalid_budget", "/budget"),
    ("budget-null", _with(budget=None), "invalid_budget", "/budget"),
    ("max-missing", _with(budget={}), "invalid_budget", "/budget/max_excerpt_tokens"),
    (
        "max-zero",
        _with(budget={"max_excerpt_tokens": 0}),
        "invalid_budget",
        "/budget/max_excerpt_tokens",
    ),
    (
        "max-bool",
        _with(budget={"max_excerpt_tokens": True}),
        "invalid_budget",
        "/budget/max_excerpt_tokens",
    ),
    (
        "max-string",
        _with(budget={"max_excerpt_tokens": "9"}),
        "invalid_budget",
        "/budget/max_excerpt_tokens",
    ),
    (
        "max-fraction",
        _with(budget={"max_excerpt_tokens": 1.5}),
        "invalid_budget",
        "/budget/max_excerpt_tokens",
    ),
    (
        "max-2p53",
        _with(budget={"max_excerpt_tokens": 2**53}),
        "invalid_budget",
        "/budget/max_excerpt_tokens",
    ),
    (
        "per-item-zero",
        _with(budget={"max_excerpt_tokens": 5, "per_item_max_excerpt_tokens": 0}),
        "invalid_budget",
        "/budget/per_item_max_excerpt_tokens",
    ),
    (
        "max-items-null",
        _with(budget={"max_excerpt_tokens": 5, "max_items": None}),
        "invalid_budget",
        "/budget/max_items",
    ),
    (
        "budget-unknown",
        _with(budget={"max_excerpt_tokens": 5, "max_item": 3}),
        "invalid_budget",
        "/budget/max_item",
    ),
    ("scoring-null", _with(scoring=None), "invalid_scoring", "/scoring"),
    (
        "recency-not-bool",
        _with(scoring={"enable_recency_weight": "yes"}),
        "invalid_scoring",
        "/scoring/enable_recency_weight",
    ),
    (
        "half-life-zero-unused",
        _with(scoring={"recency_half_life_days": 0}),
        "invalid_scoring",
        "/scoring/recency_half_life_days",
    ),
    (
        "tag-not-bool",
        _with(scoring={"enable_tag_overlap": 1}),
        "invalid_scoring",
        "/scoring/enable_tag_overlap",
    ),
    (
        "terms-element",
        _with(scoring={"query_terms": ["a", 2]}),
        "invalid_scoring",
        "/scoring/query_terms/1",
    ),
    (
        "terms-string",
        _with(scoring={"query_terms": "a"}),
        "invalid_scoring",
        "/scoring/query_terms",
    ),
    ("scoring-unknown", _with(scoring={"boost": 1}), "invalid_scoring", "/scoring/boost"),
    ("trust-list", _with(trust_filter=[]), "invalid_trust_filter", "/trust_filter"),
    (
        "deny-element",
        _with(trust_filter={"deny_classifications": ["x", None]}),
        "invalid_trust_filter",
        "/trust_filter/deny_classifications/1",
    ),
    (
        "snapshot-empty",
        _with(trust_filter={"trust_snapshot_path": ""}),
        "invalid_trust_filter",
        "/trust_filter/trust_snapshot_path",
    ),
    (
        "trust-unknown",
        _with(trust_filter={"deny": []}),
        "invalid_trust_filter",
        "/trust_filter/deny",
    ),
    ("now-null", _with(now_utc=None), "invalid_now_utc", "/now_utc"),
    ("now-feb-30", _with(now_utc="2024-02-30T00:00:00Z"), "invalid_now_utc", "/now_utc"),
    ("now-feb-29-1900", _with(now_utc="1900-02-29T00:00:00Z"), "invalid_now_utc", "/now_utc"),
    ("now-offset", _with(now_utc="2024-01-01T00:00:00+02:00"), "invalid_now_utc", "/now_utc"),
    ("now-minus-zero", _with(now_utc="2024-01-01T00:00:00-00:00"), "invalid_now_utc", "/now_utc"),
    ("now-lower-z", _with(now_utc="2024-01-01T00:00:00z"), "invalid_now_utc", "/now_utc"),
    ("now-leap-second", _with(now_utc="2016-12-31T23:59:60Z"), "invalid_now_utc", "/now_utc"),
    (
        "now-10-digits",
        _with(now_utc="2024-01-01T00:00:00.1234567890Z"),
        "invalid_now_utc",
        "/now_utc",
    ),
    ("now-year-0", _with(now_utc="0000-01-01T00:00:00Z"), "invalid_now_utc", "/now_utc"),
    ("now-no-offset", _with(now_utc="2024-01-01T00:00:00"), "invalid_now_utc", "/now_utc"),
    ("now-newline", _with(now_utc="2024-01-01T00:00:00Z\n"), "invalid_now_utc", "/now_utc"),
    ("now-arabic-digit", _with(now_utc="202\u0664-01-01T00:00:00Z"), "invalid_now_utc", "/now_utc"),
]


class TestErrors:
    @pytest.mark.parametrize(
        ("case", "request_", "code", "path"), ERROR_CASES, ids=[c[0] for c in ERROR_CASES]
    )
    def test_request_errors(
        self, tmp_path: Path, case: str, request_: Any, code: str, path: str
    ) -> None:
        """errors.md 1-8: each malformed request member gives its code and JSON Pointer."""
        assert error(tmp_path, request_, STORE) == (code, path), case

    def test_integral_float_is_an_int(self, tmp_path: Path) -> None:
        """INT-41: 10.0 is the integer 10."""
        result = call(tmp_path, _with(budget={"max_excerpt_tokens": 10.0}), STORE)
        assert result["package"]["budget"]["max_excerpt_tokens"] == 10

    def test_valid_now_utc_forms(self, tmp_path: Path) -> None:
        """INT-20: leap day, 9 fraction digits and +00:00 are valid."""
        assert "package" in call(
            tmp_path, _with(now_utc="2024-02-29T23:59:59.999999999+00:00"), STORE
        )

    def test_store_not_found_index_of_first_occurrence(self, tmp_path: Path) -> None:
        """errors.md 9: the path points at the first request element normalizing to the store."""
        request = _with(store_paths=["s.jsonl", "x/../missing.jsonl", "missing.jsonl"])
        assert error(tmp_path, request, STORE) == ("store_not_found", "/store_paths/1")

    def test_store_not_readable_directory(self, tmp_path: Path) -> None:
        """errors.md 10 / INT-13: a directory is store_not_readable."""
        assert error(tmp_path, _with(store_paths=["d"]), {"d": None}) == (
            "store_not_readable",
            "/store_paths/0",
        )

    def test_trust_snapshot_not_found(self, tmp_path: Path) -> None:
        """errors.md 11: a missing snapshot is trust_snapshot_not_found."""
        request = _with(trust_filter={"trust_snapshot_path": "t.json"})
        assert error(tmp_path, request, STORE) == (
            "trust_snapshot_not_found",
            "/trust_filter/trust_snapshot_path",
        )

    @pytest.mark.parametrize(
        "content",
        [
            None,  # a directory
            b"not json",
            b'\xef\xbb\xbf{"format":"phase6-trust/1","entries":[]}',  # BOM
            b'{"format":"phase6-trust/2","entries":[]}',
            b'{"format":"phase6-trust/1"}',
            b'{"format":"phase6-trust/1","entries":[{"classification":"malicious"}]}',
            b'{"format":"phase6-trust/1","entries":[{"memory_id":"m"}]}',
            b'{"format":"phase6-trust/1","entries":[{"memory_id":null,"classification":"x"}]}',
        ],
    )
    def test_invalid_trust_snapshot(self, tmp_path: Path, content: bytes | None) -> None:
        """errors.md 12 / INT-38: unreadable or malformed snapshots are invalid_trust_snapshot."""
        request = _with(trust_filter={"trust_snapshot_path": "t.json"})
        assert error(tmp_path, request, STORE | {"t.json": content}) == (
            "invalid_trust_snapshot",
            "/trust_filter/trust_snapshot_path",
        )

    def test_envelope_and_deterministic_message(self, tmp_path: Path) -> None:
        """S6-ERR-07/INT-40: the error has code, message, path, clause; repeats are identical."""
        first = call(tmp_path, _with(budget={"max_excerpt_tokens": 0}), STORE)
        assert first == call(tmp_path, _with(budget={"max_excerpt_tokens": 0}), STORE)
        assert set(first["error"]) == {"code", "message", "path", "clause"}
        assert first["error"]["clause"] == "S6-ERR-04"

    def test_clause_ids_exist(self) -> None:
        """INT-40: every clause the oracle reports is an ID of specs/clauses.toml."""
        clauses = tomllib.loads((REPO / "specs" / "clauses.toml").read_text("utf-8"))
        known = {c["id"] for c in clauses["clause"]}
        assert set(_oracle.CLAUSE_OF_ERROR.values()) | {"S6-ERR-01"} <= known

    @pytest.mark.parametrize(
        ("request_", "code", "path"),
        [
            (_with(query="a\ud800"), "invalid_query", "/query"),
            (
                {"query": "q", "store_paths": ["s", "\udc00"]},
                "invalid_store_paths",
                "/store_paths/1",
            ),
            (
                _with(scoring={"query_terms": ["\ud800x"]}),
                "invalid_scoring",
                "/scoring/query_terms/0",
            ),
        ],
    )
    def test_lone_surrogate_strings(
        self, tmp_path: Path, request_: Any, code: str, path: str
    ) -> None:
        """INT-42: a request string with a lone surrogate is its group's type error."""
        assert error(tmp_path, request_, STORE) == (code, path)


class TestPrecedence:
    @pytest.mark.parametrize(
        ("case", "request_", "code", "path"),
        [
            ("query-before-paths", {"query": "", "store_paths": []}, "invalid_query", "/query"),
            (
                "paths-before-budget",
                {"query": "q", "store_paths": [1]},
                "invalid_store_paths",
                "/store_paths/0",
            ),
            (
                "budget-before-scoring",
                _with(budget={}, scoring=None),
                "invalid_budget",
                "/budget/max_excerpt_tokens",
            ),
            (
                "member-before-unknown",
                _with(budget={"max_excerpt_tokens": 1, "a": 1, "max_items": 0}),
                "invalid_budget",
                "/budget/max_items",
            ),
            (
                "spec-order-in-group",
                _with(scoring={"query_terms": 1, "enable_tag_overlap": 1}),
                "invalid_scoring",
                "/scoring/enable_tag_overlap",
            ),
            (
                "scoring-before-trust",
                _with(scoring=1, trust_filter=1),
                "invalid_scoring",
                "/scoring",
            ),
            (
                "trust-before-now",
                _with(trust_filter=1, now_utc=1),
                "invalid_trust_filter",
                "/trust_filter",
            ),
            ("now-before-unknown", _with(now_utc="x", aaa=1), "invalid_now_utc", "/now_utc"),
        ],
    )
    def test_request_precedence(
        self, tmp_path: Path, case: str, request_: Any, code: str, path: str
    ) -> None:
        """INT-40: checks run in the errors.md order; the first failure wins."""
        assert error(tmp_path, request_, STORE) == (code, path), case

    def test_unknown_member_before_filesystem(self, tmp_path: Path) -> None:
        """INT-40: (8) unknown top-level members come before (9) store checks."""
        assert error(tmp_path, _with(store_paths=["missing"], extra=1)) == (
            "invalid_request",
            "/extra",
        )

    def test_stores_checked_in_sorted_order(self, tmp_path: Path) -> None:
        """INT-13: stores are checked in normalized sorted order: "a" (dir) before "z" (missing)."""
        request = _with(store_paths=["z.jsonl", "a"])
        assert error(tmp_path, request, {"a": None}) == ("store_not_readable", "/store_paths/1")

    def test_stores_before_snapshot(self, tmp_path: Path) -> None:
        """errors.md 9-12: a missing store wins over a missing trust snapshot."""
        request = _with(store_paths=["missing"], trust_filter={"trust_snapshot_path": "t.json"})
        assert error(tmp_path, request) == ("store_not_found", "/store_paths/0")
