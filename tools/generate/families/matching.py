"""Substring matching (INT-09, INT-10) and tag overlap (INT-25).

Every vector has one record "m1"; its score (stated by hand in the tables, from the spec) is
the intent. Matching is plain code-point substring search in the normalized text: no word
boundaries, no Unicode normalization, terms counted once however often they occur.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from conformance.readings import lower, normalize_text, strip_ws
from tools.generate.families._case import Case, Json, line, make_request, scores, store

__all__ = ["DESCRIPTION", "cases"]

DESCRIPTION = "Generated: substring matching in normalized text and tag overlap on/off."

#: slug -> (supplied terms, text, base score)
SUBSTRINGS: tuple[tuple[str, list[str], str, float], ...] = (
    ("nest-abc", ["ab", "abc", "bc", "abcd"], "abc", 3),
    ("nest-inside", ["ab", "abc", "bc", "abcd"], "xabcx", 3),
    ("nest-split", ["ab", "abc", "bc", "abcd"], "ab c", 1),
    ("nest-split2", ["ab", "abc", "bc", "abcd"], "a bc", 1),
    ("nest-upper", ["ab", "abc", "bc", "abcd"], "ABCD", 4),
    ("nest-repeat", ["ab", "abc", "bc", "abcd"], "abcabc", 3),
    ("nest-newline", ["ab", "abc", "bc", "abcd"], "a\nbc d", 1),
    ("nest-none", ["ab", "abc", "bc", "abcd"], "zzz", 0),
    ("nest-nbsp", ["ab", "abc", "bc", "abcd"], "ab\u00a0cd", 1),
    ("nest-rotated", ["ab", "abc", "bc", "abcd"], "bca", 1),
    ("overlap-self", ["aa"], "aaa", 1),
    ("overlap-pair", ["aba", "bab"], "ababa", 2),
    ("overlap-chain", ["ab", "ba", "aba", "bab"], "abab", 4),
    ("case-upper", ["alpha"], "ALPHA", 1),
    ("case-mixed", ["alpha"], "AlPhA", 1),
    ("case-term-upper", ["ALPHA"], "alpha", 1),
    ("no-boundary", ["cat"], "concatenate", 1),
    ("phrase-boundary", ["a b"], "xa by", 1),
    ("phrase-newline", ["alpha beta"], "alpha\nbeta", 1),
    ("phrase-crlf", ["alpha beta"], "alpha\r\nbeta", 1),
    ("phrase-run", ["alpha beta"], "alpha \t\n beta", 1),
    ("phrase-nbsp", ["alpha beta"], "alpha\u00a0beta", 1),
    ("phrase-ideographic", ["alpha beta"], "alpha\u3000\u3000beta", 1),
    ("phrase-zwsp", ["alpha beta"], "alpha\u200bbeta", 0),
    ("phrase-edges", ["alpha beta"], "  alpha   beta  ", 1),
    ("phrase-term-tab", ["alpha\tbeta"], "alpha beta", 1),
    ("term-trailing-ws", ["beta "], "alpha beta", 1),
    ("phrase-needs-space", ["alpha beta"], "alphabeta", 0),
    ("text-trim-edge", [" x"], "x", 1),
    ("umlaut", ["ödel"], "GÖDEL", 1),
    ("nfc-vs-nfd", ["é"], "e\u0301", 0),
    ("nfd-vs-nfc", ["e\u0301"], "é", 0),
    ("combining-prefix", ["e"], "e\u0301", 1),
    ("emoji", ["😀😀"], "x😀😀😀", 1),
    ("nonbmp-upper", ["\U00010428"], "\U00010400", 1),
    ("cjk", ["文字"], "漢字と文字", 1),
    ("empty-text", ["ab"], "", 0),
    ("ws-only-text", ["ab"], " \t\u3000", 0),
    ("term-equals-text", ["whole text"], "Whole Text", 1),
    ("term-longer", ["alphabet"], "alpha", 0),
    ("digits", ["12"], "x123", 1),
    ("punct", ["a.b"], "xa.bx", 1),
    ("backslash", ["\\n"], "a\\nb", 1),
    ("quote", ['"q"'], 'say "Q"', 1),
)

#: slug -> (query, supplied terms or None, tags, text, (score with overlap on, off))
TAGS: tuple[tuple[str, str, list[str] | None, list[str], str, tuple[float, float]], ...] = (
    ("exact", "alpha", None, ["alpha"], "zz", (0.5, 0)),
    ("case", "alpha", None, ["ALPHA"], "zz", (0.5, 0)),
    ("with-text", "alpha", None, ["alpha"], "alpha", (1.5, 1)),
    ("partial", "alpha", None, ["alphabet"], "zz", (0, 0)),
    ("prefix", "alpha", None, ["alp"], "zz", (0, 0)),
    ("leading-space", "alpha", None, [" alpha"], "zz", (0, 0)),
    ("trailing-space", "alpha", None, ["alpha "], "zz", (0, 0)),
    ("dup-tags", "alpha", None, ["alpha", "Alpha", "ALPHA"], "zz", (0.5, 0)),
    ("two-terms", "alpha beta", None, ["beta", "alpha"], "zz", (1.0, 0)),
    (
        "three-with-text",
        "alpha beta gamma",
        None,
        ["gamma", "beta", "alpha"],
        "alpha beta gamma",
        (4.5, 3),
    ),
    ("phrase", "zz", ["alpha beta"], ["alpha beta"], "zz", (0.5, 0)),
    ("phrase-ws-tag", "zz", ["alpha beta"], ["alpha  beta"], "zz", (0, 0)),
    ("phrase-tab-tag", "zz", ["alpha beta"], ["alpha\tbeta"], "zz", (0, 0)),
    ("empty-tag", "alpha", None, [""], "zz", (0, 0)),
    ("short-derived", "a alpha", None, ["a"], "zz", (0, 0)),
    ("short-supplied", "zz", ["a"], ["a"], "zz", (0.5, 0)),
    ("sigma", "οδος", None, ["ΟΔΟΣ"], "zz", (0.5, 0)),
    ("kelvin", "kk", None, ["\u212a\u212a"], "zz", (0.5, 0)),
    ("nonbmp", "😀😀", None, ["😀😀"], "zz", (0.5, 0)),
    ("many-tags", "alpha", None, [f"t{i}" for i in range(30)] + ["alpha"], "zz", (0.5, 0)),
    ("no-tags", "alpha", None, [], "zz", (0, 0)),
    ("tag-not-text", "beta", None, ["alpha"], "alpha", (0, 0)),
    ("dotted-i", "i̇x", None, ["İX"], "zz", (0.5, 0)),
    ("supplied-upper", "zz", ["ALPHA"], ["alpha"], "zz", (0.5, 0)),
)


#: rows also run with enable_tag_overlap omitted (default true, S6-INPUT-10)
_DEFAULT_ROWS = frozenset({"exact", "with-text", "two-terms", "phrase", "sigma"})


def _cased(*texts: str) -> tuple[str, ...]:
    """INT-06 when the readings of 'lower' disagree on one of ``texts``."""
    cases = ("full", "case-folding", "ascii", "simple")
    disagree = any(len({lower(t, case) for case in cases}) > 1 for t in texts)  # type: ignore[arg-type]
    return ("INT-06",) if disagree else ()


def _tags_cased(tags: list[str]) -> tuple[str, ...]:
    """INT-25 when its readings of 'lowercased' (full, or Go's simple 1:1 mapping) disagree on
    a tag: the normalized tags are in record_hash even when the tag bonus is off."""
    disagree = any(lower(tag) != lower(tag, "simple") for tag in tags)
    return ("INT-25",) if disagree else ()


def _spaced(terms: list[str], text: str) -> tuple[str, ...]:
    """INT-05 when a term or the text holds whitespace that is not ASCII; INT-31 when the
    text's ends do (the excerpt strips them)."""
    found: tuple[str, ...] = ()
    if any(normalize_text(t) != normalize_text(t, "ascii") for t in (*terms, text)):
        found += ("INT-05",)
    if strip_ws(text) != strip_ws(text, "ascii"):
        found += ("INT-31",)
    return found


def _score_is(expected: float) -> Callable[[Json], str | None]:
    def check(result: Json) -> str | None:
        got = scores(result)[0]
        return None if got == expected else f"score {got!r}, intended {expected!r}"

    return check


def cases() -> Iterator[Case]:
    """Substring table, then each tag row with overlap on, off and defaulted."""
    for slug, terms, text, base in SUBSTRINGS:
        yield Case(
            id=f"match-{slug}",
            description=f"Substring match of {terms!r} in {text!r}: base {base:g}.",
            comment=f"query_terms {terms!r}; text {text!r}; intended score {base:g}.",
            clauses=("S6-SCORE-07", "S6-SCORE-08", "S6-SCORE-18"),
            # INT-08: supplied terms are normalized (checked: python -m tools readings)
            interpretations=(
                "INT-08",
                "INT-09",
                "INT-10",
                *_cased(*terms, text),
                *_spaced(terms, text),
            ),
            request=make_request("zz", scoring={"query_terms": terms}),
            files={"stores/s.jsonl": store(line("m1", text))},
            check=_score_is(base),
        )
    for slug, query, supplied, tags, text, (on, off) in TAGS:
        modes = ["on"]
        if off != on:
            modes.append("off")
        if slug in _DEFAULT_ROWS:
            modes.append("default")
        for mode in modes:
            scoring: dict[str, Json] = {}
            if supplied is not None:
                scoring["query_terms"] = supplied
            if mode != "default":
                scoring["enable_tag_overlap"] = mode == "on"
            expected = off if mode == "off" else on
            shown = ", ".join(repr(t) for t in tags[:4]) + (", ..." if len(tags) > 4 else "")
            yield Case(
                id=f"match-tag-{slug}-{mode}",
                description=f"Tag overlap {mode}: tags [{shown}] with query {query!r}.",
                comment=(
                    f"query {query!r}; query_terms {supplied!r}; tags [{shown}]; text {text!r}; "
                    f"enable_tag_overlap {mode}; intended score {expected:g}."
                ),
                clauses=(
                    ("S6-SCORE-09", "S6-INPUT-10", "S6-SCORE-18")
                    if mode != "on"
                    else ("S6-SCORE-10", "S6-SCORE-11", "S6-READ-11", "S6-SCORE-18")
                ),
                interpretations=(("INT-25", "INT-10") if mode != "off" else ("INT-10",))
                + (_tags_cased(tags) if mode == "off" else ())
                + (("INT-08",) if supplied is not None else ())
                + _cased(query, *(supplied or ())),
                request=make_request(query, scoring=scoring or None),
                files={"stores/s.jsonl": store(line("m1", text, tags=tags))},
                check=_score_is(expected),
            )
