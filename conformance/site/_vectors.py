"""The vector drill-down's data: each vector's input and expected result from the corpus, beside
each implementation's result from its newest report, as one ``<script src>`` data file per
vector (``phase6Vector({...})``), loaded only when the vector is chosen.

The SPEC-006 corpus comes from :func:`conformance.corpus.load_corpus`; the Phase 2 corpus
(``phase2-context-vectors/1``, data the harness's Phase 2 package owns) is read as plain JSON,
its ``input`` and ``expect`` shown as they are.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from conformance._kit import slugify, vectors_dir
from conformance.corpus import file_spec_json, load_corpus
from conformance.site._model import Implementation, Profile

__all__ = ["MAX_SHOWN", "VectorDetail", "corpus_details", "data_file_name", "vector_script"]

#: The longest input or expected text put in a data file (the corpus keeps it whole).
MAX_SHOWN = 60_000


@dataclass(frozen=True)
class VectorDetail:
    """What the corpus says about one vector: its metadata, input and expected result."""

    id: str
    description: str
    area: str
    level: str
    clauses: tuple[str, ...]
    interpretations: tuple[str, ...]
    input: str | None
    expected: str | None


def _pretty(value: Any) -> str:
    text = json.dumps(value, indent=2, ensure_ascii=False, sort_keys=True)
    if len(text) > MAX_SHOWN:
        return f"{text[:MAX_SHOWN]}… ({len(text) - MAX_SHOWN} more characters in the corpus)"
    return text


def corpus_details(profile: Profile, root: Path | None = None) -> dict[str, VectorDetail]:
    """Every vector of ``profile``'s corpus by ID (empty when the corpus is not here)."""
    if profile.contract == "phase6-v1":
        corpus = load_corpus(root, validate=False)  # the kit's; `vectors check` validates it
        return {
            v.id: VectorDetail(
                v.id,
                v.description,
                v.area,
                str(v.level),
                v.clauses,
                v.interpretations,
                _pretty(
                    {
                        "request": v.request,
                        "files": {path: file_spec_json(spec) for path, spec in v.files},
                    }
                ),
                _pretty(v.expect),
            )
            for v in corpus.vectors
        }
    directory = (root or vectors_dir()) / "phase2-context"
    details: dict[str, VectorDetail] = {}
    for path in sorted(directory.glob("*.json")) if directory.is_dir() else ():
        document = json.loads(path.read_text("utf-8"))
        for raw in document.get("vectors", []):
            details[raw["id"]] = VectorDetail(
                str(raw["id"]),
                str(raw.get("description", "")),
                str(document.get("area", "")),
                str(raw.get("level", "")),
                tuple(raw.get("clauses", ())),
                tuple(raw.get("interpretations", ())),
                _pretty(raw.get("input")),
                _pretty(raw.get("expect")),
            )
    return details


def data_file_name(vector_id: str) -> str:
    """The data file of a vector: a readable slug plus a short hash (slugs may collide)."""
    digest = hashlib.sha256(vector_id.encode("utf-8", "surrogatepass")).hexdigest()[:10]
    return f"{slugify(vector_id)[:60]}-{digest}.js"


def _script_json(value: Any) -> str:
    """JSON safe inside a script file or element: ASCII (lone surrogates as escapes), no ``<``
    (so no ``</script>``)."""
    return json.dumps(value, ensure_ascii=True).replace("<", "\\u003c")


def _failure(raw: Mapping[str, Any]) -> dict[str, Any]:
    actual = raw.get("actual")
    return {
        "kind": str(raw.get("kind", "")),
        "message": str(raw.get("message", "")),
        "actual": None if actual is None else str(actual),
        "diff": str(raw.get("diff") or ""),
    }


def vector_script(
    vector_id: str,
    detail: VectorDetail | None,
    implementations: Sequence[Implementation],
) -> str:
    """The data file of one vector: ``phase6Vector({...});``."""
    rows = []
    meta: Mapping[str, Any] = {}
    for implementation in implementations:
        run = implementation.latest
        outcome = run.outcomes.get(vector_id, "not run")
        result = run.not_passed.get(vector_id) or {}
        meta = meta or result
        error = result.get("error")
        rows.append(
            {
                "name": run.name,
                "version": run.version,
                "outcome": outcome,
                "failures": [_failure(f) for f in result.get("failures") or ()],
                "error": None if error is None else json.dumps(error, ensure_ascii=False),
            }
        )
    data = {
        "id": vector_id,
        "description": detail.description if detail else "",
        "area": detail.area if detail else str(meta.get("area", "")),
        "level": detail.level if detail else str(meta.get("level", "")),
        "clauses": list(detail.clauses if detail else meta.get("clauses", ())),
        "interpretations": list(
            detail.interpretations if detail else meta.get("interpretations", ())
        ),
        "input": detail.input if detail else None,
        "expected": detail.expected if detail else None,
        "implementations": rows,
    }
    return f"phase6Vector({_script_json(data)});\n"
