"""The command line against hostile arguments and files (issue 13): checked before the run,
read with size limits, never waited on; nothing an implementation wrote drives the terminal."""

from __future__ import annotations

import io
import json
import os
import time
from pathlib import Path

import pytest
from harness_corpus import fake_spec
from hostile_support import TERMINAL_CONTROLS, synthetic

from conformance import UsageError, load_corpus
from conformance._kit import one_line, read_bounded, terminal_safe
from conformance.cli import main
from conformance.corpus import _select, _vectors


@pytest.fixture
def paths(tmp_path: Path) -> tuple[Path, Path]:
    """(vectors, table) of the synthetic corpus."""
    return synthetic(tmp_path)


def cli(*argv: str) -> tuple[int, str, float]:
    """Exit code, stdout and seconds of ``phase6 ARGV``."""
    out = io.StringIO()
    started = time.monotonic()
    code = main(list(argv), out)
    return code, out.getvalue(), time.monotonic() - started


def certify_args(paths: tuple[Path, Path], tmp_path: Path, fake: str = "correct") -> list[str]:
    """`certify` of a fake on the synthetic corpus, quiet, vectors only, into tmp_path."""
    return [
        "certify",
        "--adapter",
        fake_spec(fake, paths[1]),
        "--vectors",
        str(paths[0]),
        "--report-dir",
        str(tmp_path / "report"),
        "--no-sections",
        "-q",
        "-j",
        "1",
    ]


class TestExpectedFailuresFile:
    """Low: the expected-failures file is read with a size limit, and only if it is a file."""

    def test_dev_zero(
        self, paths: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """`--expected-failures /dev/zero`: exit 2 at once, 'not a regular file'."""
        code, _, seconds = cli(*certify_args(paths, tmp_path), "--expected-failures", "/dev/zero")
        assert code == 2
        assert seconds < 5
        assert "not a regular file (a character device)" in capsys.readouterr().err

    def test_fifo_is_not_waited_on(
        self, paths: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """A FIFO with no writer is refused, not waited on."""
        fifo = tmp_path / "fifo"
        os.mkfifo(fifo)
        code, _, seconds = cli(*certify_args(paths, tmp_path), "--expected-failures", str(fifo))
        assert code == 2
        assert seconds < 5
        assert "a FIFO" in capsys.readouterr().err

    def test_too_large(
        self, paths: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """A file over the limit is refused without being read whole (the cap made small)."""
        monkeypatch.setattr(_select, "MAX_EXPECTED_FAILURES_BYTES", 1024)
        big = tmp_path / "known.txt"
        big.write_text("alpha-one  # reason\n" * 200, "utf-8")
        with pytest.raises(UsageError, match="larger than the limit of 1,024 bytes"):
            _select.load_expected_failures(big)

    def test_binary(self, tmp_path: Path) -> None:
        """A file that is not UTF-8 is a usage error naming the byte."""
        binary = tmp_path / "known.txt"
        binary.write_bytes(b"alpha-one  # \xff\n")
        with pytest.raises(UsageError, match="not UTF-8"):
            _select.load_expected_failures(binary)


class TestVectorsDirectory:
    """Strangers' corpora are read with limits: size, count, depth; no walk without end."""

    def test_oversized_vector_file(
        self, paths: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
    ) -> None:
        """A vector file over the size limit: a corpus error (exit 2), not a read."""
        monkeypatch.setattr(_vectors, "MAX_VECTOR_FILE_BYTES", 1024)
        code, _, _ = cli(*certify_args(paths, tmp_path))
        assert code == 2

    def test_too_many_files(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        """More *.json files than the limit: refused before any is read."""
        monkeypatch.setattr(_vectors, "MAX_VECTOR_FILES", 3)
        vectors = tmp_path / "vectors"
        vectors.mkdir()
        for index in range(5):
            (vectors / f"a{index}.json").write_text("{}")
        with pytest.raises(Exception, match="more than 3"):
            load_corpus(vectors)

    def test_deeply_nested_vector_file(self, paths: tuple[Path, Path], tmp_path: Path) -> None:
        """A vector file nested 5,000 deep (or 300): a corpus error naming it, no crash."""
        for depth in (5000, 300):
            (paths[0] / "alpha.json").write_text("[" * depth + "]" * depth, "utf-8")
            code, _, _ = cli("vectors", "--vectors", str(paths[0]), "check")
            assert code == 1

    def test_symlink_loops_are_not_followed(self, paths: tuple[Path, Path]) -> None:
        """Directories that link back to the corpus are not walked into (no endless walk)."""
        (paths[0] / "loop").symlink_to(paths[0])
        (paths[0] / "sub").mkdir()
        (paths[0] / "sub" / "back").symlink_to(paths[0])
        started = time.monotonic()
        assert len(load_corpus(paths[0])) == 4
        assert time.monotonic() - started < 5

    def test_special_file_named_json(self, paths: tuple[Path, Path]) -> None:
        """A FIFO named like a vector file is refused, not waited on."""
        os.mkfifo(paths[0] / "zeta.json")
        code, out, seconds = cli("vectors", "--vectors", str(paths[0]), "check")
        assert code == 1
        assert "a FIFO" in out
        assert seconds < 5

    def test_register_fifo_is_not_waited_on(self, paths: tuple[Path, Path], tmp_path: Path) -> None:
        """`vectors --specs DIR` whose clauses.toml is a FIFO: an error at once (exit 2)."""
        specs = tmp_path / "specs"
        specs.mkdir()
        os.mkfifo(specs / "clauses.toml")
        code, _, seconds = cli(
            "vectors", "--vectors", str(paths[0]), "--specs", str(specs), "check"
        )
        assert code == 2
        assert seconds < 5

    def test_read_bounded_refuses_devices(self) -> None:
        """The shared reader never reads a device."""
        with pytest.raises(OSError, match="character device"):
            read_bounded("/dev/zero", 1 << 20)


class TestArgumentsBeforeTheRun:
    """Arguments are checked before anything starts (an adapter that would hang proves it)."""

    @pytest.mark.parametrize(
        "extra",
        [
            ["--timeout", "inf"],
            ["--timeout", "nan"],
            ["--timeout", "-1"],
            ["--timeout", "1e12"],
            ["--jobs", "100000"],
            ["--repeat", "1000000"],
            ["--max-line-bytes", "10"],
            ["--max-line-bytes", "lots"],
            ["--max-consecutive-failures", "-2"],
            ["--section-option", "novalue"],
        ],
    )
    def test_bad_numbers_and_options(
        self, paths: tuple[Path, Path], tmp_path: Path, extra: list[str]
    ) -> None:
        """Exit 2 within a second, the hanging adapter never started."""
        code, _, seconds = cli(*certify_args(paths, tmp_path, "always_hangs"), *extra)
        assert code == 2
        assert seconds < 2

    @pytest.mark.parametrize("option", ["--report-dir", "--temp-dir", "--vectors"])
    def test_unusable_directories(
        self, paths: tuple[Path, Path], tmp_path: Path, option: str
    ) -> None:
        """A directory option that cannot be used: exit 2 before the run, naming it."""
        blocker = tmp_path / "a-file"
        blocker.write_text("x")
        argv = certify_args(paths, tmp_path, "always_hangs")
        if option in argv:
            index = argv.index(option)
            del argv[index : index + 2]
        code, _, seconds = cli(*argv, option, str(blocker / "sub"))
        assert code == 2
        assert seconds < 2

    def test_missing_expected_failures(self, paths: tuple[Path, Path], tmp_path: Path) -> None:
        """A missing --expected-failures file: exit 2 before the run."""
        argv = certify_args(paths, tmp_path, "always_hangs")
        code, _, seconds = cli(*argv, "--expected-failures", str(tmp_path / "nope.txt"))
        assert code == 2
        assert seconds < 2

    def test_bad_adapter_prefix(self, paths: tuple[Path, Path], tmp_path: Path) -> None:
        """An adapter string that names nothing: exit 2 (held)."""
        argv = certify_args(paths, tmp_path)
        argv[argv.index("--adapter") + 1] = "http://example.invalid"
        assert cli(*argv)[0] == 2


class TestTerminal:
    """Every string from an adapter is sanitized before it reaches a terminal."""

    def test_shared_helpers(self) -> None:
        """terminal_safe escapes controls but newline and tab; one_line escapes those too."""
        text = "a\x1b[2Jb\rc\x07\u202e\x9b\ud800\n\td"
        safe = terminal_safe(text)
        assert not any(c in safe for c in TERMINAL_CONTROLS)
        assert safe.endswith("\n\td")
        assert "\\x1b[2J" in safe
        assert terminal_safe(safe) == safe
        assert "\n" not in one_line(text)
        safe.encode("utf-8")

    def test_smoke_output(self, paths: tuple[Path, Path]) -> None:
        """smoke prints the adapter's name, errors and stderr without their escapes."""
        spec = fake_spec("terminal_escapes", paths[1])
        code, out, _ = cli("smoke", "--adapter", spec, "--vectors", str(paths[0]), "--count", "4")
        assert code == 1
        assert not any(c in out for c in TERMINAL_CONTROLS)
        assert "\\x1b]0;owned" in out

    def test_pytest_failure_text(self) -> None:
        """The pytest plugin's failure text goes through terminal_safe."""
        from conformance.pytest_plugin import Phase6Failure

        source = Path(__import__("conformance.pytest_plugin").pytest_plugin.__file__)
        text = source.read_text("utf-8")
        assert text.count("raise Phase6Failure(terminal_safe(") == 2
        assert Phase6Failure("x").text == "x"


def test_report_json_from_a_hostile_run_is_readable(
    paths: tuple[Path, Path], tmp_path: Path
) -> None:
    """The terminal-escapes fake through `certify`: exit 1 and a report that loads."""
    argv = certify_args(paths, tmp_path, "terminal_escapes")
    code, _, _ = cli(*argv)
    assert code == 1
    report = json.loads((tmp_path / "report" / "report.json").read_text("utf-8"))
    assert report["results"]
