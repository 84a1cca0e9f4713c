"""Attribution for the Phase 2 profile: which listed reading, if any, *reproduces* each failure.

The Phase 2 twin of :mod:`conformance.run._attribution` (SPEC-006): a vector's
``interpretations`` cannot tell "reads P2-INT-08 the other way" from "has a bug near
P2-INT-08" (P2-INT-20 is listed on every context vector; many vectors that P2-INT-08 decides
do not list it), so evidence decides. The reference engine is run as a subprocess through the
adapter protocol (``python -m reference.phase2 serve-protocol --readings-per-run``, each run
naming its readings and policy text: one process serves them all; :func:`reading_engine_spec`
names a process fixed on one set): the harness never imports it.

0. **The policy text is a parameter** (P2-INT-04: "System memory policy snippet (fixed)." fixes
   that there is one snippet, not its words). :func:`read_policy` reads it from the
   implementation's 200 responses; when every one of them starts with the same policy text and
   that text is not the register's, every context vector it failed gets its expectation
   recomputed by the reference with that text, and is judged again against it: an engine with
   other words fails only what else it does differently. The text is named in the profile as
   ``P2-INT-04/implementation-text``. Texts that differ between responses are no parameter
   (the snippet is "fixed"): the vectors and ``policy-query-present`` fail as they are.
   An alternative that leaves a value free (``parameters`` in the register,
   ``P2-INT-06/several``) is run with the values the failing outputs suggest
   (:data:`INFERENCES`: the number of summary blocks a failing context holds), at most
   ``MAX_VALUES_TRIED`` of them, most suggested first, each a reading of its own
   (``P2-INT-06/several(n=3)``); a declared one with its declared value.
1. Every vector still failing on a mismatch only (an error, nondeterminism or a broken
   protocol is never a reading) is run by the reference under every other executable
   alternative (``executable`` in specs/phase2/interpretations.toml), with the parameter. An
   alternative that does not change the vector's expectation explains nothing there; one
   whose outcome the implementation's outcome equals (the vector's own comparison rules)
   *explains* that failure.
2. The **reading profile**: for each entry, the alternative that explains the most failures;
   one whose every failure a broader profile alternative (of another entry) also explains is
   left out.
3. A failure no single alternative explains is run under the whole profile (readings combine).
4. What is left is explained by no listed reading: a bug, or a reading the register does not
   list yet; the verdict says so (:func:`phase2_verdict`).
5. One consistent reading per entry: the vectors the implementation passed are run under each
   profile alternative (with the parameter), and one it changes is a contradiction: the
   implementation follows that reading only in part, which no listed reading describes.

An implementation may **declare** its readings (``readings`` in its start reply, or
``certify --readings FILE``), as for SPEC-006: the declaration is then its profile (step 2 is
not inferred), a failure only an undeclared alternative reproduces, a declared alternative it
answers the pinned way (step 5), or a policy text that is its own without
``P2-INT-04/implementation-text`` declared (or the register's with it declared) is a
contradiction of its own declaration, and the run is not compliant.

A reply the reference cannot give (the kit's own fault) leaves the failure unexplained and is
said in :attr:`~conformance.run.Attribution.faults`.
"""

from __future__ import annotations

import dataclasses
import json
import shlex
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from conformance._errors import AdapterError
from conformance._kit import dumps
from conformance.phase2._compare import compare, expect_from_observed
from conformance.phase2._corpus import Phase2Vector
from conformance.phase2._engines import (
    Observation,
    ProtocolEngine,
    PythonEngine,
    open_process_engine,
)
from conformance.phase2._readings import POLICY_ALTERNATIVE, POLICY_SNIPPET
from conformance.phase2._registers import executable_alternatives, reading_parameters
from conformance.phase2._runner import judge
from conformance.registers import ReadingParameter, split_reading_id
from conformance.run import (
    Attribution,
    FailureKind,
    Outcome,
    VectorResult,
    Verdict,
    VerdictValue,
    inconsistency_note,
)

__all__ = [
    "INFERENCES",
    "MAX_VALUES_TRIED",
    "Evidence",
    "attribute_phase2",
    "phase2_verdict",
    "read_policy",
    "reading_engine_spec",
]

Json = Any
_SHOWN_POLICY = 120
#: How :func:`conformance.run.compute_verdict` says a failure no reading reproduces (a bug):
#: :func:`phase2_verdict` says it first, naming the Phase 2 register, and only once.
_SAID_BY_SPEC006 = "failed in a way no listed reading reproduces"
#: How a fault says the reference could not be started: no evidence then (not examined).
_NOT_STARTED = "the reference did not start"


def _summary_blocks(vector: Phase2Vector, actual: Json) -> set[int]:
    """P2-INT-06/several(n=N): N read as the number of summary blocks of a failing 200
    context (its layer holds the N latest summaries)."""
    body = actual.get("body") if isinstance(actual, dict) and actual.get("status") == 200 else None
    context = body.get("context") if isinstance(body, dict) else None
    if not isinstance(context, list):
        return set()
    count = sum(
        1 for block in context if isinstance(block, dict) and block.get("layer") == "summary"
    )
    return {count} if count else set()


def _block_overhead(vector: Phase2Vector, actual: Json) -> set[int]:
    """P2-INT-03/block-overhead(tokens=K): K read as estimated_used less the blocks' tokens,
    per block, of a failing 200 context (when that divides evenly)."""
    body = actual.get("body") if isinstance(actual, dict) and actual.get("status") == 200 else None
    context = body.get("context") if isinstance(body, dict) else None
    budget = body.get("budget") if isinstance(body, dict) else None
    used = budget.get("estimated_used") if isinstance(budget, dict) else None
    if not isinstance(context, list) or not context or type(used) is not int:
        return set()
    tokens = [block.get("tokens") if isinstance(block, dict) else None for block in context]
    if not all(type(t) is int for t in tokens):
        return set()
    extra = used - sum(t for t in tokens if isinstance(t, int))
    return {extra // len(context)} if extra > 0 and extra % len(context) == 0 else set()


#: Parameterized alternative -> how the values it may have been run with are read from one
#: failing vector and what the implementation returned on it (each candidate is then run).
INFERENCES: dict[str, Callable[[Phase2Vector, Json], set[int]]] = {
    "P2-INT-03/block-overhead": _block_overhead,
    "P2-INT-06/several": _summary_blocks,
}
#: How many values of one parameter are tried at most (those most failing vectors suggest).
MAX_VALUES_TRIED = 3


def _valued(
    parameters: Mapping[str, ReadingParameter],
    candidates: Sequence[tuple[Phase2Vector, Json]],
    declared: Sequence[str],
) -> list[str]:
    """The readings with a value to run: each declared one its parameter takes, then the
    values the failing outputs suggest most (at most :data:`MAX_VALUES_TRIED` each), so a
    value followed but not declared is found too."""
    found: list[str] = []
    for alternative, parameter in parameters.items():
        found += [reading for reading in declared if _takes(reading, alternative, parameter)]
        votes: Counter[int] = Counter()
        infer = INFERENCES.get(alternative)
        for vector, actual in candidates:
            votes.update(v for v in (infer(vector, actual) if infer else ()) if parameter.takes(v))
        chosen = sorted(votes, key=lambda value: (-votes[value], value))[:MAX_VALUES_TRIED]
        found += [parameter.instance(alternative, value) for value in chosen]
    return list(dict.fromkeys(found))


def _takes(reading: str, alternative: str, parameter: ReadingParameter) -> bool:
    """Whether ``reading`` is ``alternative`` with a value ``parameter`` takes."""
    base, name, value = split_reading_id(reading)
    return (
        base == alternative
        and name == parameter.name
        and value is not None
        and (parameter.takes(value))
    )


#: The bundled reference engine answering each run under the readings the run names.
READINGS_SERVER = "cmd:" + shlex.join(
    [sys.executable, "-m", "reference.phase2", "serve-protocol", "--readings-per-run"]
)


def reading_engine_spec(alternatives: Sequence[str], policy: str | None = None) -> str:
    """The adapter spec of the bundled reference engine run under ``alternatives`` and, when
    given, the policy text ``policy``."""
    words = [sys.executable, "-m", "reference.phase2", "serve-protocol"]
    if alternatives:
        words += ["--readings", ",".join(alternatives)]
    if policy is not None:
        words += ["--policy-json", json.dumps(policy)]
    return "cmd:" + shlex.join(words)


def read_policy(outcomes: Iterable[Json]) -> tuple[str | None, tuple[str, ...]]:
    """(the policy text every 200 context outcome starts with, or ``None`` when they are not
    one text; every distinct text found, in order of appearance)."""
    texts: list[str] = []
    for observed in outcomes:
        if not isinstance(observed, dict) or observed.get("status") != 200:
            continue
        body = observed.get("body")
        context = body.get("context") if isinstance(body, dict) else None
        first = context[0] if isinstance(context, list) and context else None
        if isinstance(first, dict) and first.get("layer") == "policy":
            text = first.get("text")
            if isinstance(text, str) and text not in texts:
                texts.append(text)
    return (texts[0] if len(texts) == 1 else None), tuple(texts)


@dataclass(frozen=True)
class Evidence:
    """What attribution found: the :class:`~conformance.run.Attribution` for the report, the
    implementation's policy text when it is its own (``None``: the register's), and the results
    judged again under that text (vector ID -> result; only the ones re-judged)."""

    attribution: Attribution = field(default_factory=Attribution)
    policy: str | None = None
    rejudged: Mapping[str, VectorResult] = field(default_factory=dict)


class _Reference:
    """The reference engine answering each run under the readings and policy text the run
    names (``serve-protocol --readings-per-run``): one process, started on first use, for
    every set of readings attribution tries (a process start costs more than its runs)."""

    def __init__(self, timeout: float):
        self.timeout = timeout
        self._engine: ProtocolEngine | PythonEngine | None = None
        self._failed: AdapterError | OSError | None = None

    def outcome(
        self, alternatives: Sequence[str], policy: str | None, vector: Phase2Vector
    ) -> Json:
        engine = self._started()
        named = b'"readings":%s,"policy":%s' % (dumps(list(alternatives)), dumps(policy))
        return engine.exchange_run(
            lambda seq: (
                b'{"cmd":"run","seq":%d,%s,"fixture":%s,"call":%s}\n'
                % (seq, named, dumps(vector.fixture), dumps(vector.call))
            )
        )

    def _started(self) -> ProtocolEngine | PythonEngine:
        if self._failed is not None:
            raise self._failed
        if self._engine is None:
            engine = open_process_engine(READINGS_SERVER, timeout=self.timeout)
            try:
                engine.start()
            except (AdapterError, OSError) as exc:
                self._failed = exc
                raise
            self._engine = engine
        return self._engine

    @property
    def failed_to_start(self) -> bool:
        """Whether the process could not start (nothing can be asked of it)."""
        return self._failed is not None

    def close(self) -> None:
        if self._engine is not None:
            self._engine.close()


def _outcomes(
    alternatives: Sequence[str],
    policy: str | None,
    vectors: Sequence[Phase2Vector],
    reference: _Reference,
    faults: list[str],
) -> dict[str, Json]:
    """Vector ID -> the reference's outcome under ``alternatives`` (and ``policy``)."""
    found: dict[str, Json] = {}
    label = ", ".join(alternatives) or POLICY_ALTERNATIVE
    for vector in vectors:
        try:
            found[vector.id] = reference.outcome(alternatives, policy, vector)
        except (AdapterError, OSError) as exc:
            if reference.failed_to_start:
                faults.append(
                    f"{_NOT_STARTED} under {', '.join(alternatives) or 'its pinned readings'}: "
                    f"{exc}"
                )
                return found
            faults.append(f"{vector.id} under {label}: {exc}")
    return found


def _reproduced(
    alternatives: Sequence[str],
    policy: str | None,
    candidates: Sequence[tuple[Phase2Vector, Json]],
    reference: _Reference,
    faults: list[str],
) -> set[str]:
    """The IDs of the vectors on which the reference under ``alternatives`` gives what the
    implementation gave, and not what the vector expects."""
    outcomes = _outcomes(alternatives, policy, [v for v, _ in candidates], reference, faults)
    found = set()
    for vector, actual in candidates:
        if vector.id not in outcomes:
            continue
        output, fixture, call = outcomes[vector.id], vector.fixture, vector.call
        if not compare(fixture, call, vector.expect, output):
            continue  # this reading does not change this vector: it explains nothing here
        if not compare(fixture, call, expect_from_observed(call, output), actual):
            found.add(vector.id)
    return found


def _attributable(result: VectorResult, observation: Observation | None) -> bool:
    """A failure a reading could explain: mismatches only, with the outcome kept."""
    return (
        observation is not None
        and result.outcome is Outcome.FAILED
        and all(failure.kind is FailureKind.MISMATCH for failure in result.failures)
    )


def _under_policy(
    policy: str,
    vectors: Mapping[str, Phase2Vector],
    failing: Sequence[VectorResult],
    observed: Mapping[str, Observation],
    reference: _Reference,
    faults: list[str],
) -> tuple[dict[str, Phase2Vector], dict[str, VectorResult]]:
    """Step 0: the failing context vectors with their expectation under the implementation's
    policy text, and their results judged again against it."""
    chosen = [
        vectors[r.id]
        for r in failing
        if vectors[r.id].op == "context" and _attributable(r, observed.get(r.id))
    ]
    outcomes = _outcomes([], policy, chosen, reference, faults)
    moved: dict[str, Phase2Vector] = {}
    rejudged: dict[str, VectorResult] = {}
    for vector in chosen:
        if vector.id not in outcomes:
            continue
        expect = expect_from_observed(vector.call, outcomes[vector.id])
        if expect == vector.expect:
            continue  # the policy text plays no part here (an error response)
        moved[vector.id] = dataclasses.replace(vector, expect_json=dumps(expect))
        before = next(r for r in failing if r.id == vector.id)
        again = judge(moved[vector.id], observed[vector.id], time.perf_counter())
        rejudged[vector.id] = dataclasses.replace(again, duration_s=before.duration_s)
    return moved, rejudged


def _declared_policy(
    declared: Sequence[str], policy: str | None, texts: Sequence[str]
) -> str | None:
    """The contradiction between a declaration and the policy text read (``None``: none)."""
    if POLICY_ALTERNATIVE in declared and policy is None:
        found = "more than one text" if len(texts) > 1 else "the register's text"
        return f"declares {POLICY_ALTERNATIVE}, but its policy block holds {found}"
    if POLICY_ALTERNATIVE not in declared and policy is not None:
        return (
            f"its policy snippet is its own text without declaring {POLICY_ALTERNATIVE} "
            f"(the parameter): {_shown(policy)}"
        )
    return None


def attribute_phase2(
    vectors: Mapping[str, Phase2Vector],
    results: Iterable[VectorResult],
    observed: Mapping[str, Observation],
    *,
    alternatives: Sequence[str] | None = None,
    declared: Sequence[str] | None = None,
    timeout: float = 30.0,
) -> Evidence:
    """Steps 0-5 of the module docstring for one run's results and observations
    (``declared``: the readings the implementation says it follows, which then are its
    profile)."""
    reference = _Reference(timeout)
    try:
        return _attribute_phase2(vectors, results, observed, alternatives, declared, reference)
    finally:
        reference.close()


def _attribute_phase2(
    vectors: Mapping[str, Phase2Vector],
    results: Iterable[VectorResult],
    observed: Mapping[str, Observation],
    alternatives: Sequence[str] | None,
    declared: Sequence[str] | None,
    reference: _Reference,
) -> Evidence:
    results = list(results)
    tried = tuple(alternatives if alternatives is not None else executable_alternatives())
    parameters = {a: p for a, p in reading_parameters().items() if a in tried}
    policy, texts = read_policy(
        observation.outcomes[0] for observation in observed.values() if observation.outcomes
    )
    if policy == POLICY_SNIPPET or POLICY_ALTERNATIVE not in tried:
        policy = None
    contradictions = [
        f"declares {reading!r}, which is not an executable alternative of "
        "specs/phase2/interpretations.toml"
        + (
            f" without its value ({parameters[reading].instance(reading, parameters[reading].low)}"
            " for example)"
            if reading in parameters
            else ""
        )
        for reading in declared or ()
        if (reading not in tried or reading in parameters)
        and not any(_takes(reading, a, p) for a, p in parameters.items())
    ]
    if declared is not None:
        said = _declared_policy(declared, policy, texts)
        contradictions += [said] if said is not None else []
    failing = [r for r in results if not r.ok and r.outcome in (Outcome.FAILED, Outcome.ERRORED)]
    runnable = tuple(a for a in tried if a not in parameters)
    if not failing and declared is None:
        return Evidence(Attribution(tried=runnable, examined=True))
    faults: list[str] = []
    rejudged: dict[str, VectorResult] = {}
    if policy is not None:  # 0. the policy text is the implementation's
        moved, rejudged = _under_policy(policy, vectors, failing, observed, reference, faults)
        vectors = {**vectors, **moved}
        failing = [rejudged.get(r.id, r) for r in failing]
        failing = [r for r in failing if not r.ok]
    candidates = [
        (vectors[r.id], observed[r.id].outcomes[0])
        for r in failing
        if _attributable(r, observed.get(r.id))
    ]
    # the readings with a value: declared, or read from the failing outputs
    tried = (*runnable, *_valued(parameters, candidates, declared or ()))
    # 1. every alternative alone (the parameter is not a choice: it is always applied)
    single: dict[str, set[str]] = {}
    if candidates:
        for alternative in tried:
            if alternative != POLICY_ALTERNATIVE:
                single[alternative] = _reproduced(
                    [alternative], policy, candidates, reference, faults
                )
    # 2. the profile: what it declares, else one alternative per entry, the one explaining
    # the most failures
    if declared is not None:
        profile = [a for a in tried if a in declared and a != POLICY_ALTERNATIVE]
        entries = Counter(alternative.split("/", 1)[0] for alternative in profile)
        contradictions += [
            f"declares two readings of {entry}" for entry, n in entries.items() if n > 1
        ]
    else:
        best: dict[str, str] = {}
        for alternative, reproduced in single.items():
            entry = alternative.split("/", 1)[0]
            if reproduced and (entry not in best or len(reproduced) > len(single[best[entry]])):
                best[entry] = alternative
        # an alternative whose every failure a broader one of the profile explains adds
        # nothing: left out (one vector may be reproduced by readings of two entries)
        covered: set[str] = set()
        for alternative in sorted(best.values(), key=lambda a: (-len(single[a]), a)):
            if single[alternative] - covered:
                covered |= single[alternative]
            else:
                del best[alternative.split("/", 1)[0]]
        profile = sorted(best.values())
    explained: dict[str, tuple[str, ...]] = {}
    for alternative in profile:
        for vector_id in single.get(alternative, ()):
            explained[vector_id] = (*explained.get(vector_id, ()), alternative)
    # 3. failures no single alternative explains, under the whole profile
    if len(profile) > 1:
        rest = [(vector, actual) for vector, actual in candidates if vector.id not in explained]
        for vector_id in _reproduced(profile, policy, rest, reference, faults):
            explained[vector_id] = tuple(profile)
    if declared is not None:
        for alternative in tried:
            undeclared = single.get(alternative, set()) - explained.keys()
            if alternative not in profile and undeclared:
                contradictions.append(
                    f"{alternative}, which it does not declare, reproduces {len(undeclared)} "
                    f"failing vector(s) (e.g. {min(undeclared)})"
                )
    # 5. one consistent reading per entry: a vector a profile alternative changes must not be
    # answered the pinned way
    ok = {r.id for r in results if r.ok} | {i for i, r in rejudged.items() if r.ok}
    passed = [vectors[i] for i in sorted(ok) if i in vectors]
    inconsistent: dict[str, tuple[str, ...]] = {}
    for alternative in profile:
        changed = _changed([alternative], policy, passed, reference, faults)
        if changed and len(profile) > 1:  # the whole profile may answer them the pinned way
            again = [vectors[i] for i in changed]
            changed = _changed(profile, policy, again, reference, faults)
        if changed:
            inconsistent[alternative] = changed
            contradictions.append(inconsistency_note(alternative, changed, declared is not None))
    if policy is not None:
        profile = sorted([*profile, POLICY_ALTERNATIVE])
    unexplained = tuple(r.id for r in failing if r.id not in explained)
    examined = not any(fault.startswith(_NOT_STARTED) for fault in faults)
    attribution = Attribution(
        tried,
        tuple(profile),
        explained,
        unexplained,
        tuple(faults[:20]),
        examined,
        None if declared is None else tuple(declared),
        tuple(contradictions),
        inconsistent,
    )
    return Evidence(attribution, policy, rejudged)


def _changed(
    alternatives: Sequence[str],
    policy: str | None,
    vectors: Sequence[Phase2Vector],
    reference: _Reference,
    faults: list[str],
) -> tuple[str, ...]:
    """The IDs of ``vectors`` whose expectation the reference under ``alternatives`` (and
    ``policy``) does not meet (sorted)."""
    outcomes = _outcomes(alternatives, policy, vectors, reference, faults)
    return tuple(
        sorted(
            vector.id
            for vector in vectors
            if vector.id in outcomes
            and compare(vector.fixture, vector.call, vector.expect, outcomes[vector.id])
        )
    )


def _shown(policy: str) -> str:
    text = json.dumps(policy, ensure_ascii=False)
    return text if len(text) <= _SHOWN_POLICY else text[: _SHOWN_POLICY - 4] + '..."'


def phase2_verdict(
    verdict: Verdict,
    evidence: Evidence,
    results: Iterable[VectorResult],
) -> Verdict:
    """The Phase 2 verdict from the SPEC-006 one (:func:`conformance.run.compute_verdict`,
    given the attribution's ``explained``), with what evidence adds:

    - a failing vector no listed reading explains is a bug, whatever its level: non-compliant
      (every Phase 2 vector is ``pinned``, so labels alone would call any bug a reading);
    - the implementation's own policy text is a reading the verdict names
      (``P2-INT-04/implementation-text``), with the text, even when nothing else differs;
    - ``differs_on`` is the reading profile, evidence only (never guessed from labels).
    """
    attribution = evidence.attribution
    unexplained = [
        r.id
        for r in results
        if not r.ok
        and r.outcome in (Outcome.FAILED, Outcome.ERRORED)
        and r.id not in attribution.explained
    ]
    if verdict.value is VerdictValue.ADAPTER_BROKEN:
        return verdict
    # evidence only: the labels' guess (pinned_cover) would name P2-INT-20, on every vector
    named = attribution.profile
    policy_reason: tuple[str, ...] = ()
    if evidence.policy is not None:
        shown = _shown(evidence.policy)
        policy_reason = (f"its policy snippet is its own text (P2-INT-04, a parameter): {shown}",)
    if unexplained:
        bug = (
            f"{len(unexplained)} failing vector(s) no listed reading explains (first "
            f"{unexplained[0]}): a bug, or a reading specs/phase2/interpretations.toml does "
            "not list yet (propose it as an alternative of the entry it reads)"
        )
        # the SPEC-006 verdict's own count of the same failures, said once (here, first)
        others = tuple(r for r in verdict.reasons if _SAID_BY_SPEC006 not in r)
        already = others if verdict.value is VerdictValue.NON_COMPLIANT else ()
        return dataclasses.replace(
            verdict,
            value=VerdictValue.NON_COMPLIANT,
            text="non-compliant: " + "; ".join((bug, *already)),
            differs_on=named,
            reasons=(bug, *others, *policy_reason),
        )
    if verdict.value is VerdictValue.NON_COMPLIANT:
        return dataclasses.replace(verdict, differs_on=named)
    if not attribution.profile:
        return verdict
    return dataclasses.replace(
        verdict,
        value=VerdictValue.COMPLIANT_REQUIRED_ONLY,
        text=f"compliant on required, follows {', '.join(attribution.profile)}",
        differs_on=named,
        reasons=(*verdict.reasons, *policy_reason),
    )
