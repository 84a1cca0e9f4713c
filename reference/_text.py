"""Whitespace, lowercasing and the one text normalization SPEC-006 uses everywhere.

INT-05: whitespace is exactly the 25 code points with the Unicode White_Space property, from
this table, for trimming, collapsing and splitting.
INT-06: "lower" is Unicode default full lowercasing (str.lower(), Final_Sigma included).

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
    "PINNED_TEXT",
    "WHITESPACE",
    "WHITE_SPACE",
    "TextRules",
    "normalize",
    "split_terms",
    "strip_white_space",
]

#: The Unicode White_Space property (PropList.txt), INT-05.
WHITE_SPACE: Final[str] = (
    "\u0009\u000a\u000b\u000c\u000d\u0020\u0085\u00a0\u1680"
    "\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000"
)
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
    """One reading of INT-05 as the functions the stages call: trim-collapse-lower
    (``normalize``) and trim (``strip``)."""

    normalize: Callable[[str], str]
    strip: Callable[[str], str]


def _rules(table: str) -> TextRules:
    """The rules for another whitespace table (an alternative of INT-05: plain, no fast path)."""
    run = re.compile("[" + re.escape(table) + "]+")

    def strip(text: str) -> str:
        return text.strip(table)

    def normalize(text: str) -> str:
        return run.sub(" ", text).strip(" ").lower()

    return TextRules(normalize, strip)


#: The pinned reading (INT-05: White_Space), with its fast path.
PINNED_TEXT: Final = TextRules(normalize, strip_white_space)
#: INT-05: what whitespace is (the pinned reading first). ``python``: str.split()/strip()
#: (White_Space and U+001C..U+001F); ``ecmascript``: String.prototype.trim and /\s/
#: (White_Space without U+0085, with U+FEFF).
WHITESPACE: Final = {
    "white-space": PINNED_TEXT,
    "python": _rules(WHITE_SPACE + SPLIT_EXTRAS),
    "ecmascript": _rules(WHITE_SPACE.replace("\u0085", "") + "\ufeff"),
}
