"""Request text -> a JSON value, for any text: fast, then exact, then at any depth.

A request is JSON text; what it may hold is the validator's business (`_request`), which
answers every malformed request with a structured error (INT-40..INT-42).  So parsing must
not fail on valid JSON, whatever it holds:

1. orjson (fast) refuses escaped lone surrogates ("\\ud800", valid JSON text) and nesting
   deeper than 1,024;
2. the standard library parser accepts lone surrogates (INT-42: they become type errors) but
   raises RecursionError past about a thousand levels;
3. past that, a small iterative parser builds the same value as (2) would, at any depth:
   nothing but the validator's type checks ever looks inside a request value, and those do
   not recurse (an over-deep value is reported as a type error at its member's path).
"""

from __future__ import annotations

import json
import json.decoder
import json.scanner
import re
from collections.abc import Callable
from typing import Any, Final

import orjson

__all__ = ["loads_request"]

_WHITESPACE: Final = re.compile(r"[ \t\n\r]*")  # json.decoder's WHITESPACE
_NUMBER: Final = json.scanner.NUMBER_RE.match
#: json.decoder.scanstring (the C accelerated one when present): the standard parser's strings.
_scanstring: Final[Callable[[str, int, bool], tuple[str, int]]] = vars(json.decoder)["scanstring"]
_CONSTANTS: Final[dict[str, Any]] = {
    "null": None,
    "true": True,
    "false": False,
    "NaN": float("nan"),
    "Infinity": float("inf"),
    "-Infinity": float("-inf"),
}


def loads_request(data: bytes | str) -> Any:
    """Parse a request's JSON text.  Raises ValueError when it is not JSON."""
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError:
        pass
    try:
        return json.loads(data)
    except RecursionError:
        if isinstance(data, str):
            return _loads_deep(data)
        return _loads_deep(data.decode(json.detect_encoding(data), "surrogatepass"))


def _skip(text: str, index: int) -> int:
    """The index of the first non-whitespace character at or after `index`."""
    found = _WHITESPACE.match(text, index)
    return index if found is None else found.end()


def _error(message: str, text: str, index: int) -> json.JSONDecodeError:
    return json.JSONDecodeError(message, text, index)


def _scalar(text: str, index: int) -> tuple[Any, int]:
    """A string, number or constant starting at `index` (as json.loads reads them)."""
    if text.startswith('"', index):
        value, end = _scanstring(text, index + 1, True)
        return value, end
    number = _NUMBER(text, index)
    if number is not None:
        integer, fraction, exponent = number.groups()
        if fraction or exponent:
            return float(integer + (fraction or "") + (exponent or "")), number.end()
        return int(integer), number.end()
    for name, value in _CONSTANTS.items():
        if text.startswith(name, index):
            return value, index + len(name)
    raise _error("Expecting value", text, index)


def _key(text: str, index: int) -> tuple[str, int]:
    """A member name and the index after its colon."""
    if not text.startswith('"', index):
        raise _error("Expecting property name enclosed in double quotes", text, index)
    key, index = _scanstring(text, index + 1, True)
    index = _skip(text, index)
    if not text.startswith(":", index):
        raise _error("Expecting ':' delimiter", text, index)
    return key, _skip(text, index + 1)


def _loads_deep(text: str) -> Any:
    """json.loads without recursion: arrays and objects are opened on an explicit stack."""
    stack: list[tuple[list[Any] | dict[str, Any], str]] = []  # (container, member name)
    index = _skip(text, 0)
    while True:
        # A value starts at `index`.
        value: Any
        if text.startswith("[", index):
            index = _skip(text, index + 1)
            if not text.startswith("]", index):
                stack.append(([], ""))
                continue
            value, index = [], index + 1
        elif text.startswith("{", index):
            index = _skip(text, index + 1)
            if not text.startswith("}", index):
                key, index = _key(text, index)
                stack.append(({}, key))
                continue
            value, index = {}, index + 1
        else:
            value, index = _scalar(text, index)
        # A value ended: store it in its container, closing containers as they end.
        while True:
            index = _skip(text, index)
            if not stack:
                if index != len(text):
                    raise _error("Extra data", text, index)
                return value
            container, key = stack[-1]
            if isinstance(container, list):
                container.append(value)
                closer = "]"
            else:
                container[key] = value  # duplicate names: the last one wins, like json.loads
                closer = "}"
            if text.startswith(",", index):
                index = _skip(text, index + 1)
                if isinstance(container, dict):
                    key, index = _key(text, index)
                    stack[-1] = (container, key)
                break
            if not text.startswith(closer, index):
                raise _error(f"Expecting ',' delimiter or {closer!r}", text, index)
            stack.pop()
            value, index = container, index + 1
