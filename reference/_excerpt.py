"""Deterministic excerpts and the token estimator (TRUNCATION, TOKEN BUDGETING)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

from reference._text import ASCII_WHITESPACE, strip_white_space

__all__ = ["EXCERPTS", "Excerpt", "excerpt_of", "tokens_for"]

#: A surrogate code point (a lone one: json.loads joins a pair into one code point).
_SURROGATE: Final = re.compile("[\ud800-\udfff]")

#: Builds an excerpt: (text, per-item tokens, the INT-05 strip) -> (excerpt, excerpt_tokens).
Excerpt = Callable[[str, int, Callable[[str], str]], tuple[str, int]]


def tokens_for(byte_length: int) -> int:
    """S6-TOK-01: "excerpt_tokens = ceil(utf8_byte_length(excerpt) / 4)"."""
    return -(-byte_length // 4)


def excerpt_of(
    text: str, per_item_tokens: int, strip: Callable[[str], str] = strip_white_space
) -> tuple[str, int]:
    """Build a candidate's excerpt and its token count (S6-TRUNC-01..08, INT-31).

    `per_item_tokens` is already min(per_item_max_excerpt_tokens, max_excerpt_tokens)
    (S6-TRUNC-04).
    """
    if _SURROGATE.search(text):  # only INT-15/javascript-keep-lone-surrogates lets one in
        return _lone_excerpt(strip(text), per_item_tokens)
    # S6-TRUNC-02: "strip leading/trailing whitespace" (White_Space, INT-05); nothing else.
    data = strip(text).encode("utf-8")
    # S6-TRUNC-05: "Determine max_bytes = per_item_max_excerpt_tokens * 4"
    max_bytes = per_item_tokens * 4
    if len(data) > max_bytes:
        # S6-TRUNC-07: "If a cut splits a codepoint, cut back to last valid boundary"
        cut = max_bytes
        while cut > 0 and data[cut] & 0xC0 == 0x80:
            cut -= 1
        data = data[:cut]  # not stripped again (INT-31)
    # S6-TRUNC-03: empty after strip => excerpt "" and excerpt_tokens 0
    return data.decode("utf-8"), tokens_for(len(data))


def _lone_excerpt(stripped: str, per_item_tokens: int) -> tuple[str, int]:
    """INT-15/javascript-keep-lone-surrogates: a text holding a lone surrogate, as JavaScript's
    Buffer.from / TextEncoder encode it (U+FFFD, 3 bytes): kept whole when it fits, otherwise
    cut and decoded from those bytes (the surrogate is then U+FFFD)."""
    data = _SURROGATE.sub("\ufffd", stripped).encode("utf-8")
    if len(data) <= per_item_tokens * 4:
        return stripped, tokens_for(len(data))
    return excerpt_of(data.decode("utf-8"), per_item_tokens, _unstripped)


def _unstripped(text: str) -> str:
    return text


def stripped_again(
    text: str, per_item_tokens: int, strip: Callable[[str], str] = strip_white_space
) -> tuple[str, int]:
    """INT-31/strip-again-after-cut (an alternative, ``_readings.py``): the cut excerpt is
    stripped again (a cut may leave trailing whitespace), its tokens counted after that."""
    excerpt = strip(excerpt_of(text, per_item_tokens, strip)[0])
    return excerpt, tokens_for(len(excerpt.encode("utf-8")))


def _strip_ascii(text: str) -> str:
    return text.strip(ASCII_WHITESPACE)


def ascii_stripped(
    text: str, per_item_tokens: int, strip: Callable[[str], str] = strip_white_space
) -> tuple[str, int]:
    """INT-31/strip-ascii-whitespace (an alternative, ``_readings.py``): only ASCII
    whitespace (space, \\t, \\n, \\v, \\f, \\r) is stripped from the excerpt, whatever
    INT-05 says for the query."""
    return excerpt_of(text, per_item_tokens, _strip_ascii)


#: INT-31: how an excerpt is built (the pinned reading first).
EXCERPTS: Final[dict[str, Excerpt]] = {
    "strip-once": excerpt_of,
    "strip-again": stripped_again,
    "strip-ascii": ascii_stripped,
}
