"""JSON text readings: what a store line or a snapshot must be to count as JSON (INT-15..18),
and the canonical form every hash is computed over (INT-01, RFC 8785).
"""

from __future__ import annotations

import hashlib
import json
import math
from typing import Any

import rfc8785

__all__ = ["MAX_DEPTH", "SAFE_INT", "InvalidText", "canonical", "parse_json_text", "sha256_hex"]

SAFE_INT = 2**53 - 1  # INT-41 / INT-17: the interoperable integer range of a double
MAX_DEPTH = 64  # INT-18


class InvalidText(Exception):
    """A JSON text or record breaks INT-15..INT-18 / INT-22."""


def _reject_constant(name: str) -> object:
    raise InvalidText(f"{name} is not JSON")  # INT-15: NaN, Infinity are not JSON


def _parse_int(digits: str) -> int | float:
    """INT-17: every number is the nearest double; ints outside the JCS-safe range become floats."""
    n = int(digits)
    return n if -SAFE_INT <= n <= SAFE_INT else float(n)  # OverflowError -> invalid


def _parse_float(text: str) -> float:
    f = float(text)
    if math.isinf(f):  # INT-17: "a number whose magnitude rounds to infinity ... invalid"
        raise InvalidText("number out of range")
    return f


def _check_tree(value: object) -> None:
    """INT-15: no lone surrogate in any string of a (sub)tree, keys included."""
    stack: list[object] = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, str):
            try:
                node.encode("utf-8")
            except UnicodeEncodeError:
                raise InvalidText("lone surrogate") from None
        elif isinstance(node, dict):
            stack.extend(node.keys())
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)


def _text_depth(text: str) -> int:
    """INT-18: the deepest nesting of arrays/objects in the JSON TEXT (strings skipped)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def _last_wins(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """INT-16: the last duplicate wins, but every pair, overwritten or not, obeys INT-15."""
    for key, item in pairs:
        _check_tree(key)
        _check_tree(item)
    return dict(pairs)


def parse_json_text(raw: bytes) -> Any:
    """INT-15..INT-18: strict UTF-8, no BOM, one RFC 8259 text, last duplicate wins (INT-16)."""
    try:
        text = raw.decode("utf-8", errors="strict")
    except UnicodeDecodeError:
        raise InvalidText("not UTF-8") from None
    if text.startswith("\ufeff"):
        raise InvalidText("BOM")  # U+FEFF is not JSON whitespace
    try:
        value = json.loads(
            text,
            object_pairs_hook=_last_wins,  # the last occurrence of a name wins
            parse_constant=_reject_constant,
            parse_int=_parse_int,
            parse_float=_parse_float,
        )
    except (ValueError, RecursionError, OverflowError):
        raise InvalidText("not JSON") from None
    _check_tree(value)
    if _text_depth(text) > MAX_DEPTH:  # INT-18: a property of the text
        raise InvalidText("nesting too deep")
    return value


def canonical(value: Any) -> bytes:
    """INT-01: RFC 8785 JCS bytes."""
    return rfc8785.dumps(value)


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
