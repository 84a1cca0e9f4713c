"""Build ``vectors/<area>-gen[-<suffix>].json`` from the generated families in ``families/``.

Usage (from the repository root)::

    python -m tools.generate.build           # (re)write every <area>-gen*.json
    python -m tools.generate.build --check   # exit 1 if a committed file differs
    python -m tools.generate.build --family trust --out /tmp/v   # one family elsewhere

Where an expectation comes from (issue 3, "Independence"):

1. the family writes the input and, where the spec states it plainly, an *intent*;
2. the REFERENCE computes the result, through the harness's in-process adapter exactly as the
   harness calls any implementation (this module never imports ``reference``);
3. the INDEPENDENT ORACLE (``tools.oracle``) computes it again: the two must be equal as
   JSON values (INT-48; errors on code and path). An input the oracle declares undefined
   (``OracleUndefined``) is not a vector. A disagreement fails the build and names the vector,
   unless it is listed in :data:`KNOWN_DISAGREEMENTS` (then it is left out, and a listed vector
   that agrees again also fails the build: the entry is stale);
4. invariants are checked on every result (schemas, budget accounting, every record line
   accounted for exactly once, receipt consistent with the package, package_hash recomputed);
5. the family's intent is asserted, and ``relations`` between package hashes across vectors.

Output is deterministic: no clock, randomness only from seeded ``random.Random``, fixed member
order, ``"\\n"`` line ends; the same sources give byte-identical files on every machine.
"""

from __future__ import annotations

import argparse
import base64
import functools
import hashlib
import importlib
import json
import math
import re
import shutil
import sys
import tempfile
import time
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any, Final

import jsonschema
import referencing
import referencing.jsonschema
import rfc8785

from conformance import (
    Adapter,
    AdapterError,
    BytesFile,
    CorpusError,
    LinesFile,
    TextFile,
    first_difference,
    load_corpus,
    open_adapter,
)
from conformance._kit import dumps, loads
from conformance.readings import WHITE_SPACE, normalize_text
from tools.generate._errors import BuildError
from tools.generate.families import FAMILIES
from tools.generate.families._case import Case
from tools.oracle import OracleUndefined, oracle_read, parse_ts

__all__ = [
    "ADAPTER",
    "KNOWN_DISAGREEMENTS",
    "BuildError",
    "FamilyOutput",
    "build",
    "check_invariants",
    "main",
    "serialize",
    "validate_with_loader",
]

ROOT = Path(__file__).resolve().parents[2]
VECTORS = ROOT / "vectors"
SPECS = ROOT / "specs"
ADAPTER = "python:reference:memory_read"
FORMAT = "phase6-vectors/1"
#: family -> (corpus area, file-name suffix); others use their own name as the area.
#: Files are ``<area>-gen[-<suffix>][-<part>].json`` (the loader: area == the name's prefix).
FAMILY_AREA: Mapping[str, tuple[str, str]] = {
    "hazard": ("recency", "hazard"),
    "receipts": ("receipt", ""),
}
GENERATED_FILE = re.compile(r"^[a-z]+-gen(-[a-z0-9-]+)?\.json$")
ID_RE = re.compile(r"^[a-z0-9][a-z0-9.-]*$")
HAND_ID_RE = re.compile(r"-h[0-9]{3}$")  # hand vectors' IDs; never produced here
REASONS = frozenset(
    {"invalid_record_schema", "trust_denied", "budget_exhausted", "max_items_reached"}
)
Json = Any

#: Vector ID -> why the reference and the oracle disagree there. These are FINDINGS: the input
#: stays in its family, the vector is not emitted, every build prints the entry, and an entry
#: whose two sides agree again fails the build (remove it, and the vector is emitted).
#: (History: "recency-halfway-to-zero" was listed here until the reference stopped double
#: rounding 2**-1075 through decimal; it is now an ordinary vector.)
KNOWN_DISAGREEMENTS: Mapping[str, str] = {}

# Interpretations every vector of a kind depends on, added mechanically (documented in the
# vector's interpretations so that `level` is honest).
_AUTO_INTERPRETATIONS = {
    "error": "INT-40",  # error codes, paths and precedence are the kit's table
    "invalid_record_schema": "INT-19",  # memory_id / record_hash of an invalid line
    "max_items_reached": "INT-27",  # the reason name for max_items drops
    "score0": "INT-29",  # a selected score-0 candidate
    "dropped-order": "INT-28",  # dropped entries listed in read order
    # a character outside U+0020..U+007E in the query, a file name or a store line: how the
    # canonical form writes it (raw UTF-8, or ensure_ascii's \uxxxx) is INT-01's; so is how it
    # writes U+0008 and U+000C (RFC 8785's \b and \f, or Go 1.19's \u0008 and \u000c)
    "non-ascii": "INT-01",
    "padded-text": "INT-02",  # a record text with whitespace at an end: hashed as read
    "query-raw": "INT-11",  # query.raw is the query as given, which is not its normalized form
    # a record_hash decides more than its own value: a trust entry names one, or two selected
    # candidates tie on score and memory_id (the order's last key): how it is computed is INT-02's
    "hash-decides": "INT-02",
    "timestamp": "INT-21",  # a valid ts_utc: its normalized form is in record_hash
    "nanoseconds": "INT-20",  # a valid timestamp finer than microseconds (1*9DIGIT)
    "duplicates": "INT-23",  # records sharing a memory_id are separate candidates
}


#: The ASCII characters whose canonical form is INT-01's: DEL (ensure_ascii's \u007f),
#: U+0008 and U+000C (\b and \f, or \u0008 and \u000c before Go 1.22).
_INT_01_ASCII: Final = frozenset("\x7f\b\f")


def _characters(text: str) -> set[str]:
    """The characters of ``text`` and, when it is a JSON text (a store line), of the strings
    it holds (a line writes U+000C as the escape \\f)."""
    found = set(text)
    try:
        value = json.loads(text)
    except ValueError:
        return found
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.update(item)
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item)
            stack.extend(item.values())
    return found


def _stored_timestamps(case: Case) -> Iterable[str]:
    """Every valid ts_utc (INT-20) of a store line that is a JSON object, whatever else the
    line is: its record_hash holds the INT-21 normalized form."""
    for spec in case.files.values():
        lines = spec.get("lines", []) if isinstance(spec, dict) else []
        for text in lines:
            if not isinstance(text, str) or '"ts_utc"' not in text:
                continue
            try:
                value = json.loads(text)
            except ValueError:
                continue
            ts = value.get("ts_utc") if isinstance(value, dict) else None
            if isinstance(ts, str) and parse_ts(ts) is not None:
                yield ts


def _finer_than_microseconds(ts: str) -> bool:
    """A timestamp with a 7th to 9th fraction digit: only INT-20's 1*9DIGIT keeps it exact."""
    parsed = parse_ts(ts)
    return parsed is not None and parsed[1] % 1000 != 0


def _texts(case: Case) -> Iterable[str]:
    """The query, the file names and every UTF-8 line (or text) of the case's files."""
    query = case.request.get("query") if isinstance(case.request, dict) else None
    if isinstance(query, str):
        yield query
    for name, entry in case.files.items():
        yield name
        if isinstance(entry.get("text"), str):
            yield from entry["text"].split("\n")
        yield from (item for item in entry.get("lines", ()) if isinstance(item, str))


def _hash_decides(case: Case, selected: Sequence[Json]) -> bool:
    """Whether a record_hash decides more than its own value: a trust snapshot entry names one
    (it is denied by its hash), or two selected candidates tie on score and memory_id (their
    order falls to record_hash)."""
    for entry in case.files.values():
        text = entry.get("text")
        if isinstance(text, str) and '"record_hash"' in text:
            return True
    keys = [(item.get("score"), item.get("memory_id")) for item in selected]
    return len(set(keys)) < len(keys)


def _padded(line: str) -> bool:
    """A record line whose text has White_Space at either end (INT-02: not stripped)."""
    try:
        value = json.loads(line)
    except ValueError:
        return False
    text = value.get("text") if isinstance(value, dict) else None
    return isinstance(text, str) and text != text.strip("".join(sorted(WHITE_SPACE)))


@dataclass
class FamilyOutput:
    """What one family produced: documents by file name, counts and time."""

    name: str
    files: dict[str, bytes] = field(default_factory=dict)
    vectors: int = 0
    undefined: int = 0
    known: int = 0
    seconds: float = 0.0


# ------------------------------------------------------------------------------ registers


def _register_ids() -> tuple[set[str], set[str]]:
    clauses = tomllib.loads((SPECS / "clauses.toml").read_text(encoding="utf-8"))
    ints = tomllib.loads((SPECS / "interpretations.toml").read_text(encoding="utf-8"))
    return {c["id"] for c in clauses["clause"]}, {e["id"] for e in ints["entry"]}


# ------------------------------------------------------------------------------ JSON


@functools.cache
def _result_validator() -> Any:
    """A draft 2020-12 validator for specs/schemas/result.schema.json (with its $refs)."""
    resources = []
    for path in sorted((SPECS / "schemas").glob("*.schema.json")):
        schema = json.loads(path.read_text("utf-8"))
        resource = referencing.Resource.from_contents(
            schema, default_specification=referencing.jsonschema.DRAFT202012
        )
        resources.append((schema["$id"], resource))
    registry: referencing.Registry[Any] = referencing.Registry().with_resources(resources)
    schema = json.loads((SPECS / "schemas" / "result.schema.json").read_text("utf-8"))
    return jsonschema.Draft202012Validator(schema, registry=registry)


def schema_errors(result: Json) -> list[str]:
    """Where ``result`` breaks result.schema.json (package / receipt / error schemas)."""
    return [
        f"/{'/'.join(map(str, e.absolute_path))}: {e.message[:200]}"
        for e in _result_validator().iter_errors(result)
    ][:3]


# ------------------------------------------------------------------------------ files


def _file_bytes(spec: Mapping[str, Json]) -> bytes | None:
    """The exact bytes the harness loader materializes for a file entry (None: directory)."""
    if "lines" in spec:
        lines = tuple(
            item if isinstance(item, str) else base64.b64decode(item["base64"], validate=True)
            for item in spec["lines"]
        )
        return LinesFile(lines, spec.get("eol", "\n"), spec.get("final_eol", True)).content()
    if "text" in spec:
        return TextFile(spec["text"]).content()
    if "base64" in spec:
        return BytesFile(base64.b64decode(spec["base64"], validate=True)).content()
    return None  # {"directory": true}


def _materialize(files: Mapping[str, Json], root: Path) -> None:
    root.mkdir(parents=True)
    for name, spec in sorted(files.items()):
        target = root.joinpath(*PurePosixPath(name).parts)
        target.parent.mkdir(parents=True, exist_ok=True)
        data = _file_bytes(spec)
        if data is None:
            target.mkdir(exist_ok=True)
        else:
            target.write_bytes(data)


# ------------------------------------------------------------------------------ invariants


def _record_lines(data: bytes) -> int:
    """INT-14: lines split on LF, a trailing LF adds none, blank (SP/HT/CR only) lines skipped."""
    pieces = data.split(b"\n")
    if pieces[-1] == b"":
        pieces.pop()
    return sum(1 for p in pieces if p.strip(b" \t\r") != b"")


def check_invariants(result: Json, root: Path) -> list[str]:
    """What is wrong with ``result`` (materialized under ``root``) whatever the input was."""
    problems = [f"result schema {p}" for p in schema_errors(result)]
    if problems or "error" in result:
        return problems
    package, receipt = result["package"], result["receipt"]
    budget, selection = package["budget"], package["selection"]
    selected, dropped = selection["selected"], selection["dropped"]
    used = budget["used_excerpt_tokens"]
    maximum = budget["max_excerpt_tokens"]
    if used != sum(item["excerpt_tokens"] for item in selected):
        problems.append("used_excerpt_tokens is not the sum of excerpt_tokens")
    if used > maximum:
        problems.append("used_excerpt_tokens exceeds max_excerpt_tokens")
    if budget["remaining_excerpt_tokens"] != max(0, maximum - used):
        problems.append("remaining_excerpt_tokens is not max - used")
    if budget["per_item_max_excerpt_tokens"] > maximum:
        problems.append("per_item_max_excerpt_tokens exceeds max_excerpt_tokens")
    if len(selected) > budget["max_items"]:
        problems.append("more selected items than max_items")
    for item in selected:
        size = len(item["excerpt"].encode("utf-8"))
        if item["excerpt_tokens"] != math.ceil(size / 4):
            problems.append(f"excerpt_tokens of {item['memory_id']!r} is not ceil(bytes / 4)")
        if size > 4 * budget["per_item_max_excerpt_tokens"]:
            problems.append(f"excerpt of {item['memory_id']!r} is longer than the per-item cap")
    if any(d["reason"] not in REASONS for d in dropped):
        problems.append("a dropped reason outside the closed set")
    if package["controller_version"] != "phase6-v1":
        problems.append("controller_version is not phase6-v1")
    body = {k: v for k, v in package.items() if k != "package_hash"}
    if package["package_hash"] != hashlib.sha256(rfc8785.dumps(body)).hexdigest():
        problems.append("package_hash is not SHA-256 of the canonical package (INT-03)")
    data = receipt["data"]
    if receipt["kind"] != "memory.read" or set(receipt) != {"kind", "data"}:
        problems.append("receipt kind/members")
    if set(data) != {"query_hash", "store_paths", "selected_count", "package_hash"}:
        problems.append("receipt data members")
    if data["query_hash"] != package["query"]["query_hash"]:
        problems.append("receipt query_hash differs from the package's")
    if data["package_hash"] != package["package_hash"]:
        problems.append("receipt package_hash differs from the package's")
    if data["selected_count"] != len(selected):
        problems.append("receipt selected_count differs from len(selected)")
    paths = data["store_paths"]
    if paths != sorted(set(paths)):
        problems.append("receipt store_paths not sorted and unique")
    # Every record line is accounted for exactly once (INT-14, INT-28).
    for path in paths:
        counted = sum(1 for item in (*selected, *dropped) if item["store_path"] == path)
        if path.startswith("/"):
            problems.append(f"absolute store path {path!r} in a package (machine-dependent)")
            continue
        lines = _record_lines((root / path).read_bytes())
        if counted != lines:
            problems.append(f"{path!r}: {lines} record lines but {counted} package entries")
    if any(item["store_path"] not in paths for item in (*selected, *dropped)):
        problems.append("a package store_path missing from the receipt")
    order = [paths.index(d["store_path"]) for d in dropped if d["store_path"] in paths]
    if order != sorted(order):
        problems.append("dropped entries not in store read order (INT-28)")
    return problems


def _intent(case: Case, result: Json) -> list[str]:
    problems: list[str] = []
    if case.error is not None:
        got = (result.get("error", {}).get("code"), result.get("error", {}).get("path"))
        if got != case.error:
            problems.append(f"intended error {case.error!r}, got {got!r}")
        return problems
    if "error" in result:
        wanted = case.selected is not None or case.excerpts is not None
        if wanted:
            problems.append(f"intended a package, got error {result['error']['code']!r}")
            return problems
    else:
        selected = result["package"]["selection"]["selected"]
        if case.selected is not None:
            got_ids = tuple(item["memory_id"] for item in selected)
            if got_ids != case.selected:
                problems.append(f"intended selection {case.selected!r}, got {got_ids!r}")
        if case.excerpts is not None:
            got_ex = tuple(item["excerpt"] for item in selected)
            if got_ex != case.excerpts:
                problems.append(f"intended excerpts {case.excerpts!r}, got {got_ex!r}")
    if case.check is not None:
        problem = case.check(result)
        if problem:
            problems.append(f"intent: {problem}")
    return problems


# ------------------------------------------------------------------------------ one case


def _agree(reference: Json, oracle: Json) -> str | None:
    """INT-48 equality; errors compare on code and path only (vectors-format.md)."""
    if "error" in reference or "error" in oracle:
        ref_err, ora_err = reference.get("error"), oracle.get("error")
        if ref_err is None or ora_err is None:
            return f"reference {_brief(reference)} vs oracle {_brief(oracle)}"
        if (ref_err["code"], ref_err["path"]) != (ora_err["code"], ora_err["path"]):
            return f"reference {_brief(reference)} vs oracle {_brief(oracle)}"
        return None

    # Compare everything but the hashes first, so that the report names the field that differs.
    def unhashed(result: Json) -> Json:
        package = {k: v for k, v in result["package"].items() if k != "package_hash"}
        return {"package": package}

    difference = first_difference(unhashed(oracle), unhashed(reference)) or first_difference(
        oracle, reference
    )
    if difference is not None:
        return (
            f"{difference.describe()}: oracle {difference.expected!r} "
            f"vs reference {difference.actual!r}"
        )
    return None


def _brief(result: Json) -> str:
    if isinstance(result, dict) and "error" in result:
        return f"error {result['error'].get('code')!r} at {result['error'].get('path')!r}"
    return "a package"


def _interpretations(case: Case, result: Json) -> list[str]:
    found = set(case.interpretations)
    if "error" in result:
        found.add(_AUTO_INTERPRETATIONS["error"])
    else:
        selection = result["package"]["selection"]
        reasons = {d["reason"] for d in selection["dropped"]}
        for reason in ("invalid_record_schema", "max_items_reached"):
            if reason in reasons:
                found.add(_AUTO_INTERPRETATIONS[reason])
        if any(float(item["score"]) == 0.0 for item in selection["selected"]):
            found.add(_AUTO_INTERPRETATIONS["score0"])
        if len(selection["dropped"]) >= 2:
            found.add(_AUTO_INTERPRETATIONS["dropped-order"])
        texts = list(_texts(case))
        if any(not text.isascii() or _INT_01_ASCII & _characters(text) for text in texts):
            found.add(_AUTO_INTERPRETATIONS["non-ascii"])
        if any(_padded(text) for text in texts):
            found.add(_AUTO_INTERPRETATIONS["padded-text"])
        raw = result["package"]["query"]["raw"]
        if raw != normalize_text(raw):
            found.add(_AUTO_INTERPRETATIONS["query-raw"])
        if _hash_decides(case, selection["selected"]):
            found.add(_AUTO_INTERPRETATIONS["hash-decides"])
        stamps = list(_stored_timestamps(case))
        if stamps:
            found.add(_AUTO_INTERPRETATIONS["timestamp"])
        now = case.request.get("now_utc") if isinstance(case.request, dict) else None
        if isinstance(now, str):
            stamps.append(now)
        ids = [
            e["memory_id"] for e in selection["dropped"] if e["reason"] != "invalid_record_schema"
        ]
        ids += [item["memory_id"] for item in selection["selected"]]
        if len(set(ids)) < len(ids):
            found.add(_AUTO_INTERPRETATIONS["duplicates"])
        if any(_finer_than_microseconds(ts) for ts in stamps):
            found.add(_AUTO_INTERPRETATIONS["nanoseconds"])
    return sorted(found)


def _clauses(case: Case, result: Json) -> list[str]:
    clauses = list(dict.fromkeys(case.clauses))
    if "error" in result and "S6-ERR-01" not in clauses:
        clauses.append("S6-ERR-01")
    return clauses


def _expect(result: Json) -> Json:
    if "error" in result:
        return {"error": {"code": result["error"]["code"], "path": result["error"]["path"]}}
    return {"package": result["package"], "receipt": result["receipt"]}


@dataclass
class _Context:
    adapter: Adapter
    scratch: Path
    clause_ids: set[str]
    int_ids: set[str]
    seen: dict[str, str] = field(default_factory=dict)
    hashes: dict[str, str | None] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)
    known: list[str] = field(default_factory=list)
    counter: int = 0


def _check_case(case: Case, family: str, ctx: _Context) -> None:
    if not ID_RE.match(case.id) or len(case.id) > 120 or HAND_ID_RE.search(case.id):
        raise BuildError(f"{family}: bad vector id {case.id!r}")
    if case.id in ctx.seen:
        raise BuildError(f"{case.id}: duplicate id (families {ctx.seen[case.id]} and {family})")
    ctx.seen[case.id] = family
    prefix = dict(FAMILIES)[family]
    if not case.id.startswith(prefix + "-"):
        raise BuildError(f"{case.id}: IDs of family {family!r} start with {prefix + '-'!r}")
    unknown = [c for c in case.clauses if c not in ctx.clause_ids]
    unknown += [i for i in case.interpretations if i not in ctx.int_ids]
    if unknown or not case.clauses:
        raise BuildError(f"{case.id}: unknown or missing register IDs {unknown!r}")
    if "\n" in case.description or not case.description:
        raise BuildError(f"{case.id}: description must be one non-empty line")


def _run_case(case: Case, family: str, ctx: _Context) -> dict[str, Json] | None:
    """The vector for ``case``, or None when the oracle has no answer (not a vector)."""
    _check_case(case, family, ctx)
    ctx.counter += 1
    root = ctx.scratch / f"v{ctx.counter}"
    _materialize(case.files, root)
    try:
        request_json = dumps(case.request)
        try:
            oracle = oracle_read(loads(request_json), root)
        except OracleUndefined:
            return None
        try:
            reference = ctx.adapter.run(request_json, root)
        except AdapterError as exc:
            ctx.failures.append(f"{case.id}: the reference errored: {exc}")
            return None
        disagreement = _agree(reference, oracle)
        if case.id in KNOWN_DISAGREEMENTS:
            if disagreement is None:
                ctx.failures.append(f"{case.id}: listed in KNOWN_DISAGREEMENTS but agrees now")
            else:
                ctx.known.append(f"{case.id}: {disagreement}")
            return None
        if disagreement is not None:
            ctx.failures.append(f"{case.id}: reference and oracle disagree: {disagreement}")
            return None
        problems = check_invariants(reference, root) + _intent(case, reference)
        if problems:
            ctx.failures.append(f"{case.id}: " + "; ".join(problems))
            return None
    finally:
        shutil.rmtree(root, ignore_errors=True)
    package = reference.get("package")
    ctx.hashes[case.id] = package["package_hash"] if package else None
    interpretations = _interpretations(case, reference)
    return {
        "id": case.id,
        "description": case.description,
        "comment": case.comment,
        "clauses": _clauses(case, reference),
        "interpretations": interpretations,
        "level": "pinned" if interpretations else "required",
        "input": {"request": case.request, "files": dict(sorted(case.files.items()))},
        "expect": _expect(reference),
    }


# ------------------------------------------------------------------------------ documents

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def serialize(document: Json) -> bytes:
    """Indented UTF-8 JSON plus LF; a lone surrogate (only ever inside a string) is escaped."""
    text = json.dumps(document, ensure_ascii=False, indent=2)
    text = _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
    return (text + "\n").encode("utf-8")


def _document(family: str, description: str, vectors: list[dict[str, Json]]) -> dict[str, Json]:
    return {
        "format": FORMAT,
        "area": FAMILY_AREA.get(family, (family, ""))[0],
        "description": description,
        "source": f"generated:{family}",
        "vectors": vectors,
    }


def _build_family(
    name: str, description: str, cases: Iterable[Case], ctx: _Context
) -> FamilyOutput:
    output = FamilyOutput(name)
    parts: dict[str, list[dict[str, Json]]] = {}
    for case in cases:
        if case.id in KNOWN_DISAGREEMENTS:
            output.known += 1
        vector = _run_case(case, name, ctx)
        if vector is None:
            output.undefined += case.id not in KNOWN_DISAGREEMENTS
            continue
        parts.setdefault(case.part, []).append(vector)
        output.vectors += 1
    for part, vectors in sorted(parts.items()):
        area, suffix = FAMILY_AREA.get(name, (name, ""))
        file_name = "-".join(x for x in (area, "gen", suffix, part) if x) + ".json"
        output.files[file_name] = serialize(_document(name, description, vectors))
    return output


def _check_relations(ctx: _Context, cases: Mapping[str, Case]) -> None:
    for case in cases.values():
        for other, kind in case.relations:
            if case.id not in ctx.hashes:
                continue  # not emitted; already reported
            if other not in ctx.hashes:
                ctx.failures.append(f"{case.id}: relation to unknown or unemitted {other!r}")
                continue
            mine, theirs = ctx.hashes[case.id], ctx.hashes[other]
            if mine is None or theirs is None:
                ctx.failures.append(f"{case.id}: relation {kind!r} to {other!r} needs packages")
            elif (mine == theirs) != (kind == "same"):
                ctx.failures.append(f"{case.id}: package_hash should be {kind} as {other!r}'s")


def build(families: Sequence[str] | None = None) -> list[FamilyOutput]:
    """Generate the named families (default: all); raises BuildError on any failure."""
    names = list(families) if families else [name for name, _ in FAMILIES]
    unknown = sorted(set(names) - {name for name, _ in FAMILIES})
    if unknown:
        raise BuildError(f"unknown families: {', '.join(unknown)}")
    clause_ids, int_ids = _register_ids()
    outputs: list[FamilyOutput] = []
    cases: dict[str, Case] = {}
    with (
        tempfile.TemporaryDirectory(prefix="phase6-gen-", dir=_scratch_parent()) as scratch,
        open_adapter(ADAPTER) as adapter,
    ):
        adapter.start()
        ctx = _Context(adapter, Path(scratch), clause_ids, int_ids)
        for name in names:
            start = time.perf_counter()
            module = importlib.import_module(f"tools.generate.families.{name}")
            family_cases: list[Case] = list(module.cases())
            cases.update((case.id, case) for case in family_cases)
            output = _build_family(name, module.DESCRIPTION, family_cases, ctx)
            output.seconds = time.perf_counter() - start
            outputs.append(output)
        _check_relations(ctx, cases)
    for note in ctx.known:
        print(f"KNOWN DISAGREEMENT (not emitted): {note}", file=sys.stderr)
    if ctx.failures:
        listing = "\n  ".join(ctx.failures)
        raise BuildError(f"{len(ctx.failures)} generated vector(s) failed:\n  {listing}")
    return outputs


def _scratch_parent() -> str | None:
    shm = Path("/dev/shm")
    return str(shm) if shm.is_dir() else None


def _generated(directory: str, names: list[str], corpus_dir: Path) -> list[str]:
    """copytree filter: the committed generated files (replaced by the new ones)."""
    if Path(directory) != corpus_dir:
        return []
    return [n for n in names if GENERATED_FILE.match(n)]


def validate_with_loader(files: Mapping[str, bytes], corpus_dir: Path) -> int:
    """Load ``files`` together with the other (hand) files of ``corpus_dir`` through the harness
    loader: schema, file naming and ID uniqueness across the corpus. Returns the vector count."""
    with tempfile.TemporaryDirectory(prefix="phase6-gen-check-") as tmp:
        target = Path(tmp) / "vectors"
        shutil.copytree(
            corpus_dir, target, ignore=lambda d, names: _generated(d, names, corpus_dir)
        )
        for name, data in files.items():
            (target / name).write_bytes(data)
        try:
            return len(load_corpus(target))
        except CorpusError as exc:
            raise BuildError(f"the harness loader rejects the corpus: {exc}") from exc


# ------------------------------------------------------------------------------ CLI


def main(argv: list[str] | None = None) -> int:
    """Write the generated vector files, or with ``--check`` compare them with the committed."""
    parser = argparse.ArgumentParser(prog="python -m tools.generate.build")
    parser.add_argument("--check", action="store_true", help="exit 1 if a file would change")
    parser.add_argument("--family", action="append", help="only this family (repeatable)")
    parser.add_argument("--out", type=Path, default=VECTORS, help="output directory")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    try:
        outputs = build(args.family)
        files = {name: data for out in outputs for name, data in out.files.items()}
        total = validate_with_loader(files, VECTORS)
    except BuildError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    for out in outputs:
        note = f", {out.undefined} undefined by the oracle" if out.undefined else ""
        note += f", {out.known} known disagreements" if out.known else ""
        print(f"{out.name:12} {out.vectors:5} vectors  {out.seconds:6.2f} s{note}")
    generated = sum(out.vectors for out in outputs)
    elapsed = time.perf_counter() - start
    print(f"generated {generated} vectors in {len(files)} files ({elapsed:.1f} s); corpus {total}")
    out_dir: Path = args.out
    stale = []
    if not args.family:
        stale = sorted(
            p.name
            for p in out_dir.glob("*.json")
            if GENERATED_FILE.match(p.name) and p.name not in files
        )
    if args.check:
        differing = [
            name
            for name, data in sorted(files.items())
            if not (out_dir / name).is_file() or (out_dir / name).read_bytes() != data
        ]
        for name in differing:
            state = "differs" if (out_dir / name).is_file() else "missing"
            print(f"{state}: {out_dir / name}", file=sys.stderr)
        for name in stale:
            print(f"stale (no family produces it): {out_dir / name}", file=sys.stderr)
        if differing or stale:
            print("regenerate with: python -m tools.generate.build", file=sys.stderr)
            return 1
        print("generated vectors up to date")
        return 0
    out_dir.mkdir(parents=True, exist_ok=True)
    for name, data in sorted(files.items()):
        target = out_dir / name
        if not target.is_file() or target.read_bytes() != data:
            target.write_bytes(data)
    for name in stale:
        (out_dir / name).unlink()
        print(f"removed stale {out_dir / name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
