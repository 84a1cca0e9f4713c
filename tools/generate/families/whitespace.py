"""Whitespace: each of the 25 White_Space code points (INT-05) in query trim, collapse and split,
in candidate text and in the excerpt strip; and the look-alikes that are NOT White_Space
(U+001C..U+001F, which Python's str.split() splits on; U+FEFF, which ECMAScript's \\s matches;
U+200B; U+180E, White_Space before Unicode 6.3).

Five vectors per code point ``c`` (``<tag>`` is ``u`` + four hex digits):

- ``ws-<tag>-trim``: query ``c+"alpha"+c``; only "m2" contains alpha, so m2 ranks first iff
  ``c`` is trimmed (else the term is ``c+"alpha"+c`` and the memory_id tie-break puts m1 first);
- ``ws-<tag>-split``: query ``"alpha"+c+"beta"``; "m2" contains only beta;
- ``ws-<tag>-collapse``: supplied term and candidate text with a run ``c c`` inside a phrase;
- ``ws-<tag>-strip``: text ``c c "a" c "b" c``: excerpt ``"a" c "b"`` iff ``c`` is whitespace;
- ``ws-<tag>-only``: query ``c c``: invalid_query iff ``c`` is whitespace.
"""

from __future__ import annotations

from collections.abc import Iterator

from tools.generate.families._case import WHITE_SPACE, Case, line, make_request, store

__all__ = ["DESCRIPTION", "LOOKALIKES", "cases"]

DESCRIPTION = (
    "Generated: Unicode White_Space (INT-05) in query trim/collapse/split, text and excerpt strip."
)

#: Not White_Space, but whitespace to some runtime's default.
LOOKALIKES: tuple[int, ...] = (0x1C, 0x1D, 0x1E, 0x1F, 0x180E, 0x200B, 0xFEFF)

_NAMES = {
    0x09: "CHARACTER TABULATION",
    0x0A: "LINE FEED",
    0x0B: "LINE TABULATION",
    0x0C: "FORM FEED",
    0x0D: "CARRIAGE RETURN",
    0x1C: "INFORMATION SEPARATOR FOUR",
    0x1D: "INFORMATION SEPARATOR THREE",
    0x1E: "INFORMATION SEPARATOR TWO",
    0x1F: "INFORMATION SEPARATOR ONE",
    0x20: "SPACE",
    0x85: "NEXT LINE",
    0xA0: "NO-BREAK SPACE",
    0x1680: "OGHAM SPACE MARK",
    0x180E: "MONGOLIAN VOWEL SEPARATOR",
    0x2000: "EN QUAD",
    0x2001: "EM QUAD",
    0x2002: "EN SPACE",
    0x2003: "EM SPACE",
    0x2004: "THREE-PER-EM SPACE",
    0x2005: "FOUR-PER-EM SPACE",
    0x2006: "SIX-PER-EM SPACE",
    0x2007: "FIGURE SPACE",
    0x2008: "PUNCTUATION SPACE",
    0x2009: "THIN SPACE",
    0x200A: "HAIR SPACE",
    0x200B: "ZERO WIDTH SPACE",
    0x2028: "LINE SEPARATOR",
    0x2029: "PARAGRAPH SEPARATOR",
    0x202F: "NARROW NO-BREAK SPACE",
    0x205F: "MEDIUM MATHEMATICAL SPACE",
    0x3000: "IDEOGRAPHIC SPACE",
    0xFEFF: "ZERO WIDTH NO-BREAK SPACE",
}


def _label(cp: int) -> str:
    return f"U+{cp:04X} {_NAMES[cp]}"


def _cases_for(cp: int) -> Iterator[Case]:
    c = chr(cp)
    ws = cp in WHITE_SPACE
    tag = f"u{cp:04x}"
    what = "White_Space" if ws else "not White_Space"
    label = _label(cp)
    ints = ("INT-05",)
    two = {"stores/s.jsonl": store(line("m1", "gamma ray"), line("m2", "alpha wave"))}

    yield Case(
        id=f"ws-{tag}-trim",
        description=f"Query wrapped in {label} ({what}): trimmed iff White_Space.",
        comment=f"query = c + 'alpha' + c with c = {label}; m2 matches only if c is trimmed.",
        clauses=("S6-HASH-05", "S6-HASH-04", "S6-SCORE-02", "S6-OUT-03", "S6-OUT-02"),
        interpretations=(*ints, "INT-11"),
        request=make_request(c + "alpha" + c),
        files=two,
        selected=("m2", "m1") if ws else ("m1", "m2"),
    )
    yield Case(
        id=f"ws-{tag}-split",
        description=f"Query terms split on {label} ({what}).",
        comment=f"query = 'alpha' + c + 'beta' with c = {label}; m2 'beta only' matches iff split.",
        clauses=("S6-SCORE-03", "S6-SCORE-04", "S6-SCORE-07"),
        interpretations=ints,
        request=make_request("alpha" + c + "beta"),
        files={"stores/s.jsonl": store(line("m1", "gamma"), line("m2", "beta only"))},
        selected=("m2", "m1") if ws else ("m1", "m2"),
    )
    yield Case(
        id=f"ws-{tag}-collapse",
        description=f"A run of {label} ({what}) collapses to one space in term, text and hash.",
        comment=(
            f"c = {label}; query 'Alpha'+c+c+'BETA'; query_terms ['alpha'+c+c+'beta']; "
            "m2 text 'ALPHA'+c+' '+c+'Beta'. Normalized both sides read 'alpha beta' iff c "
            "is White_Space."
        ),
        clauses=("S6-HASH-06", "S6-HASH-07", "S6-SCORE-07", "S6-INPUT-11"),
        interpretations=(*ints, "INT-08", "INT-09"),
        request=make_request(
            "Alpha" + c + c + "BETA", scoring={"query_terms": ["alpha" + c + c + "beta"]}
        ),
        files={
            "stores/s.jsonl": store(line("m1", "gamma"), line("m2", "ALPHA" + c + " " + c + "Beta"))
        },
        selected=("m2", "m1") if ws else ("m1", "m2"),
    )
    text = c + c + "a" + c + "b" + c
    yield Case(
        id=f"ws-{tag}-strip",
        description=f"Excerpt strip of {label} ({what}); interior characters kept.",
        comment=f"text = c c 'a' c 'b' c with c = {label}; the excerpt strips c only at the ends.",
        clauses=("S6-TRUNC-02", "S6-TRUNC-01", "S6-OUT-14", "S6-OUT-23"),
        interpretations=(*ints, "INT-31"),
        request=make_request("body"),
        files={"stores/s.jsonl": store(line("m1", text))},
        excerpts=("a" + c + "b",) if ws else (text,),
    )
    only = make_request(c + c)
    if ws:
        yield Case(
            id=f"ws-{tag}-only",
            description=f"A query of only {label} is empty after trim: invalid_query.",
            comment=f"query = c c with c = {label} (White_Space): empty after trim.",
            clauses=("S6-INPUT-01", "S6-ERR-02", "S6-HASH-05"),
            interpretations=(*ints, "INT-11"),
            request=only,
            files={"stores/s.jsonl": store(line("m1", "x"))},
            error=("invalid_query", "/query"),
        )
    else:
        yield Case(
            id=f"ws-{tag}-only",
            description=f"A query of only {label} (not White_Space) is valid; c c is a term.",
            comment=f"query = c c with c = {label}: one 2-code-point term, found in m2's text.",
            clauses=("S6-INPUT-01", "S6-SCORE-05", "S6-HASH-04"),
            # INT-09: the term is found inside m2's word 'x c c y'
            interpretations=(*ints, "INT-11", "INT-07", "INT-09"),
            request=only,
            files={"stores/s.jsonl": store(line("m1", "z"), line("m2", "x" + c + c + "y"))},
            selected=("m2", "m1"),
        )


def cases() -> Iterator[Case]:
    """Five vectors for each White_Space code point, then for each look-alike."""
    for cp in (*WHITE_SPACE, *LOOKALIKES):
        yield from _cases_for(cp)
