"""Attribution: which listed reading, if any, *reproduces* each failure -- evidence, not labels.

A vector's ``interpretations`` say which register entries its expected result rests on, but a
label cannot tell "reads INT-27 the other way" from "has a bug near INT-27". So for every
vector an implementation failed, the certifier runs the bundled reference under each
executable alternative of the interpretation register (``executable`` in
``specs/interpretations.toml``; ``reference/_readings.py``), served like any implementation
(``python -m reference serve --readings ID``), and judges what the implementation returned
against what the reference returned under that alternative, with the same comparison as the
vector's own expectation. An alternative that gives exactly what the implementation gave
*explains* that failure.

1. Every failing vector (a mismatch only: an errored vector, a store mutation or a
   nondeterministic reply is never a reading) is run under every executable alternative.
2. The implementation's **reading profile**: for each entry, the alternative that explains
   the most of its failures.
3. A failure no single alternative explains is run under the whole profile (readings combine:
   verbatim query terms *and* another drop reason).
4. What is left is explained by no listed reading: a bug, or a reading the register does not
   list yet (the report says how to propose one).

The reference is run as a subprocess through the adapter protocol: the harness never imports
it. A reply the reference cannot give (the harness's own fault) leaves the failure
unexplained and is said in :attr:`Attribution.faults`.
"""

from __future__ import annotations

import shlex
import sys
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from conformance._errors import AdapterError, CorpusError
from conformance._kit import dumps, loads
from conformance.adapters import open_adapter
from conformance.corpus import Vector, Workspace
from conformance.registers import load_interpretations
from conformance.run._compare import compare_result
from conformance.run._results import FailureKind, Outcome, VectorResult

__all__ = [
    "MAX_KEPT_ACTUAL",
    "Attribution",
    "attribute",
    "executable_alternatives",
    "keep_actual",
    "reading_reference_spec",
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


def executable_alternatives() -> tuple[str, ...]:
    """Every executable alternative named by the interpretation register, in register order."""
    return tuple(alt for entry in load_interpretations() for alt in entry.executable)


def reading_reference_spec(alternatives: Sequence[str]) -> str:
    """The adapter spec of the bundled reference run under ``alternatives``."""
    joined = shlex.quote(",".join(alternatives))
    return f"cmd:{shlex.quote(sys.executable)} -m reference serve --readings {joined}"


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
    """The reference under one set of alternatives, on vectors laid out in a private workspace."""

    def __init__(self, alternatives: Sequence[str], timeout: float):
        self.adapter = open_adapter(reading_reference_spec(alternatives), timeout=timeout)
        self.adapter.start()
        self.workspace = Workspace(prefix="phase6-readings-")

    def output(self, vector: Vector) -> Any:
        name = "v"
        root = self.workspace.materialize(name, vector)
        try:
            return self.adapter.run(vector.request_json, root)
        finally:
            self.workspace.remove(name)

    def close(self) -> None:
        try:
            self.adapter.close()
        finally:
            self.workspace.close()


def _reproduced(
    alternatives: Sequence[str],
    candidates: Sequence[tuple[Vector, Any]],
    timeout: float,
    faults: list[str],
) -> set[str]:
    """The IDs of the vectors on which the reference under ``alternatives`` returns what the
    implementation returned."""
    found: set[str] = set()
    try:
        runner = _ReadingRunner(alternatives, timeout)
    except (AdapterError, OSError) as exc:
        faults.append(f"{_NOT_STARTED} under {', '.join(alternatives)}: {exc}")
        return found
    try:
        for vector, actual in candidates:
            try:
                output = runner.output(vector)
            except (AdapterError, CorpusError, OSError) as exc:
                faults.append(f"{vector.id} under {', '.join(alternatives)}: {exc}")
                continue
            if compare_result(vector.expect, output) is None:
                continue  # this reading does not change this vector: it explains nothing here
            if compare_result(_projected(vector.expect, output), actual) is None:
                found.add(vector.id)
    finally:
        runner.close()
    return found


def attribute(
    vectors: Iterable[Vector],
    results: Iterable[VectorResult],
    *,
    alternatives: Sequence[str] | None = None,
    timeout: float = 30.0,
) -> Attribution:
    """Steps 1-4 of the module docstring for one run's results."""
    by_id = {vector.id: vector for vector in vectors}
    failing = [r for r in results if not r.ok and r.outcome in (Outcome.FAILED, Outcome.ERRORED)]
    if not failing:
        return Attribution(examined=True)
    tried = tuple(alternatives if alternatives is not None else executable_alternatives())
    candidates = [
        (by_id[r.id], loads(r.actual))
        for r in failing
        if _attributable(r) and r.id in by_id and r.actual is not None
    ]
    faults: list[str] = []
    single: dict[str, set[str]] = {}
    if candidates:
        for alternative in tried:
            single[alternative] = _reproduced([alternative], candidates, timeout, faults)
    # 2. the profile: one alternative per entry, the one explaining the most failures.
    best: dict[str, str] = {}
    for alternative, reproduced in single.items():
        if not reproduced:
            continue
        entry = alternative.split("/", 1)[0]
        if entry not in best or len(reproduced) > len(single[best[entry]]):
            best[entry] = alternative
    profile = tuple(sorted(best.values()))
    explained: dict[str, tuple[str, ...]] = {}
    for alternative in profile:
        for vector_id in single[alternative]:
            explained[vector_id] = (*explained.get(vector_id, ()), alternative)
    # 3. failures no single alternative explains, under the whole profile.
    if len(profile) > 1:
        rest = [(vector, actual) for vector, actual in candidates if vector.id not in explained]
        for vector_id in _reproduced(profile, rest, timeout, faults):
            explained[vector_id] = profile
    unexplained = tuple(r.id for r in failing if r.id not in explained)
    examined = not any(fault.startswith(_NOT_STARTED) for fault in faults)
    return Attribution(tried, profile, explained, unexplained, tuple(faults[:20]), examined)
