"""``python -m reference serve --readings-per-run``: the kit's attribution keeps one reference
process for every set of alternatives it tries; each run must be answered exactly as a process
started with ``--readings`` those alternatives would answer it."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from reference import Readings
from reference._serve import serve

REQUEST: dict[str, Any] = {
    "query": "alpha",
    "store_paths": ["s.jsonl"],
    "budget": {"max_excerpt_tokens": 100, "max_items": 1},
}


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A vector root with three records that all match "alpha"."""
    lines = "".join(json.dumps({"memory_id": f"m{i}", "text": "alpha"}) + "\n" for i in range(3))
    (tmp_path / "s.jsonl").write_text(lines, "utf-8")
    return tmp_path


def _replies(messages: list[dict[str, Any]], **options: Any) -> list[dict[str, Any]]:
    """Serve ``messages`` (one JSON line each) and return the reply lines, parsed."""
    source = io.BytesIO(b"".join(json.dumps(m).encode() + b"\n" for m in messages))
    out = io.BytesIO()
    serve(source, out, **options)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def _run(seq: int, root: Path, **extra: Any) -> dict[str, Any]:
    return {"cmd": "run", "seq": seq, "root": str(root), "request": REQUEST, **extra}


READINGS = [
    [],
    ["INT-27/budget-exhausted"],
    ["INT-28/list-first-n-drops(n=1)"],
    ["INT-27/budget-exhausted", "INT-08/verbatim"],
]


class TestReadingsPerRun:
    """Each run is answered under the readings it names, one process for all of them."""

    def test_each_run_is_answered_as_a_process_started_with_its_readings(self, root: Path) -> None:
        """Four runs in one process, each naming other readings, give what four processes
        started with ``--readings`` give, in order."""
        shared = _replies(
            [_run(i, root, readings=ids) for i, ids in enumerate(READINGS, 1)], per_run=True
        )
        alone = [
            _replies([_run(i, root)], readings=Readings.of(ids))[0]
            for i, ids in enumerate(READINGS, 1)
        ]
        assert shared == alone
        assert shared[0]["result"] != shared[1]["result"]  # the readings did change something

    def test_an_unknown_reading_is_that_runs_internal_error(self, root: Path) -> None:
        """An unknown ID or a malformed member fails only its own run; the next is answered."""
        replies = _replies(
            [
                _run(1, root, readings=["INT-99/no-such-reading"]),
                _run(2, root, readings="INT-27/budget-exhausted"),
                _run(3, root, readings=["INT-27/budget-exhausted"]),
            ],
            per_run=True,
        )
        assert [r["seq"] for r in replies] == [1, 2, 3]
        assert "INT-99/no-such-reading" in replies[0]["internal_error"]["message"]
        assert "must be a list of reading IDs" in replies[1]["internal_error"]["message"]
        assert "result" in replies[2]

    def test_without_the_option_a_run_cannot_choose_its_readings(self, root: Path) -> None:
        """A plain ``serve`` (what certification runs) ignores a ``readings`` member."""
        plain = _replies([_run(1, root)])
        named = _replies([_run(1, root, readings=["INT-27/budget-exhausted"])])
        assert named == plain
