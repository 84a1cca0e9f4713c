"""The profile's names and the readings its checks rest on, as tables (one home each).

The harness's own copy of what specs/phase2/interpretations.toml pins for the checks it makes:
the estimator (P2-INT-01, whitespace P2-INT-02), the policy snippet (P2-INT-04), the layer
order (P2-INT-05), the five tables (P2-INT-19) and the one observability event (P2-INT-20).
It is written from the register, not from the reference engine, which the harness never
imports (the reference is certified like a stranger).

Some of those readings have executable alternatives a check must follow when the
implementation follows them (its reading profile, :mod:`conformance.phase2._attribution`):
the estimator (P2-INT-01: :data:`ESTIMATORS`), the whitespace table (P2-INT-02:
:data:`WHITE_SPACE_TABLES`), the policy text (P2-INT-04: a parameter read from the
implementation's output) and whether the budget counts it (P2-INT-04/outside-budget), the order
hot turns are listed in (P2-INT-05/newest-first), which value of a repeated query is the query
(P2-INT-15/last-value; otherwise the first, as P2-INT-15/first-value takes it), a trimmed query
(P2-INT-17/trim) and sources counted before trimming (P2-INT-18/before-trimming).
:class:`CheckReadings` holds them; its defaults are the pinned readings.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from conformance.registers import split_reading_id

__all__ = [
    "BLOCK_OVERHEAD",
    "CAPABILITIES",
    "CONTEXT_CAPABILITY",
    "CONTRACT",
    "ESTIMATORS",
    "LAYER_RANK",
    "POLICY_ALTERNATIVE",
    "POLICY_SNIPPET",
    "PREVIEW_EVENT",
    "PROFILE",
    "SPEC",
    "TABLES",
    "TRIMMED_QUERY",
    "WARM_SUMMARIES",
    "WHITE_SPACE",
    "WHITE_SPACE_TABLES",
    "CheckReadings",
    "estimate",
]

#: ``certify --profile`` name, the contract a handshake declares, the spec certified.
PROFILE: Final = "phase2-context"
CONTRACT: Final = "phase2-context/1"
SPEC: Final = "PHASE2-memory-engine"
#: call ``op`` -> the capability an implementation declares to be sent such calls (protocol.md
#: P2.1); ``phase2.context`` is required.
CAPABILITIES: Final = {
    "context": "phase2.context",
    "compact": "phase2.compact",
    "summarize": "phase2.summarize",
}
CONTEXT_CAPABILITY: Final = CAPABILITIES["context"]
#: P2-INT-19: the five tables of a fixture and of a state dump, in dump order.
TABLES: Final = ("memory_summaries", "event_log", "inbox_items", "entities", "entity_links")
#: P2-INT-20: the one event_log row a context call may append.
PREVIEW_EVENT: Final = "memory_context_previewed"
#: P2-INT-04: the policy block's text, word for word.
POLICY_SNIPPET: Final = (
    "Memory policy: answer from the context below; prefer the most recent facts."
)
#: P2-INT-02: the Unicode White_Space property, exactly 25 code points.
WHITE_SPACE: Final = frozenset(
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)
#: P2-INT-02's executable alternatives: the whitespace table each one reads.
WHITE_SPACE_TABLES: Final = {
    "P2-INT-02/ascii": frozenset("\t\n\x0b\x0c\r "),
    "P2-INT-02/python": WHITE_SPACE | frozenset("\x1c\x1d\x1e\x1f"),
    # ECMAScript's \s: White_Space without U+0085, plus U+FEFF
    "P2-INT-02/javascript": (WHITE_SPACE - {"\x85"}) | {"\ufeff"},
}
#: P2-INT-01's executable alternatives: what C counts (a function of the text), and whether
#: the estimate is C/4 alone or W alone (``None``: max(W, ceil(C / 4))).
ESTIMATORS: Final = {
    "P2-INT-01/ceil-chars": "chars",
    "P2-INT-01/words": "words",
    "P2-INT-01/utf8-bytes": "utf-8",
    "P2-INT-01/utf16-units": "utf-16",
    "P2-INT-01/ceil-utf16-units": "ceil-utf-16",  # JavaScript's Math.ceil(s.length / 4)
}
#: P2-INT-04's executable alternative: the policy text is the implementation's (a parameter).
POLICY_ALTERNATIVE: Final = "P2-INT-04/implementation-text"
#: P2-INT-17's alternative that makes the query block the trimmed query.
TRIMMED_QUERY: Final = "P2-INT-17/trim"
#: P2-INT-05 / P2-ASM-10: "draft = [policy, summary, hot, entities, query]".
LAYER_RANK: Final = {"policy": 0, "summary": 1, "hot_turn": 2, "entity": 3, "query": 4}


def estimate(text: str, white_space: frozenset[str] = WHITE_SPACE, how: str = "") -> int:
    """P2-INT-01: ``max(words, ceil(code points / 4))``, words being maximal runs outside
    ``white_space`` (P2-INT-02); 0 for the empty string. ``how``: a value of
    :data:`ESTIMATORS` (an alternative), empty for the pinned estimator."""
    words, in_word = 0, False
    for char in text:
        if char in white_space:
            in_word = False
        elif not in_word:
            words, in_word = words + 1, True
    if how == "utf-8":
        characters = len(text.encode("utf-8"))
    elif how in ("utf-16", "ceil-utf-16"):
        characters = len(text.encode("utf-16-le")) // 2
    else:
        characters = len(text)
    quarter = -(-characters // 4)
    if how in ("chars", "ceil-utf-16"):
        return quarter
    return words if how == "words" else max(words, quarter)


#: P2-INT-06/several(n=N): the summary layer holds the N latest summaries (a parameter).
WARM_SUMMARIES: Final = "P2-INT-06/several"
#: P2-INT-03/block-overhead(tokens=K): K tokens more per counted block (a parameter).
BLOCK_OVERHEAD: Final = "P2-INT-03/block-overhead"


def _value(chosen: Iterable[str], alternative: str, pinned: int) -> int:
    """The value of ``alternative`` among the readings ``chosen`` (``pinned``: not chosen)."""
    return next(
        (
            value
            for base, _, value in map(split_reading_id, chosen)
            if base == alternative and value is not None
        ),
        pinned,
    )


@dataclass(frozen=True)
class CheckReadings:
    """The readings the property checks take from an implementation's reading profile; the
    defaults are the pinned readings."""

    #: P2-INT-04: the policy block's text.
    policy: str = POLICY_SNIPPET
    #: P2-INT-02: what separates words (the estimator) and what trimming removes.
    white_space: frozenset[str] = WHITE_SPACE
    #: P2-INT-17: whether the query block holds the query trimmed of whitespace.
    trim_query: bool = False
    #: P2-INT-01: the estimator (a value of :data:`ESTIMATORS`; empty: pinned).
    estimator: str = ""
    #: P2-INT-04/outside-budget: estimated_used leaves the policy block's tokens out.
    policy_counted: bool = True
    #: P2-INT-05/newest-first: hot turns are listed newest first.
    hot_newest_first: bool = False
    #: P2-INT-15/last-value: a repeated query parameter's last value is the query.
    last_value: bool = False
    #: P2-INT-18/before-trimming: sources counts the draft, not the context returned.
    sources_drafted: bool = False
    #: P2-INT-03/concatenated: estimated_used is the estimate of the texts joined.
    joined: bool = False
    #: P2-INT-06/several(n=N): how many summary blocks the context may hold (pinned: one).
    summaries: int = 1
    #: P2-INT-03/block-overhead(tokens=K): estimated_used counts K more per counted block.
    overhead: int = 0

    @classmethod
    def of(cls, profile: Iterable[str], *, policy: str | None = None) -> CheckReadings:
        """The values a reading profile (alternative IDs, one per entry) and the
        implementation's policy text (``None``: the pinned one) give the checks."""
        chosen = set(profile)
        white_space = next(
            (table for name, table in WHITE_SPACE_TABLES.items() if name in chosen), WHITE_SPACE
        )
        return cls(
            policy=POLICY_SNIPPET if policy is None else policy,
            white_space=white_space,
            trim_query=TRIMMED_QUERY in chosen,
            estimator=next((how for name, how in ESTIMATORS.items() if name in chosen), ""),
            policy_counted="P2-INT-04/outside-budget" not in chosen,
            hot_newest_first="P2-INT-05/newest-first" in chosen,
            last_value="P2-INT-15/last-value" in chosen,
            sources_drafted="P2-INT-18/before-trimming" in chosen,
            joined="P2-INT-03/concatenated" in chosen,
            summaries=_value(chosen, WARM_SUMMARIES, 1),
            overhead=_value(chosen, BLOCK_OVERHEAD, 0),
        )

    def estimate(self, text: str) -> int:
        """P2-INT-01 with this profile's estimator and whitespace."""
        return estimate(text, self.white_space, self.estimator)

    def query_text(self, value: str) -> str:
        """The query block's text for the query parameter ``value`` (P2-INT-03, P2-INT-17)."""
        return value.strip("".join(sorted(self.white_space))) if self.trim_query else value
