"""A tiny synthetic corpus for the harness tests, and the table the fake adapters answer from.

The expected results are made up (schema-valid, not SPEC-006-correct): the harness only
compares, so its tests must not depend on the real corpus or the reference. Every fake adapter
under ``tests/fakes/`` answers a request by looking its ``query`` up in the table; the vector
whose query is :data:`TRIGGER` is where the broken fakes misbehave.
"""

from __future__ import annotations

import hashlib
import json
import shlex
import sys
from pathlib import Path
from typing import Any

FAKES = Path(__file__).parent / "fakes"
TRIGGER = "trigger"
STORE = "stores/s.jsonl"


def sha(text: str) -> str:
    """Lowercase hex SHA-256 of ``text``."""
    return hashlib.sha256(text.encode()).hexdigest()


def package_result(query: str, memory_ids: list[str], *, score: float = 1.5) -> dict[str, Any]:
    """A schema-valid success envelope for ``query`` selecting ``memory_ids``."""
    selected = [
        {
            "memory_id": m,
            "record_hash": sha(m),
            "store_path": STORE,
            "score": score,
            "excerpt": f"text of {m}",
            "excerpt_tokens": 3,
        }
        for m in memory_ids
    ]
    package = {
        "query": {"raw": query, "query_hash": sha(query)},
        "budget": {
            "max_excerpt_tokens": 64,
            "used_excerpt_tokens": 3 * len(selected),
            "remaining_excerpt_tokens": 64 - 3 * len(selected),
            "per_item_max_excerpt_tokens": 64,
            "max_items": 50,
        },
        "selection": {"selected": selected, "dropped": []},
        "package_hash": sha("package " + query),
        "controller_version": "phase6-v1",
    }
    receipt = {
        "kind": "memory.read",
        "data": {
            "query_hash": sha(query),
            "store_paths": [STORE],
            "selected_count": len(selected),
            "package_hash": package["package_hash"],
        },
    }
    return {"package": package, "receipt": receipt}


def request(query: str, store: str = STORE) -> dict[str, Any]:
    """A request reading ``store``."""
    return {"query": query, "store_paths": [store], "budget": {"max_excerpt_tokens": 64}}


def _vector(vector_id: str, query: str, expect: dict[str, Any], **extra: Any) -> dict[str, Any]:
    vector = {
        "id": vector_id,
        "description": f"synthetic vector {vector_id}",
        "clauses": ["S6-OUT-01"],
        "interpretations": [],
        "level": "required",
        "input": {
            "request": request(query),
            "files": {STORE: {"lines": ['{"memory_id":"m1","text":"hello"}']}},
        },
        "expect": expect,
    }
    vector.update(extra)
    return vector


def corpus_documents(copies: int = 0) -> dict[str, dict[str, Any]]:
    """File name -> vector file; ``copies`` adds that many more plain vectors to ``gamma``."""
    alpha = {
        "format": "phase6-vectors/1",
        "area": "alpha",
        "description": "Alpha vectors.",
        "source": "hand",
        "vectors": [
            _vector("alpha-one", "alpha one", package_result("alpha one", ["m1"])),
            _vector(
                "alpha-pinned",
                "alpha pinned",
                package_result("alpha pinned", ["m1"], score=2.0),
                level="pinned",
                interpretations=["INT-01"],
                clauses=["S6-HASH-01"],
            ),
        ],
    }
    trigger = _vector("beta-0-trigger", TRIGGER, package_result(TRIGGER, ["m1", "m2"]))
    trigger["input"]["files"] = {
        STORE: {
            "lines": ['{"memory_id":"m1","text":"a"}', {"base64": "/w=="}, "{}"],
            "eol": "\r\n",
            "final_eol": False,
        },
        "snap/trust.json": {"text": '{"format": "phase6-trust/1", "entries": []}'},
        "raw.bin": {"base64": "AAEC"},
        "empty-dir": {"directory": True},
    }
    beta = {
        "format": "phase6-vectors/1",
        "area": "beta",
        "description": "Beta vectors.",
        "source": "hand",
        "vectors": [
            _vector(
                "beta-error",
                "   ",
                {"error": {"code": "invalid_query", "path": "/query"}},
                clauses=["S6-ERR-02"],
            ),
            trigger,
        ],
    }
    documents = {"alpha.json": alpha, "beta-errors.json": beta}
    if copies:
        documents["gamma.json"] = {
            "format": "phase6-vectors/1",
            "area": "gamma",
            "description": "Many plain vectors.",
            "source": "generated:tests",
            "vectors": [
                _vector(f"gamma-{i:04d}", f"gamma {i}", package_result(f"gamma {i}", ["m1"]))
                for i in range(copies)
            ],
        }
    return documents


def answer_table(documents: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """query -> the result envelope a correct implementation returns (errors get extras)."""
    table: dict[str, Any] = {}
    for document in documents.values():
        for vector in document["vectors"]:
            expect = json.loads(json.dumps(vector["expect"]))
            if "error" in expect:
                expect["error"] |= {"message": "query is empty", "clause": "S6-ERR-02"}
            table[vector["input"]["request"]["query"]] = expect
    return table


def write_corpus(directory: Path, copies: int = 0) -> tuple[Path, Path]:
    """Write the corpus under ``directory/vectors`` and the table; returns (vectors, table)."""
    documents = corpus_documents(copies)
    vectors = directory / "vectors"
    vectors.mkdir(parents=True)
    for name, document in documents.items():
        (vectors / name).write_text(json.dumps(document, indent=1), "utf-8")
    table = directory / "table.json"
    table.write_text(json.dumps(answer_table(documents)), "utf-8")
    return vectors, table


def fake_spec(name: str, table: Path, *args: str) -> str:
    """The ``cmd:`` adapter spec running ``tests/fakes/<name>.py`` with the table."""
    argv = [sys.executable, str(FAKES / f"{name}.py"), str(table), *args]
    return "cmd:" + shlex.join(argv)
