"""The streaming reference: `memory_read_to` writes exactly `memory_read`'s envelope, and the
bounded shortlist selects exactly what a whole-store sort selects (checked against the oracle)."""

from __future__ import annotations

import io
import json
import random
import time
from pathlib import Path
from typing import Any

import orjson
import pytest

from reference import memory_read, memory_read_to
from tools.oracle import oracle_read

ROOT = Path(__file__).resolve().parents[2]
MEMORY = "adam_os_data/memory"
SAMPLE_REQUESTS: dict[str, dict[str, Any]] = {
    "plain": {
        "query": "kitchen renovation quote",
        "store_paths": [f"{MEMORY}/semantic.jsonl", f"{MEMORY}/episodic.jsonl"],
        "budget": {"max_excerpt_tokens": 200, "max_items": 5},
    },
    "recency": {
        "query": "half marathon result",
        "store_paths": [f"{MEMORY}/episodic.jsonl", f"{MEMORY}/semantic.jsonl"],
        "budget": {"max_excerpt_tokens": 120, "max_items": 4},
        "scoring": {"enable_recency_weight": True, "recency_half_life_days": 14},
        "now_utc": "2025-04-01T00:00:00Z",
    },
    "nothing-selected": {
        "query": "anything",
        "store_paths": [f"{MEMORY}/procedural.jsonl"],
        "budget": {"max_excerpt_tokens": 1, "per_item_max_excerpt_tokens": 1},
    },
    "error": {"query": "x", "store_paths": ["no/such/store.jsonl"], "budget": {}},  # no tokens
    "lone-surrogate-member": {
        "query": "x",
        "store_paths": ["s"],
        "budget": {"max_excerpt_tokens": 1, "\ud800": 1},
    },
}


class TestStreamForm:
    """`memory_read_to` is `memory_read` serialized, written as it is produced."""

    @pytest.mark.parametrize("name", sorted(SAMPLE_REQUESTS))
    @pytest.mark.parametrize("pretty", [False, True])
    def test_bytes_equal_the_dict_form(
        self, name: str, pretty: bool, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """The streamed bytes are orjson's serialization of the dict result, plus a newline."""
        monkeypatch.chdir(ROOT)
        request = SAMPLE_REQUESTS[name]
        out = io.BytesIO()
        returned = memory_read_to(request, out, pretty=pretty)
        result = memory_read(request)
        option = orjson.OPT_INDENT_2 if pretty else 0
        try:
            expected = orjson.dumps(result, option=option)
        except TypeError:  # a lone surrogate: written with \u escapes
            expected = json.dumps(result, indent=2 if pretty else None, separators=None
                                  if pretty else (",", ":")).encode()  # fmt: skip
        assert out.getvalue() == expected + b"\n"
        assert returned == {k: v for k, v in result.items() if k != "package"}


def _store(rng: random.Random, lines: int) -> bytes:
    """A store built to stress the order: duplicate ids and instants, nanosecond-close and
    future timestamps, no timestamps, tiny and coinciding scores, empty texts, bad lines."""
    words = ["alpha", "beta", "gamma", "delta", "Alpha", "BETA", "x", "alphabet"]
    ids = [f"m{n}" for n in range(40)]
    instants = [
        "2024-01-01T00:00:00Z", "2024-01-01T00:00:00.000000001Z", "2024-01-01T00:00:00.000000002Z",
        "2023-06-30T12:00:00+00:00", "2031-01-01T00:00:00Z", "1999-12-31T23:59:59.5Z",
        "2024-02-29T10:00:00Z", "not a time", "",
    ]  # fmt: skip
    out = bytearray()
    for _ in range(lines):
        roll = rng.random()
        if roll < 0.02:
            out += rng.choice([b"not json", b"", b"  \t", b'{"memory_id": "bad"}', b"[1]"]) + b"\n"
            continue
        record: dict[str, Any] = {
            "memory_id": rng.choice(ids),
            "text": " ".join(rng.choices(words, k=rng.randint(0, 6))) if roll > 0.05 else "  ",
        }
        stamp = rng.choice(instants)
        if stamp:
            record["ts_utc"] = stamp
        if rng.random() < 0.6:
            record["tags"] = rng.sample(
                ["alpha", "Beta", "gamma", "misc", "ALPHA"], k=rng.randint(0, 3)
            )
        if rng.random() < 0.2:
            record["refs"] = [{"kind": "run_id", "value": f"r{rng.randint(0, 3)}"}]
        end = b"\r\n" if rng.random() < 0.1 else b"\n"
        out += json.dumps(record).encode() + end
    return bytes(out)


_SCENARIOS: list[dict[str, Any]] = [
    {"budget": {"max_excerpt_tokens": 25, "max_items": 3}},
    {"budget": {"max_excerpt_tokens": 10**6, "max_items": 7}},
    {"budget": {"max_excerpt_tokens": 10**6, "max_items": 10**6}},
    {"budget": {"max_excerpt_tokens": 40, "per_item_max_excerpt_tokens": 2}},
    {"budget": {"max_excerpt_tokens": 1, "max_items": 10**6}},
    {"budget": {"max_excerpt_tokens": 30, "max_items": 5},
     "scoring": {"enable_recency_weight": True, "recency_half_life_days": 1},
     "now_utc": "2024-01-01T00:00:00.000000003Z"},
    {"budget": {"max_excerpt_tokens": 60, "max_items": 9},
     "scoring": {"enable_recency_weight": True, "recency_half_life_days": 1},
     "now_utc": "2090-01-01T00:00:00Z"},
    {"budget": {"max_excerpt_tokens": 60, "max_items": 9},
     "scoring": {"enable_recency_weight": True, "recency_half_life_days": 10**9},
     "now_utc": "2024-03-01T00:00:00Z"},
    {"budget": {"max_excerpt_tokens": 500, "max_items": 40},
     "scoring": {"enable_recency_weight": True, "recency_half_life_days": 30,
                 "enable_tag_overlap": False},
     "now_utc": "2024-01-01T00:00:00Z"},
    {"budget": {"max_excerpt_tokens": 500, "max_items": 12},
     "scoring": {"query_terms": []}},
    {"budget": {"max_excerpt_tokens": 500, "max_items": 12},
     "scoring": {"query_terms": [], "enable_recency_weight": True, "recency_half_life_days": 2},
     "now_utc": "2024-01-02T00:00:00Z"},
]  # fmt: skip


class TestAgainstTheOracle:
    """The shortlist (pruned as it goes, fast scores, exact pow only where needed) selects and
    orders exactly as sorting every candidate by exact scores does (S6-ORDER-01..05, INT-04,
    INT-26..INT-28)."""

    @pytest.mark.parametrize("seed", [1, 2, 3])
    @pytest.mark.parametrize("scenario", range(len(_SCENARIOS)))
    def test_same_result_as_the_oracle(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: int, scenario: int
    ) -> None:
        """Stores of 1,500 lines built for ties and tiny weights give the oracle's envelope."""
        rng = random.Random(seed * 1000 + scenario)
        (tmp_path / "a.jsonl").write_bytes(_store(rng, 900))
        (tmp_path / "b.jsonl").write_bytes(_store(rng, 600))
        request: dict[str, Any] = {
            "query": "alpha beta gamma",
            "store_paths": ["b.jsonl", "a.jsonl"],
        }
        request.update(_SCENARIOS[scenario])
        monkeypatch.chdir(tmp_path)
        assert memory_read(request) == oracle_read(request, tmp_path)


class TestExactWeights:
    """INT-04: every reported weight is the correctly rounded 2**-e, whatever path computes it."""

    def test_weights_equal_the_oracle(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """Ages from nanoseconds to centuries (weights near 1, ordinary, subnormal) give the
        scores the oracle computes with 80-digit mpmath."""
        rng = random.Random(404)
        now_ns = 1_900_000_000 * 10**9
        lines = []
        for index in range(400):
            age_ns = int(10 ** rng.uniform(0, 19.5)) if index % 4 else rng.randrange(1, 10**6)
            seconds, nanos = divmod(now_ns - age_ns, 10**9)
            stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds))
            record = {"memory_id": f"m{index}", "text": "x", "ts_utc": f"{stamp}.{nanos:09d}Z"}
            lines.append(json.dumps(record))
        (tmp_path / "s.jsonl").write_text("\n".join(lines) + "\n")
        now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now_ns // 10**9))
        monkeypatch.chdir(tmp_path)
        for half_life in (1, 30, 100_000):
            request = {
                "query": "nothing matches",
                "store_paths": ["s.jsonl"],
                "budget": {"max_excerpt_tokens": 10**6, "max_items": 10**6},
                "scoring": {"enable_recency_weight": True, "recency_half_life_days": half_life},
                "now_utc": now,
            }
            assert memory_read(request) == oracle_read(request, tmp_path)
