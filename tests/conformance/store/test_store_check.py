"""`phase6 store check` (conformance/store/): fixtures, sample stores, levels, report, vectors."""

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
from conformance.store import (
    CODES,
    LEVELS,
    PATH_ERRORS,
    S5_CLAUSES,
    StoreReport,
    check_bytes,
    check_paths,
    check_store,
    render_json,
)
from reference._records import Invalid, parse_record
from tools.oracle import is_blank, read_line, split_lines

FIXTURES = REPO / "tests" / "fixtures" / "stores"
MEMORY = REPO / "adam_os_data" / "memory"
SAMPLES = ("episodic.jsonl", "procedural.jsonl", "semantic.jsonl")
STORE_VECTORS = REPO / "vectors" / "store" / "store-check.json"
CHECK_SCHEMA = "store-check.schema.json"
VECTORS_SCHEMA = "store-vectors.schema.json"

#: fixture -> the (line, code) findings it must produce (violations and notices), by hand.
EXPECTED: dict[str, list[tuple[int, str]]] = {
    "not-json.jsonl": [(2, "not-json"), (2, "spec006-invalid")],
    "not-object.jsonl": [(2, "not-object"), (2, "spec006-invalid")],
    "blank-line.jsonl": [(2, "blank-line")],
    "missing-final-newline.jsonl": [(2, "missing-final-newline")],
    "line-too-long.jsonl": [(2, "line-too-long")],
    "missing-field.jsonl": [(2, "missing-field")],
    "wrong-type.jsonl": [(2, "wrong-type")],
    "empty-memory-id.jsonl": [(2, "empty-memory-id")],
    "bad-type-value.jsonl": [(2, "bad-type-value")],
    "type-store-mismatch/episodic.jsonl": [(2, "type-store-mismatch")],
    "bad-source.jsonl": [(2, "bad-source")],
    "non-utc-timestamp.jsonl": [(2, "non-utc-timestamp")],
    "bad-timestamp.jsonl": [(2, "bad-timestamp")],
    "hash-mismatch.jsonl": [(2, "hash-mismatch")],
    "hash-alternative-form.jsonl": [(2, "hash-alternative-form")],
    "duplicate-memory-id.jsonl": [(3, "duplicate-memory-id")],
    "dangling-correction.jsonl": [(2, "dangling-correction")],
    "bad-correction-ref.jsonl": [(2, "bad-correction-ref")],
    "spec006-invalid.jsonl": [(2, "spec006-invalid")],
    "ts-utc-missing.jsonl": [(2, "ts-utc-missing")],
    "ts-utc-invalid.jsonl": [(2, "ts-utc-invalid")],
    "ts-utc-mismatch.jsonl": [(2, "ts-utc-mismatch")],
}
#: Fixtures checked with options other than the defaults.
OPTIONS: dict[str, dict[str, Any]] = {"line-too-long.jsonl": {"max_line_bytes": 1024}}


def pairs(report: StoreReport, *, notices: bool = False) -> Counter[tuple[int, str]]:
    """The (line, code) multiset of a StoreReport's violations (or notices)."""
    return Counter(
        (line.line, f.code)
        for line in report.lines
        for f in (line.notices if notices else line.violations)
    )


def findings(report: StoreReport) -> Counter[tuple[int, str]]:
    """Violations and notices together."""
    return pairs(report) + pairs(report, notices=True)


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


def expected_pairs(entries: list[dict[str, Any]]) -> Counter[tuple[int, str]]:
    return Counter((e["line"], e["code"]) for e in entries)


VECTORS = load_vectors()["vectors"]


class TestCodeTable:
    def test_every_code_has_a_known_level(self) -> None:
        """Each code carries one of the three levels."""
        assert {code.level for code in CODES.values()} <= set(LEVELS)

    @pytest.mark.parametrize(
        ("code", "level"),
        [
            ("hash-mismatch", "required"),
            ("hash-alternative-form", "pinned"),
            ("ts-utc-missing", "info"),
            ("ts-utc-mismatch", "info"),
            ("ts-utc-invalid", "required"),
            ("spec006-invalid", "required"),
        ],
    )
    def test_levels_of_the_issue_17_codes(self, code: str, level: str) -> None:
        """A tampered hash is a violation, another canonical form a pinned notice, a missing
        or differing ts_utc (breaking neither spec) an info notice."""
        assert CODES[code].level == level

    def test_every_clause_is_known(self) -> None:
        """Each code's clause is an S5 ID of the table or an S6 ID of specs/clauses.toml."""
        s6 = (REPO / "specs" / "clauses.toml").read_text("utf-8")
        for code in CODES.values():
            assert code.clause in S5_CLAUSES or f'id = "{code.clause}"' in s6

    def test_codes_command(self) -> None:
        """`store codes --json` prints the whole table with each code's level."""
        status, out = run_main("codes", "--json")
        assert status == 0
        table = json.loads(out)
        assert list(table) == list(CODES)
        assert {name: row["level"] for name, row in table.items()} == {
            c.code: c.level for c in CODES.values()
        }

    def test_codes_text(self) -> None:
        """`store codes` prints one row per code, level included."""
        status, out = run_main("codes")
        assert status == 0
        rows = {line.split()[0]: line.split()[2] for line in out.splitlines()[2:]}
        assert rows == {c.code: c.level for c in CODES.values()}


class TestFixtures:
    def test_one_fixture_per_code(self) -> None:
        """Every finding code has a deliberately made fixture that shows it."""
        shown = {code for expected in EXPECTED.values() for _, code in expected}
        assert shown == set(CODES)

    @pytest.mark.parametrize("name", sorted(EXPECTED))
    def test_fixture_flagged_with_its_code(self, name: str) -> None:
        """Each fixture yields exactly its hand-listed (line, code) findings, nothing else."""
        report = check_store(str(FIXTURES / name), **OPTIONS.get(name, {}))
        assert findings(report) == Counter(EXPECTED[name])

    @pytest.mark.parametrize("name", sorted(EXPECTED))
    def test_fixture_exit_status_follows_the_level(self, name: str) -> None:
        """The CLI exits 1 on a fixture with a required code, 0 on one with only notices."""
        extra = [f"--max-line-bytes={v}" for v in OPTIONS.get(name, {}).values()]
        required = any(CODES[code].level == "required" for _, code in EXPECTED[name])
        assert run_main("check", *extra, str(FIXTURES / name))[0] == (1 if required else 0)

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
        """Each sample store has no violation, no notice, every line a valid SPEC-006
        candidate, and every hash in the pinned form."""
        report = check_store(str(MEMORY / name))
        assert report.violations == 0
        assert report.summary.notices == 0
        assert len(report.lines) >= 40
        assert {line.spec006.verdict for line in report.lines} == {"valid"}
        assert report.summary.consistent_forms[0] == "jcs"

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
        """The report and vector schemas enumerate exactly the code table and the levels."""
        for name in (CHECK_SCHEMA, VECTORS_SCHEMA):
            schema = json.loads((REPO / "specs" / "schemas" / name).read_text("utf-8"))
            assert schema["$defs"]["code"]["enum"] == list(CODES)
        schema = json.loads((REPO / "specs" / "schemas" / CHECK_SCHEMA).read_text("utf-8"))
        assert schema["$defs"]["level"]["enum"] == list(LEVELS)
        error = schema["$defs"]["store"]["properties"]["error"]["oneOf"][1]
        assert error["properties"]["code"]["enum"] == list(PATH_ERRORS)

    @pytest.mark.parametrize(
        ("paths", "flags"),
        [
            ([str(MEMORY / n) for n in SAMPLES], []),
            ([str(FIXTURES / n) for n in sorted(EXPECTED)], []),
            ([str(FIXTURES / n) for n in sorted(EXPECTED)], ["--strict", "--all"]),
            ([str(FIXTURES / "does-not-exist.jsonl"), str(FIXTURES), os.devnull], []),
        ],
        ids=["samples", "fixtures", "fixtures-strict", "unreadable"],
    )
    def test_json_output_validates(self, paths: list[str], flags: list[str]) -> None:
        """--json output validates against specs/schemas/store-check.schema.json."""
        status, out = run_main("check", "--json", *flags, *paths)
        report = json.loads(out)
        assert schema_errors(CHECK_SCHEMA, report) == []
        assert report["ok"] is (status == 0)

    def test_streamed_json_is_the_in_memory_report(self) -> None:
        """What the CLI streams equals CheckReport.to_json() of the same run."""
        paths = [str(FIXTURES / n) for n in sorted(EXPECTED)] + [str(FIXTURES / "nope.jsonl")]
        _, out = run_main("check", "--json", *paths)
        report = check_paths(paths)
        assert json.loads(out) == report.to_json() == json.loads(render_json(report))

    def test_every_line_has_a_verdict(self) -> None:
        """The JSON report lists every line with its SPEC-006 verdict, not only bad lines."""
        _, out = run_main("check", "--json", str(FIXTURES / "blank-line.jsonl"))
        lines = json.loads(out)["stores"][0]["lines"]
        assert [(x["line"], x["spec006"]["verdict"]) for x in lines] == [
            (1, "valid"),
            (2, "skipped"),
            (3, "valid"),
        ]

    def test_info_notices_summarized_once_per_store(self) -> None:
        """An info notice appears once in the store's notices (count, lines), not per line."""
        _, out = run_main("check", "--json", str(FIXTURES / "ts-utc-missing.jsonl"))
        store = json.loads(out)["stores"][0]
        assert all(line["notices"] == [] for line in store["lines"])
        assert [(n["code"], n["level"], n["count"], n["lines"]) for n in store["notices"]] == [
            ("ts-utc-missing", "info", 1, [2])
        ]
        assert store["summary"]["violations"] == 0

    def test_pinned_notices_listed_per_line(self) -> None:
        """A pinned notice is on its line (it names a record) and in the store's notices."""
        _, out = run_main("check", "--json", str(FIXTURES / "hash-alternative-form.jsonl"))
        store = json.loads(out)["stores"][0]
        assert [n["code"] for n in store["lines"][1]["notices"]] == ["hash-alternative-form"]
        assert store["notices"][0]["interpretations"] == ["INT-47"]
        assert store["summary"]["hash_forms"]["consistent"] == ["python-json", "python-json-ascii"]


class TestStoreVectors:
    def test_file_validates(self) -> None:
        """vectors/store/store-check.json validates against its schema, ids are unique."""
        assert schema_errors(VECTORS_SCHEMA, load_vectors()) == []
        ids = [v["id"] for v in VECTORS]
        assert len(ids) == len(set(ids)) >= 30

    def test_every_code_covered(self) -> None:
        """Every code is expected by at least one vector, except line-too-long (a limit of
        this checker, not a rule of either spec: tested on fixtures)."""
        shown = {
            e["code"]
            for v in VECTORS
            for e in v["expect"]["violations"] + v["expect"].get("notices", [])
        }
        assert shown == set(CODES) - {"line-too-long"}

    def test_levels_where_expected(self) -> None:
        """Vectors list required codes under violations and the others under notices."""
        for vector in VECTORS:
            assert {CODES[e["code"]].level for e in vector["expect"]["violations"]} <= {"required"}
            notices = vector["expect"].get("notices", [])
            assert {CODES[e["code"]].level for e in notices} <= {"pinned", "info"}

    @pytest.mark.parametrize("vector", VECTORS, ids=[v["id"] for v in VECTORS])
    def test_vector(self, vector: dict[str, Any]) -> None:
        """The checker reports exactly the vector's violations, notices and SPEC-006 verdicts."""
        report = check_bytes(content(vector["file"]), vector["store"])
        assert pairs(report) == expected_pairs(vector["expect"]["violations"])
        assert pairs(report, notices=True) == expected_pairs(vector["expect"].get("notices", []))
        verdicts = [
            {"line": x.line, "verdict": x.spec006.verdict}
            | ({"rule": x.spec006.rule} if x.spec006.verdict != "valid" else {})
            for x in report.lines
        ]
        assert verdicts == vector["expect"]["spec006"]

    @pytest.mark.parametrize("vector", VECTORS, ids=[v["id"] for v in VECTORS])
    def test_vector_strict(self, vector: dict[str, Any]) -> None:
        """Under --strict the pinned notices are violations; info notices stay notices."""
        report = check_bytes(content(vector["file"]), vector["store"], strict=True)
        notices = vector["expect"].get("notices", [])
        pinned = [e for e in notices if CODES[e["code"]].level == "pinned"]
        info = [e for e in notices if CODES[e["code"]].level == "info"]
        assert pairs(report) == expected_pairs(vector["expect"]["violations"] + pinned)
        assert pairs(report, notices=True) == expected_pairs(info)

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
        ("name", "plain", "strict"),
        [
            ("ts-utc-missing.jsonl", 0, 0),
            ("ts-utc-mismatch.jsonl", 0, 0),
            ("hash-alternative-form.jsonl", 0, 1),
        ],
    )
    def test_notices_and_strict(self, name: str, plain: int, strict: int) -> None:
        """Notices exit 0; --strict fails pinned notices and never info ones."""
        assert run_main("check", str(FIXTURES / name))[0] == plain
        assert run_main("check", "--strict", str(FIXTURES / name))[0] == strict

    @pytest.mark.parametrize(
        "argv",
        [
            [],
            ["check"],
            ["lint", "x.jsonl"],
            ["check", "--ignore", "no-such-code", "x.jsonl"],
            ["check", "--max-line-bytes", "0", "x.jsonl"],
            ["check", str(REPO / "no-such-store.jsonl")],
            ["check", str(FIXTURES)],
        ],
        ids=["no-command", "no-path", "bad-command", "bad-ignore", "bad-limit", "missing", "dir"],
    )
    def test_usage_errors_are_2(self, argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
        """Usage errors and paths that cannot be checked exit 2."""
        assert run_main(*argv)[0] == 2
        capsys.readouterr()  # argparse's usage text

    def test_unreadable_path_does_not_stop_the_others(self) -> None:
        """A missing path exits 2 but the other stores are still checked and reported."""
        report = check_paths([str(REPO / "nope.jsonl"), str(FIXTURES / "hash-mismatch.jsonl")])
        assert report.exit_code == 2
        assert report.stores[0].error is not None
        assert report.stores[0].error.code == "not-found"
        assert report.stores[1].violations == 1

    def test_ignore_suppresses_a_code(self) -> None:
        """--ignore CODE leaves that code out; a store with only that code then exits 0."""
        name = str(FIXTURES / "bad-source.jsonl")
        assert run_main("check", name)[0] == 1
        assert run_main("check", "--ignore", "bad-source", name)[0] == 0

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


class TestHumanReport:
    def test_table_lists_each_violation(self) -> None:
        """The human report has one table row per violation: line, level, code and field."""
        status, out = run_main("check", str(FIXTURES / "missing-field.jsonl"))
        assert status == 1
        rows = [r.split() for r in out.splitlines() if r.strip().startswith("2 ")]
        assert [r[:4] for r in rows] == [["2", "required", "missing-field", "source"]]

    def test_notices_summarized_not_tabled(self) -> None:
        """Without --all a notice is one summary line per store, not a table row."""
        status, out = run_main("check", str(FIXTURES / "ts-utc-missing.jsonl"))
        assert status == 0
        assert not [r for r in out.splitlines() if r.strip().startswith("2 ")]
        summary = [r for r in out.splitlines() if "notice (info" in r]
        assert len(summary) == 1
        assert "ts-utc-missing on line 2" in summary[0]
        assert out.splitlines()[-1] == "result: no violation"

    def test_all_lists_notices_per_line(self) -> None:
        """--all tables every line, notices included."""
        _, out = run_main("check", "--all", str(FIXTURES / "ts-utc-missing.jsonl"))
        rows = [r.split() for r in out.splitlines() if r.strip()[:1].isdigit()]
        assert [r[:3] for r in rows] == [
            ["1", "-", "-"],
            ["2", "info", "ts-utc-missing"],
            ["3", "-", "-"],
        ]

    def test_pinned_result_names_the_interpretation(self) -> None:
        """A store with only pinned notices passes, and the result line names INT-47."""
        status, out = run_main("check", str(FIXTURES / "hash-alternative-form.jsonl"))
        assert status == 0
        assert "uses python-json" in out
        assert "INT-47" in out.splitlines()[-1]


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
