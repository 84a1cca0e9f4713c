"""Behavioural probes: black-box checks of the MUSTs no fixed vector can test.

Seven probes, named as in ``specs/clauses.toml`` (``verified_by = ["probe:<name>"]``):
``clock``, ``environment``, ``network``, ``read-only``, ``receipt``, ``errors-repeat`` and
``streaming``. Each runs the implementation in fresh subprocesses under changed conditions
(a shifted clock, other locales, no network, strace, read-only stores, a large store) and
reports one :class:`CheckResult` per check, each naming the clauses it verifies. A check whose
tool is missing here is ``skipped`` with the reason, never ``passed``.

- :func:`run_probes` runs them against an ``--adapter`` string;
- :func:`certify_section` is the report-section provider ``certify`` runs (section ``probes``,
  affecting the verdict); the section option ``probes=clock,network`` selects probes;
- ``python -m conformance probes --adapter "cmd:..."`` prints a table (``nox -s probes``).
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from conformance.probes import (
    _clock,
    _environment,
    _errors_repeat,
    _network,
    _read_only,
    _receipt,
    _streaming,
    _tools,
)
from conformance.probes._context import ProbeContext
from conformance.probes._launch import Launcher
from conformance.probes._model import CheckResult, Probe
from conformance.probes._streaming import proc_field_kib, process_tree
from conformance.registers import load_clauses
from conformance.run import Outcome, Section, SectionContext, SectionItem, worst_outcome

__all__ = [
    "PINNED_CHECKS",
    "PROBES",
    "CheckResult",
    "Probe",
    "ProbeRun",
    "certify_section",
    "clause_rollup",
    "proc_field_kib",
    "process_tree",
    "run_probes",
    "tool_report",
]

#: Every probe, in report order; names are the ``probe:<name>`` of the clause register.
PROBES: Mapping[str, Probe] = {
    probe.name: probe
    for probe in (
        _clock.PROBE,
        _environment.PROBE,
        _network.PROBE,
        _read_only.PROBE,
        _receipt.PROBE,
        _errors_repeat.PROBE,
        _streaming.PROBE,
    )
}
DEFAULT_TIMEOUT = 30.0
#: The probe checks that can fail on a pinned reading alone, and when (every other check, and
#: every other failure of these, rests on the spec text).
PINNED_CHECKS: Mapping[str, str] = {
    "clock:shifted-clock": "INT-37, when every difference is on a request that gives now_utc",
    "clock:timezone": "INT-37, when every difference is on a request that gives now_utc",
    "errors-repeat:same-process": "never: an invalid request may be answered with a package "
    "where the reference under a listed alternative answers it so (evidence; the check's "
    "details name them)",
    "errors-repeat:fresh-process": "never, as same-process",
}


@dataclass(frozen=True)
class ProbeRun:
    """The results of running probes against one adapter."""

    adapter: str
    results: tuple[CheckResult, ...]
    durations: Mapping[str, float]
    duration_s: float

    @property
    def outcome(self) -> Outcome:
        """The worst check outcome (``skipped`` only if nothing ran at all)."""
        outcomes = [r.outcome for r in self.results]
        if outcomes and all(o is Outcome.SKIPPED for o in outcomes):
            return Outcome.SKIPPED
        return worst_outcome(o for o in outcomes if o is not Outcome.SKIPPED)

    def failed(self) -> tuple[CheckResult, ...]:
        """Checks that failed or errored."""
        return tuple(r for r in self.results if r.outcome in (Outcome.FAILED, Outcome.ERRORED))


def tool_report() -> dict[str, str]:
    """What each outside tool is on this machine: its command prefix, or why it is missing."""
    tools = {
        "faketime": _tools.faketime(),
        "unshare": _tools.unshare(),
        "strace": _tools.strace(),
        "proc": _tools.proc_status(),
    }
    report = {
        name: " ".join(tool.prefix) or "available" if tool.available else f"missing: {tool.reason}"
        for name, tool in tools.items()
    }
    report["locales"] = ", ".join(sorted(_tools.locales()))
    return report


def _select(names: Iterable[str] | None) -> list[Probe]:
    if names is None:
        return list(PROBES.values())
    chosen = []
    for name in names:
        if name not in PROBES:
            raise KeyError(f"unknown probe {name!r}; probes: {', '.join(PROBES)}")
        chosen.append(PROBES[name])
    return chosen


def run_probes(
    adapter: str,
    names: Iterable[str] | None = None,
    *,
    timeout: float = DEFAULT_TIMEOUT,
    temp_parent: str | None = None,
) -> ProbeRun:
    """Run the named probes (default: all) against ``adapter``.

    An exception inside a probe (a bug of the kit, not of the implementation) becomes one
    ``errored`` check for that probe; the other probes still run.
    """
    started = time.perf_counter()
    launcher = Launcher.for_spec(adapter, timeout=timeout)
    results: list[CheckResult] = []
    durations: dict[str, float] = {}
    with ProbeContext(launcher, temp_parent=temp_parent) as context:
        for probe in _select(names):
            begin = time.perf_counter()
            try:
                results.extend(probe.run(context))
            except Exception as exc:
                results.append(
                    CheckResult(
                        probe.name, "probe", Outcome.ERRORED, probe_clauses(probe.name),
                        f"the probe itself failed: {type(exc).__name__}: {exc}",
                    )
                )  # fmt: skip
            durations[probe.name] = time.perf_counter() - begin
    return ProbeRun(adapter, tuple(results), durations, time.perf_counter() - started)


def probe_clauses(name: str) -> tuple[str, ...]:
    """The clause IDs whose ``verified_by`` lists ``probe:<name>``, in register order."""
    return tuple(c.id for c in load_clauses() if f"probe:{name}" in c.verified_by)


def clause_rollup(
    results: Sequence[CheckResult], names: Iterable[str] | None = None
) -> dict[str, dict[str, Any]]:
    """Per clause: the worst outcome of the checks verifying it, and those checks.

    Every clause whose ``verified_by`` names one of the probes appears; a clause no check
    covered is ``untested`` (the kit's own tests keep that from happening).
    """
    probes = [p.name for p in _select(names)]
    rollup: dict[str, dict[str, Any]] = {}
    for clause in load_clauses():
        mine = [p for p in probes if f"probe:{p}" in clause.verified_by]
        if not mine:
            continue
        checks = [r for r in results if r.probe in mine and clause.id in r.clauses]
        outcomes = tuple(r.outcome for r in checks)
        rolled: str = (
            worst_outcome(o for o in outcomes if o is not Outcome.SKIPPED) if checks else "untested"
        )
        if checks and all(o is Outcome.SKIPPED for o in outcomes):
            rolled = Outcome.SKIPPED
        rollup[clause.id] = {
            "outcome": rolled,
            "probes": mine,
            "checks": [f"{r.id}={r.outcome}" for r in checks],
        }
    return rollup


def _section_status(run: ProbeRun) -> Outcome:
    outcomes = {r.outcome for r in run.results}
    if outcomes <= {Outcome.SKIPPED}:
        return Outcome.SKIPPED
    return worst_outcome(o for o in outcomes if o is not Outcome.SKIPPED)


def certify_section(context: SectionContext) -> Section:
    """Report-section provider ``probes`` (in SECTION_PROVIDERS): every probe, per clause.

    Section option ``probes=name,name`` limits the probes run.
    """
    option = context.options.get("probes")
    names = [n.strip() for n in option.split(",") if n.strip()] if option else None
    run = run_probes(context.adapter_spec, names, timeout=min(context.timeout, DEFAULT_TIMEOUT))
    counts = {
        o: sum(1 for r in run.results if r.outcome == o)
        for o in (Outcome.PASSED, Outcome.FAILED, Outcome.ERRORED, Outcome.SKIPPED)
    }
    skipped = [f"{r.id}: {r.message}" for r in run.results if r.outcome is Outcome.SKIPPED]
    summary = (
        f"{len(run.results)} checks in {len(run.durations)} probes ({run.duration_s:.1f} s): "
        + ", ".join(f"{n} {o}" for o, n in counts.items() if n)
        + (". Skipped: " + "; ".join(skipped) if skipped else "")
    )
    return Section(
        name="probes",
        title="Behavioural probes",
        status=_section_status(run),
        summary=summary,
        items=tuple(
            SectionItem(
                id=r.id,
                outcome=r.outcome,
                clauses=r.clauses,
                message=(
                    f"differs on pinned {', '.join(r.pinned)}: {r.message}"
                    if r.pinned and r.outcome is Outcome.FAILED
                    else r.message
                ),
                details={
                    **r.details,
                    "duration_s": round(r.duration_s, 3),
                    "pinned_when": PINNED_CHECKS.get(r.id, ""),
                },
                level="pinned" if r.pinned and r.outcome is Outcome.FAILED else "required",
                interpretations=r.pinned if r.outcome is Outcome.FAILED else (),
            )
            for r in run.results
        ),
        data={
            "clauses": clause_rollup(run.results, names),
            "probes": {
                name: {
                    "title": PROBES[name].title,
                    "sees": PROBES[name].sees,
                    "blind_to": PROBES[name].blind_to,
                    "duration_s": round(seconds, 3),
                }
                for name, seconds in run.durations.items()
            },
            "tools": tool_report(),
            "duration_s": round(run.duration_s, 3),
            "pinned_checks": dict(PINNED_CHECKS),
            **(
                {
                    "narrowed": f"{len(set(names))} of {len(PROBES)} probes (--section-option "
                    f"probes={','.join(names)})"
                }
                if names is not None and set(names) != set(PROBES)
                else {}
            ),
        },
        affects_verdict=True,
    )
