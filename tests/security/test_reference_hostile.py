"""The reference under attack: stores replaced or rewritten during a read, hostile requests,
pathological lines under a memory cap, and stores that are not regular files.

Everything runs the reference as a black box (``python -m reference``), in a child process
whose address space is capped where memory is the point, so each attack takes seconds.
"""

from __future__ import annotations

import hashlib
import json
import os
import resource
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
TIMEOUT = 120
#: INT-18: lines longer than this (without the terminator) are invalid_record_schema.
MAX_LINE = 1 << 20


def _records(count: int, *, prefix: str = "m", words: int = 12) -> bytes:
    vocabulary = ["ledger", "rust", "kitchen", "budget", "alpha", "notes", "plan", "queue"]
    lines = []
    for index in range(count):
        text = " ".join(vocabulary[(index * 7 + k) % len(vocabulary)] for k in range(words))
        record = {
            "memory_id": f"{prefix}{index:07d}",
            "ts_utc": f"2024-{1 + index % 12:02d}-{1 + index % 28:02d}T00:00:{index % 60:02d}Z",
            "text": f"{index} {text}",
            "tags": ["Ledger"] if index % 3 else [],
        }
        lines.append(json.dumps(record))
    return ("\n".join(lines) + "\n").encode()


def _request(*stores: str, **extra: Any) -> dict[str, Any]:
    request = {
        "query": "ledger kitchen plan",
        "store_paths": list(stores),
        "budget": {"max_excerpt_tokens": 200, "max_items": 5},
    }
    request.update(extra)
    return request


def _capped(limit_bytes: int | None) -> Callable[[], None] | None:
    if limit_bytes is None:
        return None

    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit_bytes, limit_bytes))

    return apply


def _start(
    request: Any, cwd: Path, *, cap: int | None = None, raw: bytes | None = None
) -> subprocess.Popen[bytes]:
    data = raw if raw is not None else json.dumps(request).encode()
    path = cwd / f"request-{time.monotonic_ns()}.json"
    path.write_bytes(data)
    return subprocess.Popen(
        [sys.executable, "-m", "reference", str(path)],
        cwd=cwd,
        env=ENV,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=_capped(cap),  # noqa: PLW1509 - setrlimit must run in the child
    )


def _run(
    request: Any, cwd: Path, *, cap: int | None = None, raw: bytes | None = None
) -> tuple[int, bytes, bytes]:
    process = _start(request, cwd, cap=cap, raw=raw)
    out, err = process.communicate(timeout=TIMEOUT)
    return process.returncode, out, err


def _tree(pid: int) -> list[int]:
    """The process and its descendants (forked readers)."""
    found, queue = [], [pid]
    while queue:
        current = queue.pop()
        found.append(current)
        try:
            children = Path(f"/proc/{current}/task/{current}/children").read_text().split()
        except OSError:
            continue
        queue += [int(child) for child in children]
    return found


def _holds(pid: int, path: Path) -> bool:
    """True when a process of the tree has `path` open."""
    target = str(path)
    for member in _tree(pid):
        try:
            links = os.listdir(f"/proc/{member}/fd")
        except OSError:
            continue
        for fd in links:
            try:
                if os.readlink(f"/proc/{member}/fd/{fd}") == target:
                    return True
            except OSError:
                continue
    return False


def _attack_when_open(
    process: subprocess.Popen[bytes], store: Path, attack: Callable[[], None]
) -> threading.Event:
    """Run `attack` as soon as the reference holds the store open; set the event if it ran
    while the reference was still running."""
    done = threading.Event()

    def watch() -> None:
        while process.poll() is None:
            if _holds(process.pid, store):
                attack()
                if process.poll() is None:
                    done.set()
                return
            time.sleep(0.001)

    threading.Thread(target=watch, daemon=True).start()
    return done


needs_proc = pytest.mark.skipif(
    not Path("/proc/self/fd").is_dir(), reason="needs /proc to see the reader's descriptors"
)


@needs_proc
class TestStoreReplacedDuringRead:
    """A store replaced (mv) mid-read is read whole from the original file (one descriptor)."""

    @pytest.mark.parametrize("records", [20_000, 90_000], ids=["sequential", "forked-readers"])
    def test_mv_during_read_gives_the_original_package(self, tmp_path: Path, records: int) -> None:
        """Replacing the store by a file with other records and other line offsets changes
        nothing: record hashes, excerpts and dropped entries all come from the original."""
        store = tmp_path / "s.jsonl"
        original = _records(records)
        store.write_bytes(original)
        request = _request("s.jsonl")
        code, expected, _ = _run(request, tmp_path)
        assert code == 0
        replacement = tmp_path / "new.jsonl"
        replacement.write_bytes(_records(records // 3, prefix="other-", words=3))

        process = _start(request, tmp_path)
        replaced = _attack_when_open(process, store, lambda: os.replace(replacement, store))
        out, err = process.communicate(timeout=TIMEOUT)
        assert replaced.is_set(), "the store was not replaced while the reference read it"
        assert (process.returncode, err) == (0, b"")
        assert out == expected

    def test_rewrite_in_place_is_never_a_mixed_package(self, tmp_path: Path) -> None:
        """A store truncated in place mid-read gives the original package (when the read was
        already done with it) or a structured store_not_readable error, never a crash."""
        store = tmp_path / "s.jsonl"
        store.write_bytes(_records(90_000))
        request = _request("s.jsonl")
        _, expected, _ = _run(request, tmp_path)

        process = _start(request, tmp_path)
        _attack_when_open(process, store, lambda: os.truncate(store, store.stat().st_size // 2))
        out, err = process.communicate(timeout=TIMEOUT)
        assert b"Traceback" not in err
        if process.returncode == 0:
            assert out == expected
        else:
            assert process.returncode == 1
            error = json.loads(out.splitlines()[-1])["error"]
            assert (error["code"], error["path"]) == ("store_not_readable", "/store_paths/0")


class TestHostileRequests:
    """Any member name and any nesting give a structured error (exit 1), never a traceback."""

    @pytest.mark.parametrize(
        ("raw", "code", "path"),
        [
            (b'{"query":"x","store_paths":["s"],"budget":{"max_excerpt_tokens":1},"\\ud800":1}',
             "invalid_request", "/\ud800"),
            (b'{"query":"x","store_paths":["s"],"budget":{"max_excerpt_tokens":1,"\\udfff":1}}',
             "invalid_budget", "/budget/\udfff"),
            (b'{"query":"x","store_paths":["s"],"budget":{"max_excerpt_tokens":1},'
             b'"scoring":{"\\ud83d":true}}', "invalid_scoring", "/scoring/\ud83d"),
            (b'{"query":"x","store_paths":["s"],"budget":{"max_excerpt_tokens":1},'
             b'"trust_filter":{"a\\udc00/b~":1}}', "invalid_trust_filter",
             "/trust_filter/a\udc00~1b~0"),
        ],
        ids=["top-level", "budget", "scoring", "trust-filter"],
    )  # fmt: skip
    def test_lone_surrogate_member_name(
        self, tmp_path: Path, raw: bytes, code: str, path: str
    ) -> None:
        """A member name that is a lone surrogate is an unknown member at its (escaped) path."""
        status, out, err = _run(None, tmp_path, raw=raw)
        assert (status, err) == (1, b"")
        error = json.loads(out)["error"]  # ASCII JSON with \u escapes
        assert (error["code"], error["path"]) == (code, path)

    @pytest.mark.parametrize(
        ("depth", "where", "code"),
        [
            (1_500, "query", "invalid_query"),
            (1_500, "unknown", "invalid_request"),
            (1_500, "whole", "invalid_request"),
            (200_000, "store_paths", "invalid_store_paths"),
        ],
    )
    def test_deep_nesting(self, tmp_path: Path, depth: int, where: str, code: str) -> None:
        """Arrays nested thousands deep anywhere in a request give the error of the member."""
        deep = "[" * depth + "]" * depth
        members = {
            "query": '"x"',
            "store_paths": '["s"]',
            "budget": '{"max_excerpt_tokens":1}',
        }
        if where in members:
            members[where] = deep
        text = "{" + ",".join(f'"{k}":{v}' for k, v in members.items())
        text += f',"zz":{deep}}}' if where == "unknown" else "}"
        status, out, err = _run(None, tmp_path, raw=deep.encode() if where == "whole" else
                                text.encode())  # fmt: skip
        assert (status, err) == (1, b"")
        assert json.loads(out)["error"]["code"] == code

    def test_serve_survives_hostile_messages(self, tmp_path: Path) -> None:
        """`serve` answers hostile runs with structured errors and keeps serving."""
        (tmp_path / "s.jsonl").write_bytes(_records(10))
        good = json.dumps(_request("s.jsonl"))
        deep = "[" * 1_500 + "]" * 1_500
        messages = [
            '{"cmd":"start","protocol":"phase6-adapter/1"}',
            f'{{"cmd":"run","seq":1,"root":"{tmp_path}","request":'
            '{"query":"x","store_paths":["s.jsonl"],"budget":{"max_excerpt_tokens":1},'
            '"\\ud800":1}}',
            f'{{"cmd":"run","seq":2,"root":"{tmp_path}","request":{deep}}}',
            "not json at all",
            f'{{"cmd":"run","seq":"\\udc00","root":"{tmp_path}","request":{good}}}',
            f'{{"cmd":"run","seq":4,"root":"/no/such/dir","request":{good}}}',
            f'{{"cmd":"run","seq":5,"root":"{tmp_path}","request":{good}}}',
            '{"cmd":"stop"}',
        ]
        done = subprocess.run(
            [sys.executable, "-m", "reference", "serve"],
            input=("\n".join(messages) + "\n").encode(),
            capture_output=True,
            cwd=tmp_path,
            env=ENV,
            timeout=TIMEOUT,
            check=False,
        )
        assert done.returncode == 0
        replies = [json.loads(line) for line in done.stdout.splitlines()]
        assert [reply.get("seq") for reply in replies] == [None, 1, 2, "\udc00", 4, 5, None]
        assert replies[1]["result"]["error"]["code"] == "invalid_request"
        assert replies[2]["result"]["error"]["code"] == "invalid_request"
        assert "package" in replies[3]["result"]
        assert "internal_error" in replies[4]
        assert replies[5]["result"]["package"] == replies[3]["result"]["package"]


class TestPathologicalLines:
    """Memory stays bounded whatever the lines (INT-18: at most 1 MiB per line)."""

    CAP = 160 << 20

    @pytest.mark.slow
    def test_gigabyte_without_newline(self, tmp_path: Path) -> None:
        """A 1 GiB store without a newline (sparse: no disk) is one invalid line, hashed as it
        streams, under a 160 MiB address-space cap."""
        store = tmp_path / "big.jsonl"
        with store.open("wb") as handle:
            handle.truncate(1 << 30)
        status, out, err = _run(_request("big.jsonl"), tmp_path, cap=self.CAP)
        assert (status, err) == (0, b"")
        digest = hashlib.sha256()
        zeros = bytes(1 << 20)
        for _ in range(1 << 10):
            digest.update(zeros)
        dropped = json.loads(out)["package"]["selection"]["dropped"]
        entry = {"memory_id": "", "record_hash": digest.hexdigest(), "store_path": "big.jsonl"}
        assert dropped == [{**entry, "reason": "invalid_record_schema"}]

    @pytest.mark.parametrize("ending", [b"\n", b"\r\n", b""], ids=["lf", "crlf", "eof"])
    def test_line_length_limit(self, tmp_path: Path, ending: bytes) -> None:
        """A record of exactly MAX_LINE bytes is read; one byte more makes it invalid, with the
        hash of its bytes without the terminator (INT-19)."""
        head, tail = b'{"memory_id":"long","text":"', b'"}'
        exact = head + b"a" * (MAX_LINE - len(head) - len(tail)) + tail
        over = head + b"b" * (MAX_LINE + 1 - len(head) - len(tail)) + tail
        (tmp_path / "a.jsonl").write_bytes(exact + ending)
        (tmp_path / "b.jsonl").write_bytes(b'{"memory_id":"x","text":"x"}\n' + over + ending)
        request = _request("a.jsonl", "b.jsonl", budget={"max_excerpt_tokens": 10})
        status, out, err = _run(request, tmp_path, cap=self.CAP)
        assert (status, err) == (0, b"")
        package = json.loads(out)["package"]
        assert [i["memory_id"] for i in package["selection"]["selected"]] == ["long"]
        assert package["selection"]["dropped"][-1] == {
            "memory_id": "",
            "record_hash": hashlib.sha256(over).hexdigest(),
            "store_path": "b.jsonl",
            "reason": "invalid_record_schema",
        }

    @pytest.mark.parametrize(
        "body",
        [b'"refs":[' + b"{}," * 349_000 + b"{}]", b'"tags":[' + b'"ab",' * 200_000 + b'"ab"]',
         b'"x":' + b"[" * 60 + b"0," * 500_000 + b"0" + b"]" * 60],
        ids=["many-refs", "many-tags", "wide-and-deep"],
    )  # fmt: skip
    def test_object_heavy_lines_fit(self, tmp_path: Path, body: bytes) -> None:
        """Lines just under the limit made of tiny objects still fit under the cap."""
        line = b'{"memory_id":"m","text":"ledger",' + body + b"}\n"
        assert len(line) <= MAX_LINE
        (tmp_path / "s.jsonl").write_bytes(line * 3)
        status, out, err = _run(_request("s.jsonl"), tmp_path, cap=self.CAP)
        assert (status, err) == (0, b"")
        assert "package" in json.loads(out)


class TestStoresThatAreNotFiles:
    """Directories, FIFOs, devices and symlink loops are store_not_readable, without a hang;
    the reference never writes a store."""

    @pytest.mark.parametrize("kind", ["directory", "fifo", "device", "symlink-loop"])
    def test_not_a_regular_file(self, tmp_path: Path, kind: str) -> None:
        """A store that is not a regular file is refused before anything is opened or read."""
        path = tmp_path / "s.jsonl"
        if kind == "directory":
            path.mkdir()
        elif kind == "fifo":
            os.mkfifo(path)
        elif kind == "device":
            path.symlink_to("/dev/null")
        else:
            path.symlink_to(tmp_path / "loop")
            (tmp_path / "loop").symlink_to(path)
        status, out, _ = _run(_request("s.jsonl"), tmp_path)
        assert status == 1
        assert json.loads(out)["error"]["code"] == "store_not_readable"

    def test_unreadable_file(self, tmp_path: Path) -> None:
        """A file without read permission is store_not_readable."""
        if os.geteuid() == 0:
            pytest.skip("root reads every file")
        path = tmp_path / "s.jsonl"
        path.write_bytes(_records(3))
        path.chmod(0)
        status, out, _ = _run(_request("s.jsonl"), tmp_path)
        assert (status, json.loads(out)["error"]["code"]) == (1, "store_not_readable")

    def test_store_untouched(self, tmp_path: Path) -> None:
        """Reading a store leaves its bytes, size, mode and times as they were."""
        path = tmp_path / "s.jsonl"
        path.write_bytes(_records(50_000))
        os.utime(path, ns=(1_000_000_000, 1_000_000_000))
        before = path.stat()
        data = path.read_bytes()
        status, _, _ = _run(_request("s.jsonl"), tmp_path)
        after = path.stat()
        assert status == 0
        assert path.read_bytes() == data
        keys = ("st_mtime_ns", "st_ctime_ns", "st_size", "st_mode", "st_ino")
        assert [getattr(after, k) for k in keys] == [getattr(before, k) for k in keys]
        assert stat.S_ISREG(after.st_mode)


class TestReaderThatLeaves:
    """``python -m reference request.json | head``: the reader closes the pipe mid-package."""

    def test_closed_pipe_is_a_quiet_exit(self, tmp_path: Path) -> None:
        """A package cut off by its reader ends the process with exit 0 and no traceback,
        as a Unix filter does (it was an "internal failure" with two tracebacks)."""
        (tmp_path / "s.jsonl").write_bytes(_records(20_000))
        process = _start(_request("s.jsonl"), tmp_path)
        assert process.stdout is not None
        assert process.stderr is not None
        assert process.stdout.read(100).startswith(b'{"package":')
        process.stdout.close()  # the reader leaves, the package is not written yet
        err = process.stderr.read()
        process.stderr.close()
        assert process.wait(timeout=TIMEOUT) == 0, err
        assert b"Traceback" not in err
        assert b"BrokenPipeError" not in err
