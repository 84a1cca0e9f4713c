"""Shared pieces of the property checks: the input case, the failure helper and a checked
view of a result envelope (S6-OUT-01..22, INT-44), plus small JSON helpers.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

from conformance.properties._model import Model, ModelLine
from conformance.properties._probe import PropertyFailure, pinned_enforced
from conformance.strategies import Scenario

__all__ = [
    "Case",
    "View",
    "as_view",
    "entries",
    "fail",
    "is_hex64",
    "is_int",
    "is_number",
    "is_subsequence",
    "line_for",
    "pinned_fail",
    "show",
]

_HEX = frozenset("0123456789abcdef")
_SELECTED_KEYS = frozenset(
    ("memory_id", "record_hash", "store_path", "score", "excerpt", "excerpt_tokens")
)
_DROPPED_KEYS = frozenset(("memory_id", "record_hash", "store_path", "reason"))
_BUDGET_KEYS = (
    "max_excerpt_tokens",
    "used_excerpt_tokens",
    "remaining_excerpt_tokens",
    "per_item_max_excerpt_tokens",
    "max_items",
)


@dataclass(frozen=True)
class Case:
    """One generated input: a scenario, and for an invariance its transformed twin."""

    scenario: Scenario
    variant: Scenario | None = None
    transform: str = ""

    @property
    def scenarios(self) -> tuple[Scenario, ...]:
        """Every input this case runs."""
        return (self.scenario,) if self.variant is None else (self.scenario, self.variant)

    @property
    def pinned(self) -> tuple[str, ...]:
        """The interpretations whose pinned-only inputs the case holds (sorted)."""
        return tuple(sorted({i for scenario in self.scenarios for i in scenario.pinned}))


# ------------------------------------------------------------------------------ helpers


def fail(
    check: str, clauses: Sequence[str], message: str, interpretations: Sequence[str] = ()
) -> NoReturn:
    raise PropertyFailure(check, clauses, message, interpretations=interpretations)


def pinned_fail(check: str, clauses: Sequence[str], message: str, pinned: Sequence[str]) -> None:
    """A failure of a check that rests only on the pinned readings ``pinned``: raised when the
    run enforces them, else ignored (the run asks about what every reading agrees on)."""
    if pinned_enforced(pinned):
        raise PropertyFailure(check, clauses, message, pinned=pinned)


def show(value: Any, limit: int = 300) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[:limit] + "..."


def is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def is_int(value: Any) -> bool:
    """INT-41/INT-48: a JSON number with an integral value (10 and 10.0 alike)."""
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or (
        isinstance(value, float) and math.isfinite(value) and value.is_integer()
    )


def is_hex64(value: Any) -> bool:
    return isinstance(value, str) and len(value) == 64 and set(value) <= _HEX


@dataclass(frozen=True)
class View:
    """A success result checked for shape: ``package``, ``receipt`` and typed parts."""

    result: Mapping[str, Any]
    package: Mapping[str, Any]
    receipt: Mapping[str, Any]
    budget: Mapping[str, Any]
    selected: Sequence[Mapping[str, Any]]
    dropped: Sequence[Mapping[str, Any]]

    @property
    def used(self) -> int:
        return int(self.budget["used_excerpt_tokens"])


def as_view(result: Any) -> View:
    """The result as a package view; a :class:`PropertyFailure` when it is not one.

    S6-OUT-01..22 (shape), INT-44 (the envelope).
    """
    shape = ("S6-OUT-01",)
    if not isinstance(result, dict):
        fail("result-shape", shape, f"the result is not a JSON object: {show(result)}")
    if "error" in result:
        fail(
            "result-shape",
            ("S6-OUT-01", "S6-ERR-01"),
            f"a valid request returned an error: {show(result['error'])}",
            ("INT-44",),
        )
    package, receipt = result.get("package"), result.get("receipt")
    if not isinstance(package, dict) or not isinstance(receipt, dict):
        fail(
            "result-shape",
            shape,
            f"expected {{package, receipt}}, got members {sorted(result)}",
            ("INT-44",),
        )
    query = package.get("query")
    if (
        not isinstance(query, dict)
        or not isinstance(query.get("raw"), str)
        or not isinstance(query.get("query_hash"), str)
    ):
        fail("package-shape", ("S6-OUT-02", "S6-OUT-03"), f"bad query: {show(query)}")
    budget = package.get("budget")
    if not isinstance(budget, dict) or not all(is_int(budget.get(k)) for k in _BUDGET_KEYS):
        fail(
            "package-shape",
            ("S6-OUT-04", "S6-OUT-05", "S6-OUT-06", "S6-OUT-07", "S6-OUT-08"),
            f"budget must hold five integers {list(_BUDGET_KEYS)}: {show(budget)}",
        )
    selection = package.get("selection")
    if not isinstance(selection, dict):
        fail("package-shape", ("S6-OUT-09", "S6-OUT-16"), f"bad selection: {show(selection)}")
    selected, dropped = selection.get("selected"), selection.get("dropped")
    if not isinstance(selected, list) or not isinstance(dropped, list):
        fail(
            "package-shape",
            ("S6-OUT-09", "S6-OUT-16"),
            "selection.selected and selection.dropped must be arrays",
        )
    for index, item in enumerate(selected):
        if not isinstance(item, dict) or set(item) != _SELECTED_KEYS:
            fail(
                "package-shape",
                ("S6-OUT-10", "S6-OUT-11", "S6-OUT-12", "S6-OUT-13", "S6-OUT-14", "S6-OUT-15"),
                f"selected[{index}] must have exactly {sorted(_SELECTED_KEYS)}: {show(item)}",
            )
        strings = ("memory_id", "record_hash", "store_path", "excerpt")
        if not all(isinstance(item[k], str) for k in strings) or not (
            is_number(item["score"]) and is_int(item["excerpt_tokens"])
        ):
            fail(
                "package-shape",
                ("S6-OUT-10", "S6-OUT-11", "S6-OUT-12", "S6-OUT-13", "S6-OUT-14", "S6-OUT-15"),
                f"selected[{index}] has a member of the wrong type: {show(item)}",
            )
    for index, item in enumerate(dropped):
        if (
            not isinstance(item, dict)
            or set(item) != _DROPPED_KEYS
            or not all(isinstance(v, str) for v in item.values())
        ):
            fail(
                "package-shape",
                ("S6-OUT-17", "S6-OUT-18", "S6-OUT-19", "S6-OUT-20"),
                f"dropped[{index}] must have exactly {sorted(_DROPPED_KEYS)} (strings): "
                f"{show(item)}",
            )
    if not isinstance(package.get("package_hash"), str):
        fail("package-shape", ("S6-OUT-21",), "package_hash must be a string")
    if package.get("controller_version") != "phase6-v1":
        fail(
            "package-shape",
            ("S6-OUT-22", "S6-VER-01"),
            f"controller_version is {show(package.get('controller_version'))}, "
            'expected "phase6-v1"',
        )
    return View(result, package, receipt, budget, selected, dropped)


def line_for(model: Model, item: Mapping[str, Any]) -> ModelLine | None:
    """The store line an output entry stands for: by (store_path, record_hash), else the
    unique line of that store with that memory_id."""
    lines = model.lines_for(item["store_path"], item["record_hash"])
    if lines:
        return lines[0]
    valid = [
        line for line in model.lines_named(item["store_path"], item["memory_id"]) if line.valid
    ]
    return valid[0] if len(valid) == 1 else None


def entries(view: View) -> list[Mapping[str, Any]]:
    return [*view.selected, *view.dropped]


def is_subsequence(needle: Sequence[Any], haystack: Iterable[Any]) -> bool:
    rest = iter(haystack)
    return all(any(item == other for other in rest) for item in needle)
