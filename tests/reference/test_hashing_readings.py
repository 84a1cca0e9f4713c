"""The hashing readings (INT-01, INT-02, INT-03, INT-04, INT-17, INT-47) of
``reference/_readings.py``: each alternative hashes the preimage its register text describes,
written out here byte for byte, and the pinned readings stay the default."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from reference import ALTERNATIVES, Readings, memory_read
from reference._alternatives import applied
from reference._readings import ALTERNATIVES as _ALL

PACKAGE_WIDE = {key: alt for key, alt in _ALL.items() if alt.hashes_only}

REQUEST: dict[str, Any] = {
    "query": "note",
    "store_paths": ["s.jsonl"],
    "budget": {"max_excerpt_tokens": 100},
}


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _read(root: Path, line: str, reading: str | None = None) -> dict[str, Any]:
    (root / "s.jsonl").write_text(line + "\n", "utf-8")
    table = ALTERNATIVES | PACKAGE_WIDE
    readings = applied(Readings(), [reading] if reading else [], table)[0]
    package: dict[str, Any] = memory_read(REQUEST, readings=readings)["package"]
    return package


def _record_hash(package: dict[str, Any]) -> str:
    selection = package["selection"]
    (item,) = selection["selected"] or selection["dropped"]
    return str(item["record_hash"])


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


#: (alternative, the store line, the preimage its register text gives, or the record_hash).
CASES = [
    (
        None,
        '{"memory_id":"m","text":"note \u00e9"}',
        '{"memory_id":"m","refs":[],"tags":[],"text":"note \u00e9"}',
    ),
    (
        "INT-01/ensure-ascii-true-escaping",
        '{"memory_id":"m","text":"note \u00e9\U0001f600"}',
        '{"memory_id":"m","refs":[],"tags":[],"text":"note \\u00e9\\ud83d\\ude00"}',
    ),
    (  # code points: U+FF21 before U+1F600 (UTF-16 units put D83D first)
        "INT-01/sort-keys-code-point",
        '{"memory_id":"m","text":"note","refs":[{"\U0001f600":1,"\uff21":2}]}',
        '{"memory_id":"m","refs":[{"\uff21":2,"\U0001f600":1}],"tags":[],"text":"note"}',
    ),
    (
        "INT-01/python-json-dumps-sort",
        '{"memory_id":"m","text":"note","refs":[{"a":2.0,"b":1e16,"c":1e-6,"d":-0.0}]}',
        '{"memory_id":"m","refs":[{"a":2.0,"b":1e+16,"c":1e-06,"d":-0.0}],"tags":[],"text":"note"}',
    ),
    (
        "INT-02/include-store-path-hash",
        '{"memory_id":"m","text":"note"}',
        '{"memory_id":"m","refs":[],"store_path":"s.jsonl","tags":[],"text":"note"}',
    ),
    (
        "INT-02/ts-utc-null-absent",
        '{"memory_id":"m","text":"note"}',
        '{"memory_id":"m","refs":[],"tags":[],"text":"note","ts_utc":null}',
    ),
    (
        "INT-02/hash-stripped-text-raw",
        '{"memory_id":"m","text":"  note\\n"}',
        '{"memory_id":"m","refs":[],"tags":[],"text":"note"}',
    ),
    (
        "INT-02/hash-raw-line-bytes",
        '{"memory_id":"m", "text":"note"}',
        '{"memory_id":"m", "text":"note"}',
    ),
    (
        "INT-17/keep-integers-exact-python",
        '{"memory_id":"m","text":"note","refs":[{"n":12345678901234567890}]}',
        '{"memory_id":"m","refs":[{"n":12345678901234567890}],"tags":[],"text":"note"}',
    ),
]


class TestRecordHash:
    """record_hash = SHA-256 of the preimage each reading describes."""

    @pytest.mark.parametrize(("reading", "line", "preimage"), CASES)
    def test_preimage(self, root: Path, reading: str | None, line: str, preimage: str) -> None:
        """The record's hash is the SHA-256 of the preimage written out by hand."""
        assert _record_hash(_read(root, line, reading)) == _sha(preimage)

    def test_pinned_reads_numbers_as_doubles(self, root: Path) -> None:
        """INT-17 pinned: 12345678901234567890 is the double 12345678901234567000 (JCS)."""
        line = '{"memory_id":"m","text":"note","refs":[{"n":12345678901234567890}]}'
        preimage = '{"memory_id":"m","refs":[{"n":12345678901234567000}],"tags":[],"text":"note"}'
        assert _record_hash(_read(root, line)) == _sha(preimage)

    def test_unsafe_integer_makes_the_line_invalid(self, root: Path) -> None:
        """INT-17/reject-integers-outside-2: the line is invalid like 1e400 (memory_id "")."""
        line = '{"memory_id":"m","text":"note","x":9007199254740992}'
        package = _read(root, line, "INT-17/reject-integers-outside-2")
        assert package["selection"]["dropped"] == [
            {"memory_id": "", "record_hash": _sha(line), "store_path": "s.jsonl",
             "reason": "invalid_record_schema"}
        ]  # fmt: skip
        assert _read(root, line)["selection"]["selected"][0]["memory_id"] == "m"

    def test_spec005_hash_member(self, root: Path) -> None:
        """INT-47/treat-spec-005-hash: a string hash member is taken as the record_hash."""
        line = '{"memory_id":"m","text":"note","hash":"abc"}'
        assert _record_hash(_read(root, line, "INT-47/treat-spec-005-hash")) == "abc"
        assert _record_hash(_read(root, line)) != "abc"


class TestPackageHash:
    """package_hash under INT-01, INT-03 and INT-04 alternatives, over the package as returned."""

    @staticmethod
    def _hashed(package: dict[str, Any]) -> dict[str, Any]:
        return {name: value for name, value in package.items() if name != "package_hash"}

    def test_python_json(self, root: Path) -> None:
        """INT-01/python-json-dumps-sort: json.dumps of the package (score 1.0 stays 1.0)."""
        package = _read(root, '{"memory_id":"m","text":"note"}', "INT-01/python-json-dumps-sort")
        text = json.dumps(self._hashed(package), sort_keys=True, separators=(",", ":"),
                          ensure_ascii=False)  # fmt: skip
        assert '"score":1.0' in text
        assert package["package_hash"] == _sha(text)

    def test_must_list(self, root: Path) -> None:
        """INT-03/hash-fields-must-list: budget and the selected items' five fields only."""
        package = _read(root, '{"memory_id":"m","text":"note"}', "INT-03/hash-fields-must-list")
        (item,) = package["selection"]["selected"]
        b = package["budget"]
        preimage = (
            f'{{"budget":{{"max_excerpt_tokens":{b["max_excerpt_tokens"]},'
            f'"max_items":{b["max_items"]},'
            f'"per_item_max_excerpt_tokens":{b["per_item_max_excerpt_tokens"]},'
            f'"remaining_excerpt_tokens":{b["remaining_excerpt_tokens"]},'
            f'"used_excerpt_tokens":{b["used_excerpt_tokens"]}}},"selection":{{"selected":'
            f'[{{"excerpt_tokens":1,"memory_id":"m","record_hash":"{item["record_hash"]}",'
            '"score":1,"store_path":"s.jsonl"}]}}'
        )
        assert package["package_hash"] == _sha(preimage)

    @pytest.mark.parametrize(
        ("reading", "change"),
        [
            ("INT-03/exclude-query-raw-query", {"query": "NOTE"}),
            ("INT-04/exclude-score-package-hash", {"scoring": {"enable_tag_overlap": False}}),
        ],
    )
    def test_left_out_member_does_not_count(
        self, root: Path, reading: str, change: dict[str, Any]
    ) -> None:
        """A package that differs only in query.raw (INT-03) or in a score (INT-04) keeps its
        hash under the reading that leaves that member out, and changes it when pinned."""
        (root / "s.jsonl").write_text('{"memory_id":"m","text":"note","tags":["note"]}\n', "utf-8")
        first = {**REQUEST, "scoring": {"enable_tag_overlap": True}}
        second = {**first, **change}
        readings = applied(Readings(), [reading], PACKAGE_WIDE)[0]
        one, two = (memory_read(r, readings=readings)["package"] for r in (first, second))
        assert one != two
        assert one["package_hash"] == two["package_hash"]
        pinned = [memory_read(r)["package"]["package_hash"] for r in (first, second)]
        assert pinned[0] != pinned[1]
