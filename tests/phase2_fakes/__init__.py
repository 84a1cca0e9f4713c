"""Phase 2 engines that differ from the reference on purpose (Bowtie's miniatures).

Each module exports ``run_vector_call(fixture, call)`` like the reference (the in-process entry
of specs/protocol.md, P2.3) and is the reference engine with one thing changed by code of its
own, the way an outside team would write it:

- :data:`FAKES`: one fault each, and ``BREAKS``, the clause it violates, which a property
  catches: ``certify --profile phase2-context`` says non-compliant on that clause
  (tests/reference/phase2/test_fakes.py proves each fails vectors naming it);
- :data:`BUGS`: a plain bug no property sees and no listed reading explains: non-compliant on
  evidence alone, although every Phase 2 vector is ``pinned``;
- :data:`READINGS`: one executable alternative of specs/phase2/interpretations.toml each
  (``FOLLOWS``, its ID): compliant under exactly that alternative;
- :data:`CONTROLS`: ``observes_once`` writes the one allowed observability event and must pass.

``declaring.py FAKE ID,ID`` serves one of them (or the reference) over the subprocess protocol
with ``"readings": [ID, ...]`` in its start reply (a declaration by handshake).
"""

from __future__ import annotations

FAKES = (
    "trims_summary_first",
    "counts_tokens_differently",
    "exceeds_budget",
    "compaction_deletes_summaries",
    "endpoint_writes_rows",
)
BUGS = ("hot_turns_one_short",)
#: fake -> the one alternative it follows.
READINGS = {
    "own_policy_text": "P2-INT-04/implementation-text",
    "entities_one_hop": "P2-INT-08/one-hop",
    "user_from_latest_turn": "P2-INT-16/latest-inbox-owner",
    "trims_query": "P2-INT-17/trim",
    "splits_like_python": "P2-INT-02/python",
    "keeps_warm_summaries": "P2-INT-06/several(n=3)",
    "takes_first_value": "P2-INT-15/first-value",
}
CONTROLS = ("observes_once",)
