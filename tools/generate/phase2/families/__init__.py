"""Generated Phase 2 families: each module exports FAMILY, DESCRIPTION and ``cases()``.

A family writes inputs only (fixture and call, with the clauses and readings the case tests);
the builder takes the expectation from the reference, confirmed by the independent oracle.
"""

from __future__ import annotations

from tools.generate.phase2.families import (
    budget,
    compact,
    entities,
    estimator,
    hot_turns,
    params,
    summaries,
    summarize,
)

FAMILIES = (estimator, hot_turns, summaries, entities, budget, params, compact, summarize)
