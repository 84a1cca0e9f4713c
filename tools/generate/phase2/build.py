"""Build the Phase 2 corpus ``vectors/phase2-context/`` and ``specs/phase2/coverage.md``.

Usage (from the repository root)::

    python -m tools.generate.phase2.build            # (re)write the files
    python -m tools.generate.phase2.build --check    # exit 1 if a committed file differs

Where each expectation comes from:

- **hand** (``hand/<family>.py`` -> ``<family>-hand.json``): written by hand from the spec and
  the register, the arithmetic in ``comment``. The build copies them as written and then
  confirms each against the independent oracle (``tools.phase2_oracle``: the expectations
  must be equal) and against the reference (``compare`` finds no difference). A hand vector
  either side disagrees with fails the build: one of the three is wrong, and a person decides
  which.
- **generated** (``families/<family>.py`` -> ``<family>-gen.json``): the family writes the
  input; the REFERENCE computes the outcome through its in-process entry (named by
  :data:`ENTRY`, resolved by name like the harness's ``python:`` adapter); the ORACLE computes
  the expectation independently; the two must be equal, the outcome must satisfy every
  invariant of the ``[[property]]`` table and be the same when run again.

A vector's ``interpretations`` are **derived**, hand or generated: the entries its source
names, then every entry one of whose executable alternatives changes its expected output
(:func:`changing_alternatives`: the reference run under each alternative alone), in register
order. ``P2-INT-04/implementation-text`` is a parameter (the implementation supplies the policy
text), run with :data:`ANOTHER_POLICY`: every vector whose expectation holds the policy block
depends on P2-INT-04 and says so. ``python -m tools readings --profile phase2 --check`` checks
the committed labels against the same runs.

Then every file is validated against ``specs/schemas/phase2/vector-file.schema.json``, IDs
must be unique and well formed, every clause and interpretation named must exist, every clause
whose ``verified_by`` says ``vectors`` must be named by a vector, every interpretation must be
pinned by one, every executable alternative of the register must change the expected output of
at least one vector (:func:`alternative_changes`: the reference run under it), and ``level``
must be ``pinned`` exactly when interpretations are named. Output is deterministic: the same
sources give byte-identical files.
"""

from __future__ import annotations

import argparse
import importlib
import json
import re
import sys
import tomllib
from collections import defaultdict
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import jsonschema
import referencing
import referencing.jsonschema

from conformance.phase2 import (
    compare,
    expect_from_observed,
    property_failures,
)
from reference.phase2 import (
    POLICY_ALTERNATIVE,
    Readings,
    open_store,
    preview_context,
    run_vector_call,
)
from tools.generate.phase2.families import FAMILIES
from tools.phase2_oracle import oracle_expect

__all__ = [
    "ANOTHER_POLICY",
    "ENTRY",
    "BuildError",
    "alternative_changes",
    "alternative_readings",
    "build",
    "changing_alternatives",
    "coverage_markdown",
    "load_registers",
    "main",
    "schema_validator",
]

ROOT = Path(__file__).resolve().parents[3]
VECTORS = ROOT / "vectors" / "phase2-context"
SPECS = ROOT / "specs" / "phase2"
SCHEMAS = ROOT / "specs" / "schemas" / "phase2"
COVERAGE = SPECS / "coverage.md"
FORMAT = "phase2-context-vectors/1"
AREA = "phase2-context"
ENTRY = "reference.phase2:run_vector_call"
HAND_FAMILIES = ("tokens", "layers", "entities", "budget", "errors", "compact", "summarize")
HAND_ID = re.compile(r"^p2-(?P<family>[a-z-]+)-h[0-9]{3}$")
GEN_ID = re.compile(r"^p2-(?P<family>[a-z-]+)-g[0-9]{3}$")
#: The policy text P2-INT-04/implementation-text is run with for the coverage table (a
#: parameter: any other text changes the same vectors, those whose outcome holds the policy).
ANOTHER_POLICY = "Answer from the memory below."
Json = Any


class BuildError(Exception):
    """A source is malformed, or the reference, the oracle and a hand vector disagree."""


def load_registers() -> tuple[dict[str, Json], dict[str, Json]]:
    """(clause ID -> clause, interpretation ID -> entry) from specs/phase2/."""
    clauses = tomllib.loads((SPECS / "clauses.toml").read_text("utf-8"))
    entries = tomllib.loads((SPECS / "interpretations.toml").read_text("utf-8"))
    return {c["id"]: c for c in clauses["clause"]}, {e["id"]: e for e in entries["entry"]}


def schema_validator(name: str = "vector-file.schema.json") -> Any:
    """A draft 2020-12 validator for a schema of specs/schemas/phase2/ (cross-refs resolved)."""
    resources = []
    for path in sorted(SCHEMAS.rglob("*.schema.json")):
        schema = json.loads(path.read_text("utf-8"))
        resource = referencing.Resource.from_contents(
            schema, default_specification=referencing.jsonschema.DRAFT202012
        )
        resources.append((schema["$id"], resource))
    registry: referencing.Registry[Any] = referencing.Registry().with_resources(resources)
    schema = json.loads((SCHEMAS / name).read_text("utf-8"))
    return jsonschema.Draft202012Validator(schema, registry=registry)


def _entry() -> Callable[[Json, Json], Json]:
    module, _, attribute = ENTRY.partition(":")
    function: Callable[[Json, Json], Json] = getattr(importlib.import_module(module), attribute)
    return function


def _check_ids(vector: Json, pattern: re.Pattern[str], family: str, seen: set[str]) -> None:
    vid = vector["id"]
    match = pattern.match(vid)
    if match is None or match["family"] != family.replace("_", "-"):
        raise BuildError(f"{vid}: id must match {pattern.pattern} with family {family!r}")
    if vid in seen:
        raise BuildError(f"{vid}: duplicate id")
    seen.add(vid)


def _check_names(vector: Json, clauses: Mapping[str, Json], entries: Mapping[str, Json]) -> None:
    vid = vector["id"]
    for cid in vector["clauses"]:
        if cid not in clauses:
            raise BuildError(f"{vid}: unknown clause {cid}")
    for iid in vector["interpretations"]:
        if iid not in entries:
            raise BuildError(f"{vid}: unknown interpretation {iid}")
    if (vector["level"] == "pinned") != bool(vector["interpretations"]):
        raise BuildError(f"{vid}: level does not match interpretations")


def alternative_readings() -> dict[str, Readings]:
    """Executable alternative ID (register order) -> the readings the reference runs it with
    (the parameter P2-INT-04/implementation-text with :data:`ANOTHER_POLICY`; an alternative
    with a value, ``parameters`` in the register, once per value of its ``check``:
    ``P2-INT-06/several(n=2)``)."""
    _, entries = load_registers()
    return {
        reading: Readings.of(
            [reading], policy=ANOTHER_POLICY if reading == POLICY_ALTERNATIVE else None
        )
        for entry in entries.values()
        for alt in entry.get("executable", [])
        for reading in _with_values(alt, (entry.get("parameters") or {}).get(alt))
    }


def _with_values(alternative: str, parameter: Json) -> list[str]:
    """``[alternative]``, or one reading ID per ``check`` value of its register parameter."""
    if parameter is None:
        return [alternative]
    return [f"{alternative}({parameter['name']}={value})" for value in parameter["check"]]


def changing_alternatives(vector: Json, readings: Mapping[str, Readings]) -> list[str]:
    """The alternatives of ``readings`` under which the reference's expectation for
    ``vector`` differs from its ``expect`` (in ``readings`` order). For a context call the
    fixture is loaded once and the read-only call answered under each; a job runs on a fresh
    database under each."""
    call = vector["input"]["call"]
    if call["op"] != "context":  # a job writes: a fresh database under each reading
        return [
            alt
            for alt, chosen in readings.items()
            if expect_from_observed(
                call, run_vector_call(vector["input"]["fixture"], call, readings=chosen)
            )
            != vector["expect"]
        ]
    found = []
    with open_store(":memory:") as store:
        store.load(vector["input"]["fixture"])
        store.set_read_only()
        for alt, chosen in readings.items():
            status, body = preview_context(store, call["params"], readings=chosen)
            observed = {"status": status, "body": body}
            if expect_from_observed(call, observed) != vector["expect"]:
                found.append(alt)
    return found


def _derive_interpretations(vector: Json, readings: Mapping[str, Readings]) -> Json:
    """``vector`` with every entry an alternative changes it under added to its
    ``interpretations`` (after the ones its source names) and ``level`` to match."""
    named = list(vector["interpretations"])
    for alt in changing_alternatives(vector, readings):
        entry = alt.split("/", 1)[0]
        if entry not in named:
            named.append(entry)
    if named == vector["interpretations"]:
        return vector
    return {**vector, "interpretations": named, "level": "pinned"}


def _confirm(vector: Json, run: Callable[[Json, Json], Json]) -> None:
    """Hand vectors: the oracle must expect the same, the reference must pass."""
    fixture, call = vector["input"]["fixture"], vector["input"]["call"]
    oracle = oracle_expect(fixture, call)
    if oracle != vector["expect"]:
        raise BuildError(f"{vector['id']}: the oracle expects {oracle!r}")
    observed = run(fixture, call)
    differences = compare(fixture, call, vector["expect"], observed)
    if differences:
        raise BuildError(f"{vector['id']}: the reference differs: {differences[0]}")
    broken = property_failures(fixture, call, observed)
    if broken:
        raise BuildError(f"{vector['id']}: the reference breaks property {broken[0]}")


def _generate(case: Any, run: Callable[[Json, Json], Json]) -> Json:
    observed = run(case.fixture, case.call)
    if run(case.fixture, case.call) != observed:
        raise BuildError(f"{case.id}: the reference is not deterministic")
    expect = expect_from_observed(case.call, observed)
    oracle = oracle_expect(case.fixture, case.call)
    if oracle != expect:
        raise BuildError(f"{case.id}: reference {expect!r} != oracle {oracle!r}")
    if compare(case.fixture, case.call, expect, observed):
        raise BuildError(f"{case.id}: the comparator rejects the reference's own outcome")
    broken = property_failures(case.fixture, case.call, observed)
    if broken:
        raise BuildError(f"{case.id}: the reference breaks property {broken[0]}")
    clauses, interpretations = list(case.clauses), list(case.interpretations)
    if case.call["op"] == "context":  # every context call tests the no-writes rule
        clauses += [] if "P2-API-10" in clauses else ["P2-API-10"]
        extra = ("P2-INT-20",) if observed["status"] == 200 else ("P2-INT-15", "P2-INT-20")
        interpretations += [i for i in extra if i not in interpretations]
    return {
        "id": case.id,
        "description": case.description,
        "clauses": clauses,
        "interpretations": interpretations,
        "level": "pinned" if interpretations else "required",
        "input": {"fixture": case.fixture, "call": case.call},
        "expect": expect,
    }


def _document(family: str, description: str, source: str, vectors: list[Json]) -> bytes:
    document = {
        "format": FORMAT,  # first member: the SPEC-006 loader recognizes the file by it
        "area": AREA,
        "family": family,
        "description": description,
        "source": source,
        "vectors": vectors,
    }
    return (json.dumps(document, ensure_ascii=False, indent=1) + "\n").encode("utf-8")


def build() -> tuple[dict[str, bytes], list[Json]]:
    """({file name: bytes}, every vector) for the whole corpus."""
    clauses, entries = load_registers()
    run = _entry()
    readings = alternative_readings()
    seen: set[str] = set()
    outputs: dict[str, bytes] = {}
    everything: list[Json] = []
    for family in HAND_FAMILIES:
        module = importlib.import_module(f"tools.generate.phase2.hand.{family}")
        hand = []
        for vector in module.VECTORS:
            _check_ids(vector, HAND_ID, family, seen)
            _check_names(vector, clauses, entries)
            _confirm(vector, run)
            hand.append(_derive_interpretations(vector, readings))
        outputs[f"{family}-hand.json"] = _document(family, module.DESCRIPTION, "hand", hand)
        everything += hand
    for generated in FAMILIES:
        vectors = []
        for case in generated.cases():
            vector = _generate(case, run)
            _check_ids(vector, GEN_ID, generated.FAMILY, seen)
            _check_names(vector, clauses, entries)
            vectors.append(_derive_interpretations(vector, readings))
        name = f"{generated.FAMILY}-gen.json"
        outputs[name] = _document(
            generated.FAMILY, generated.DESCRIPTION, f"generated:{generated.FAMILY}", vectors
        )
        everything += vectors
    validator = schema_validator()
    for name, data in outputs.items():
        errors = sorted(validator.iter_errors(json.loads(data)), key=lambda e: list(e.path))
        if errors:
            raise BuildError(f"{name}: schema: {errors[0].message} at {list(errors[0].path)}")
    return outputs, everything


def read_corpus(directory: Path = VECTORS) -> list[Json]:
    """Every vector of the committed corpus, in file and vector order (files schema-checked)."""
    validator = schema_validator()
    vectors: list[Json] = []
    for path in sorted(directory.glob("*.json")):
        document = json.loads(path.read_text("utf-8"))
        errors = list(validator.iter_errors(document))
        if errors:
            raise BuildError(f"{path.name}: schema: {errors[0].message}")
        vectors += document["vectors"]
    return vectors


def alternative_changes(vectors: list[Json]) -> dict[str, list[str]]:
    """Executable alternative ID -> the vectors whose expected output differs when the reference
    follows it (register order; :func:`changing_alternatives` per vector)."""
    readings = alternative_readings()
    changes: dict[str, list[str]] = {alt: [] for alt in readings}
    for vector in vectors:
        for alt in changing_alternatives(vector, readings):
            changes[alt].append(vector["id"])
    return changes


def coverage_gaps(vectors: list[Json], changes: Mapping[str, list[str]] | None = None) -> list[str]:
    """Clauses verified by vectors that no vector names; interpretations no vector pins;
    executable alternatives that change no vector's expected output."""
    clauses, entries = load_registers()
    named = {cid for v in vectors for cid in v["clauses"]}
    pinned = {iid for v in vectors for iid in v["interpretations"]}
    gaps = [
        f"clause {cid} says vectors but no vector names it"
        for cid, c in clauses.items()
        if "vectors" in c["verified_by"] and cid not in named
    ]
    gaps += [f"interpretation {iid} is pinned by no vector" for iid in entries if iid not in pinned]
    changes = alternative_changes(vectors) if changes is None else changes
    gaps += [
        f"executable alternative {alt} changes no vector's expected output"
        for alt, ids in changes.items()
        if not ids
    ]
    return gaps


def coverage_markdown(vectors: list[Json], changes: Mapping[str, list[str]] | None = None) -> str:
    """specs/phase2/coverage.md: per clause and interpretation, the vectors that name it (the
    alternatives' table is specs/phase2/readings-coverage.md, ``tools/readings.py``)."""
    clauses, entries = load_registers()
    changes = alternative_changes(vectors) if changes is None else changes
    by_clause: dict[str, list[str]] = defaultdict(list)
    by_entry: dict[str, list[str]] = defaultdict(list)
    for vector in vectors:
        for cid in vector["clauses"]:
            by_clause[cid].append(vector["id"])
        for iid in vector["interpretations"]:
            by_entry[iid].append(vector["id"])
    hand = sum(1 for v in vectors if HAND_ID.match(v["id"]))
    lines = [
        "# Phase 2 coverage (profile `phase2-context/1`)",
        "",
        "Generated by `python -m tools.generate.phase2.build`; do not edit. "
        f"{len(vectors)} vectors ({hand} hand-written, {len(vectors) - hand} generated) in "
        "`vectors/phase2-context/`.",
        "",
        "## Clauses",
        "",
        "| clause | verified by | vectors | examples |",
        "|---|---|---:|---|",
    ]
    for cid, clause in clauses.items():
        ids = sorted(by_clause.get(cid, []))
        lines.append(
            f"| {cid} | {', '.join(f'`{v}`' for v in clause['verified_by'])} | {len(ids)} | "
            f"{', '.join(ids[:3])} |"
        )
    lines += [
        "",
        "## Interpretations",
        "",
        "| entry | erratum | title | vectors | examples |",
        "|---|---|---|---:|---|",
    ]
    for iid, entry in entries.items():
        ids = sorted(by_entry.get(iid, []))
        lines.append(
            f"| {iid} | {'yes' if entry['erratum'] else ''} | {entry['title']} | {len(ids)} | "
            f"{', '.join(ids[:3])} |"
        )
    lines += [
        "",
        "## Executable alternatives",
        "",
        "What each alternative the reference engine runs changes, and the check that every "
        "vector it changes names its entry: `specs/phase2/readings-coverage.md` (`python -m "
        "tools readings --profile phase2-context`). "
        f"{sum(1 for ids in changes.values() if ids)} of {len(changes)} executable "
        "alternatives change at least one vector's expected output.",
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Write the corpus and the coverage table, or with ``--check`` compare them."""
    parser = argparse.ArgumentParser(prog="python -m tools.generate.phase2.build")
    parser.add_argument("--check", action="store_true", help="exit 1 if a file would change")
    args = parser.parse_args(argv)
    try:
        outputs, vectors = build()
    except BuildError as exc:
        print(f"phase2 build: {exc}", file=sys.stderr)
        return 1
    changes = alternative_changes(vectors)
    gaps = coverage_gaps(vectors, changes)
    for gap in gaps:
        print(f"coverage gap: {gap}", file=sys.stderr)
    outputs_paths = {VECTORS / name: data for name, data in outputs.items()}
    outputs_paths[COVERAGE] = coverage_markdown(vectors, changes).encode("utf-8")
    stale = sorted(p for p in VECTORS.glob("*.json") if p not in outputs_paths)
    hand = sum(1 for v in vectors if HAND_ID.match(v["id"]))
    generated = len(vectors) - hand
    summary = f"{len(outputs)} files, {len(vectors)} vectors ({hand} hand, {generated} generated)"
    if args.check:
        differing = [p for p, d in outputs_paths.items() if not p.is_file() or p.read_bytes() != d]
        for path in [*differing, *stale]:
            print(f"differs: {path.relative_to(ROOT)}", file=sys.stderr)
        if differing or stale or gaps:
            return 1
        print(f"phase2 corpus up to date: {summary}")
        return 0
    VECTORS.mkdir(parents=True, exist_ok=True)
    for path, data in outputs_paths.items():
        if not path.is_file() or path.read_bytes() != data:
            path.write_bytes(data)
    for path in stale:
        path.unlink()
        print(f"removed stale {path.relative_to(ROOT)}", file=sys.stderr)
    print(f"wrote {summary}")
    return 1 if gaps else 0


if __name__ == "__main__":
    sys.exit(main())
