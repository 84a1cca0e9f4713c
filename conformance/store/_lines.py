"""One store line, judged twice: SPEC-005 record rules and the SPEC-006 reader's verdict.

Written from the spec texts and the registers only; like every harness module it never imports
`reference/` (the checker must judge the reference's writer as it judges a stranger's).  The
store-level rules (duplicate ids, corrections, the final LF) live in `conformance.store._check`.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from conformance.readings import parse_ts as _parse_ts
from conformance.store._forms import FORMS, PINNED, Features, first_difference, form_digests
from conformance.store._rules import BASE_FIELDS, CODES, SOURCES, STORE_TYPES, Level

__all__ = [
    "MAX_DEPTH",
    "Finding",
    "Parsed",
    "RecordCheck",
    "Verdict",
    "classify_timestamp",
    "is_blank",
    "parse_line",
    "record_findings",
    "spec006_verdict",
]

#: INT-18: "A line whose JSON nesting depth exceeds 64 is invalid"; the top-level object is 1.
MAX_DEPTH: Final = 64
_SAFE_INT: Final = 2**53 - 1

_TS_CACHE: dict[str, tuple[int, int, str] | None] = {}


def parse_ts(value: str) -> tuple[int, int, str] | None:
    """INT-20/21 (conformance.readings.parse_ts), remembered for the last few short strings: a
    line's created_at_utc and ts_utc (usually one string) are read up to three times."""
    if len(value) > 40:  # longer than any valid timestamp: not worth keeping
        return _parse_ts(value)
    try:
        return _TS_CACHE[value]
    except KeyError:
        if len(_TS_CACHE) >= 8:
            _TS_CACHE.clear()
        result = _TS_CACHE[value] = _parse_ts(value)
        return result


VerdictName = Literal["valid", "invalid_record_schema", "skipped", "unchecked"]
_PLAIN: Final = Features(floats=False, non_bmp_names=False, non_ascii=False)


@dataclass(frozen=True)
class Finding:
    """One finding on a line: code (conformance.store._rules.CODES, which fixes its level),
    the offending member or None for the whole line, and a message."""

    code: str
    field: str | None
    message: str

    @property
    def level(self) -> Level:
        """required, pinned or info (conformance.store._rules)."""
        return CODES[self.code].level

    @property
    def clause(self) -> str:
        """The S5-* / S6-* clause the code enforces."""
        return CODES[self.code].clause

    def to_json(self) -> dict[str, Any]:
        """The finding object of the JSON report."""
        return {
            "code": self.code,
            "level": self.level,
            "clause": self.clause,
            "field": self.field,
            "message": self.message,
        }


@dataclass(frozen=True)
class Verdict:
    """What a SPEC-006 reader does with the line, and the register rule that decides it."""

    verdict: VerdictName
    rule: str | None = None
    detail: str | None = None


@dataclass(frozen=True)
class Parsed:
    """A line parsed under INT-15..INT-17; `failure` = (rule, detail) when it is not JSON."""

    value: Any
    depth: int
    failure: tuple[str, str] | None
    features: Features = _PLAIN


def _show(value: Any, limit: int = 60) -> str:
    """An offending value as compact JSON, cut to `limit` characters (messages only)."""
    try:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


# ------------------------------------------------------------------------------ the line


def is_blank(line: bytes) -> bool:
    """INT-14: empty or only 0x20 / 0x09 / 0x0D bytes (a SPEC-006 reader skips it silently)."""
    return not line.strip(b" \t\r")


class _Overflow(ValueError):
    """INT-17: a number whose magnitude rounds to infinity."""


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")  # INT-15: NaN, Infinity


def _parse_int(digits: str) -> int | float:
    """INT-17: numbers are doubles; integers beyond 2**53-1 become the nearest double."""
    number = int(digits)
    if -_SAFE_INT <= number <= _SAFE_INT:
        return number
    try:
        return float(number)
    except OverflowError:
        raise _Overflow(digits[:20]) from None


def _parse_float(text: str) -> float:
    number = float(text)
    if math.isinf(number):
        raise _Overflow(text[:20])
    return number


def _walk(value: Any) -> tuple[int, bool, Features]:
    """(nesting depth, a lone surrogate somewhere?, the Features that decide the hash forms).

    Iterative (no recursion limit); ASCII strings, the common case, cost one C call each.
    """
    deepest = 0
    surrogate = floats = non_bmp_names = non_ascii = False
    stack: list[tuple[Any, int]] = [(value, 1)]
    pop, push = stack.pop, stack.append
    while stack:
        node, depth = pop()
        kind = type(node)
        if kind is str:
            if not node.isascii():
                non_ascii = True
                surrogate = surrogate or _has_surrogate(node)
        elif kind is dict:
            deepest = max(deepest, depth)
            for key, item in node.items():
                if not key.isascii():
                    non_ascii = True
                    surrogate = surrogate or _has_surrogate(key)
                    non_bmp_names = non_bmp_names or max(key) > "\uffff"
                push((item, depth + 1))
        elif kind is list:
            deepest = max(deepest, depth)
            push_depth = depth + 1
            stack.extend((item, push_depth) for item in node)
        elif kind is float:
            floats = True
    return deepest, surrogate, Features(floats, non_bmp_names, non_ascii)


def _has_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _surrogate_path(value: Any) -> str:
    """The JSON Pointer-like path of the first string (or name) holding a lone surrogate."""
    stack: list[tuple[Any, str]] = [(value, "")]
    while stack:
        node, path = stack.pop()
        if isinstance(node, str):
            if _has_surrogate(node):
                return path or "/"
        elif isinstance(node, dict):
            for key, item in node.items():
                stack.append((key, path + "/" + key))
                stack.append((item, path + "/" + key))
        elif isinstance(node, list):
            stack.extend((item, f"{path}/{i}") for i, item in enumerate(node))
    return "/"  # pragma: no cover - only called when _walk found one


def parse_line(line: bytes) -> Parsed:
    """Parse one line (LF removed, a CR may remain) under INT-15 (strict UTF-8, no BOM, one
    RFC 8259 text, no NaN/Infinity, no lone surrogates), INT-16 (last duplicate name wins) and
    INT-17 (doubles; overflow is an error).  Depth is measured, not judged (INT-18 is SPEC-006's
    limit, not SPEC-005's)."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as exc:
        return Parsed(None, 0, ("INT-15", f"not valid UTF-8 (byte {exc.start})"))
    if text.startswith("\ufeff"):
        return Parsed(None, 0, ("INT-15", "starts with a UTF-8 BOM (U+FEFF is not JSON)"))
    try:
        value = json.loads(
            text,
            object_pairs_hook=dict,  # INT-16: dict(pairs) keeps the last occurrence of a name
            parse_constant=_reject_constant,
            parse_int=_parse_int,
            parse_float=_parse_float,
        )
    except _Overflow as exc:
        return Parsed(None, 0, ("INT-17", f"number {exc} overflows a double"))
    except RecursionError:
        return Parsed(None, 0, ("INT-18", "nested beyond the parser's limit"))
    except ValueError as exc:
        return Parsed(None, 0, ("INT-15", f"not one JSON text: {str(exc)[:80]}"))
    depth, surrogate, features = _walk(value)
    if surrogate:
        where = _surrogate_path(value)
        return Parsed(None, depth, ("INT-15", f"lone surrogate escape at {_show(where)}"))
    return Parsed(value, depth, None, features)


# ------------------------------------------------------------------------------ SPEC-006


def spec006_verdict(parsed: Parsed) -> Verdict:
    """S6-REC-10: "If a record fails schema validation, it MUST be ignored and counted as
    dropped with reason: "invalid_record_schema"", with the failing rule (INT-15..INT-22)."""
    if parsed.failure is not None:
        return Verdict("invalid_record_schema", *parsed.failure)
    if parsed.depth > MAX_DEPTH:
        return Verdict("invalid_record_schema", "INT-18", f"nesting depth {parsed.depth} > 64")
    obj = parsed.value
    if not isinstance(obj, dict):
        # S6-REC-01: "A JSONL line is one JSON object (UTF-8)."
        return Verdict(
            "invalid_record_schema", "INT-15", f"the value is {_json_kind(obj)}, not an object"
        )
    problems: list[str] = []
    # INT-22: memory_id present and a string, "" included (S6-REC-03); null is a wrong type.
    memory_id = obj.get("memory_id")
    if "memory_id" not in obj:
        problems.append("memory_id missing")
    elif not isinstance(memory_id, str):
        problems.append(f"memory_id is {_json_kind(memory_id)}, not a string")
    # S6-REC-05: "text: string (required"
    if "text" not in obj:
        problems.append("text missing")
    elif not isinstance(obj["text"], str):
        problems.append(f"text is {_json_kind(obj['text'])}, not a string")
    # S6-REC-07: "tags: list[string] (optional)"
    if "tags" in obj:
        tags = obj["tags"]
        if not isinstance(tags, list):
            problems.append(f"tags is {_json_kind(tags)}, not an array")
        else:
            problems.extend(
                f"tags[{i}] is {_json_kind(t)}, not a string"
                for i, t in enumerate(tags)
                if not isinstance(t, str)
            )
    # S6-REC-09: "if present MUST be list[dict]"; SPEC-005 string refs land here (INT-24).
    if "refs" in obj:
        refs = obj["refs"]
        if not isinstance(refs, list):
            problems.append(f"refs is {_json_kind(refs)}, not an array")
        else:
            problems.extend(
                f"refs[{i}] is {_json_kind(r)}, not an object"
                + (" (SPEC-005 string ref, INT-24)" if isinstance(r, str) else "")
                for i, r in enumerate(refs)
                if not isinstance(r, dict)
            )
    # S6-REC-04 / INT-20: a ts_utc that is not a string invalidates the record.
    if "ts_utc" in obj and not isinstance(obj["ts_utc"], str):
        problems.append(f"ts_utc is {_json_kind(obj['ts_utc'])}, not a string")
    if problems:
        return Verdict("invalid_record_schema", "INT-22", "; ".join(problems))
    return Verdict("valid")


def _json_kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return "an object"


# ------------------------------------------------------------------------------ SPEC-005

# A date-time with any (or no) offset: what a writer plausibly meant as a timestamp.  INT-20
# (via conformance.readings.parse_ts) decides validity; this only tells a non-UTC offset apart
# from garbage.
_LOOSE_TS: Final = re.compile(
    r"(?P<date>[0-9]{4}-[0-9]{2}-[0-9]{2})T(?P<time>[0-9]{2}:[0-9]{2}:[0-9]{2})"
    r"(?:\.[0-9]{1,9})?(?P<offset>Z|[+-][0-9]{2}:?[0-9]{2}|[+-][0-9]{2})?"
)


def classify_timestamp(value: str) -> tuple[str, str] | None:
    """None for a valid UTC timestamp (INT-20); else (code, reason): `non-utc-timestamp` for a
    well-formed date-time whose offset is not Z / +00:00, `bad-timestamp` for anything else."""
    if parse_ts(value) is not None:
        return None
    loose = _LOOSE_TS.fullmatch(value)
    if loose is not None:
        offset = loose["offset"]
        as_utc = f"{loose['date']}T{loose['time']}Z"
        if offset != "Z" and parse_ts(as_utc) is not None:
            if offset is None:
                return "non-utc-timestamp", "no UTC offset (a local time)"
            if offset in ("+00", "+0000"):
                return "bad-timestamp", f"offset {offset} is UTC, but INT-20 allows only Z, +00:00"
            if offset in ("-00", "-0000", "-00:00"):
                return "non-utc-timestamp", "offset -00:00 means 'UTC time, local offset unknown'"
            return "non-utc-timestamp", f"offset {offset} is not UTC"
    return "bad-timestamp", "not YYYY-MM-DDThh:mm:ss[.f]Z (INT-20)"


def _field_findings(obj: dict[str, Any]) -> list[Finding]:
    """S5-REC-02: every base field present with its JSON type; then each value's rule."""
    found: list[Finding] = []
    for name, kind, _clause in BASE_FIELDS:
        if name not in obj:
            found.append(Finding("missing-field", name, f"required field {name} is absent"))
            continue
        value = obj[name]
        ok = isinstance(value, str) if kind == "string" else isinstance(value, list)
        if not ok:
            found.append(
                Finding("wrong-type", name, f"{name} must be a {kind}, got {_show(value)}")
            )
    tags = obj.get("tags")
    if isinstance(tags, list):
        found.extend(
            Finding("wrong-type", f"tags[{i}]", f"a tag must be a string, got {_show(t)}")
            for i, t in enumerate(tags)
            if not isinstance(t, str)
        )
    refs = obj.get("refs")
    if isinstance(refs, list):
        # S5-REC-09 says only "optional pointers (run_id, receipt_id, file path)": a string or
        # an object is a pointer; numbers, booleans, null and arrays are not.
        found.extend(
            Finding("wrong-type", f"refs[{i}]", f"a ref must be a string or object, got {_show(r)}")
            for i, r in enumerate(refs)
            if not isinstance(r, str | dict)
        )
    if obj.get("memory_id") == "":
        found.append(Finding("empty-memory-id", "memory_id", "memory_id is the empty string"))
    kind_value = obj.get("type")
    if isinstance(kind_value, str) and kind_value not in STORE_TYPES:
        found.append(
            Finding("bad-type-value", "type", f"type {_show(kind_value)} is not one of "
                    "episodic, procedural, semantic")
        )  # fmt: skip
    source = obj.get("source")
    if isinstance(source, str) and source not in SOURCES:
        found.append(
            Finding("bad-source", "source", f"source {_show(source)} is not user or system")
        )
    created = obj.get("created_at_utc")
    if isinstance(created, str):
        problem = classify_timestamp(created)
        if problem is not None:
            found.append(Finding(problem[0], "created_at_utc", f"{_show(created)}: {problem[1]}"))
    return found


def _show_hash(stored: str) -> str:
    """A stored hash in full, in quotes; only an absurdly long one is cut (and says so)."""
    if len(stored) <= 128:
        return json.dumps(stored, ensure_ascii=False)
    return json.dumps(stored[:64], ensure_ascii=False)[:-1] + f'..." ({len(stored)} characters)'


_TITLES: Final = {form.name: form.title for form in FORMS}


def _hash_findings(
    obj: dict[str, Any], line: bytes, features: Features
) -> tuple[list[Finding], tuple[str, ...] | None]:
    """S5-INT-03 / INT-47: the stored hash against RFC 8785 first, then the other known forms.

    Returns the findings and the forms the hash matches (None when there is no string hash).
    """
    stored = obj.get("hash")
    if not isinstance(stored, str):
        return [], None  # missing-field / wrong-type already say so
    checked = form_digests(obj, line, features, stored)
    if PINNED in checked.matches:
        return [], checked.matches
    pinned = checked.digests.get(PINNED, "(none: the record is too deeply nested)")
    if checked.matches:
        # INT-47: intact under a form the register names, not under the pinned one.
        form = checked.matches[0]
        also = ", ".join(checked.matches[1:])
        named = f"the {form} form ({_TITLES[form]})" + (f", also {also}," if also else "")
        message = f"hash matches {named}, not RFC 8785, the form INT-47 pins"
        if PINNED in checked.serialized:
            at, pinned_text, form_text = first_difference(
                checked.serialized[PINNED], checked.serialized[form]
            )
            message += (
                f"; from byte {at} of the hashed bytes RFC 8785 writes {pinned_text!r} where "
                f"{form} writes {form_text!r}"
            )
        return [Finding("hash-alternative-form", "hash", message)], checked.matches
    upper = [name for name, digest in checked.digests.items() if stored.lower() == digest]
    note = f" (the {upper[0]} digest in uppercase hex; INT-47 pins lowercase)" if upper else ""
    message = (
        f"hash {_show_hash(stored)} matches no known canonical form; "
        f'RFC 8785 (INT-47) gives "{pinned}"{note}'
    )
    return [Finding("hash-mismatch", "hash", message)], ()


def _cross_findings(obj: dict[str, Any]) -> list[Finding]:
    """INT-24: a record meant for both specs carries ts_utc equal to created_at_utc."""
    if "ts_utc" not in obj:
        return [
            Finding(
                "ts-utc-missing",
                "ts_utc",
                "no ts_utc: a SPEC-006 reader sees no timestamp (it does not read "
                "created_at_utc, INT-24); ts_utc is optional, so no spec is broken",
            )
        ]
    ts = obj["ts_utc"]
    if not isinstance(ts, str):
        return []  # spec006-invalid says so
    parsed_ts = parse_ts(ts)
    if parsed_ts is None:
        return [Finding("ts-utc-invalid", "ts_utc", f"{_show(ts)} is not a UTC timestamp (INT-20)")]
    created = obj.get("created_at_utc")
    parsed_created = parse_ts(created) if isinstance(created, str) else None
    if parsed_created is not None and parsed_created[:2] != parsed_ts[:2]:
        return [
            Finding(
                "ts-utc-mismatch",
                "ts_utc",
                f"ts_utc {parsed_ts[2]} != created_at_utc {parsed_created[2]}",
            )
        ]
    return []


@dataclass(frozen=True)
class RecordCheck:
    """A non-blank line's SPEC-005 and cross-spec findings, and the forms its hash matches
    (None: no string hash to check; (): matches no known form)."""

    findings: list[Finding] = field(default_factory=list)
    hash_forms: tuple[str, ...] | None = None


def record_findings(parsed: Parsed, store_type: str | None, line: bytes) -> RecordCheck:
    """Every SPEC-005 and cross-spec finding for one non-blank line (store rules excluded).

    `store_type` is the type the store's file name implies (S5-LOC-01), or None; `line` is the
    line's bytes (the hash forms other than RFC 8785 re-parse it).
    """
    if parsed.failure is not None:
        return RecordCheck([Finding("not-json", None, parsed.failure[1])])
    obj = parsed.value
    if not isinstance(obj, dict):
        return RecordCheck(
            [Finding("not-object", None, f"the line is {_json_kind(obj)}, not an object")]
        )
    found = _field_findings(obj)
    kind_value = obj.get("type")
    if store_type is not None and kind_value in STORE_TYPES and kind_value != store_type:
        found.append(
            Finding(
                "type-store-mismatch", "type", f"a {kind_value} record in the {store_type} store"
            )
        )
    hash_found, forms = _hash_findings(obj, line, parsed.features)
    found.extend(hash_found)
    found.extend(_cross_findings(obj))
    return RecordCheck(found, forms)
