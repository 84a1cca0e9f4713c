"""Text readings: the White_Space table, trim/split/collapse, lowercasing, query terms.

INT-05 (whitespace is Unicode White_Space, 25 code points), INT-06 (lowercase is the Unicode
default full lowercase mapping, ``str.lower``), INT-07 (term length in code points), INT-08
(supplied terms normalized like the query), INT-09 (candidate text normalized for matching).
"""

from __future__ import annotations

import functools
import unicodedata
from typing import Literal

__all__ = [
    "WHITE_SPACE",
    "Lowercase",
    "SuppliedTerms",
    "TermLength",
    "Whitespace",
    "derive_terms",
    "lower",
    "normalize_text",
    "split_ws",
    "strip_ws",
    "supplied_terms",
    "whitespace_table",
]

# INT-05: "Whitespace is exactly the 25 code points with the Unicode White_Space property".
_WS_SINGLES = (0x20, 0x85, 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000)
WHITE_SPACE = frozenset(map(chr, (*range(0x09, 0x0E), *range(0x2000, 0x200B), *_WS_SINGLES)))
assert len(WHITE_SPACE) == 25


#: INT-05: which code points are whitespace: the pinned Unicode "white-space" table, or, the
#: register's ``alternatives[1]`` and ``[2]``, "python" ("Python str.split() / str.strip()
#: semantics.", ``INT-05/python``) and "ecmascript" ("ECMAScript String.prototype.trim and
#: /\s+/.", ``INT-05/ecmascript``), and ``alternatives[0]``, "ascii" ("ASCII whitespace only (space,
#: \t, \n, \v, \f, \r).", ``INT-05/ascii-whitespace-space-t``).
Whitespace = Literal["white-space", "python", "ecmascript", "ascii"]

# ECMA-262 WhiteSpace (<TAB> <VT> <FF> <ZWNBSP> and <USP>, any "Zs" code point) and
# LineTerminator (<LF> <CR> <LS> <PS>): what String.prototype.trim removes and /\s/ matches.
_ECMASCRIPT_NAMED = frozenset("\t\v\f\ufeff\n\r\u2028\u2029")


@functools.cache
def whitespace_table(reading: Whitespace = "white-space") -> frozenset[str]:
    """INT-05: the whitespace code points under ``reading`` (used for trimming the query,
    collapsing, splitting terms, normalizing candidate text and stripping excerpts)."""
    if reading == "python":  # what str.split() and str.strip() without arguments split on
        return frozenset(ch for ch in map(chr, range(0x110000)) if ch.isspace())
    if reading == "ascii":  # space, \t, \n, \v (U+000B), \f (U+000C), \r
        return frozenset(" \t\n\x0b\x0c\r")
    if reading == "ecmascript":
        spaces = (ch for ch in map(chr, range(0x110000)) if unicodedata.category(ch) == "Zs")
        return _ECMASCRIPT_NAMED | frozenset(spaces)
    return WHITE_SPACE


def strip_ws(s: str, ws: Whitespace = "white-space") -> str:
    """INT-31 / TRUNCATION: 'strip leading/trailing whitespace' (White_Space only; ``ws`` is the
    INT-05 reading)."""
    table = whitespace_table(ws)
    start, end = 0, len(s)
    while start < end and s[start] in table:
        start += 1
    while end > start and s[end - 1] in table:
        end -= 1
    return s[start:end]


def split_ws(s: str, ws: Whitespace = "white-space") -> list[str]:
    """Split on runs of White_Space, dropping empty pieces (``ws``: the INT-05 reading)."""
    table = whitespace_table(ws)
    spaced = "".join(" " if ch in table else ch for ch in s)
    return [piece for piece in spaced.split(" ") if piece != ""]


#: INT-06: 'lower' is the Unicode default "full" lowercase mapping (pinned), or the register's
#: alternatives "case-folding" ("Case folding (str.casefold()): ß -> ss, ﬁ -> fi."), "ascii"
#: ("ASCII-only lowercasing.") and "simple" ("Simple (1:1) lowercase mapping without
#: Final_Sigma."); they apply to the query, supplied terms and candidate text (tags: INT-25).
Lowercase = Literal["full", "case-folding", "ascii", "simple"]


def _simple_lower(ch: str) -> str:
    """The simple (UnicodeData.txt field 13) lowercase mapping of one code point: the full
    mapping of the code point alone (no context, so no Final_Sigma) where that is one code
    point; U+0130's full mapping is i + U+0307, its simple one U+0069."""
    full = ch.lower()
    if len(full) == 1:
        return full
    assert ch == "\u0130", ch  # the only one-to-many lowercase mapping (SpecialCasing.txt)
    return "i"


def lower(s: str, case: Lowercase = "full") -> str:
    """INT-06: lowercase ``s`` under the reading ``case``."""
    if case == "case-folding":
        return s.casefold()
    if case == "ascii":
        return "".join(chr(ord(ch) + 32) if "A" <= ch <= "Z" else ch for ch in s)
    if case == "simple":
        return "".join(map(_simple_lower, s))
    return s.lower()  # Unicode default full lowercase mapping == str.lower()


def normalize_text(s: str, ws: Whitespace = "white-space", case: Lowercase = "full") -> str:
    """HASHING: 'trim, collapse internal whitespace to single spaces, lowercased' (INT-05/06/09)."""
    return lower(" ".join(split_ws(s, ws)), case)


#: INT-07: a term's length in Unicode "code-points" (pinned), or in "utf-16-units"
#: (``INT-07/utf-16-units``, the register's ``alternatives[0]``), or in "utf-8-bytes"
#: (``INT-07/utf-8-bytes``, ``alternatives[1]``), or in "grapheme-clusters"
#: (``INT-07/grapheme-clusters``, ``alternatives[2]``).
TermLength = Literal["code-points", "utf-16-units", "utf-8-bytes", "grapheme-clusters"]


def _grapheme_class(ch: str) -> str:
    """The UAX #29 Grapheme_Cluster_Break class of ``ch``, as far as a term can hold it: from
    the general category and code point ranges (``unicodedata`` has no such property)."""
    cp = ord(ch)
    if cp == 0x200D:
        return "ZWJ"
    if 0x1F1E6 <= cp <= 0x1F1FF:
        return "RI"
    if 0x1100 <= cp <= 0x115F or 0xA960 <= cp <= 0xA97C:
        return "L"
    if 0x1160 <= cp <= 0x11A7 or 0xD7B0 <= cp <= 0xD7C6:
        return "V"
    if 0x11A8 <= cp <= 0x11FF or 0xD7CB <= cp <= 0xD7FB:
        return "T"
    if 0xAC00 <= cp <= 0xD7A3:
        return "LV" if (cp - 0xAC00) % 28 == 0 else "LVT"
    cat = unicodedata.category(ch)
    if cat in ("Mn", "Me") or cp == 0x200C or 0x1F3FB <= cp <= 0x1F3FF or 0xE0020 <= cp <= 0xE007F:
        return "Extend"  # Grapheme_Extend, ZWNJ, emoji modifiers, tag characters
    if cat == "Mc":
        return "SpacingMark"
    if cat in ("Cc", "Zl", "Zp") or (
        cat == "Cf"
        and cp
        not in (0x0600, 0x0601, 0x0602, 0x0603, 0x0604, 0x0605, 0x06DD, 0x070F, 0x08E2, 0x110BD)
    ):
        return "Control"
    if cat == "So" and cp >= 0x2100:
        return "Pictographic"  # an approximation of Extended_Pictographic
    return "Other"


_VIRAMAS = frozenset((0x094D, 0x09CD, 0x0ACD, 0x0B4D, 0x0C4D, 0x0D4D))  # InCB=Linker


def _indic_consonant(ch: str) -> bool:
    """InCB=Consonant, approximately: a letter of a script whose virama is a linker."""
    return unicodedata.category(ch) == "Lo" and any(
        base <= ord(ch) < base + 0x80 for base in (0x0900, 0x0980, 0x0A80, 0x0B00, 0x0C00, 0x0D00)
    )


def _graphemes(term: str) -> int:
    """UAX #29 extended grapheme clusters: count the boundaries GB3..GB999 allow."""
    count, prev, ri_run = 0, "", 0
    emoji = zwj_emoji = False  # ExtPict Extend* so far; ... followed by a ZWJ (GB11)
    conjunct = linked = False  # InCB Consonant [Extend Linker]* so far; ... with a Linker (GB9c)
    for ch in term:
        cls = _grapheme_class(ch)
        joins = prev != "" and (
            (prev != "Control" and cls in ("Extend", "ZWJ", "SpacingMark"))  # GB9, GB9a
            or (prev == "L" and cls in ("L", "V", "LV", "LVT"))  # GB6
            or (prev in ("LV", "V") and cls in ("V", "T"))  # GB7
            or (prev in ("LVT", "T") and cls == "T")  # GB8
            or (prev == "ZWJ" and zwj_emoji and cls == "Pictographic")  # GB11
            or (prev == "RI" and cls == "RI" and ri_run % 2 == 1)  # GB12, GB13
            or (linked and _indic_consonant(ch))  # GB9c
        )
        if cls == "Control" or prev == "Control":
            joins = False  # GB4, GB5
        count += not joins
        ri_run = ri_run + 1 if cls == "RI" else 0
        zwj_emoji = cls == "ZWJ" and emoji
        emoji = cls == "Pictographic" or (emoji and cls == "Extend")
        if _indic_consonant(ch):
            conjunct, linked = True, False
        elif conjunct and (ord(ch) in _VIRAMAS or cls in ("Extend", "ZWJ")):
            linked = linked or ord(ch) in _VIRAMAS
        else:
            conjunct = linked = False
        prev = cls
    return count


def term_length(term: str, unit: TermLength = "code-points") -> int:
    """INT-07: 'Length is counted in Unicode code points'; ``unit="utf-16-units"`` is
    INT-07/utf-16-units, "UTF-16 code units (JavaScript .length)": a code point above U+FFFF
    is a surrogate pair, two units."""
    if unit == "utf-16-units":
        return sum(2 if ord(ch) > 0xFFFF else 1 for ch in term)
    if unit == "utf-8-bytes":  # "UTF-8 bytes.": 1 to 4 bytes by code point range
        return sum(1 + (ord(ch) >= 0x80) + (ord(ch) >= 0x800) + (ord(ch) >= 0x10000) for ch in term)
    if unit == "grapheme-clusters":  # "Grapheme clusters.": UAX #29 extended clusters
        return _graphemes(term)
    return len(term)


def derive_terms(
    query: str,
    length: TermLength = "code-points",
    ws: Whitespace = "white-space",
    case: Lowercase = "full",
) -> list[str]:
    """SCORING 'Query term derivation (if scoring.query_terms absent)' steps 1-5; ``length`` is
    the INT-07 reading of a term's length, ``ws`` the INT-05 reading of whitespace, ``case``
    the INT-06 reading of 'lower'."""
    normalized = normalize_text(query, ws, case)  # 1) normalize query: trim, lower, collapse
    terms = split_ws(normalized, ws)  # 2) split on whitespace  3) drop empty terms
    terms = [t for t in terms if term_length(t, length) >= 2]  # 4) keep terms length >= 2 (INT-07)
    return list(dict.fromkeys(terms))  # 5) appearance order, then unique (first wins)


#: INT-08: supplied query_terms are "normalized" like the query (pinned), or used "verbatim"
#: (``INT-08/verbatim``, the register's ``alternatives[0]``), or "derived" ("Apply all
#: derivation steps (split, length filter) to supplied terms.", ``alternatives[1]``), or an
#: empty list is "empty-is-absent" ("Treat an empty list as absent and derive from the query.",
#: ``alternatives[2]``: the caller derives; a non-empty list is normalized as pinned).
SuppliedTerms = Literal["normalized", "verbatim", "derived", "empty-is-absent"]


def supplied_terms(
    terms: list[str],
    reading: SuppliedTerms = "normalized",
    ws: Whitespace = "white-space",
    case: Lowercase = "full",
    length: TermLength = "code-points",
) -> list[str]:
    """INT-08: each supplied term normalized like the query (``ws``: the INT-05 reading);
    empties removed; first wins.

    ``reading="verbatim"`` is INT-08/verbatim, "Use supplied terms verbatim": not trimmed,
    collapsed or lowercased, nothing removed as empty; only SCORING step 5's "unique (first
    occurrence wins)" still applies.
    """
    if reading == "verbatim":
        return list(dict.fromkeys(terms))
    if reading == "derived":  # steps 1-4 on each term; step 5 over them all
        pieces = [piece for t in terms for piece in derive_terms(t, length, ws, case)]
        return list(dict.fromkeys(pieces))
    normalized = [normalize_text(t, ws, case) for t in terms]
    return list(dict.fromkeys(t for t in normalized if t != ""))
