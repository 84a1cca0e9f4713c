"""The token estimator (P2-TOK-01, P2-INT-01, P2-INT-02).

P2-TOK-01: "Use deterministic approximate estimator (character/word heuristic is acceptable
in this phase)." P2-TOK-02: "Do not call LLM just for counting." -- pure arithmetic on the text.

    estimate(text) = max(W, ceil(C / 4))

C counts Unicode code points (Python's ``len``), W counts maximal runs of non-whitespace code
points, whitespace being the 25 White_Space code points below (the same table as SPEC-006
INT-05, kept here so the Phase 2 engine stands alone).
"""

from __future__ import annotations

from typing import Final

__all__ = ["WHITE_SPACE", "WHITE_SPACE_TABLES", "estimate_tokens", "is_blank", "word_count"]

#: P2-INT-02: the Unicode White_Space property (PropList.txt), exactly 25 code points.
WHITE_SPACE: Final[frozenset[str]] = frozenset(
    "\u0009\u000a\u000b\u000c\u000d\u0020\u0085\u00a0\u1680"
    "\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000"
)
#: P2-INT-02 and its executable alternatives (``Readings.white_space``): the table each reading
#: takes for words, blank queries and trimming. One table each, in one place.
WHITE_SPACE_TABLES: Final[dict[str, frozenset[str]]] = {
    "unicode": WHITE_SPACE,
    # P2-INT-02/ascii: "ASCII whitespace only."
    "ascii": frozenset("\u0009\u000a\u000b\u000c\u000d\u0020"),
    # P2-INT-02/python: str.isspace() / str.split() also split on the four information
    # separators U+001C..U+001F.
    "python": WHITE_SPACE | frozenset("\u001c\u001d\u001e\u001f"),
}


def word_count(text: str, white_space: frozenset[str] = WHITE_SPACE) -> int:
    """W: the number of maximal runs of code points outside ``white_space``."""
    words = 0
    in_word = False
    for char in text:
        if char in white_space:
            in_word = False
        elif not in_word:
            in_word = True
            words += 1
    return words


def estimate_tokens(text: str, white_space: frozenset[str] = WHITE_SPACE) -> int:
    """P2-INT-01: ``max(words, ceil(code points / 4))``; 0 for the empty string."""
    return max(word_count(text, white_space), (len(text) + 3) // 4)


def is_blank(text: str, white_space: frozenset[str] = WHITE_SPACE) -> bool:
    """True when ``text`` is empty or only whitespace (a blank query, P2-INT-17)."""
    return all(char in white_space for char in text)
