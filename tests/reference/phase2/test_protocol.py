"""``serve-protocol`` (phase6-adapter/1, profile phase2-context/1) and the command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from conformance.phase2 import compare, property_failures
from tools.generate.phase2.build import read_corpus, schema_validator

ROOT = Path(__file__).resolve().parents[3]
CORPUS = read_corpus()


def _cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "reference.phase2", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        check=False,
    )


class TestServeProtocol:
    """The reference behind the subprocess protocol, exactly as the harness will drive it."""

    def test_session(self) -> None:
        """Handshake, one run per vector (a sample of every family and op), stop; every
        message valid under the Phase 2 protocol schemas; outcomes pass, in a fresh process
        (the determinism property's fresh-process leg)."""
        sample = CORPUS[::7]
        lines: list[dict[str, Any]] = [{"cmd": "start", "protocol": "phase6-adapter/1"}]
        lines += [
            {"cmd": "run", "seq": seq, "fixture": v["input"]["fixture"], "call": v["input"]["call"]}
            for seq, v in enumerate(sample)
        ]
        lines.append({"cmd": "stop"})
        run_schema = schema_validator("protocol/run.schema.json")
        for line in lines[1:-1]:
            run_schema.validate(line)
        done = _cli("serve-protocol", stdin="".join(json.dumps(m) + "\n" for m in lines))
        assert done.returncode == 0, done.stderr
        replies = [
            json.loads(line) for line in done.stdout.split("\n") if line
        ]  # "\n" only: U+2028 may occur raw
        assert len(replies) == len(lines)
        schema_validator("protocol/start-reply.schema.json").validate(replies[0])
        assert replies[0]["capabilities"] == [
            "phase2.context",
            "phase2.compact",
            "phase2.summarize",
        ]
        reply_schema = schema_validator("protocol/run-reply.schema.json")
        for seq, (vector, reply) in enumerate(zip(sample, replies[1:-1], strict=True)):
            reply_schema.validate(reply)
            assert reply["seq"] == seq
            fixture, call = vector["input"]["fixture"], vector["input"]["call"]
            assert compare(fixture, call, vector["expect"], reply["result"]) == []
            assert property_failures(fixture, call, reply["result"]) == []
        assert replies[-1] == {"ok": True}

    def test_wrong_protocol_and_internal_error(self) -> None:
        """An unknown protocol is refused (exit 1); a broken run is an internal_error and the
        process stays alive."""
        refused = _cli(
            "serve-protocol", stdin=json.dumps({"cmd": "start", "protocol": "x/9"}) + "\n"
        )
        assert refused.returncode == 1
        assert json.loads(refused.stdout)["ok"] is False
        messages = [
            {
                "cmd": "run",
                "seq": 1,
                "fixture": {"entities": 5},
                "call": {"op": "context", "params": []},
            },
            {"cmd": "stop"},
        ]
        done = _cli(
            "serve-protocol", stdin="not json\n" + "".join(json.dumps(m) + "\n" for m in messages)
        )
        first, last = (json.loads(line) for line in done.stdout.split("\n") if line)
        assert first["seq"] == 1
        assert "internal_error" in first
        assert last == {"ok": True}


class TestCommandLine:
    """load, dump, job, compact, summarize, context on a SQLite file."""

    def test_round_trip(self, tmp_path: Path) -> None:
        """A fixture loaded, previewed, summarized, compacted and dumped."""
        db = f"sqlite:///{tmp_path / 'p2.db'}"
        fixture: dict[str, Any] = {
            "event_log": [
                {
                    "id": 1,
                    "user_id": "u1",
                    "chat_id": "c1",
                    "event_type": "inbox_item_received",
                    "payload": {"text": "Book flights. Soon."},
                    "created_at": "2024-05-01T10:00:00Z",
                }
            ],
            "inbox_items": [
                {
                    "id": 1,
                    "user_id": "u1",
                    "chat_id": "c1",
                    "text": "book flights",
                    "created_at": "2024-05-01T10:00:00Z",
                }
            ],
        }
        assert _cli("load", "--db", db, "-", stdin=json.dumps(fixture)).returncode == 0
        preview = _cli(
            "context", "--db", db, "--chat-id", "c1", "--user-id", "u1", "--query", "flights"
        )
        assert json.loads(preview.stdout)["sources"]["hot_turns"] == 1
        made = _cli(
            "summarize",
            "--db",
            db,
            "--user-id",
            "u1",
            "--chat-id",
            "c1",
            "--now",
            "2024-06-01T00:00:00Z",
        )
        assert json.loads(made.stdout) == {"summary_id": 1, "source_count": 1}
        job = _cli(
            "job", "--db", db, stdin=json.dumps({"op": "compact", "now": "2024-06-30T12:00:00Z"})
        )
        assert json.loads(job.stdout)["inbox_items_removed"] == 1
        state = json.loads(_cli("dump", "--db", db).stdout)
        assert state["inbox_items"] == []
        assert [e["event_type"] for e in state["event_log"]] == [
            "inbox_item_received",
            "memory_summary_created",
            "memory_compaction_completed",
        ]
        assert state["memory_summaries"][0]["summary_text"] == "Book flights."

    def test_exit_statuses(self, tmp_path: Path) -> None:
        """1 for an invalid_job or a 4xx answer, 2 for unusable input."""
        db = f"sqlite:///{tmp_path / 'p2.db'}"
        assert _cli("compact", "--db", db, "--now", "yesterday").returncode == 1
        assert _cli("context", "--db", db, "--chat-id", "c", "--query", " ").returncode == 1
        assert _cli("load", "--db", db, "-", stdin="{not json").returncode == 2
        assert _cli("load", "--db", db, "-", stdin='{"users": []}').returncode == 2
