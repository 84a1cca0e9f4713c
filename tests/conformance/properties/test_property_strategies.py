"""The exported strategies produce what they promise (conformance.strategies)."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from property_support import KIT_SETTINGS, reference_result

from conformance import materialize
from conformance._schemas import schema_errors
from conformance.corpus._vectors import load_vector_file
from conformance.strategies import (
    INVALID_LINE_KINDS,
    WHITE_SPACE_CHARACTERS,
    Instant,
    Scenario,
    StoreLine,
    blank_lines,
    error_scenarios,
    format_timestamp,
    future_timestamps,
    invalid_record_lines,
    invalid_timestamps,
    memory_controller_inputs,
    scenarios,
    trust_snapshots,
    unicode_text,
    valid_record_lines,
    valid_timestamps,
)
from tools import oracle as _oracle

NOW = Instant(63_870_000_000, 123_456_789)
KINDS = [kind for names in INVALID_LINE_KINDS.values() for kind in names]


class TestStoreLines:
    """JSONL STORE RECORD CONTRACT: "A JSONL line is one JSON object (UTF-8). Minimum accepted
    fields: memory_id: string (required), ts_utc: string (optional ISO8601 UTC timestamp),
    text: string (required; may be empty but discouraged), tags: list[string] (optional),
    refs: list[object] (optional; if present MUST be list[dict]). If a record fails schema
    validation, it MUST be ignored and counted as dropped with reason: "invalid_record_schema"."
    (INT-14 blank lines, INT-15..INT-22 invalid lines.)
    """

    @KIT_SETTINGS
    @given(valid_record_lines(words=("alpha", "İstanbul", "ΟΔΟΣ"), canary="CANARYT"))
    def test_valid_lines_are_valid_records(self, line: StoreLine) -> None:
        """A line of kind "valid" is a valid record whose text carries the planted canary."""
        parsed = _oracle.read_line(line.data)
        assert "invalid" not in parsed, line
        assert line.kind == "valid"
        assert "CANARYT" in parsed["text"]

    @pytest.mark.parametrize("kind", KINDS)
    def test_every_invalid_kind_is_invalid(self, kind: str) -> None:
        """Every INT-15..INT-22 kind the strategy names is an invalid line for the oracle."""

        @KIT_SETTINGS
        @given(invalid_record_lines(kinds=[kind]))
        def check(line: StoreLine) -> None:
            assert line.kind.endswith(f":{kind}")
            assert "invalid" in _oracle.read_line(line.data), line

        check()

    def test_invalid_kinds_cover_every_rule(self) -> None:
        """The invalid-line table has kinds for INT-15, 16, 17, 18, 20 and 22."""
        assert set(INVALID_LINE_KINDS) == {
            "INT-15",
            "INT-16",
            "INT-17",
            "INT-18",
            "INT-20",
            "INT-22",
        }

    @KIT_SETTINGS
    @given(blank_lines())
    def test_blank_lines_are_not_records(self, line: StoreLine) -> None:
        """INT-14: a blank line holds only 0x20/0x09/0x0D bytes and is skipped."""
        assert _oracle.is_blank(line.data)
        assert not line.is_record


class TestText:
    """INT-05: "Whitespace is exactly the 25 code points with the Unicode White_Space property";
    INT-06: lowercasing is the full default mapping (Final_Sigma, U+0130)."""

    def test_white_space_table(self) -> None:
        """The exported White_Space table has exactly the 25 code points."""
        assert len(WHITE_SPACE_CHARACTERS) == 25
        assert "\u200b" not in WHITE_SPACE_CHARACTERS
        assert "\u3000" in WHITE_SPACE_CHARACTERS

    @KIT_SETTINGS
    @given(unicode_text(("alpha",)))
    def test_text_is_valid_unicode(self, text: str) -> None:
        """Generated text is UTF-8 encodable (no lone surrogates)."""
        text.encode("utf-8")

    def test_text_reaches_the_edges(self) -> None:
        """Generated text does contain non-ASCII White_Space and multi-byte characters."""
        seen: set[str] = set()

        @KIT_SETTINGS
        @given(unicode_text(("alpha",)))
        def collect(text: str) -> None:
            if any(ch in text for ch in WHITE_SPACE_CHARACTERS if ord(ch) > 0x7F):
                seen.add("unicode white space")
            if any(len(ch.encode()) == 4 for ch in text):
                seen.add("4-byte")

        collect()
        assert seen == {"unicode white space", "4-byte"}


class TestTimestamps:
    """INT-20: a valid ts_utc is RFC 3339 date-time restricted to UTC ('Z' or '+00:00')."""

    @KIT_SETTINGS
    @given(valid_timestamps())
    def test_valid_timestamps_parse(self, ts: str) -> None:
        """Every valid timestamp parses under the INT-20 grammar."""
        assert _oracle.parse_ts(ts) is not None

    @KIT_SETTINGS
    @given(invalid_timestamps())
    def test_invalid_timestamps_do_not_parse(self, ts: str) -> None:
        """Every invalid timestamp is rejected by the INT-20 grammar."""
        assert _oracle.parse_ts(ts) is None

    @KIT_SETTINGS
    @given(future_timestamps(NOW))
    def test_future_timestamps_are_after_now(self, ts: str) -> None:
        """A future timestamp is later than 'now' (negative age, INT-35)."""
        parsed = _oracle.parse_ts(ts)
        assert parsed is not None
        assert (parsed[0], parsed[1]) > (NOW.seconds, NOW.nanos)

    @pytest.mark.parametrize(
        ("digits", "suffix", "expected"),
        [
            (None, "Z", "2024-01-02T03:04:05.12Z"),
            (3, "+00:00", "2024-01-02T03:04:05.120+00:00"),
            (9, "Z", "2024-01-02T03:04:05.120000000Z"),
        ],
    )
    def test_format_timestamp(self, digits: int | None, suffix: str, expected: str) -> None:
        """format_timestamp prints the instant with the requested fraction digits."""
        parsed = _oracle.parse_ts("2024-01-02T03:04:05.12Z")
        assert parsed is not None
        instant = Instant(parsed[0], parsed[1])
        assert format_timestamp(instant, digits=digits, suffix=suffix) == expected  # type: ignore[arg-type]


class TestRequests:
    """INPUT CONTRACT: query (non-empty after trim), store_paths (non-empty), budget
    (max_excerpt_tokens > 0; per_item, max_items optional), scoring, trust_filter, now_utc."""

    @KIT_SETTINGS
    @given(memory_controller_inputs(["stores/a.jsonl", "stores/b.jsonl"], words=("alpha",)))
    def test_inputs_are_valid_requests(self, request: dict[str, object]) -> None:
        """Every generated MemoryControllerInput passes the request checks and the schema."""
        _oracle.check_request(request)
        assert schema_errors("request.schema.json", request) == []

    @KIT_SETTINGS
    @given(trust_snapshots(memory_id_pool=("m1",), record_hash_pool=("a" * 64,)))
    def test_snapshots_are_valid(self, document: dict[str, object]) -> None:
        """Every generated trust snapshot is a valid phase6-trust/1 document (INT-38)."""
        assert schema_errors("trust-snapshot.schema.json", document) == []


class TestScenarios:
    """A scenario is a whole valid input: its files and a request that must give a package."""

    @KIT_SETTINGS
    @given(scenarios())
    def test_reference_returns_a_package(self, scenario: Scenario) -> None:
        """The reference answers every valid scenario with a package, never an error."""
        with tempfile.TemporaryDirectory() as root:
            result = reference_result(scenario, Path(root))
        assert "package" in result, result

    @KIT_SETTINGS
    @given(error_scenarios())
    def test_error_scenarios_give_errors(self, scenario: Scenario) -> None:
        """The reference answers every broken request with an error (S6-ERR-01)."""
        with tempfile.TemporaryDirectory() as root:
            result = reference_result(scenario, Path(root))
        assert set(result) == {"error"}, result

    @KIT_SETTINGS
    @given(scenarios(), st.data())
    def test_vector_files_round_trip(self, scenario: Scenario, data: st.DataObject) -> None:
        """A scenario written as phase6-vectors/1 materializes to the very same bytes."""
        document = {
            "format": "phase6-vectors/1",
            "area": "roundtrip",
            "description": "round trip",
            "source": "generated:test",
            "vectors": [
                {
                    "id": "rt-1",
                    "description": "round trip",
                    "clauses": ["S6-REC-01"],
                    "interpretations": [],
                    "level": "required",
                    "input": {"request": scenario.request, "files": scenario.vector_files()},
                    "expect": {"error": {"code": "invalid_request", "path": ""}},
                }
            ],
        }
        with tempfile.TemporaryDirectory() as tmp:
            base = Path(tmp)
            (base / "corpus").mkdir()
            (base / "corpus" / "roundtrip.json").write_text(json.dumps(document), "utf-8")
            vector = load_vector_file(base / "corpus" / "roundtrip.json", base / "corpus").vectors[
                0
            ]
            materialize(vector, base / "from-vector")
            scenario.write(base / "from-scenario")
            for name, _ in scenario.files:
                left = (base / "from-vector" / name).read_bytes()
                assert left == (base / "from-scenario" / name).read_bytes(), name
        assert vector.request == scenario.request
