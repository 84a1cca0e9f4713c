"""Independent oracle for SPEC-006 ``memory.read`` (contract phase6-v1).

Written from specs/seeds/SPEC-006.txt, specs/interpretations.toml (INT-xx) and specs/errors.md
only, never from the reference implementation, so that the vector generator can confirm each
expected result a second time. Clarity beats speed: every spec step is one small function with
the text it implements quoted in its docstring or comments.

Where the spec and the register still leave a choice that a request can reach, the oracle raises
:class:`OracleUndefined` instead of guessing (callers must not turn such inputs into vectors).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import stat
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import rfc8785

CONTROLLER_VERSION = "phase6-v1"
SAFE_INT = 2**53 - 1  # INT-41 / INT-17: the interoperable integer range of a double
MAX_DEPTH = 64  # INT-18
NS_PER_DAY = 86_400 * 10**9


class OracleUndefined(Exception):
    """The input lies outside what the spec and the register decide; the oracle has no answer."""


class _InvalidLine(Exception):
    """Internal: a JSON text or record breaks INT-15..INT-18 / INT-22."""


# ------------------------------------------------------------------------------------ errors

# errors.md: {"error": {"code", "message", "path", "clause"}}. The clause is the closest one in
# specs/clauses.toml, by error code or else by member; otherwise S6-ERR-01 ("MUST fail fast with
# structured errors"), e.g. for a non-object request or an unknown member.
_CLAUSE = {
    "invalid_query": "S6-ERR-02",
    "invalid_store_paths": "S6-ERR-03",
    "/budget": "S6-ERR-04",
    "/budget/max_excerpt_tokens": "S6-ERR-04",
    "/budget/per_item_max_excerpt_tokens": "S6-INPUT-04",
    "/budget/max_items": "S6-INPUT-05",
    "/scoring/enable_recency_weight": "S6-INPUT-07",
    "/scoring/recency_half_life_days": "S6-INPUT-08",
    "/scoring/enable_tag_overlap": "S6-INPUT-10",
    "/scoring/query_terms": "S6-INPUT-11",
    "/trust_filter/deny_classifications": "S6-INPUT-12",
    "/trust_filter/trust_snapshot_path": "S6-INPUT-13",
    "invalid_now_utc": "S6-INPUT-14",
    "store_not_found": "S6-ERR-05",
    "store_not_readable": "S6-ERR-01",
    "trust_snapshot_not_found": "S6-TRUST-03",
    "invalid_trust_snapshot": "S6-INPUT-13",
}


class RequestError(Exception):
    """A SPEC-006 structured error; the first failure wins (errors.md precedence)."""

    def __init__(self, code: str, path: str, message: str) -> None:
        super().__init__(message)
        self.code, self.path, self.message = code, path, message

    def envelope(self) -> dict[str, Any]:
        member = "/".join(self.path.split("/")[:3])  # "/scoring/query_terms/3" -> member
        clause = _CLAUSE.get(self.code) or _CLAUSE.get(member, "S6-ERR-01")
        error = {"code": self.code, "message": self.message, "path": self.path}
        return {"error": error | {"clause": clause}}


def _pointer(*tokens: str | int) -> str:
    """RFC 6901 JSON Pointer: '~' -> '~0', '/' -> '~1'."""
    return "".join("/" + str(t).replace("~", "~0").replace("/", "~1") for t in tokens)


# ---------------------------------------------------------------------- whitespace and case

# INT-05: "Whitespace is exactly the 25 code points with the Unicode White_Space property".
_WS_SINGLES = (0x20, 0x85, 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000)
WHITE_SPACE = frozenset(map(chr, (*range(0x09, 0x0E), *range(0x2000, 0x200B), *_WS_SINGLES)))
assert len(WHITE_SPACE) == 25


def strip_ws(s: str) -> str:
    """INT-31 / TRUNCATION: 'strip leading/trailing whitespace' (White_Space only)."""
    start, end = 0, len(s)
    while start < end and s[start] in WHITE_SPACE:
        start += 1
    while end > start and s[end - 1] in WHITE_SPACE:
        end -= 1
    return s[start:end]


def split_ws(s: str) -> list[str]:
    """Split on runs of White_Space, dropping empty pieces."""
    spaced = "".join(" " if ch in WHITE_SPACE else ch for ch in s)
    return [piece for piece in spaced.split(" ") if piece != ""]


def normalize_text(s: str) -> str:
    """HASHING: 'trim, collapse internal whitespace to single spaces, lowercased' (INT-05/06/09)."""
    # INT-06: Unicode default full lowercase mapping == str.lower().
    return " ".join(split_ws(s)).lower()


# ------------------------------------------------------------------------------ timestamps

# INT-20: YYYY-MM-DD 'T' hh:mm:ss [ '.' 1*9DIGIT ] ( 'Z' / '+00:00' ), ASCII digits only.
_TS = re.compile(
    r"([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})"
    r"(?:\.([0-9]{1,9}))?(?:Z|\+00:00)"
)


def _days_in_month(year: int, month: int) -> int:
    if month == 2:
        leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)  # Gregorian rule
        return 29 if leap else 28
    return 30 if month in (4, 6, 9, 11) else 31


def _days_before_year(year: int) -> int:
    """Days from 0001-01-01 to year-01-01 (proleptic Gregorian)."""
    y = year - 1
    return y * 365 + y // 4 - y // 100 + y // 400


def _days_before_month(year: int, month: int) -> int:
    return sum(_days_in_month(year, m) for m in range(1, month))


def parse_ts(value: str) -> tuple[int, int, str] | None:
    """INT-20/21: (seconds since 0001-01-01, nanoseconds, normalized string) or None if invalid."""
    m = _TS.fullmatch(value)
    if m is None:
        return None
    year, month, day, hh, mi, ss = (int(g) for g in m.groups()[:6])
    frac = m.group(7) or ""
    if not (1 <= year <= 9999 and 1 <= month <= 12):
        return None
    if not (1 <= day <= _days_in_month(year, month)):
        return None
    if hh > 23 or mi > 59 or ss > 59:  # no leap second
        return None
    days = _days_before_year(year) + _days_before_month(year, month) + day - 1
    seconds = days * 86_400 + hh * 3600 + mi * 60 + ss
    nanos = int(frac.ljust(9, "0"))
    # INT-21: fraction digits without trailing zeros (nothing when all zeros), then 'Z'.
    digits = frac.rstrip("0")
    normalized = value[:19] + ("." + digits if digits else "") + "Z"
    return seconds, nanos, normalized


# ------------------------------------------------------------------------------ JSON rules


def _reject_constant(name: str) -> object:
    raise _InvalidLine(f"{name} is not JSON")  # INT-15: NaN, Infinity are not JSON


def _parse_int(digits: str) -> int | float:
    """INT-17: every number is the nearest double; ints outside the JCS-safe range become floats."""
    n = int(digits)
    return n if -SAFE_INT <= n <= SAFE_INT else float(n)  # OverflowError -> invalid


def _parse_float(text: str) -> float:
    f = float(text)
    if math.isinf(f):  # INT-17: "a number whose magnitude rounds to infinity ... invalid"
        raise _InvalidLine("number out of range")
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
                raise _InvalidLine("lone surrogate") from None
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
        raise _InvalidLine("not UTF-8") from None
    if text.startswith("\ufeff"):
        raise _InvalidLine("BOM")  # U+FEFF is not JSON whitespace
    try:
        value = json.loads(
            text,
            object_pairs_hook=_last_wins,  # the last occurrence of a name wins
            parse_constant=_reject_constant,
            parse_int=_parse_int,
            parse_float=_parse_float,
        )
    except (ValueError, RecursionError, OverflowError):
        raise _InvalidLine("not JSON") from None
    _check_tree(value)
    if _text_depth(text) > MAX_DEPTH:  # INT-18: a property of the text
        raise _InvalidLine("nesting too deep")
    return value


def canonical(value: Any) -> bytes:
    """INT-01: RFC 8785 JCS bytes."""
    return rfc8785.dumps(value)


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# ------------------------------------------------------------------------------ paths


def normalize_path(path: str) -> str:
    """INT-12: lexical POSIX normalization, no filesystem access."""
    absolute = path.startswith("/")
    segments: list[str] = []
    for seg in path.split("/"):
        if seg in ("", "."):  # collapse repeated '/', remove '.' segments, trailing '/'
            continue
        if seg == "..":
            if segments and segments[-1] != "..":
                segments.pop()  # resolve against the preceding segment
            elif not absolute:
                segments.append("..")  # leading '..' of a relative path is kept
            # '..' at the root of an absolute path is dropped
            continue
        segments.append(seg)
    body = "/".join(segments)
    if absolute:
        return "/" + body
    return body or "."  # oracle choice: an empty relative result is "."


def _on_disk(root: Path, normalized: str) -> Path:
    """INT-45: relative paths resolve against the root (joined, no chdir)."""
    return Path(normalized) if normalized.startswith("/") else root / normalized


def _read_regular_file(path: Path) -> bytes | None:
    """Return the bytes, or None when the path does not exist; OSError when not readable."""
    try:
        info = os.stat(path)  # follows symlinks
    except (FileNotFoundError, NotADirectoryError):
        return None
    except ValueError as exc:  # e.g. an embedded NUL
        raise OracleUndefined(f"unusable path {str(path)!r}") from exc
    if not stat.S_ISREG(info.st_mode):
        raise OSError(f"{path} is not a regular file")  # INT-13: "a directory, a FIFO"
    with open(path, "rb") as handle:
        return handle.read()


# ------------------------------------------------------------------------- request checks


@dataclass(frozen=True)
class Options:
    """A checked request with the INPUT CONTRACT defaults applied (S6-DET-01)."""

    query: str
    store_paths: list[str]
    max_tokens: int
    per_item: int
    max_items: int
    recency: bool
    half_life: int
    tag_overlap: bool
    query_terms: list[str] | None
    deny: list[str]
    snapshot: str | None
    now: tuple[int, int, str] | None


def _as_int(value: object) -> int | None:
    """INT-41: an integral JSON number within +-(2**53-1); never a bool or a string."""
    if isinstance(value, bool):
        return None
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        value = int(value)  # 10.0 and 1e1 are the integer 10
    if isinstance(value, int) and -SAFE_INT <= value <= SAFE_INT:
        return value
    return None


def _positive_int(group: dict[str, Any], name: str, default: int, code: str, where: str) -> int:
    """'int (required, > 0)' / INT-30, INT-36: every budget and half-life integer is >= 1."""
    if name not in group:
        return default
    value = _as_int(group[name])
    if value is None:
        raise RequestError(code, _pointer(where, name), f"{where}.{name} must be an integer")
    if value <= 0:
        raise RequestError(code, _pointer(where, name), f"{where}.{name} must be > 0")
    return value


def _bool(group: dict[str, Any], name: str, default: bool) -> bool:
    if name not in group:
        return default
    if not isinstance(group[name], bool):
        raise RequestError("invalid_scoring", _pointer("scoring", name), f"{name} must be a bool")
    return bool(group[name])


def _reject_unknown(group: dict[str, Any], known: tuple[str, ...], code: str, *where: str) -> None:
    """INT-42: unknown members are errors, the first in code-point order reported."""
    unknown = sorted(set(group) - set(known))
    if unknown:
        raise RequestError(code, _pointer(*where, unknown[0]), f"unknown member {unknown[0]!r}")


def _well_formed(value: str) -> bool:
    """INT-42: a request string must be valid Unicode (no lone surrogate)."""
    return not any(0xD800 <= ord(ch) <= 0xDFFF for ch in value)


def _string_list(value: object, code: str, path: str) -> list[str]:
    """'list[string]': an array whose elements are all (well-formed) strings."""
    if not isinstance(value, list):
        raise RequestError(code, path, f"{path} must be an array of strings")
    for i, item in enumerate(value):
        if not isinstance(item, str) or not _well_formed(item):
            raise RequestError(code, f"{path}/{i}", f"{path} must be an array of strings")
    return list(value)


def _group(request: dict[str, Any], name: str, code: str, required: bool) -> dict[str, Any]:
    """A member group (budget / scoring / trust_filter): 'null is never absent' (INT-42)."""
    if name not in request and not required:
        return {}
    group = request.get(name)
    if not isinstance(group, dict):
        raise RequestError(code, _pointer(name), f"{name} must be an object")
    return group


def check_query(request: dict[str, Any]) -> str:
    """(2) 'query: string (required, non-empty after trim)'; ERROR 'query missing/empty'."""
    query = request.get("query")
    if not isinstance(query, str) or not _well_formed(query) or strip_ws(query) == "":
        raise RequestError("invalid_query", "/query", "query must be a non-empty string")
    return query


def check_store_paths(request: dict[str, Any]) -> list[str]:
    """(3) 'store_paths: list[string] (required, non-empty ...)'; 'store_paths missing/empty'."""
    paths = request.get("store_paths")
    if not isinstance(paths, list) or not paths:
        raise RequestError("invalid_store_paths", "/store_paths", "store_paths must be non-empty")
    for i, path in enumerate(paths):
        if not isinstance(path, str) or path == "" or not _well_formed(path):
            where = f"/store_paths/{i}"
            raise RequestError(
                "invalid_store_paths", where, "a store path must be a non-empty string"
            )
    return list(paths)


def check_budget(request: dict[str, Any]) -> tuple[int, int, int]:
    """(4) budget: max_excerpt_tokens (required, > 0), per_item_max_excerpt_tokens, max_items."""
    budget = _group(request, "budget", "invalid_budget", required=True)
    if "max_excerpt_tokens" not in budget:
        raise RequestError(
            "invalid_budget", "/budget/max_excerpt_tokens", "budget.max_excerpt_tokens is required"
        )
    max_tokens = _positive_int(budget, "max_excerpt_tokens", 0, "invalid_budget", "budget")
    # "optional, defaults to max_excerpt_tokens" / "optional, defaults to 50; hard cap"
    per_item = _positive_int(
        budget, "per_item_max_excerpt_tokens", max_tokens, "invalid_budget", "budget"
    )
    max_items = _positive_int(budget, "max_items", 50, "invalid_budget", "budget")
    _reject_unknown(budget, _BUDGET, "invalid_budget", "budget")
    return max_tokens, per_item, max_items


def check_scoring(request: dict[str, Any]) -> tuple[bool, int, bool, list[str] | None]:
    """(5) scoring, members in spec order; INT-36: the half-life is checked even if unused."""
    scoring = _group(request, "scoring", "invalid_scoring", required=False)
    recency = _bool(scoring, "enable_recency_weight", False)
    half_life = _positive_int(scoring, "recency_half_life_days", 30, "invalid_scoring", "scoring")
    tag_overlap = _bool(scoring, "enable_tag_overlap", True)
    terms = None
    if "query_terms" in scoring:
        terms = _string_list(scoring["query_terms"], "invalid_scoring", "/scoring/query_terms")
    _reject_unknown(scoring, _SCORING, "invalid_scoring", "scoring")
    return recency, half_life, tag_overlap, terms


def check_trust_filter(request: dict[str, Any]) -> tuple[list[str], str | None]:
    """(6) trust_filter: deny_classifications (default ["malicious"]), trust_snapshot_path."""
    trust = _group(request, "trust_filter", "invalid_trust_filter", required=False)
    deny = ["malicious"]
    if "deny_classifications" in trust:
        # errors.md: /trust_filter/deny_classifications/<i> for a bad element.
        where = "/trust_filter/deny_classifications"
        deny = _string_list(trust["deny_classifications"], "invalid_trust_filter", where)
    snapshot = trust.get("trust_snapshot_path")
    if "trust_snapshot_path" in trust and (
        not isinstance(snapshot, str) or snapshot == "" or not _well_formed(snapshot)
    ):
        where = "/trust_filter/trust_snapshot_path"
        raise RequestError("invalid_trust_filter", where, "trust_snapshot_path must be non-empty")
    _reject_unknown(trust, _TRUST, "invalid_trust_filter", "trust_filter")
    return deny, snapshot


def check_now_utc(request: dict[str, Any]) -> tuple[int, int, str] | None:
    """(7) 'now_utc: string (optional ISO8601 UTC timestamp)', INT-20 grammar (INT-36)."""
    if "now_utc" not in request:
        return None
    raw = request["now_utc"]
    now = parse_ts(raw) if isinstance(raw, str) else None
    if now is None:
        raise RequestError("invalid_now_utc", "/now_utc", "now_utc must be a UTC timestamp")
    return now


def check_request(request: object) -> Options:
    """errors.md checks 1-8, in this order; the first failure wins (INT-40)."""
    if not isinstance(request, dict):  # (1)
        raise RequestError("invalid_request", "", "request must be a JSON object")
    query = check_query(request)
    store_paths = check_store_paths(request)
    max_tokens, per_item, max_items = check_budget(request)
    recency, half_life, tag_overlap, terms = check_scoring(request)
    deny, snapshot = check_trust_filter(request)
    now = check_now_utc(request)
    _reject_unknown(request, _TOP, "invalid_request")  # (8) unknown top-level members
    return Options(
        query, store_paths, max_tokens, per_item, max_items, recency, half_life, tag_overlap,
        terms, deny, snapshot, now,
    )  # fmt: skip


_TOP = ("query", "store_paths", "budget", "scoring", "trust_filter", "now_utc")
_BUDGET = ("max_excerpt_tokens", "per_item_max_excerpt_tokens", "max_items")
_SCORING = ("enable_recency_weight", "recency_half_life_days", "enable_tag_overlap", "query_terms")
_TRUST = ("deny_classifications", "trust_snapshot_path")


# --------------------------------------------------------------------- filesystem checks


def _require_unicode(value: str, what: str) -> None:
    """A lone surrogate cannot be UTF-8 encoded, opened or hashed: no answer (OracleUndefined)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise OracleUndefined(f"{what} is not valid Unicode") from None


def read_stores(store_paths: list[str], root: Path) -> list[tuple[str, bytes]]:
    """READER 1) 'store_paths MUST be normalized and sorted lexicographically before read'.

    INT-12: deduplicated, code-point order. errors.md 9/10: checked in that order, first failure
    wins, path = index of the first request element that normalizes to it.
    """
    first_index: dict[str, int] = {}
    for i, sp in enumerate(store_paths):
        first_index.setdefault(normalize_path(sp), i)
    stores: list[tuple[str, bytes]] = []
    for normalized in sorted(first_index):
        where = f"/store_paths/{first_index[normalized]}"
        _require_unicode(normalized, "store path")
        try:
            data = _read_regular_file(_on_disk(root, normalized))
        except OSError:
            raise RequestError(
                "store_not_readable", where, f"store {normalized!r} is not a readable file"
            ) from None
        if data is None:
            raise RequestError("store_not_found", where, f"store {normalized!r} does not exist")
        stores.append((normalized, data))
    return stores


def read_trust_snapshot(snapshot_path: str, root: Path) -> list[dict[str, Any]]:
    """INT-38: {"format": "phase6-trust/1", "entries": [{memory_id?, record_hash?, classification}]}

    errors.md 11/12: does not exist -> trust_snapshot_not_found; not a regular readable file or
    not a valid document -> invalid_trust_snapshot.
    """
    where = "/trust_filter/trust_snapshot_path"
    normalized = normalize_path(snapshot_path)
    _require_unicode(normalized, "trust_snapshot_path")
    bad = RequestError("invalid_trust_snapshot", where, "trust snapshot is not valid")
    try:
        data = _read_regular_file(_on_disk(root, normalized))
    except OSError:
        raise bad from None
    if data is None:
        raise RequestError("trust_snapshot_not_found", where, "trust snapshot does not exist")
    try:
        doc = parse_json_text(data)
    except _InvalidLine:
        raise bad from None
    if not isinstance(doc, dict) or doc.get("format") != "phase6-trust/1":
        raise bad
    entries = doc.get("entries")
    if not isinstance(entries, list):
        raise bad
    for entry in entries:
        if not isinstance(entry, dict) or not isinstance(entry.get("classification"), str):
            raise bad
        keys = [k for k in ("memory_id", "record_hash") if k in entry]
        if not keys or not all(isinstance(entry[k], str) for k in keys):
            raise bad  # "Each entry names at least one of memory_id and record_hash"
    return entries


# -------------------------------------------------------------------------- store reading


def split_lines(data: bytes) -> list[bytes]:
    """INT-14: split on LF only; a trailing LF makes no extra line; one CR before LF removed."""
    pieces = data.split(b"\n")
    if pieces[-1] == b"":
        pieces.pop()
    return [p[:-1] if p.endswith(b"\r") else p for p in pieces]


def is_blank(line: bytes) -> bool:
    """INT-14: empty or only 0x20 / 0x09 / 0x0D bytes: skipped silently."""
    return all(b in b" \t\r" for b in line)


def normalize_record(obj: dict[str, Any]) -> dict[str, Any]:
    """INT-22 schema; READER 'Candidate normalization must produce' (minus store_path)."""
    memory_id, text = obj.get("memory_id"), obj.get("text")
    if not isinstance(memory_id, str) or memory_id == "":
        raise _InvalidLine("memory_id")
    if not isinstance(text, str):
        raise _InvalidLine("text")
    tags = obj.get("tags", [])
    if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
        raise _InvalidLine("tags")
    refs = obj.get("refs", [])
    if not isinstance(refs, list) or not all(isinstance(r, dict) for r in refs):
        raise _InvalidLine("refs")  # "if present MUST be list[dict]"
    record: dict[str, Any] = {
        "memory_id": memory_id,
        "text": text,  # INT-02: as read, not stripped
        # INT-25: lowercase each, then unique, then code-point sort
        "tags": sorted({t.lower() for t in tags}),
        "refs": refs,
    }
    if "ts_utc" in obj:
        if not isinstance(obj["ts_utc"], str):
            raise _InvalidLine("ts_utc")  # INT-20: a non-string ts_utc is a schema error
        parsed = parse_ts(obj["ts_utc"])
        if parsed is not None:  # an invalid string is "no ts_utc", not an invalid record
            record["ts_utc"] = parsed[2]
            record["_instant"] = parsed[:2]
    return record


def record_hash(record: dict[str, Any]) -> str:
    """INT-02: SHA-256 of JCS({memory_id, refs, tags, text, ts_utc?})."""
    hashed = {k: record[k] for k in ("memory_id", "refs", "tags", "text", "ts_utc") if k in record}
    return sha256_hex(canonical(hashed))


def read_line(line: bytes) -> dict[str, Any]:
    """One non-blank line -> a candidate, or {'invalid': memory_id} (INT-15, INT-19)."""
    try:
        value = parse_json_text(line)
    except _InvalidLine:
        return {"invalid": ""}
    if not isinstance(value, dict):
        return {"invalid": ""}
    try:
        record = normalize_record(value)
    except _InvalidLine:
        mid = value.get("memory_id")
        return {"invalid": mid if isinstance(mid, str) else ""}
    record["record_hash"] = record_hash(record)
    return record


# ------------------------------------------------------------------------------- scoring


def derive_terms(query: str) -> list[str]:
    """SCORING 'Query term derivation (if scoring.query_terms absent)' steps 1-5."""
    normalized = normalize_text(query)  # 1) normalize query: trim, lower, collapse whitespace
    terms = split_ws(normalized)  # 2) split on whitespace  3) drop empty terms
    terms = [t for t in terms if len(t) >= 2]  # 4) keep terms length >= 2 (code points, INT-07)
    return list(dict.fromkeys(terms))  # 5) appearance order, then unique (first wins)


def supplied_terms(terms: list[str]) -> list[str]:
    """INT-08: each supplied term normalized like the query; empties removed; first wins."""
    normalized = [normalize_text(t) for t in terms]
    return list(dict.fromkeys(t for t in normalized if t != ""))


def pow_half(exponent: float) -> float:
    """INT-04: weight = pow(0.5, exponent), which MUST be the correctly rounded double.

    Platform pow is not correctly rounded (glibc misses ~0.1% of exponents, V8 ~10%), so the
    oracle evaluates 2**-exponent with mpmath at 80 digits and rounds once to a double.
    """
    import mpmath  # the generator's dependency group; only recency needs it

    with mpmath.workdps(80):
        return float(mpmath.power(2, -mpmath.mpf(exponent)))


def recency_bonus(now: tuple[int, int, str], ts: tuple[int, int], half_life: int) -> float:
    """'age_days = (now_utc - ts_utc) in days'; 'weight = 0.5 ** (age_days / half_life)'.

    'recency_bonus = weight (bounded [0,1])' (INT-35: clamped).
    """
    elapsed_ns = (now[0] - ts[0]) * 10**9 + (now[1] - ts[1])
    age_days = float(Fraction(elapsed_ns, NS_PER_DAY))  # INT-35: exact, rounded once
    exponent = age_days / half_life  # one rounding (INT-04)
    if exponent <= 0:
        return 1.0  # future (or same-instant) ts: weight >= 1, clamped to 1
    return min(1.0, max(0.0, pow_half(exponent)))


def score(record: dict[str, Any], terms: list[str], opts: Options) -> float:
    """'score = base + tag_bonus + recency_bonus', left to right in doubles (INT-04)."""
    text = normalize_text(record["text"])  # INT-09: 'normalized candidate text'
    base = sum(1 for t in terms if t in text)  # INT-10: terms, not occurrences
    tag_bonus = 0.0
    if opts.tag_overlap:  # 'overlap = count of query_terms that exactly match any candidate tag'
        tag_bonus = sum(1 for t in terms if t in record["tags"]) * 0.5  # 'overlap * 0.5'
    bonus = 0.0
    # 'Only allowed if now_utc is provided and candidate ts_utc is valid.' (INT-36)
    if opts.recency and opts.now is not None and "_instant" in record:
        bonus = recency_bonus(opts.now, record["_instant"], opts.half_life)
    return (float(base) + tag_bonus) + bonus


def order_key(cand: dict[str, Any]) -> tuple[float, tuple[int, int, int], str, str, str, int]:
    """TIE-BREAKING 1)-5) plus read order (INT-33)."""
    instant = cand.get("_instant")
    ts_key = (0, -instant[0], -instant[1]) if instant is not None else (1, 0, 0)
    return (
        -cand["score"],  # 1) score descending
        ts_key,  # 2) ts_utc descending (missing ts_utc sorts last)
        cand["store_path"],  # 3) store_path ascending (code points)
        cand["memory_id"],  # 4) memory_id ascending
        cand["record_hash"],  # 5) record_hash ascending
        cand["read_index"],
    )


# ------------------------------------------------------------------------ trust filtering


def is_denied(cand: dict[str, Any], entries: list[dict[str, Any]], deny: list[str]) -> bool:
    """INT-39: an entry with both keys matches only candidates equal on both."""
    for entry in entries:
        if entry["classification"] not in deny:
            continue
        if "memory_id" in entry and entry["memory_id"] != cand["memory_id"]:
            continue
        if "record_hash" in entry and entry["record_hash"] != cand["record_hash"]:
            continue
        return True
    return False


# --------------------------------------------------------------------------- truncation


def make_excerpt(text: str, per_item: int) -> tuple[str, int]:
    """TRUNCATION: strip, cut to per_item * 4 UTF-8 bytes at a code-point boundary."""
    data = strip_ws(text).encode("utf-8")  # INT-31: White_Space strip only
    max_bytes = per_item * 4  # 'Determine max_bytes = per_item_max_excerpt_tokens * 4'
    if len(data) > max_bytes:
        cut = max_bytes
        while cut > 0 and (data[cut] & 0xC0) == 0x80:  # 'cut back to last valid boundary'
            cut -= 1
        data = data[:cut]  # INT-31: not stripped again
    excerpt = data.decode("utf-8", errors="strict")
    return excerpt, -(-len(data) // 4)  # 'excerpt_tokens = ceil(utf8_byte_length(excerpt) / 4)'


# ------------------------------------------------------------------------------ memory.read


def read_candidates(
    stores: list[tuple[str, bytes]], entries: list[dict[str, Any]] | None, deny: list[str]
) -> list[dict[str, Any]]:
    """READER: every record line in read order (INT-28), invalid and trust-denied ones marked."""
    lines: list[dict[str, Any]] = []
    for store_path, data in stores:
        for raw in split_lines(data):  # '2) within each store, read in file order (line order)'
            if is_blank(raw):
                continue
            cand = read_line(raw)
            cand["store_path"] = store_path
            cand["read_index"] = len(lines)
            if "invalid" in cand:  # INT-19
                cand.update(memory_id=cand["invalid"], record_hash=sha256_hex(raw))
                cand["fate"] = "invalid_record_schema"
            elif entries is not None and is_denied(cand, entries, deny):
                cand["fate"] = "trust_denied"  # removed before selection (INT-39)
            lines.append(cand)
    return lines


def select(ranked: list[dict[str, Any]], opts: Options) -> tuple[list[dict[str, Any]], int]:
    """TRUNCATION 'Global selection under budget' with the TOKEN BUDGETING stop rule.

    'Selection MUST stop when: used_excerpt_tokens would exceed max_excerpt_tokens, OR selected
    count reaches max_items' (INT-26: stop, do not skip; INT-27: max_items checked first).
    """
    per_item = min(opts.per_item, opts.max_tokens)  # TRUNCATION / INT-30
    used = 0
    selected: list[dict[str, Any]] = []
    stop_reason: str | None = None
    for cand in ranked:
        if stop_reason is None and len(selected) >= opts.max_items:
            stop_reason = "max_items_reached"
        if stop_reason is None:
            excerpt, tokens = make_excerpt(cand["text"], per_item)
            if used + tokens <= opts.max_tokens:  # 'if used + excerpt_tokens <= max => select'
                used += tokens
                cand["fate"] = "selected"
                keys = ("memory_id", "record_hash", "store_path", "score")
                selected.append({k: cand[k] for k in keys} | {"excerpt": excerpt})
                selected[-1]["excerpt_tokens"] = tokens
                continue
            stop_reason = "budget_exhausted"  # 'else => drop with reason "budget_exhausted"'
        cand["fate"] = stop_reason
    return selected, used


def oracle_read(request: object, root: Path) -> dict[str, Any]:
    """SPEC-006 memory.read: the result envelope (INT-44)."""
    try:
        opts = check_request(request)
        stores = read_stores(opts.store_paths, root)  # errors.md 9-10
        entries = None
        if opts.snapshot is not None:  # 'If no snapshot provided, trust filtering is disabled.'
            entries = read_trust_snapshot(opts.snapshot, root)  # errors.md 11-12
    except RequestError as err:
        return err.envelope()

    _require_unicode(opts.query, "query")
    query_hash = sha256_hex(normalize_text(opts.query).encode("utf-8"))  # INT-11
    supplied = opts.query_terms
    terms = derive_terms(opts.query) if supplied is None else supplied_terms(supplied)

    lines = read_candidates(stores, entries, opts.deny)
    ranked = [c for c in lines if "fate" not in c]
    for cand in ranked:
        cand["score"] = score(cand, terms, opts)
    ranked.sort(key=order_key)  # full sort on the composite key
    selected, used = select(ranked, opts)

    dropped = [
        {k: c[k] for k in ("memory_id", "record_hash", "store_path")} | {"reason": c["fate"]}
        for c in lines
        if c["fate"] != "selected"
    ]  # INT-28: read order
    package: dict[str, Any] = {
        "query": {"raw": opts.query, "query_hash": query_hash},
        "budget": {  # INT-32
            "max_excerpt_tokens": opts.max_tokens,
            "used_excerpt_tokens": used,
            "remaining_excerpt_tokens": max(0, opts.max_tokens - used),
            "per_item_max_excerpt_tokens": min(opts.per_item, opts.max_tokens),
            "max_items": opts.max_items,
        },
        "selection": {"selected": selected, "dropped": dropped},
        "controller_version": CONTROLLER_VERSION,
    }
    package["package_hash"] = sha256_hex(canonical(package))  # INT-03: all but itself
    data = {
        "query_hash": query_hash,
        "store_paths": [path for path, _ in stores],  # INT-43: normalized, deduped, sorted
        "selected_count": len(selected),
        "package_hash": package["package_hash"],
    }
    return {"package": package, "receipt": {"kind": "memory.read", "data": data}}
