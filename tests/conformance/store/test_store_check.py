"""`phase6 store check` (conformance/store/): fixtures, sample stores, report schema, vectors."""

from __future__ import annotations

import base64
import io
import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import orjson
import pytest
from paths import REPO

from conformance._schemas import schema_errors
from conformance.cli import main
from conformance.store import check_bytes, check_paths, check_store
from conformance.store._rules import CODES, S5_CLAUSES
from reference._records import Invalid, parse_record
from tools.oracle import is_blank, read_line, split_lines

FIXTURES = REPO / "tests" / "fixtures" / "stores"
MEMORY = REPO / "adam_os_data" / "memory"
SAMPLES = ("episodic.jsonl", "procedural.jsonl", "semantic.jsonl")
STORE_VECTORS = REPO / "vectors" / "store" / "store-check.json"
CHECK_SCHEMA = "store-check.schema.json"
VECTORS_SCHEMA = "store-vectors.schema.json"

#: fixture -> the (line, code) pairs it must produce, written by hand (make_fixtures.py docs).
EXPECTED: dict[str, list[tuple[int, str]]] = {
    "not-json.jsonl": [(2, "not-json"), (2, "spec006-invalid")],
    "not-object.jsonl": [(2, "not-object"), (2, "spec006-invalid")],
    "blank-line.jsonl": [(2, "blank-line")],
    "missing-final-newline.jsonl": [(2, "missing-final-newline")],
    "missing-field.jsonl": [(2, "missing-field")],
    "wrong-type.jsonl": [(2, "wrong-type")],
    "empty-memory-id.jsonl": [(2, "empty-memory-id")],
    "bad-type-value.jsonl": [(2, "bad-type-value")],
    "type-store-mismatch/episodic.jsonl": [(2, "type-store-mismatch")],
    "bad-source.jsonl": [(2, "bad-source")],
    "non-utc-timestamp.jsonl": [(2, "non-utc-timestamp")],
    "bad-timestamp.jsonl": [(2, "bad-timestamp")],
    "hash-mismatch.jsonl": [(2, "hash-mismatch")],
    "duplicate-memory-id.jsonl": [(3, "duplicate-memory-id")],
    "dangling-correction.jsonl": [(2, "dangling-correction")],
    "bad-correction-ref.jsonl": [(2, "bad-correction-ref")],
    "spec006-invalid.jsonl": [(2, "spec006-invalid")],
    "ts-utc-missing.jsonl": [(2, "ts-utc-missing")],
    "ts-utc-invalid.jsonl": [(2, "ts-utc-invalid")],
    "ts-utc-mismatch.jsonl": [(2, "ts-utc-mismatch")],
}


def pairs(report: Any) -> Counter[tuple[int, str]]:
    """The (line, code) multiset of a StoreReport."""
    return Counter((line.line, v.code) for line in report.lines for v in line.violations)


def run_main(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    status = main(["store", *argv], out=out)
    return status, out.getvalue()


def load_vectors() -> dict[str, Any]:
    document: dict[str, Any] = json.loads(STORE_VECTORS.read_text("utf-8"))
    return document


def content(spec: dict[str, Any]) -> bytes:
    """A store's exact bytes from a vector's `file` (the phase6-vectors/1 file forms)."""
    if "text" in spec:
        return str(spec["text"]).encode()
    if "lines" not in spec:
        return base64.b64decode(spec["base64"], validate=True)
    eol = str(spec.get("eol", "\n")).encode()
    lines = [
        base64.b64decode(item["base64"], validate=True) if isinstance(item, dict) else item.encode()
        for item in spec["lines"]
    ]
    body = eol.join(lines)
    return body + eol if spec.get("final_eol", True) and lines else body


VECTORS = load_vectors()["vectors"]


class TestFixtures:
    def test_one_fixture_per_code(self) -> None:
        """Every violation code has a deliberately broken fixture that shows it."""
        shown = {code for expected in EXPECTED.values() for _, code in expected}
        assert shown == set(CODES)

    @pytest.mark.parametrize("name", sorted(EXPECTED))
    def test_fixture_flagged_with_its_code(self, name: str) -> None:
        """Each fixture yields exactly its hand-listed (line, code) pairs, nothing else."""
        report = check_store(str(FIXTURES / name))
        assert pairs(report) == Counter(EXPECTED[name])

    @pytest.mark.parametrize("name", sorted(EXPECTED))
    def test_fixture_exits_1(self, name: str) -> None:
        """The CLI exits 1 on every broken fixture."""
        assert run_main("check", str(FIXTURES / name))[0] == 1

    def test_fixtures_up_to_date(self) -> None:
        """The committed fixtures are what make_fixtures.py writes."""
        script = FIXTURES / "make_fixtures.py"
        result = subprocess.run(
            [sys.executable, str(script), "--check"], capture_output=True, text=True, check=False
        )
        assert result.returncode == 0, result.stderr


class TestSampleStores:
    @pytest.mark.parametrize("name", SAMPLES)
    def test_sample_store_is_clean(self, name: str) -> None:
        """Each sample store has no violation and every line is a valid SPEC-006 candidate."""
        report = check_store(str(MEMORY / name))
        assert report.violations == 0
        assert len(report.lines) >= 40
        assert {line.spec006.verdict for line in report.lines} == {"valid"}

    def test_samples_are_a_few_hundred_records_with_corrections(self) -> None:
        """Together the samples hold a few hundred records, some of them corrections."""
        records = [
            orjson.loads(line) for n in SAMPLES for line in split_lines((MEMORY / n).read_bytes())
        ]
        assert 200 <= len(records) <= 1000
        corrections = [r for r in records if any(x.get("kind") == "corrects" for x in r["refs"])]
        assert len(corrections) >= 3

    def test_nox_style_invocation_exits_0(self) -> None:
        """`store check` over the three samples exits 0."""
        status, out = run_main("check", *(str(MEMORY / n) for n in SAMPLES))
        assert status == 0, out

    def test_ledger_matches_stores(self) -> None:
        """Every ledger receipt points at its record's bytes; every record has one receipt."""
        stores = {f"adam_os_data/memory/{n}": (MEMORY / n).read_bytes() for n in SAMPLES}
        seen: Counter[str] = Counter()
        for line in split_lines((MEMORY / "ledger.jsonl").read_bytes()):
            entry = orjson.loads(line)
            data = stores[entry["store_path"]]
            record = orjson.loads(data[entry["offset"] : entry["offset"] + entry["line_bytes"]])
            assert (record["memory_id"], record["hash"]) == (
                entry["memory_id"],
                entry["record_hash"],
            )
            seen[entry["store_path"]] += 1
        assert seen == {path: len(split_lines(data)) for path, data in stores.items()}

    def test_generator_check_passes(self) -> None:
        """tools/samples.py --check finds the committed samples up to date."""
        result = subprocess.run(
            [sys.executable, "-m", "tools.samples", "--check"],
            capture_output=True,
            text=True,
            check=False,
        )
        assert result.returncode == 0, result.stderr


class TestJsonReport:
    def test_codes_in_schema_match_table(self) -> None:
        """The report and vector schemas enumerate exactly the code table."""
        for name in (CHECK_SCHEMA, VECTORS_SCHEMA):
            schema = json.loads((REPO / "specs" / "schemas" / name).read_text("utf-8"))
            assert schema["$defs"]["code"]["enum"] == list(CODES)

    def test_every_clause_is_known(self) -> None:
        """Each code's clause is an S5 ID of the table or an S6 ID of specs/clauses.toml."""
        s6 = (REPO / "specs" / "clauses.toml").read_text("utf-8")
        for code in CODES.values():
            assert code.clause in S5_CLAUSES or f'id = "{code.clause}"' in s6

    @pytest.mark.parametrize(
        "paths",
        [
            [str(MEMORY / n) for n in SAMPLES],
            [str(FIXTURES / n) for n in sorted(EXPECTED)],
            [str(FIXTURES / "does-not-exist.jsonl"), str(FIXTURES)],
        ],
        ids=["samples", "fixtures", "unreadable"],
    )
    def test_json_output_validates(self, paths: list[str]) -> None:
        """--json output validates against specs/schemas/store-check.schema.json."""
        status, out = run_main("check", "--json", *paths)
        report = json.loads(out)
        assert schema_errors(CHECK_SCHEMA, report) == []
        assert report["ok"] is (status == 0)

    def test_every_line_has_a_verdict(self) -> None:
        """The JSON report lists every line with its SPEC-006 verdict, not only bad lines."""
        _, out = run_main("check", "--json", str(FIXTURES / "blank-line.jsonl"))
        lines = json.loads(out)["stores"][0]["lines"]
        assert [(x["line"], x["spec006"]["verdict"]) for x in lines] == [
            (1, "valid"),
            (2, "skipped"),
            (3, "valid"),
        ]


class TestStoreVectors:
    def test_file_validates(self) -> None:
        """vectors/store/store-check.json validates against its schema, ids are unique."""
        assert schema_errors(VECTORS_SCHEMA, load_vectors()) == []
        ids = [v["id"] for v in VECTORS]
        assert len(ids) == len(set(ids)) >= 30

    def test_every_code_covered(self) -> None:
        """Every violation code is expected by at least one vector."""
        shown = {e["code"] for v in VECTORS for e in v["expect"]["violations"]}
        assert shown == set(CODES)

    @pytest.mark.parametrize("vector", VECTORS, ids=[v["id"] for v in VECTORS])
    def test_vector(self, vector: dict[str, Any]) -> None:
        """The checker reports exactly the vector's (line, code) pairs and SPEC-006 verdicts."""
        report = check_bytes(content(vector["file"]), vector["store"])
        expected = Counter((e["line"], e["code"]) for e in vector["expect"]["violations"])
        assert pairs(report) == expected
        verdicts = [
            {"line": x.line, "verdict": x.spec006.verdict}
            | ({"rule": x.spec006.rule} if x.spec006.verdict != "valid" else {})
            for x in report.lines
        ]
        assert verdicts == vector["expect"]["spec006"]

    @pytest.mark.parametrize("vector", VECTORS, ids=[v["id"] for v in VECTORS])
    def test_spec006_verdicts_agree_with_readers(self, vector: dict[str, Any]) -> None:
        """The oracle and the reference reader keep or drop each line as the vector says."""
        for expected, raw in zip(
            vector["expect"]["spec006"], split_lines(content(vector["file"])), strict=True
        ):
            if is_blank(raw):
                assert expected["verdict"] == "skipped"
                continue
            valid = expected["verdict"] == "valid"
            assert ("invalid" not in read_line(raw)) is valid
            assert (not isinstance(parse_record(raw), Invalid)) is valid


class TestExitCodes:
    def test_clean_is_0(self) -> None:
        """A clean store exits 0."""
        assert run_main("check", str(MEMORY / "semantic.jsonl"))[0] == 0

    def test_violation_is_1(self) -> None:
        """Any violation exits 1."""
        assert run_main("check", str(FIXTURES / "hash-mismatch.jsonl"))[0] == 1

    @pytest.mark.parametrize(
        "argv",
        [
            [],
            ["check"],
            ["lint", "x.jsonl"],
            ["check", "--ignore", "no-such-code", "x.jsonl"],
            ["check", str(REPO / "no-such-store.jsonl")],
            ["check", str(FIXTURES)],
        ],
        ids=["no-command", "no-path", "bad-command", "bad-ignore", "missing", "directory"],
    )
    def test_usage_errors_are_2(self, argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
        """Usage errors and unreadable paths exit 2."""
        assert run_main(*argv)[0] == 2
        capsys.readouterr()  # argparse's usage text

    def test_unreadable_path_does_not_stop_the_others(self) -> None:
        """A missing path exits 2 but the other stores are still checked and reported."""
        report = check_paths([str(REPO / "nope.jsonl"), str(FIXTURES / "hash-mismatch.jsonl")])
        assert report.exit_code == 2
        assert report.stores[0].error is not None
        assert report.stores[1].violations == 1

    def test_ignore_suppresses_a_code(self) -> None:
        """--ignore CODE leaves that code out; a store with only that code then exits 0."""
        name = str(FIXTURES / "ts-utc-missing.jsonl")
        assert run_main("check", "--ignore", "ts-utc-missing", name)[0] == 0

    def test_module_entry_point(self) -> None:
        """`python -m conformance store check` runs the same CLI in a fresh process."""
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "conformance",
                "store",
                "check",
                str(FIXTURES / "bad-source.jsonl"),
            ],
            capture_output=True,
            text=True,
            cwd=REPO,
            check=False,
        )
        assert result.returncode == 1
        assert "bad-source" in result.stdout

    def test_codes_command(self) -> None:
        """`store codes --json` prints the whole table."""
        status, out = run_main("codes", "--json")
        assert status == 0
        assert list(json.loads(out)) == list(CODES)


class TestReadOnly:
    @pytest.mark.parametrize(
        "path",
        [MEMORY / "episodic.jsonl", FIXTURES / "not-json.jsonl", FIXTURES / "missing-field.jsonl"],
        ids=["sample", "not-json", "missing-field"],
    )
    def test_store_unchanged(self, path: Path, tmp_path: Path) -> None:
        """Checking a store leaves its bytes, size, mode and mtime exactly as they were."""
        copy = tmp_path / path.name
        copy.write_bytes(path.read_bytes())
        os.utime(copy, ns=(1_700_000_000_000_000_000, 1_700_000_000_000_000_000))
        before = copy.read_bytes(), copy.stat()
        run_main("check", "--json", str(copy))
        run_main("check", str(copy))
        after = copy.read_bytes(), copy.stat()
        assert after[0] == before[0]
        assert (after[1].st_size, after[1].st_mode, after[1].st_mtime_ns) == (
            before[1].st_size,
            before[1].st_mode,
            before[1].st_mtime_ns,
        )

    def test_human_table_lists_each_violation(self) -> None:
        """The human report has one table row per violation, with line, code and field."""
        status, out = run_main("check", str(FIXTURES / "missing-field.jsonl"))
        assert status == 1
        rows = [r.split() for r in out.splitlines() if r.startswith("  2 ")]
        assert [r[:3] for r in rows] == [["2", "missing-field", "source"]]
