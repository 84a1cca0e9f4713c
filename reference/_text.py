"""Whitespace, lowercasing and the one text normalization SPEC-006 uses everywhere.

INT-05: whitespace is exactly the 25 code points with the Unicode White_Space property, from
this table, for trimming, collapsing and splitting.
INT-06: "lower" is Unicode default full lowercasing (str.lower(), Final_Sigma included);
``LOWERCASE`` holds it and the register's alternatives (case folding, ASCII, simple 1:1).

Speed note: Python's str.split() splits on White_Space plus exactly four more code points,
U+001C..U+001F (tests/test_text.py proves the difference is those four and nothing else), so
text free of them takes the C fast path; other text takes the table-driven regex.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

__all__ = [
    "ASCII_WHITESPACE",
    "LOWERCASE",
    "PINNED_TEXT",
    "WHITESPACE",
    "WHITE_SPACE",
    "TextRules",
    "normalize",
    "split_terms",
    "strip_white_space",
    "text_rules",
]

#: The Unicode White_Space property (PropList.txt), INT-05.
WHITE_SPACE: Final[str] = (
    "\u0009\u000a\u000b\u000c\u000d\u0020\u0085\u00a0\u1680"
    "\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000"
)
#: INT-05/ascii-whitespace-space-t: space, \t, \n, \v, \f, \r.
ASCII_WHITESPACE: Final[str] = " \t\n\u000b\u000c\r"
#: Code points str.split() treats as whitespace although they are not White_Space.
SPLIT_EXTRAS: Final[str] = "\u001c\u001d\u001e\u001f"
_RUN: Final = re.compile("[" + re.escape(WHITE_SPACE) + "]+")


def strip_white_space(text: str) -> str:
    """Remove leading and trailing White_Space (S6-TRUNC-02, INT-31)."""
    return text.strip(WHITE_SPACE)


def _split_is_exact(text: str) -> bool:
    return not any(extra in text for extra in SPLIT_EXTRAS)


def collapse(text: str) -> str:
    """Trim White_Space and collapse each White_Space run to one U+0020 (INT-05)."""
    if _split_is_exact(text):
        return " ".join(text.split())
    return _RUN.sub(" ", text).strip(" ")


def normalize(text: str) -> str:
    """Trim, collapse each White_Space run to one U+0020, lowercase (S6-HASH-05..07, INT-09).

    S6-SCORE-02: "normalize query: trim, lower, collapse whitespace".  The same function
    normalizes candidate text for matching (INT-09) and supplied terms (INT-08).
    """
    return collapse(text).lower()


def split_terms(normalized: str) -> list[str]:
    """Split a normalized string on its single spaces (S6-SCORE-03); empty parts included."""
    return normalized.split(" ")


@dataclass(frozen=True)
class TextRules:
    """One reading of INT-05 and INT-06 as the functions the stages call: trim-collapse-lower
    (``normalize``), trim (``strip``) and lowercase alone (``lower``, INT-09's alternative
    that matches the lowercased text without collapsing it)."""

    normalize: Callable[[str], str]
    strip: Callable[[str], str]
    lower: Callable[[str], str] = str.lower


def _rules(table: str, lower: Callable[[str], str] = str.lower) -> TextRules:
    """The rules for another whitespace table or lowercasing (an alternative of INT-05 or
    INT-06: plain, no fast path)."""
    run = re.compile("[" + re.escape(table) + "]+")

    def strip(text: str) -> str:
        return text.strip(table)

    def normalize(text: str) -> str:
        return lower(run.sub(" ", text).strip(" "))

    return TextRules(normalize, strip, lower)


_ASCII_UPPER: Final = {code: code + 32 for code in range(ord("A"), ord("Z") + 1)}


def ascii_lower(text: str) -> str:
    """INT-06/ascii-lowercasing: only A-Z are lowercased."""
    return text.translate(_ASCII_UPPER)


def simple_lower(text: str) -> str:
    """INT-06/simple-1-1-lowercase: each code point's simple (1:1) lowercase mapping
    (UnicodeData.txt), no context.  It differs from str.lower() on exactly two code points:
    U+0130 (full: i + U+0307; simple: i) and U+03A3 (full: Final_Sigma gives U+03C2 at the
    end of a word; simple: always U+03C3)."""
    return text.replace("\u0130", "i").replace("\u03a3", "\u03c3").lower()


#: The pinned reading (INT-05: White_Space), with its fast path.
PINNED_TEXT: Final = TextRules(normalize, strip_white_space)
#: INT-05: what whitespace is (the pinned reading first). ``python``: str.split()/strip()
#: (White_Space and U+001C..U+001F); ``ecmascript``: String.prototype.trim and /\s/
#: (White_Space without U+0085, with U+FEFF).
WHITESPACE: Final = {
    "white-space": PINNED_TEXT,
    "python": _rules(WHITE_SPACE + SPLIT_EXTRAS),
    "ecmascript": _rules(WHITE_SPACE.replace("\u0085", "") + "\ufeff"),
    "ascii": _rules(ASCII_WHITESPACE),
}
#: The whitespace table of each INT-05 reading (what `text_rules` builds other rules from).
_TABLES: Final = {
    "white-space": WHITE_SPACE,
    "python": WHITE_SPACE + SPLIT_EXTRAS,
    "ecmascript": WHITE_SPACE.replace("\u0085", "") + "\ufeff",
    "ascii": ASCII_WHITESPACE,
}
#: INT-06: what "lower" is (the pinned reading first): Unicode default full lowercasing,
#: case folding, ASCII only, or the simple 1:1 mapping without Final_Sigma.
LOWERCASE: Final[dict[str, Callable[[str], str]]] = {
    "full": str.lower,
    "case-folding": str.casefold,
    "ascii": ascii_lower,
    "simple": simple_lower,
}


def text_rules(whitespace: str, lowercase: str = "full") -> TextRules:
    """The text rules of an INT-05 reading and an INT-06 reading (``WHITESPACE`` itself for
    the pinned lowercasing, so the pinned rules keep their fast path)."""
    if lowercase == "full":
        return WHITESPACE[whitespace]
    return _rules(_TABLES[whitespace], LOWERCASE[lowercase])
