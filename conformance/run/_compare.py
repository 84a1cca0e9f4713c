"""How results compare, and the first place where they differ.

INT-48: "Two results are equal when they are equal as JSON values: same members (order
ignored), arrays in order, strings equal, numbers equal as doubles (2 == 2.0)." A boolean is
never a number. Error results compare on ``code`` and ``path`` only (specs/vectors-format.md:
"code and JSON Pointer path are compared; message and clause are not").

The determinism check uses ``strict=True``: two runs of one implementation must agree exactly,
number types and error messages included (S6-ERR-07: "the same error type and message").

The first difference names a cause rather than a consequence: object members are visited in
code-point order of their names, except for the members SPEC-006 derives from the others
(:data:`MEMBER_ORDER`). INT-03: package_hash covers every other member of the package, so it
differs whenever anything else does; the budget's used and remaining tokens, and what is
dropped, follow from what is selected; an item's place in ``selected`` follows from its score
(S6-ORDER-01: "1) score descending") and then its identity. A wrong score therefore shows at
``.../selected/0/score``, not at ``/package/package_hash``.

Exported for differential use (toml-test#90): :func:`first_difference` works on any two JSON
values and :func:`compare_result` on an expected ``expect`` object and an actual result. Both
walk the values with an explicit stack, never recursion, so any nesting depth is compared
without exhausting the interpreter's stack; :func:`render_diff` of values too deep or too large
to print says so instead of failing.
"""

from __future__ import annotations

import difflib
import math
from dataclasses import dataclass
from typing import Any

import orjson

from conformance._kit import dumps_pretty

__all__ = [
    "MEMBER_ORDER",
    "MISSING",
    "Difference",
    "compare_result",
    "first_difference",
    "render_diff",
]


#: Member name -> rank; members sort by (rank, name), unlisted members rank 0. Negative: visited
#: before the other members of their object; positive: after them (derived values).
MEMBER_ORDER: dict[str, int] = {
    "score": -4,
    "memory_id": -3,
    "store_path": -2,
    "record_hash": -1,
    "dropped": 1,
    "budget": 1,
    "package_hash": 2,
}


def _member_key(name: str) -> tuple[int, str]:
    return MEMBER_ORDER.get(name, 0), name


class _Missing:
    def __repr__(self) -> str:
        return "<missing>"


#: Stands for an absent member or array element in a :class:`Difference`.
MISSING: Any = _Missing()


@dataclass(frozen=True)
class Difference:
    """The first point where two JSON values differ (JSON Pointer ``path``, RFC 6901)."""

    path: str
    expected: Any
    actual: Any
    reason: str

    def describe(self) -> str:
        """One line: where, and what differs."""
        where = self.path or "(the whole value)"
        return f"{where}: {self.reason}"


def _escape(token: str | int) -> str:
    return str(token).replace("~", "~0").replace("/", "~1")


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list | tuple):
        return "array"
    if isinstance(value, dict):
        if all(isinstance(key, str) for key in value):
            return "object"
        return "non-JSON object with non-string keys"
    return f"non-JSON {type(value).__name__}"


def _numbers_equal(a: int | float, b: int | float, strict: bool) -> bool:
    if strict:
        return type(a) is type(b) and (a == b or (math.isnan(a) and math.isnan(b)))
    if isinstance(a, float) and not math.isfinite(a):
        return False
    if isinstance(b, float) and not math.isfinite(b):
        return False
    try:
        return float(a) == float(b)
    except OverflowError:  # an int beyond the double range: compare exactly
        return a == b


def _identical(expected: Any, actual: Any) -> bool:
    """Fast path: key-sorted orjson bytes equal means equal even under ``strict``.

    orjson writes NaN and Infinity as ``null``, so a value holding ``null`` takes the slow path
    (SPEC-006 results never contain null; the slow path decides).
    """
    try:
        left = orjson.dumps(expected, option=orjson.OPT_SORT_KEYS)
        right = orjson.dumps(actual, option=orjson.OPT_SORT_KEYS)
    except TypeError:  # big ints, non-string keys, non-JSON types: the slow path explains
        return False
    return left == right and b"null" not in left


def first_difference(expected: Any, actual: Any, *, strict: bool = False) -> Difference | None:
    """The first difference between two JSON values in document order, or ``None``.

    Object members are visited in code-point order of their names, derived members last and
    an item's score and identity first (:data:`MEMBER_ORDER`; member order in the values is
    ignored); a member missing on either side is a difference at that member's path.
    """
    if _identical(expected, actual):
        return None
    stack: list[tuple[str, Any, Any] | Difference] = [("", expected, actual)]
    while stack:
        item = stack.pop()
        if isinstance(item, Difference):  # an array length check, reached after its prefix
            return item
        path, exp, act = item
        if act is MISSING:
            return Difference(path, exp, MISSING, "member missing")
        if exp is MISSING:
            return Difference(path, MISSING, act, "unexpected member")
        kind_e, kind_a = _kind(exp), _kind(act)
        if kind_e != kind_a:
            return Difference(path, exp, act, f"expected {kind_e}, got {kind_a}")
        if kind_e == "object":
            for key in sorted(exp.keys() | act.keys(), key=_member_key, reverse=True):
                child = f"{path}/{_escape(key)}"
                stack.append((child, exp.get(key, MISSING), act.get(key, MISSING)))
        elif kind_e == "array":
            shared = min(len(exp), len(act))
            if len(exp) != len(act):
                # the common prefix first: the first differing element is more useful
                index = f"{path}/{shared}"
                if len(exp) > len(act):
                    reason = f"array too short: {len(act)} < {len(exp)}"
                    stack.append(Difference(index, exp[shared], MISSING, reason))
                else:
                    reason = f"array too long: {len(act)} > {len(exp)}"
                    stack.append(Difference(index, MISSING, act[shared], reason))
            stack.extend((f"{path}/{i}", exp[i], act[i]) for i in range(shared - 1, -1, -1))
        elif kind_e == "number":
            if not _numbers_equal(exp, act, strict):
                return Difference(path, exp, act, _expected_got(exp, act))
        elif kind_e.startswith("non-JSON"):
            return Difference(path, exp, act, f"{kind_e} is not a JSON value")
        elif exp != act or (strict and type(exp) is not type(act)):
            return Difference(path, exp, act, _expected_got(exp, act))
    return None


def _expected_got(expected: Any, actual: Any, limit: int = 300) -> str:
    """``expected X, got Y`` with each side's repr capped (a huge string is not copied)."""

    def short(value: Any) -> str:
        if isinstance(value, str) and len(value) > limit:
            value = value[:limit]
            return repr(value) + "..."
        return repr(value)[:limit]

    return f"expected {short(expected)}, got {short(actual)}"[:limit]


def _project_error(actual: Any) -> Any:
    """Keep what an error vector compares (code and path) and flag anything else at top level."""
    if not isinstance(actual, dict) or not isinstance(actual.get("error"), dict):
        return actual
    error = actual["error"]
    projected = {k: error[k] for k in ("code", "path") if k in error}
    return {**{k: v for k, v in actual.items() if k != "error"}, "error": projected}


def compare_result(expect: dict[str, Any], actual: Any) -> Difference | None:
    """Compare an actual result envelope with a vector's ``expect`` object (INT-44, INT-48)."""
    if "error" in expect:
        return first_difference(expect, _project_error(actual))
    return first_difference(expect, actual)


def render_diff(
    expected: Any, actual: Any, *, max_lines: int = 80, max_chars: int = 400_000
) -> str:
    """A unified diff of the two values pretty-printed with sorted keys (capped)."""
    try:
        left = dumps_pretty(expected)
        right = dumps_pretty(actual)
    except (ValueError, RecursionError):
        return "(values too deeply nested to diff; see the first difference)"
    if len(left) + len(right) > max_chars:
        return "(values too large to diff; see the first difference)"
    lines = list(
        difflib.unified_diff(
            left.splitlines(), right.splitlines(), "expected", "actual", n=3, lineterm=""
        )
    )
    if len(lines) > max_lines:
        lines = [*lines[:max_lines], f"... ({len(lines) - max_lines} more diff lines)"]
    return "\n".join(lines)
