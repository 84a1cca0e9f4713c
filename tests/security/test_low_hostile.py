"""The low list of issue 22: each a clear fault all the same. Each test is one attack that must
be held: a structured error, a bound, or the blame put where it belongs."""

from __future__ import annotations

import contextlib
import io
import json
import os
import shlex
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import jsonschema
import pytest
from harness_corpus import corpus_documents, fake_spec
from hostile_support import certify_fake, processes_with, synthetic
from paths import REPO

from conformance import ErrorKind, ExpectedFailuresError, Outcome, RegisterError, load_corpus
from conformance.cli import main
from conformance.corpus import _select, _vectors, load_expected_failures
from conformance.registers import load_clauses
from conformance.run._executor import UNPREPARABLE


def cli(*argv: str) -> tuple[int, str, float]:
    """Exit code, stdout and seconds of ``phase6 ARGV``."""
    out = io.StringIO()
    started = time.monotonic()
    code = main(list(argv), out)
    return code, out.getvalue(), time.monotonic() - started


class TestReportsAreReadBounded:
    """``report`` and ``compare`` hung on a FIFO and raised MemoryError on /dev/zero."""

    @pytest.mark.parametrize("command", ["report", "compare"])
    def test_fifo_and_devices_are_refused(self, tmp_path: Path, command: str) -> None:
        """A FIFO nobody writes to, /dev/zero and a directory whose report.json is a FIFO
        are refused at once (exit 2, a message naming the file), never waited on or read."""
        fifo = tmp_path / "fifo"
        os.mkfifo(fifo)
        inside = tmp_path / "dir"
        inside.mkdir()
        os.mkfifo(inside / "report.json")
        for target in (fifo, Path("/dev/zero"), inside):
            code, _, seconds = cli(command, str(target))
            assert code == 2
            assert seconds < 5

    def test_oversized_report_is_refused(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """A report.json over the cap is refused before it is read."""
        from conformance.report import _report

        monkeypatch.setattr(_report, "MAX_REPORT_BYTES", 1024)
        big = tmp_path / "report.json"
        with open(big, "wb") as handle:
            handle.truncate(1 << 30)  # sparse: no disk
        code, _, _ = cli("report", str(big))
        assert code == 2


class TestDeepRegister:
    """A register TOML nested 100,000 deep was a RecursionError traceback."""

    def test_deep_toml_is_a_register_error(self, tmp_path: Path) -> None:
        """Nesting past the parser's recursion is a RegisterError naming the file."""
        register = tmp_path / "clauses.toml"
        depth = 100_000
        register.write_text(f'format = "phase6-clauses/1"\nx = {"[" * depth}{"]" * depth}\n')
        with pytest.raises(RegisterError, match="nested too deeply") as caught:
            load_clauses(register)
        assert str(register) in str(caught.value)


class TestExpectedFailureGlobs:
    """An 8 MiB expected-failures file of distinct globs cost about 13 minutes of fnmatch."""

    def test_too_many_globs_are_refused(self, tmp_path: Path) -> None:
        """More glob entries than the cap: an ExpectedFailuresError naming the line."""
        path = tmp_path / "expected.txt"
        count = _select.MAX_EXPECTED_FAILURE_GLOBS + 1
        path.write_text("".join(f"x{i}-*  # r\n" for i in range(count)))
        with pytest.raises(ExpectedFailuresError, match="glob entries") as caught:
            load_expected_failures(path)
        assert caught.value.line == count

    def test_a_full_file_of_ids_is_quick(self, tmp_path: Path) -> None:
        """An 8 MiB file of distinct plain IDs, and the cap of distinct globs, are matched
        against the whole corpus in seconds (indexed, globs compiled once)."""
        path = tmp_path / "expected.txt"
        globs = [f"g{i}-*  # r\n" for i in range(_select.MAX_EXPECTED_FAILURE_GLOBS)]
        line = "id-{:09d}  # reason\n"
        ids = [line.format(i) for i in range((_select.MAX_EXPECTED_FAILURES_BYTES - 40_000) // 24)]
        path.write_text("".join(globs + ids))
        corpus_ids = [v.id for v in load_corpus().vectors]
        started = time.monotonic()
        expected = load_expected_failures(path)
        assert [expected.reason_for(i) for i in corpus_ids] == [None] * len(corpus_ids)
        assert len(expected.stale(corpus_ids)) == len(expected.entries)
        assert time.monotonic() - started < 30

    def test_first_entry_in_file_order_wins(self, tmp_path: Path) -> None:
        """The index keeps the rule: the first entry listing a vector (glob or ID) gives the
        reason, and a glob that matches nothing is stale."""
        path = tmp_path / "expected.txt"
        path.write_text(
            "a-*  # glob first\na-1  # exact\nb-1  # exact first\nb-*  # glob\nz-*  # none\n"
        )
        expected = load_expected_failures(path)
        assert expected.reason_for("a-1") == "glob first"
        assert expected.reason_for("b-1") == "exact first"
        assert expected.reason_for("b-2") == "glob"
        assert expected.reason_for("c") is None
        assert [e.pattern for e in expected.stale(["a-1", "b-1"])] == ["z-*"]


class TestLargeVectorFile:
    """A 64 MiB vector file inside the caps cost 2.1 GB (an orjson segfault under an
    address-space limit)."""

    def test_cap_is_low_enough(self) -> None:
        """The per-file cap keeps a loaded file near 0.5 GB (about 33 bytes per byte), and the
        kit's own corpus fits well under both caps."""
        assert _vectors.MAX_VECTOR_FILE_BYTES <= 16 * 1024 * 1024
        assert _vectors.MAX_CORPUS_BYTES <= 128 * 1024 * 1024
        assert load_corpus().vectors

    def test_a_file_over_the_cap_is_not_read(self, tmp_path: Path) -> None:
        """A vector file of 17 MiB (sparse) is refused by its size: a corpus error, exit 2."""
        vectors, _ = synthetic(tmp_path)
        with open(vectors / "alpha.json", "r+b") as handle:
            handle.truncate(17 * 1024 * 1024)
        code, _, seconds = cli("vectors", "--vectors", str(vectors), "check")
        assert code in (1, 2)
        assert seconds < 10

    def test_rerun_reads_vector_files_bounded(self, tmp_path: Path) -> None:
        """``rerun`` scanning a directory for an ID reads each file within the cap: a 1 GiB
        (sparse) file is refused by its size, exit 2, not read whole."""
        vectors, _ = synthetic(tmp_path)
        with open(vectors / "alpha.json", "r+b") as handle:
            handle.truncate(1 << 30)
        code, _, seconds = cli("rerun", "beta-0-trigger", "--vectors", str(vectors))
        assert code == 2
        assert seconds < 5


class TestManyFilesVector:
    """A vector of 50,000 files blamed the innocent implementation as store-mutated: the tree
    was too large for the stamps before any run."""

    def test_blame_is_the_harness(self, tmp_path: Path) -> None:
        """A vector with more files than the stamp budget is errored as the harness's limit
        (not store-mutated, not counted by the breaker); the other vectors pass."""
        directory = tmp_path / "corpus"
        vectors, table = synthetic(directory)
        documents = corpus_documents()
        trigger = documents["beta-errors.json"]["vectors"][1]
        trigger["input"]["files"] = {
            **trigger["input"]["files"],
            **{f"many/f{i}": {"text": ""} for i in range(10_050)},
        }
        (vectors / "beta-errors.json").write_text(json.dumps(documents["beta-errors.json"]))
        result = certify_fake((vectors, table), "correct")
        outcomes = {r.id: r for r in result.results}
        big = outcomes.pop(trigger["id"])
        assert big.outcome is Outcome.ERRORED
        assert big.error is not None
        assert big.error.kind is ErrorKind.CRASH
        assert big.error.message.startswith(UNPREPARABLE)
        assert "harness-side limit" in big.error.message
        assert not big.failures
        assert {r.outcome for r in outcomes.values()} == {Outcome.PASSED}


class TestSigterm:
    """SIGTERM mid-certify (a CI job cancelled) exited 143 with no report, spawn workers blocked
    forever and temporary directories left behind."""

    @pytest.mark.parametrize("jobs", ["1", "2"])
    def test_sigterm_is_an_interruption(self, tmp_path: Path, jobs: str) -> None:
        """SIGTERM stops the run as Ctrl-C does: exit 2 with a partial report, no process of
        the run left, the temporary directory empty again."""
        vectors, table = synthetic(tmp_path / "corpus", copies=20)
        temp = tmp_path / "temp"
        temp.mkdir()
        report = tmp_path / "report"
        argv = [
            sys.executable, "-m", "conformance", "certify",
            "--adapter", fake_spec("slow", table, "0.5", "correct"),
            "--vectors", str(vectors), "--report-dir", str(report), "--temp-dir", str(temp),
            "--no-sections", "-q", "-j", jobs, "--timeout", "10", "--sandbox", "off",
        ]  # fmt: skip
        process = subprocess.Popen(argv, start_new_session=True, cwd=tmp_path)
        try:
            deadline = time.monotonic() + 60
            while not any(temp.rglob("*/*")) and time.monotonic() < deadline:
                time.sleep(0.1)  # a vector root exists: the run is under way
            time.sleep(1.0)
            process.send_signal(signal.SIGTERM)
            code = process.wait(timeout=60)
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
        assert code == 2
        document = json.loads((report / "report.json").read_text("utf-8"))
        assert document["footer"]["partial"]
        assert list(temp.iterdir()) == []
        time.sleep(0.5)
        with pytest.raises(ProcessLookupError):
            os.killpg(process.pid, 0)  # nothing of the run's process group is left

    def test_sigterm_interrupts_a_phase2_certification(self, tmp_path: Path) -> None:
        """The Phase 2 profile too: SIGTERM mid-run is an interruption (exit 2, a partial
        report), not exit 143 with nothing written."""
        report = tmp_path / "report"
        argv = [
            sys.executable, "-m", "conformance", "certify", "--profile", "phase2-context",
            "--report-dir", str(report), "--sandbox", "off",
        ]  # fmt: skip
        process = subprocess.Popen(
            argv, start_new_session=True, cwd=tmp_path, stderr=subprocess.PIPE, text=True
        )
        try:
            assert process.stderr is not None
            for line in process.stderr:  # the progress lines: the first one counts vectors run
                if line.startswith("vectors: ") and "/" in line:
                    break
            process.send_signal(signal.SIGTERM)
            process.communicate(timeout=60)
            code = process.returncode
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
        assert code == 2
        document = json.loads((report / "report.json").read_text("utf-8"))
        assert document["footer"]["partial"]

    def test_sigterm_before_the_run_is_a_clear_interruption(self, tmp_path: Path) -> None:
        """SIGTERM while the implementation is still starting (its handshake not answered, no
        result to keep yet): exit 2 and one line saying nothing was certified, not a
        KeyboardInterrupt traceback; the implementation's process is gone too."""
        started = tmp_path / "started"
        token = f"phase6-slow-start-{uuid.uuid4().hex}"
        never_answers = (
            "import pathlib, sys, time; pathlib.Path(sys.argv[1]).touch(); time.sleep(600)"
        )
        adapter = "cmd:" + shlex.join([sys.executable, "-c", never_answers, str(started), token])
        vectors, _ = synthetic(tmp_path / "corpus")
        argv = [
            sys.executable, "-m", "conformance", "certify", "--adapter", adapter,
            "--vectors", str(vectors), "--no-report", "--no-sections", "-q",
            "--sandbox", "off", "--timeout", "600",
        ]  # fmt: skip
        process = subprocess.Popen(
            argv, start_new_session=True, cwd=tmp_path, stderr=subprocess.PIPE, text=True
        )
        try:
            deadline = time.monotonic() + 120
            while not started.exists() and time.monotonic() < deadline:
                time.sleep(0.1)  # the implementation runs: certify's handlers are in place
            process.send_signal(signal.SIGTERM)
            _, stderr = process.communicate(timeout=60)
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
        assert process.returncode == 2, stderr
        assert "Traceback" not in stderr, stderr
        assert "interrupted before any result could be kept" in stderr
        assert processes_with(token) == []


class TestTwoReplyLines:
    """Two reply lines for one run blamed the next, innocent vector (its reply read as the
    leftover line, a wrong seq)."""

    def test_the_run_that_answered_twice_is_blamed(self, tmp_path: Path) -> None:
        """The vector answered with two lines is the protocol error (the extra line seen with
        the reply, or before its next run is sent); every other vector, the one after it
        included, passes."""
        result = certify_fake(synthetic(tmp_path), "two_replies")
        errored = [r for r in result.results if r.outcome is not Outcome.PASSED]
        assert [r.id for r in errored] == ["beta-0-trigger"]
        (vector,) = errored
        assert vector.error is not None
        assert vector.error.kind is ErrorKind.PROTOCOL
        assert "more output after the reply" in vector.error.message

    @pytest.mark.parametrize(("repeat", "copies"), [(1, 0), (2, 0), (1, 10), (2, 10)])
    def test_a_late_line_is_blamed_on_the_run_that_wrote_it(
        self, tmp_path: Path, repeat: int, copies: int
    ) -> None:
        """A copy of the reply written 50 ms after it (after the vector's last run with
        ``--repeat 1``) is the writer's protocol error, whether it is found before the next
        request is sent, read while waiting for the next reply, or found when the process
        stops (the trigger ran last: no copies); the vectors after it pass."""
        paths = synthetic(tmp_path, copies=copies)
        result = certify_fake(paths, "late_reply", repeat=repeat, fresh_every=0)
        errored = [r for r in result.results if r.outcome is not Outcome.PASSED]
        assert [r.id for r in errored] == ["beta-0-trigger"]
        (vector,) = errored
        assert vector.error is not None
        assert vector.error.kind is ErrorKind.PROTOCOL
        assert "more output after the reply" in vector.error.message
        assert vector.error.message.startswith("after its reply: ")


class TestStoreCheckOutput:
    """`store check` printed 157 times its input as text: every finding of every line."""

    def test_text_output_is_bounded(self, tmp_path: Path) -> None:
        """A store with violations on 20,000 lines lists the first lines only, then says how
        many more there are; the counts still include every line; ``--list 0`` lists all."""
        store = tmp_path / "s.jsonl"
        store.write_bytes(b'{"x":1}\n' * 20_000)
        code, out, _ = cli("store", "check", str(store))
        assert code == 1
        assert len(out) < 2 * 1024 * 1024
        assert "19000 more line(s) not listed" in out
        assert "20000 lines: 180000 violation(s)" in out
        code, everything, _ = cli("store", "check", "--list", "0", str(store))
        assert code == 1
        assert "not listed" not in everything
        assert len(everything) > 10 * len(out)

    def test_json_output_is_bounded(self, tmp_path: Path) -> None:
        """``--json`` listed every line's findings (287 times the input): it lists the first
        lines, says how many it did not, still counts all, validates against the schema;
        ``--list 0`` lists every line."""
        store = tmp_path / "s.jsonl"
        store.write_bytes(b'{"x":1}\n' * 20_000)
        code, out, _ = cli("store", "check", "--json", str(store))
        assert code == 1
        assert len(out) < 4 * 1024 * 1024
        report = json.loads(out)
        (checked,) = report["stores"]
        assert len(checked["lines"]) == 1000
        assert checked["lines_not_listed"] == 19_000
        assert checked["summary"]["lines"] == 20_000
        schema = json.loads((REPO / "specs/schemas/store-check.schema.json").read_text("utf-8"))
        jsonschema.Draft202012Validator(schema).validate(report)
        code, everything, _ = cli("store", "check", "--json", "--list", "0", str(store))
        assert len(json.loads(everything)["stores"][0]["lines"]) == 20_000
        assert "lines_not_listed" not in json.loads(everything)["stores"][0]
