"""Attribution: which listed reading, if any, *reproduces* each failure -- evidence, not labels.

A vector's ``interpretations`` say which register entries its expected result rests on, but a
label cannot tell "reads INT-27 the other way" from "has a bug near INT-27". So for every
vector an implementation failed, the certifier runs the bundled reference under each
executable alternative of the interpretation register (``executable`` in
``specs/interpretations.toml``; ``reference/_readings.py``), served like any implementation
(``python -m reference serve --readings-per-run``, each run naming its alternatives: one
process serves them all), and judges what the implementation returned
against what the reference returned under that alternative, with the same comparison as the
vector's own expectation. An alternative that gives exactly what the implementation gave
*explains* that failure.

1. Every failing vector (a mismatch only: an errored vector, a store mutation or a
   nondeterministic reply is never a reading) is run under every executable alternative that
   bears on it: its entry is among the vector's ``interpretations`` (the kit's labels are
   derived from what the alternatives change, ``tools readings --check``), or it changes only
   hashes, of every package (``hashes_only`` in the register). Another corpus's labels are
   trusted the same way.
2. The implementation's **reading profile**: for each entry, the alternative that explains
   the most of its failures. An alternative that misses a failure only it predicts (a
   failing vector it changes and no other alternative with evidence of its own does; those
   may need a combination, step 3), or reproduces fewer than half of
   the failures it predicts, is not followed: its matches are coincidences (a plain bug that
   happens to equal it on some vectors).
3. A failure no single alternative explains is run under the whole profile (readings combine:
   verbatim query terms *and* another drop reason).
4. What is left is explained by no listed reading: a bug, or a reading the register does not
   list yet (the report says how to propose one).
5. One consistent reading per entry: the whole corpus is run under each profile alternative,
   and a vector it changes that the implementation answered the pinned way is a
   contradiction (it follows the reading only in part, which no listed reading describes).

A **parameterized** alternative (its words leave a value free: "the first N drops", "a fixed
number of decimals"; ``parameters`` in the register) is tried once per value the failures
themselves suggest: :data:`INFERENCES` reads candidate values from what the implementation
returned on each failing vector (the length of a dropped list that is a proper prefix of the
expected one; the decimals a score is rounded to), the few values most failures suggest become
readings with their value (``INT-28/list-first-n-drops(n=3)``), and each is then run like any
other alternative, on the vectors it was read from and those its entry labels. The profile
keeps one reading per entry, so one value across the corpus: an implementation listing three
drops here and five there follows no listed reading.

An implementation may **declare** its readings (``readings`` in its start reply, or
``certify --readings FILE``): the declaration is then its profile, and a failure only an
undeclared alternative reproduces, or a declared alternative it does not follow, is a
contradiction of its own declaration.

The reference is run as a subprocess through the adapter protocol: the harness never imports
it. A reply the reference cannot give (the harness's own fault) leaves the failure
unexplained and is said in :attr:`Attribution.faults`.
"""

from __future__ import annotations

import math
import shlex
import sys
import threading
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from conformance._errors import AdapterError, CorpusError
from conformance._kit import dumps, loads
from conformance.adapters import SubprocessAdapter, open_adapter
from conformance.corpus import Vector, Workspace, vector_from_json
from conformance.registers import ReadingParameter, load_interpretations, split_reading_id
from conformance.run._compare import compare_result, first_difference
from conformance.run._results import FailureKind, Outcome, VectorResult
from conformance.run._sections import Section

__all__ = [
    "INFERENCES",
    "MAX_KEPT_ACTUAL",
    "Attribution",
    "attribute",
    "executable_alternatives",
    "explain_section",
    "inconsistency_note",
    "keep_actual",
    "reading_parameters",
    "readings_answering",
    "rejected_alternatives",
]

#: The largest reply kept as evidence for one failing vector (larger: not attributed).
MAX_KEPT_ACTUAL = 1 << 20
#: How a fault says that the reference could not be started under a reading: no evidence at
#: all then, so the verdict falls back to the labels instead of calling everything a bug.
_NOT_STARTED = "the reference did not start"


def keep_actual(actual: Any) -> bytes | None:
    """``actual`` as compact JSON when it is small enough to keep as evidence, else None."""
    try:
        data = dumps(actual)
    except (TypeError, ValueError):
        return None
    return data if len(data) <= MAX_KEPT_ACTUAL else None


def hashes_only_alternatives() -> frozenset[str]:
    """The executable alternatives that change only the hashes, of (nearly) every package
    (``hashes_only`` in the register): a vector need not list their entries."""
    return frozenset(alt for entry in load_interpretations() for alt in entry.hashes_only)


def rejected_alternatives() -> dict[str, str]:
    """Alternative ID -> the clause it contradicts, for the register's rejected readings."""
    return {alt: why for entry in load_interpretations() for alt, why in entry.rejected.items()}


def executable_alternatives() -> tuple[str, ...]:
    """Every executable alternative named by the interpretation register, in register order."""
    return tuple(alt for entry in load_interpretations() for alt in entry.executable)


def reading_parameters() -> dict[str, ReadingParameter]:
    """Parameterized alternative ID -> its parameter (``parameters`` in the register)."""
    return {alt: p for entry in load_interpretations() for alt, p in entry.parameters.items()}


# ------------------------------------------------------------ the values of a parameter


def _selection(value: Any, part: str) -> list[Any] | None:
    """A package result's ``selection[part]`` list, or None."""
    package = value.get("package") if isinstance(value, dict) else None
    selection = package.get("selection") if isinstance(package, dict) else None
    found = selection.get(part) if isinstance(selection, dict) else None
    return found if isinstance(found, list) else None


def _entry_key(entry: Any) -> Any:
    """A dropped entry as the prefix test compares it (store paths are the workspace's)."""
    if not isinstance(entry, dict):
        return entry
    return (entry.get("memory_id"), entry.get("record_hash"), entry.get("reason"))


def _first_drops(vector: Vector, actual: Any) -> set[int]:
    """INT-28/list-first-n-drops ("Only list the first N drops"): n is the length of the
    dropped list returned when it is a proper prefix of the one expected."""
    expected, got = _selection(vector.expect, "dropped"), _selection(actual, "dropped")
    if expected is None or got is None or len(got) >= len(expected):
        return set()
    if [_entry_key(e) for e in expected[: len(got)]] != [_entry_key(e) for e in got]:
        return set()
    return {len(got)}


def _score_decimals(vector: Vector, actual: Any) -> set[int]:
    """INT-04/round-recency-bonus-fixed ("Round recency_bonus to a fixed number of decimals
    before adding"): the decimals d (0..30) with which every selected score returned that
    differs from the one expected (same memory_id, same place) is within half a unit of the
    d-th decimal of it and is itself a number of d decimals (up to a few ulp of float noise)."""
    expected, got = _selection(vector.expect, "selected"), _selection(actual, "selected")
    if expected is None or got is None:
        return set()
    pairs = [
        (float(e["score"]), float(a["score"]))
        for e, a in zip(expected, got, strict=False)
        if isinstance(e, dict)
        and isinstance(a, dict)
        and e.get("memory_id") == a.get("memory_id")
        and isinstance(e.get("score"), int | float)
        and isinstance(a.get("score"), int | float)
        and not isinstance(a.get("score"), bool)
        and e["score"] != a["score"]
    ]
    if not pairs:
        return set()
    return {
        decimals
        for decimals in range(31)
        if all(
            abs(a - e) <= 0.5 * 10.0**-decimals + 4 * math.ulp(e)
            and abs(round(a, decimals) - a) <= 4 * math.ulp(a)
            for e, a in pairs
        )
    }


#: Parameterized alternative -> how the values it may have been run with are read from one
#: failing vector and what the implementation returned on it (each candidate is then run).
INFERENCES: dict[str, Callable[[Vector, Any], set[int]]] = {
    "INT-04/round-recency-bonus-fixed": _score_decimals,
    "INT-28/list-first-n-drops": _first_drops,
}
#: How many values of one parameter are tried at most (those most failing vectors suggest).
MAX_VALUES_TRIED = 3


def _values(
    parameters: Mapping[str, ReadingParameter], candidates: Sequence[tuple[Vector, Any]]
) -> tuple[dict[str, list[str]], dict[str, set[str]]]:
    """(parameterized alternative -> the readings with a value to try, most suggested first;
    reading -> the failing vectors that suggested its value)."""
    readings: dict[str, list[str]] = {}
    sources: dict[str, set[str]] = {}
    for alternative, parameter in parameters.items():
        infer = INFERENCES.get(alternative)
        votes: Counter[int] = Counter()
        suggested: dict[int, set[str]] = {}
        for vector, actual in candidates:
            for value in infer(vector, actual) if infer is not None else ():
                if parameter.takes(value):
                    votes[value] += 1
                    suggested.setdefault(value, set()).add(vector.id)
        chosen = sorted(votes, key=lambda value: (-votes[value], value))[:MAX_VALUES_TRIED]
        readings[alternative] = [parameter.instance(alternative, value) for value in chosen]
        for value in chosen:
            sources[parameter.instance(alternative, value)] = suggested[value]
    return readings, sources


def _declared_value(reading: str, parameters: Mapping[str, ReadingParameter]) -> bool:
    """Whether ``reading`` is a parameterized alternative with a value its parameter takes."""
    base, name, value = split_reading_id(reading)
    parameter = parameters.get(base)
    return (
        parameter is not None
        and name == parameter.name
        and value is not None
        and (parameter.takes(value))
    )


#: The bundled reference answering each run under the readings the run names.
READINGS_SERVER = f"cmd:{shlex.quote(sys.executable)} -m reference serve --readings-per-run"


@dataclass(frozen=True)
class Attribution:
    """What evidence says of the failures of one run.

    ``explained``: vector ID -> the alternatives whose reference output equals what the
    implementation returned; ``profile``: one alternative per entry, the readings the
    implementation follows; ``unexplained``: failing vectors no listed reading reproduces.
    """

    tried: tuple[str, ...] = ()
    profile: tuple[str, ...] = ()
    explained: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    unexplained: tuple[str, ...] = ()
    faults: tuple[str, ...] = ()
    #: Whether the failures were examined at all (False: no attribution ran, e.g. the run
    #: broke, or the profile has no executable readings): the verdict then infers from labels.
    examined: bool = False
    #: The readings the implementation declared (handshake ``readings``, ``--readings``).
    declared: tuple[str, ...] | None = None
    #: Where the implementation contradicts its declaration, or follows a reading only in
    #: part: each one a reason the run is not compliant.
    contradictions: tuple[str, ...] = ()
    #: Profile alternative -> passing vectors it changes (answered the pinned way).
    inconsistent: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    @property
    def ran(self) -> bool:
        """Whether any failure was examined."""
        return bool(self.explained or self.unexplained)

    def reading_of(self, vector_id: str) -> tuple[str, ...] | None:
        """The alternatives explaining one vector, or None when none does."""
        return self.explained.get(vector_id)

    def counts(self) -> dict[str, int]:
        """How many failing vectors each profile alternative explains."""
        found: Counter[str] = Counter()
        for alternatives in self.explained.values():
            found.update(alternatives)
        return {alternative: found[alternative] for alternative in self.profile}

    def to_json(self) -> dict[str, Any]:
        """The report form."""
        return {
            "tried": list(self.tried),
            "profile": list(self.profile),
            "explained": {key: list(value) for key, value in sorted(self.explained.items())},
            "unexplained": list(self.unexplained),
            "counts": self.counts(),
            "faults": list(self.faults),
            "examined": self.examined,
            "declared": None if self.declared is None else list(self.declared),
            "contradictions": list(self.contradictions),
            "inconsistent": {key: list(value) for key, value in sorted(self.inconsistent.items())},
        }


def _attributable(result: VectorResult) -> bool:
    """A failure a reading could explain: mismatches only, with the reply kept."""
    return (
        result.outcome is Outcome.FAILED
        and result.actual is not None
        and all(failure.kind is FailureKind.MISMATCH for failure in result.failures)
    )


def _projected(expect: dict[str, Any], output: Any) -> dict[str, Any]:
    """The reference's output as an expectation, cut the way vectors cut theirs: an error to
    its code and path (what an error vector compares), a package result to the members the
    vector names when it expects a package too, else whole."""
    if not isinstance(output, dict):
        return {"unexpected": output}
    error = output.get("error")
    if isinstance(error, dict):
        return {"error": {key: error[key] for key in ("code", "path") if key in error}}
    if "error" in expect:
        return output
    return {key: output.get(key) for key in expect}


class _ReadingRunner:
    """One reference process that answers each run under the alternatives the run names
    (``serve --readings-per-run``), on vectors laid out in a private workspace."""

    def __init__(self, timeout: float):
        self.adapter = SubprocessAdapter(READINGS_SERVER, timeout=timeout)
        self.adapter.start()
        self.workspace = Workspace(prefix="phase6-readings-")

    def output(self, alternatives: Sequence[str], vector: Vector) -> Any:
        name = "v"
        root = self.workspace.materialize(name, vector)
        try:
            return self.answer(alternatives, vector.request_json, root)
        finally:
            self.workspace.remove(name)

    def answer(self, alternatives: Sequence[str], request_json: bytes, root: Path) -> Any:
        """The reference's result for ``request_json`` under ``alternatives``, its stores
        under ``root`` (laid out by the caller)."""
        place, readings = dumps(str(root)), dumps(list(alternatives))
        return self.adapter.exchange_run(
            lambda seq: (
                b'{"cmd":"run","seq":%d,"root":%s,"readings":%s,"request":%s}\n'
                % (seq, place, readings, request_json)
            )
        )

    def close(self) -> None:
        try:
            self.adapter.close()
        finally:
            self.workspace.close()


class _Runners:
    """The reference processes of one attribution: one per thread that asks (the alternatives
    are tried ``jobs`` at a time), each serving every set of alternatives, not one process
    per alternative (a process start costs more than the runs it would serve). A process is
    only ever used by the thread that started it: the sandbox ends a process when the thread
    that started it ends (bubblewrap's ``--die-with-parent`` follows the starting thread), so a
    pool thread's process dies with the pool."""

    def __init__(self, timeout: float):
        self.timeout = timeout
        self._mine = threading.local()
        self._started: list[_ReadingRunner] = []
        self._lock = threading.Lock()

    def runner(self) -> _ReadingRunner:
        """This thread's process, started on first use (``AdapterError``/``OSError`` if it
        cannot start)."""
        runner: _ReadingRunner | None = getattr(self._mine, "runner", None)
        if runner is None:
            runner = _ReadingRunner(self.timeout)
            self._mine.runner = runner
            with self._lock:
                self._started.append(runner)
        return runner

    def close(self) -> None:
        """Stop every process started."""
        for runner in self._started:
            runner.close()


def _outputs(
    alternatives: Sequence[str], vectors: Sequence[Vector], runners: _Runners, faults: list[str]
) -> dict[str, Any]:
    """What the reference returns under ``alternatives`` on each vector, by vector ID."""
    found: dict[str, Any] = {}
    try:
        runner = runners.runner()
    except (AdapterError, OSError) as exc:
        faults.append(f"{_NOT_STARTED} under {', '.join(alternatives)}: {exc}")
        return found
    for vector in vectors:
        try:
            found[vector.id] = runner.output(alternatives, vector)
        except (AdapterError, CorpusError, OSError) as exc:
            faults.append(f"{vector.id} under {', '.join(alternatives)}: {exc}")
    return found


def readings_answering(
    request_json: bytes,
    root: Path,
    accept: Callable[[Any], bool],
    *,
    timeout: float = 30.0,
    alternatives: Sequence[str] | None = None,
) -> tuple[str, ...]:
    """The executable alternatives under which the bundled reference's result for
    ``request_json`` (its stores under ``root``) satisfies ``accept``: the evidence a check
    needs before it calls an answer a reading (a probe's invalid request answered with a
    package is one only if some listed reading makes the reference answer it so). Empty when
    none does, or when the reference cannot be asked (then nothing is excused)."""
    tried = _runnable(
        alternatives if alternatives is not None else executable_alternatives(),
        reading_parameters(),
    )
    found: list[str] = []
    try:
        runner = _ReadingRunner(timeout)
    except (AdapterError, OSError):
        return ()
    try:
        for alternative in tried:
            try:
                if accept(runner.answer([alternative], request_json, root)):
                    found.append(alternative)
            except (AdapterError, OSError):
                continue
    finally:
        runner.close()
    return tuple(found)


def _outputs_each(
    options: Sequence[Sequence[str]],
    vectors: Sequence[Vector],
    runners: _Runners,
    faults: list[str],
    jobs: int,
) -> list[dict[str, Any]]:
    """:func:`_outputs` under each of ``options`` (sets of alternatives), ``jobs`` reference
    processes at a time (threads waiting on them); results and faults in the order of
    ``options``, whatever the timing."""

    def one(option: Sequence[str]) -> tuple[dict[str, Any], list[str]]:
        found: list[str] = []
        return _outputs(option, vectors, runners, found), found

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        done = list(pool.map(one, options))
    for _, found in done:
        faults.extend(found)
    return [outputs for outputs, _ in done]


def _same(vector: Vector, output: Any, actual: Any) -> bool:
    """Whether ``actual`` is what the reference gave (``output``), compared as the vector is."""
    return compare_result(_projected(vector.expect, output), actual) is None


def _reproduced(
    alternatives: Sequence[str],
    candidates: Sequence[tuple[Vector, Any]],
    runners: _Runners,
    faults: list[str],
    changed: set[str] | None = None,
    against: set[str] | None = None,
) -> set[str]:
    """The IDs of the vectors on which the reference under ``alternatives`` returns what the
    implementation returned, and not what the vector expects (``changed``, when given,
    receives the IDs of every candidate the readings change, reproduced or not; ``against``
    those of the changed ones not reproduced that are evidence against the readings:
    :func:`_departs`)."""
    outputs = _outputs(alternatives, [vector for vector, _ in candidates], runners, faults)
    found: set[str] = set()
    for vector, actual in candidates:
        if vector.id not in outputs:
            continue
        output = outputs[vector.id]
        if compare_result(vector.expect, output) is None:
            continue  # this reading does not change this vector: it explains nothing here
        if changed is not None:
            changed.add(vector.id)
        if _same(vector, output, actual):
            found.add(vector.id)
        elif against is not None and _departs(vector, output, actual):
            against.add(vector.id)
    return found


_ABSENT: Any = object()


def _at(value: Any, pointer: str) -> Any:
    """The member of ``value`` at the JSON Pointer ``pointer`` (RFC 6901), or ``_ABSENT``."""
    for token in pointer.split("/")[1:]:
        key = token.replace("~1", "/").replace("~0", "~")
        if isinstance(value, dict) and key in value:
            value = value[key]
        elif isinstance(value, list) and key.isdigit() and int(key) < len(value):
            value = value[int(key)]
        else:
            return _ABSENT
    return value


def _rejects_at(result: Any) -> Any:
    """Where an error result says the request is wrong (its ``path``, else its ``code``);
    ``None`` for anything but an error."""
    error = result.get("error") if isinstance(result, dict) else None
    if not isinstance(error, dict):
        return None
    return error.get("path", error.get("code", _ABSENT))


def _departs(vector: Vector, output: Any, actual: Any) -> bool:
    """Whether a failure an alternative changes but does not reproduce is evidence against
    it: the implementation departs from the reference's ``output`` under the alternative
    *where the alternative changes the vector's expectation* (the pinned answer there, or a
    third one). A departure only elsewhere says nothing of this alternative: an error the
    alternative removes gives way to another fault the implementation reads its own way
    (an invalid now_utc ignored, then a trust snapshot it accepts)."""
    expect = vector.expect
    if "error" in expect:  # the alternative accepts, or rejects elsewhere, what pinned rejects
        return bool(_rejects_at(actual) == _rejects_at(expect))
    projected = _projected(expect, output)
    if "error" in projected:  # the alternative rejects what the pinned reading accepts
        return bool(_rejects_at(actual) != _rejects_at(projected))
    where = first_difference(expect, projected)
    return where is not None and bool(_at(projected, where.path) != _at(actual, where.path))


def attribute(
    vectors: Iterable[Vector],
    results: Iterable[VectorResult],
    *,
    alternatives: Sequence[str] | None = None,
    declared: Sequence[str] | None = None,
    timeout: float = 30.0,
    jobs: int = 1,
) -> Attribution:
    """Steps 1-5 of the module docstring for one run's results (``declared``: the readings
    the implementation says it follows, which then are its profile; ``jobs``: how many
    reference processes run at once)."""
    runners = _Runners(timeout)
    try:
        return _attribute(vectors, results, alternatives, declared, runners, jobs)
    finally:
        runners.close()


def _attribute(
    vectors: Iterable[Vector],
    results: Iterable[VectorResult],
    alternatives: Sequence[str] | None,
    declared: Sequence[str] | None,
    runners: _Runners,
    jobs: int,
) -> Attribution:
    vectors = list(vectors)
    results = list(results)
    by_id = {vector.id: vector for vector in vectors}
    failing = [r for r in results if not r.ok and r.outcome in (Outcome.FAILED, Outcome.ERRORED)]
    tried = tuple(alternatives if alternatives is not None else executable_alternatives())
    parameters = reading_parameters()
    if not failing and not declared:
        return Attribution(
            tried=_runnable(tried, parameters), examined=True, declared=_tuple(declared)
        )
    candidates = [
        (by_id[r.id], loads(r.actual))
        for r in failing
        if _attributable(r) and r.id in by_id and r.actual is not None
    ]
    # A parameterized alternative is tried with the values the failures suggest (and those
    # the implementation declares), each a reading of its own.
    valued, suggested = _values(parameters, candidates)
    tried = tuple(
        reading
        for alternative in tried
        for reading in (
            [
                *valued.get(alternative, ()),
                *(
                    d
                    for d in declared or ()
                    if split_reading_id(d)[0] == alternative
                    and _declared_value(d, parameters)
                    and d not in valued.get(alternative, ())
                ),
            ]
            if alternative in parameters
            else [alternative]
        )
    )
    contradictions = [
        f"declares {reading!r}, which is not an executable alternative of the register"
        for reading in declared or ()
        if reading not in tried
    ]
    faults: list[str] = []
    passed = [by_id[r.id] for r in results if r.ok and r.id in by_id]
    seen: dict[str, tuple[str, ...]] = {}

    hashes_only = hashes_only_alternatives()

    def bears_on(alternative: str, vector: Vector) -> bool:
        """Whether ``alternative`` can change ``vector``'s expected output: the vector lists
        its entry (labels are derived: ``tools readings --check``), or it changes the hashes
        of every package."""
        entry = alternative.split("/", 1)[0]
        return (
            entry in vector.interpretations
            or (alternative in hashes_only and not vector.expects_error)
            or vector.id in suggested.get(alternative, ())
        )

    def changes(alternative: str) -> tuple[str, ...]:
        """The passing vectors ``alternative`` changes (computed once each)."""
        if alternative not in seen:
            bearing = [vector for vector in passed if bears_on(alternative, vector)]
            outputs = _outputs([alternative], bearing, runners, faults) if bearing else {}
            seen[alternative] = tuple(
                sorted(
                    vector_id
                    for vector_id, output in outputs.items()
                    if compare_result(by_id[vector_id].expect, output) is not None
                )
            )
        return seen[alternative]

    single: dict[str, set[str]] = {}
    predicted: dict[str, set[str]] = {}
    contradicted: dict[str, set[str]] = {}
    if candidates:

        def alone(alternative: str) -> tuple[set[str], set[str], set[str], list[str]]:
            """What ``alternative`` alone reproduces, changes, and is contradicted on among
            the failures (the alternatives are tried ``jobs`` at a time, in threads that wait
            on the reference processes)."""
            bearing = [(v, actual) for v, actual in candidates if bears_on(alternative, v)]
            changed: set[str] = set()
            against: set[str] = set()
            found: list[str] = []
            if not bearing:
                return set(), changed, against, found
            reproduced = _reproduced([alternative], bearing, runners, found, changed, against)
            return reproduced, changed, against, found

        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            for alternative, (reproduced, changes_alone, against, faults_alone) in zip(
                tried, pool.map(alone, tried), strict=True
            ):  # in the order tried: the faults, and so the report, do not depend on timing
                single[alternative], predicted[alternative] = reproduced, changes_alone
                contradicted[alternative] = against
                faults.extend(faults_alone)
        # A reading the implementation follows reproduces every failure it alone predicts (a
        # failing vector it changes and no other alternative does; the others may need a
        # combination, step 3): one that matches some by coincidence (a rounding bug equal to a
        # whole-days age on two vectors of thirty, an excerpt cut one character short equal to
        # stripping one trailing space) and misses another is no reading.
        if declared is None:
            for alternative, found in list(single.items()):
                # what the alternatives with some evidence predict (another value of one
                # parameter is no partner: two values never combine)
                base = split_reading_id(alternative)[0]
                others = set().union(
                    *(
                        v
                        for a, v in predicted.items()
                        if split_reading_id(a)[0] != base and single[a]
                    )
                )
                missed_alone = contradicted[alternative] - others
                if missed_alone or len(found) < len(contradicted[alternative]):
                    single[alternative] = set()
    # 2. the profile: what it declares, else one alternative per entry, the one explaining the
    # most failures.
    if declared is not None:
        profile = tuple(alternative for alternative in tried if alternative in declared)
        entries = Counter(alternative.split("/", 1)[0] for alternative in profile)
        contradictions += [
            f"declares two readings of {entry}" for entry, n in entries.items() if n > 1
        ]
    else:
        profile = _fewest(single, lambda alternative: len(changes(alternative)))
    explained: dict[str, tuple[str, ...]] = {}
    for alternative in profile:
        for vector_id in single.get(alternative, ()):
            explained[vector_id] = (*explained.get(vector_id, ()), alternative)
    # 3. failures no single alternative explains, under the whole profile.
    if len(profile) > 1:
        rest = [(vector, actual) for vector, actual in candidates if vector.id not in explained]
        for vector_id in _reproduced(profile, rest, runners, faults):
            explained[vector_id] = profile
    if declared is not None:
        for alternative in tried:
            undeclared = single.get(alternative, set()) - explained.keys()
            if alternative not in profile and undeclared:
                contradictions.append(
                    f"{alternative}, which it does not declare, reproduces {len(undeclared)} "
                    f"failing vector(s) (e.g. {min(undeclared)})"
                )
    # 5. one consistent reading per entry: a vector the profile's reading changes must not be
    # answered the pinned way -- unless the whole profile answers it the pinned way too (two
    # readings' roundings can cancel: a platform pow and a three-rounding age).
    inconsistent: dict[str, tuple[str, ...]] = {}
    for alternative in profile:
        changed = changes(alternative)
        if changed and len(profile) > 1:
            whole = _outputs(profile, [by_id[i] for i in changed], runners, faults)
            changed = tuple(
                i for i in changed if i in whole and compare_result(by_id[i].expect, whole[i])
            )
        if changed:
            inconsistent[alternative] = tuple(changed)
            contradictions.append(inconsistency_note(alternative, changed, declared is not None))
    unexplained = tuple(r.id for r in failing if r.id not in explained)
    examined = not any(fault.startswith(_NOT_STARTED) for fault in faults)
    return Attribution(
        tried,
        profile,
        explained,
        unexplained,
        tuple(faults[:20]),
        examined,
        _tuple(declared),
        tuple(contradictions),
        inconsistent,
    )


def inconsistency_note(alternative: str, changed: Sequence[str], declared: bool) -> str:
    """The contradiction of a profile alternative that changes vectors the implementation
    answers the pinned way: evidence that it follows the alternative only in part, or matches
    it by coincidence on its failures; either way no listed reading describes it."""
    entry = split_reading_id(alternative)[0].split("/", 1)[0]
    said = ", although it declares it" if declared else ""
    return (
        f"{alternative} changes {len(changed)} vector(s) the implementation answers the pinned "
        f"way (e.g. {changed[0]}){said}: it matches {alternative} only in part, or by "
        f"coincidence on its failures, and no listed reading of {entry} describes that"
    )


def _fewest(single: Mapping[str, set[str]], inconsistency: Callable[[str], int]) -> tuple[str, ...]:
    """The fewest alternatives (one per entry) that explain the failures any explains: take
    the one explaining the most failures not yet explained, until none explains another (an
    alternative that only repeats what others explain is not a reading the evidence needs).
    Between alternatives that explain as much, the one the implementation follows most
    consistently wins (``inconsistency``: how many passing vectors it would change)."""
    chosen: list[str] = []
    entries: set[str] = set()
    left = set().union(*single.values()) if single else set()
    while left:
        gains = {
            alternative: len(reproduced & left)
            for alternative, reproduced in single.items()
            if alternative.split("/", 1)[0] not in entries
        }
        top = max(gains.values(), default=0)
        tied = [a for a, gain in gains.items() if gain == top]
        best = (
            min(tied, key=lambda a: (inconsistency(a) if len(tied) > 1 else 0, -len(single[a]), a))
            if tied
            else None
        )
        if best is None or gains[best] == 0:
            break
        chosen.append(best)
        entries.add(best.split("/", 1)[0])
        left -= single[best]
    return tuple(sorted(chosen))


def _runnable(tried: Sequence[str], parameters: Mapping[str, ReadingParameter]) -> tuple[str, ...]:
    """``tried`` without the parameterized alternatives that have no value (none can run)."""
    return tuple(alternative for alternative in tried if alternative not in parameters)


def _tuple(values: Sequence[str] | None) -> tuple[str, ...] | None:
    return None if values is None else tuple(values)


# ------------------------------------------------------------------ section items (properties)


def _counterexample_vector(raw: Mapping[str, Any]) -> Vector:
    """A counterexample vector (the corpus format, as a section keeps it) as a Vector."""
    return vector_from_json(raw, area="counterexamples", file="", source="properties")


def _implementation_outputs(spec: str, vectors: Sequence[Vector], timeout: float) -> dict[str, Any]:
    """What the implementation returns on each vector (a vector it errors on is left out)."""
    found: dict[str, Any] = {}
    workspace = Workspace(prefix="phase6-evidence-")
    try:
        with open_adapter(spec, timeout=timeout) as adapter:
            adapter.start()
            for vector in vectors:
                root = workspace.materialize("v", vector)
                try:
                    found[vector.id] = adapter.run(vector.request_json, root)
                except AdapterError:
                    continue
                finally:
                    workspace.remove("v")
    except (AdapterError, CorpusError, OSError):
        pass
    finally:
        workspace.close()
    return found


def explain_section(
    section: Section,
    spec: str,
    attribution: Attribution,
    *,
    alternatives: Sequence[str] | None = None,
    timeout: float = 30.0,
    jobs: int = 1,
) -> Section:
    """Decide, by evidence, what each failed item with counterexample vectors rests on
    (``jobs``: how many reference processes run at once).

    A failed property is shrunk to counterexample vectors (their inputs, the pinned
    reference's output as ``expect``). The implementation runs them again; when the reference
    under the run's reading profile (or under one executable alternative) returns exactly what
    the implementation returns on every one of them, the failure is that reading: the item
    becomes ``pinned`` on those alternative IDs. Otherwise no listed reading explains it, and
    the item is ``required`` (a bug), whatever the hand-kept tables of pinned checks said.
    """
    raw = {
        v.get("id"): v for v in section.data.get("counterexamples", ()) if isinstance(v, Mapping)
    }
    failed = [
        item
        for item in section.items
        if item.outcome is Outcome.FAILED and item.details.get("counterexamples")
    ]
    if not failed:
        return section
    vectors = {
        vector_id: _counterexample_vector(raw[vector_id])
        for item in failed
        for vector_id in item.details["counterexamples"]
        if vector_id in raw
    }
    actual = _implementation_outputs(spec, list(vectors.values()), timeout)
    tried = _runnable(
        alternatives if alternatives is not None else executable_alternatives(),
        reading_parameters(),
    )  # a parameterized alternative runs with a value: the profile's, when it has one
    options: list[tuple[str, ...]] = []
    if attribution.profile:
        options.append(tuple(attribution.profile))
    options.extend((alternative,) for alternative in tried if (alternative,) not in options)
    faults: list[str] = []
    runners = _Runners(timeout)
    try:
        each = _outputs_each(options, list(vectors.values()), runners, faults, jobs)
    finally:
        runners.close()
    outputs = dict(zip(options, each, strict=True))
    items = []
    for item in section.items:
        if item not in failed:
            items.append(item)
            continue
        mine = [vectors[i] for i in item.details["counterexamples"] if i in vectors]
        explained_by: tuple[str, ...] | None = None
        if mine and all(v.id in actual for v in mine):
            for option in options:
                if all(
                    v.id in outputs[option] and _same(v, outputs[option][v.id], actual[v.id])
                    for v in mine
                ):
                    explained_by = option
                    break
        if explained_by is not None:
            note = f"reproduced by the reference under {', '.join(explained_by)}"
            items.append(
                replace(
                    item,
                    level="pinned",
                    interpretations=explained_by,
                    message=f"{note}: {item.message}",
                    details={**item.details, "evidence": note},
                )
            )
        else:
            note = "no listed reading reproduces its counterexamples"
            items.append(
                replace(
                    item,
                    level="required",
                    interpretations=(),
                    message=f"{note}: {item.message}",
                    details={**item.details, "evidence": note},
                )
            )
    return replace(section, items=tuple(items))
