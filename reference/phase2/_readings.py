"""Readings: the Phase 2 register's pinned answers and their executable alternatives, as values.

Every entry of ``specs/phase2/interpretations.toml`` pins one reading and lists the alternatives
an honest implementer could take. An alternative listed in :data:`ALTERNATIVES` is
*executable*: it has a stable ID (``P2-INT-08/one-hop``: the entry, a slash, a name; the
register's ``executable`` key names the same IDs), and :class:`Readings` holds, for each entry
that has one, the value the stage it belongs to consults. The defaults are the pinned readings,
so ``run_vector_call(fixture, call)`` and ``run_vector_call(fixture, call, readings=Readings())``
are the same bytes.

Each field of :class:`Readings` names the entry it belongs to and the table of the stage that
consults it (``_tokens.ESTIMATORS`` and ``WHITE_SPACE_TABLES``, ``_assemble.ENTITY_TEXT``,
``_budget.COUNTED``/``STEPS``/``TRIM_ORDERS``, ``_summaries.SUMMARY_READINGS``,
``_hot_turns.HOT_TURN_READINGS``, ``_entities.RELATEDNESS``/``RANKINGS``,
``_endpoint.MAX_TOKENS_READINGS``/``FAULTS``/``DEFAULT_USER``/``QUERY_READINGS``/
``CHAT_MATCH``/``UNKNOWN_CHAT``/``EMPTY_VALUES``, ``_compact.CUTOFFS``,
``_summarize.SOURCE_READINGS``); each
:class:`Alternative` of :data:`ALTERNATIVES` says which value it sets. The register's
``alternative_ids`` names every alternative, and an alternative not listed here says why in the
register's ``not_executable`` (``python -m tools readings --profile phase2-context``).

``P2-INT-04/implementation-text`` is a *parameter*, not a choice among fixed values: the spec
fixes that there is one policy snippet, not its words ("System memory policy snippet
(fixed)."), so the harness reads the implementation's text from what it returns and the
reference runs with that text (``serve-protocol --policy-text TEXT``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Final

from reference._alternatives import Alternative, Parameter, UnknownReading, applied, followed

__all__ = [
    "ALTERNATIVES",
    "PINNED",
    "POLICY_ALTERNATIVE",
    "POLICY_SNIPPET",
    "Alternative",
    "Readings",
    "UnknownReading",
]

#: P2-ASM-02 "System memory policy snippet (fixed)."; its exact words are P2-INT-04
#: (75 code points, 12 words, 19 tokens).
POLICY_SNIPPET: Final = (
    "Memory policy: answer from the context below; prefer the most recent facts."
)
#: The alternative whose value is the implementation's own policy text (a parameter).
POLICY_ALTERNATIVE: Final = "P2-INT-04/implementation-text"


@dataclass(frozen=True)
class Readings:
    """The readings one run follows; every default is the register's pinned reading."""

    #: P2-INT-01: the token estimator, a key of ``_tokens.ESTIMATORS``.
    estimator: str = "max-words-quarter"
    #: P2-INT-02: the whitespace table, a key of ``_tokens.WHITE_SPACE_TABLES``.
    white_space: str = "unicode"
    #: P2-INT-03: an entity block's text (``_assemble.ENTITY_TEXT``).
    entity_text: str = "kind-title"
    #: P2-INT-03: the draft's estimate: the sum of the blocks' (pinned) or "concatenated".
    draft_estimate: str = "sum"
    #: P2-INT-03/block-overhead(tokens=K): K more tokens per counted block in the draft's
    #: estimate (None: none).
    block_overhead: int | None = None
    #: P2-INT-04: the policy block's text.
    policy: str = POLICY_SNIPPET
    #: P2-INT-04: whether the budget counts the policy (``_budget.COUNTED``).
    policy_budget: str = "inside"
    #: P2-INT-05: the order the hot turns are listed in (``_assemble.HOT_ORDER``).
    hot_order: str = "oldest-first"
    #: P2-INT-06: which summary is the layer (``_summaries.SUMMARY_READINGS``).
    summary: str = "latest"
    #: P2-INT-06/several(n=N): how many of the latest summaries are the layer (None: the one).
    warm_summaries: int | None = None
    #: P2-INT-07: which inbox items are hot turns (``_hot_turns.HOT_TURN_READINGS``).
    hot_turns: str = "user-latest"
    #: P2-INT-08: which entities are related to the query (``_entities.RELATEDNESS``).
    related: str = "query-walk"
    #: P2-INT-09: how related entities are ranked and limited (``_entities.RANKINGS``).
    ranking: str = "proximity-first"
    #: P2-INT-10: what one trimming iteration removes (``_budget.STEPS``).
    trim_step: str = "one-block"
    #: P2-INT-11: when the summary is trimmed (``_budget.TRIM_ORDERS``).
    summary_trim: str = "last"
    #: P2-INT-12: policy + query over the budget (``_assemble.SMALL_BUDGET``).
    small_budget: str = "over-budget"
    #: P2-INT-13: budget.requested and an absent max_tokens (``_endpoint.ABSENT_MAX_TOKENS``).
    absent_max_tokens: str = "null"
    #: P2-INT-14: which max_tokens values are valid (``_endpoint.MAX_TOKENS_READINGS``).
    max_tokens: str = "ascii-digits"
    #: P2-INT-15: bad parameters' status and repeated parameters (``_endpoint.FAULTS``).
    faults: str = "400-first"
    #: P2-INT-16: whose memory a call without user_id assembles (``_endpoint.DEFAULT_USER``).
    default_user: str = "chat-id"
    #: P2-INT-17: how the query value is taken (``_endpoint.QUERY_READINGS``).
    query: str = "exact"
    #: P2-INT-17: which stored chat_ids a chat_id names (``_endpoint.CHAT_MATCH``).
    chat_match: str = "exact"
    #: P2-INT-17: an unknown chat (``_endpoint.UNKNOWN_CHAT``).
    unknown_chat: str = "empty-context"
    #: P2-INT-17: which parameters an empty value leaves absent (``_endpoint.EMPTY_VALUES``).
    empty_values: str = "invalid"
    #: P2-INT-18: what sources counts (``_assemble.SOURCES``).
    sources: str = "returned"
    #: P2-INT-21: which inbox items are old (``_compact.CUTOFFS``).
    cutoff: str = "strict"
    #: P2-INT-23: when compaction logs its event ("always", or "only-when-removed").
    compaction_event: str = "always"
    #: P2-INT-24: which events a summary summarizes (``_summarize.SOURCE_READINGS``).
    summary_sources: str = "uncovered"

    @classmethod
    def of(cls, ids: Sequence[str], *, policy: str | None = None) -> Readings:
        """The pinned readings with the alternatives ``ids`` switched on.

        ``policy`` is the value of :data:`POLICY_ALTERNATIVE` (given with it, or alone: then
        that alternative is implied). UnknownReading for an ID that is not executable,
        ValueError for two alternatives of one entry or a parameter without its value.
        """
        readings, entries = applied(cls(), ids, ALTERNATIVES)
        if POLICY_ALTERNATIVE in entries.values() and policy is None:
            raise ValueError(f"{POLICY_ALTERNATIVE} needs the policy text (a parameter)")
        if policy is not None:
            readings = replace(readings, policy=policy)
        return readings

    @property
    def ids(self) -> tuple[str, ...]:
        """The alternatives this value follows (empty for the pinned readings)."""
        pinned = Readings()
        found = followed(self, pinned, ALTERNATIVES)
        if self.policy != pinned.policy:
            found.append(POLICY_ALTERNATIVE)
        return tuple(sorted(found))


#: The pinned readings: every stage's default.
PINNED: Final = Readings()


#: Every executable alternative, by ID. ``index`` points into the entry's ``alternatives``.
ALTERNATIVES: Final[dict[str, Alternative]] = {
    alternative.id: alternative
    for alternative in sorted(  # register order: entry, then index
        (
            Alternative(
                "P2-INT-02/ascii",
                0,
                "whitespace is the six ASCII characters U+0009..U+000D and U+0020",
                {"white_space": "ascii"},
            ),
            Alternative(
                "P2-INT-02/python",
                1,
                "whitespace is Python's str.isspace()/str.split(): White_Space plus U+001C..U+001F",
                {"white_space": "python"},
            ),
            Alternative(
                POLICY_ALTERNATIVE,
                0,
                "the policy snippet's words are the implementation's own (a parameter read from "
                "its output); everything else, its tokens included, follows from them",
            ),
            Alternative(
                "P2-INT-08/all-by-recency",
                0,
                "every entity of the user is related, ranked by recency alone",
                {"related": "all-by-recency"},
            ),
            Alternative(
                "P2-INT-08/one-hop",
                1,
                "only the seeds and their direct neighbours are related",
                {"related": "one-hop"},
            ),
            Alternative(
                "P2-INT-08/unicode-terms",
                2,
                "terms are maximal runs of Unicode letters and digits, case-folded",
                {"related": "unicode-terms"},
            ),
            Alternative(
                "P2-INT-08/directed",
                3,
                "links are directed: the walk goes from from_entity_id to to_entity_id only",
                {"related": "directed"},
            ),
            Alternative(
                "P2-INT-16/latest-inbox-owner",
                1,
                "without user_id, the user is the owner of the chat's most recent inbox item "
                "(the chat_id when the chat has none)",
                {"default_user": "latest-inbox-owner"},
            ),
            Alternative(
                "P2-INT-16/oldest-inbox-owner",
                3,
                "without user_id, the user is the owner of the chat's oldest inbox item "
                "(the chat_id when the chat has none)",
                {"default_user": "oldest-inbox-owner"},
            ),
            Alternative(
                "P2-INT-16/every-user",
                2,
                "without user_id, the memory of every user of the chat (a user with an inbox "
                "item, a summary or an event in it; the chat_id when it has none): the chat's "
                "hot turns and latest summary, and the related entities of all those users",
                {"default_user": "every-user"},
            ),
            Alternative(
                "P2-INT-17/numeric-chat-id",
                2,
                "a chat_id of ASCII digits (optionally after '-') names every stored chat_id of "
                "the same integer ('007' is '7'); other values compare as exact strings",
                {"chat_match": "numeric"},
            ),
            Alternative(
                "P2-INT-17/trim",
                0,
                "the query is trimmed of whitespace (P2-INT-02) before it is used",
                {"query": "trim"},
            ),
            Alternative(
                "P2-INT-17/empty-only",
                3,
                "only an empty query is refused; a query of whitespace alone is a query",
                {"query": "empty-only"},
            ),
            Alternative(
                "P2-INT-17/empty-absent",
                4,
                "an empty value is an absent one: chat_id= and query= answer "
                "missing_parameter, user_id= takes the user of a call without user_id",
                {"empty_values": "absent"},
            ),
            Alternative(
                "P2-INT-01/ceil-chars",
                0,
                "tokens are ceil(code points / 4) alone",
                {"estimator": "ceil-chars"},
            ),
            Alternative(
                "P2-INT-01/words",
                1,
                "tokens are the number of words alone",
                {"estimator": "words"},
            ),
            Alternative(
                "P2-INT-01/utf8-bytes",
                2,
                "characters are counted as UTF-8 bytes: max(words, ceil(bytes / 4))",
                {"estimator": "utf8-bytes"},
            ),
            Alternative(
                "P2-INT-01/utf16-units",
                4,
                "characters are counted as UTF-16 code units: max(words, ceil(units / 4))",
                {"estimator": "utf16-units"},
            ),
            Alternative(
                "P2-INT-01/ceil-utf16-units",
                5,
                "tokens are ceil(UTF-16 code units / 4) alone (JavaScript's "
                "Math.ceil(s.length / 4))",
                {"estimator": "ceil-utf16-units"},
            ),
            Alternative(
                "P2-INT-02/javascript",
                2,
                "whitespace is ECMAScript's \\s: White_Space plus U+FEFF, without U+0085",
                {"white_space": "javascript"},
            ),
            Alternative(
                "P2-INT-03/concatenated",
                0,
                "the draft's estimate (trimming and estimated_used) is the estimate of its "
                "blocks' texts concatenated with no separator; each block keeps its own tokens",
                {"draft_estimate": "concatenated"},
            ),
            Alternative(
                "P2-INT-03/block-overhead",
                1,
                "the draft's estimate (trimming and estimated_used) counts K tokens more per "
                "block it counts (K >= 1); each block keeps its own tokens",
                parameter=Parameter("tokens", "block_overhead", 1),
            ),
            Alternative(
                "P2-INT-03/entity-title",
                2,
                "an entity block's text is its title alone",
                {"entity_text": "title"},
            ),
            Alternative(
                "P2-INT-04/outside-budget",
                1,
                "the policy block is not counted against the budget (nor in estimated_used)",
                {"policy_budget": "outside"},
            ),
            Alternative(
                "P2-INT-05/newest-first",
                2,
                "hot turns are listed newest first",
                {"hot_order": "newest-first"},
            ),
            Alternative(
                "P2-INT-06/several",
                0,
                "the summary layer holds the n latest summaries (n >= 2), listed oldest first "
                "and trimmed oldest first, one per iteration; sources.summaries counts them",
                parameter=Parameter("n", "warm_summaries", 2),
            ),
            Alternative(
                "P2-INT-06/smallest-id",
                1,
                "summaries with the same created_at: the smallest id is the latest",
                {"summary": "smallest-id"},
            ),
            Alternative(
                "P2-INT-06/skip-empty",
                2,
                "a summary with an empty summary_text is not a candidate",
                {"summary": "skip-empty"},
            ),
            Alternative(
                "P2-INT-07/every-user",
                1,
                "hot turns are the chat's latest inbox items, of every user",
                {"hot_turns": "every-user"},
            ),
            Alternative(
                "P2-INT-07/smallest-id",
                2,
                "inbox items with the same created_at: the smallest id is the later",
                {"hot_turns": "smallest-id"},
            ),
            Alternative(
                "P2-INT-09/recency-first",
                0,
                "entities are ranked by updated_at first, distance breaking ties",
                {"ranking": "recency-first"},
            ),
            Alternative(
                "P2-INT-09/limit-after-trim",
                2,
                "the entity limit applies after trimming, not before",
                {"ranking": "limit-after-trim"},
            ),
            Alternative(
                "P2-INT-10/whole-layer",
                0,
                "each trimming iteration removes a whole layer",
                {"trim_step": "whole-layer"},
            ),
            Alternative(
                "P2-INT-11/keep-summary",
                0,
                "the summary is never trimmed (the pseudocode read literally)",
                {"summary_trim": "keep"},
            ),
            Alternative(
                "P2-INT-11/summary-first",
                2,
                "the summary is trimmed first, before any hot turn",
                {"summary_trim": "first"},
            ),
            Alternative(
                "P2-INT-12/refuse-4xx",
                0,
                "policy + query over the budget answers 422 budget_too_small (param max_tokens)",
                {"small_budget": "refuse"},
            ),
            Alternative(
                "P2-INT-12/raise-applied",
                2,
                "policy + query over the budget raises applied to their tokens",
                {"small_budget": "raise-applied"},
            ),
            Alternative(
                "P2-INT-13/requested-cap",
                0,
                "an absent max_tokens is requested = MEMORY_CONTEXT_MAX_TOKENS",
                {"absent_max_tokens": "cap"},
            ),
            Alternative(
                "P2-INT-13/reject-absent",
                1,
                "an absent max_tokens is 400 missing_parameter",
                {"absent_max_tokens": "required"},
            ),
            Alternative(
                "P2-INT-14/framework-int",
                0,
                "max_tokens is parsed by Python's int() (signs, spaces, underscores, Unicode "
                "digits), then 1 to 2^53 - 1",
                {"max_tokens": "framework-int"},
            ),
            Alternative(
                "P2-INT-14/clamp-to-1",
                1,
                "an integer max_tokens below 1 (0, -5) is taken as 1",
                {"max_tokens": "clamp-to-1"},
            ),
            Alternative(
                "P2-INT-14/empty-absent",
                2,
                "an empty max_tokens is absent",
                {"max_tokens": "empty-absent"},
            ),
            Alternative(
                "P2-INT-15/status-422",
                0,
                "bad parameters answer 422 instead of 400",
                {"faults": "422-first"},
            ),
            Alternative(
                "P2-INT-15/last-value",
                2,
                "a repeated parameter takes its last value",
                {"faults": "400-last-value"},
            ),
            Alternative(
                "P2-INT-15/first-value",
                3,
                "a repeated parameter takes its first value",
                {"faults": "400-first-value"},
            ),
            Alternative(
                "P2-INT-17/unknown-chat-404",
                1,
                "a chat with no inbox item, summary or event answers 404 not_found (param chat_id)",
                {"unknown_chat": "404"},
            ),
            Alternative(
                "P2-INT-21/inclusive",
                0,
                "an inbox item created exactly at the cutoff is old too (created_at <= cutoff)",
                {"cutoff": "inclusive"},
            ),
            Alternative(
                "P2-INT-21/midnight",
                1,
                "whole calendar days: the cutoff is midnight UTC of the day now - D days falls on",
                {"cutoff": "midnight"},
            ),
            Alternative(
                "P2-INT-23/only-when-removed",
                0,
                "compaction logs its event only when it removed an inbox item",
                {"compaction_event": "only-when-removed"},
            ),
            Alternative(
                "P2-INT-24/every-event",
                0,
                "a summary summarizes every event of the user in the chat, each time",
                {"summary_sources": "every-event"},
            ),
            Alternative(
                "P2-INT-24/since-latest-summary",
                1,
                "a summary summarizes the events created after the latest summary's created_at",
                {"summary_sources": "since-latest-summary"},
            ),
            Alternative(
                "P2-INT-18/before-trimming",
                0,
                "sources counts the layers before trimming",
                {"sources": "drafted"},
            ),
        ),
        key=lambda alternative: (alternative.entry, alternative.index),
    )
}
