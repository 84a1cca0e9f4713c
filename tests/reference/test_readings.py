"""Executable alternative readings (``reference/_readings.py``): the defaults are the pinned
readings byte for byte, each alternative changes exactly what its register entry says, and the
register names the same alternatives the reference runs."""

from __future__ import annotations

import json
import tomllib
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import mpmath
import pytest
from paths import REPO

from reference import ALTERNATIVES, Readings, UnknownReading, memory_read


def _store(root: Path, records: list[dict[str, Any]]) -> None:
    (root / "s.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records), "utf-8")


@pytest.fixture
def three(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Three records that all match "alpha", in a store at tmp_path/s.jsonl (the cwd)."""
    _store(tmp_path, [{"memory_id": f"m{i}", "text": "alpha"} for i in range(3)])
    monkeypatch.chdir(tmp_path)
    return tmp_path


REQUEST: dict[str, Any] = {
    "query": "alpha",
    "store_paths": ["s.jsonl"],
    "budget": {"max_excerpt_tokens": 100, "max_items": 1},
}


class TestPinnedByDefault:
    """``Readings()`` is the register's pinned readings: nothing changes without an ID."""

    def test_default_is_the_same_result(self, three: Path) -> None:
        """memory_read with the default readings is memory_read without them."""
        assert memory_read(REQUEST, readings=Readings()) == memory_read(REQUEST)

    def test_no_ids_is_the_default(self) -> None:
        """Readings.of([]) is Readings(), and it follows no alternative."""
        assert Readings.of([]) == Readings()
        assert Readings().ids == ()

    def test_unknown_and_conflicting_ids(self) -> None:
        """An ID that is not executable, or two of one entry, is refused with a clear error."""
        with pytest.raises(UnknownReading, match="INT-99/x"):
            Readings.of(["INT-99/x"])
        only = next(iter(ALTERNATIVES))
        with pytest.raises(ValueError, match="choose one"):
            Readings.of([only, only])

    @pytest.mark.parametrize("alternative", sorted(ALTERNATIVES))
    def test_ids_round_trip(self, alternative: str) -> None:
        """The readings of one alternative say that alternative, and only it (a parameterized
        one with its value)."""
        parameter = ALTERNATIVES[alternative].parameter
        reading = alternative if parameter is None else f"{alternative}({parameter.name}=2)"
        assert Readings.of([reading]).ids == (reading,)


class TestParameterized:
    """An alternative that leaves a value free: its ID carries the value."""

    def test_the_value_is_the_stage_value(self) -> None:
        """INT-28/list-first-n-drops(n=2) sets the dropped limit to 2, and says so."""
        readings = Readings.of(["INT-28/list-first-n-drops(n=2)"])
        assert readings.dropped_limit == 2
        assert readings.ids == ("INT-28/list-first-n-drops(n=2)",)

    @pytest.mark.parametrize(
        ("reading", "message"),
        [
            ("INT-28/list-first-n-drops", "needs its value"),
            ("INT-28/list-first-n-drops(k=2)", "needs its value"),
            ("INT-28/list-first-n-drops(n=-1)", "n must be an int"),
            ("INT-28/list-first-n-drops(n=02)", "n must be an int"),
            ("INT-28/list-first-n-drops(n=x)", "n must be an int"),
            ("INT-04/round-recency-bonus-fixed(decimals=31)", "decimals must be an int in 0..30"),
            ("INT-08/verbatim(n=1)", "takes no parameter"),
            ("INT-99/x(n=1)", "no executable alternative"),
        ],
    )
    def test_a_missing_or_invalid_value_is_refused(self, reading: str, message: str) -> None:
        """No value, another parameter's name, a value out of bounds or not in canonical digits,
        or a value for an alternative without a parameter: UnknownReading."""
        with pytest.raises(UnknownReading, match=message):
            Readings.of([reading])

    @pytest.mark.parametrize(("n", "listed"), [(0, []), (1, ["m1"]), (2, ["m1", "m2"])])
    def test_int28_first_n_drops(self, three: Path, n: int, listed: list[str]) -> None:
        """INT-28 "Only list the first N drops": with max_items 1, m1 and m2 are dropped (read
        order); the first n of them are listed, selection and receipt are as pinned but for the
        hash, which is the package's own."""
        pinned = memory_read(REQUEST)
        other = memory_read(REQUEST, readings=Readings.of([f"INT-28/list-first-n-drops(n={n})"]))
        package = other["package"]
        assert [d["memory_id"] for d in package["selection"]["dropped"]] == listed
        assert package["selection"]["selected"] == pinned["package"]["selection"]["selected"]
        assert other["receipt"]["data"]["package_hash"] == package["package_hash"]
        assert (package == pinned["package"]) is (n == 2)

    @pytest.mark.parametrize(("decimals", "score"), [(2, 0.79), (3, 0.794), (6, 0.793701)])
    def test_int04_rounded_bonus(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, decimals: int, score: float
    ) -> None:
        """INT-04 "Round recency_bonus to a fixed number of decimals": a record one day old with
        half-life 3 has weight 2**(-1/3) = 0.7937005259840998 (pinned score, base 0); rounded
        to 2, 3, 6 decimals it is 0.79, 0.794, 0.793701."""
        _store(tmp_path, [{"memory_id": "m", "text": "zzz", "ts_utc": "2026-01-30T00:00:00Z"}])
        monkeypatch.chdir(tmp_path)
        request = {
            "query": "alpha",
            "store_paths": ["s.jsonl"],
            "budget": {"max_excerpt_tokens": 100},
            "scoring": {"enable_recency_weight": True, "recency_half_life_days": 3},
            "now_utc": "2026-01-31T00:00:00Z",
        }
        reading = Readings.of([f"INT-04/round-recency-bonus-fixed(decimals={decimals})"])
        pinned = memory_read(request)["package"]["selection"]["selected"][0]["score"]
        other = memory_read(request, readings=reading)["package"]["selection"]["selected"]
        assert pinned == 0.7937005259840998
        assert other[0]["score"] == score


class TestAlternatives:
    """Each alternative, on an input worked out from its register entry."""

    def test_int27_budget_exhausted(self, three: Path) -> None:
        """INT-27: with max_items 1, the two candidates left out are max_items_reached (pinned)
        or budget_exhausted (the alternative); nothing else changes but the hash."""
        pinned = memory_read(REQUEST)["package"]
        other = memory_read(REQUEST, readings=Readings.of(["INT-27/budget-exhausted"]))["package"]
        assert [d["reason"] for d in pinned["selection"]["dropped"]] == ["max_items_reached"] * 2
        assert [d["reason"] for d in other["selection"]["dropped"]] == ["budget_exhausted"] * 2
        assert pinned["selection"]["selected"] == other["selection"]["selected"]
        assert pinned["package_hash"] != other["package_hash"]

    def test_int08_verbatim(self, three: Path) -> None:
        """INT-08: a supplied term "ALPHA" is lowercased and matches "alpha" (score 1, pinned);
        used verbatim it is not a substring of the lowercased text (score 0)."""
        request = {**REQUEST, "scoring": {"query_terms": ["ALPHA"]}}
        pinned = memory_read(request)["package"]["selection"]["selected"]
        other = memory_read(request, readings=Readings.of(["INT-08/verbatim"]))["package"]
        assert [item["score"] for item in pinned] == [1]
        assert [item["score"] for item in other["selection"]["selected"]] == [0]

    def test_int04_platform_pow(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        """INT-04: the pinned weight is the correctly rounded 2**-exponent (computed here with
        60-digit mpmath); the alternative is Python's platform ``0.5 ** exponent``. On an age
        where the two differ, each reading scores with its own weight."""
        half_life, now = 7, "2026-01-31T00:00:00Z"
        mpmath.mp.dps = 60
        for seconds in range(1, 86_400 * 30, 997):
            exponent = (seconds / 86_400) / half_life
            exact = float(mpmath.power(2, -mpmath.mpf(exponent)))
            if 0.5**exponent != exact:
                break
        else:  # pragma: no cover - the platform pow is correctly rounded everywhere here
            pytest.skip("this platform's pow is correctly rounded on every age tried")
        ts = datetime(2026, 1, 31, tzinfo=UTC) - timedelta(seconds=seconds)
        stamp = ts.strftime("%Y-%m-%dT%H:%M:%SZ")
        _store(tmp_path, [{"memory_id": "m", "text": "zzz", "ts_utc": stamp}])
        monkeypatch.chdir(tmp_path)
        request = {
            "query": "alpha",
            "store_paths": ["s.jsonl"],
            "budget": {"max_excerpt_tokens": 100},
            "scoring": {"enable_recency_weight": True, "recency_half_life_days": half_life},
            "now_utc": now,
        }
        pinned = memory_read(request)["package"]["selection"]["selected"][0]["score"]
        other = memory_read(request, readings=Readings.of(["INT-04/platform-pow"]))
        assert pinned == exact
        assert other["package"]["selection"]["selected"][0]["score"] == 0.5**exponent


class TestRuntimeReadings:
    """Alternatives taken from what the runtimes probes (``tools/runtimes``) printed."""

    @pytest.mark.parametrize(
        ("line", "fails"),
        [
            (b"x" * 65_535 + b"\n", False),
            (b"x" * 65_536 + b"\n", True),
            (b"x" * 65_534 + b"\r\n", False),
            (b"x" * 65_535 + b"\r\n", True),
            (b" " * 65_536 + b"\n", True),
            (b"x" * 65_536, True),
        ],
    )
    def test_int18_go_bufio_scanner(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, line: bytes, fails: bool
    ) -> None:
        """INT-18/go-bufio-scanner: 65,536 bytes or more before the LF (a CR counted, a blank
        line too, a last line without LF alike) fail the call, as Go's Scanner stops there."""
        (tmp_path / "s.jsonl").write_bytes(b'{"memory_id":"m","text":"alpha"}\n' + line)
        monkeypatch.chdir(tmp_path)
        result = memory_read(REQUEST, readings=Readings.of(["INT-18/go-bufio-scanner"]))
        if fails:
            assert result["error"]["code"] == "store_not_readable"
            assert result["error"]["path"] == "/store_paths/0"
        else:
            assert "package" in result

    def test_int15_javascript_keeps_lone_surrogates(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """INT-15/javascript-keep-lone-surrogates: the line is a record, hashed over the
        JSON.stringify escape (the SHA-256 Node.js 20 prints for this record), and the excerpt
        is cut from the UTF-8 bytes in which the surrogate is U+FFFD (3 bytes)."""
        (tmp_path / "s.jsonl").write_bytes(
            b'{"memory_id":"a\\ud800","text":"alpha \\udc00x","tags":["t\\ud800"],'
            b'"refs":[{"k\\udbff":"v\\ud800"}]}\n'
        )
        monkeypatch.chdir(tmp_path)
        request = {
            **REQUEST,
            "budget": {"max_excerpt_tokens": 100, "per_item_max_excerpt_tokens": 2},
        }
        pinned = memory_read(request)["package"]["selection"]
        assert pinned["selected"] == []
        assert [entry["reason"] for entry in pinned["dropped"]] == ["invalid_record_schema"]
        other = memory_read(
            request, readings=Readings.of(["INT-15/javascript-keep-lone-surrogates"])
        )
        (item,) = other["package"]["selection"]["selected"]
        assert item["memory_id"] == "a\ud800"
        assert item["record_hash"] == (
            "138da6a0c28944f282dacb5f0c2608e20c2899f121f7771cac6e680b2627d7c4"
        )
        # "alpha " + EF BF BD + "x" is 10 bytes; the cut at 8 splits U+FFFD: back to 6 bytes.
        assert (item["excerpt"], item["excerpt_tokens"]) == ("alpha ", 2)

    def test_int17_javascript_infinity_is_null(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """INT-17/javascript-infinity-null: 1e400 in refs is JSON.parse's Infinity, hashed as
        JSON.stringify's null (the SHA-256 Node.js 20 prints for this record); pinned, the
        line is invalid."""
        (tmp_path / "s.jsonl").write_bytes(
            b'{"memory_id":"m","text":"alpha","refs":[{"w":1e400}]}\n'
        )
        monkeypatch.chdir(tmp_path)
        pinned = memory_read(REQUEST)["package"]["selection"]
        assert [entry["reason"] for entry in pinned["dropped"]] == ["invalid_record_schema"]
        other = memory_read(REQUEST, readings=Readings.of(["INT-17/javascript-infinity-null"]))
        (item,) = other["package"]["selection"]["selected"]
        assert item["record_hash"] == (
            "2f3f1c07f0509817a556bae4b52b0c6482b41828cb38e2b90def0b4450a360cf"
        )

    @pytest.mark.parametrize(
        ("stamp", "normalized"),
        [
            ("2024-01-02T3:04:05Z", "2024-01-02T03:04:05Z"),
            ("2024-01-02T03:04:05,5Z", "2024-01-02T03:04:05.5Z"),
            ("2024-01-02T03:04:05-00:00", "2024-01-02T03:04:05Z"),
            ("2024-01-02T03:04:05.1234567891Z", "2024-01-02T03:04:05.123456789Z"),
            ("2024-01-02t03:04:05Z", None),
            ("2024-01-02T24:00:00Z", None),
            ("2024-01-02T03:04:05+0000", None),
        ],
    )
    def test_int20_go_time_parse(self, stamp: str, normalized: str | None) -> None:
        """INT-20/go-time-parse-rfc3339: the strings Go 1.19's time.Parse(time.RFC3339, s)
        accepted with a zero offset (the probe's output), in INT-21's normalized form."""
        from reference._timestamps import PARSERS

        parsed = PARSERS["go-time-parse-rfc3339"](stamp)
        assert (parsed[0] if parsed else None) == normalized


class TestRegister:
    """The interpretation register names the executable alternatives the reference runs."""

    def test_register_and_reference_agree(self) -> None:
        """Every ``executable`` ID in specs/interpretations.toml is one of ALTERNATIVES, on its
        own entry, pointing at one of that entry's alternatives; and every ALTERNATIVE is listed."""
        register = tomllib.loads((REPO / "specs" / "interpretations.toml").read_text("utf-8"))
        listed = {}
        for entry in register["entry"]:
            for alternative_id, index in entry.get("executable", {}).items():
                assert alternative_id.split("/", 1)[0] == entry["id"]
                assert 0 <= index < len(entry["alternatives"])
                listed[alternative_id] = index
        assert listed == {key: alt.index for key, alt in ALTERNATIVES.items()}

    def test_every_alternative_has_a_stable_id(self) -> None:
        """Every alternative of every entry has an ID (``INT-nn/<id>``), unique in its entry,
        and an executable alternative's ID is the one at its index."""
        register = tomllib.loads((REPO / "specs" / "interpretations.toml").read_text("utf-8"))
        for entry in register["entry"]:
            ids = entry.get("alternative_ids", [])
            assert len(ids) == len(entry.get("alternatives", [])), entry["id"]
            assert len(set(ids)) == len(ids), entry["id"]
            for alternative_id, index in entry.get("executable", {}).items():
                assert f"{entry['id']}/{ids[index]}" == alternative_id
