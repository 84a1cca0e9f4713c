"""A report never breaks: whatever an implementation sent is stored in report.json and every
rendering survives it (hypothesis over arbitrary JSON: lone surrogates, NUL, escapes, deep
nesting; and explicit 10 MB strings and 100,000-deep values)."""

from __future__ import annotations

import json
import os
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from harness_corpus import fake_spec, write_corpus
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conformance import Certification, certify, load_report, write_report
from conformance._kit import write_atomic
from conformance.report import MAX_DEPTH, build_report, dumps_report, render_files, storable
from conformance.report._render import render_badge, render_html, render_junit, render_markdown
from conformance.run import (
    ErrorDetail,
    ErrorKind,
    Failure,
    FailureKind,
    Outcome,
    Section,
    SectionItem,
    VectorResult,
    failure_signatures,
)

#: Strings an implementation may send that break naive writers.
HOSTILE = ("\ud800", "\udfff", "\x00", "\x1b[2J", "\r", "\u2028", "\ufffe", "]]>", "</pre>", "`|")
_TEXT = st.one_of(
    st.text(st.characters(codec=None, exclude_categories=()), max_size=40),
    st.lists(st.sampled_from(HOSTILE), max_size=4).map("".join),
)
_JSON = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(2**80), 2**80),
        st.floats(allow_nan=False, allow_infinity=False),
        _TEXT,
    ),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_TEXT, inner, max_size=3),
    max_leaves=12,
)


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Certification:
    """A certification of the correct fake on the synthetic corpus, to put hostile values into."""
    vectors, table = write_corpus(tmp_path_factory.mktemp("corpus"))
    return certify(fake_spec("correct", table), vectors_dir=vectors, jobs=1, sections={})


def hostile(base: Certification, text: str, value: Any) -> Certification:
    """``base`` with ``text`` and ``value`` wherever an implementation's output lands."""
    failed = replace(
        base.results[0],
        outcome=Outcome.FAILED,
        failures=(
            Failure(FailureKind.MISMATCH, text, ("S6-OUT-01",), f"/{text}", text, text, text),
        ),
        reproduce=text,
    )
    errored = replace(
        base.results[1],
        outcome=Outcome.ERRORED,
        error=ErrorDetail(ErrorKind.INTERNAL, text, stderr_tail=text, exit_status=3, detail=text),
    )
    results: tuple[VectorResult, ...] = (failed, errored, *base.results[2:])
    section = Section(
        "properties",
        text,
        Outcome.FAILED,
        text,
        (SectionItem(text, Outcome.FAILED, (text,), text, {"value": value}),),
        {"value": value, text: [value]},
    )
    adapter = dict(base.adapter)
    adapter["implementation"] = {"name": text, "version": text, "language": text, "x": value}
    return replace(
        base,
        adapter=adapter,
        results=results,
        sections={"properties": section},
        signatures=failure_signatures(results),
    )


def _as_json(value: Any) -> Any:
    """``value`` as a JSON reader gets it back from any JSON text of it."""
    return json.loads(json.dumps(value))


def _strings(value: Any) -> list[str]:
    """Every string in a JSON value (keys included)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (k, *_strings(v))]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def _check_renderings(report: dict[str, Any]) -> None:
    for text in (render_markdown(report), render_html(report), render_badge(report)):
        text.encode("utf-8")  # no lone surrogate left
        assert "\x00" not in text
        assert "\x1b" not in text
    junit = render_junit(report)
    ET.fromstring(junit.split("\n", 1)[1].encode("utf-8"))
    ET.fromstring(render_badge(report))


class TestFuzz:
    @settings(
        max_examples=60,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(text=_TEXT, value=_JSON)
    def test_writer_and_renderers_survive(
        self, base: Certification, tmp_path: Path, text: str, value: Any
    ) -> None:
        """Any strings and JSON values from an implementation: report.json is written, loads,
        validates and holds them unchanged; md, html, junit and the badge render."""
        certification = hostile(base, text, value)
        directory = tmp_path / f"r{abs(hash((text, repr(value)))) % 10**9}"
        written = write_report(certification, directory)
        report = load_report(written["report.json"])
        # as JSON text reads them: a high and a low surrogate side by side are one code point
        text, value = _as_json(text), _as_json(storable(value))
        assert text in _strings(report["results"][0]["failures"][0])
        assert report["sections"]["properties"]["data"]["value"] == value
        assert report["header"]["adapter"]["implementation"]["name"] == text
        _check_renderings(report)
        for name in ("report.md", "report.html", "junit.xml", "badge.svg"):
            (directory / name).read_bytes().decode("utf-8")

    def test_lone_surrogate_is_kept_as_an_escape(self, base: Certification, tmp_path: Path) -> None:
        """A lone surrogate is written as a \\u escape and read back as the same string."""
        written = write_report(hostile(base, "\ud800.jsonl", None), tmp_path)
        raw = written["report.json"].read_bytes()
        assert b"\\ud800.jsonl" in raw
        raw.decode("utf-8")
        report = load_report(tmp_path)
        assert report["results"][0]["failures"][0]["message"] == "\ud800.jsonl"

    @pytest.mark.slow
    def test_ten_megabyte_strings(self, base: Certification, tmp_path: Path) -> None:
        """10 MB of text is stored whole in report.json and cut in the renderings."""
        big = "x" * 10_000_000
        written = write_report(hostile(base, big, big), tmp_path)
        report = load_report(written["report.json"])
        assert report["results"][0]["failures"][0]["message"] == big
        for name in ("report.md", "report.html", "junit.xml"):
            assert (tmp_path / name).stat().st_size < 5_000_000
        assert "more characters in report.json" in (tmp_path / "report.md").read_text()

    def test_deep_nesting(self, base: Certification, tmp_path: Path) -> None:
        """A value 100,000 levels deep is stored (as JSON text below MAX_DEPTH) and renders."""
        deep: Any = "bottom"
        for _ in range(100_000):
            deep = [deep]
        written = write_report(hostile(base, "deep", deep), tmp_path)
        report = load_report(written["report.json"])
        stored = report["sections"]["properties"]["data"]["value"]
        levels = 0
        while isinstance(stored, list):
            (stored,) = stored
            levels += 1
        assert 0 < levels < MAX_DEPTH
        rest = 100_000 - levels
        assert stored == "[" * rest + '"bottom"' + "]" * rest  # nothing lost
        _check_renderings(report)

    def test_non_json_values_are_stored_as_text(self) -> None:
        """NaN, Infinity, tuples, non-string keys and objects become JSON."""
        value = storable({1: (float("nan"), float("inf")), "o": object})
        assert value == {"1": ["nan", "inf"], "o": repr(object)}
        json.loads(dumps_report(value))


class TestAtomicWrites:
    def test_no_temporary_files_left(self, base: Certification, tmp_path: Path) -> None:
        """Only the five report files remain: every temporary file was renamed."""
        write_report(base, tmp_path)
        assert sorted(p.name for p in tmp_path.iterdir()) == [
            "badge.svg",
            "junit.xml",
            "report.html",
            "report.json",
            "report.md",
        ]

    def test_a_failing_renderer_leaves_report_json_whole(
        self, base: Certification, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """report.json is written first and completely; a renderer that raises costs only its
        own file (and is reported)."""
        import conformance.report._render as render

        def broken(report: Any) -> str:
            raise RuntimeError("renderer bug")

        monkeypatch.setattr(render, "render_html", broken)
        with pytest.raises(Exception, match="renderer bug"):
            write_report(base, tmp_path)
        assert load_report(tmp_path)["footer"]["verdict"]["value"] == "compliant"
        assert not (tmp_path / "report.html").exists()
        assert (tmp_path / "report.md").is_file()

    def test_replaces_atomically(self, tmp_path: Path) -> None:
        """The new bytes replace the old file in one rename; the inode changes."""
        target = tmp_path / "f.txt"
        target.write_text("old")
        before = os.stat(target).st_ino
        write_atomic(tmp_path, "f.txt", b"new")
        assert target.read_text() == "new"
        assert os.stat(target).st_ino != before

    @pytest.mark.parametrize("name", ["", ".", "..", "a/b", "nul\x00"])
    def test_plain_names_only(self, tmp_path: Path, name: str) -> None:
        """Only a plain file name can be written (no path, no NUL)."""
        with pytest.raises(ValueError, match="plain file name"):
            write_atomic(tmp_path, name, b"x")

    def test_render_files_from_a_loaded_report(self, base: Certification, tmp_path: Path) -> None:
        """phase6 report re-renders the same files from report.json alone."""
        report = build_report(base)
        written = render_files(report, tmp_path)
        assert sorted(written) == ["badge.svg", "junit.xml", "report.html", "report.md"]
