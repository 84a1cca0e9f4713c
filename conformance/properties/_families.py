"""The property families: what each one states, the clauses it checks, its inputs, its check.

One family per ``property:<name>`` of the clause register (``verified_by``), plus
``differential``. :data:`FAMILIES` is the single place that says which family checks which
clauses (a test keeps it in step with ``specs/clauses.toml``) and which of its checks rest only
on pinned interpretations (``pinned_checks``); the checks live in :mod:`._checks`,
:mod:`._behaviour` and :mod:`._invariance`. A family's strategy takes ``pinned`` (the
interpretations whose pinned-only inputs it may draw, :data:`conformance.strategies.PINNED_INPUTS`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from hypothesis import strategies as st

from conformance.properties._behaviour import (
    DETERMINISM_CLAUSES,
    DIFFERENTIAL_PINNED,
    check_determinism,
    check_differential,
    check_receipt,
)
from conformance.properties._checks import (
    ORDER_CLAUSES,
    check_accounting,
    check_budget,
    check_hashes,
    check_order,
    check_scores,
)
from conformance.properties._invariance import INVARIANCES, check_invariance, invariance_cases
from conformance.properties._probe import Probe
from conformance.properties._shape import Case
from conformance.strategies import error_scenarios, scenarios

__all__ = ["FAMILIES", "INVARIANCES", "Case", "Family", "family_names"]


# ------------------------------------------------------------------------------ the table


#: Strategy of a family: the interpretations whose pinned-only inputs it may draw -> cases.
CaseStrategy = Callable[[frozenset[str] | None], st.SearchStrategy[Case]]


@dataclass(frozen=True)
class Family:
    """One property family: a statement, its clauses, its inputs and its check.

    ``pinned_checks`` maps each check that rests only on a pinned reading to that
    interpretation; every other check rests on the spec text (for inputs every reading agrees
    on: the strategy keeps pinned-only inputs apart).
    """

    name: str
    title: str
    statement: str
    clauses: tuple[str, ...]
    interpretations: tuple[str, ...]
    strategy: CaseStrategy
    check: Callable[[Probe, Case], None]
    examples: int
    pinned_checks: Mapping[str, str] = field(default_factory=dict)

    @property
    def item_id(self) -> str:
        """The report / pytest ID: ``property:<name>``."""
        return f"property:{self.name}"


def _ids(text: str) -> tuple[str, ...]:
    """Clause IDs written as one space-separated string."""
    return tuple(text.split())


def _valid_cases(pinned: frozenset[str] | None = None) -> st.SearchStrategy[Case]:
    return scenarios(pinned=pinned).map(Case)


def _valid_or_error_cases(pinned: frozenset[str] | None = None) -> st.SearchStrategy[Case]:
    valid = scenarios(pinned=pinned).map(Case)
    return st.one_of(valid, valid, valid, error_scenarios(pinned=pinned).map(Case))


def _score_cases(pinned: frozenset[str] | None = None) -> st.SearchStrategy[Case]:
    return st.one_of(
        scenarios(pinned=pinned).map(Case), scenarios(recency=True, pinned=pinned).map(Case)
    )


#: Every family, in report order. ``examples`` is the certification example count.
FAMILIES: Mapping[str, Family] = {
    family.name: family
    for family in (
        Family(
            "determinism",
            "Determinism",
            "The same input run twice (in another root directory, and in a freshly started "
            "process) gives byte-identical canonical results: packages, receipts and, for "
            "invalid requests, the same error code and message.",
            DETERMINISM_CLAUSES,
            ("INT-01", "INT-37", "INT-45"),
            _valid_or_error_cases,
            check_determinism,
            300,
        ),
        Family(
            "budget",
            "Budget",
            "used_excerpt_tokens <= max_excerpt_tokens after every selected item; "
            "len(selected) <= max_items; the budget members echo the request (per-item cap = "
            "min(per_item, max)); every excerpt is within its per-item cap and is the longest "
            "prefix of the White_Space-stripped text that fits, cut at a code-point boundary.",
            _ids(
                "S6-INPUT-06 S6-TOK-04 S6-TOK-05 S6-TRUNC-11 S6-INPUT-04 S6-INPUT-05 "
                "S6-TRUNC-01 S6-TRUNC-02 S6-TRUNC-04 S6-TRUNC-05 S6-TRUNC-06 "
                "S6-TRUNC-07"
            ),
            ("INT-05", "INT-30", "INT-31", "INT-32"),
            _valid_cases,
            check_budget,
            300,
        ),
        Family(
            "accounting",
            "Accounting",
            "excerpt_tokens = ceil(bytes/4); used = sum; remaining = max(0, max - used); every "
            "record line appears exactly once in selected or dropped, with a reason from the "
            "closed set; invalid lines are exactly the invalid_record_schema drops, "
            "deny-listed lines exactly the trust_denied ones; dropped is in read order.",
            _ids(
                "S6-TOK-01 S6-TOK-02 S6-TOK-03 S6-TRUNC-08 S6-REC-10 S6-REC-11 "
                "S6-TRUST-03 S6-TRUST-07 S6-TRUST-08 S6-TRUNC-12 S6-OUT-20"
            ),
            ("INT-14", "INT-19", "INT-27", "INT-28", "INT-39"),
            _valid_cases,
            check_accounting,
            300,
            {"read-order": "INT-28"},
        ),
        Family(
            "order",
            "Order",
            "selected is sorted by score desc, ts_utc desc (missing last), store_path, "
            "memory_id, record_hash asc; and it is exactly the rank-order prefix the stop rule "
            "selects (INT-26: stop at the first candidate that does not fit; INT-27: "
            "max_items first), the rest dropped with the stop reason.",
            (*ORDER_CLAUSES, "S6-TRUNC-09", "S6-TRUNC-12", "S6-TOK-04", "S6-TOK-05"),
            ("INT-26", "INT-27", "INT-33"),
            _valid_cases,
            check_order,
            300,
        ),
        Family(
            "scores",
            "Scores",
            "Every selected score equals (base + tag_bonus) + recency_bonus recomputed from "
            "the formula, the recency weight as the correctly rounded 2**-(age/half-life).",
            _ids(
                "S6-SCORE-01 S6-SCORE-07 S6-SCORE-08 S6-SCORE-11 S6-SCORE-16 "
                "S6-SCORE-17 S6-SCORE-18 S6-TRUST-06 S6-SCORE-13 S6-SCORE-14"
            ),
            ("INT-04", "INT-08", "INT-09", "INT-10", "INT-35", "INT-36"),
            _score_cases,
            check_scores,
            300,
        ),
        Family(
            "hashes",
            "Hashes",
            "query_hash, every record_hash (valid lines: the canonical normalized record; "
            "invalid lines: the raw bytes) and package_hash equal their recomputation with "
            "RFC 8785 and SHA-256.",
            _ids(
                "S6-OUT-24 S6-OUT-25 S6-READ-14 S6-HASH-01 S6-HASH-02 S6-HASH-03 "
                "S6-HASH-04 S6-HASH-05 S6-HASH-06 S6-HASH-07 S6-HASH-08 S6-HASH-09 "
                "S6-HASH-10 S6-HASH-11"
            ),
            ("INT-01", "INT-02", "INT-03", "INT-11", "INT-19"),
            _valid_cases,
            check_hashes,
            300,
        ),
        Family(
            "invariance",
            "Invariance",
            "Transformations the spec says cannot matter do not change the output: "
            + " ".join(f"({i + 1}) {inv.statement}" for i, inv in enumerate(INVARIANCES.values())),
            _ids(
                "S6-INPUT-09 S6-DET-01 S6-READ-04 S6-READ-05 S6-INPUT-04 S6-INPUT-05 "
                "S6-INPUT-07 S6-INPUT-08 S6-INPUT-14 S6-INPUT-15 S6-TRUST-05 "
                "S6-TRUST-07 S6-ACC-06 S6-REC-01 S6-READ-06 S6-REC-10 S6-REC-11 "
                "S6-TRUNC-09 S6-TOK-04 S6-TOK-05"
            ),
            ("INT-12", "INT-14", "INT-26", "INT-28", "INT-36", "INT-38", "INT-43"),
            invariance_cases,
            check_invariance,
            400,
            {"<any>: dropped keeps its order": "INT-28"},
        ),
        Family(
            "receipt",
            "Receipt",
            "A success receipt is exactly {kind: memory.read, data: {query_hash, store_paths, "
            "selected_count, package_hash}} with values matching the package, and carries no "
            "planted canary (from record text, tags or refs), excerpt or record text; a failed "
            "call returns no receipt.",
            _ids(
                "S6-SEC-02 S6-RCPT-01 S6-RCPT-07 S6-RCPT-08 S6-RCPT-09 S6-RCPT-10 "
                "S6-RCPT-11 S6-SEC-06 S6-ACC-02 S6-RCPT-02 S6-RCPT-03 S6-RCPT-04 "
                "S6-RCPT-05 S6-RCPT-06 S6-ACC-03"
            ),
            ("INT-43", "INT-44"),
            _valid_or_error_cases,
            check_receipt,
            300,
        ),
        Family(
            "differential",
            "Differential",
            "The result equals the reference's result for the same input as a JSON value "
            "(numbers as doubles; errors compared on code and path).",
            ("S6-VER-02", "S6-OUT-01"),
            ("INT-48",),
            _valid_or_error_cases,
            check_differential,
            300,
            dict(DIFFERENTIAL_PINNED),
        ),
    )
}


def family_names() -> tuple[str, ...]:
    """Every family name, in report order."""
    return tuple(FAMILIES)
