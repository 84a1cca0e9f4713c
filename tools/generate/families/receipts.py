"""Receipts (LEDGER RECEIPT CONSTRAINTS, INT-43): store_paths normalized, deduplicated and sorted
whatever the request's order and spelling; selected_count for 0, 1 and many selections; the
query_hash and package_hash equal to the package's (the build checks that on every vector).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence

from tools.generate.families._case import (
    Case,
    Json,
    Relation,
    line,
    make_request,
    snapshot,
    store,
)

__all__ = ["DESCRIPTION", "cases"]

DESCRIPTION = (
    "Generated: receipt store_paths (normalized, deduplicated, sorted), selected_count and hashes."
)

_NAMES = ("stores/a.jsonl", "stores/b.jsonl", "stores/c.jsonl")
_FILES: dict[str, Json] = {
    name: store(line(f"{name[7]}1", f"alpha {name[7]}"), line(f"{name[7]}2", "beta"))
    for name in _NAMES
}
_RECEIPT_CLAUSES = (
    "S6-RCPT-01",
    "S6-RCPT-02",
    "S6-RCPT-03",
    "S6-RCPT-04",
    "S6-RCPT-05",
    "S6-RCPT-06",
)


def _receipt_is(paths: Sequence[str], count: int | None) -> Callable[[Json], str | None]:
    def check(result: Json) -> str | None:
        data = result["receipt"]["data"]
        if data["store_paths"] != list(paths):
            return f"receipt store_paths {data['store_paths']!r}, intended {list(paths)!r}"
        if count is not None and data["selected_count"] != count:
            return f"selected_count {data['selected_count']}, intended {count}"
        return None

    return check


#: the count cases whose stores hold a score-0 candidate the budget lets in (INT-29)
_WITH_SCORE_0 = frozenset({"budget-2", "max-items-1"})


def cases() -> Iterator[Case]:
    """Permutations and spellings of three stores, then selected_count cases."""
    base = "rcpt-perm-abc"
    for perm in itertools.permutations(_NAMES):
        tag = "".join(p[7] for p in perm)
        relations: tuple[Relation, ...] = () if tag == "abc" else ((base, "same"),)
        yield Case(
            id=f"rcpt-perm-{tag}",
            description=f"Receipt store_paths sorted whatever the request order ({tag}).",
            comment=f"store_paths {list(perm)!r}; receipt and package identical for every order.",
            clauses=(
                *_RECEIPT_CLAUSES,
                "S6-READ-05",
                "S6-ACC-01",
                "S6-OUT-22",
                "S6-VER-01",
                "S6-VER-02",
            ),
            interpretations=("INT-43", "INT-12", "INT-44"),
            request=make_request("alpha", list(perm)),
            files=_FILES,
            check=_receipt_is(_NAMES, 6),
            relations=relations,
        )
    spellings: tuple[tuple[str, list[str]], ...] = (
        (
            "dups",
            [
                "stores/c.jsonl",
                "stores/a.jsonl",
                "stores/b.jsonl",
                "stores/a.jsonl",
                "stores/c.jsonl",
            ],
        ),
        (
            "spelled",
            ["./stores/c.jsonl", "stores//a.jsonl", "stores/x/../b.jsonl", "stores/b.jsonl/"],
        ),
        ("mixed", ["stores/b.jsonl", "./stores/a.jsonl", "stores/c.jsonl/.", "stores/./a.jsonl"]),
    )
    for slug, paths in spellings:
        yield Case(
            id=f"rcpt-paths-{slug}",
            description=f"Receipt store_paths normalized and deduplicated ({slug}).",
            comment=f"store_paths {paths!r} -> {list(_NAMES)!r}.",
            clauses=(*_RECEIPT_CLAUSES, "S6-READ-04"),
            interpretations=("INT-43", "INT-12"),
            request=make_request("alpha", paths),
            files=_FILES,
            check=_receipt_is(_NAMES, 6),
            relations=((base, "same"),),
        )
    counts: tuple[tuple[str, list[str], dict[str, Json], dict[str, Json], int], ...] = (
        ("empty-store", ["stores/e.jsonl"], {"stores/e.jsonl": {"text": ""}}, {}, 0),
        (
            "all-invalid",
            ["stores/i.jsonl"],
            {"stores/i.jsonl": store("{}", "[]", '{"memory_id":"x"}')},
            {},
            0,
        ),
        (
            "all-denied",
            ["stores/a.jsonl"],
            {
                "stores/a.jsonl": _FILES["stores/a.jsonl"],
                "trust.json": snapshot(
                    {"memory_id": "a1", "classification": "malicious"},
                    {"memory_id": "a2", "classification": "malicious"},
                ),
            },
            {"trust_filter": {"trust_snapshot_path": "trust.json"}},
            0,
        ),
        (
            "max-items-1",
            list(_NAMES),
            _FILES,
            {"budget": {"max_excerpt_tokens": 100, "max_items": 1}},
            1,
        ),
        (
            "max-items-4",
            list(_NAMES),
            _FILES,
            {"budget": {"max_excerpt_tokens": 100, "max_items": 4}},
            4,
        ),
        ("budget-2", list(_NAMES), _FILES, {"budget": {"max_excerpt_tokens": 4}}, 2),
        ("all-six", list(_NAMES), _FILES, {}, 6),
        (
            "twelve",
            ["stores/m.jsonl"],
            {"stores/m.jsonl": store(*[line(f"m{i:02d}", f"alpha {i}") for i in range(12)])},
            {},
            12,
        ),
    )
    for slug, paths, files, changes, count in counts:
        request = make_request("alpha", paths)
        request.update(changes)
        yield Case(
            id=f"rcpt-count-{slug}",
            description=f"Receipt selected_count is {count} ({slug}).",
            comment=f"store_paths {paths!r}; changes {changes!r}; intended selected_count {count}.",
            clauses=("S6-RCPT-05", "S6-RCPT-01", "S6-RCPT-02", "S6-RCPT-03", "S6-RCPT-06"),
            # INT-29: score-0 candidates are selectable where the budget allows
            # INT-38: the all-denied case reads a phase6-trust/1 snapshot
            interpretations=(
                "INT-43",
                *(("INT-29",) if slug in _WITH_SCORE_0 else ()),
                *(("INT-38", "INT-39") if slug == "all-denied" else ()),
            ),
            request=request,
            files=files,
            check=_receipt_is(sorted(set(paths)), count),
        )
