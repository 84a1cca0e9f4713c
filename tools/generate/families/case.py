"""Non-ASCII lowercasing (INT-06: Unicode default full lowercase mapping, not case folding) in
the query, supplied terms, candidate text and tags.

For each word in :data:`WORDS` (an upper-case spelling and its lowercase mapping), four vectors:

- ``case-<slug>-query``: the query is the upper spelling, "m2"'s text the lower one;
- ``case-<slug>-terms``: the same through supplied ``scoring.query_terms`` (INT-08);
- ``case-<slug>-text``: the query is the lower spelling, "m2"'s text the upper one (INT-09);
- ``case-<slug>-tag``: "m2" carries the upper spelling as a tag, its text does not match (INT-25).

In each, m2 ranks before m1 only if both sides lowercase to the same string. Then a few
specials where lowercasing must NOT make strings equal (case folding would).
"""

from __future__ import annotations

from collections.abc import Iterator

from tools.generate.families._case import Case, line, make_request, store

__all__ = ["DESCRIPTION", "WORDS", "cases"]

DESCRIPTION = "Generated: non-ASCII lowercasing (INT-06) in query, supplied terms, text and tags."

#: slug -> (upper spelling, its Unicode default full lowercase mapping, note)
WORDS: tuple[tuple[str, str, str, str], ...] = (
    ("dotted-i", "İSTANBUL", "i̇stanbul", "U+0130 lowercases to i + U+0307 (one-to-many)"),
    ("final-sigma", "ΟΔΟΣ", "οδος", "final Σ lowercases to ς (Final_Sigma context)"),
    ("medial-sigma", "ΣΟΦΙΑ", "σοφια", "Σ not at a word end lowercases to σ"),
    ("ohm", "\u2126MEGA", "\u03c9mega", "U+2126 OHM SIGN lowercases to U+03C9"),
    ("angstrom", "\u212bNGSTR", "\u00e5ngstr", "U+212B ANGSTROM SIGN lowercases to U+00E5"),
    ("kelvin", "\u212aELVIN", "kelvin", "U+212A KELVIN SIGN lowercases to ASCII k"),
    ("cyrillic", "ПРИВЕТ", "привет", "Cyrillic capitals"),
    ("greek", "ΑΘΗΝΑ", "αθηνα", "Greek capitals"),
    ("armenian", "ԱՐԵՎ", "արեվ", "Armenian capitals"),
    ("sharp-s", "STRAßE", "straße", "ß has no lowercase change (not folded to ss)"),
    ("capital-sharp-s", "STRA\u1e9eE", "straße", "U+1E9E lowercases to ß"),
    ("latin1", "ÉCOLE", "école", "Latin-1 capitals"),
    ("deseret", "\U00010400\U00010401", "\U00010428\U00010429", "non-BMP Deseret capitals"),
    ("georgian", "\u10a0\u10a1", "\u2d00\u2d01", "Georgian Asomtavruli to Nuskhuri"),
)


def _word_cases(slug: str, upper: str, lower: str, note: str) -> Iterator[Case]:
    ints = ("INT-06",)
    comment = f"upper {upper!r}, lower {lower!r}: {note}."
    yield Case(
        id=f"case-{slug}-query",
        description=f"Query {upper!r} is lowercased before matching ({slug}).",
        comment=comment,
        clauses=("S6-SCORE-02", "S6-HASH-07", "S6-SCORE-07"),
        interpretations=(*ints, "INT-11"),
        request=make_request(upper),
        files={"stores/s.jsonl": store(line("m1", "zz"), line("m2", f"see {lower} here"))},
        selected=("m2", "m1"),
    )
    yield Case(
        id=f"case-{slug}-terms",
        description=f"Supplied term {upper!r} is lowercased (INT-08) ({slug}).",
        comment=comment,
        clauses=("S6-INPUT-11", "S6-SCORE-07"),
        interpretations=(*ints, "INT-08"),
        request=make_request("anything", scoring={"query_terms": [upper]}),
        files={"stores/s.jsonl": store(line("m1", "zz"), line("m2", f"see {lower} here"))},
        selected=("m2", "m1"),
    )
    yield Case(
        id=f"case-{slug}-text",
        description=f"Candidate text {upper!r} is lowercased for matching (INT-09) ({slug}).",
        comment=comment,
        clauses=("S6-SCORE-07", "S6-SCORE-08"),
        interpretations=(*ints, "INT-09"),
        request=make_request(lower),
        files={"stores/s.jsonl": store(line("m1", "zz"), line("m2", f"SEE {upper} HERE"))},
        selected=("m2", "m1"),
    )
    yield Case(
        id=f"case-{slug}-tag",
        description=f"Tag {upper!r} is lowercased and matches the term exactly ({slug}).",
        comment=comment + " m2's text does not contain the term; only the tag bonus ranks it.",
        clauses=("S6-READ-12", "S6-SCORE-10", "S6-SCORE-11"),
        interpretations=(*ints, "INT-25"),
        request=make_request(lower),
        files={"stores/s.jsonl": store(line("m1", "zz"), line("m2", "nothing", tags=["x", upper]))},
        selected=("m2", "m1"),
    )


#: (slug, query, text of m2, description, matches?)
SPECIALS: tuple[tuple[str, str, str, str, bool], ...] = (
    ("sharp-s-not-folded", "strasse", "STRAßE", "ß is not case-folded to ss", False),
    ("sharp-s-query-not-folded", "STRAßE", "strasse", "query ß stays ß", False),
    ("sigma-final-vs-medial", "οδοσ", "ΟΔΟΣ", "text final Σ -> ς, term has σ", False),
    ("sigma-alone", "ΣΑ", "σα", "Σ before a letter lowercases to σ", True),
    ("dotted-i-alone", "İ", "i\u0307", "'İ' lowercases to 2 code points: a kept term", True),
    ("dotless-i", "ıstanbul", "ISTANBUL", "ASCII I lowercases to i, never to ı (U+0131)", False),
    ("kelvin-pair", "\u212a\u212a", "KK", "two KELVIN SIGNs lowercase to ASCII kk", True),
    ("fi-ligature", "ﬁx", "FIX", "U+FB01 has no lowercase change; not folded to fi", False),
    ("turkish-i-text", "istanbul", "İSTANBUL", "text İ -> i + U+0307: no 'istanbul' in it", False),
)


def cases() -> Iterator[Case]:
    """Four vectors per word, then the specials."""
    for slug, upper, lower, note in WORDS:
        yield from _word_cases(slug, upper, lower, note)
    for slug, query, text, why, matches in SPECIALS:
        yield Case(
            id=f"case-{slug}",
            description=f"Lowercasing, not folding: {why}.",
            comment=f"query {query!r}; m2 text {text!r}; m2 matches: {matches}.",
            clauses=("S6-SCORE-02", "S6-SCORE-07"),
            # 'İ' -> i + U+0307 is kept by its length, two code points (one grapheme): INT-07
            interpretations=("INT-06", "INT-07", "INT-09")
            if slug == "dotted-i-alone"
            else ("INT-06", "INT-09"),
            request=make_request(query),
            files={"stores/s.jsonl": store(line("m1", "zz"), line("m2", text))},
            selected=("m2", "m1") if matches else ("m1", "m2"),
        )
