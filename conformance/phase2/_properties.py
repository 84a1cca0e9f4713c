"""The ``properties`` section of a Phase 2 certification: each invariant of the ``[[property]]``
table of specs/phase2/clauses.toml, checked without pinned expectations.

Every property is checked two ways, and fails if either finds a break:

- **on the vectors**: every outcome the vectors observed (:mod:`conformance.phase2._runner`)
  is checked against the single-call invariants (``budget``, ``policy-query-present``,
  ``layer-order``, ``sources-match-context``, ``no-writes``, ``retention``); ``determinism``
  counts the vectors whose runs differed (same process, and the fresh-process sample);
- **on generated fixtures**: hypothesis draws fixtures over the fixture schema and calls on
  them (:mod:`conformance.phase2._strategies`); each example observes a budgeted context call
  A twice (the state dumped before it, where the adapter can), the same call B without
  ``max_tokens`` (it trims nothing: ``trim-order`` compares A with B) and a compaction run
  (``retention``). A failing example is shrunk within a budget of calls; the smallest is the
  counterexample in the report.

Over http:, the examples a passing run draws are drawn first and observed an example at a
time (its calls on one load of its fixture), on every engine at once with more than one
(``--jobs N``, a service and a database each; :func:`_prefetch`); the properties then find
them in the cache. The properties themselves, and
any shrinking, run on the first engine.

Runs are reproducible: a fixed seed (``--section-option seed=N``), a fixed number of examples
per adapter kind (``examples=N``), generation independent of what else is imported
(:func:`conformance.properties.kit_constants_only`), and the engine's answers cached, so the
eight properties replay the same examples without calling the implementation again. An
implementation that does not declare ``phase2.compact`` gets ``retention`` skipped with the
reason (never a pass). The adapter failing on a generated example makes the property
*errored*, which fails the verdict like any error.

The checks that rest on a reading with executable alternatives take it from the
implementation's reading profile (``readings``, :class:`~conformance.phase2._readings.
CheckReadings`, inferred from the vectors by :mod:`conformance.phase2._attribution`): the
policy text, the whitespace table and a trimmed query. The section's data says which.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from hypothesis import given, seed
from hypothesis.errors import Flaky, HypothesisException

from conformance._errors import AdapterError
from conformance._kit import dumps, unicode_safe
from conformance.phase2._compare import first_difference
from conformance.phase2._corpus import Phase2Vector
from conformance.phase2._engines import Engine, Observation
from conformance.phase2._invariants import determinism_view, property_failures, trim_order_failure
from conformance.phase2._readings import CAPABILITIES, CheckReadings
from conformance.phase2._registers import Property, load_properties
from conformance.phase2._strategies import Example, examples
from conformance.properties import hypothesis_settings, kit_constants_only
from conformance.run import FailureKind, Outcome, Section, SectionItem, VectorResult

__all__ = [
    "DEFAULT_EXAMPLES",
    "SINGLE_CALL",
    "PropertySettings",
    "properties_section",
]

#: Properties checked on one outcome at a time (:func:`property_failures`).
SINGLE_CALL: Final = frozenset(
    {"budget", "policy-query-present", "layer-order", "sources-match-context", "no-writes"}
)
#: Generated examples per adapter kind: a live service pays for processes per call.
DEFAULT_EXAMPLES: Final = {"python": 60, "cmd": 60, "http": 20}
#: Examples tried while shrinking a failure, per adapter kind, before the smallest so far is kept.
DEFAULT_SHRINK_CALLS: Final = {"python": 120, "cmd": 120, "http": 25}
_LISTED = 20


@dataclass(frozen=True)
class PropertySettings:
    """Seed, examples and shrink budget of the generated leg."""

    seed: int = 0
    examples: int = 60
    shrink_calls: int = 120

    @classmethod
    def for_engine(cls, kind: str, options: Mapping[str, str]) -> PropertySettings:
        """Defaults for the adapter kind, overridden by ``--section-option`` values."""
        return cls(
            seed=int(options.get("seed", 0)),
            examples=max(1, int(options.get("examples", DEFAULT_EXAMPLES.get(kind, 60)))),
            shrink_calls=max(0, int(options.get("shrink", DEFAULT_SHRINK_CALLS.get(kind, 60)))),
        )


class _EngineAbort(BaseException):
    """The implementation failed on a generated example: stop, no shrinking (hypothesis lets
    a ``BaseException`` through)."""

    def __init__(self, error: AdapterError):
        super().__init__(error.message)
        self.error = error


class _ShrinkBudgetSpent(BaseException):
    """Enough shrinking: keep the smallest failing example found so far."""


class _Broken(Exception):
    """The property does not hold on this example."""


class _Observer:
    """The engine behind a cache: the same example asked by several properties costs one call;
    an adapter error is remembered as well."""

    def __init__(self, engine: Engine):
        self.engine = engine
        self.calls = 0
        self._cache: dict[tuple[bytes, bytes, int, bool], Observation | AdapterError] = {}

    def observe(
        self,
        fixture: Any,
        call: Any,
        *,
        runs: int = 1,
        dump_before: bool = False,
    ) -> Observation:
        key = (dumps(fixture), dumps(call), runs, dump_before)
        cached = self._cache.get(key)
        if cached is None:
            self.calls += 1
            try:
                cached = self.engine.observe(fixture, call, runs=runs, dump_before=dump_before)
            except AdapterError as exc:
                cached = exc
            self._cache[key] = cached
        if isinstance(cached, AdapterError):
            raise _EngineAbort(cached)
        return cached


def _drawn(config: PropertySettings) -> list[Example]:
    """The examples a property whose every example passes is given (the same seed and
    settings, nothing observed)."""
    drawn: list[Example] = []

    def body(example: Example) -> None:
        drawn.append(example)

    test = hypothesis_settings(config.examples)(seed(config.seed)(given(examples())(body)))
    with kit_constants_only():
        test()
    return drawn


def _prefetch(
    observer: _Observer,
    engines: Sequence[Engine],
    config: PropertySettings,
    capabilities: Sequence[str],
) -> None:
    """Observe the calls of every example a passing run draws (each distinct call once, an
    example's calls in the order the properties ask for them, on one engine), all engines at
    once. An adapter error is cached like any answer; a call left out (a fault of the kit
    stops a worker) is observed when a property asks for it."""
    compact = CAPABILITIES["compact"] in capabilities
    pending: queue.SimpleQueue[tuple[Any, list[tuple[Any, int, bool]]]] = queue.SimpleQueue()
    queued: set[tuple[bytes, bytes, int, bool]] = set()
    for example in _drawn(config):
        calls = [(example.call_a, 2, True), (example.call_b, 1, False)]
        calls += [(example.compact_call, 1, False)] if compact else []
        fresh = []
        for call, runs, before in calls:
            key = (dumps(example.fixture), dumps(call), runs, before)
            if key not in queued:
                queued.add(key)
                fresh.append((call, runs, before))
        if fresh:
            pending.put((example.fixture, fresh))
    lock = threading.Lock()

    def work(engine: Engine) -> None:
        while True:
            try:
                fixture, calls = pending.get_nowait()
            except queue.Empty:
                return
            for call, runs, before in calls:
                try:
                    found: Observation | AdapterError = engine.observe(
                        fixture, call, runs=runs, dump_before=before
                    )
                except AdapterError as exc:
                    found = exc
                with lock:
                    observer.calls += 1
                    observer._cache[(dumps(fixture), dumps(call), runs, before)] = found

    threads = [threading.Thread(target=work, args=(engine,), daemon=True) for engine in engines]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def _first(observation: Observation) -> Any:
    return observation.outcomes[0]


def _check(name: str, example: Example, observer: _Observer, readings: CheckReadings) -> str | None:
    """What breaks property ``name`` on ``example`` (``None``: it holds)."""
    fixture = example.fixture
    if name == "retention":
        compact = observer.observe(fixture, example.compact_call)
        broken = property_failures(
            fixture, example.compact_call, _first(compact), readings=readings
        )
        return next((message for prop, message in broken if prop == name), None)
    a = observer.observe(fixture, example.call_a, runs=2, dump_before=True)
    if name == "determinism":
        call = example.call_a
        found = first_difference(
            determinism_view(call, a.outcomes[0]), determinism_view(call, a.outcomes[-1])
        )
        return None if found is None else f"the same call twice: differs at {found[0] or '/'}"
    b = observer.observe(fixture, example.call_b)
    if name == "trim-order":
        return trim_order_failure(_first(a), _first(b), readings=readings)
    for label, call, observation in (("A", example.call_a, a), ("B", example.call_b, b)):
        broken = property_failures(
            fixture, call, _first(observation), before=observation.before, readings=readings
        )
        message = next((message for prop, message in broken if prop == name), None)
        if message is not None:
            return f"call {label}: {message}"
    return None


@dataclass
class _Generated:
    """The generated leg of one property."""

    outcome: Outcome = Outcome.PASSED
    message: str = ""
    examples: int = 0
    counterexample: Mapping[str, Any] | None = None
    failures: list[tuple[Example, str]] = field(default_factory=list)


def _generated(
    name: str, observer: _Observer, config: PropertySettings, readings: CheckReadings
) -> _Generated:
    state = _Generated()
    first_failure = 0

    def body(example: Example) -> None:
        nonlocal first_failure
        if state.failures and state.examples - first_failure >= config.shrink_calls:
            raise _ShrinkBudgetSpent
        state.examples += 1
        try:
            message = _check(name, example, observer, readings)
        except _EngineAbort:
            raise
        except Exception as exc:  # the outcome broke an assumption of the check
            message = f"checking the outcome raised {type(exc).__name__}: {exc}"
        if message is not None:
            if not state.failures:
                first_failure = state.examples
            state.failures.append((example, message))  # hypothesis only tries smaller ones
            raise _Broken(message)

    test = hypothesis_settings(config.examples)(seed(config.seed)(given(examples(readings))(body)))

    def failed(note: str = "") -> _Generated:
        example, message = state.failures[-1]
        state.outcome = Outcome.FAILED
        state.message = f"generated example: {message}{note}"
        state.counterexample = example.to_json()
        return state

    try:
        with kit_constants_only():
            test()
    except _Broken:
        return failed()
    except _ShrinkBudgetSpent:
        return failed(f" (shrinking stopped after {config.shrink_calls} examples)")
    except Flaky:
        if state.failures:
            return failed(" (the failure did not repeat on the same example: not deterministic)")
        state.outcome, state.message = Outcome.ERRORED, "hypothesis: flaky generation"
    except _EngineAbort as abort:
        error = abort.error
        state.outcome = Outcome.ERRORED
        state.message = unicode_safe(
            f"the adapter failed on a generated example ({error.kind}): {error.message}"[:2000]
        )
    except HypothesisException as exc:
        state.outcome, state.message = Outcome.ERRORED, f"hypothesis: {exc}"[:2000]
    return state


def _vector_leg(
    observed: Mapping[str, Observation],
    vectors: Mapping[str, Phase2Vector],
    readings: CheckReadings,
) -> dict[str, list[tuple[str, str]]]:
    """Property name -> (vector id, what broke) over every observed vector outcome."""
    broken: dict[str, list[tuple[str, str]]] = {}
    for vector_id, observation in sorted(observed.items()):
        vector = vectors[vector_id]
        failures = property_failures(
            vector.fixture,
            vector.call,
            _first(observation),
            before=observation.before,
            readings=readings,
        )
        seen = set()
        for name, message in failures:
            if name not in seen:
                seen.add(name)
                broken.setdefault(name, []).append((vector_id, message))
    return broken


def _item(
    prop: Property,
    checked: int,
    on_vectors: Sequence[tuple[str, str]],
    generated: _Generated | None,
    config: PropertySettings,
    skip_reason: str | None,
) -> SectionItem:
    details: dict[str, Any] = {
        "statement": prop.statement,
        "vectors_checked": checked,
        "vectors_failed": len(on_vectors),
        "failing_vectors": [vid for vid, _ in on_vectors[:_LISTED]],
        "seed": config.seed,
    }
    if generated is not None:
        details["examples"] = generated.examples
        if generated.counterexample is not None:
            details["counterexample"] = generated.counterexample
    messages = []
    if on_vectors:
        vid, message = on_vectors[0]
        messages.append(f"{len(on_vectors)} vector outcome(s) break it, first {vid}: {message}")
    if generated is not None and generated.message:
        messages.append(generated.message)
    if skip_reason is not None and not on_vectors:
        outcome = Outcome.SKIPPED
        messages.append(skip_reason)
    elif on_vectors or (generated is not None and generated.outcome is Outcome.FAILED):
        outcome = Outcome.FAILED
    elif generated is not None and generated.outcome is Outcome.ERRORED:
        outcome = Outcome.ERRORED
    else:
        outcome = Outcome.PASSED
    return SectionItem(
        id=prop.name,
        outcome=outcome,
        clauses=prop.clauses,
        message=unicode_safe("; ".join(messages)[:4000]),
        details=details,
    )


def _profile_data(readings: CheckReadings, profile: Sequence[str]) -> dict[str, Any]:
    """What the section's data says of the readings its checks followed (nothing when they
    are the pinned ones, so a pinned run's report keeps its shape)."""
    if readings == CheckReadings() and not profile:
        return {}
    return {"reading_profile": list(profile), "policy_text": readings.policy}


def properties_section(
    engine: Engine,
    capabilities: Sequence[str],
    vectors: Mapping[str, Phase2Vector],
    observed: Mapping[str, Observation],
    results: Sequence[VectorResult],
    config: PropertySettings,
    *,
    readings: CheckReadings | None = None,
    profile: Sequence[str] = (),
    progress: Callable[[str], None] = lambda text: None,
    workers: Sequence[Engine] = (),
) -> Section:
    """The ``properties`` section: every property of the register, on the vectors' outcomes
    and on generated examples (see the module docstring), under ``readings`` (the values the
    reading ``profile`` gives the checks; default: the pinned readings); ``workers``: more
    engines of the same implementation that observe the examples alongside ``engine``."""
    started = time.perf_counter()
    readings = readings if readings is not None else CheckReadings()
    observer = _Observer(engine)
    if workers or engine.kind == "http":  # a live service: an example's calls on one load
        _prefetch(observer, [engine, *workers], config, capabilities)
    on_vectors = _vector_leg(observed, vectors, readings)
    determinism = [
        (r.id, next(f.message for f in r.failures if f.kind is FailureKind.DETERMINISM))
        for r in results
        if any(f.kind is FailureKind.DETERMINISM for f in r.failures)
    ]
    items = []
    for prop in load_properties():
        skip_reason = None
        if prop.name == "retention" and CAPABILITIES["compact"] not in capabilities:
            skip_reason = (
                f"not run on generated fixtures: the implementation does not declare "
                f"{CAPABILITIES['compact']}"
            )
        generated = None if skip_reason else _generated(prop.name, observer, config, readings)
        if prop.name == "determinism":
            leg, checked = determinism, len(observed)
        elif prop.name == "trim-order":
            leg, checked = [], 0  # needs two budgets of one fixture: the generated leg
        else:
            leg = on_vectors.get(prop.name, [])
            ops = ("compact",) if prop.name == "retention" else ("context",)
            checked = sum(1 for vid in observed if vectors[vid].op in ops)
        item = _item(prop, checked, leg, generated, config, skip_reason)
        progress(f"property {prop.name}: {item.outcome}")
        items.append(item)
    ran = [item.outcome for item in items if item.outcome is not Outcome.SKIPPED]
    if any(o is Outcome.FAILED for o in ran):
        status = Outcome.FAILED
    elif any(o is Outcome.ERRORED for o in ran):
        status = Outcome.ERRORED
    else:
        status = Outcome.PASSED if ran else Outcome.SKIPPED
    tally: dict[str, int] = {}
    for item in items:
        tally[item.outcome] = tally.get(item.outcome, 0) + 1
    counts = ", ".join(f"{n} {outcome}" for outcome, n in sorted(tally.items()))
    summary = (
        f"{len(items)} properties of specs/phase2/clauses.toml: {counts}; on {len(observed)} "
        f"vector outcomes and {config.examples} generated examples each (seed {config.seed}, "
        f"{observer.calls} calls to the implementation, "
        f"{time.perf_counter() - started:.1f} s)"
    )
    return Section(
        name="properties",
        title="Phase 2 properties (invariants without pinned expectations)",
        status=status,
        summary=summary,
        items=tuple(items),
        data={
            "seed": config.seed,
            "examples": config.examples,
            "calls": observer.calls,
            **_profile_data(readings, profile),
        },
    )
