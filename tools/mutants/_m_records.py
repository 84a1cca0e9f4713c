"""Mutants of line reading and record validation (READER, JSONL STORE RECORD CONTRACT;
INT-14..INT-25)."""

from __future__ import annotations

from typing import Any

from tools.mutants._registry import Reader, SourcePatch, Wrapper, mutant, patch

_NORMALIZE_TAGS = "    return sorted(set(map(str.lower, tags)))"
_LOAD_LINE = "load_line: Final = orjson.loads\n"
_PARSE_TS = "parse_ts: Final = parse_utc\n"


def _load_line(body: str) -> SourcePatch:
    """Replace the one JSON parser both passes use by a function with this body."""
    return patch("_records.py", _LOAD_LINE, f"def load_line(raw: bytes) -> Any:\n{body}\n\n\n")


@mutant("tags-not-lowercased", clauses=("S6-READ-12",), interpretations=("INT-25",))
def _() -> SourcePatch:
    """Tags are deduplicated and sorted but keep their case."""
    return patch("_records.py", _NORMALIZE_TAGS, "    return sorted(set(map(str.__str__, tags)))")


@mutant("tags-not-deduplicated", clauses=("S6-READ-11",), interpretations=("INT-25",))
def _() -> SourcePatch:
    """Tags are lowercased and sorted but duplicates are kept."""
    return patch("_records.py", _NORMALIZE_TAGS, "    return sorted(map(str.lower, tags))")


@mutant(
    "tags-in-set-order",
    clauses=("S6-READ-11", "S6-DET-04"),
    interpretations=("INT-25",),
    probes=("environment",),
)
def _() -> SourcePatch:
    """Tags are lowercased and deduplicated but left in set order (hash-seed dependent)."""
    return patch("_records.py", _NORMALIZE_TAGS, "    return list(set(map(str.lower, tags)))")


@mutant("bom-accepted", clauses=("S6-REC-01",), interpretations=("INT-15",))
def _() -> SourcePatch:
    """A line starting with a UTF-8 BOM is read as if the BOM were not there."""
    return _load_line(
        '    return orjson.loads(raw[3:] if raw.startswith(b"\\xef\\xbb\\xbf") else raw)'
    )


@mutant("nan-accepted", clauses=("S6-REC-01",), interpretations=("INT-15",))
def _() -> SourcePatch:
    """NaN, Infinity and -Infinity are accepted as JSON numbers (Python's json module)."""
    return _load_line(
        "    import json\n"
        "    try:\n"
        "        return orjson.loads(raw)\n"
        "    except orjson.JSONDecodeError as error:\n"
        "        def reject(constant: str) -> Any:\n"
        "            raise ValueError(constant)\n"
        "        try:\n"
        '            text = raw.decode("utf-8")\n'
        "            value = json.loads(text)\n"
        "        except ValueError:\n"
        "            raise error from None\n"
        "        try:\n"
        "            json.loads(text, parse_constant=reject)\n"
        "        except ValueError as exc:\n"
        '            if str(exc) in ("NaN", "Infinity", "-Infinity"):\n'
        "                try:\n"
        "                    orjson.dumps(value)  # lone surrogates stay invalid\n"
        "                except TypeError:\n"
        "                    raise error from None\n"
        "                return value\n"
        "        raise error from None"
    )


@mutant(
    "duplicate-keys-first-wins", clauses=("S6-REC-01", "S6-HASH-01"), interpretations=("INT-16",)
)
def _() -> SourcePatch:
    """Of duplicate member names in a line, the first occurrence wins."""
    return _load_line(
        "    import json\n"
        "    orjson.loads(raw)  # same validity as the reference\n"
        "    def first_wins(pairs: Any) -> Any:\n"
        "        out: dict[str, Any] = {}\n"
        "        for key, value in pairs:\n"
        "            out.setdefault(key, value)\n"
        "        return out\n"
        "    return json.loads(raw, object_pairs_hook=first_wins)"
    )


@mutant("no-depth-limit", clauses=("S6-REC-01", "S6-REC-10"), interpretations=("INT-18",))
def _() -> SourcePatch:
    """Lines nested deeper than 64 levels are accepted (no pinned depth limit)."""
    return patch(
        "_records.py",
        '    if raw.count(b"[") + raw.count(b"{") <= limit:\n        return False\n',
        "    return False\n",
    )


@mutant(
    "record-null-as-absent",
    clauses=("S6-REC-07", "S6-REC-08", "S6-REC-04"),
    interpretations=("INT-22",),
)
def _() -> SourcePatch:
    """A record member tags, refs or ts_utc whose value is null is treated as absent."""
    return patch(
        "_records.py",
        '    tags = get("tags", _NO_TAGS)\n    refs = get("refs", _NO_REFS)\n'
        '    ts_raw = get("ts_utc", "")\n',
        '    tags = _NO_TAGS if get("tags") is None else get("tags")\n'
        '    refs = _NO_REFS if get("refs") is None else get("refs")\n'
        '    ts_raw = "" if get("ts_utc") is None else get("ts_utc")\n',
    )


@mutant("empty-memory-id-rejected", clauses=("S6-REC-03",), interpretations=("INT-22",))
def _() -> SourcePatch:
    """A record whose memory_id is the empty string is dropped as invalid_record_schema (the
    reading INT-22 held before its re-pin: "string (required)" admits "")."""
    return patch(
        "_records.py",
        "        type(memory_id) is str\n        and type(text) is str\n",
        "        type(memory_id) is str\n        and memory_id\n        and type(text) is str\n",
    )


@mutant("empty-text-invalid", clauses=("S6-REC-06",))
def _() -> SourcePatch:
    """A record whose text is the empty string is dropped as invalid_record_schema."""
    return patch(
        "_records.py",
        "        and type(text) is str\n",
        '        and type(text) is str\n        and text != ""\n',
    )


@mutant("refs-non-objects-accepted", clauses=("S6-REC-09",), interpretations=("INT-22",))
def _() -> SourcePatch:
    """refs elements that are not objects (strings, numbers) are accepted."""
    return patch(
        "_records.py",
        "        if type(ref) is not dict:\n            return None\n",
        "        if type(ref) is not dict:\n            return False\n",
    )


@mutant("invalid-line-fails-call", clauses=("S6-REC-10", "S6-REC-11"), interpretations=("INT-15",))
def _() -> Wrapper:
    """An invalid line fails the whole call (store_not_readable) instead of being dropped."""

    def wrap(read: Reader) -> Reader:
        def deviant(request: Any) -> dict[str, Any]:
            result = read(request)
            dropped = result.get("package", {}).get("selection", {}).get("dropped", [])
            if any(entry["reason"] == "invalid_record_schema" for entry in dropped):
                message = "/store_paths/0: a store line is not a record"
                error = {"code": "store_not_readable", "message": message,
                         "path": "/store_paths/0", "clause": "S6-ERR-06"}  # fmt: skip
                return {"error": error}
            return result

        return deviant

    return wrap


@mutant(
    "invalid-line-memory-id-empty", clauses=("S6-REC-11", "S6-OUT-17"), interpretations=("INT-19",)
)
def _() -> SourcePatch:
    """Dropped invalid lines always carry memory_id "" (even when the object has a string one)."""
    return patch(
        "_records.py",
        '    return Invalid((memory_id if type(memory_id) is str else "", line_hash(raw)))',
        '    return Invalid(("", line_hash(raw)))',
    )


@mutant(
    "invalid-line-hash-keeps-cr",
    clauses=("S6-REC-11", "S6-OUT-18"),
    interpretations=("INT-19", "INT-14"),
)
def _() -> SourcePatch:
    """The raw-line hash of an invalid CRLF line includes the CR."""
    return patch(
        "_records.py",
        '    if raw[-1:] == b"\\r":\n        raw = raw[:-1]\n    return sha256_hex(raw)',
        "    return sha256_hex(raw)",
    )


@mutant("blank-lines-are-records", clauses=("S6-REC-01", "S6-REC-11"), interpretations=("INT-14",))
def _() -> SourcePatch:
    """Empty and whitespace-only lines are dropped as invalid_record_schema, not skipped."""
    return patch("_reader.py", "    return not line.strip(_BLANK)", "    return False")


@mutant("ts-offsets-converted", clauses=("S6-REC-04", "S6-SCORE-15"), interpretations=("INT-20",))
def _() -> SourcePatch:
    """ts_utc with a non-UTC offset (+02:00) is converted to UTC instead of being invalid."""
    return patch(
        "_records.py",
        _PARSE_TS,
        "def parse_ts(text: str) -> Any:\n"
        "    import re\n"
        "    from datetime import datetime, timedelta\n"
        "    parsed = parse_utc(text)\n"
        '    match = re.match(r"^(\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d)(\\.\\d{1,9})?'
        '([+-])(\\d\\d):(\\d\\d)$", text) if parsed is None else None\n'
        "    if match is None:\n"
        "        return parsed\n"
        "    base = parse_utc(f\"{match[1]}{match[2] or ''}Z\")\n"
        "    if base is None:\n"
        "        return None\n"
        '    sign = 1 if match[3] == "+" else -1\n'
        "    shift = sign * (int(match[4]) * 3600 + int(match[5]) * 60) * 10**9\n"
        "    ns = base[1] - shift\n"
        "    moment = datetime(1, 1, 1) + timedelta(microseconds=ns // 1000)\n"
        '    fraction = f"{ns % 10**9:09d}".rstrip("0")\n'
        '    stamp = moment.strftime("%Y-%m-%dT%H:%M:%S")\n'
        '    return stamp + (f".{fraction}" if fraction else "") + "Z", ns\n\n\n',
    )


@mutant("ts-not-normalized", clauses=("S6-READ-09", "S6-HASH-01"), interpretations=("INT-21",))
def _() -> SourcePatch:
    """The record's ts_utc enters record_hash as written, not in normalized form."""
    return patch(
        "_records.py",
        _PARSE_TS,
        "def parse_ts(text: str) -> Any:\n"
        "    parsed = parse_utc(text)\n"
        "    return None if parsed is None else (text, parsed[1])\n\n\n",
    )
