"""The result envelope (INT-44) written to a binary stream, a package section at a time.

Success: {"package": ContextPackage, "receipt": Receipt}; failure: {"error": ErrorObject}.
The bytes are exactly what ``orjson.dumps(result)`` (or, with ``pretty``, ``orjson.dumps(result,
option=OPT_INDENT_2)``) gives for the whole result, with the package's members in OUTPUT
CONTRACT order; the dropped entries arrive in pieces (`dropped`) between the head (query,
budget, selected) and the tail (package_hash, controller_version, receipt), so the package is
never held in memory whole.

An error whose path or message holds a member name that is not valid Unicode (a lone
surrogate, INT-42) cannot be written as UTF-8: it is written with \\uXXXX escapes (ASCII JSON).
"""

from __future__ import annotations

import json
from typing import Any, Final, Protocol

import orjson

__all__ = ["Envelope", "Sink", "dumps"]

_INDENT: Final = orjson.OPT_INDENT_2
_LEVEL: Final = b"  "
#: The extra indentation of a dropped entry when pretty-printed (list items carry two spaces
#: of their own; they sit at depth 4: envelope, package, selection, dropped).
DROPPED_INDENT: Final = _LEVEL * 3


class Sink(Protocol):
    """Where an envelope goes: anything with a binary ``write`` (a file, a pipe, BytesIO)."""

    def write(self, data: bytes | bytearray, /) -> object:
        """Write all of `data`."""


def dumps(value: Any, *, pretty: bool = False) -> bytes:
    """JSON bytes of a value; strings that are not valid Unicode are written escaped."""
    try:
        return orjson.dumps(value, option=_INDENT if pretty else 0)
    except TypeError:  # orjson refuses lone surrogates (and everything else it cannot write)
        if pretty:
            return json.dumps(value, ensure_ascii=True, indent=2).encode("ascii")
        return json.dumps(value, ensure_ascii=True, separators=(",", ":")).encode("ascii")


class Envelope:
    """Writes one result envelope to `out`, framed by `prefix` and `suffix`."""

    __slots__ = ("entries", "out", "prefix", "pretty", "started", "suffix")

    def __init__(
        self, out: Sink, *, pretty: bool = False, prefix: bytes = b"", suffix: bytes = b"\n"
    ) -> None:
        self.out = out
        self.pretty = pretty
        self.prefix = prefix
        self.suffix = suffix
        self.entries = False  # has a dropped entry been written?
        self.started = False  # has any of a package been written?

    @property
    def dropped_indent(self) -> bytes | None:
        """How `_dropped.render_dropped` must indent printed entries (None: compact)."""
        return DROPPED_INDENT if self.pretty else None

    def _member(self, value: Any, depth: int) -> bytes:
        """A member's value as orjson would print it at `depth` inside the whole result (a
        value orjson cannot write, one holding a lone surrogate, as `dumps` writes it)."""
        if not self.pretty:
            return dumps(value)
        return dumps(value, pretty=True).replace(b"\n", b"\n" + _LEVEL * depth)

    def error(self, error: dict[str, Any]) -> None:
        """The failure envelope {"error": ...}."""
        self.out.write(self.prefix + dumps({"error": error}, pretty=self.pretty) + self.suffix)

    def whole(self, result: dict[str, Any]) -> None:
        """A whole result envelope held in memory (the plain path of ``_readings.py``)."""
        self.started = True
        self.out.write(self.prefix + dumps(result, pretty=self.pretty) + self.suffix)

    def head(self, query: dict[str, Any], budget: dict[str, Any], selected: list[Any]) -> None:
        """Everything before the first dropped entry."""
        if not self.pretty:
            parts = [b'{"package":{"query":', self._member(query, 0), b',"budget":',
                     self._member(budget, 0), b',"selection":{"selected":',
                     self._member(selected, 0), b',"dropped":[']  # fmt: skip
        else:
            parts = [b'{\n  "package": {\n    "query": ', self._member(query, 2),
                     b',\n    "budget": ', self._member(budget, 2),
                     b',\n    "selection": {\n      "selected": ', self._member(selected, 3),
                     b',\n      "dropped": [']  # fmt: skip
        self.started = True
        self.out.write(self.prefix + b"".join(parts))

    def dropped(self, printed: bytes | bytearray) -> None:
        """Some dropped entries, as `_dropped.render_dropped` printed them (b"" for none)."""
        if not printed:
            return
        if self.pretty:
            self.out.write(b",\n" if self.entries else b"\n")
        elif self.entries:
            self.out.write(b",")
        self.out.write(printed)
        self.entries = True

    def tail(self, package_hash: str, controller_version: str, receipt: dict[str, Any]) -> None:
        """Everything after the last dropped entry."""
        if not self.pretty:
            parts = [b']},"package_hash":', self._member(package_hash, 0),
                     b',"controller_version":', self._member(controller_version, 0),
                     b'},"receipt":', self._member(receipt, 0), b"}"]  # fmt: skip
        else:
            close = b"\n      ]" if self.entries else b"]"
            parts = [close, b'\n    },\n    "package_hash": ', self._member(package_hash, 2),
                     b',\n    "controller_version": ', self._member(controller_version, 2),
                     b'\n  },\n  "receipt": ', self._member(receipt, 1), b"\n}"]  # fmt: skip
        self.out.write(b"".join(parts) + self.suffix)
