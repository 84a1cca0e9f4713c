"""Hypothesis strategies for SPEC-006 ``memory.read`` inputs (contract phase6-v1), exported.

The kit's property suite (:mod:`conformance.properties`) draws every input from here, and an
implementer can import the same strategies for their own tests::

    import tempfile
    from pathlib import Path
    from hypothesis import given
    from conformance.strategies import scenarios

    @given(scenarios())
    def test_my_controller(scenario):
        with tempfile.TemporaryDirectory() as root:
            scenario.write(Path(root))  # the stores (and snapshot) the request names
            result = my_memory_read(scenario.request, cwd=root)  # relative paths, INT-45
        assert "package" in result  # every scenario is a valid request

Building blocks, smallest first:

- text: :func:`white_space` (the 25 Unicode White_Space code points, INT-05),
  :func:`unicode_words` and :func:`unicode_text` (multi-byte characters, final sigma, U+0130,
  JSON escapes, characters some runtimes wrongly treat as whitespace);
- record fields: :func:`memory_ids`, :func:`tags`, :func:`refs`, :func:`valid_timestamps`,
  :func:`invalid_timestamps`, :func:`future_timestamps`, :func:`timestamps`;
- store lines: :func:`record_objects`, :func:`valid_record_lines`, :func:`invalid_record_lines`
  (every invalid-line kind of INT-15, -16, -17, -18, -20 and -22, table
  :data:`INVALID_LINE_KINDS`), :func:`blank_lines` (INT-14), :func:`store_lines`;
- whole stores: :func:`stores` (lists of :class:`StoreLine`), :func:`store_files`;
- trust snapshots: :func:`trust_snapshots` (``phase6-trust/1``, INT-38);
- requests: :func:`memory_controller_inputs` (every optional field, edge budgets) and
  :func:`invalid_requests`;
- everything at once: :func:`scenarios` -> :class:`Scenario` (files + request + canaries) and
  :func:`error_scenarios`.

Every line a strategy produces carries its *kind* (``valid``, ``blank`` or
``invalid:<INT-id>:<what>``), so a test can check that an implementation classifies it the way
the interpretation register says. Generated files use relative POSIX paths only, so a
:class:`Scenario` converts 1:1 into a ``phase6-vectors/1`` vector input.

Required and pinned inputs are kept apart. Some inputs are read differently by honest
implementations, and the interpretation register decides them: an integer written ``10.0``
(INT-41), a trust entry naming both keys (INT-39), a ts_utc outside the pinned profile (INT-20),
a snapshot path that does not exist (INT-38), an empty memory_id (INT-22), blank lines and CRLF
(INT-14), every invalid-line kind (INT-15..INT-22), ... (:data:`PINNED_INPUTS`). The scenario
strategies draw them only when their ``pinned`` argument allows the interpretation (``None``:
all, ``frozenset()``: none, so every reading agrees on the input), and every
:class:`Scenario` lists the interpretations its inputs exercise (``Scenario.pinned``): a failure
can then be attributed to the readings it rests on.
"""

from __future__ import annotations

import functools
import json
import string
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path, PurePosixPath
from typing import Any, Literal, TypeVar

from hypothesis import strategies as st

from conformance.corpus import FileSpec, LinesFile, TextFile, file_spec_json
from conformance.readings import WHITE_SPACE, parse_ts, read_line

__all__ = [
    "CANARY_PREFIX",
    "CASE_EDGE_CHARACTERS",
    "DEFAULTS",
    "INVALID_LINE_KINDS",
    "JSON_EDGE_CHARACTERS",
    "MULTI_BYTE_CHARACTERS",
    "NOT_WHITE_SPACE",
    "PINNED_INPUTS",
    "SAFE_INT",
    "SNAPSHOT_PATH",
    "STORE_DIR",
    "WHITE_SPACE_CHARACTERS",
    "Instant",
    "Scenario",
    "StoreLine",
    "blank_lines",
    "error_scenarios",
    "format_timestamp",
    "future_timestamps",
    "invalid_record_lines",
    "invalid_requests",
    "invalid_timestamps",
    "memory_controller_inputs",
    "memory_ids",
    "record_objects",
    "refs",
    "scenarios",
    "store_files",
    "store_lines",
    "stores",
    "tags",
    "timestamps",
    "trust_snapshots",
    "unicode_text",
    "unicode_words",
    "valid_record_lines",
    "valid_timestamps",
    "white_space",
]

# ----------------------------------------------------------------------------- tables

#: INT-41 / INT-17: the interoperable integer range of a double.
SAFE_INT = 2**53 - 1
#: INT-05: "exactly the 25 code points with the Unicode White_Space property" (sorted).
WHITE_SPACE_CHARACTERS: tuple[str, ...] = tuple(sorted(WHITE_SPACE))
#: Not White_Space, but whitespace to Python's str.split() (U+001C..U+001F), to ECMAScript's
#: \s (U+FEFF) or to intuition (U+200B, U+180E): INT-05 says they are ordinary characters.
NOT_WHITE_SPACE: tuple[str, ...] = ("\x1c", "\x1d", "\x1e", "\x1f", "\ufeff", "\u200b", "\u180e")
#: INT-06 lowercase mapping edges: one-to-many (U+0130), Final_Sigma, ß (no folding), Kelvin.
CASE_EDGE_CHARACTERS: tuple[str, ...] = (
    "İ", "Σ", "σ", "ς", "ß", "ẞ", "ﬁ", "ı", "K", "Ω", "ǅ", "Ⅻ", "Ａ",
)  # fmt: skip
#: UTF-8 widths 2, 3 and 4, combining marks, private use, non-BMP (UTF-16 surrogate pairs).
MULTI_BYTE_CHARACTERS: tuple[str, ...] = (
    "é", "e\u0301", "ñ", "中", "日本", "😀", "𝔸", "\ue000", "\U0010fffd", "\u0800", "\u07ff",
)  # fmt: skip
#: Characters that need escaping (or are worth escaping) in JSON text.
JSON_EDGE_CHARACTERS: tuple[str, ...] = ('"', "\\", "/", "\x00", "\x07", "\x7f", "\u2028", "\t")
#: SPEC-006 INPUT CONTRACT defaults (S6-DET-01), as explicit request members. The
#: per-item default ("defaults to max_excerpt_tokens") depends on the request and is not here.
DEFAULTS: Mapping[str, Mapping[str, Any]] = {
    "budget": {"max_items": 50},
    "scoring": {
        "enable_recency_weight": False,
        "recency_half_life_days": 30,
        "enable_tag_overlap": True,
    },
    "trust_filter": {"deny_classifications": ["malicious"]},
}
#: Every store lives under this directory of the scenario root.
STORE_DIR = "stores"
#: Where a scenario's trust snapshot lives (relative to the root).
SNAPSHOT_PATH = "trust/snapshot.json"
#: Canary strings start with this; ASCII upper case, so no hex digest or store path holds one.
CANARY_PREFIX = "CANARY"
#: The invalid-line kinds :func:`invalid_record_lines` produces, by interpretation entry.
INVALID_LINE_KINDS: Mapping[str, tuple[str, ...]] = {
    "INT-15": (
        "bad-utf8", "overlong-utf8", "utf8-surrogate", "not-json", "nan", "infinity",
        "single-quotes", "trailing-comma", "comment", "trailing-garbage", "two-objects", "bom",
        "lone-surrogate-escape", "not-object", "unicode-space-only",
    ),
    "INT-16": ("duplicate-last-invalid", "duplicate-overwritten-surrogate"),
    "INT-17": ("number-overflow",),
    "INT-18": ("too-deep",),
    "INT-20": ("ts-not-string",),
    "INT-22": (
        "memory-id-missing", "memory-id-not-string", "memory-id-null",
        "text-missing", "text-not-string", "text-null", "tags-not-list", "tag-not-string",
        "refs-not-list", "ref-not-object", "ts-null",
    ),
}  # fmt: skip

#: Inputs on which honest readings of SPEC-006 differ, by the interpretation that decides them.
#: A scenario strategy draws one only when its ``pinned`` argument allows that interpretation.
PINNED_INPUTS: Mapping[str, str] = {
    "INT-14": "blank and whitespace-only lines, CRLF line ends, a missing final newline",
    "INT-15": "lines that are not one JSON object in strict UTF-8 (BOM, NaN, lone surrogates, ...)",
    "INT-16": "duplicate member names",
    "INT-17": "numbers beyond 2**53 or beyond the double range",
    "INT-18": "nesting 64 deep and deeper",
    "INT-20": "ts_utc and now_utc strings outside the pinned profile (their treatment too)",
    "INT-22": "an empty memory_id; null and wrong-typed record members",
    "INT-38": "a trust_snapshot_path that does not exist",
    "INT-39": "a trust entry naming both memory_id and record_hash",
    "INT-41": "an integer written as an integral float (10.0) or beyond 2**53-1",
    "INT-42": "unknown request members",
}
#: For the invalid-line kinds that are not INT-15..INT-18 or INT-22 errors of their own.
_KIND_RULES: Mapping[str, str] = {"ts-not-string": "INT-22"}

T = TypeVar("T")


class _Pins:
    """Which pinned-only inputs a draw may use (``allowed``; ``None``: all), and which it used.

    With exactly one interpretation allowed (``focus``), its inputs are drawn more often: the
    run then asks one question, "does the implementation read INT-x differently?".
    """

    __slots__ = ("allowed", "focus", "used")

    def __init__(self, allowed: frozenset[str] | None) -> None:
        self.allowed = allowed
        self.focus = next(iter(allowed)) if allowed is not None and len(allowed) == 1 else None
        self.used: set[str] = set()

    def may(self, interpretation: str) -> bool:
        """Whether inputs ``interpretation`` decides may be drawn."""
        return self.allowed is None or interpretation in self.allowed

    def chance(self, draw: st.DrawFn, interpretation: str, one_in: int) -> bool:
        """Draw a pinned input of ``interpretation`` about once in ``one_in`` (every other
        time when it is the focus), never when it is not allowed; record it when drawn."""
        if not self.may(interpretation):
            return False
        odds = 2 if self.focus == interpretation else one_in
        if draw(_ints(1, odds)) != odds:
            return False
        self.used.add(interpretation)
        return True


_ALL_PINS = _Pins(None)

_STORE_NAMES = (
    "a", "b", "c", "episodic", "semantic", "A", "B-2", "a_b", "a.b", "0", "é", "日本",
    "😀", "\ue000", "a b", "z",
)  # fmt: skip
_CLASSIFICATIONS = ("malicious", "suspicious", "benign", "Malicious", "quarantine", "")
_WORDS = (
    "alpha", "beta", "kitchen", "tax", "plan", "ab", "a", "x", "café", "cafe\u0301", "İstanbul",
    "ΟΔΟΣ", "Σοφία", "straße", "STRASSE", "ﬁle", "日本語", "😀😀", "naïve", "ǅemal", "K",
    "ı", "a\u200bb", "x\ufeffy", "ΣΣ",
)  # fmt: skip
_MEMORY_IDS = ("m1", "m2", "m3", "a", "B", "é", "😀", "\ue000", "m 1", "Z", "m10", "m2 ")
_ID_ALPHABET = string.ascii_letters + string.digits + "-_ é😀\ue000"


# ----------------------------------------------------------------------------- data types


@dataclass(frozen=True, order=True)
class Instant:
    """A UTC instant as INT-35 counts it: seconds since 0001-01-01T00:00:00Z plus nanoseconds."""

    seconds: int
    nanos: int = 0

    def shifted(self, delta_ns: int) -> Instant:
        """This instant plus ``delta_ns`` nanoseconds."""
        total = self.seconds * 10**9 + self.nanos + delta_ns
        return Instant(total // 10**9, total % 10**9)


_EPOCH = datetime(1, 1, 1, tzinfo=UTC)
_MIN_SECONDS = 0
_MAX_SECONDS = int((datetime(9999, 12, 31, 23, 59, 59, tzinfo=UTC) - _EPOCH).total_seconds())


def format_timestamp(
    instant: Instant, *, digits: int | None = None, suffix: Literal["Z", "+00:00"] = "Z"
) -> str:
    """RFC 3339 UTC text for ``instant`` (INT-20 grammar).

    ``digits`` is the number of fraction digits to print (trailing zeros kept, so
    ``05.120Z`` is possible); ``None`` prints the shortest exact fraction.
    """
    moment = _EPOCH + timedelta(seconds=instant.seconds)
    text = moment.strftime("%Y-%m-%dT%H:%M:%S")
    text = f"{moment.year:04d}" + text[text.index("-") :]  # %Y does not pad years < 1000
    fraction = f"{instant.nanos:09d}"
    if digits is None:
        fraction = fraction.rstrip("0")
    else:
        if int(fraction[digits:] or "0") != 0:
            raise ValueError(f"{instant!r} needs more than {digits} fraction digits")
        fraction = fraction[:digits]
    return text + ("." + fraction if fraction else "") + suffix


@dataclass(frozen=True)
class StoreLine:
    """One line of a generated store (without its terminator) and what the register says it is.

    ``kind`` is ``"valid"``, ``"blank"`` (INT-14: skipped, not a record) or
    ``"invalid:<INT-id>:<what>"`` (dropped as ``invalid_record_schema``). ``canaries`` are the
    planted strings this line carries (they must never reach a receipt).
    """

    raw: str | bytes
    kind: str
    canaries: tuple[str, ...] = ()

    @property
    def data(self) -> bytes:
        """The line's bytes."""
        return self.raw if isinstance(self.raw, bytes) else self.raw.encode("utf-8")

    @property
    def is_record(self) -> bool:
        """Whether the line is a record line (anything but blank, INT-14)."""
        return self.kind != "blank"


@dataclass(frozen=True)
class Scenario:
    """A MemoryControllerInput plus the files it reads, all relative to one root directory.

    ``request`` is the JSON request (a fresh copy on every access); ``files`` maps relative
    POSIX paths to file specs (:mod:`conformance.corpus`); ``lines`` keeps, per store file,
    the generated :class:`StoreLine` objects; ``canaries`` lists every planted string.
    """

    request_json: bytes
    files: tuple[tuple[str, FileSpec], ...]
    lines: tuple[tuple[str, tuple[StoreLine, ...]], ...] = ()
    canaries: tuple[str, ...] = ()
    note: str = ""
    #: The interpretations whose pinned-only inputs this scenario holds (:data:`PINNED_INPUTS`).
    pinned: tuple[str, ...] = ()

    @classmethod
    def build(
        cls,
        request: Any,
        files: Mapping[str, FileSpec],
        lines: Mapping[str, Sequence[StoreLine]] | None = None,
        canaries: Sequence[str] = (),
        note: str = "",
        pinned: Iterable[str] = (),
    ) -> Scenario:
        """A scenario from plain values (files sorted by path)."""
        return cls(
            request_json=_request_bytes(request),
            files=tuple(sorted(files.items())),
            lines=tuple(sorted((k, tuple(v)) for k, v in (lines or {}).items())),
            canaries=tuple(canaries),
            note=note,
            pinned=tuple(sorted(set(pinned))),
        )

    def with_pinned(self, *interpretations: str) -> Scenario:
        """The same scenario, also holding pinned-only inputs of ``interpretations``."""
        return replace(self, pinned=tuple(sorted({*self.pinned, *interpretations})))

    @property
    def request(self) -> Any:
        """A fresh copy of the request."""
        return json.loads(self.request_json)

    def with_request(self, request: Any, *, note: str | None = None) -> Scenario:
        """The same files with another request."""
        return Scenario(
            _request_bytes(request),
            self.files,
            self.lines,
            self.canaries,
            self.note if note is None else note,
            self.pinned,
        )

    def with_files(
        self,
        files: Mapping[str, FileSpec],
        lines: Mapping[str, Sequence[StoreLine]] | None = None,
        *,
        note: str | None = None,
    ) -> Scenario:
        """The same request with other files."""
        return Scenario(
            self.request_json,
            tuple(sorted(files.items())),
            tuple(sorted((k, tuple(v)) for k, v in (lines or {}).items())),
            self.canaries,
            self.note if note is None else note,
            self.pinned,
        )

    def write(self, root: Path) -> None:
        """Create the files under ``root`` (created if missing)."""
        root.mkdir(parents=True, exist_ok=True)
        for name, spec in self.files:
            target = root.joinpath(*PurePosixPath(name).parts)
            target.parent.mkdir(parents=True, exist_ok=True)
            data = spec.content()
            if data is None:
                target.mkdir(exist_ok=True)
            else:
                target.write_bytes(data)

    def vector_files(self) -> dict[str, Any]:
        """``input.files`` of a ``phase6-vectors/1`` vector."""
        return {name: file_spec_json(spec) for name, spec in self.files}


def _request_bytes(request: Any) -> bytes:
    return json.dumps(request, ensure_ascii=False, allow_nan=False).encode("utf-8")


# ----------------------------------------------------------------------------- draw helpers
#
# Speed matters (the suite draws thousands of stores per certification), so the inner loops
# draw from module-level strategies through plain ``_draw_*`` helpers instead of building
# new strategy objects per line; the public functions are thin wrappers around the helpers.

_BOOL = st.booleans()
_CASES = ("same", "lower", "upper", "title", "swapcase")


@functools.cache
def _ints(low: int, high: int) -> st.SearchStrategy[int]:
    return st.integers(low, high)


def _pick(draw: st.DrawFn, items: Sequence[T]) -> T:
    """One of ``items`` (not empty), shrinking towards the first."""
    return items[draw(_ints(0, len(items) - 1))] if len(items) > 1 else items[0]


def _cased(draw: st.DrawFn, word: str) -> str:
    """``word`` as is, lower, upper, title or swapped case (INT-06 edges live here)."""
    how = _pick(draw, _CASES)
    return word if how == "same" else str(getattr(word, how)())


# ----------------------------------------------------------------------------- text


@functools.cache
def white_space(min_size: int = 1, max_size: int = 3) -> st.SearchStrategy[str]:
    """Runs of Unicode White_Space (INT-05), not just ASCII spaces."""
    return st.text(st.sampled_from(WHITE_SPACE_CHARACTERS), min_size=min_size, max_size=max_size)


_WORD_ALPHABET = (
    tuple(string.ascii_lowercase[:6])
    + CASE_EDGE_CHARACTERS
    + MULTI_BYTE_CHARACTERS
    + NOT_WHITE_SPACE
)
_EDGE_PIECES = JSON_EDGE_CHARACTERS + NOT_WHITE_SPACE + CASE_EDGE_CHARACTERS + MULTI_BYTE_CHARACTERS
_ANY_TEXT = st.text(st.characters(codec="utf-8"), max_size=3)


def _draw_word(draw: st.DrawFn, min_size: int = 1, max_size: int = 6) -> str:
    if draw(_BOOL):
        word = _pick(draw, _WORDS)
        if min_size <= len(word):
            return word
    count = draw(_ints(min_size, max_size))
    return "".join(_pick(draw, _WORD_ALPHABET) for _ in range(count))


@functools.cache
def unicode_words(min_size: int = 1, max_size: int = 6) -> st.SearchStrategy[str]:
    """Words without White_Space: a fixed list of case and width edges, or generated ones."""
    return st.composite(lambda draw: _draw_word(draw, min_size, max_size))()


def _draw_text(draw: st.DrawFn, words: Sequence[str], max_pieces: int, edges: bool) -> str:
    out = draw(white_space(0, 2))
    for _ in range(draw(_ints(0, max_pieces))):
        kind = draw(_ints(0, 3 if edges else 1))
        if kind == 0 and words:
            piece = _cased(draw, _pick(draw, words))
        elif kind <= 1:
            piece = _draw_word(draw)
        elif kind == 2:
            piece = _pick(draw, _EDGE_PIECES)
        else:
            piece = draw(_ANY_TEXT)
        out += piece + (draw(white_space(0, 2)) or " ")
    return out


def unicode_text(
    words: Sequence[str] = (), *, max_pieces: int = 8, edges: bool = True
) -> st.SearchStrategy[str]:
    """Text made of ``words`` (in any case), Unicode whitespace runs and edge characters.

    Leading and trailing White_Space is common (excerpts strip it, INT-31); JSON escapes,
    non-White_Space look-alikes, multi-byte and case-edge characters appear when ``edges``.
    """
    words = tuple(words)
    return st.composite(lambda draw: _draw_text(draw, words, max_pieces, edges))()


# ----------------------------------------------------------------------------- record fields


@functools.cache
def memory_ids() -> st.SearchStrategy[str]:
    """Non-empty memory_id strings: a small pool (for duplicates and ties) or generated ones."""
    return st.one_of(
        st.sampled_from(_MEMORY_IDS),
        st.text(st.sampled_from(_ID_ALPHABET), min_size=1, max_size=4),
    )


_TAG_EDGES = ("", " a", "Tag", "tag", "TAG", "İ", "ς", "Σ", "ΟΔΟΣ", "malicious", "Malicious")


def _draw_tags(draw: st.DrawFn, words: Sequence[str]) -> list[str]:
    out = []
    for _ in range(draw(_ints(0, 4))):
        kind = draw(_ints(0, 2))
        if kind == 0 and words:
            out.append(_cased(draw, _pick(draw, words)))
        elif kind <= 1:
            out.append(_pick(draw, _TAG_EDGES))
        else:
            out.append(_draw_word(draw, 1, 4))
    return out


def tags(words: Sequence[str] = ()) -> st.SearchStrategy[list[str]]:
    """Tag lists: query words in any case (tag overlap), duplicates, "" and padded tags."""
    words = tuple(words)
    return st.composite(lambda draw: _draw_tags(draw, words))()


_TEXT4 = st.text(st.characters(codec="utf-8"), max_size=4)
_JSON_LEAF = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-SAFE_INT, SAFE_INT),
    st.floats(allow_nan=False, allow_infinity=False, width=64),  # -0.0, 5e-324, 1.7e308
    _TEXT4,
)
#: beyond 2**53: INT-17 (read as the nearest double)
_BIG_INT = st.one_of(st.integers(SAFE_INT + 1, 2**60), st.integers(-(2**60), -SAFE_INT - 1))
_JSON_VALUE = st.one_of(
    _JSON_LEAF,
    st.lists(_JSON_LEAF, max_size=2),
    st.dictionaries(_TEXT4, _JSON_LEAF, max_size=2),
)
_REF = st.one_of(
    st.fixed_dictionaries(
        {"kind": st.sampled_from(("run_id", "path")), "value": st.text(max_size=6)}
    ),
    st.dictionaries(_TEXT4, _JSON_VALUE, max_size=3),
)
_REFS = st.lists(_REF, max_size=3)


def refs() -> st.SearchStrategy[list[dict[str, Any]]]:
    """``refs`` lists of objects (any members; numbers beyond 2**53, -0.0, nesting)."""
    return _REFS


_DAY_NS = 86_400 * 10**9
_SUFFIXES: tuple[Literal["Z", "+00:00"], ...] = ("Z", "+00:00")


def _draw_valid_ts(
    draw: st.DrawFn, around: Instant | None, max_days_before: int, max_days_after: int
) -> str:
    if around is None:
        if draw(_BOOL):
            instant = Instant(_pick(draw, (_MIN_SECONDS, _MAX_SECONDS)))
        else:
            instant = Instant(draw(_ints(_MIN_SECONDS, _MAX_SECONDS)))
    else:
        delta = draw(_ints(-max_days_after * _DAY_NS, max_days_before * _DAY_NS))
        instant = around.shifted(-delta)
        if not _MIN_SECONDS <= instant.seconds <= _MAX_SECONDS:
            instant = around
    digits = draw(_ints(0, 9))
    nanos = draw(_ints(0, 10**digits - 1)) * 10 ** (9 - digits) if digits else 0
    return format_timestamp(
        Instant(instant.seconds, nanos), digits=digits, suffix=_pick(draw, _SUFFIXES)
    )


def valid_timestamps(
    *, around: Instant | None = None, max_days_before: int = 400, max_days_after: int = 3
) -> st.SearchStrategy[str]:
    """Valid ts_utc strings (INT-20): 'Z' or '+00:00', 0-9 fraction digits (trailing zeros too).

    With ``around``, the instant lies within ``max_days_before`` days before and
    ``max_days_after`` days after it (recency-relevant ages, future timestamps included);
    otherwise anywhere in 0001..9999.
    """
    return st.composite(
        lambda draw: _draw_valid_ts(draw, around, max_days_before, max_days_after)
    )()


def future_timestamps(now: Instant, max_days: int = 30) -> st.SearchStrategy[str]:
    """Valid timestamps at least a day after ``now`` (negative age: the recency bonus is
    clamped to 1, INT-35)."""
    return valid_timestamps(around=now, max_days_before=-1, max_days_after=max_days)


_INVALID_TS = (
    "2024-01-02T03:04:05z", "2024-01-02t03:04:05Z", "2024-01-02T03:04:05+02:00",
    "2024-01-02T03:04:05-00:00", "2024-01-02T03:04:05", "2024-02-30T00:00:00Z",
    "2023-02-29T00:00:00Z", "2024-01-02T24:00:00Z", "2024-01-02T23:60:00Z",
    "2024-12-31T23:59:60Z", "0000-01-01T00:00:00Z", "2024-01-02 03:04:05Z",
    "2024-01-02T03:04:05.1234567890Z", "2024-01-02T03:04:05,5Z", "2024-01-02T03:04:05.Z",
    " 2024-01-02T03:04:05Z", "2024-01-02T03:04:05Z ", "２０２４-01-02T03:04:05Z", "", "now",
    "2024-1-2T3:4:5Z", "+2024-01-02T03:04:05Z", "20240102T030405Z",
)  # fmt: skip
_INVALID_TS_STRATEGY = st.one_of(st.sampled_from(_INVALID_TS), _TEXT4).filter(
    lambda s: parse_ts(s) is None
)


def invalid_timestamps() -> st.SearchStrategy[str]:
    """Strings that are not valid UTC timestamps (INT-20): the record stays valid, no ts."""
    return _INVALID_TS_STRATEGY


#: RFC 3339 spellings of a valid instant that the INT-20 profile leaves out.
_RFC3339_ONLY = ("lower-t", "lower-z", "minus-zero")


def _outside_profile(draw: st.DrawFn, valid: str) -> str:
    """``valid`` respelled the way RFC 3339 allows and INT-20's profile does not."""
    how = _pick(draw, _RFC3339_ONLY)
    base = valid.removesuffix("Z").removesuffix("+00:00")
    if how == "lower-t":
        return base[:10] + "t" + base[11:] + "Z"
    if how == "lower-z":
        return base + "z"
    return base + "-00:00"


def _draw_ts(draw: st.DrawFn, around: Instant | None, pins: _Pins = _ALL_PINS) -> str:
    # INT-20: a string outside the pinned profile (and what it does to the record) is a reading
    if pins.chance(draw, "INT-20", 4):
        if draw(_BOOL):  # a real instant in a spelling RFC 3339 has and the profile has not
            return _outside_profile(draw, _draw_valid_ts(draw, around, 400, 3))
        return draw(_INVALID_TS_STRATEGY)
    if around is not None and draw(_ints(0, 2)) == 2:
        return _draw_valid_ts(draw, around, -1, 30)  # future
    return _draw_valid_ts(draw, around, 400, 3)


def timestamps(around: Instant | None = None) -> st.SearchStrategy[str]:
    """ts_utc strings: valid (near ``around`` when given), invalid or in the future."""
    return st.composite(lambda draw: _draw_ts(draw, around))()


# ----------------------------------------------------------------------------- records


@dataclass(frozen=True)
class _LineContext:
    """What the lines of one scenario share: vocabulary, memory_id pool, the 'now' instant,
    and which pinned-only inputs they may use (:class:`_Pins`)."""

    words: tuple[str, ...] = ()
    ids: tuple[str, ...] = ()
    around: Instant | None = None
    pins: _Pins = _ALL_PINS


def _draw_id(draw: st.DrawFn, ctx: _LineContext) -> str:
    if ctx.pins.chance(draw, "INT-22", 12):  # INT-22: "" is a string, a valid memory_id
        return ""
    return _pick(draw, ctx.ids) if ctx.ids else draw(memory_ids())


def _draw_record(draw: st.DrawFn, ctx: _LineContext, canary: str | None) -> dict[str, Any]:
    text = _draw_text(draw, ctx.words, 8, True)
    if canary is not None:
        cut = draw(_ints(0, len(text)))
        text = f"{text[:cut]} {canary} {text[cut:]}"
    record: dict[str, Any] = {"memory_id": _draw_id(draw, ctx), "text": text}
    if draw(_BOOL):
        record["tags"] = _draw_tags(draw, ctx.words)
        if canary is not None and draw(_BOOL):
            record["tags"].append(canary + "-TAG")
    if draw(_BOOL):
        record["refs"] = draw(_REFS)
        if ctx.pins.chance(draw, "INT-17", 8):
            record["refs"].append({"n": draw(_BIG_INT)})
        if canary is not None and draw(_BOOL):
            record["refs"].append({"note": canary + "-REF"})
    if draw(_BOOL):
        record["ts_utc"] = _draw_ts(draw, ctx.around, ctx.pins)
    if draw(_ints(0, 4)) == 4:  # S6-REC-02: unknown members are not errors (INT-23)
        name = _pick(draw, ("created_at_utc", "hash", "type", "extra"))
        record[name] = draw(_JSON_LEAF)
    return record


def record_objects(
    *,
    words: Sequence[str] = (),
    ids: Sequence[str] = (),
    around: Instant | None = None,
    canary: str | None = None,
) -> st.SearchStrategy[dict[str, Any]]:
    """A schema-valid record object (INT-22): optional tags/refs/ts_utc, unknown members.

    ``ids`` is the memory_id pool (default: :func:`memory_ids`); ``around`` centres the
    timestamps; ``canary`` is planted in the text (and sometimes in a tag or a ref).
    """
    ctx = _LineContext(tuple(words), tuple(ids), around)
    return st.composite(lambda draw: _draw_record(draw, ctx, canary))()


def _nest(depth: int) -> Any:
    """A value that adds ``depth`` levels of array nesting."""
    value: Any = 0
    for _ in range(depth):
        value = [value]
    return value


def _serialize(draw: st.DrawFn, obj: Mapping[str, Any]) -> str:
    """One JSON text for ``obj``: any member order, escaped or raw, padded or compact."""
    items = list(obj.items())
    order = list(range(len(items)))
    for i in range(len(order) - 1, 0, -1):  # Fisher-Yates with shrinkable draws
        j = draw(_ints(0, i))
        order[i], order[j] = order[j], order[i]
    ensure_ascii = draw(_BOOL)
    compact = draw(_BOOL)
    member_sep, value_sep = (",", ":") if compact else (", ", ": ")
    body = member_sep.join(
        json.dumps(items[i][0], ensure_ascii=ensure_ascii)
        + value_sep
        + json.dumps(items[i][1], ensure_ascii=ensure_ascii, allow_nan=False)
        for i in order
    )
    return _pick(draw, ("", " ", "\t", "  ")) + "{" + body + "}" + _pick(draw, ("", " ", "\t"))


#: extras of a valid line: (interpretation, what)
_EXTRAS = (("INT-16", "duplicate"), ("INT-17", "bigint"), ("INT-18", "depth64"))


def _draw_valid_line(draw: st.DrawFn, ctx: _LineContext, canary: str | None) -> StoreLine:
    text = _serialize(draw, _draw_record(draw, ctx, canary))
    rule, extra = _pick(draw, _EXTRAS)
    if not ctx.pins.chance(draw, rule, 2):
        extra = "none"
    if extra == "duplicate":  # INT-16: the earlier occurrence is ignored
        text = text.replace("{", '{"memory_id": 7, ', 1)
    elif extra == "bigint":  # INT-17: 9007199254740993 is read as 9007199254740992
        text = text.replace("{", '{"x_big": 9007199254740993, "x_neg_zero": -0.0, ', 1)
    elif extra == "depth64":  # INT-18: the top-level object is depth 1; 63 more arrays
        text = text.replace("{", '{"x_deep": ' + json.dumps(_nest(63)) + ", ", 1)
    return StoreLine(text, "valid", (canary,) if canary is not None else ())


def valid_record_lines(
    *,
    words: Sequence[str] = (),
    ids: Sequence[str] = (),
    around: Instant | None = None,
    canary: str | None = None,
) -> st.SearchStrategy[StoreLine]:
    """A valid record line: any member order, escapes, padding; sometimes an overwritten
    duplicate member (INT-16), a number beyond 2**53 (INT-17) or nesting of exactly 64
    (INT-18)."""
    ctx = _LineContext(tuple(words), tuple(ids), around)
    return st.composite(lambda draw: _draw_valid_line(draw, ctx, canary))()


_ALL_INVALID_KINDS = tuple(
    (rule, kind) for rule, names in INVALID_LINE_KINDS.items() for kind in names
)


def _draw_invalid_line(
    draw: st.DrawFn, ctx: _LineContext, kinds: Sequence[tuple[str, str]] = _ALL_INVALID_KINDS
) -> StoreLine:
    rule, kind = _pick(draw, kinds)
    record = {"memory_id": _draw_id(draw, ctx), "text": _draw_text(draw, (), 3, True)}
    good = json.dumps(record, ensure_ascii=False)
    body = good[1:-1]
    raw: str | bytes
    if kind == "bad-utf8":
        raw = good.encode()[:-2] + b'\xff"}'
    elif kind == "overlong-utf8":
        raw = good.encode()[:-2] + b'\xc0\xaf"}'
    elif kind == "utf8-surrogate":
        raw = good.encode()[:-2] + b'\xed\xa0\x80"}'
    elif kind == "not-json":
        raw = _pick(draw, ("{", "}", "memory", "{memory_id: 1}", "[", '"'))
    elif kind == "nan":
        raw = "{" + body + ', "refs": [{"n": NaN}]}'
    elif kind == "infinity":
        raw = "{" + body + ', "refs": [{"n": -Infinity}]}'
    elif kind == "single-quotes":
        raw = "{'memory_id': 'm', 'text': 't'}"
    elif kind == "trailing-comma":
        raw = "{" + body + ",}"
    elif kind == "comment":
        raw = "{" + body + "} // note"
    elif kind == "trailing-garbage":
        raw = good + " x"
    elif kind == "two-objects":
        raw = good + good
    elif kind == "bom":
        raw = "\ufeff" + good
    elif kind == "lone-surrogate-escape":
        raw = "{" + body + ', "tags": ["\\ud800"]}'
    elif kind == "not-object":
        raw = _pick(draw, ("[]", "[" + good + "]", '"text"', "1", "true", "null"))
    elif kind == "unicode-space-only":
        raw = _pick(draw, ("\u00a0", " \u3000 ", "\u2028", "\x0b", "\x0c"))
    elif kind == "duplicate-last-invalid":
        raw = "{" + body + ', "text": 5}'
    elif kind == "duplicate-overwritten-surrogate":
        raw = '{"text": "\\udc00", ' + body + "}"
    elif kind == "number-overflow":
        raw = "{" + body + ', "refs": [{"n": ' + _pick(draw, ("1e400", "-1e999")) + "}]}"
    elif kind == "too-deep":
        raw = "{" + body + ', "x": ' + json.dumps(_nest(64)) + "}"
    elif kind == "ts-not-string":
        raw = "{" + body + ', "ts_utc": ' + _pick(draw, ("0", "20240102", "{}", "[]", "true")) + "}"
    else:
        raw = _schema_violation(draw, kind, record)
    return StoreLine(raw, f"invalid:{rule}:{kind}")


def invalid_record_lines(
    *, kinds: Sequence[str] | None = None, ids: Sequence[str] = ()
) -> st.SearchStrategy[StoreLine]:
    """A line every reader must drop as ``invalid_record_schema``, one kind per rule of
    INT-15 (UTF-8, JSON, BOM, surrogates, not an object), INT-16 (duplicates), INT-17 (numbers),
    INT-18 (depth), INT-20 (ts_utc type) and INT-22 (field types).

    ``kinds`` restricts the choice to some of :data:`INVALID_LINE_KINDS`' names.
    """
    chosen = tuple(p for p in _ALL_INVALID_KINDS if kinds is None or p[1] in kinds)
    if not chosen:
        raise ValueError(f"no invalid-line kind among {kinds!r}")
    ctx = _LineContext(ids=tuple(ids))
    return st.composite(lambda draw: _draw_invalid_line(draw, ctx, chosen))()


def _schema_violation(draw: st.DrawFn, kind: str, record: dict[str, Any]) -> str:
    """INT-22: one field of an otherwise fine record has the wrong type or is missing."""
    bad: dict[str, Any] = dict(record)
    if kind == "memory-id-missing":
        del bad["memory_id"]
    elif kind == "memory-id-not-string":
        bad["memory_id"] = _pick(draw, (1, 1.5, ["m"], {"id": "m"}, True))
    elif kind == "memory-id-null":
        bad["memory_id"] = None
    elif kind == "text-missing":
        del bad["text"]
    elif kind == "text-not-string":
        bad["text"] = _pick(draw, (0, ["t"], {"t": 1}, False))
    elif kind == "text-null":
        bad["text"] = None
    elif kind == "tags-not-list":
        bad["tags"] = _pick(draw, ("tag", 1, {"t": "a"}, None))
    elif kind == "tag-not-string":
        bad["tags"] = ["ok", _pick(draw, (1, None, ["t"], {}))]
    elif kind == "refs-not-list":
        bad["refs"] = _pick(draw, ({"kind": "x"}, "run-1", 3, None))
    elif kind == "ref-not-object":
        bad["refs"] = [{"kind": "x"}, _pick(draw, ("run-1", 1, [], None))]
    elif kind == "ts-null":
        bad["ts_utc"] = None
    else:  # pragma: no cover - the table and this function are kept in step by a test
        raise ValueError(f"unknown invalid-line kind {kind!r}")
    return json.dumps(bad, ensure_ascii=draw(_BOOL))


_BLANKS = ("", " ", "\t", "  \t ")


def blank_lines() -> st.SearchStrategy[StoreLine]:
    """Lines of only 0x20/0x09/0x0D or nothing: skipped silently, no record (INT-14)."""
    return st.sampled_from(_BLANKS).map(lambda raw: StoreLine(raw, "blank"))


_LINE_KINDS = ("valid", "valid", "valid", "valid", "invalid", "blank")


def _kind_rule(rule: str, kind: str) -> str:
    """The interpretation an invalid-line kind exercises."""
    return _KIND_RULES.get(kind, rule)


def _draw_line(draw: st.DrawFn, ctx: _LineContext, canary: str | None, invalid: bool) -> StoreLine:
    which = _pick(draw, _LINE_KINDS) if invalid else "valid"
    pins = ctx.pins
    if which == "invalid":
        kinds = tuple(p for p in _ALL_INVALID_KINDS if pins.may(_kind_rule(*p)))
        if kinds:
            line = _draw_invalid_line(draw, ctx, kinds)
            pins.used.add(_kind_rule(*line.kind.split(":")[1:3]))
            return line
    elif which == "blank" and pins.may("INT-14"):
        pins.used.add("INT-14")
        return StoreLine(_pick(draw, _BLANKS), "blank")
    return _draw_valid_line(draw, ctx, canary)


def store_lines(
    *,
    words: Sequence[str] = (),
    ids: Sequence[str] = (),
    around: Instant | None = None,
    canary: str | None = None,
    invalid: bool = True,
) -> st.SearchStrategy[StoreLine]:
    """One store line: mostly valid records, some invalid lines and blank lines."""
    ctx = _LineContext(tuple(words), tuple(ids), around)
    return st.composite(lambda draw: _draw_line(draw, ctx, canary, invalid))()


def _draw_store(
    draw: st.DrawFn, ctx: _LineContext, max_lines: int, invalid: bool, canary_tag: str
) -> list[StoreLine]:
    return [
        _draw_line(draw, ctx, f"{CANARY_PREFIX}{canary_tag}L{index}Q", invalid)
        for index in range(draw(_ints(0, max_lines)))
    ]


def stores(
    *,
    words: Sequence[str] = (),
    ids: Sequence[str] = (),
    around: Instant | None = None,
    max_lines: int = 8,
    invalid: bool = True,
    canary_tag: str = "S0",
) -> st.SearchStrategy[list[StoreLine]]:
    """A whole store as a list of lines; every valid record carries a unique canary
    (``CANARY<canary_tag>L<line>Q``)."""
    ctx = _LineContext(tuple(words), tuple(ids), around)
    return st.composite(lambda draw: _draw_store(draw, ctx, max_lines, invalid, canary_tag))()


_EOLS = ("\n", "\r\n")


def _draw_store_file(
    draw: st.DrawFn, lines: Sequence[StoreLine], pins: _Pins = _ALL_PINS
) -> LinesFile:
    # INT-14: CRLF and a missing final newline are readings; LF with a final LF is not
    if pins.chance(draw, "INT-14", 2):
        return LinesFile(tuple(line.raw for line in lines), _pick(draw, _EOLS), draw(_BOOL))
    return LinesFile(tuple(line.raw for line in lines), "\n", True)


def store_files(lines: Sequence[StoreLine]) -> st.SearchStrategy[LinesFile]:
    """A :class:`~conformance._vectors.LinesFile` for ``lines``: LF or CRLF, final EOL or not."""
    return st.composite(lambda draw: _draw_store_file(draw, lines))()


# ----------------------------------------------------------------------------- trust


def _draw_snapshot(
    draw: st.DrawFn,
    memory_id_pool: Sequence[str],
    record_hash_pool: Sequence[str],
    classifications: Sequence[str],
    pins: _Pins = _ALL_PINS,
) -> dict[str, Any]:
    entries = []
    for _ in range(draw(_ints(0, 4))):
        entry: dict[str, Any] = {"classification": _pick(draw, classifications)}
        keys = _pick(draw, ("memory_id", "record_hash", "memory_id", "record_hash"))
        if pins.chance(draw, "INT-39", 3):  # INT-39: what an entry naming both keys matches
            keys = "both"
        if keys in ("memory_id", "both"):
            if memory_id_pool and draw(_ints(0, 4)) > 0:
                entry["memory_id"] = _pick(draw, memory_id_pool)
            else:  # "" is accepted and matches nothing (INT-38)
                entry["memory_id"] = _pick(draw, ("", "m1", "nobody"))
        if keys in ("record_hash", "both"):
            if record_hash_pool and draw(_ints(0, 4)) > 0:
                entry["record_hash"] = _pick(draw, record_hash_pool)
            else:
                entry["record_hash"] = _pick(draw, ("", "0" * 64))
        if draw(_ints(0, 4)) == 4:
            entry["note"] = "unknown members are ignored"
        entries.append(entry)
    document: dict[str, Any] = {"format": "phase6-trust/1", "entries": entries}
    if draw(_BOOL):
        document["source"] = "phase4"  # unknown top-level members are ignored (INT-38)
    return document


def trust_snapshots(
    *,
    memory_id_pool: Sequence[str] = (),
    record_hash_pool: Sequence[str] = (),
    classifications: Sequence[str] = _CLASSIFICATIONS,
) -> st.SearchStrategy[dict[str, Any]]:
    """A valid ``phase6-trust/1`` document (INT-38): entries by memory_id, by record_hash or
    both (INT-39: either key matches), unknown members, "" keys."""
    ids, hashes, names = tuple(memory_id_pool), tuple(record_hash_pool), tuple(classifications)
    return st.composite(lambda draw: _draw_snapshot(draw, ids, hashes, names))()


# ----------------------------------------------------------------------------- requests


def _draw_edge_int(draw: st.DrawFn, small: int, large: int = SAFE_INT) -> int:
    """1..small, or an edge: 1, 2, 3, 4 or ``large``."""
    if draw(_BOOL):
        return draw(_ints(1, small))
    return _pick(draw, (1, 2, 3, 4, large))


def _draw_spelling(draw: st.DrawFn, path: str) -> str:
    """An equivalent spelling of a relative path (INT-12: lexical normalization)."""
    head, _, tail = path.rpartition("/")
    return _pick(
        draw, (path, f"./{path}", f"{head}//{tail}", f"{head}/x/../{tail}", f"{head}/./{tail}")
    )


_TERM_EDGES = ("", " ", "a", "A ", "x y", "  Alpha\u3000BETA ")


def _draw_request(
    draw: st.DrawFn,
    store_paths: Sequence[str],
    words: Sequence[str],
    snapshot_path: str | None,
    now: Instant | None,
    integral_floats: bool,
    recency: bool | None = None,
    pins: _Pins = _ALL_PINS,
) -> dict[str, Any]:
    words = tuple(words) or ("alpha",)
    query = draw(white_space(0, 2))
    for _ in range(draw(_ints(1, 4))):
        word = _cased(draw, _pick(draw, words)) if draw(_BOOL) else _draw_word(draw, 1, 3)
        query += word + draw(white_space(1, 2))
    if draw(_BOOL):
        query = query.rstrip("".join(WHITE_SPACE_CHARACTERS))
    paths = [
        _draw_spelling(draw, _pick(draw, store_paths))
        for _ in range(draw(_ints(1, len(store_paths) + 2)))
    ]
    request: dict[str, Any] = {"query": query, "store_paths": paths}

    max_tokens: int | float = (
        draw(_ints(8, 256)) if draw(_ints(0, 2)) == 0 else _draw_edge_int(draw, 24)
    )
    if integral_floats and pins.chance(draw, "INT-41", 6):
        max_tokens = float(max_tokens)  # INT-41: 10.0 is the integer 10
    budget: dict[str, Any] = {"max_excerpt_tokens": max_tokens}
    if draw(_BOOL):
        budget["per_item_max_excerpt_tokens"] = _draw_edge_int(draw, 16)
    if draw(_BOOL):
        budget["max_items"] = (
            draw(_ints(1, 3)) if draw(_ints(0, 2)) else _pick(draw, (4, 50, SAFE_INT))
        )
    request["budget"] = budget

    if draw(_BOOL):
        scoring: dict[str, Any] = {}
        if draw(_BOOL):
            scoring["enable_recency_weight"] = draw(_ints(0, 2)) > 0
        if draw(_BOOL):
            scoring["recency_half_life_days"] = (
                draw(_ints(1, 400)) if draw(_BOOL) else _pick(draw, (1, 30, SAFE_INT))
            )
        if draw(_BOOL):
            scoring["enable_tag_overlap"] = draw(_BOOL)
        if draw(_ints(0, 3)) == 3:
            terms = []
            for _ in range(draw(_ints(0, 4))):
                kind = draw(_ints(0, 2))
                if kind == 0:
                    terms.append(_cased(draw, _pick(draw, words)))
                elif kind == 1:
                    terms.append(_pick(draw, _TERM_EDGES))
                else:
                    terms.append(_draw_word(draw, 1, 3))
            scoring["query_terms"] = terms
        request["scoring"] = scoring

    if recency is not None:  # forced: recency on with now_utc, or off
        request.setdefault("scoring", {})["enable_recency_weight"] = recency

    if snapshot_path is not None or draw(_ints(0, 4)) == 4:
        trust: dict[str, Any] = {}
        if draw(_BOOL):
            trust["deny_classifications"] = [
                _pick(draw, _CLASSIFICATIONS) for _ in range(draw(_ints(0, 3)))
            ]
        if snapshot_path is not None and draw(_ints(0, 3)) > 0:
            trust["trust_snapshot_path"] = _draw_spelling(draw, snapshot_path)
        request["trust_filter"] = trust

    if now is not None and (recency or draw(_ints(0, 3)) > 0):
        request["now_utc"] = format_timestamp(
            now, digits=_pick(draw, (None, 9)), suffix=_pick(draw, _SUFFIXES)
        )
    return request


def memory_controller_inputs(
    store_paths: Sequence[str],
    *,
    words: Sequence[str] = (),
    snapshot_path: str | None = None,
    now: Instant | None = None,
    integral_floats: bool = True,
    recency: bool | None = None,
) -> st.SearchStrategy[dict[str, Any]]:
    """A valid MemoryControllerInput over ``store_paths`` (every path must exist).

    Every optional member is sometimes absent, sometimes explicit: max_excerpt_tokens and
    per_item at their edges (1, 2, 3, 4, 2**53-1; per_item larger than the budget), max_items
    1..3, 4, 50 or 2**53-1, recency on/off with and without now_utc, half-lives up to 2**53-1,
    supplied query_terms (INT-08: empty list, "", case and whitespace variants), deny lists,
    the snapshot path respelled, max_excerpt_tokens sometimes written 10.0 (INT-41 when
    ``integral_floats``). Store paths come in any order, with duplicates and equivalent
    spellings (INT-12). ``recency=True`` forces enable_recency_weight on with now_utc (when
    ``now`` is given); ``False`` forces it off.
    """
    if not store_paths:
        raise ValueError("memory_controller_inputs needs at least one store path")
    paths, vocabulary = tuple(store_paths), tuple(words)
    return st.composite(
        lambda draw: _draw_request(
            draw, paths, vocabulary, snapshot_path, now, integral_floats, recency
        )
    )()


# ----------------------------------------------------------------------------- scenarios

_NOW_BASE = int((datetime(2025, 1, 1, tzinfo=UTC) - _EPOCH).total_seconds())
_NOW_SECONDS = st.integers(_NOW_BASE - 5 * 365 * 86_400, _NOW_BASE + 5 * 365 * 86_400)
_NANOS = st.integers(0, 10**9 - 1)


def _draw_scenario(
    draw: st.DrawFn,
    max_stores: int,
    max_lines: int,
    invalid: bool,
    trust: bool,
    recency: bool | None = None,
    pinned: frozenset[str] | None = None,
) -> Scenario:
    pins = _Pins(pinned)
    words = []
    for _ in range(draw(_ints(1, 4))):
        word = _draw_word(draw, 1, 5)
        if word not in words:
            words.append(word)
    ids = []
    for _ in range(draw(_ints(1, 4))):
        memory_id = draw(memory_ids())
        if memory_id not in ids:
            ids.append(memory_id)
    now = Instant(draw(_NOW_SECONDS), draw(_NANOS))
    ctx = _LineContext(tuple(words), tuple(ids), now, pins)
    names: list[str] = []
    for _ in range(draw(_ints(1, max_stores))):
        name = _pick(draw, _STORE_NAMES)
        if name not in names:
            names.append(name)
    files: dict[str, FileSpec] = {}
    lines: dict[str, list[StoreLine]] = {}
    canaries: list[str] = []
    for index, name in enumerate(names):
        path = f"{STORE_DIR}/{name}.jsonl"
        store = _draw_store(draw, ctx, max_lines, invalid, f"S{index}")
        files[path] = _draw_store_file(draw, store, pins)
        lines[path] = store
        canaries.extend(c for line in store for c in line.canaries)
    snapshot_path = None
    if trust and (draw(_ints(0, 2)) == 2 or pins.focus == "INT-39"):
        id_pool, hash_pool = [], []
        for store in lines.values():
            for line in store:
                if line.kind == "valid":
                    parsed = read_line(line.data)
                    id_pool.append(parsed["memory_id"])
                    hash_pool.append(parsed["record_hash"])
        document = _draw_snapshot(draw, id_pool, hash_pool, _CLASSIFICATIONS, pins)
        files[SNAPSHOT_PATH] = TextFile(json.dumps(document, ensure_ascii=False))
        snapshot_path = SNAPSHOT_PATH
    request = _draw_request(draw, sorted(lines), words, snapshot_path, now, True, recency, pins)
    return Scenario.build(request, files, lines, canaries, pinned=pins.used)


@functools.cache
def scenarios(
    *,
    max_stores: int = 3,
    max_lines: int = 6,
    invalid: bool = True,
    trust: bool = True,
    recency: bool | None = None,
    pinned: frozenset[str] | None = None,
) -> st.SearchStrategy[Scenario]:
    """A whole valid input: 1..``max_stores`` stores of up to ``max_lines`` Unicode-heavy lines
    sharing a vocabulary with the query (so scores, tag bonuses and recency vary), a canary in
    every valid record, invalid and blank lines (unless ``invalid=False``), sometimes a trust
    snapshot over the stores' memory_ids and record_hashes (unless ``trust=False``), and a
    request from :func:`memory_controller_inputs` (``recency`` as there).

    ``pinned`` limits the pinned-only inputs (:data:`PINNED_INPUTS`) to those of the listed
    interpretations (``None``: all; ``frozenset()``: none, every reading agrees on the input);
    ``Scenario.pinned`` lists those drawn.
    """
    return st.composite(
        lambda draw: _draw_scenario(draw, max_stores, max_lines, invalid, trust, recency, pinned)
    )()


#: (member, new value or None to remove it, the interpretation that decides whether the edit
#: makes the request invalid, or None when every reading of the spec says it does).
_INVALID_EDITS: tuple[tuple[str, Any, str | None], ...] = (
    ("query", None, None), ("query", " \u3000 ", "INT-05"), ("query", " \t ", None),
    ("query", 5, None), ("store_paths", [], None),
    ("store_paths", ["stores/missing.jsonl"], None), ("store_paths", "stores/a.jsonl", None),
    ("budget", None, None), ("budget", {"max_excerpt_tokens": 0}, None),
    ("budget", {"max_excerpt_tokens": -1}, None),
    ("budget", {"max_excerpt_tokens": 1.5}, None), ("budget", {"max_excerpt_tokens": "10"}, None),
    ("budget", {"max_excerpt_tokens": True}, None),
    ("budget", {"max_excerpt_tokens": 2**53}, "INT-41"),
    ("budget", {"max_excerpt_tokens": 4, "max_items": 0}, "INT-30"),
    ("budget", {"max_excerpt_tokens": 4, "per_item_max_excerpt_tokens": 0}, "INT-30"),
    ("budget", {"max_excerpt_tokens": 4, "max_item": 3}, "INT-42"),
    ("scoring", {"recency_half_life_days": 0}, "INT-36"),
    ("scoring", {"enable_tag_overlap": "yes"}, None),
    ("scoring", {"query_terms": ["a", 1]}, None), ("scoring", [], None),
    ("trust_filter", {"deny_classifications": "malicious"}, None),
    ("trust_filter", {"trust_snapshot_path": "trust/missing.json"}, "INT-38"),
    ("now_utc", "2024-01-02T03:04:05+02:00", "INT-20"), ("now_utc", 0, None),
    ("extra", 1, "INT-42"), ("Query", "x", "INT-42"),
)  # fmt: skip


def _broken(valid: Mapping[str, Any], change: tuple[str, Any, str | None]) -> dict[str, Any]:
    request: dict[str, Any] = json.loads(json.dumps(dict(valid)))
    name, value, _ = change
    if value is None:
        request.pop(name, None)
    else:
        request[name] = value
    return request


def invalid_requests(
    valid: Mapping[str, Any], *, pinned: frozenset[str] | None = None
) -> st.SearchStrategy[dict[str, Any]]:
    """``valid`` with one member broken (errors.md rows 1-11): each must give one error.

    ``pinned`` as for :func:`scenarios`: only edits every reading calls invalid, plus those
    of the interpretations listed (``None``: all)."""
    edits = tuple(e for e in _INVALID_EDITS if e[2] is None or pinned is None or e[2] in pinned)
    return st.sampled_from(edits).map(lambda change: _broken(valid, change))


@functools.cache
def error_scenarios(
    *,
    max_stores: int = 2,
    max_lines: int = 3,
    invalid: bool = True,
    trust: bool = True,
    pinned: frozenset[str] | None = None,
) -> st.SearchStrategy[Scenario]:
    """A :func:`scenarios` input whose request is then broken by :func:`invalid_requests`
    (the result must be an error, the same one every time: S6-ERR-07). ``pinned`` as there:
    an edit whose invalidity an interpretation decides (an unknown member, INT-42; a snapshot
    path that does not exist, INT-38; ...) is drawn only when allowed, and recorded."""
    pins = _Pins(pinned)
    agreed = tuple(e for e in _INVALID_EDITS if e[2] is None)
    allowed = tuple(e for e in _INVALID_EDITS if e[2] is not None and pins.may(e[2]))
    focused = tuple(e for e in allowed if e[2] == pins.focus)

    def draw_one(draw: st.DrawFn) -> Scenario:
        scenario = _draw_scenario(draw, max_stores, max_lines, invalid, trust, None, pinned)
        focus: bool = bool(focused) and draw(_BOOL)
        edit = _pick(draw, focused if focus else agreed + allowed)
        request = _broken(scenario.request, edit)
        broken = scenario.with_request(request, note="error")
        return broken.with_pinned(edit[2]) if edit[2] is not None else broken

    return st.composite(draw_one)()
