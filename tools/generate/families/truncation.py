"""Truncation (TRUNCATION 'Per-item truncation', INT-31) at every byte offset around 2-, 3- and
4-byte UTF-8 characters, the strip before the cut (and none after), the per-item cap rules and
the token estimator.

The cut grid: text = ``"x" * k + ch + "y" * 8``, per_item_max_excerpt_tokens ``p`` (max_bytes
``4p``), for every prefix length ``k`` that puts the cut one byte before the character, at its
first byte, inside it at each continuation byte, just after it, and one byte later
(``trunc-cut-<w>b-p<p>-off<k>``). The intent (the expected excerpt) is the spec's rule applied
to the bytes: first 4p bytes, moved back to a code-point boundary.
"""

from __future__ import annotations

from collections.abc import Iterator

from tools.generate.families._case import WHITE_SPACE, Case, line, make_request, store

__all__ = ["CHARS", "DESCRIPTION", "cases", "spec_excerpt"]

DESCRIPTION = (
    "Generated: per-item truncation at every byte offset around multi-byte characters; strip; "
    "caps; estimator."
)

#: width -> characters of that UTF-8 width
CHARS: dict[int, tuple[str, ...]] = {
    2: ("é", "\u0416"),  # C3 A9; Cyrillic Zhe D0 96
    3: ("€", "\u3042"),  # E2 82 AC; Hiragana a E3 81 82
    4: ("😀", "\U00010348"),  # F0 9F 98 80; Gothic hwair F0 90 8D 88
}
_WS = "".join(map(chr, WHITE_SPACE))


def spec_excerpt(text: str, per_item: int) -> str:
    """TRUNCATION as written: strip White_Space, first 4p bytes, back to a boundary."""
    data = text.strip(_WS).encode("utf-8")
    cut = min(len(data), 4 * per_item)
    while 0 < cut < len(data) and (data[cut] & 0xC0) == 0x80:
        cut -= 1
    return data[:cut].decode("utf-8")


def _case(
    vid: str,
    description: str,
    comment: str,
    text: str,
    per_item: int | None,
    *,
    tokens: int = 100,
    clauses: tuple[str, ...] = (),
    ints: tuple[str, ...] = ("INT-31",),
) -> Case:
    budget = {} if per_item is None else {"per_item_max_excerpt_tokens": per_item}
    effective = min(per_item if per_item is not None else tokens, tokens)
    return Case(
        id=vid,
        description=description,
        comment=comment,
        clauses=clauses or ("S6-TRUNC-05", "S6-TRUNC-06", "S6-TRUNC-07", "S6-TRUNC-08"),
        interpretations=ints,
        request=make_request("zz", tokens=tokens, budget=budget),
        files={"stores/s.jsonl": store(line("m1", text))},
        excerpts=(spec_excerpt(text, effective),),
    )


def _grid() -> Iterator[Case]:
    for width, chars in CHARS.items():
        for index, ch in enumerate(chars):
            for p in (1, 2, 3) if index == 0 else (2,):
                limit = 4 * p
                for k in range(max(0, limit - width - 1), limit + 2):
                    d = limit - k  # bytes of the character inside the cut (if 0 < d < width)
                    where = (
                        "after it"
                        if d > width
                        else "just after it"
                        if d == width
                        else f"inside it after byte {d}"
                        if d > 0
                        else "at its first byte"
                        if d == 0
                        else "one byte before it"
                    )
                    tail = "" if index == 0 else f"-c{index}"
                    yield _case(
                        f"trunc-cut-{width}b{tail}-p{p}-off{k:02d}",
                        f"Cut at byte {limit} {where} ({width}-byte U+{ord(ch):04X} at offset "
                        f"{k}).",
                        f"text 'x'*{k} + U+{ord(ch):04X} ({ch.encode().hex(' ')}) + 'y'*8; "
                        f"per_item {p}: max_bytes {limit}.",
                        "x" * k + ch + "y" * 8,
                        p,
                    )


def _runs() -> Iterator[Case]:
    mixed = "é€😀é€😀ab"
    for width, chars in CHARS.items():
        for p in (1, 2, 3, 4):
            yield _case(
                f"trunc-run-{width}b-p{p}",
                f"A run of {width}-byte characters cut at {4 * p} bytes.",
                f"text = U+{ord(chars[0]):04X} x 7; per_item {p}.",
                chars[0] * 7,
                p,
            )
    for p in (1, 2, 3, 4, 5):
        yield _case(
            f"trunc-run-mixed-p{p}",
            f"Mixed 2/3/4-byte characters cut at {4 * p} bytes.",
            f"text {mixed!r} (2+3+4+2+3+4+2 bytes); per_item {p}.",
            mixed,
            p,
        )


#: slug -> (text, per_item, what it shows)
STRIPS: tuple[tuple[str, str, int, str], ...] = (
    ("lead-spaces", "   abcdefgh", 1, "leading spaces stripped before the cut"),
    ("lead-ideographic", "\u3000\u3000éééé", 1, "U+3000 stripped before the cut"),
    ("lead-nel", "\u0085abcdef", 1, "U+0085 stripped"),
    ("both-mixed", "\t\n abcdefgh \r\n", 2, "both ends stripped"),
    ("trail-fits", "abcd    ", 1, "trailing spaces stripped: 4 bytes fit"),
    ("trail-ideographic-fits", "abcd\u3000", 1, "trailing U+3000 stripped: 4 bytes fit"),
    ("cut-after-space", "abc def", 1, "the cut ends in a space: not stripped again"),
    ("cut-after-tab", "abc\tdef", 1, "the cut ends in a tab: kept"),
    # two whitespace characters end the cut: stripping again (INT-31) removes both, where a cut
    # one character short (a plain bug) would remove one: the corpus tells the two apart
    ("cut-after-two-spaces", "ab  cdef", 1, "the cut ends in two spaces: both kept"),
    ("cut-after-newline", "abc\ndef", 1, "the cut ends in LF: kept"),
    ("cut-after-nbsp", "ab\u00a0cdef", 1, "the cut ends after U+00A0: kept"),
    ("cut-inside-nbsp", "abc\u00a0def", 1, "the cut inside U+00A0 moves back"),
    ("cut-after-ideographic", "a\u3000bcd", 1, "the cut ends after U+3000: kept"),
    ("cut-inside-ideographic", "ab\u3000cd", 1, "the cut inside U+3000 moves back"),
    ("cut-after-line-separator", "a\u2028bcd", 1, "the cut ends after U+2028: kept"),
    ("interior-run", "ab  \t cd", 2, "interior whitespace untouched"),
    ("zwsp-not-stripped", "\u200babcd", 1, "U+200B is not White_Space"),
    ("bom-not-stripped", "\ufeffabc", 1, "U+FEFF is not White_Space"),
    ("is1c-not-stripped", "\u001cabc\u001c", 1, "U+001C is not White_Space"),
    ("ws-only", "  \t ", 1, "whitespace only: empty excerpt, 0 tokens"),
    ("ws-only-unicode", "\u3000\u2028\u00a0", 3, "Unicode whitespace only: empty excerpt"),
    ("empty", "", 1, "empty text: empty excerpt, 0 tokens"),
)

#: slug -> (text, max_excerpt_tokens, per_item or None)
CAPS: tuple[tuple[str, str, int, int | None, str], ...] = (
    ("per-item-above-max", "abcdefghijklmnopqrstuvwxyz", 3, 10, "effective per-item = max = 3"),
    ("per-item-equal-max", "abcdefghijklmnopqrstuvwxyz", 3, 3, "per-item = max"),
    ("per-item-below-max", "abcdefghijklmnopqrstuvwxyz", 5, 2, "per-item 2 < max 5"),
    ("per-item-default", "abcdefghijklmnopqrstuvwxyz", 4, None, "per-item defaults to max"),
    ("exact-bytes", "abcdefgh", 10, 2, "text of exactly 4p bytes is not cut"),
    ("one-over", "abcdefghi", 10, 2, "text of 4p + 1 bytes is cut"),
    ("huge-per-item", "abc", 10, 2**53 - 1, "per-item 2**53-1: effective max"),
    ("per-item-1-multibyte", "😀", 10, 1, "a 4-byte character fits exactly"),
)


def cases() -> Iterator[Case]:
    """Cut grid, runs, strip rules, caps, estimator."""
    yield from _grid()
    yield from _runs()
    for slug, text, p, why in STRIPS:
        yield _case(
            f"trunc-strip-{slug}",
            f"Excerpt strip and cut: {why}.",
            f"text {text!r}; per_item {p}.",
            text,
            p,
            clauses=("S6-TRUNC-02", "S6-TRUNC-03", "S6-TRUNC-06", "S6-TRUNC-01"),
            ints=("INT-31", "INT-05"),
        )
    for slug, text, maximum, per_item, why in CAPS:
        yield _case(
            f"trunc-cap-{slug}",
            f"Per-item cap: {why}.",
            f"text {len(text)} bytes; max_excerpt_tokens {maximum}; per_item {per_item}.",
            text,
            per_item,
            tokens=maximum,
            clauses=("S6-TRUNC-04", "S6-TRUNC-05", "S6-INPUT-04", "S6-OUT-07", "S6-TRUNC-10"),
            ints=("INT-30",),
        )
    for n in range(10):
        for unit, ch in (("ascii", "a"), ("2b", "é"), ("4b", "😀")):
            if unit != "ascii" and not 0 < n <= 5:
                continue
            size = n * len(ch.encode())
            yield _case(
                f"trunc-tok-{unit}-n{n}",
                f"Estimator: {size} UTF-8 bytes -> ceil({size}/4) = {-(-size // 4)} tokens.",
                f"text {ch!r} x {n} ({size} bytes); no cut.",
                ch * n,
                None,
                clauses=("S6-TOK-01", "S6-TRUNC-08", "S6-OUT-15", "S6-TOK-02"),
                ints=("INT-46",),
            )
