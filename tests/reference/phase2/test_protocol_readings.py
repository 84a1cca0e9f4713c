"""``python -m reference.phase2 serve-protocol --readings-per-run``: one process answers each
run under the readings and policy text the run names, exactly as a process started with
those readings would."""

from __future__ import annotations

import io
import json
from typing import Any

from paths import REPO

from reference.phase2._protocol import serve_protocol
from reference.phase2._readings import Readings

#: A context vector's fixture and call (the first of the tokens hand vectors).
_VECTOR = json.loads((REPO / "vectors/phase2-context/tokens-hand.json").read_text("utf-8"))[
    "vectors"
][0]["input"]


def _replies(messages: list[dict[str, Any]], **options: Any) -> list[dict[str, Any]]:
    """Serve ``messages`` and return the reply lines, parsed."""
    source = io.BytesIO(b"".join(json.dumps(m).encode() + b"\n" for m in messages))
    out = io.BytesIO()
    serve_protocol(source, out, **options)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def _run(seq: int, query: str, **extra: Any) -> dict[str, Any]:
    call = json.loads(json.dumps(_VECTOR["call"]))
    call["params"] = [[k, query if k == "query" else v] for k, v in call["params"]]
    return {"cmd": "run", "seq": seq, "fixture": _VECTOR["fixture"], "call": call, **extra}


CHOSEN: list[tuple[list[str], str | None]] = [
    ([], None),
    ([], "Answer from the memory below."),
    (["P2-INT-01/ceil-utf16-units"], None),
    (["P2-INT-01/ceil-utf16-units"], "Answer from the memory below."),
]


class TestReadingsPerRun:
    """Each run is answered under what it names; a bad member fails only its own run."""

    def test_each_run_is_answered_as_a_process_started_with_its_readings(self) -> None:
        """Four runs in one process give what four processes started with those readings
        and policy texts give."""
        query = "naïve  query"
        shared = _replies(
            [_run(i, query, readings=ids, policy=text) for i, (ids, text) in enumerate(CHOSEN, 1)],
            per_run=True,
        )
        alone = [
            _replies([_run(i, query)], readings=Readings.of(ids, policy=text))[0]
            for i, (ids, text) in enumerate(CHOSEN, 1)
        ]
        assert shared == alone
        assert shared[0]["result"] != shared[1]["result"]  # the policy text changed the answer

    def test_a_bad_member_is_that_runs_internal_error(self) -> None:
        """An unknown ID, a policy that is not text: that run's internal error, then on."""
        replies = _replies(
            [_run(1, "q", readings=["P2-INT-99/none"]), _run(2, "q", policy=7), _run(3, "q")],
            per_run=True,
        )
        assert [r["seq"] for r in replies] == [1, 2, 3]
        assert "P2-INT-99/none" in replies[0]["internal_error"]["message"]
        assert "'policy' must be a string or null" in replies[1]["internal_error"]["message"]
        assert "result" in replies[2]

    def test_without_the_option_a_run_cannot_choose(self) -> None:
        """A plain serve-protocol (what certification runs) ignores both members."""
        plain = _replies([_run(1, "q")])
        named = _replies([_run(1, "q", readings=["P2-INT-01/ceil-utf16-units"], policy="x")])
        assert named == plain
