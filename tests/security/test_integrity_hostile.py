"""The harness trusting what an adapter controls (issue 22, high and medium): the report it
writes, the replies it parses, the runs it stamps, the failures it counts, the directories it
writes and the memory it keeps. Each test is one attack that must be held."""

from __future__ import annotations

import dataclasses
import io
import itertools
import json
import os
import re
import shlex
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

import pytest
from harness_corpus import FAKES, fake_spec
from hostile_support import certify_fake, synthetic, written

from conformance import ErrorKind, FailureKind, Outcome, ProtocolError, VerdictValue
from conformance.adapters import open_adapter, parse_line
from conformance.adapters._protocol import MAX_REPLY_CONTAINERS
from conformance.audit import _expected
from conformance.audit._expected import fixture_bytes, record_problems
from conformance.audit._section import certify_section as audit_section
from conformance.cli import main
from conformance.corpus import TextFile, load_corpus
from conformance.properties import _probe
from conformance.properties._probe import Probe
from conformance.report import other_adapter, render_compare_markdown
from conformance.report._render import _code, _md_cell
from conformance.run import RunConfig, SectionContext
from conformance.run._executor import INTERLEAVE, MAX_KEPT_BASELINE, Baseline, Executor
from conformance.strategies import Scenario

#: What a Markdown renderer would turn into live HTML or a loaded image.
_LIVE_MARKUP = ("<script", "<img", "![t]")


@pytest.fixture
def paths(tmp_path: Path) -> tuple[Path, Path]:
    """(vectors, table) of the synthetic corpus."""
    return synthetic(tmp_path / "corpus")


class TestMarkdownShowsNoMarkup:
    """report.md carried the handshake's name, version and language raw: ``<script>`` and
    ``<img onerror>`` were HTML to any Markdown renderer (a pull-request comment)."""

    def test_handshake_html_is_escaped_in_report_md(
        self, paths: tuple[Path, Path], tmp_path: Path
    ) -> None:
        """Every handshake field holding HTML comes out of report.md as entities, shown and
        never rendered; report.json keeps the text whole."""
        result = certify_fake(paths, "html_name")
        document = written(result, tmp_path / "report")
        markdown = (tmp_path / "report" / "report.md").read_text("utf-8")
        for markup in _LIVE_MARKUP:
            assert markup not in markdown
        assert "fake&lt;script&gt;alert(1)&lt;/script&gt;" in markdown
        assert '1&lt;img src=x onerror="alert(2)"&gt;' in markdown
        # the image's opener and its link part both escaped: neither an image nor a link
        assert "py!\\[t]\\(https://tracker.example/p.png)" in markdown
        assert document["header"]["adapter"]["implementation"]["name"].endswith("</script>")

    def test_compare_markdown_is_escaped_too(
        self, paths: tuple[Path, Path], tmp_path: Path
    ) -> None:
        """The comparison table's column titles and language row are escaped the same way."""
        report: dict[str, Any] = written(certify_fake(paths, "html_name"), tmp_path / "report")
        markdown = render_compare_markdown([report, json.loads(json.dumps(report))])
        for markup in _LIVE_MARKUP:
            assert markup not in markdown
        assert "&lt;script&gt;" in markdown

    def test_code_spans_stay_literal(self) -> None:
        """Text the report shows in a code span is not entity-escaped (a code span shows HTML
        as text already, and would show ``&lt;`` literally)."""
        assert _code("<b>&") == "`<b>&`"
        assert _md_cell("<b>&|") == "&lt;b&gt;&amp;\\|"


class TestDuplicateMemberNames:
    """Replies naming a member twice were parsed last-wins and certified compliant, although
    a first-wins or strict parser reads another answer (``package_hash`` "0000", no items)."""

    def test_replies_with_duplicate_names_are_protocol_errors(
        self, paths: tuple[Path, Path], tmp_path: Path
    ) -> None:
        """Every vector answered with repeated names is errored as a protocol error naming
        RFC 8259 and I-JSON; the run is not compliant and the report is written."""
        result = certify_fake(paths, "duplicate_members", max_consecutive_failures=0)
        assert result.verdict.value is not VerdictValue.COMPLIANT
        answered = list(result.results)
        assert answered
        for vector in answered:
            assert vector.outcome is Outcome.ERRORED, vector.id
            assert vector.error is not None
            assert vector.error.kind is ErrorKind.PROTOCOL
            assert re.search(r"'(result|package_hash)' appears 2 times", vector.error.message)
            assert "RFC 8259" in vector.error.message
            assert "RFC 7493" in vector.error.message
        written(result, tmp_path / "report")

    @pytest.mark.parametrize(
        "line",
        [
            b'{"seq": 1, "result": {}, "result": {}}',
            b'{"seq": 1, "result": {"package": {"a": 1, "b": 2, "a": 1}}}',
            b'{"seq": 1, "result": {"x": [{"k": 0}, {"k": 1, "k": 1}]}}',
            b'{"seq": 1, "seq": 1, "result": {}}',
            b'{"seq": 1, "result": {"\\u0061": 1, "a": 2}}',
        ],
    )
    def test_parse_line_refuses_any_duplicate(self, line: bytes) -> None:
        """A name repeated at any depth, escaped or not, is a protocol error."""
        with pytest.raises(ProtocolError, match="names a member twice"):
            parse_line(line, what="run reply")

    def test_unique_replies_parse_as_before(self) -> None:
        """The same name in different objects, and big integers, still parse exactly."""
        line = b'{"seq": 1, "result": {"a": {"a": 1}, "b": [{"a": 2}, {"a": 2**70}]}}'.replace(
            b"2**70", str(2**70).encode()
        )
        message = parse_line(line, what="run reply")
        assert message["result"]["b"][1]["a"] == 2**70

    def test_many_names_and_one_duplicate_is_quick(self) -> None:
        """Finding the repeated name among 200,000 costs one pass, not a quadratic search."""
        names = ",".join(f'"n{i}": 0' for i in range(200_000))
        line = f'{{"seq": 1, "result": {{{names}, "n7": 1}}}}'.encode()
        started = time.monotonic()
        with pytest.raises(ProtocolError, match="'n7' appears 2 times"):
            parse_line(line, what="run reply")
        assert time.monotonic() - started < 5


class TestFreshRunIsStamped:
    """The fresh-process re-run's stamps were discarded: an adapter writing to its stores only
    there was certified compliant (92 store writes, exit 0)."""

    def test_store_writes_only_in_the_fresh_process(
        self, paths: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """Every sampled vector the fresh process wrote to fails ``store-mutated``, saying it
        was the fresh run; the run is not compliant."""
        monkeypatch.setenv("PHASE6_FAKE_STARTS", str(tmp_path / "starts"))
        result = certify_fake(paths, "writes_store_when_fresh", fresh_every=1)
        assert result.verdict.value is not VerdictValue.COMPLIANT
        mutated = [
            r
            for r in result.results
            if any(f.kind is FailureKind.STORE_MUTATED for f in r.failures)
        ]
        assert {r.id for r in mutated} == {r.id for r in result.results}
        for vector in mutated:
            assert vector.outcome is Outcome.FAILED
            (failure,) = [f for f in vector.failures if f.kind is FailureKind.STORE_MUTATED]
            assert "fresh process changed the vector's files" in failure.message
            assert "stores/s.jsonl" in failure.message
        written(result, tmp_path / "report")

    def test_an_untouched_fresh_run_adds_nothing(
        self, paths: tuple[Path, Path], tmp_path: Path
    ) -> None:
        """A correct adapter re-run in a fresh process still passes every vector."""
        result = certify_fake(paths, "correct", fresh_every=1)
        assert {r.outcome for r in result.results} == {Outcome.PASSED}


class TestRootsTellNothing:
    """Vector roots were ``<temp>/phase6-w0-XXXX/<vector id>``: an implementation could tell it
    was being certified, and which vector (with its public expected answer) it was asked."""

    def test_roots_name_neither_the_kit_nor_the_vector(
        self, paths: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """Every root an implementation is sent is a random name in a ``tmp*`` directory: no
        ``phase6``, no vector ID; every run (both same-process runs and the fresh-process
        re-run) gets a new name; honest results are unchanged."""
        log = tmp_path / "roots"
        monkeypatch.setenv("PHASE6_FAKE_ROOTS", str(log))
        result = certify_fake(paths, "records_roots", fresh_every=1)
        assert {r.outcome for r in result.results} == {Outcome.PASSED}
        roots = [line.split(" ")[0] for line in log.read_text("utf-8").splitlines()]
        assert len(roots) == 3 * len(result.results)  # two runs and the fresh re-run each
        assert len(set(roots)) == len(roots)
        ids = [r.id for r in result.results]
        for root in roots:
            assert "phase6" not in root
            assert not any(vector_id in root for vector_id in ids)
            assert re.fullmatch(r"[0-9a-f]{16}", Path(root).name)
            assert Path(root).parent.name.startswith("tmp")

    def test_the_order_of_requests_does_not_say_which_run_is_which(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """A vector's two same-process runs were always back to back (the first compared with
        the vector, the second with the first): now the repeat comes after a random number of
        other vectors' first runs, so a request is not always followed by itself."""
        log = tmp_path / "roots"
        monkeypatch.setenv("PHASE6_FAKE_ROOTS", str(log))
        many = synthetic(tmp_path / "corpus", copies=20)
        result = certify_fake(many, "records_roots", fresh_every=0)
        assert {r.outcome for r in result.results} == {Outcome.PASSED}
        requests = [line.split(" ")[1] for line in log.read_text("utf-8").splitlines()]
        assert len(requests) == 2 * len(result.results)
        positions: dict[str, list[int]] = {}
        for index, request in enumerate(requests):
            positions.setdefault(request, []).append(index)
        gaps = [b - a for runs in positions.values() for a, b in itertools.pairwise(runs)]
        assert len(gaps) == len(result.results) >= 20  # all gaps 1 by chance: (1/4)**20
        assert any(gap > 1 for gap in gaps)
        # Bounded by the interleaving window. Between a vector's first run and its repeat
        # come at most: the repeats of the INTERLEAVE older vectors still waiting (they run
        # after the first run of the same submit), the first runs of the next INTERLEAVE
        # submits, and the repeats of the INTERLEAVE - 2 newer vectors that can come due
        # before it. That is 3 * INTERLEAVE - 2 other requests, a gap of 3 * INTERLEAVE - 1
        # (reached about one run in five with 20 vectors; the old bound, 2 * 4 + 2, was not).
        assert max(gaps) <= 3 * INTERLEAVE - 1


class TestBreakerCountsCostlyAdapters:
    """The consecutive-failure breaker counted only timeouts and crashes in a row: an internal
    error at 0.95 x timeout, or hanging on 9 vectors of 10, ran a 64-vector run to the end."""

    def test_slow_internal_errors_stop_the_run(self, tmp_path: Path) -> None:
        """Internal errors just under the timeout count: N in a row stop the run as adapter
        broken, the reason saying they were slow."""
        paths = synthetic(tmp_path / "corpus", copies=30)
        started = time.monotonic()
        result = certify_fake(paths, "slow", "0.38", timeout=0.4, max_consecutive_failures=3)
        assert time.monotonic() - started < 15
        assert result.verdict.value is VerdictValue.ADAPTER_BROKEN
        assert result.stopped_after == 3
        assert result.broken_reason is not None
        assert "3 vectors in a row" in result.broken_reason
        assert "[slow: 0.3" in result.broken_reason
        assert "gave up just in time" in result.broken_reason
        written(result, tmp_path / "report")

    def test_mostly_hanging_adapter_stops(self, tmp_path: Path) -> None:
        """Hanging on 2 vectors of 3 (never N in a row): three quarters of the last 2N stop
        the run, and the reason says the adapter is mostly failing."""
        paths = synthetic(tmp_path / "corpus", copies=60)
        started = time.monotonic()
        result = certify_fake(
            paths,
            "mostly_hangs",
            "3",
            timeout=0.3,
            max_consecutive_failures=4,
            fresh_every=0,
            repeat=1,  # one run each: the results come in the hanging pattern's order
        )
        assert time.monotonic() - started < 20
        assert result.verdict.value is VerdictValue.ADAPTER_BROKEN
        assert result.stopped_after is not None
        assert result.stopped_after < 20
        assert result.broken_reason is not None
        assert "of the last 8 vectors" in result.broken_reason
        assert "mostly failing" in result.broken_reason
        written(result, tmp_path / "report")

    def test_slow_but_correct_adapter_is_not_stopped(self, tmp_path: Path) -> None:
        """Slowness alone is no failure: a correct adapter answering just under the timeout is
        run to the end and passes."""
        paths = synthetic(tmp_path / "corpus")
        result = certify_fake(
            paths, "slow", "0.2", "correct", timeout=0.25, max_consecutive_failures=1, repeat=1
        )
        assert result.stopped_after is None
        assert {r.outcome for r in result.results} == {Outcome.PASSED}

    @pytest.mark.slow
    @pytest.mark.parametrize(("fake", "args"), [("slow", ("0.95",)), ("mostly_hangs", ("10",))])
    def test_issue_22_runs_stop_early(
        self, tmp_path: Path, fake: str, args: tuple[str, ...]
    ) -> None:
        """The runs of issue 22: 64 vectors, --timeout 1, default N (10); each stops well
        before the end with a reason."""
        paths = synthetic(tmp_path / "corpus", copies=60)
        result = certify_fake(paths, fake, *args, timeout=1.0, fresh_every=0)
        assert result.verdict.value is VerdictValue.ADAPTER_BROKEN
        assert result.stopped_after is not None
        assert result.stopped_after <= 25
        assert result.broken_reason is not None
        written(result, tmp_path / "report")


def _certify_cli(paths: tuple[Path, Path], fake: str, *extra: str) -> tuple[int, str]:
    """``phase6 certify`` of a fake over the synthetic corpus into the default report
    directory (``reports/<name>/`` under the working directory); (exit code, stdout)."""
    out = io.StringIO()
    argv = ["certify", "--adapter", fake_spec(fake, paths[1]), "--vectors", str(paths[0])]
    code = main([*argv, "-j", "1", "-q", "--no-sections", *extra], out=out)
    return code, out.getvalue()


def _spec_in(directory: Path) -> str:
    spec: str = json.loads((directory / "report.json").read_text("utf-8"))["header"]["adapter"][
        "spec"
    ]
    return spec


class TestReportNeverReplacesAnother:
    """An adapter calling itself ``adamos-phase6-reference`` replaced the reference's full
    report with its own one-vector partial run (only a "note:" line said so)."""

    def test_same_name_other_adapter_goes_elsewhere(
        self, paths: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """A second adapter with the same self-declared name writes a directory named by its
        adapter spec too, says so in a warning, and the first report is untouched."""
        monkeypatch.chdir(tmp_path)
        _certify_cli(paths, "correct")
        first = tmp_path / "reports" / "fake"
        before = (first / "report.json").read_bytes()
        code, out = _certify_cli(paths, "wrong_hash", "--select", "alpha-one")
        assert code == 1
        assert (first / "report.json").read_bytes() == before
        assert "correct.py" in _spec_in(first)
        (other,) = [d for d in (tmp_path / "reports").iterdir() if d.name != "fake"]
        assert re.fullmatch(r"fake-[0-9a-f]{8}", other.name)
        assert "wrong_hash.py" in _spec_in(other)
        assert "warning: reports/fake/ holds the report of another adapter" in out
        assert "not replaced" in out
        assert f"report files: reports/{other.name}/ " in out

    def test_same_adapter_replaces_its_own(
        self, paths: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """The same adapter certified again writes over its own report, without a warning."""
        monkeypatch.chdir(tmp_path)
        _certify_cli(paths, "correct")
        _, out = _certify_cli(paths, "correct", "--select", "alpha-one")
        assert "warning" not in out
        assert "report files: reports/fake/ " in out
        assert sorted(d.name for d in (tmp_path / "reports").iterdir()) == ["fake"]

    def test_both_names_taken_is_refused(
        self, paths: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """When the spec-named directory holds yet another adapter's report too, nothing is
        replaced: the report is not written and the run exits 2."""
        monkeypatch.chdir(tmp_path)
        _certify_cli(paths, "correct")
        _certify_cli(paths, "wrong_hash")
        (other,) = [d for d in (tmp_path / "reports").iterdir() if d.name != "fake"]
        document = json.loads((other / "report.json").read_text("utf-8"))
        document["header"]["adapter"]["spec"] = "cmd:somebody-else"
        (other / "report.json").write_text(json.dumps(document), "utf-8")
        planted = (other / "report.json").read_bytes()
        code, out = _certify_cli(paths, "wrong_hash")
        assert code == 2
        assert "report: not written" in out
        assert (other / "report.json").read_bytes() == planted
        assert "correct.py" in _spec_in(tmp_path / "reports" / "fake")

    @pytest.mark.parametrize(
        ("old", "new", "other"),
        [
            (
                "cmd:/venv/a/bin/python -m reference serve",
                "cmd:python3.12 -m reference serve",
                None,
            ),
            (
                "cmd:python -m reference serve",
                "cmd:python evil.py",
                "cmd:python -m reference serve",
            ),
            ("python:pkg:f", "python:pkg:g", "python:pkg:f"),
        ],
    )
    def test_adapter_identity(self, tmp_path: Path, old: str, new: str, other: str | None) -> None:
        """One adapter is one spec, up to the path of its Python interpreter."""
        (tmp_path / "report.json").write_text(
            json.dumps({"header": {"adapter": {"spec": old}}}), "utf-8"
        )
        assert other_adapter(tmp_path, new) == other


class TestBoundedReplyMemory:
    """Replies of millions of ``{}`` cost ~70 bytes per object parsed, and the executor kept
    the parsed first result of every sampled vector to the end (0.79 -> 2.06 GB RSS for 1 -> 7
    kept 9 MB replies)."""

    def test_too_many_containers_is_a_protocol_error(self) -> None:
        """More arrays and objects than the cap is refused before parsing, quickly."""
        pad = b",".join([b"{}"] * (MAX_REPLY_CONTAINERS + 1))
        line = b'{"seq": 1, "result": {"pad": [' + pad + b"]}}"
        started = time.monotonic()
        with pytest.raises(ProtocolError, match="arrays and objects, more than"):
            parse_line(line, what="run reply")
        assert time.monotonic() - started < 2

    def test_brackets_in_strings_are_not_containers(self) -> None:
        """A string full of brackets is text, not structure: it parses."""
        text = "{[" * MAX_REPLY_CONTAINERS
        line = json.dumps({"seq": 1, "result": {"excerpt": text}}).encode()
        assert parse_line(line, what="run reply")["result"]["excerpt"] == text

    def test_fresh_check_keeps_no_parsed_results(self, paths: tuple[Path, Path]) -> None:
        """Every sampled vector's first result is kept as a digest (and short canonical
        bytes), never as its parsed tree: memory held after the runs stays small."""
        config = RunConfig(
            adapter=fake_spec("big_replies", paths[1], "200000"), timeout=20, fresh_every=1
        )
        vectors = load_corpus(paths[0]).vectors
        executor = Executor(config, sample=frozenset(v.id for v in vectors))
        try:
            tracemalloc.start()
            for vector in vectors:
                executor.run_vector(vector)
            held, _ = tracemalloc.get_traced_memory()
            tracemalloc.stop()
            kept = [baseline for _, baseline in executor._baselines.values()]
            assert len(kept) == len(vectors)
            assert all(isinstance(b, Baseline) and b.kept is None for b in kept)
            assert held < 8 * 1024 * 1024  # 4 parsed replies of 200,000 objects: ~55 MB
            checks = {vid: found for vid, found, _ in executor.run_fresh_sample()}
            assert checks == {v.id: () for v in vectors}
        finally:
            tracemalloc.stop()
            executor.close()

    @pytest.mark.parametrize("size", [10, 100_000])
    def test_a_differing_fresh_run_is_still_caught(self, size: int) -> None:
        """Kept whole or as a digest only, a first result that differs from the fresh run's
        is a difference (with its path when the first result was kept whole)."""
        first = {"package": {"pad": ["x" * size], "score": 1}}
        baseline = Baseline.of(first)
        assert (baseline.kept is None) is (size > MAX_KEPT_BASELINE // 2)
        assert baseline.difference(json.loads(json.dumps(first))) is None
        changed = json.loads(json.dumps(first))
        changed["package"]["score"] = 1.0
        found = baseline.difference(changed)
        assert found is not None
        assert found[0].path == ("" if baseline.kept is None else "/package/score")


class TestAuditSectionHashesTheFixture:
    """The audit section hashed the stores left in the implementation's root after the run,
    following symlinks and reading them whole: a store swapped for a link to a 3 GiB sparse
    file cost 3.3 GB."""

    def test_swapped_stores_are_never_read(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """Records are checked against the vector's own bytes: the link target is never
        opened, no store is read back from any directory, and the reference's records pass."""
        target = tmp_path / "outside" / "sparse.bin"
        target.parent.mkdir()
        with open(target, "wb") as handle:
            handle.truncate(1 << 30)  # 1 GiB, sparse
        monkeypatch.setenv("PHASE6_FAKE_TARGET", str(target))
        opened: list[str] = []
        real_open = os.open

        def spy(path: Any, *args: Any, **kwargs: Any) -> int:
            opened.append(os.path.realpath(path) if isinstance(path, str | Path) else "")
            return real_open(path, *args, **kwargs)

        corpus = load_corpus()
        vectors = [v for v in corpus.vectors if "package" in v.expect][:6]
        context = SectionContext(
            f"cmd:{shlex.quote(sys.executable)} {FAKES / 'audit_swaps_store.py'}",
            dataclasses.replace(corpus, vectors=tuple(vectors)),
            (),
            None,
            1,
            30.0,
            {"audit": "all"},
        )
        monkeypatch.setattr(os, "open", spy)
        real_read = Path.read_bytes
        read: list[Path] = []

        def spy_read(self: Path) -> bytes:
            read.append(self.resolve())
            return real_read(self)

        monkeypatch.setattr(Path, "read_bytes", spy_read)
        section = audit_section(context)
        assert [item.outcome for item in section.items] == [Outcome.PASSED] * len(vectors)
        assert str(target) not in opened
        assert not read


class TestExpectedTakesBytes:
    """``audit/_expected.py`` hashed stores by following paths from a directory: an absolute
    or climbing store path of the request, or a symlink in the root, was read whole wherever
    it led."""

    @pytest.mark.parametrize("store", ["{outside}", "../outside/secret", "stores/link"])
    def test_paths_name_only_fixture_files(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, store: str
    ) -> None:
        """A store path is looked up among the fixture's own files by name: an absolute or
        climbing path names none, nothing is opened, and no identity is computed for it."""
        secret = tmp_path / "outside" / "secret"
        secret.parent.mkdir()
        secret.write_bytes(b"0600 bytes\n")
        secret.chmod(0o600)
        vector = next(v for v in load_corpus().vectors if "package" in v.expect)
        request = {**vector.request, "store_paths": [store.format(outside=secret)]}
        files = {**fixture_bytes(vector), "stores": None}
        opened: list[Any] = []
        real_open = os.open

        def spy(*args: Any, **kwargs: Any) -> int:
            opened.append(args)
            return real_open(*args, **kwargs)

        monkeypatch.setattr(os, "open", spy)
        monkeypatch.setattr(Path, "read_bytes", lambda self: pytest.fail(f"read {self}"))
        record = {"stores": [{"path": store, "bytes": 11, "sha256": "0" * 64}]}
        assert _expected._stores(request, files) is None
        assert record_problems(request, vector.expect, None, record, files)
        assert opened == []

    def test_identity_is_the_vectors_bytes(self) -> None:
        """The identity is computed from the bytes the vector describes (path, length,
        SHA-256), without a directory."""
        vector = next(v for v in load_corpus().vectors if "package" in v.expect)
        files = fixture_bytes(vector)
        stores = _expected._stores(vector.request, files)
        assert stores
        for store in stores:
            data = files[store["path"]]
            assert data is not None
            assert store["bytes"] == len(data)


class _Names:
    """A stand-in for ``secrets`` whose ``token_hex`` is predictable (what an attacker would
    need to know the next root)."""

    def __init__(self, names: list[str]) -> None:
        self._names = iter(names)

    def token_hex(self, nbytes: int) -> str:
        return next(self._names)


class TestPropertyRootsArePrivate:
    """The properties section's future scenario roots (``r<N>``) could be pre-planted with
    symlinks by the adapter; the harness then wrote the scenario's files outside its
    directories."""

    @pytest.fixture
    def outside(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
        """The directory the planted links lead to (must stay empty)."""
        directory = tmp_path / "outside"
        directory.mkdir()
        monkeypatch.setenv("PHASE6_FAKE_TARGET", str(directory))
        return directory

    def _probe(self, tmp_path: Path) -> Probe:
        adapter = open_adapter(fake_spec("plants_roots", tmp_path / "no-table"), timeout=10)
        adapter.start()
        return Probe(adapter, temp_parent=str(tmp_path))

    def test_planted_links_are_never_written_through(
        self, tmp_path: Path, outside: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """Even with the next names known and planted, every root is made fresh (the link
        replaced, never followed): nothing is written outside."""
        names = [f"{i:016x}" for i in range(8)]
        monkeypatch.setenv("PHASE6_FAKE_NAMES", ",".join(names))
        monkeypatch.setattr(_probe, "secrets", _Names(names))
        probe = self._probe(tmp_path)
        try:
            for _ in names:
                probe.run(_SCENARIO)
        finally:
            probe.adapter.close()
            probe.close()
        assert list(outside.iterdir()) == []

    def test_root_names_are_unpredictable(
        self, tmp_path: Path, outside: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """Roots are 16 random hex digits, none of the sequential ``r<N>`` names."""
        seen: list[Path] = []
        probe = self._probe(tmp_path)
        real = probe._call

        def spy(adapter: Any, scenario: Any, root: Path) -> Any:
            seen.append(root)
            return real(adapter, scenario, root)

        monkeypatch.setattr(probe, "_call", spy)
        try:
            for _ in range(5):
                probe.run(_SCENARIO)
        finally:
            probe.adapter.close()
            probe.close()
        assert len({root.name for root in seen}) == 5
        assert all(re.fullmatch(r"[0-9a-f]{16}", root.name) for root in seen)
        assert list(outside.iterdir()) == []


_SCENARIO = Scenario.build(
    {"query": "q", "store_paths": ["stores/s.jsonl"]},
    {"stores/s.jsonl": TextFile('{"memory_id":"m1","text":"hello"}\n')},
)
