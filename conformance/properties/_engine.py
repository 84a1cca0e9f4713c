"""Running the families under hypothesis, and turning failures into ready-to-run vectors.

Reproducibility: a certification run uses a fixed seed (:data:`DEFAULT_SEED`) and each
family's fixed example count, with no example database (``database=None``), so the same kit,
hypothesis version and implementation give the same report. ``deep`` multiplies the example
counts (:data:`DEEP_FACTOR`) and, unless a seed is given, draws a fresh one (recorded in the
results) for fuzzing runs.

Stored examples (:mod:`._stored`). A default certification run (the fixed seed, each family's
count, not deep) draws the same inputs every time, so it does not draw them: it feeds the
cases stored in the kit, in hypothesis' call order, to the same check. The same examples run
and the result is the one a live run gives; only drawing them is skipped. A stored case that
fails sends the family to a live run, which finds the failure again and shrinks it
(:func:`_replay`). Any other run, and a default run whose stored file is missing, unreadable or
stale, generates live; ``PropertiesRun.examples_source`` says which, and why.

When a property fails, hypothesis shrinks the input; the final replay is the minimal failing
input, which becomes one vector per input of the case (``prop-<family>-<hash8>``) in the
``phase6-vectors/1`` format, with the reference's result as ``expect``.

Required and pinned (:func:`run_family`). A failure whose input holds pinned-only inputs, or
whose check rests only on a pinned reading, is not yet a failure of the spec: the family runs
again on inputs every reading agrees on, with the pinned checks off. If that run fails, the
family failed (level ``required``). If it passes, the family runs once per interpretation the
failure involved, with only that interpretation's inputs and checks: those that fail are what
the implementation reads differently, and the family's result is ``failed`` at level
``pinned`` naming them ("differs on pinned INT-x"), which does not count against the required
verdict.

Parallel families (:func:`run_properties` with ``jobs`` > 1): the families are dealt, in
report order, to ``jobs`` worker processes (started with ``spawn``, so nothing of the parent's
state travels), each of which opens its own adapter once and runs its share. A family's run
depends only on the seed, its example count and the implementation, not on which process
draws it (local-constant harvesting is off, :func:`kit_constants_only`), so the results are
the ones a serial run gives, in the same order.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import secrets
import time
import traceback
from collections.abc import Callable, Mapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any

import hypothesis
from hypothesis.errors import Flaky, HypothesisException

from conformance._errors import HandshakeError
from conformance.adapters import Adapter, open_adapter
from conformance.properties._families import FAMILIES, Case, Family
from conformance.properties._generation import DEFAULT_SEED, family_test, kit_constants_only
from conformance.properties._probe import (
    AdapterAbort,
    KitAbort,
    Probe,
    PropertyFailure,
    enforcing,
)
from conformance.properties._stored import ExamplesSource, examples_source, stored_cases
from conformance.run import Outcome
from conformance.strategies import Scenario

__all__ = [
    "COUNTEREXAMPLES_AREA",
    "DEEP_FACTOR",
    "FamilyResult",
    "PropertiesRun",
    "PropertySettings",
    "counterexample_vectors",
    "run_families",
    "run_properties",
]

DEEP_FACTOR = 20
COUNTEREXAMPLES_AREA = "counterexamples"


@dataclass(frozen=True)
class PropertySettings:
    """How hard to look: seed, examples per family (``None``: the family's count), deep."""

    seed: int | None = DEFAULT_SEED
    examples: int | None = None
    deep: bool = False
    families: tuple[str, ...] = ()
    timeout: float = 30.0
    shrink_calls: int = 300
    #: Attribute a failure to pinned readings with the hand-kept tables (re-running the family
    #: on inputs every reading agrees on, then per interpretation). ``certify`` turns this off:
    #: it decides by evidence instead (``conformance.run``'s attribution of the counterexamples).
    table_attribution: bool = True

    def resolved(self) -> PropertySettings:
        """These settings with a concrete seed (deep runs without a seed draw one) and, for
        deep runs, a larger shrink budget."""
        out = self
        if out.seed is None:
            out = replace(out, seed=secrets.randbelow(2**32))
        if out.deep and out.shrink_calls == PropertySettings.shrink_calls:
            out = replace(out, shrink_calls=out.shrink_calls * 10)
        return out

    def examples_for(self, family: Family) -> int:
        """The example count for ``family``."""
        count = self.examples if self.examples is not None else family.examples
        return count * DEEP_FACTOR if self.deep else count

    def chosen(self) -> tuple[Family, ...]:
        """The families to run, in report order (unknown names raise ``KeyError``)."""
        if not self.families:
            return tuple(FAMILIES.values())
        unknown = [name for name in self.families if name not in FAMILIES]
        if unknown:
            raise KeyError(f"unknown property families {unknown}; known: {list(FAMILIES)}")
        return tuple(f for f in FAMILIES.values() if f.name in self.families)

    def to_json(self) -> dict[str, Any]:
        """The report form."""
        return {
            "seed": self.seed,
            "examples": self.examples,
            "deep": self.deep,
            "families": list(self.families),
            "shrink_calls": self.shrink_calls,
            "hypothesis": hypothesis.__version__,
        }


@dataclass(frozen=True)
class FamilyResult:
    """The outcome of one family against one implementation."""

    family: str
    outcome: Outcome
    clauses: tuple[str, ...]
    examples: int
    calls: int
    duration_s: float
    seed: int
    message: str = ""
    check: str = ""
    failed_clauses: tuple[str, ...] = ()
    interpretations: tuple[str, ...] = ()
    counterexamples: tuple[Mapping[str, Any], ...] = ()
    shrunk: bool = False
    detail: str = ""
    #: ``required``: the failure breaks the spec; ``pinned``: it comes only from the readings
    #: in ``differs_on`` (confirmed one by one).
    level: str = "required"
    differs_on: tuple[str, ...] = ()
    attribution: str = ""

    @property
    def id(self) -> str:
        """``property:<family>``."""
        return f"property:{self.family}"

    def to_json(self) -> dict[str, Any]:
        """The report form (details of a section item)."""
        return {
            "examples": self.examples,
            "calls": self.calls,
            "duration_s": round(self.duration_s, 3),
            "seed": self.seed,
            "check": self.check,
            "failed_clauses": list(self.failed_clauses),
            "interpretations": list(self.interpretations),
            "level": self.level,
            "differs_on": list(self.differs_on),
            "attribution": self.attribution,
            "shrunk": self.shrunk,
            "counterexamples": [v["id"] for v in self.counterexamples],
            "detail": self.detail,
        }


_NOT_RECORDED = ExamplesSource(stored=False, reason="not recorded")


@dataclass(frozen=True)
class PropertiesRun:
    """Every family's result for one implementation."""

    adapter_spec: str
    implementation: Mapping[str, Any]
    settings: PropertySettings
    results: tuple[FamilyResult, ...]
    duration_s: float
    broken: str | None = None
    #: Whether the families replayed the stored examples or generated theirs (and why).
    examples_source: ExamplesSource = _NOT_RECORDED

    @property
    def passed(self) -> bool:
        """Whether every family passed."""
        return self.broken is None and all(r.outcome is Outcome.PASSED for r in self.results)

    @property
    def required_passed(self) -> bool:
        """Whether every family passed, or failed only on pinned readings."""
        return self.broken is None and all(
            r.outcome is Outcome.PASSED or (r.outcome is Outcome.FAILED and r.level == "pinned")
            for r in self.results
        )

    @property
    def counterexamples(self) -> tuple[Mapping[str, Any], ...]:
        """Every counterexample vector, in family order, without duplicates."""
        seen: dict[str, Mapping[str, Any]] = {}
        for result in self.results:
            for vector in result.counterexamples:
                seen.setdefault(str(vector["id"]), vector)
        return tuple(seen.values())

    def counterexample_file(self) -> dict[str, Any] | None:
        """A ``phase6-vectors/1`` document holding every counterexample (``None``: none)."""
        vectors = self.counterexamples
        if not vectors:
            return None
        return {
            "format": "phase6-vectors/1",
            "area": COUNTEREXAMPLES_AREA,
            "description": (
                f"Counterexamples the property suite found for {self.adapter_spec} "
                f"(seed {self.settings.seed}); expect = the reference's result."
            ),
            "source": "generated:properties",
            "vectors": list(vectors),
        }


# ------------------------------------------------------------------------------ vectors


def _input_json(scenario: Scenario) -> dict[str, Any]:
    return {"request": scenario.request, "files": scenario.vector_files()}


def _vector_id(family: str, scenario: Scenario) -> str:
    text = json.dumps(_input_json(scenario), sort_keys=True, ensure_ascii=False)
    return f"prop-{family}-{hashlib.sha256(text.encode()).hexdigest()[:8]}"


def _expect(reference_result: Any) -> dict[str, Any]:
    if isinstance(reference_result, dict) and isinstance(reference_result.get("error"), dict):
        error = reference_result["error"]
        return {"error": {"code": error.get("code"), "path": error.get("path")}}
    result: dict[str, Any] = reference_result
    return result


def counterexample_vectors(
    family: Family,
    case: Case,
    failure: PropertyFailure | None,
    reference: Callable[[Scenario], Any],
    *,
    message: str,
    seed_value: int,
    shrunk: bool = True,
) -> tuple[dict[str, Any], ...]:
    """One vector per input of ``case``, ``expect`` from ``reference`` (``shrunk``: whether
    hypothesis shrank ``case``, as the comment says)."""
    clauses = tuple(dict.fromkeys((*(failure.clauses if failure else ()), *family.clauses)))
    interpretations = tuple(
        sorted(
            {
                "INT-01",
                "INT-03",
                *(failure.interpretations if failure else ()),
                *family.interpretations,
            }
        )
    )
    vectors = []
    for index, scenario in enumerate(case.scenarios):
        role = "" if case.variant is None else (" (original)" if index == 0 else " (transformed)")
        first_line = message.splitlines()[0] if message else "property failed"
        description = f"property:{family.name}{role}: {first_line}"
        description = " ".join(description.split())[:240]
        vectors.append(
            {
                "id": _vector_id(family.name, scenario),
                "description": description,
                "comment": (
                    f"Found by the property suite (family {family.name}, seed {seed_value}"
                    + (f", transform {case.transform}" if case.transform else "")
                    + f"), {'shrunk by hypothesis' if shrunk else 'not shrunk'}. {message}"
                ),
                "clauses": list(clauses),
                "interpretations": list(interpretations),
                "level": "pinned",
                "input": _input_json(scenario),
                "expect": _expect(reference(scenario)),
            }
        )
    return tuple(vectors)


# ------------------------------------------------------------------------------ running


class _ShrinkBudgetSpent(BaseException):
    """Enough shrinking: keep the smallest failing input found so far."""


@dataclass
class _FamilyRun:
    """The state of one family run: calls so far and the failures seen (last = smallest)."""

    family: Family
    probe: Probe
    config: PropertySettings
    calls: int = 0
    first_failure: int = 0
    failures: list[tuple[Case, PropertyFailure]] = field(default_factory=list)

    def body(self, case: Case) -> None:
        """The hypothesis test body: run the family's check on one generated case."""
        if self.failures and self.calls - self.first_failure >= self.config.shrink_calls:
            raise _ShrinkBudgetSpent
        self.calls += 1
        try:
            self.family.check(self.probe, case)
        except PropertyFailure as failure:
            self._record(case, failure)
            raise
        except (AdapterAbort, KitAbort):
            raise
        except Exception as exc:  # the output broke an assumption of the check
            unreadable = PropertyFailure(
                "unreadable-output",
                ("S6-OUT-01",),
                f"checking the result raised {type(exc).__name__}: {exc}",
            )
            self._record(case, unreadable)
            raise unreadable from exc

    def _record(self, case: Case, failure: PropertyFailure) -> None:
        if not self.failures:
            self.first_failure = self.calls
        # hypothesis only ever tries inputs simpler than the current smallest failure, so
        # the latest failure is the smallest one found so far.
        self.failures.append((case, failure))

    def vectors(
        self, case: Case, failure: PropertyFailure | None, message: str, *, shrunk: bool
    ) -> tuple[Mapping[str, Any], ...]:
        """The counterexample vectors for ``case`` (none when the reference fails too)."""
        try:
            return counterexample_vectors(
                self.family,
                case,
                failure,
                self.probe.reference,
                message=message,
                seed_value=self.config.seed or 0,
                shrunk=shrunk,
            )
        except (KitAbort, Exception):  # the reference failed as well: keep the report going
            return ()


#: One run's result and, when it failed, the smallest failing case and its failure.
_Attempt = tuple[FamilyResult, Case | None, PropertyFailure | None]
_NOT_REPRODUCED = (
    " (found by the stored certification examples; a live hypothesis run did not reproduce "
    "it, so it is reported as found, not shrunk)"
)


def _hypothesis_error(state: _FamilyRun, started: float, exc: BaseException) -> _Attempt:
    """Hypothesis itself failed (not the check): the family errored, with the traceback."""
    errored = _finish(
        state, started, Outcome.ERRORED, message=f"hypothesis: {exc}",
        detail=traceback.format_exc(),
    )  # fmt: skip
    return errored, None, None


def _finish(state: _FamilyRun, started: float, outcome: Outcome, **extra: Any) -> FamilyResult:
    return FamilyResult(
        family=state.family.name,
        outcome=outcome,
        clauses=state.family.clauses,
        examples=state.config.examples_for(state.family),
        calls=state.calls,
        duration_s=time.perf_counter() - started,
        seed=state.config.seed or 0,
        **extra,
    )


def _failed(state: _FamilyRun, started: float, note: str = "", *, shrunk: bool = True) -> _Attempt:
    """The family failed: the last (smallest) failure recorded, as the counterexample."""
    case, failure = state.failures[-1]
    message = failure.message + note
    result = _finish(
        state,
        started,
        Outcome.FAILED,
        message=message,
        check=failure.check,
        failed_clauses=failure.clauses,
        interpretations=failure.interpretations,
        counterexamples=state.vectors(case, failure, message, shrunk=shrunk),
        shrunk=shrunk,
    )
    return result, case, failure


def _aborted(state: _FamilyRun, started: float, abort: AdapterAbort | KitAbort) -> _Attempt:
    """The family errored: the adapter failed on ``abort.scenario`` (unshrunk, it becomes the
    counterexample), or the kit did."""
    if isinstance(abort, KitAbort):
        message = f"kit error: {abort.message}"
        return _finish(state, started, Outcome.ERRORED, message=message, check="kit"), None, None
    message = f"the adapter failed ({abort.error.kind}): {abort.error.message}"
    detail = "\n".join(x for x in (abort.error.detail, abort.error.stderr_tail) if x)
    errored = _finish(
        state,
        started,
        Outcome.ERRORED,
        message=message,
        check="adapter",
        failed_clauses=("S6-OUT-01",),
        counterexamples=state.vectors(Case(abort.scenario), None, message, shrunk=False),
        detail=detail[-4000:],
    )
    return errored, None, None


def _live(
    family: Family,
    probe: Probe,
    config: PropertySettings,
    inputs: frozenset[str] | None,
    checks: frozenset[str] | None,
) -> _Attempt:
    """One hypothesis run of ``family`` (see :func:`_attempt`)."""
    assert config.seed is not None
    started = time.perf_counter()
    state = _FamilyRun(family, probe, config)
    test = family_test(
        family.strategy(inputs), config.examples_for(family), config.seed, state.body
    )
    try:
        with kit_constants_only(), enforcing(checks):
            test()
    except PropertyFailure:
        return _failed(state, started)
    except _ShrinkBudgetSpent:
        return _failed(state, started, f" (shrinking stopped after {config.shrink_calls} calls)")
    except Flaky as exc:
        if not state.failures:
            return _hypothesis_error(state, started, exc)
        note = (
            " (the failure did not repeat when the same input ran again: the implementation "
            "is not deterministic)"
        )
        return _failed(state, started, note, shrunk=False)
    except (AdapterAbort, KitAbort) as abort:
        return _aborted(state, started, abort)
    except HypothesisException as exc:
        return _hypothesis_error(state, started, exc)
    return _finish(state, started, Outcome.PASSED), None, None


def _replay(
    family: Family, probe: Probe, config: PropertySettings, cases: tuple[Case, ...]
) -> _Attempt:
    """Feed the stored ``cases`` to the family's check, in order, as hypothesis would.

    All pass: the result a passing live run gives. The adapter or the kit failing: the result
    the live run gives (it would meet the same case first and not shrink it). A case failing:
    the live run, which finds the failure again and shrinks it; should it pass (another
    hypothesis version, an implementation that is not deterministic), the stored case is the
    counterexample, unshrunk. Calls and duration count both runs.
    """
    started = time.perf_counter()
    state = _FamilyRun(family, probe, config)
    try:
        with enforcing(None):
            for stored in cases:
                state.body(stored)
    except PropertyFailure:
        pass
    except (AdapterAbort, KitAbort) as abort:
        return _aborted(state, started, abort)
    else:
        return _finish(state, started, Outcome.PASSED), None, None
    live, case, failure = _live(family, probe, config, None, None)
    calls, seconds = state.calls + live.calls, time.perf_counter() - started
    if live.outcome is not Outcome.PASSED:
        return replace(live, calls=calls, duration_s=seconds), case, failure
    found, first, its_failure = _failed(state, started, _NOT_REPRODUCED, shrunk=False)
    return replace(found, calls=calls, duration_s=seconds), first, its_failure


def _attempt(
    family: Family,
    probe: Probe,
    config: PropertySettings,
    inputs: frozenset[str] | None = None,
    checks: frozenset[str] | None = None,
) -> _Attempt:
    """One run of ``family``, drawing only the pinned-only inputs of ``inputs`` and enforcing
    only the pinned checks of ``checks`` (``None``: all); the result and, when it failed, the
    smallest failing case and its failure. A default certification run replays the stored
    examples (:mod:`._stored`); any other runs hypothesis."""
    if inputs is None and checks is None:
        cases = stored_cases(family, seed=config.seed, examples=config.examples, deep=config.deep)
        if cases is not None:
            return _replay(family, probe, config, cases)
    return _live(family, probe, config, inputs, checks)


def run_family(family: Family, probe: Probe, config: PropertySettings) -> FamilyResult:
    """Run one family under hypothesis; a failure is shrunk, turned into vectors and
    attributed: to the spec (level ``required``) or to the pinned readings it alone rests on
    (level ``pinned``; see the module docstring)."""
    result, case, failure = _attempt(family, probe, config)
    if result.outcome is not Outcome.FAILED or case is None or failure is None:
        return result
    if not config.table_attribution:
        return result
    # A check resting on a pinned reading names it; otherwise the pinned-only inputs do.
    by_check, by_input = failure.pinned, () if failure.pinned else case.pinned
    if not by_check and not by_input:
        return result
    none: frozenset[str] = frozenset()
    agreed, _, _ = _attempt(family, probe, config, none, none)
    calls, seconds = result.calls + agreed.calls, result.duration_s + agreed.duration_s
    if agreed.outcome is not Outcome.PASSED:  # the spec itself: report that failure
        return replace(
            agreed,
            calls=calls,
            duration_s=seconds,
            attribution="fails on inputs every reading agrees on, with the pinned checks off",
        )
    confirmed = []
    for interpretation in (*by_check, *by_input):
        alone = frozenset({interpretation})
        inputs = None if interpretation in by_check else alone
        outcome, _, found = _attempt(family, probe, config, inputs, alone)
        calls, seconds = calls + outcome.calls, seconds + outcome.duration_s
        if outcome.outcome is Outcome.FAILED and (
            inputs is not None or (found is not None and interpretation in found.pinned)
        ):
            confirmed.append(interpretation)
    involved = (*by_check, *by_input)
    differs_on = tuple(sorted(confirmed)) or tuple(sorted(involved))
    how = (
        "each confirmed by a run with only its inputs and checks"
        if confirmed
        else "none failed alone; named: every interpretation the counterexample involves"
    )
    return replace(
        result,
        level="pinned",
        differs_on=differs_on,
        calls=calls,
        duration_s=seconds,
        attribution=(
            f"passes on inputs every reading agrees on; differs on pinned "
            f"{', '.join(differs_on)} ({how})"
        ),
    )


def run_families(
    adapter: Adapter,
    config: PropertySettings,
    *,
    reference: Adapter | None = None,
    on_result: Callable[[FamilyResult], None] | None = None,
) -> tuple[FamilyResult, ...]:
    """Run the chosen families against a started ``adapter``."""
    probe = Probe(adapter, reference=reference, timeout=config.timeout)
    results = []
    try:
        for family in config.chosen():
            result = run_family(family, probe, config)
            results.append(result)
            if on_result is not None:
                on_result(result)
    finally:
        probe.close()
    return tuple(results)


def run_properties(
    adapter_spec: str,
    config: PropertySettings | None = None,
    *,
    on_result: Callable[[FamilyResult], None] | None = None,
    jobs: int = 1,
) -> PropertiesRun:
    """Start the adapter ``adapter_spec`` names and run the property suite against it, in
    ``jobs`` worker processes when more than one family is chosen (each with its own adapter);
    the results are those of a serial run, in report order."""
    config = (config or PropertySettings()).resolved()
    started = time.perf_counter()
    source = examples_source(seed=config.seed, examples=config.examples, deep=config.deep)
    adapter = open_adapter(adapter_spec, timeout=config.timeout)
    try:
        try:
            handshake = adapter.start()
        except HandshakeError as exc:
            return PropertiesRun(
                adapter_spec, {}, config, (), time.perf_counter() - started, exc.message, source
            )
        chosen = config.chosen()
        if jobs > 1 and len(chosen) > 1:
            adapter.close()  # the workers open their own: no idle adapter during the run
            results = _run_in_workers(adapter_spec, config, chosen, jobs, on_result)
        else:
            results = run_families(adapter, config, on_result=on_result)
        return PropertiesRun(
            adapter_spec,
            dict(handshake.implementation),
            config,
            results,
            time.perf_counter() - started,
            examples_source=source,
        )
    finally:
        adapter.close()


def _worker_share(adapter_spec: str, config: PropertySettings) -> tuple[FamilyResult, ...]:
    """In a worker process: open the adapter and run the families of ``config``."""
    adapter = open_adapter(adapter_spec, timeout=config.timeout)
    try:
        adapter.start()
    except HandshakeError as exc:
        adapter.close()
        return tuple(
            _errored(family, config, f"the adapter failed to start again: {exc.message}")
            for family in config.chosen()
        )
    try:
        return run_families(adapter, config)
    finally:
        adapter.close()


def _errored(family: Family, config: PropertySettings, message: str) -> FamilyResult:
    return FamilyResult(
        family=family.name,
        outcome=Outcome.ERRORED,
        clauses=family.clauses,
        examples=config.examples_for(family),
        calls=0,
        duration_s=0.0,
        seed=config.seed or 0,
        message=message,
        check="kit",
    )


def _run_in_workers(
    adapter_spec: str,
    config: PropertySettings,
    chosen: tuple[Family, ...],
    jobs: int,
    on_result: Callable[[FamilyResult], None] | None,
) -> tuple[FamilyResult, ...]:
    """Deal ``chosen`` to ``jobs`` workers round-robin; collect in report order.

    A worker that dies (or a fault of the kit inside it) errors its families, with the reason,
    and the others' results stand: the section reports it, the run goes on.
    """
    shares = [chosen[i::jobs] for i in range(min(jobs, len(chosen)))]
    by_name: dict[str, FamilyResult] = {}
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=len(shares), mp_context=context) as pool:
        futures = [
            (
                share,
                pool.submit(
                    _worker_share,
                    adapter_spec,
                    replace(config, families=tuple(f.name for f in share)),
                ),
            )
            for share in shares
        ]
        for share, future in futures:
            try:
                for result in future.result():
                    by_name[result.family] = result
            except Exception as exc:  # the worker process failed, not the implementation
                for family in share:
                    by_name[family.name] = _errored(
                        family, config, f"kit error: a property worker failed: {exc!r}"
                    )
    results = tuple(by_name[family.name] for family in chosen)
    if on_result is not None:
        for result in results:
            on_result(result)
    return results
