"""`store check` against hostile paths and files (issue 13): nothing blocks, nothing explodes.

Whatever could hang runs in a child process with a deadline, so a regression fails the test
instead of hanging the suite.  Memory is measured as the child's peak RSS (VmHWM).
"""

from __future__ import annotations

import io
import json
import os
import socket
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from paths import REPO

from conformance.cli import main
from conformance.store import check_store
from conformance.store._check import _id_key

DEADLINE = 20  # seconds: each of these finishes in well under one


def run_check(*argv: str, timeout: float = DEADLINE) -> subprocess.CompletedProcess[str]:
    """`python -m conformance store check ARGV...` in a child, with a deadline."""
    return subprocess.run(
        [sys.executable, "-m", "conformance", "store", "check", *argv],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=timeout,
        check=False,
    )


def peak_rss_mib(*argv: str) -> tuple[int, float]:
    """(exit status, peak RSS in MiB) of `store check ARGV...` run in a child, output dropped."""
    if not os.path.exists("/proc/self/status"):
        pytest.skip("peak RSS is read from /proc/self/status (Linux)")
    script = textwrap.dedent(
        """
        import os, sys
        from conformance.cli import main
        with open(os.devnull, "w") as out:
            status = main(["store", "check", *sys.argv[1:]], out=out)
        # VmHWM, not ru_maxrss: Linux carries ru_maxrss over exec from the forking parent.
        with open("/proc/self/status") as status_file:
            kib = next(l.split()[1] for l in status_file if l.startswith("VmHWM:"))
        print(status, kib)
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script, *argv],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
        check=True,
    )
    status, kib = done.stdout.split()
    return int(status), int(kib) / 1024


def json_report(*argv: str) -> dict[str, Any]:
    out = io.StringIO()
    main(["store", "check", "--json", *argv], out=out)
    report: dict[str, Any] = json.loads(out.getvalue())
    return report


def error_of(result: subprocess.CompletedProcess[str]) -> str:
    code: str = json.loads(result.stdout)["stores"][0]["error"]["code"]
    return code


class TestNotRegularFiles:
    def test_fifo_refused_without_blocking(self, tmp_path: Path) -> None:
        """A FIFO nobody writes to is refused at once (never opened), exit 2."""
        fifo = tmp_path / "episodic.jsonl"
        os.mkfifo(fifo)
        result = run_check("--json", str(fifo))
        assert result.returncode == 2
        assert error_of(result) == "not-a-regular-file"

    def test_symlink_to_fifo_refused(self, tmp_path: Path) -> None:
        """A symbolic link to a FIFO is judged by what it points at."""
        os.mkfifo(tmp_path / "pipe")
        (tmp_path / "s.jsonl").symlink_to(tmp_path / "pipe")
        result = run_check("--json", str(tmp_path / "s.jsonl"))
        assert (result.returncode, error_of(result)) == (2, "not-a-regular-file")

    @pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom", "/dev/null"])
    def test_devices_refused(self, device: str) -> None:
        """An endless (or empty) character device is refused, not read."""
        if not os.path.exists(device):
            pytest.skip(f"{device} is not available")
        result = run_check("--json", device)
        assert (result.returncode, error_of(result)) == (2, "not-a-regular-file")
        assert "character device" in result.stdout

    def test_socket_refused(self, tmp_path: Path) -> None:
        """A Unix socket is refused."""
        path = tmp_path / "s.sock"
        with socket.socket(socket.AF_UNIX) as server:
            server.bind(str(path))
            report = json_report(str(path))
        store = report["stores"][0]
        assert store["error"]["code"] == "not-a-regular-file"

    def test_directory_refused(self, tmp_path: Path) -> None:
        """A directory is refused with is-a-directory."""
        assert json_report(str(tmp_path))["stores"][0]["error"]["code"] == "is-a-directory"

    @pytest.mark.parametrize("name", ["missing.jsonl", "dangling", "file/below"])
    def test_missing_paths(self, tmp_path: Path, name: str) -> None:
        """Missing files, dangling links and paths through a file are not-found."""
        (tmp_path / "dangling").symlink_to(tmp_path / "nowhere")
        (tmp_path / "file").write_bytes(b"")
        report = json_report(str(tmp_path / name))
        assert report["stores"][0]["error"]["code"] == "not-found"

    def test_unreadable_file(self, tmp_path: Path) -> None:
        """A file without read permission is permission-denied."""
        if os.geteuid() == 0:
            pytest.skip("root reads any file")
        path = tmp_path / "s.jsonl"
        path.write_bytes(b"")
        path.chmod(0)
        assert json_report(str(path))["stores"][0]["error"]["code"] == "permission-denied"

    def test_fifo_swapped_in_after_the_check(self, tmp_path: Path) -> None:
        """A regular file replaced by a FIFO between stat and open is refused, not waited on."""
        script = textwrap.dedent(
            """
            import os, sys
            import conformance.store._read as r
            path = sys.argv[1]
            real_stat = os.stat
            def swapping_stat(p, *a, **k):
                result = real_stat(p, *a, **k)
                os.unlink(p)
                os.mkfifo(p)
                return result
            r.os.stat = swapping_stat
            opened = r.open_store(path)
            print(opened.code)
            """
        )
        path = tmp_path / "s.jsonl"
        path.write_bytes(b"{}\n")
        done = subprocess.run(
            [sys.executable, "-c", script, str(path)],
            capture_output=True,
            text=True,
            cwd=REPO,
            timeout=DEADLINE,
            check=True,
        )
        assert done.stdout.strip() == "changed-while-opening"

    def test_other_paths_still_checked(self, tmp_path: Path) -> None:
        """A refused path does not stop the paths after it."""
        os.mkfifo(tmp_path / "pipe")
        store = tmp_path / "s.jsonl"
        store.write_bytes(b"[]\n")
        result = run_check("--json", str(tmp_path / "pipe"), str(store))
        stores = json.loads(result.stdout)["stores"]
        assert stores[1]["summary"]["by_code"] == {"not-object": 1, "spec006-invalid": 1}


class TestHugeInputs:
    def test_endless_line_in_bounded_memory(self, tmp_path: Path) -> None:
        """A 256 MiB file with no LF is one line-too-long finding, read in bounded memory."""
        path = tmp_path / "s.jsonl"
        with path.open("wb") as handle:
            handle.truncate(256 * 1024 * 1024)  # sparse: costs no disk
        status, rss = peak_rss_mib(str(path))
        assert status == 1
        assert rss < 100, f"peak RSS {rss:.0f} MiB"
        (line,) = check_store(str(path), max_line_bytes=1024).lines
        assert [f.code for f in line.violations] == ["line-too-long", "missing-final-newline"]
        assert line.length == 256 * 1024 * 1024

    def test_lines_after_a_long_line_are_checked(self, tmp_path: Path) -> None:
        """Line numbers and offsets after a skipped line are right, and those lines checked."""
        path = tmp_path / "s.jsonl"
        path.write_bytes(b"[]\n" + b"x" * 5000 + b"\n" + b"7\n")
        lines = check_store(str(path), max_line_bytes=100).lines
        assert [(x.line, x.offset, [f.code for f in x.violations]) for x in lines] == [
            (1, 0, ["not-object", "spec006-invalid"]),
            (2, 3, ["line-too-long"]),
            (3, 5004, ["not-object", "spec006-invalid"]),
        ]
        assert lines[1].spec006.verdict == "unchecked"

    @pytest.mark.parametrize("depth", [100, 400, 990, 5000, 100_000])
    def test_deep_nesting(self, tmp_path: Path, depth: int) -> None:
        """Arrays and objects nested to any depth never crash the checker."""
        for open_, close in ((b"[", b"]"), (b'{"a":', b"}")):
            body = open_ * depth + b"1.5" + close * depth
            path = tmp_path / "s.jsonl"
            path.write_bytes(b'{"memory_id":"m","hash":"x","refs":[' + body + b"]}\n")
            (line,) = check_store(str(path)).lines
            assert line.spec006.verdict == "invalid_record_schema"

    def test_huge_numbers(self, tmp_path: Path) -> None:
        """Integers of 400 and 5,000 digits are reported, not raised."""
        path = tmp_path / "s.jsonl"
        path.write_bytes(b"".join(b'{"refs":[' + b"9" * n + b"]}\n" for n in (400, 5000)))
        lines = check_store(str(path)).lines
        assert [x.violations[0].code for x in lines] == ["not-json", "not-json"]

    def test_long_memory_ids_kept_as_digests(self, tmp_path: Path) -> None:
        """Long memory_ids are remembered by a 16-byte digest, and duplicates still found."""
        assert _id_key("epi-" + "0" * 16) == "epi-" + "0" * 16
        assert len(_id_key("x" * 1_000_000)) == 16
        long_id = "x" * 100_000
        path = tmp_path / "s.jsonl"
        record = json.dumps({"memory_id": long_id}).encode() + b"\n"
        path.write_bytes(record + record)
        lines = check_store(str(path)).lines
        assert "duplicate-memory-id" in [f.code for f in lines[1].violations]
        assert len(lines[1].violations[-1].message) < 200

    @pytest.mark.slow
    def test_large_store_bounded_memory(self, tmp_path: Path) -> None:
        """A 26 MB store of one violation per line is checked in bounded memory."""
        path = tmp_path / "s.jsonl"
        with path.open("wb") as handle:
            for i in range(131_000):
                handle.write(b'{"memory_id":"epi-%08d","text":"%s"}\n' % (i, b"x" * 160))
        assert path.stat().st_size > 26_000_000
        status, rss = peak_rss_mib(str(path))
        assert status == 1
        assert rss < 100, f"peak RSS {rss:.0f} MiB"
        status, rss = peak_rss_mib("--json", str(path))
        assert rss < 100, f"peak RSS {rss:.0f} MiB (--json)"


class TestOutput:
    def test_terminal_escapes_are_inert(self, tmp_path: Path) -> None:
        """Control characters and bidi overrides from a store never reach the terminal raw."""
        path = tmp_path / "s.jsonl"
        evil = "epi-\x1b[2J\x1b[31mOK\r\nchecked 0 store(s)\u202e\x9b"
        path.write_bytes(json.dumps({"memory_id": evil, "source": evil}).encode() + b"\n")
        out = io.StringIO()
        main(["store", "check", "--all", str(path)], out=out)
        text = out.getvalue()
        assert not any(c in text for c in "\x1b\r\u202e\x9b")
        assert not any(line.startswith("checked 0") for line in text.splitlines())

    def test_many_notices_summarized_in_bounded_space(self, tmp_path: Path) -> None:
        """Thousands of notices of one code are one summary with ten line numbers."""
        path = tmp_path / "s.jsonl"
        path.write_bytes(b"".join(b'{"memory_id":"m%d"}\n' % i for i in range(5000)))
        report = json_report(str(path))
        (notice,) = report["stores"][0]["notices"]
        assert (notice["code"], notice["count"], len(notice["lines"])) == (
            "ts-utc-missing",
            5000,
            10,
        )
