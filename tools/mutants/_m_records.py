"""Mutants of line reading and record validation (READER, JSONL STORE RECORD CONTRACT;
INT-14..INT-25)."""

from __future__ import annotations

import builtins
import json
import re
import types
from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

from tools.mutants._patch import replace, shadow_builtin, wrap
from tools.mutants._registry import mutant

_BOM = b"\xef\xbb\xbf"
_OFFSET = re.compile(r"^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(\.\d{1,9})?([+-])(\d\d):(\d\d)$")


def _orjson_shim(loads: Any) -> Any:
    """An object standing in for the orjson module inside reference._records: same API,
    another ``loads``."""
    import orjson

    shim = types.SimpleNamespace(
        **{name: getattr(orjson, name) for name in dir(orjson) if not name.startswith("__")}
    )
    shim.loads = loads
    return shim


def _wrap_parse(change: Any) -> None:
    """Wrap the record parser the package assembler calls: ``change(original, raw)``."""
    from reference import _package

    wrap(_package, "parse_record", lambda original: lambda raw: change(original, raw))


@mutant("tags-not-lowercased", clauses=("S6-READ-12",), interpretations=("INT-25",))
def _() -> None:
    """Tags are deduplicated and sorted but keep their case."""
    from reference import _records

    def keep(tag: Any) -> str:
        if type(tag) is not str:
            raise TypeError("not a string")
        return tag

    shadow_builtin(
        _records, "map", lambda f, items: builtins.map(keep if f is str.lower else f, items)
    )


@mutant("tags-not-deduplicated", clauses=("S6-READ-11",), interpretations=("INT-25",))
def _() -> None:
    """Tags are lowercased and sorted but duplicates are kept."""
    from reference import _records

    shadow_builtin(_records, "set", list)


@mutant(
    "tags-in-set-order",
    clauses=("S6-READ-11", "S6-DET-04"),
    interpretations=("INT-25",),
    probes=("environment",),
)
def _() -> None:
    """Tags are lowercased and deduplicated but left in set order (hash-seed dependent)."""
    from reference import _records

    shadow_builtin(_records, "sorted", list)


@mutant("bom-accepted", clauses=("S6-REC-01",), interpretations=("INT-15",))
def _() -> None:
    """A line starting with a UTF-8 BOM is read as if the BOM were not there."""
    _wrap_parse(lambda original, raw: original(raw[3:] if raw.startswith(_BOM) else raw))


@mutant("nan-accepted", clauses=("S6-REC-01",), interpretations=("INT-15",))
def _() -> None:
    """NaN, Infinity and -Infinity are accepted as JSON numbers (Python's json module)."""
    import orjson

    from reference import _records

    def reject(constant: str) -> Any:
        raise ValueError(constant)

    def loads(raw: bytes) -> Any:
        try:
            return orjson.loads(raw)
        except orjson.JSONDecodeError as error:
            try:
                text = raw.decode("utf-8")
                value = json.loads(text)
            except ValueError:
                raise error from None
            try:
                json.loads(text, parse_constant=reject)
            except ValueError as exc:
                if str(exc) in ("NaN", "Infinity", "-Infinity"):
                    try:
                        orjson.dumps(value)  # lone surrogates stay invalid
                    except TypeError:
                        raise error from None
                    return value
            raise error from None

    replace(_records, "orjson", _orjson_shim(loads))


@mutant(
    "duplicate-keys-first-wins", clauses=("S6-REC-01", "S6-HASH-01"), interpretations=("INT-16",)
)
def _() -> None:
    """Of duplicate member names in a line, the first occurrence wins."""
    import orjson

    from reference import _records

    def first_wins(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in pairs:
            out.setdefault(key, value)
        return out

    def loads(raw: bytes) -> Any:
        orjson.loads(raw)  # same validity as the reference
        return json.loads(raw, object_pairs_hook=first_wins)

    replace(_records, "orjson", _orjson_shim(loads))


@mutant("no-depth-limit", clauses=("S6-REC-01", "S6-REC-10"), interpretations=("INT-18",))
def _() -> None:
    """Lines nested deeper than 64 levels are accepted (no pinned depth limit)."""
    from reference import _records

    replace(_records, "text_too_deep", lambda raw: False)


@mutant(
    "record-null-as-absent",
    clauses=("S6-REC-07", "S6-REC-08", "S6-REC-04"),
    interpretations=("INT-22",),
)
def _() -> None:
    """A record member tags, refs or ts_utc whose value is null is treated as absent."""
    import orjson

    from reference import _records

    def loads(raw: bytes) -> Any:
        value = orjson.loads(raw)
        if type(value) is dict:
            for name in ("tags", "refs", "ts_utc"):
                if name in value and value[name] is None:
                    del value[name]
        return value

    replace(_records, "orjson", _orjson_shim(loads))


@mutant("empty-memory-id-accepted", clauses=("S6-REC-03",), interpretations=("INT-22",))
def _() -> None:
    """A record whose memory_id is the empty string is accepted."""
    import orjson

    from reference._records import Invalid, record_hash_of

    def change(original: Any, raw: bytes) -> Any:
        result = original(raw)
        if not isinstance(result, Invalid):
            return result
        try:
            value = orjson.loads(raw)
        except orjson.JSONDecodeError:
            return result
        if type(value) is not dict or value.get("memory_id") != "":
            return result
        again = original(orjson.dumps({**value, "memory_id": "\ue000"}))
        if isinstance(again, Invalid):
            return result
        _, text, tags, ts, _ = again
        return ("", text, tags, ts, record_hash_of("", text, tags, value.get("refs", []), ts))

    _wrap_parse(change)


@mutant("empty-text-invalid", clauses=("S6-REC-06",))
def _() -> None:
    """A record whose text is the empty string is dropped as invalid_record_schema."""
    from reference._records import Invalid, _raw_hash

    def change(original: Any, raw: bytes) -> Any:
        result = original(raw)
        if not isinstance(result, Invalid) and result[1] == "":
            return Invalid((result[0], _raw_hash(raw)))
        return result

    _wrap_parse(change)


@mutant("refs-non-objects-accepted", clauses=("S6-REC-09",), interpretations=("INT-22",))
def _() -> None:
    """refs elements that are not objects (strings, numbers) are accepted."""
    from reference import _records

    def make(original: Any) -> Any:
        return lambda refs: False if any(type(r) is not dict for r in refs) else original(refs)

    wrap(_records, "_refs_plain", make)


@mutant("invalid-line-fails-call", clauses=("S6-REC-10", "S6-REC-11"), interpretations=("INT-15",))
def _() -> None:
    """An invalid line fails the whole call (store_not_readable) instead of being dropped."""
    from reference._errors import StoreError
    from reference._records import Invalid

    def change(original: Any, raw: bytes) -> Any:
        result = original(raw)
        if isinstance(result, Invalid):
            raise StoreError("store_not_readable", "/store_paths/0", "a store line is not a record")
        return result

    _wrap_parse(change)


@mutant(
    "invalid-line-memory-id-empty", clauses=("S6-REC-11", "S6-OUT-17"), interpretations=("INT-19",)
)
def _() -> None:
    """Dropped invalid lines always carry memory_id "" (even when the object has a string one)."""
    from reference._records import Invalid

    def change(original: Any, raw: bytes) -> Any:
        result = original(raw)
        return Invalid(("", result[1])) if isinstance(result, Invalid) else result

    _wrap_parse(change)


@mutant(
    "invalid-line-hash-keeps-cr",
    clauses=("S6-REC-11", "S6-OUT-18"),
    interpretations=("INT-19", "INT-14"),
)
def _() -> None:
    """The raw-line hash of an invalid CRLF line includes the CR."""
    from reference import _records
    from reference._canonical import sha256_hex

    replace(_records, "_raw_hash", lambda raw: sha256_hex(raw[:-1] if raw.endswith(b"\n") else raw))


@mutant("blank-lines-are-records", clauses=("S6-REC-01", "S6-REC-11"), interpretations=("INT-14",))
def _() -> None:
    """Empty and whitespace-only lines are dropped as invalid_record_schema, not skipped."""
    from reference import _package

    def iter_lines(
        path: str, index: int, start: int = 0, end: int | None = None
    ) -> Iterator[tuple[int, bytes]]:
        offset = start
        with open(path, "rb") as handle:
            handle.seek(start)
            for line in handle:
                if end is not None and offset >= end:
                    break
                yield offset, line
                offset += len(line)

    replace(_package, "iter_lines", iter_lines)


@mutant("ts-offsets-converted", clauses=("S6-REC-04", "S6-SCORE-15"), interpretations=("INT-20",))
def _() -> None:
    """ts_utc with a non-UTC offset (+02:00) is converted to UTC instead of being invalid."""
    from reference import _records
    from reference._timestamps import parse_utc as original

    def parse(text: str) -> Any:
        parsed = original(text)
        match = _OFFSET.match(text) if parsed is None else None
        if match is None:
            return parsed
        base = original(f"{match[1]}{match[2] or ''}Z")
        if base is None:
            return None
        sign = 1 if match[3] == "+" else -1
        shift = sign * (int(match[4]) * 3600 + int(match[5]) * 60) * 10**9
        ns = base[1] - shift
        moment = datetime(1, 1, 1) + timedelta(microseconds=ns // 1000)
        fraction = f"{ns % 10**9:09d}".rstrip("0")
        return (
            moment.strftime("%Y-%m-%dT%H:%M:%S") + (f".{fraction}" if fraction else "") + "Z",
            ns,
        )

    replace(_records, "parse_utc", parse)


@mutant("ts-not-normalized", clauses=("S6-READ-09", "S6-HASH-01"), interpretations=("INT-21",))
def _() -> None:
    """The record's ts_utc enters record_hash as written, not in normalized form."""
    from reference import _records
    from reference._timestamps import parse_utc as original

    def parse(text: str) -> Any:
        parsed = original(text)
        return None if parsed is None else (text, parsed[1])

    replace(_records, "parse_utc", parse)
