"""The corpus loader: schema validation, IDs, file naming, materialization and the digest."""

from __future__ import annotations

import base64
import json
import os
from pathlib import Path
from typing import Any

import pytest
from harness_corpus import corpus_documents, write_corpus

from conformance import (
    BytesFile,
    CorpusError,
    DirectorySpec,
    DuplicateVectorIdError,
    LinesFile,
    TextFile,
    VectorSchemaError,
    load_corpus,
    materialize,
    stamp_tree,
)
from conformance._kit import repo_root
from conformance._schemas import CACHE_ENV, VECTOR_FILE_SCHEMA, schema_errors


def _write(directory: Path, documents: dict[str, Any]) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    for name, document in documents.items():
        (directory / name).write_text(json.dumps(document), "utf-8")
    return directory


@pytest.fixture
def vectors_dir(tmp_path: Path) -> Path:
    """The synthetic corpus."""
    return write_corpus(tmp_path)[0]


class TestLoading:
    def test_loads_files_and_vectors_sorted_by_id(self, vectors_dir: Path) -> None:
        """Vectors come out sorted by ID, each knowing its file and area."""
        corpus = load_corpus(vectors_dir)
        assert [v.id for v in corpus] == [
            "alpha-one",
            "alpha-pinned",
            "beta-0-trigger",
            "beta-error",
        ]
        assert [f.path for f in corpus.files] == ["alpha.json", "beta-errors.json"]
        assert corpus.get("beta-error").area == "beta"
        assert corpus.get("beta-error").file == "beta-errors.json"
        assert corpus.areas == ("alpha", "beta")

    def test_loads_recursively(self, tmp_path: Path) -> None:
        """Files in subdirectories are part of the corpus."""
        documents = corpus_documents()
        root = _write(tmp_path / "v", {"alpha.json": documents["alpha.json"]})
        _write(root / "sub", {"beta-errors.json": documents["beta-errors.json"]})
        corpus = load_corpus(root)
        assert len(corpus) == 4
        assert "sub/beta-errors.json" in [f.path for f in corpus.files]

    def test_request_and_expect_are_fresh_copies(self, vectors_dir: Path) -> None:
        """Mutating a returned request cannot change the vector."""
        vector = load_corpus(vectors_dir).get("alpha-one")
        vector.request["query"] = "changed"
        assert vector.request["query"] == "alpha one"
        assert vector.expects_error is False
        assert load_corpus(vectors_dir).get("beta-error").expects_error is True

    def test_pinned_and_interpretations_survive(self, vectors_dir: Path) -> None:
        """Level, clauses and interpretations are kept as given."""
        vector = load_corpus(vectors_dir).get("alpha-pinned")
        assert vector.level == "pinned"
        assert vector.interpretations == ("INT-01",)
        assert vector.clauses == ("S6-HASH-01",)

    def test_to_json_round_trips(self, vectors_dir: Path) -> None:
        """A vector serializes back to its file form (for `vectors show`)."""
        document = json.loads((vectors_dir / "beta-errors.json").read_text("utf-8"))
        vector = load_corpus(vectors_dir).get("beta-0-trigger")
        assert vector.to_json() == document["vectors"][1]


class TestValidation:
    @pytest.mark.parametrize(
        ("mutate", "pointer"),
        [
            (lambda d: d.update(format="phase6-vectors/2"), "/format"),
            (lambda d: d.update(extra=1), ""),
            (lambda d: d["vectors"][0].update(id="Bad_ID"), "/vectors/0/id"),
            (lambda d: d["vectors"][0].update(level="optional"), "/vectors/0/level"),
            (lambda d: d["vectors"][0].update(clauses=[]), "/vectors/0/clauses"),
            (lambda d: d["vectors"][0].update(surprise=True), "/vectors/0"),
            (lambda d: d["vectors"][1].update(interpretations=[]), "/vectors/1"),
            (lambda d: d["vectors"][0]["expect"].update(error={"code": "x", "path": ""}), None),
            (lambda d: d["vectors"][0]["expect"].pop("receipt"), None),
            (
                lambda d: d["vectors"][0]["input"]["files"].update({"../escape": {"text": ""}}),
                None,
            ),
            (lambda d: d["vectors"][0]["input"]["files"].update({"/abs": {"text": ""}}), None),
            (
                lambda d: d["vectors"][0]["input"]["files"].update({"x": {"base64": "###"}}),
                None,
            ),
            (
                lambda d: d["vectors"][0]["input"]["files"].update(
                    {"x": {"lines": [], "eol": "\r"}}
                ),
                None,
            ),
        ],
    )
    def test_schema_rejects(self, tmp_path: Path, mutate: Any, pointer: str | None) -> None:
        """A file breaking the vector-file schema is refused with a pointer to the problem."""
        documents = corpus_documents()
        mutate(documents["alpha.json"])
        root = _write(tmp_path / "v", documents)
        with pytest.raises(VectorSchemaError) as info:
            load_corpus(root)
        assert info.value.path == "alpha.json"
        if pointer is not None:
            assert (info.value.pointer or "").startswith(pointer)

    def test_duplicate_ids_are_refused(self, tmp_path: Path) -> None:
        """IDs are unique across the whole corpus."""
        documents = corpus_documents()
        documents["beta-errors.json"]["vectors"][0]["id"] = "alpha-one"
        root = _write(tmp_path / "v", documents)
        with pytest.raises(DuplicateVectorIdError, match="alpha-one"):
            load_corpus(root)

    def test_file_name_must_match_area(self, tmp_path: Path) -> None:
        """A file is named <area>.json or <area>-<family>.json."""
        documents = corpus_documents()
        root = _write(tmp_path / "v", {"gamma.json": documents["alpha.json"]})
        with pytest.raises(CorpusError, match="file name"):
            load_corpus(root)

    def test_invalid_json_is_a_corpus_error(self, tmp_path: Path) -> None:
        """A file that is not JSON is reported with its name."""
        root = tmp_path / "v"
        root.mkdir()
        (root / "alpha.json").write_text("{not json", "utf-8")
        with pytest.raises(CorpusError, match=r"alpha\.json"):
            load_corpus(root)

    def test_missing_directory(self, tmp_path: Path) -> None:
        """A corpus directory that does not exist is a corpus error."""
        with pytest.raises(CorpusError, match="no vector directory"):
            load_corpus(tmp_path / "nowhere")

    def test_lone_surrogate_in_a_line_is_refused(self, tmp_path: Path) -> None:
        """A line that cannot be written as UTF-8 is a load error, not a crash mid-run."""
        documents = corpus_documents()
        text = json.dumps(documents["alpha.json"]).replace("hello", "\\ud800")
        root = tmp_path / "v"
        root.mkdir()
        (root / "alpha.json").write_text(text, "utf-8")
        with pytest.raises(VectorSchemaError, match="base64"):
            load_corpus(root)

    def test_synthetic_corpus_is_schema_valid(self) -> None:
        """The fixture itself validates (so the other tests test the harness, not the data)."""
        for document in corpus_documents(copies=2).values():
            assert schema_errors(VECTOR_FILE_SCHEMA, document) == []

    def test_real_corpus_loads_when_present(self) -> None:
        """The repository's own corpus, once it has files, loads and validates."""
        root = repo_root()
        if root is None or not any((root / "vectors").rglob("*.json")):
            pytest.skip("no vector files in this checkout yet")
        corpus = load_corpus(root / "vectors")
        assert len(corpus) > 0


class TestMaterialize:
    def test_bytes_are_exactly_as_the_format_says(self, vectors_dir: Path, tmp_path: Path) -> None:
        """Lines join with eol, base64 lines are raw bytes, text and base64 files are exact."""
        vector = load_corpus(vectors_dir).get("beta-0-trigger")
        root = tmp_path / "root"
        materialize(vector, root)
        store = (root / "stores" / "s.jsonl").read_bytes()
        assert store == b'{"memory_id":"m1","text":"a"}\r\n\xff\r\n{}'
        assert (root / "snap" / "trust.json").read_bytes() == (
            b'{"format": "phase6-trust/1", "entries": []}'
        )
        assert (root / "raw.bin").read_bytes() == b"\x00\x01\x02"
        assert (root / "empty-dir").is_dir()
        assert list((root / "empty-dir").iterdir()) == []

    @pytest.mark.parametrize(
        ("spec", "content"),
        [
            (LinesFile(("a", "b")), b"a\nb\n"),
            (LinesFile(("a", "b"), final_eol=False), b"a\nb"),
            (LinesFile(("a", b"\xc3\x28"), eol="\r\n"), b"a\r\n\xc3\x28\r\n"),
            (LinesFile(()), b""),
            (LinesFile(("",)), b"\n"),
            (TextFile("é"), "é".encode()),
            (BytesFile(base64.b64decode("/w==")), b"\xff"),
            (DirectorySpec(), None),
        ],
    )
    def test_file_spec_content(self, spec: Any, content: bytes | None) -> None:
        """Each file spec yields the documented bytes."""
        assert spec.content() == content

    def test_snapshot_sees_every_change(self, vectors_dir: Path, tmp_path: Path) -> None:
        """Content, mode, mtime, new and removed entries all change the snapshot."""
        vector = load_corpus(vectors_dir).get("beta-0-trigger")
        root = tmp_path / "root"
        materialize(vector, root)
        before = stamp_tree(root)
        assert stamp_tree(root) == before
        store = root / "stores" / "s.jsonl"
        stat = store.stat()
        os.utime(store, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
        assert stamp_tree(root)["stores/s.jsonl"] != before["stores/s.jsonl"]
        store.chmod(0o600)
        assert stamp_tree(root)["stores/s.jsonl"].mode == 0o600
        (root / "new").write_text("x")
        assert "new" in stamp_tree(root)


class TestDigest:
    def test_digest_is_stable_and_format_independent(self, tmp_path: Path) -> None:
        """Reformatting files keeps the digest; changing a value changes it."""
        documents = corpus_documents()
        first = load_corpus(_write(tmp_path / "a", documents)).digest
        pretty = tmp_path / "b"
        pretty.mkdir()
        for name, document in documents.items():
            (pretty / name).write_text(json.dumps(document, indent=4, sort_keys=True), "utf-8")
        assert load_corpus(pretty).digest == first
        assert first.startswith("sha256:")
        documents["alpha.json"]["vectors"][0]["description"] = "changed"
        assert load_corpus(_write(tmp_path / "c", documents)).digest != first


class TestForeignFiles:
    def test_store_vectors_are_passed_over_visibly(self, vectors_dir: Path) -> None:
        """A known foreign format under vectors/ is listed in Corpus.foreign, not loaded."""
        sub = vectors_dir / "store"
        sub.mkdir()
        (sub / "store-check.json").write_text(
            json.dumps({"format": "phase6-store-vectors/1", "vectors": []})
        )
        corpus = load_corpus(vectors_dir)
        assert corpus.foreign == (("store/store-check.json", "phase6-store-vectors/1"),)
        assert len(corpus) == 4

    def test_unknown_format_is_still_an_error(self, vectors_dir: Path) -> None:
        """Any other format is refused (a typo must not hide a file)."""
        (vectors_dir / "alpha-x.json").write_text(json.dumps({"format": "phase6-vector/1"}))
        with pytest.raises(VectorSchemaError):
            load_corpus(vectors_dir)


@pytest.fixture
def validations(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """A cache of its own under ``tmp_path/cache``; the schema validations the loader runs, by
    vector file area, appended as they happen."""
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))
    seen: list[str] = []

    def counted(name: str, instance: Any, *, limit: int = 5) -> list[tuple[str, str]]:
        seen.append(instance.get("area", "?") if isinstance(instance, dict) else "?")
        return schema_errors(name, instance, limit=limit)

    monkeypatch.setattr("conformance.corpus._vectors.schema_errors", counted)
    return seen


class TestValidationCache:
    def test_the_same_bytes_are_validated_once(
        self, vectors_dir: Path, validations: list[str]
    ) -> None:
        """A file whose exact bytes passed the schema before is not validated again."""
        first = load_corpus(vectors_dir)
        assert sorted(validations) == ["alpha", "beta"]
        again = load_corpus(vectors_dir)
        assert sorted(validations) == ["alpha", "beta"]
        assert again.digest == first.digest

    def test_a_changed_byte_is_validated_again(
        self, vectors_dir: Path, validations: list[str]
    ) -> None:
        """One byte more (a space: the same document) is another file: validated again."""
        load_corpus(vectors_dir)
        path = vectors_dir / "alpha.json"
        path.write_bytes(path.read_bytes() + b" ")
        load_corpus(vectors_dir)
        assert sorted(validations) == ["alpha", "alpha", "beta"]

    def test_a_valid_file_made_invalid_is_refused(
        self, vectors_dir: Path, validations: list[str]
    ) -> None:
        """A file that passed, then changed to break the schema, is refused like any other."""
        load_corpus(vectors_dir)
        document = json.loads((vectors_dir / "alpha.json").read_text("utf-8"))
        document["vectors"][0]["level"] = "optional"
        (vectors_dir / "alpha.json").write_text(json.dumps(document, indent=1), "utf-8")
        for _ in range(2):
            with pytest.raises(VectorSchemaError) as info:
                load_corpus(vectors_dir)
            assert (info.value.pointer or "").startswith("/vectors/0/level")
        assert validations.count("alpha") == 3

    def test_a_failing_file_is_never_remembered(
        self, tmp_path: Path, validations: list[str]
    ) -> None:
        """Bytes that failed the schema leave nothing in the cache: refused every time."""
        documents = corpus_documents()
        documents["alpha.json"]["extra"] = 1
        root = _write(tmp_path / "v", {"alpha.json": documents["alpha.json"]})
        for _ in range(2):
            with pytest.raises(VectorSchemaError):
                load_corpus(root)
        assert validations == ["alpha", "alpha"]
        assert not (tmp_path / "cache").exists()

    def test_other_schemas_validate_again(
        self, vectors_dir: Path, validations: list[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """What passed under other schemas (or other library versions) is validated again."""
        load_corpus(vectors_dir)
        monkeypatch.setattr("conformance._schemas._schemas_digest", lambda: "other schemas")
        load_corpus(vectors_dir)
        assert sorted(validations) == ["alpha", "alpha", "beta", "beta"]

    def test_cached_false_validates_every_file(
        self, vectors_dir: Path, validations: list[str]
    ) -> None:
        """``cached=False`` (what ``vectors check`` asks) validates even remembered bytes."""
        load_corpus(vectors_dir)
        load_corpus(vectors_dir, cached=False)
        assert sorted(validations) == ["alpha", "alpha", "beta", "beta"]

    @pytest.mark.parametrize("where", ["", "a-file", "relative"])
    def test_without_a_usable_cache_everything_is_validated(
        self,
        where: str,
        vectors_dir: Path,
        validations: list[str],
        tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch,
    ) -> None:
        """No cache (set empty), one that cannot be written (a file stands in its place) or a
        relative path: every load validates every file, and the load succeeds."""
        if where == "a-file":
            (tmp_path / "a-file").write_text("not a directory")
            monkeypatch.setenv(CACHE_ENV, str(tmp_path / "a-file"))
        else:
            monkeypatch.setenv(CACHE_ENV, where)
        monkeypatch.chdir(tmp_path)
        for _ in range(2):
            assert len(load_corpus(vectors_dir)) == 4
        assert sorted(validations) == ["alpha", "alpha", "beta", "beta"]
        assert not (tmp_path / "relative").exists()

    def test_the_phase2_corpus_is_remembered_the_same_way(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """The Phase 2 loader validates bytes it has not seen pass, once, and refuses a
        remembered file changed to break its schema."""
        from conformance.phase2 import _corpus

        monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))
        calls: list[str] = []

        def counted(name: str, instance: Any, *, limit: int = 5) -> list[tuple[str, str]]:
            calls.append(name)
            return schema_errors(name, instance, limit=limit)

        monkeypatch.setattr(_corpus, "schema_errors", counted)
        root = tmp_path / "p2"
        root.mkdir()
        source = _corpus.phase2_vectors_dir() / "budget-hand.json"
        (root / "budget-hand.json").write_bytes(source.read_bytes())
        first = _corpus.load_phase2_corpus(root)
        assert _corpus.load_phase2_corpus(root).digest == first.digest
        assert calls == [_corpus.VECTOR_FILE_SCHEMA]
        document = json.loads(source.read_text("utf-8"))
        document["vectors"][0]["level"] = "optional"
        (root / "budget-hand.json").write_text(json.dumps(document), "utf-8")
        with pytest.raises(VectorSchemaError):
            _corpus.load_phase2_corpus(root)
        assert len(calls) == 2

    def test_a_marker_others_can_write_is_not_believed(
        self, vectors_dir: Path, validations: list[str], tmp_path: Path
    ) -> None:
        """A cache directory other users can write (where anyone could plant a marker) is not
        believed: every file is validated again."""
        load_corpus(vectors_dir)
        (tmp_path / "cache" / "validated").chmod(0o777)
        load_corpus(vectors_dir)
        assert sorted(validations) == ["alpha", "alpha", "beta", "beta"]
