"""The invariants of the ``[[property]]`` table of specs/phase2/clauses.toml, as checks.

Each holds for every outcome, whatever the fixture: no expected value is needed. The harness
checks them on every vector's outcome and on generated fixtures
(:mod:`conformance.phase2._properties`); the corpus builder checks every outcome it records
with them.

- :func:`property_failures` -> the single-call invariants one outcome breaks: ``budget``,
  ``policy-query-present``, ``layer-order``, ``sources-match-context``, ``no-writes`` (context
  calls) and ``retention`` (compact calls);
- :func:`trim_order_failure` -> ``trim-order``, on two outcomes of one fixture;
- ``determinism`` compares runs (:func:`determinism_view`: what must be identical).

An outcome comes from an implementation: a body of the wrong shape fails the properties that
cannot read it (with the reason), never raises.

What each property rests on (:data:`PROPERTY_READINGS`): ``policy-query-present`` on the policy
text (P2-INT-04, a parameter read from the implementation's output) and the query block's text
(P2-INT-17), ``sources-match-context`` on the estimator's whitespace (P2-INT-02),
``layer-order`` on how many summaries the layer holds (P2-INT-06/several(n=N)); the others on
no reading that has an executable alternative. Each check takes those values from
:class:`~conformance.phase2._readings.CheckReadings` (the implementation's reading profile; the
default is the pinned readings), never from a constant.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any, Final

from conformance.phase2._compare import (
    first_difference,
    no_write_differences,
    normalize_state,
    state_problem,
)
from conformance.phase2._readings import LAYER_RANK, CheckReadings

__all__ = [
    "PROPERTY_READINGS",
    "RETAINED_TABLES",
    "determinism_view",
    "property_failures",
    "trim_order_failure",
]

Json = Any
#: P2-CMP-03 "Retain structured entities and summaries.": what compaction never touches.
RETAINED_TABLES: Final = ("memory_summaries", "entities", "entity_links")
#: Property -> the register entries with executable alternatives its check reads (through
#: :class:`CheckReadings`); a property not listed needs no such reading. Checked, not kept by
#: hand: tests/reference/phase2/test_readings.py runs the reference under every executable
#: alternative over the corpus, and only these properties break under the pinned checks
#: (none under the alternative's profile).
PROPERTY_READINGS: Final = {
    "policy-query-present": ("P2-INT-01", "P2-INT-02", "P2-INT-04", "P2-INT-15", "P2-INT-17"),
    "sources-match-context": ("P2-INT-01", "P2-INT-02", "P2-INT-03", "P2-INT-04", "P2-INT-18"),
    "trim-order": ("P2-INT-05",),
    "layer-order": ("P2-INT-06",),
}
_PINNED: Final = CheckReadings()


def _blocks(observed: Json) -> list[Json] | None:
    """The context blocks of a 200 outcome (``None``: not a 200 outcome)."""
    if not isinstance(observed, dict) or observed.get("status") != 200:
        return None
    body = observed.get("body")
    context = body.get("context") if isinstance(body, dict) else None
    return list(context) if isinstance(context, list) else []


def _member(value: Json, name: str) -> Json:
    return value.get(name) if isinstance(value, dict) else None


def _int(value: Json) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _context_failures(
    call: Mapping[str, Json], observed: Json, readings: CheckReadings
) -> list[tuple[str, str]]:
    blocks = _blocks(observed)
    if blocks is None:
        return []
    failures: list[tuple[str, str]] = []
    body = _member(observed, "body")
    query = [readings.query_text(value) for name, value in call["params"] if name == "query"]
    if readings.last_value:  # P2-INT-15/last-value
        query = query[::-1]
    layers = [_member(block, "layer") for block in blocks]
    # policy-query-present (P2-ASM-02, P2-ASM-06, P2-BUD-01); the policy text is P2-INT-04's
    policy = {
        "layer": "policy",
        "id": None,
        "text": readings.policy,
        "tokens": readings.estimate(readings.policy),
    }
    if not blocks or blocks[0] != policy:
        failures.append(("policy-query-present", "the first block is not the fixed policy"))
    last = blocks[-1] if blocks else None
    if (
        _member(last, "layer") != "query"
        or _member(last, "id") is not None
        or [_member(last, "text")] != query[:1]
    ):
        failures.append(("policy-query-present", "the last block is not the query as received"))
    if layers.count("policy") != 1 or layers.count("query") != 1:
        failures.append(("policy-query-present", f"policy/query blocks: {layers}"))
    # layer-order (P2-ASM-01, P2-ASM-10)
    ranks = [LAYER_RANK.get(layer, -1) if isinstance(layer, str) else -1 for layer in layers]
    if ranks != sorted(ranks) or layers.count("summary") > readings.summaries or -1 in ranks:
        failures.append(("layer-order", f"layers out of order: {layers}"))
    # sources-match-context (P2-API-08, P2-TOK-01)
    sources = _member(body, "sources")
    counted = {
        "hot_turns": layers.count("hot_turn"),
        "summaries": layers.count("summary"),
        "entities": layers.count("entity"),
    }
    if sources != counted and not readings.sources_drafted:  # P2-INT-18
        failures.append(("sources-match-context", f"sources {sources} but context holds {counted}"))
    for index, block in enumerate(blocks):
        text = _member(block, "text")
        if not isinstance(text, str) or _int(_member(block, "tokens")) != readings.estimate(text):
            failures.append(("sources-match-context", f"block {index}: tokens != estimate(text)"))
            break
    used = sum(_int(_member(block, "tokens")) or 0 for block in blocks)
    if not readings.policy_counted and blocks:  # P2-INT-04/outside-budget
        used -= _int(_member(blocks[0], "tokens")) or 0
    texts = [_member(block, "text") for block in blocks]
    if readings.joined and all(isinstance(text, str) for text in texts):  # P2-INT-03
        used = readings.estimate("".join(texts))
    used += readings.overhead * (len(blocks) - (0 if readings.policy_counted else 1))
    budget = _member(body, "budget")
    estimated, applied = _int(_member(budget, "estimated_used")), _int(_member(budget, "applied"))
    if estimated != used:
        failures.append(("sources-match-context", "estimated_used != the sum of block tokens"))
    # budget (P2-BUD-04, P2-BUD-10; the one exception is P2-INT-12's)
    if estimated is None or applied is None:
        failures.append(("budget", f"budget has no integer applied and estimated_used: {budget}"))
    elif estimated > applied and layers != ["policy", "query"]:
        failures.append(("budget", f"estimated_used {estimated} > applied {applied}"))
    return failures


def property_failures(
    fixture: Mapping[str, Json],
    call: Mapping[str, Json],
    observed: Json,
    *,
    before: Mapping[str, Json] | None = None,
    readings: CheckReadings = _PINNED,
) -> list[tuple[str, str]]:
    """(property name, what broke) for every single-call invariant ``observed`` breaks.

    ``before``: the state dumped right before the call, when the adapter can dump it (a live
    service); otherwise the fixture, loaded into a fresh database, is the state before.
    ``readings``: the implementation's reading profile, as the checks read it.
    """
    failures: list[tuple[str, str]] = []
    state = observed.get("state") if isinstance(observed, dict) else None
    if call["op"] == "context":
        # no-writes (P2-API-01, P2-API-10)
        broken = no_write_differences(before if before is not None else fixture, state)
        if broken:
            failures.append(("no-writes", str(broken[0])))
        failures += _context_failures(call, observed, readings)
    elif call["op"] == "compact":
        # retention (P2-CMP-03), after a run that succeeded or refused alike
        problem = state_problem(state)
        if problem is not None or not isinstance(state, dict):
            failures.append(("retention", f"the state after compaction is {problem}"))
        else:
            kept, after = normalize_state(fixture), normalize_state(state)
            for table in RETAINED_TABLES:
                found = first_difference(kept[table], after[table], f"/state/{table}")
                if found is not None:
                    where, expected, actual = found
                    failures.append(
                        (
                            "retention",
                            f"{where}: compaction changed {table} ({expected} -> {actual})",
                        )
                    )
                    break
    return failures


def _ids(blocks: Sequence[Json], layer: str) -> list[Json]:
    return [_member(block, "id") for block in blocks if _member(block, "layer") == layer]


def trim_order_failure(
    smaller: Json, larger: Json, *, readings: CheckReadings = _PINNED
) -> str | None:
    """The trim-order property for two outcomes of one fixture and one call but max_tokens,
    ``larger`` untrimmed (P2-BUD-02, P2-BUD-03, P2-BUD-07, P2-BUD-08); hot turns listed as
    ``readings`` says (P2-INT-05)."""
    a, b = _blocks(smaller), _blocks(larger)
    if a is None or b is None:
        return None
    hot_a, hot_b = _ids(a, "hot_turn"), _ids(b, "hot_turn")
    if readings.hot_newest_first:  # P2-INT-05/newest-first: compare oldest first
        hot_a, hot_b = hot_a[::-1], hot_b[::-1]
    ent_a, ent_b = _ids(a, "entity"), _ids(b, "entity")
    sum_a, sum_b = _ids(a, "summary"), _ids(b, "summary")
    if hot_a != hot_b[len(hot_b) - len(hot_a) :]:
        return f"hot turns {hot_a} are not the newest of {hot_b}"
    if ent_a != ent_b[: len(ent_a)]:
        return f"entities {ent_a} are not the most relevant of {ent_b}"
    if len(ent_a) < len(ent_b) and hot_a:
        return "an entity was trimmed while hot turns remain"
    if len(sum_a) < len(sum_b) and (hot_a or ent_a):
        return "the summary was trimmed while hot turns or entities remain"
    return None


def determinism_view(call: Mapping[str, Json], observed: Json) -> Json:
    """What two runs of one call must agree on exactly (P2-DET-01): the whole outcome, except
    for a summarize run the new summary's summary_text and facts_json, which the summarizer
    (the one place a model may run, P2-DET-02) chooses (P2-INT-25)."""
    if call["op"] != "summarize" or not isinstance(observed, dict):
        return observed
    result = observed.get("result")
    created = result.get("summary_id") if isinstance(result, dict) else None
    state = observed.get("state")
    rows = state.get("memory_summaries") if isinstance(state, dict) else None
    if created is None or not isinstance(rows, list):
        return observed
    view = copy.deepcopy(observed)
    for row in view["state"]["memory_summaries"]:
        if isinstance(row, dict) and row.get("id") == created:
            row.pop("summary_text", None)
            row.pop("facts_json", None)
    return view
