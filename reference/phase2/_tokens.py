"""The token estimator (P2-TOK-01, P2-INT-01, P2-INT-02).

P2-TOK-01: "Use deterministic approximate estimator (character/word heuristic is acceptable
in this phase)." P2-TOK-02: "Do not call LLM just for counting." -- pure arithmetic on the text.

    estimate(text) = max(W, ceil(C / 4))

C counts Unicode code points (Python's ``len``), W counts maximal runs of non-whitespace code
points, whitespace being the 25 White_Space code points below (the same table as SPEC-006
INT-05, kept here so the Phase 2 engine stands alone).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

__all__ = [
    "ESTIMATORS",
    "WHITE_SPACE",
    "WHITE_SPACE_TABLES",
    "estimate_tokens",
    "is_blank",
    "word_count",
]

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
    # P2-INT-02/javascript: ECMAScript's \s and String.prototype.trim(): WhiteSpace (with
    # U+FEFF) and LineTerminator; U+0085 is a control character there, not whitespace.
    "javascript": (WHITE_SPACE - frozenset("\u0085")) | frozenset("\ufeff"),
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


def _quarter(count: int) -> int:
    """ceil(count / 4) in integer arithmetic."""
    return (count + 3) // 4


#: P2-INT-01 (``Readings.estimator``) -> estimate(text, white_space). One table, in one place.
ESTIMATORS: Final[dict[str, Callable[[str, frozenset[str]], int]]] = {
    "max-words-quarter": estimate_tokens,
    # P2-INT-01/ceil-chars: "ceil(characters / 4) alone"
    "ceil-chars": lambda text, white_space: _quarter(len(text)),
    # P2-INT-01/words: "Words alone"
    "words": word_count,
    # P2-INT-01/utf8-bytes: C counts UTF-8 bytes (Go's len(s), Rust's str::len)
    "utf8-bytes": lambda text, white_space: max(
        word_count(text, white_space), _quarter(len(text.encode("utf-8")))
    ),
    # P2-INT-01/utf16-units: C counts UTF-16 code units (JavaScript's and Java's length)
    "utf16-units": lambda text, white_space: max(
        word_count(text, white_space), _quarter(len(text.encode("utf-16-le")) // 2)
    ),
    # P2-INT-01/ceil-utf16-units: JavaScript's Math.ceil(s.length / 4), no word count
    "ceil-utf16-units": lambda text, white_space: _quarter(len(text.encode("utf-16-le")) // 2),
}
