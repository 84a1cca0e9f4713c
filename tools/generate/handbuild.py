"""Build ``vectors/<area>-hand.json`` from the hand-written sources in ``hand/<area>.py``.

Usage (from the repository root)::

    python -m tools.generate.handbuild          # (re)write the files
    python -m tools.generate.handbuild --check  # exit 1 if a committed file differs

The builder computes only mechanical things (every other expected value is written by hand in
the sources, with the working in each vector's ``comment``):

- record_hash markers: SHA-256 hex of ``rfc8785.dumps(<the normalized record written by hand>)``;
- invalid-line markers: SHA-256 hex of the raw line bytes (INT-19), the line named by file and
  index or written out by hand;
- query_hash markers: SHA-256 hex of the UTF-8 bytes of the hand-normalized query;
- trust snapshots written as JSON text (after resolving markers inside them);
- package_hash: SHA-256 hex of ``rfc8785.dumps(package without package_hash)`` (INT-03), and
  the receipt (INT-43): kind, query_hash and package_hash copied from the package,
  selected_count = len(selected), store_paths as written by hand.

One label is added mechanically: INT-11 to a package vector whose query is not its own
normalized form (query.raw shows the query as given, INT-11's pinned reading).

It also refuses sources with unknown clause or interpretation IDs, duplicate or malformed IDs,
and ``level`` inconsistent with ``interpretations``. Output is deterministic: the same sources
give byte-identical files.

The vector files are named ``<area>-hand.json`` (area = the spec area the module targets, the
loader's ``<area>-<family>.json`` rule with family ``hand``); ``"source": "hand"`` marks them.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import importlib
import json
import re
import sys
import tomllib
from pathlib import Path
from typing import Any

import rfc8785

from conformance.readings import normalize_text
from tools.generate._errors import BuildError

ROOT = Path(__file__).resolve().parents[2]
VECTORS = ROOT / "vectors"
SPECS = ROOT / "specs"
FILE_SUFFIX = "-hand.json"
FORMAT = "phase6-vectors/1"
FAMILIES: tuple[tuple[str, str], ...] = (
    # (family module, vector ID prefix)
    ("query", "query"),
    ("terms", "terms"),
    ("matching", "matching"),
    ("tags", "tags"),
    ("scoring", "scoring"),
    ("recency", "recency"),
    ("ordering", "ordering"),
    ("reader", "reader"),
    ("records", "records"),
    ("paths", "paths"),
    ("hashing", "hashing"),
    ("trust", "trust"),
    ("truncation", "trunc"),
    ("budget", "budget"),
    ("selection", "selection"),
    ("errors", "errors"),
    ("receipt", "receipt"),
    ("package", "package"),
)
ID_RE = re.compile(r"^(?P<prefix>[a-z]+)-h(?P<num>[0-9]{3})$")
Json = Any


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _known_ids() -> tuple[set[str], set[str]]:
    clauses = tomllib.loads((SPECS / "clauses.toml").read_text(encoding="utf-8"))
    ints = tomllib.loads((SPECS / "interpretations.toml").read_text(encoding="utf-8"))
    return {c["id"] for c in clauses["clause"]}, {e["id"] for e in ints["entry"]}


def _line_bytes(files: dict[str, Json], name: str, index: int) -> bytes:
    spec = files.get(name)
    if not isinstance(spec, dict) or "lines" not in spec:
        raise BuildError(f"line marker names {name!r}, which is not a lines file")
    item = spec["lines"][index]
    raw = base64.b64decode(item["base64"]) if isinstance(item, dict) else item.encode("utf-8")
    if b"\n" in raw or raw.endswith(b"\r"):
        raise BuildError(f"line {index} of {name!r} holds a line terminator; write it explicitly")
    return raw


def _resolve(value: Json, files: dict[str, Json]) -> Json:
    if isinstance(value, dict):
        if len(value) == 1:
            ((key, inner),) = value.items()
            if key == "$record_hash":
                return _sha256(rfc8785.dumps(inner))
            if key == "$line_hash":
                return _sha256(_line_bytes(files, inner[0], inner[1]))
            if key == "$raw_line_hash":
                return _sha256(inner.encode("utf-8"))
            if key == "$query_hash":
                return _sha256(inner.encode("utf-8"))
        return {k: _resolve(v, files) for k, v in value.items()}
    if isinstance(value, list):
        return [_resolve(v, files) for v in value]
    return value


def _build_files(files: dict[str, Json]) -> dict[str, Json]:
    out: dict[str, Json] = {}
    for name, spec in files.items():
        if isinstance(spec, dict) and set(spec) == {"$json"}:
            document = _resolve(spec["$json"], files)
            out[name] = {"text": json.dumps(document, ensure_ascii=False) + "\n"}
        else:
            out[name] = spec
    return out


def _build_expect(expect: Json, files: dict[str, Json]) -> Json:
    if "error" in expect:
        return expect
    pkg = _resolve(expect["$package"], files)
    package_hash = _sha256(rfc8785.dumps(pkg))
    package = {
        "query": pkg["query"],
        "budget": pkg["budget"],
        "selection": pkg["selection"],
        "package_hash": package_hash,
        "controller_version": pkg["controller_version"],
    }
    receipt = {
        "kind": "memory.read",
        "data": {
            "query_hash": pkg["query"]["query_hash"],
            "store_paths": list(expect["$receipt_store_paths"]),
            "selected_count": len(pkg["selection"]["selected"]),
            "package_hash": package_hash,
        },
    }
    return {"package": package, "receipt": receipt}


def _check_vector(
    vector: Json, prefix: str, seen: set[str], clause_ids: set[str], int_ids: set[str]
) -> None:
    vid = vector["id"]
    match = ID_RE.match(vid)
    if match is None or match["prefix"] != prefix:
        raise BuildError(f"{vid}: id must be {prefix}-hNNN")
    if vid in seen:
        raise BuildError(f"{vid}: duplicate id")
    seen.add(vid)
    if not vector["clauses"]:
        raise BuildError(f"{vid}: no clause")
    for cid in vector["clauses"]:
        if cid not in clause_ids:
            raise BuildError(f"{vid}: unknown clause {cid}")
    for iid in vector["interpretations"]:
        if iid not in int_ids:
            raise BuildError(f"{vid}: unknown interpretation {iid}")
    if len(set(vector["clauses"])) != len(vector["clauses"]):
        raise BuildError(f"{vid}: duplicate clause")
    if len(set(vector["interpretations"])) != len(vector["interpretations"]):
        raise BuildError(f"{vid}: duplicate interpretation")
    if (vector["level"] == "pinned") != bool(vector["interpretations"]):
        raise BuildError(f"{vid}: level does not match interpretations")


def _interpretations(vector: Json) -> list[str]:
    """The source's interpretations, and INT-11 for a package whose query.raw (the query as
    given) is not the normalized query (see the module docstring)."""
    found = list(vector["interpretations"])
    query = (
        vector["input"]["request"].get("query")
        if isinstance(vector["input"]["request"], dict)
        else None
    )
    if "$package" in vector["expect"] and isinstance(query, str) and query != normalize_text(query):
        found = sorted({*found, "INT-11"})
    return found


def build() -> dict[str, bytes]:
    """Return ``{file name: bytes}`` for every hand vector file."""
    clause_ids, int_ids = _known_ids()
    seen: set[str] = set()
    outputs: dict[str, bytes] = {}
    for family, prefix in FAMILIES:
        module = importlib.import_module(f"tools.generate.hand.{family}")
        vectors_out = []
        for vector in module.VECTORS:
            _check_vector(vector, prefix, seen, clause_ids, int_ids)
            files = vector["input"]["files"]
            out = dict(vector)
            out["input"] = {"request": vector["input"]["request"], "files": _build_files(files)}
            out["expect"] = _build_expect(vector["expect"], files)
            out["interpretations"] = _interpretations(vector)
            out["level"] = "pinned" if out["interpretations"] else "required"
            vectors_out.append(out)
        document = {
            "format": FORMAT,
            "area": family,
            "description": module.DESCRIPTION,
            "source": "hand",
            "vectors": vectors_out,
        }
        text = json.dumps(document, ensure_ascii=False, indent=2) + "\n"
        outputs[f"{family}{FILE_SUFFIX}"] = text.encode("utf-8")
    return outputs


def main(argv: list[str] | None = None) -> int:
    """Write the hand vector files, or with ``--check`` compare them with the committed ones."""
    parser = argparse.ArgumentParser(prog="python -m tools.generate.handbuild")
    parser.add_argument("--check", action="store_true", help="exit 1 if a file would change")
    args = parser.parse_args(argv)
    outputs = build()
    stale = sorted(
        p.name for p in VECTORS.glob(f"*{FILE_SUFFIX}") if p.name not in outputs and p.is_file()
    )
    if args.check:
        differing = [
            name
            for name, data in outputs.items()
            if not (VECTORS / name).is_file() or (VECTORS / name).read_bytes() != data
        ]
        for name in differing + stale:
            print(f"differs: vectors/{name}", file=sys.stderr)
        count = sum(len(json.loads(d)["vectors"]) for d in outputs.values())
        if differing or stale:
            return 1
        print(f"hand vectors up to date: {len(outputs)} files, {count} vectors")
        return 0
    VECTORS.mkdir(exist_ok=True)
    for name, data in outputs.items():
        target = VECTORS / name
        if not target.is_file() or target.read_bytes() != data:
            target.write_bytes(data)
    for name in stale:
        print(f"note: vectors/{name} is not produced by any hand source", file=sys.stderr)
    count = sum(len(json.loads(d)["vectors"]) for d in outputs.values())
    print(f"wrote {len(outputs)} files, {count} vectors")
    return 0


if __name__ == "__main__":
    sys.exit(main())
