"""Readings: the Phase 2 register's pinned answers and their executable alternatives, as values.

Every entry of ``specs/phase2/interpretations.toml`` pins one reading and lists the alternatives
an honest implementer could take. An alternative listed in :data:`ALTERNATIVES` is
*executable*: it has a stable ID (``P2-INT-08/one-hop``: the entry, a slash, a name; the
register's ``executable`` key names the same IDs), and :class:`Readings` holds, for each entry
that has one, the value the stage it belongs to consults. The defaults are the pinned readings,
so ``run_vector_call(fixture, call)`` and ``run_vector_call(fixture, call, readings=Readings())``
are the same bytes.

==================================  ============================  ================================
alternative                         stage                         value
==================================  ============================  ================================
``P2-INT-02/ascii``                 ``_tokens`` (estimator,       ``white_space = "ascii"``
``P2-INT-02/python``                blank query, trimming)        ``white_space = "python"``
``P2-INT-04/implementation-text``   ``_assemble.build_draft``     ``policy = <the engine's text>``
``P2-INT-08/all-by-recency``        ``_entities``                 ``related = "all-by-recency"``
``P2-INT-08/one-hop``                                             ``related = "one-hop"``
``P2-INT-08/unicode-terms``                                       ``related = "unicode-terms"``
``P2-INT-08/directed``                                            ``related = "directed"``
``P2-INT-16/latest-inbox-owner``    ``_endpoint.default_user``    ``default_user = "latest-..."``
``P2-INT-17/trim``                  ``_endpoint.parse_params``    ``query = "trim"``
``P2-INT-17/empty-only``                                          ``query = "empty-only"``
==================================  ============================  ================================

``P2-INT-04/implementation-text`` is a *parameter*, not a choice among fixed values: the spec
fixes that there is one policy snippet, not its words ("System memory policy snippet
(fixed)."), so the harness reads the implementation's text from what it returns and the
reference runs with that text (``serve-protocol --policy-text TEXT``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Final

from reference._alternatives import Alternative, UnknownReading, applied, followed

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

    #: P2-INT-02: the whitespace table, a key of ``_tokens.WHITE_SPACE_TABLES``.
    white_space: str = "unicode"
    #: P2-INT-04: the policy block's text.
    policy: str = POLICY_SNIPPET
    #: P2-INT-08: which entities are related to the query (``_entities.RELATEDNESS``).
    related: str = "query-walk"
    #: P2-INT-16: whose memory a call without user_id assembles (``_endpoint.DEFAULT_USER``).
    default_user: str = "chat-id"
    #: P2-INT-17: how the query value is taken (``_endpoint.QUERY_READINGS``).
    query: str = "exact"

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
    for alternative in (
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
    )
}
