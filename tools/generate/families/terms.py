"""Term derivation (SCORING steps 1-5) and supplied ``scoring.query_terms`` (INT-08).

- ``terms-len-<slug>``: a one-word query whose length is 1 or 2 in some unit; the term is kept
  iff it has >= 2 code points after normalization (INT-07), which "m2" (containing the word)
  shows by ranking first;
- ``terms-supplied-<slug>``: the same word as a supplied term: no length filter (INT-08);
- ``terms-dup-*``: duplicates (after lowercasing / whitespace) count once (step 5, INT-10);
- ``terms-order-*``: permutations of the query give the same selection;
- ``terms-q-*``: supplied lists: normalization, [], empties, phrases, single characters.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from tools.generate.families._case import Case, Json, line, make_request, scores, store

__all__ = ["DESCRIPTION", "SHORT", "cases"]

DESCRIPTION = (
    "Generated: query term derivation (length in code points, duplicates, order) and supplied "
    "query_terms."
)

#: slug -> (word, kept by derivation?, why)
SHORT: tuple[tuple[str, str, bool, str], ...] = (
    ("ascii-1", "a", False, "1 code point"),
    ("ascii-2", "ab", True, "2 code points"),
    ("latin1-1", "é", False, "1 code point, 2 UTF-8 bytes"),
    ("combining-2", "e\u0301", True, "e + U+0301: 2 code points, one grapheme"),
    ("cjk-1", "中", False, "1 code point, 3 UTF-8 bytes"),
    ("cjk-2", "中文", True, "2 code points"),
    ("emoji-1", "😀", False, "1 code point, 2 UTF-16 units, 4 UTF-8 bytes"),
    ("emoji-2", "😀😀", True, "2 code points"),
    ("math-1", "\U0001d538", False, "U+1D538 (non-BMP letter, no lowercase): 1 code point"),
    ("flag-2", "\U0001f1eb\U0001f1f7", True, "regional indicator pair: 2 code points, 1 grapheme"),
    ("zwj-3", "\U0001f468\u200d\U0001f469", True, "ZWJ sequence: 3 code points"),
    ("digit-1", "7", False, "1 code point"),
    ("digit-2", "42", True, "2 code points"),
    ("punct-1", "-", False, "1 code point"),
    ("dotted-capital-i", "İ", True, "lowercases to i + U+0307: 2 code points after step 1"),
    ("ligature-1", "ﬁ", False, "U+FB01: 1 code point (no lowercase change, not folded)"),
    ("hangul-1", "한", False, "precomposed syllable: 1 code point"),
    ("hangul-3", "\u1112\u1161\u11ab", True, "conjoining jamo: 3 code points"),
    ("supplementary-1", "\U00010000", False, "U+10000: 1 code point"),
    ("combining-1", "\u0301", False, "a lone combining mark: 1 code point"),
    ("bom-2", "\ufeffa", True, "U+FEFF is not White_Space: 2 code points"),
    ("zwsp-2", "\u200bb", True, "U+200B is not White_Space: 2 code points"),
)


#: Not White_Space, but whitespace to some runtime's trim or split (INT-05's alternatives).
_RUNTIME_SPACES = frozenset("\ufeff\u001c\u001d\u001e\u001f")


def _cased(word: str) -> tuple[str, ...]:
    """INT-06 when some reading of 'lower' other than the full mapping changes ``word``."""
    return ("INT-06",) if word.lower() != word or word.casefold() != word else ()


def _short(slug: str, word: str, kept: bool, why: str) -> Iterator[Case]:
    files = {"stores/s.jsonl": store(line("m1", "zz"), line("m2", f"x{word}y"))}
    # INT-09: a term found inside the word 'x...y' matches a substring, not a whole word.
    inside = ("INT-09",)
    yield Case(
        id=f"terms-len-{slug}",
        description=f"Derived term {word!r} ({why}) is {'kept' if kept else 'dropped'}.",
        comment=f"query {word!r}: {why}; step 4 keeps terms of >= 2 code points.",
        clauses=("S6-SCORE-05", "S6-SCORE-02", "S6-SCORE-07"),
        # INT-05: a code point some runtimes treat as whitespace (U+FEFF, U+001C..U+001F)
        interpretations=(
            "INT-07",
            *(("INT-05",) if set(word) & _RUNTIME_SPACES else ()),
            *_cased(word),
            *(inside if kept else ()),
        ),
        request=make_request(word),
        files=files,
        selected=("m2", "m1") if kept else ("m1", "m2"),
    )
    yield Case(
        id=f"terms-supplied-{slug}",
        description=f"Supplied term {word!r} ({why}) is used without a length filter.",
        comment=f"query_terms [{word!r}]: INT-08 applies no length filter.",
        clauses=("S6-INPUT-11", "S6-SCORE-07"),
        interpretations=("INT-08", *inside),
        request=make_request("unrelated words", scoring={"query_terms": [word]}),
        files=files,
        selected=("m2", "m1"),
    )


def _score_is(expected: float) -> Callable[[Json], str | None]:
    def check(result: Json) -> str | None:
        got = scores(result)[0]
        return None if got == expected else f"first score {got!r}, intended {expected!r}"

    return check


#: slug -> (query, text of the only record, score, what it shows, other entries it depends on)
DUPLICATES: tuple[tuple[str, str, str, float, str, tuple[str, ...]], ...] = (
    ("dup-exact", "alpha alpha", "alpha", 1.0, "a repeated term counts once", ()),
    ("dup-case", "Alpha ALPHA alpha", "alpha", 1.0, "duplicates after lowercasing", ()),
    # INT-05: U+3000 is not ASCII whitespace
    (
        "dup-ws",
        "alpha\u3000alpha\talpha",
        "alpha",
        1.0,
        "duplicates split by any White_Space",
        ("INT-05",),
    ),
    ("dup-two", "alpha beta alpha beta", "alpha beta", 2.0, "two distinct terms", ()),
    ("dup-occurrences", "ab", "ab ab ab ab", 1.0, "occurrences are not counted (INT-10)", ()),
    # INT-09: 'ab' and 'abc' are inside the word 'abcd'
    ("dup-nested", "ab abc abcd", "abcd", 3.0, "nested terms each count (INT-10)", ("INT-09",)),
    ("dup-short-mixed", "a ab a ab b", "ab", 1.0, "short terms dropped, duplicates removed", ()),
    # INT-06: the final Σ is ς under the full mapping only
    ("dup-sigma", "ΟΔΟΣ οδος", "οδος", 1.0, "ΟΔΟΣ lowercases to οδος: one term", ("INT-06",)),
    ("dup-many", " ".join(["xy"] * 40), "xy", 1.0, "forty copies, one term", ()),
)

ORDERS: tuple[tuple[str, str], ...] = (
    ("order-abc", "alpha beta gamma"),
    ("order-cba", "gamma beta alpha"),
    ("order-bac", "beta alpha gamma"),
    ("order-dup-first", "gamma gamma alpha beta"),
)

#: slug -> (query_terms, selected order over m1 'zz', m2 'alpha beta', m3 'Alpha-Beta x', and
#: the entries besides INT-08 it depends on: INT-09 where a term matches m3's capitals or a
#: part of a word, INT-05 where a phrase's run holds non-ASCII White_Space, INT-10 where a
#: term occurs twice in a text)
SUPPLIED: tuple[tuple[str, list[str], tuple[str, ...], str, tuple[str, ...]], ...] = (
    ("q-normalized", ["  ALPHA  "], ("m2", "m3", "m1"), "trimmed and lowercased", ("INT-09",)),
    ("q-phrase", ["alpha beta"], ("m2", "m1", "m3"), "a phrase is not split", ()),
    (
        "q-phrase-ws",
        ["Alpha\t\u00a0 Beta"],
        ("m2", "m1", "m3"),
        "a phrase's run collapses",
        ("INT-05",),
    ),
    ("q-empty-list", [], ("m1", "m2", "m3"), "no terms: every score 0", ()),
    ("q-empties", ["", "   ", "\u3000"], ("m1", "m2", "m3"), "empty after normalization", ()),
    ("q-single-char", ["-"], ("m3", "m1", "m2"), "a one-character term is kept", ("INT-09",)),
    (
        "q-dups",
        ["beta", "BETA", " beta "],
        ("m2", "m3", "m1"),
        "duplicates after normalizing",
        ("INT-09",),
    ),
    ("q-two", ["alpha", "x"], ("m3", "m2", "m1"), "m3 matches both", ("INT-09",)),
    ("q-split-not", ["alpha beta x"], ("m1", "m2", "m3"), "no term splitting", ()),
    ("q-short-kept", ["a", "b"], ("m2", "m3", "m1"), "no length filter", ("INT-09", "INT-10")),
    ("q-query-ignored", ["zz"], ("m1", "m2", "m3"), "the query's own words are not terms", ()),
)


def cases() -> Iterator[Case]:
    """Length cases (derived and supplied), duplicates, order, supplied lists."""
    for slug, word, kept, why in SHORT:
        yield from _short(slug, word, kept, why)
    for slug, query, text, score, why, also in DUPLICATES:
        yield Case(
            id=f"terms-{slug}",
            description=f"Term derivation: {why}.",
            comment=f"query {query[:40]!r}; text {text!r}; intended score {score}.",
            clauses=("S6-SCORE-06", "S6-SCORE-04", "S6-SCORE-07", "S6-SCORE-08"),
            interpretations=("INT-10", *also),
            request=make_request(query, scoring={"enable_tag_overlap": False}),
            files={"stores/s.jsonl": store(line("m1", text))},
            check=_score_is(score),
        )
    for slug, query in ORDERS:
        yield Case(
            id=f"terms-{slug}",
            description="The order of query words does not change scores or selection.",
            comment=f"query {query!r}; m3 has 3 terms, m2 2, m1 1.",
            clauses=("S6-SCORE-06", "S6-SCORE-07"),
            interpretations=(),
            request=make_request(query),
            files={
                "stores/s.jsonl": store(
                    line("m1", "gamma"), line("m2", "beta gamma"), line("m3", "alpha beta gamma")
                )
            },
            selected=("m3", "m2", "m1"),
        )
    files = {
        "stores/s.jsonl": store(
            line("m1", "zz"), line("m2", "alpha beta"), line("m3", "Alpha-Beta x")
        )
    }
    for slug, terms, order, why, also in SUPPLIED:
        yield Case(
            id=f"terms-{slug}",
            description=f"Supplied query_terms {terms!r}: {why}.",
            comment=(
                f"query 'alpha beta' (not used); query_terms {terms!r}; "
                "texts m1 'zz', m2 'alpha beta', m3 'Alpha-Beta x'."
            ),
            clauses=("S6-INPUT-11", "S6-SCORE-07"),
            interpretations=("INT-08", *also),
            request=make_request("alpha beta", scoring={"query_terms": terms}),
            files=files,
            selected=order,
        )
