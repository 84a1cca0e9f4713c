"""INT-47's canonical forms in `store check` (conformance/store/_forms.py): issue 17's cases."""

from __future__ import annotations

import hashlib
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
import rfc8785

from conformance.cli import main
from conformance.store import FORMS, check_store
from conformance.store._forms import form_digests
from conformance.store._lines import parse_line

BIG = 12345678901234567890


def python_dumps(value: Any, *, ascii_only: bool = False) -> str:
    """The serialization of the 'existing append-only writer' of issue 17."""
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=ascii_only, allow_nan=False
    )


def python_writer_line(record: dict[str, Any], *, ascii_only: bool = False) -> bytes:
    """A line as that writer appends it: hash over the record, then the record with its hash."""
    digest = hashlib.sha256(python_dumps(record, ascii_only=ascii_only).encode()).hexdigest()
    return python_dumps(record | {"hash": digest}, ascii_only=ascii_only).encode() + b"\n"


#: refs that make the python-json bytes differ from RFC 8785, one per difference INT-47 names.
DIFFERING_REFS: list[list[dict[str, Any]]] = [
    [{"kind": "seq", "value": BIG}],  # integers beyond 2**53
    [{"kind": "weight", "value": 1.0}],  # 1.0 vs 1
    [{"kind": "tiny", "value": 1e-07}, {"kind": "huge", "value": 1e16}],  # exponents
    [{"kind": "label", "\U0001f373": "cooking", "\ufb01": "fine"}],  # non-BMP name order
]
#: refs whose bytes are the same under every form (ASCII-free content is not needed for that).
SAME_REFS: list[list[dict[str, Any]]] = [
    [{"kind": "run_id", "value": "run-0001"}],
    [{"kind": "score", "value": 0.75}],
    [{"kind": "étiquette", "valeur": "cuisine"}],  # non-ASCII (BMP) names sort alike
]


def spec005_record(i: int) -> dict[str, Any]:
    """Record i of a plain SPEC-005 store (no ts_utc); every 12th one carries a big integer."""
    refs = (
        DIFFERING_REFS[(i // 12) % len(DIFFERING_REFS)]
        if i % 12 == 11
        else SAME_REFS[i % len(SAME_REFS)]
    )
    minute = i % 60
    return {
        "memory_id": f"epi-{i:04d}",
        "type": "episodic",
        "created_at_utc": f"2025-01-{6 + i // 60:02d}T09:{minute:02d}:00Z",
        "source": "user" if i % 2 else "system",
        "tags": ["kitchen"],
        "text": f"Record {i}: the café quote, revision {i}.",
        "refs": refs,
    }


@pytest.fixture
def python_store(tmp_path: Path) -> Path:
    """300 records written by the Python json.dumps writer of issue 17, without ts_utc."""
    path = tmp_path / "episodic.jsonl"
    path.write_bytes(b"".join(python_writer_line(spec005_record(i)) for i in range(300)))
    return path


def run_main(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(["store", *argv], out=out), out.getvalue()


DIFFERING_LINES = [i + 1 for i in range(300) if i % 12 == 11]


class TestIssue17DoneWhen:
    def test_python_json_store_passes_with_notices(self, python_store: Path) -> None:
        """A store written in the python-json form, big integers, floats, 1.0, non-ASCII keys
        and no ts_utc, passes; its records are notices naming INT-47 and the form."""
        report = check_store(str(python_store))
        assert report.violations == 0
        notices = {(x.line, f.code) for x in report.lines for f in x.notices}
        assert {line for line, code in notices if code == "hash-alternative-form"} == set(
            DIFFERING_LINES
        )
        assert {line for line, code in notices if code == "ts-utc-missing"} == set(range(1, 301))
        summary = report.summary
        assert summary.consistent_forms == ("python-json",)
        assert dict(summary.hash_matches) == {
            "jcs": 300 - len(DIFFERING_LINES),
            "python-json": 300,
            "python-json-ascii": 0,
        }
        assert summary.hash_unmatched == 0
        status, out = run_main("check", str(python_store))
        assert status == 0, out
        assert "uses python-json" in out
        assert out.splitlines()[-1].startswith("result: no violation; differs from the pinned")
        assert "INT-47" in out.splitlines()[-1]

    def test_notices_summarized_once(self, python_store: Path) -> None:
        """The text report says each notice code once per store, not once per line."""
        _, out = run_main("check", str(python_store))
        assert [line.split()[3] for line in out.splitlines() if "notice (" in line] == [
            "hash-alternative-form",
            "ts-utc-missing",
        ]
        assert len(out.splitlines()) < 12

    def test_strict_fails_the_pinned_notices_only(self, python_store: Path) -> None:
        """--strict turns the INT-47 notices into violations; ts-utc-missing stays a notice."""
        report = check_store(str(python_store), strict=True)
        assert {(x.line, f.code) for x in report.lines for f in x.violations} == {
            (line, "hash-alternative-form") for line in DIFFERING_LINES
        }
        assert run_main("check", "--strict", str(python_store))[0] == 1

    @pytest.mark.parametrize("line", [1, DIFFERING_LINES[0], 300])
    def test_one_changed_text_byte_fails_that_line_only(
        self, python_store: Path, line: int
    ) -> None:
        """The same store with one byte of one record's text changed fails with hash-mismatch
        on that line only, and the message shows both hashes in full."""
        lines = python_store.read_bytes().splitlines(keepends=True)
        at = lines[line - 1].index(b"Record ") + len(b"Record ")
        lines[line - 1] = lines[line - 1][:at] + b"X" + lines[line - 1][at + 1 :]
        python_store.write_bytes(b"".join(lines))
        report = check_store(str(python_store))
        violations = [(x.line, f) for x in report.lines for f in x.violations]
        assert [(n, f.code) for n, f in violations] == [(line, "hash-mismatch")]
        message = violations[0][1].message
        assert len(re.findall(r'"[0-9a-f]{64}"', message)) == 2
        assert message.count('"') == 4
        assert run_main("check", str(python_store))[0] == 1

    def test_big_integer_digit_edit_is_caught(self, python_store: Path) -> None:
        """An edit invisible to RFC 8785 (a digit of an integer beyond 2**53) still fails."""
        data = python_store.read_bytes()
        edited = data.replace(str(BIG).encode(), str(BIG + 1).encode(), 1)
        python_store.write_bytes(edited)
        report = check_store(str(python_store))
        assert [(x.line, f.code) for x in report.lines for f in x.violations] == [
            (DIFFERING_LINES[0], "hash-mismatch")
        ]


class TestForms:
    def test_forms_table(self) -> None:
        """The pinned form comes first; the alternatives are the ones INT-47 lists."""
        assert [f.name for f in FORMS] == ["jcs", "python-json", "python-json-ascii"]

    @pytest.mark.parametrize(
        ("value", "python", "jcs"),
        [
            (BIG, b"12345678901234567890", b"12345678901234567000"),
            (56.0, b"56.0", b"56"),
            (1e16, b"1e+16", b"10000000000000000"),
            (1.2345678901234568e20, b"1.2345678901234568e+20", b"123456789012345680000"),
            (1e-05, b"1e-05", b"0.00001"),
            (2.5e-07, b"2.5e-07", b"2.5e-7"),
            (-0.0, b"-0.0", b"0"),
        ],
    )
    def test_number_differences(self, value: Any, python: bytes, jcs: bytes) -> None:
        """Each number INT-47 lists is written as the ANCHORS.md table says, per form."""
        line = python_writer_line({"memory_id": "m", "refs": [{"value": value}]}).rstrip(b"\n")
        parsed = parse_line(line)
        checked = form_digests(parsed.value, line, parsed.features, parsed.value["hash"])
        assert b'"value":' + python + b"}" in checked.serialized["python-json"]
        assert b'"value":' + jcs + b"}" in checked.serialized["jcs"]
        assert checked.matches == ("python-json", "python-json-ascii")

    @pytest.mark.parametrize(
        ("value", "same"),
        [(1e21, True), (1e-10, True), (0.5, True), (2**53 - 1, True), (1.5, True)],
    )
    def test_numbers_written_alike(self, value: Any, same: bool) -> None:
        """Numbers outside the differing ranges hash alike under every form."""
        line = python_writer_line({"memory_id": "m", "refs": [{"value": value}]}).rstrip(b"\n")
        parsed = parse_line(line)
        checked = form_digests(parsed.value, line, parsed.features, parsed.value["hash"])
        assert ("jcs" in checked.matches) is same

    def test_non_bmp_member_order(self) -> None:
        """Names mixing a non-BMP character with U+FB01 sort by code point in python-json and
        by UTF-16 unit in RFC 8785."""
        record: dict[str, Any] = {"memory_id": "m", "refs": [{"\U0001f373": 1, "\ufb01": 2}]}
        line = python_writer_line(record).rstrip(b"\n")
        parsed = parse_line(line)
        checked = form_digests(parsed.value, line, parsed.features, parsed.value["hash"])
        assert checked.matches == ("python-json",)
        assert checked.serialized["jcs"] == rfc8785.dumps(record)
        jcs = checked.serialized["jcs"]
        assert jcs.index("\U0001f373".encode()) < jcs.index("\ufb01".encode())

    def test_ascii_form(self) -> None:
        """ensure_ascii=True escapes non-ASCII; such a hash matches python-json-ascii only."""
        record = {"memory_id": "m", "text": "café ☕ \U0001f373"}
        line = python_writer_line(record, ascii_only=True).rstrip(b"\n")
        assert line.isascii()
        parsed = parse_line(line)
        checked = form_digests(parsed.value, line, parsed.features, parsed.value["hash"])
        assert checked.matches == ("python-json-ascii",)

    def test_plain_record_matches_every_form(self) -> None:
        """A record of strings and small integers has one serialization under every form."""
        record: dict[str, Any] = {"memory_id": "m", "text": "café", "refs": [{"n": 3}]}
        line = python_writer_line(record).rstrip(b"\n")
        parsed = parse_line(line)
        checked = form_digests(parsed.value, line, parsed.features, parsed.value["hash"])
        assert checked.matches == ("jcs", "python-json")
        assert checked.serialized["jcs"] == rfc8785.dumps(record)


class TestHashMismatchMessage:
    def test_uppercase_digest_is_named(self, tmp_path: Path) -> None:
        """An uppercase copy of a digest stays hash-mismatch and the message says why."""
        record = {"memory_id": "m", "type": "episodic"}
        digest = hashlib.sha256(rfc8785.dumps(record)).hexdigest()
        store = tmp_path / "s.jsonl"
        store.write_bytes(json.dumps(record | {"hash": digest.upper()}).encode() + b"\n")
        (line,) = check_store(str(store)).lines
        (mismatch,) = [f for f in line.violations if f.code == "hash-mismatch"]
        assert f'"{digest.upper()}"' in mismatch.message
        assert f'"{digest}"' in mismatch.message
        assert "uppercase" in mismatch.message

    def test_absurd_hash_is_cut_and_says_so(self, tmp_path: Path) -> None:
        """A megabyte-long hash string is shown cut, with its length."""
        store = tmp_path / "s.jsonl"
        store.write_bytes(json.dumps({"memory_id": "m", "hash": "a" * 1_000_000}).encode() + b"\n")
        (line,) = check_store(str(store)).lines
        (mismatch,) = [f for f in line.violations if f.code == "hash-mismatch"]
        assert len(mismatch.message) < 400
        assert "(1000000 characters)" in mismatch.message
