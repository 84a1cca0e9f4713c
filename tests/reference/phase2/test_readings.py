"""The Phase 2 readings as values: pinned defaults, executable alternatives by stable ID, and
what each alternative changes, worked from the register's own words (reference/phase2/
_readings.py, specs/phase2/interpretations.toml)."""

from __future__ import annotations

import functools
import json
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from conformance.phase2 import (
    CheckReadings,
    expect_from_observed,
    load_properties,
    property_failures,
    trim_order_failure,
)
from conformance.phase2._invariants import PROPERTY_READINGS
from reference.phase2 import (
    ALTERNATIVES,
    PINNED,
    POLICY_ALTERNATIVE,
    POLICY_SNIPPET,
    Readings,
    UnknownReading,
    run_vector_call,
)
from tools import readings as readings_tool_module
from tools.generate.phase2.build import ANOTHER_POLICY, alternative_changes, read_corpus
from tools.phase2_oracle import oracle_expect

ROOT = Path(__file__).resolve().parents[3]
REGISTER = tomllib.loads((ROOT / "specs" / "phase2" / "interpretations.toml").read_text("utf-8"))
ENTRIES = {entry["id"]: entry for entry in REGISTER["entry"]}
T = "2024-05-01T10:00:00Z"
OTHER_POLICY = "Use the memory below; newer facts win."
CORPUS = read_corpus()


def _entity(row_id: int, title: str, at: str = T, user: str = "u1") -> dict[str, Any]:
    return {"id": row_id, "user_id": user, "kind": "task", "title": title, "updated_at": at}


def _link(row_id: int, a: int, b: int) -> dict[str, Any]:
    return {"id": row_id, "from_entity_id": a, "to_entity_id": b}


def _turn(row_id: int, user: str, at: str, text: str = "hi") -> dict[str, Any]:
    return {"id": row_id, "user_id": user, "chat_id": "c1", "text": text, "created_at": at}


def _context(fixture: dict[str, Any], query: str, readings: Readings, **more: str) -> Any:
    """The body of one context call of chat c1 (user_id u1 unless overridden)."""
    params = [["chat_id", "c1"], ["query", query], *([k, v] for k, v in more.items())]
    if "user_id" not in more:
        params.append(["user_id", "u1"])
    observed = run_vector_call(fixture, {"op": "context", "params": params}, readings=readings)
    return observed["body"]


def _layer(body: Any, layer: str) -> list[Any]:
    return [(block["id"], block["text"]) for block in body["context"] if block["layer"] == layer]


#: Every reading the checks run: each executable alternative, one with a value (the register's
#: ``parameters``) once per value of its ``check`` (``P2-INT-06/several(n=3)``).
READINGS = sorted(
    f"{alt}({entry['parameters'][alt]['name']}={value})"
    if alt in (entry.get("parameters") or {})
    else alt
    for entry in REGISTER["entry"]
    for alt in entry.get("executable", [])
    for value in (entry.get("parameters") or {}).get(alt, {}).get("check", [None])
)


def _summary(row_id: int, text: str, at: str, user: str = "u1") -> dict[str, Any]:
    return {
        "id": row_id,
        "user_id": user,
        "chat_id": "c1",
        "summary_text": text,
        "facts_json": [],
        "source_event_ids": [],
        "created_at": at,
    }


class TestValues:
    """Readings() is the pinned readings; Readings.of switches alternatives on by ID."""

    def test_defaults_are_pinned(self) -> None:
        """The default value follows no alternative and carries the pinned policy text."""
        assert Readings() == PINNED
        assert PINNED.ids == ()
        assert PINNED.policy == POLICY_SNIPPET

    @pytest.mark.parametrize("alternative", READINGS)
    def test_round_trip(self, alternative: str) -> None:
        """Readings.of([ID]).ids is (ID,) for every executable alternative."""
        policy = OTHER_POLICY if alternative == POLICY_ALTERNATIVE else None
        assert Readings.of([alternative], policy=policy).ids == (alternative,)

    def test_refusals(self) -> None:
        """An unknown ID, two readings of one entry, and a parameter without its value."""
        with pytest.raises(UnknownReading, match="P2-INT-08/nearest"):
            Readings.of(["P2-INT-08/nearest"])
        with pytest.raises(ValueError, match="choose one"):
            Readings.of(["P2-INT-08/one-hop", "P2-INT-08/directed"])
        with pytest.raises(ValueError, match="policy text"):
            Readings.of([POLICY_ALTERNATIVE])
        for without in ("P2-INT-06/several", "P2-INT-06/several(n=1)", "P2-INT-06/several(k=3)"):
            with pytest.raises(UnknownReading, match="P2-INT-06/several"):
                Readings.of([without])

    def test_policy_alone_implies_its_alternative(self) -> None:
        """A policy text given alone is P2-INT-04/implementation-text."""
        assert Readings.of([], policy=OTHER_POLICY).ids == (POLICY_ALTERNATIVE,)


class TestRegister:
    """The register's ``executable`` keys and ALTERNATIVES name the same IDs."""

    def test_same_ids(self) -> None:
        """Every executable ID of the register is in ALTERNATIVES, and nothing else is."""
        listed = {alt for entry in REGISTER["entry"] for alt in entry.get("executable", [])}
        assert listed == set(ALTERNATIVES)

    @pytest.mark.parametrize("alternative", sorted(ALTERNATIVES))
    def test_index_points_at_the_register(self, alternative: str) -> None:
        """Each alternative names its entry and an existing ``alternatives[index]``, whose
        stable name in ``alternative_ids`` is the ID's."""
        found = ALTERNATIVES[alternative]
        entry = ENTRIES[found.entry]
        assert alternative in entry["executable"]
        assert 0 <= found.index < len(entry["alternatives"])
        assert f"{found.entry}/{entry['alternative_ids'][found.index]}" == alternative


class TestWorked:
    """What each alternative changes, on fixtures worked by hand from the register's text."""

    def test_several_summaries(self) -> None:
        """P2-INT-06/several(n=N): the N latest summaries of the user in the chat, oldest first,
        counted in sources.summaries; trimming removes the oldest first, one per iteration
        (P2-INT-10), after the hot turns and entities (P2-INT-11). Tokens by P2-INT-01:
        "one", "two", "four" 1 each, "three" 2; policy 19 and query "hi" 1."""
        fixture = {
            "memory_summaries": [
                _summary(1, "one", "2024-05-01T08:00:00Z"),
                _summary(2, "two", "2024-05-01T09:00:00Z"),
                _summary(3, "three", "2024-05-01T10:00:00Z"),
                _summary(4, "four", "2024-05-01T11:00:00Z"),
                _summary(5, "other user", "2024-05-01T12:00:00Z", user="u2"),
            ]
        }
        three = Readings.of(["P2-INT-06/several(n=3)"])
        assert _layer(_context(fixture, "hi", PINNED), "summary") == [(4, "four")]
        body = _context(fixture, "hi", three)
        assert _layer(body, "summary") == [(2, "two"), (3, "three"), (4, "four")]
        assert body["sources"]["summaries"] == 3
        assert body["budget"]["estimated_used"] == 19 + 1 + 2 + 1 + 1
        every = _context(fixture, "hi", Readings.of(["P2-INT-06/several(n=9)"]))
        assert [row_id for row_id, _ in _layer(every, "summary")] == [1, 2, 3, 4]
        body = _context(fixture, "hi", three, max_tokens="23")  # 24 > 23: "two" goes
        assert _layer(body, "summary") == [(3, "three"), (4, "four")]
        assert (body["sources"]["summaries"], body["budget"]["estimated_used"]) == (2, 23)
        body = _context(fixture, "hi", three, max_tokens="22")  # 23 > 22: "three" goes too
        assert _layer(body, "summary") == [(4, "four")]
        assert (body["sources"]["summaries"], body["budget"]["estimated_used"]) == (1, 21)
        for reading in ("P2-INT-06/several(n=3)", "P2-INT-06/several(n=9)"):
            params = [["chat_id", "c1"], ["user_id", "u1"], ["query", "hi"]]
            expected = oracle_expect(
                fixture, {"op": "context", "params": params}, alternatives=[reading]
            )
            assert expected["body"] == _context(fixture, "hi", Readings.of([reading]))

    def test_block_overhead(self) -> None:
        """P2-INT-03/block-overhead(tokens=K): the draft's estimate counts K more per block
        (estimated_used and trimming); each block keeps tokens = estimate(text). Policy 19,
        summary "four" 1, query "hi" 1: 21 pinned, 21 + 3 * 4 = 33 with K = 4."""
        fixture = {"memory_summaries": [_summary(4, "four", "2024-05-01T11:00:00Z")]}
        four = Readings.of(["P2-INT-03/block-overhead(tokens=4)"])
        assert _context(fixture, "hi", PINNED)["budget"]["estimated_used"] == 21
        body = _context(fixture, "hi", four)
        assert [block["tokens"] for block in body["context"]] == [19, 1, 1]
        assert body["budget"]["estimated_used"] == 33
        body = _context(fixture, "hi", four, max_tokens="32")  # 33 > 32: the summary goes
        assert _layer(body, "summary") == []
        assert (body["sources"]["summaries"], body["budget"]["estimated_used"]) == (0, 28)
        with pytest.raises(UnknownReading, match="tokens"):
            Readings.of(["P2-INT-03/block-overhead(tokens=0)"])

    def test_entities(self) -> None:
        """P2-INT-08: seed 1 ("passport") -> 2 -> 3 by links 1->2 and 3->2, entity 4 unlinked;
        the pinned walk reaches 1, 2, 3; one hop 1, 2; directed 1, 2; all by recency every
        entity (the most recent first); Unicode terms, case-folded, seed 5 ("Strasse") for
        "STRAẞE"."""
        fixture = {
            "entities": [
                _entity(1, "Renew passport", "2024-01-01T00:00:00Z"),
                _entity(2, "Book flight", "2024-01-02T00:00:00Z"),
                _entity(3, "Pack bags", "2024-01-03T00:00:00Z"),
                _entity(4, "Water plants", "2024-01-04T00:00:00Z"),
                _entity(5, "Strasse fegen", "2024-01-05T00:00:00Z"),
            ],
            "entity_links": [_link(1, 1, 2), _link(2, 3, 2)],
        }

        def ids(alternatives: list[str], query: str = "passport") -> list[int]:
            body = _context(fixture, query, Readings.of(alternatives))
            return [row_id for row_id, _ in _layer(body, "entity")]

        assert ids([]) == [1, 2, 3]  # distances 0, 1 and 2
        assert ids(["P2-INT-08/one-hop"]) == [1, 2]
        assert ids(["P2-INT-08/directed"]) == [1, 2]
        assert ids(["P2-INT-08/all-by-recency"]) == [5, 4, 3, 2, 1]
        assert ids([], "straße") == []  # ASCII terms "stra", "e": no title has either
        assert ids(["P2-INT-08/unicode-terms"], "STRAẞE") == [5]  # case-folded: "strasse"

    def test_default_user(self) -> None:
        """P2-INT-16: without user_id the pinned user is the chat_id; the alternative takes the
        owner of the chat's most recent inbox item."""
        fixture = {
            "inbox_items": [
                _turn(1, "u7", "2024-01-01T00:00:00Z", "older"),
                _turn(2, "u8", "2024-01-02T00:00:00Z", "newest"),
            ]
        }
        params = {"op": "context", "params": [["chat_id", "c1"], ["query", "q"]]}
        pinned = run_vector_call(fixture, params)["body"]
        owner = Readings.of(["P2-INT-16/latest-inbox-owner"])
        other = run_vector_call(fixture, params, readings=owner)["body"]
        assert _layer(pinned, "hot_turn") == []
        assert _layer(other, "hot_turn") == [(2, "newest")]

    def test_oldest_inbox_owner(self) -> None:
        """P2-INT-16/oldest-inbox-owner: the owner of the chat's oldest inbox item by created_at
        (not by id); the chat_id when the chat has none."""
        fixture = {
            "inbox_items": [
                _turn(1, "u8", "2024-01-02T00:00:00Z", "newest"),
                _turn(2, "u7", "2024-01-01T00:00:00Z", "older"),
            ]
        }
        params = {"op": "context", "params": [["chat_id", "c1"], ["query", "q"]]}
        oldest = Readings.of(["P2-INT-16/oldest-inbox-owner"])
        assert _layer(run_vector_call(fixture, params, readings=oldest)["body"], "hot_turn") == [
            (2, "older")
        ]
        empty = run_vector_call({}, params, readings=oldest)["body"]
        assert _layer(empty, "hot_turn") == []

    @pytest.mark.parametrize(
        ("alternative", "status", "query"),
        [
            (None, 400, None),
            ("P2-INT-15/last-value", 200, "b"),
            ("P2-INT-15/first-value", 200, "a"),
        ],
    )
    def test_repeated_query(self, alternative: str | None, status: int, query: str | None) -> None:
        """P2-INT-15: a query given twice with different values is refused (pinned), or its
        last or first value is the query."""
        call = {"op": "context", "params": [["chat_id", "c1"], ["query", "a"], ["query", "b"]]}
        readings = Readings.of([alternative] if alternative else [])
        observed = run_vector_call({}, call, readings=readings)
        assert observed["status"] == status
        if query is not None:
            assert observed["body"]["context"][-1]["text"] == query

    @pytest.mark.parametrize(
        ("params", "pinned", "absent"),
        [
            ([["chat_id", ""], ["query", "q"]], "invalid_parameter", "missing_parameter"),
            ([["chat_id", "c1"], ["query", ""]], "invalid_parameter", "missing_parameter"),
            ([["chat_id", "c1"], ["query", "q"], ["user_id", ""]], "invalid_parameter", None),
            ([["chat_id", "c1"], ["query", "q"], ["max_tokens", ""]], "invalid_parameter",
             "invalid_parameter"),
        ],
    )  # fmt: skip
    def test_empty_absent(self, params: list[list[str]], pinned: str, absent: str | None) -> None:
        """P2-INT-17/empty-absent: an empty chat_id or query is missing_parameter, an empty
        user_id the user of a call without one (200); max_tokens is P2-INT-14's, unchanged."""
        call = {"op": "context", "params": params}
        assert run_vector_call({}, call)["body"]["error"]["code"] == pinned
        observed = run_vector_call({}, call, readings=Readings.of(["P2-INT-17/empty-absent"]))
        if absent is None:
            assert observed["status"] == 200
        else:
            assert observed["body"]["error"]["code"] == absent

    @pytest.mark.parametrize(
        ("query", "alternative", "status", "text"),
        [
            ("  passport ", None, 200, "  passport "),
            ("  passport ", "P2-INT-17/trim", 200, "passport"),
            ("   ", None, 400, None),
            ("   ", "P2-INT-17/empty-only", 200, "   "),
            ("", "P2-INT-17/empty-only", 400, None),
            ("\x1f", None, 200, "\x1f"),
            ("\x1f", "P2-INT-02/python", 400, None),
            ("\u00a0", "P2-INT-02/ascii", 200, "\u00a0"),
        ],
    )
    def test_query(
        self, query: str, alternative: str | None, status: int, text: str | None
    ) -> None:
        """P2-INT-17 and P2-INT-02 on the query: trimmed or exact, what is blank."""
        readings = Readings.of([alternative] if alternative else [])
        call = {"op": "context", "params": [["chat_id", "c1"], ["query", query]]}
        observed = run_vector_call({}, call, readings=readings)
        assert observed["status"] == status
        if text is not None:
            assert observed["body"]["context"][-1]["text"] == text

    def test_estimator_table(self) -> None:
        """P2-INT-02: "a\\x1fb c" is 2 words under White_Space, 3 under Python's table, and
        "a\\u00a0b" 2 words under White_Space, 1 under ASCII's (estimate = max(words, ...))."""
        query = "a\x1fb c d\u00a0e"  # 9 code points: ceil(9 / 4) = 3
        pinned = _context({}, query, PINNED)["context"][-1]["tokens"]
        python = _context({}, query, Readings.of(["P2-INT-02/python"]))["context"][-1]["tokens"]
        ascii_ = _context({}, query, Readings.of(["P2-INT-02/ascii"]))["context"][-1]["tokens"]
        assert (pinned, python, ascii_) == (4, 5, 3)

    @pytest.mark.parametrize(
        ("text", "expected"),
        [
            ("a b c d e", {"pinned": 5, "P2-INT-01/ceil-chars": 3,
                           "P2-INT-01/utf16-units": 5, "P2-INT-01/ceil-utf16-units": 3}),
            ("\U0001f600", {"pinned": 1, "P2-INT-01/ceil-chars": 1,
                            "P2-INT-01/utf16-units": 1, "P2-INT-01/ceil-utf16-units": 1}),
            ("\U0001f600" * 3, {"pinned": 1, "P2-INT-01/ceil-chars": 1,
                                "P2-INT-01/utf16-units": 2, "P2-INT-01/ceil-utf16-units": 2}),
            ("a \U0001f600 b \U0001f600 c", {"pinned": 5, "P2-INT-01/ceil-chars": 3,
                                             "P2-INT-01/utf16-units": 5,
                                             "P2-INT-01/ceil-utf16-units": 3}),
        ],
    )  # fmt: skip
    def test_ceil_utf16_units(self, text: str, expected: dict[str, int]) -> None:
        """P2-INT-01/ceil-utf16-units is JavaScript's Math.ceil(s.length / 4): UTF-16 units as
        utf16-units counts them, with no word count as ceil-chars has none."""
        for alternative, tokens in expected.items():
            readings = PINNED if alternative == "pinned" else Readings.of([alternative])
            assert _context({}, text, readings)["context"][-1]["tokens"] == tokens, alternative

    def test_policy_text(self) -> None:
        """P2-INT-04/implementation-text: the policy block carries the given words and their
        estimate, and the budget counts them."""
        body = _context({}, "q", Readings.of([POLICY_ALTERNATIVE], policy=OTHER_POLICY))
        assert body["context"][0] == {"layer": "policy", "id": None, "text": OTHER_POLICY,
                                      "tokens": 10}  # fmt: skip
        assert body["budget"]["estimated_used"] == 10 + 1


class TestServeProtocol:
    """``serve-protocol --readings ID,ID --policy-json JSON`` runs the reference under them."""

    def test_readings_on_the_command_line(self) -> None:
        """The policy text given as JSON is the policy block's text."""
        message = {
            "cmd": "run",
            "seq": 1,
            "fixture": {},
            "call": {"op": "context", "params": [["chat_id", "c1"], ["query", " q "]]},
        }
        lines = "\n".join(
            json.dumps(m)
            for m in (
                {"cmd": "start", "protocol": "phase6-adapter/1"},
                message,
                {"cmd": "stop"},
            )
        )
        done = subprocess.run(
            [sys.executable, "-m", "reference.phase2", "serve-protocol",
             "--readings", "P2-INT-17/trim", "--policy-json", json.dumps(OTHER_POLICY)],
            input=lines, capture_output=True, text=True, check=True, cwd=ROOT, timeout=60,
        )  # fmt: skip
        reply = json.loads(done.stdout.splitlines()[1])
        texts = [block["text"] for block in reply["result"]["body"]["context"]]
        assert texts == [OTHER_POLICY, "q"]


@pytest.fixture(scope="module")
def changes() -> dict[str, list[str]]:
    """Executable alternative -> the corpus vectors whose expected output it changes."""
    return alternative_changes(CORPUS)


class TestCoverage:
    """Every executable alternative can be told from the pinned reading by some vector."""

    @pytest.mark.parametrize("alternative", READINGS)
    def test_changes_a_vector(self, changes: dict[str, list[str]], alternative: str) -> None:
        """The reference under the alternative expects something else on at least one vector
        (else no certification could tell it from the pinned reading)."""
        assert changes[alternative], f"{alternative} changes no vector's expected output"

    @pytest.mark.parametrize("alternative", READINGS)
    def test_changed_vectors_name_the_entry(
        self, changes: dict[str, list[str]], alternative: str
    ) -> None:
        """Every vector the alternative changes lists its entry (a parameter alternative too:
        the expectation holds a value the implementation supplies), so labels are derived."""
        labels = {vector["id"]: vector["interpretations"] for vector in CORPUS}
        entry = alternative.split("/", 1)[0]
        assert [i for i in changes[alternative] if entry not in labels[i]] == []

    def test_readings_tool_check(self) -> None:
        """``python -m tools readings --profile phase2-context --check`` passes on the
        committed corpus and specs/phase2/readings-coverage.md."""
        assert readings_tool_module.main(["--profile", "phase2-context", "--check"]) == 0

    def test_readings_tool_finds_a_missing_label(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """A vector an alternative changes without naming its entry fails the check."""
        found, labels = readings_tool_module.phase2_changed_by()
        vector_id = found["P2-INT-04/implementation-text"][0]
        labels[vector_id] = [i for i in labels[vector_id] if i != "P2-INT-04"]
        monkeypatch.setattr(readings_tool_module, "phase2_changed_by", lambda: (found, labels))
        missing = readings_tool_module.phase2_missing_labels(found, labels)
        assert f"{vector_id}: P2-INT-04/implementation-text" in missing
        assert {line.split(": ", 1)[0] for line in missing} == {vector_id}
        assert readings_tool_module.main(["--profile", "phase2-context", "--check"]) == 1


class TestOracle:
    """The independent oracle implements the same alternatives (from the register's words)."""

    @pytest.mark.parametrize("alternative", READINGS)
    def test_agrees_with_the_reference(
        self, changes: dict[str, list[str]], alternative: str
    ) -> None:
        """Under each alternative the oracle changes exactly the vectors the reference changes,
        and expects there what the reference returns."""
        policy = ANOTHER_POLICY if alternative == POLICY_ALTERNATIVE else None
        readings = Readings.of([alternative], policy=policy)
        oracle_changes, disagree = [], []
        for vector in CORPUS:
            fixture, call = vector["input"]["fixture"], vector["input"]["call"]
            expected = oracle_expect(fixture, call, alternatives=[alternative], policy=policy)
            if expected == vector["expect"]:
                continue
            oracle_changes.append(vector["id"])
            observed = run_vector_call(fixture, call, readings=readings)
            if expect_from_observed(call, observed) != expected:
                disagree.append(vector["id"])
        assert sorted(oracle_changes) == sorted(changes[alternative])
        assert disagree == []


@functools.cache
def _broken_properties(alternative: str, profile: bool) -> dict[str, list[str]]:
    """Property -> the corpus vectors on which the reference under ``alternative`` breaks it,
    the checks reading the profile [alternative] (``profile``) or the pinned readings
    (trim-order: each budgeted context call against the same call without max_tokens)."""
    policy = ANOTHER_POLICY if alternative == POLICY_ALTERNATIVE else None
    readings = Readings.of([alternative], policy=policy)
    checks = CheckReadings.of([alternative], policy=policy) if profile else CheckReadings()
    broken: dict[str, list[str]] = {}
    for vector in CORPUS:
        fixture, call = vector["input"]["fixture"], vector["input"]["call"]
        observed = run_vector_call(fixture, call, readings=readings)
        found = {name for name, _ in property_failures(fixture, call, observed, readings=checks)}
        if call["op"] == "context" and any(n == "max_tokens" for n, _ in call["params"]):
            untrimmed = {**call, "params": [p for p in call["params"] if p[0] != "max_tokens"]}
            larger = run_vector_call(fixture, untrimmed, readings=readings)
            if trim_order_failure(observed, larger, readings=checks) is not None:
                found.add("trim-order")
        for name in found:
            broken.setdefault(name, []).append(vector["id"])
    return broken


#: Executable alternatives the register rejects -> the clause each contradicts.
_REJECTED = {
    alternative: why.split(":", 1)[0]
    for entry in REGISTER["entry"]
    for alternative, why in (entry.get("rejected") or {}).items()
    if alternative in ALTERNATIVES
}


def _contradicted(alternative: str) -> set[str]:
    """The properties of the clause a rejected ``alternative`` contradicts (empty otherwise)."""
    clause = _REJECTED.get(alternative)
    return {prop.name for prop in load_properties() if clause in prop.clauses}


class TestPropertiesTakeTheProfile:
    """Every Phase 2 property either needs no reading or takes it from the reading profile
    (issue 21): the reference under any executable alternative breaks none when the checks
    follow that alternative, and one a check reads breaks only the properties that say so
    (PROPERTY_READINGS) when the checks keep the pinned readings."""

    @pytest.mark.parametrize("alternative", READINGS)
    def test_under_the_profile(self, alternative: str) -> None:
        """The checks under the profile [alternative] find nothing on the whole corpus, but a
        rejected alternative breaks the properties of the clause it contradicts (and only
        those): it is named, and non-compliant."""
        broken = _broken_properties(alternative, profile=True)
        assert [name for name in broken if name not in _contradicted(alternative)] == []

    @pytest.mark.parametrize("alternative", READINGS)
    def test_pinned_checks_break_only_what_reads_it(self, alternative: str) -> None:
        """Under the pinned checks, an alternative breaks only properties whose check reads its
        entry (PROPERTY_READINGS), or, rejected, those of the clause it contradicts: any other
        property needs no reading."""
        entry = alternative.split("/", 1)[0]
        broken = _broken_properties(alternative, profile=False)
        allowed = _contradicted(alternative)
        assert [
            n for n in broken if entry not in PROPERTY_READINGS.get(n, ()) and n not in allowed
        ] == []

    @pytest.mark.parametrize("alternative", sorted(_REJECTED))
    def test_a_rejected_reading_breaks_its_clause(self, alternative: str) -> None:
        """A rejected executable alternative breaks a property of the MUST it contradicts on the
        corpus, under its own profile: the contradiction is real."""
        broken = _broken_properties(alternative, profile=True)
        assert set(broken) & _contradicted(alternative)

    def test_the_readings_listed_are_read(self) -> None:
        """Every property PROPERTY_READINGS lists is broken under the pinned checks by an
        alternative of an entry it lists: the dependence is real, so the profile must be taken.
        (P2-INT-02 reaches policy-query-present only with P2-INT-17/trim: what the trimmed
        query loses; no single alternative shows it.)"""
        shown: dict[str, set[str]] = {}
        for alternative in READINGS:
            if alternative in _REJECTED:
                continue
            for name in _broken_properties(alternative, profile=False):
                shown.setdefault(name, set()).add(alternative.split("/", 1)[0])
        assert set(shown) == set(PROPERTY_READINGS)
        assert all(shown[name] <= set(PROPERTY_READINGS[name]) for name in shown)
