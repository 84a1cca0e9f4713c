"""The JavaScript adapter skeleton (conformance/examples/skeleton/adapter.js): its side of
phase6-adapter/1 message by message, and the protocol transcript of specs/protocol.md replayed
through it (what the kit certifies of it, wired to the JavaScript example's ``memoryRead``:
test_skeleton.py's TestSkeletonCertified)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from paths import REPO

NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(
    NODE is None, reason="node (Node.js >= 20) is not on PATH: the JavaScript skeleton cannot run"
)

SKELETON = REPO / "conformance" / "examples" / "skeleton" / "adapter.js"
EXAMPLE = REPO / "conformance" / "examples" / "javascript" / "src" / "memoryRead.js"


def _converse(
    tmp_path: Path, source: str, *messages: dict[str, Any]
) -> tuple[int, list[dict[str, Any]], str]:
    """Feed ``messages`` to the skeleton around the function exported as ``memoryRead`` by
    ``source``; its exit status, replies and stderr."""
    module = tmp_path / "impl.js"
    module.write_text(source, "utf-8")
    stdin = "".join(json.dumps(m) + "\n" for m in messages)
    done = subprocess.run(
        [str(NODE), str(SKELETON), "./impl.js", "memoryRead"],
        input=stdin, cwd=tmp_path, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    return done.returncode, [json.loads(line) for line in done.stdout.splitlines()], done.stderr


START = {"cmd": "start", "protocol": "phase6-adapter/1"}


class TestSkeletonProtocol:
    """The skeleton's side of phase6-adapter/1, message by message."""

    def test_handshake_run_stop(self, tmp_path: Path) -> None:
        """start is answered with the implementation and memory.read; run runs in the vector
        root (the working directory, and the root passed along) and echoes seq; stop is
        acknowledged and ends the process with status 0."""
        root = tmp_path / "root"
        root.mkdir()
        status, replies, _ = _converse(
            tmp_path,
            "exports.memoryRead = (request, {root}) =>"
            " ({error: {code: 'invalid_request', echo: request.query, cwd: process.cwd(), root}});",
            START,
            {"cmd": "run", "seq": 7, "root": str(root), "request": {"query": "q"}},
            {"cmd": "stop"},
        )
        assert status == 0
        assert replies[0]["ok"] is True
        assert replies[0]["capabilities"] == ["memory.read"]
        assert replies[0]["implementation"]["contract"] == "phase6-v1"
        assert replies[0]["implementation"]["language"] == "javascript"
        assert replies[1] == {
            "seq": 7,
            "result": {
                "error": {"code": "invalid_request", "echo": "q", "cwd": str(root),
                          "root": str(root)},
            },
        }  # fmt: skip
        assert replies[2] == {"ok": True}

    def test_async_runs_answered_in_order(self, tmp_path: Path) -> None:
        """An async function's runs are answered one at a time, in order, though a later one
        would finish first."""
        status, replies, _ = _converse(
            tmp_path,
            "exports.memoryRead = async (request) => {"
            " await new Promise((r) => setTimeout(r, request.wait));"
            " return {package: {n: request.n}}; };",
            START,
            *(
                {"cmd": "run", "seq": n, "root": str(tmp_path), "request": {"n": n, "wait": w}}
                for n, w in ((1, 200), (2, 0), (3, 50))
            ),
            {"cmd": "stop"},
        )
        assert status == 0
        assert [r["seq"] for r in replies[1:4]] == [1, 2, 3]
        assert [r["result"]["package"]["n"] for r in replies[1:4]] == [1, 2, 3]

    def test_exceptions_are_internal_errors(self, tmp_path: Path) -> None:
        """A throw, a rejected Promise, a result JSON cannot carry and a non-object result
        each become internal_error, and the adapter goes on."""
        status, replies, _ = _converse(
            tmp_path,
            "exports.memoryRead = async (request) => {"
            " if (request.k === 'throw') throw new RangeError('bad budget');"
            " if (request.k === 'reject') return Promise.reject(new Error('no store'));"
            " if (request.k === 'bigint') return {package: {n: 1n}};"
            " return 42; };",
            START,
            *(
                {"cmd": "run", "seq": i, "root": str(tmp_path), "request": {"k": k}}
                for i, k in enumerate(("throw", "reject", "bigint", "number"))
            ),
            {"cmd": "stop"},
        )
        assert status == 0
        errors = [r["internal_error"]["message"] for r in replies[1:5]]
        assert errors[0] == "RangeError: bad budget"
        assert errors[1] == "Error: no store"
        assert "BigInt" in errors[2]
        assert errors[3] == "TypeError: memoryRead returned number, not an object"
        assert all("traceback" in r["internal_error"] for r in replies[1:5])
        assert replies[5] == {"ok": True}

    def test_logging_goes_to_stderr(self, tmp_path: Path) -> None:
        """console.log of the implementation goes to stderr: stdout stays protocol lines."""
        status, replies, stderr = _converse(
            tmp_path,
            "exports.memoryRead = (request) => { console.log('debug line');"
            " return {package: {}}; };",
            START,
            {"cmd": "run", "seq": 1, "root": str(tmp_path), "request": {}},
            {"cmd": "stop"},
        )
        assert status == 0
        assert len(replies) == 3
        assert "debug line" in stderr

    def test_other_protocol_is_refused(self, tmp_path: Path) -> None:
        """A protocol the skeleton does not speak is refused with ok false and exit status 1."""
        status, replies, _ = _converse(
            tmp_path, "exports.memoryRead = () => ({});", {"cmd": "start", "protocol": "other/9"}
        )
        assert status == 1
        assert replies[0]["ok"] is False

    def test_missing_export_says_which(self, tmp_path: Path) -> None:
        """A module without the named function export stops the adapter, saying which."""
        status, _, stderr = _converse(tmp_path, "exports.other = () => ({});", START)
        assert status == 2
        assert 'has no function export "memoryRead"' in stderr


def test_protocol_transcript_is_what_the_skeleton_says(tmp_path: Path) -> None:
    """specs/protocol.md's "A whole session" transcript, replayed through the skeleton around
    the JavaScript example (its root made real, holding the vector's store), gets exactly the
    replies it shows."""
    text = (REPO / "specs" / "protocol.md").read_text("utf-8")
    section = text[text.index("### A whole session") :]
    block = section[section.index("```\n") + 4 : section.index("\n```", section.index("```\n"))]
    sent = [json.loads(line[2:]) for line in block.splitlines() if line.startswith("> ")]
    shown = [line[2:] for line in block.splitlines() if line.startswith("< ")]
    root = tmp_path / "root"
    (root / "stores").mkdir(parents=True)
    (root / "stores" / "s.jsonl").write_text('{"memory_id":"m1","text":"q text"}\n', "utf-8")
    for message in sent:
        if message["cmd"] == "run":
            message["root"] = str(root)
    done = subprocess.run(
        [str(NODE), str(SKELETON), str(EXAMPLE), "memoryRead"],
        input="".join(json.dumps(m) + "\n" for m in sent),
        cwd=tmp_path, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == shown
