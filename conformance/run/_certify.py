"""``certify``: the whole certification of one implementation, as a :class:`Certification`.

Steps: load the corpus; select vectors; parse the expected-failures file; start the adapter
(a failed handshake = *adapter broken*, every vector errored, nothing else run); run the
vectors (:mod:`conformance.run._pool`); apply expected failures; run the report sections
(:mod:`conformance.run._sections`); group failures by signature
(:mod:`conformance.run._signatures`); compute the verdict. Writing the report is separate
(:func:`conformance.report.write_report`).

Only the published corpus, unselected, with every section of :data:`SECTION_PROVIDERS`
run certifies anything; any other run is *partial* (:attr:`Certification.partial_reasons`)
and every output says so. A harness fault (an exception of the kit itself while running the
vectors) does not lose what ran: the results so far are kept, the rest is skipped, and the
run is partial with the fault recorded (the CLI then exits 2).
"""

from __future__ import annotations

import os
import sys
import traceback
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from conformance._errors import HandshakeError
from conformance._kit import one_line, utc_now
from conformance._kit import vectors_dir as kit_vectors_dir
from conformance.adapters import (
    DEFAULT_MAX_LINE_BYTES,
    DEFAULT_TIMEOUT,
    open_adapter,
    reference_adapter_spec,
    spec_name,
)
from conformance.corpus import (
    Corpus,
    ExpectedFailureEntry,
    ExpectedFailures,
    Vector,
    load_corpus,
    load_expected_failures,
    select_vectors,
)
from conformance.run._attribution import (
    Attribution,
    attribute,
    explain_section,
    rejected_alternatives,
)
from conformance.run._executor import RunConfig
from conformance.run._judge import (
    broken_adapter_result,
    reproduce_command,
    skipped_result,
    with_expected_failure,
)
from conformance.run._pool import RunOutput, run_vectors
from conformance.run._progress import NullProgress, Progress
from conformance.run._results import Outcome, Totals, VectorResult, Verdict, compute_verdict
from conformance.run._sections import SECTION_PROVIDERS, Section, SectionContext, run_section
from conformance.run._signatures import FailureSignature, failure_signatures

__all__ = ["Certification", "certify", "importable_cwd"]


def importable_cwd(adapter: str) -> None:
    """Make a ``python:`` adapter's module importable from the working directory.

    ``python -m conformance`` puts the working directory on ``sys.path``; the ``phase6``
    script and ``pytest`` do not. A ``python:my_module:fn`` written next to the user's code
    must import the same way under every entry point.
    """
    if not adapter.startswith("python:"):
        return
    cwd = os.getcwd()
    if "" not in sys.path and cwd not in sys.path:
        sys.path.insert(0, cwd)


def _same_dir(a: Path | str, b: Path | str) -> bool:
    try:
        return Path(a).resolve() == Path(b).resolve()
    except OSError:  # pragma: no cover - an unresolvable path is not the kit's corpus
        return False


class _Collecting(Progress):
    """Forwards to the real progress and keeps every result, so a harness fault in the pool
    does not lose the vectors already run."""

    def __init__(self, inner: Progress):
        super().__init__(inner.stream)
        self.inner = inner
        self.results: dict[str, VectorResult] = {}

    def start(self, total: int, label: str) -> None:
        """Forwarded."""
        self.inner.start(total, label)

    def advance(self, result: VectorResult) -> None:
        """Kept, then forwarded."""
        self.results[result.id] = result
        self.inner.advance(result)

    def note(self, text: str) -> None:
        """Forwarded."""
        self.inner.note(text)

    def finish(self) -> None:
        """Forwarded."""
        self.inner.finish()


@dataclass(frozen=True)
class Certification:
    """Everything a report says about one certification run."""

    adapter: Mapping[str, Any]
    corpus_digest: str
    corpus_vectors: int
    corpus_root: str
    selection: tuple[str, ...]
    config: RunConfig
    results: tuple[VectorResult, ...]
    started: str
    finished: str
    duration_s: float
    expected_failures_file: str | None = None
    expected_failure_entries: int = 0
    stale_expected_failures: tuple[ExpectedFailureEntry, ...] = ()
    sections: Mapping[str, Section] = field(default_factory=dict)
    broken_reason: str | None = None
    #: Set when the run stopped early (the adapter kept timing out or crashing): how many
    #: vectors had a result by then; the others are skipped and ``broken_reason`` says why.
    stopped_after: int | None = None
    interrupted: bool = False
    workers: int = 1
    requests: int = 0
    restarts: int = 0
    published_corpus: bool = True
    expected_sections: tuple[str, ...] = tuple(SECTION_PROVIDERS)
    harness_faults: tuple[str, ...] = ()
    signatures: tuple[FailureSignature, ...] = ()
    vectors_dir: str | None = None
    #: The profile certified (``phase6-v1``: SPEC-006 ``memory.read``; ``phase2-context``: the
    #: Phase 2 memory engine, :mod:`conformance.phase2`), its spec and its contract.
    profile: str = "phase6-v1"
    spec: str = "SPEC-006"
    contract: str = "phase6-v1"
    #: Capability -> IDs of the vectors not run because the implementation does not declare
    #: it (skipped, never a pass): the run is partial, and the verdict on what ran leaves them
    #: out.
    not_declared: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: Which executable alternative readings reproduce the failures (evidence, not labels).
    attribution: Attribution = field(default_factory=Attribution)

    @property
    def totals(self) -> Totals:
        """Counts per outcome."""
        return Totals.of(self.results)

    @property
    def partial_reasons(self) -> tuple[str, ...]:
        """Why this run certifies nothing (empty: it is a certification).

        A certification needs the published corpus, every vector of it, and every section of
        :data:`SECTION_PROVIDERS` run whole: not skipped, and not narrowed to some of its checks
        (``--section-option probes=...`` or ``families=...``: the section's ``data["narrowed"]``).
        """
        reasons = []
        if not self.published_corpus:
            reasons.append(f"not the published corpus ({self.corpus_root})")
        if self.selection:
            reasons.append(
                f"{len(self.results)} of {self.corpus_vectors} vectors selected "
                f"({', '.join(self.selection)})"
            )
        missing = [name for name in self.expected_sections if name not in self.sections]
        if missing and self.broken_reason is None:
            reasons.append(f"sections not run: {', '.join(missing)}")
        skipped = [
            name
            for name, section in self.sections.items()
            if section.status is Outcome.SKIPPED and not section.optional
        ]
        if skipped:
            reasons.append(f"sections skipped: {', '.join(skipped)}")
        narrowed = [  # a section that ran only some of its checks certifies only those
            f"{name} ({section.data['narrowed']})"
            for name, section in self.sections.items()
            if section.data.get("narrowed")
        ]
        if narrowed:
            reasons.append(f"sections narrowed: {'; '.join(narrowed)}")
        if self.not_declared:
            counts = ", ".join(f"{cap} ({len(ids)})" for cap, ids in self.not_declared.items())
            reasons.append(f"vectors not run, capability not declared: {counts}")
        if self.interrupted:
            reasons.append("interrupted")
        if self.harness_faults:
            reasons.append("the harness failed (see harness_faults)")
        return tuple(reasons)

    @property
    def partial(self) -> bool:
        """Whether the run is partial (see :attr:`partial_reasons`)."""
        return bool(self.partial_reasons)

    @property
    def skipped_checks(self) -> tuple[str, ...]:
        """Section items that could not run here, with the reason (a missing tool, ...)."""
        return tuple(
            one_line(f"{name} {item.id}: {item.message}")[:200]
            for name, section in self.sections.items()
            for item in section.skipped_items
        )

    @property
    def verdict(self) -> Verdict:
        """The verdict (see :func:`conformance._results.compute_verdict`)."""
        undeclared = {i for ids in self.not_declared.values() for i in ids}
        return compute_verdict(
            [r for r in self.results if r.id not in undeclared],
            broken_reason=self.broken_reason,
            section_failures=self.failing_sections,
            section_pinned=self.section_pinned,
            interrupted=self.interrupted,
            harness_faults=self.harness_faults,
            partial=self.partial_reasons,
            skipped=self.skipped_checks,
            explained=self.attribution.explained if self.attribution.examined else None,
            contradictions=self.attribution.contradictions,
            rejected=rejected_alternatives(),
        )

    @property
    def failing_sections(self) -> tuple[str, ...]:
        """Sections that fail the verdict: they affect it and failed on a required check."""
        return tuple(name for name, section in self.sections.items() if section.fails_verdict)

    @property
    def section_pinned(self) -> tuple[str, ...]:
        """Interpretations the sections' pinned-only failures rest on."""
        return tuple(
            sorted(
                {i for section in self.sections.values() for i in section.pinned_interpretations}
            )
        )

    @property
    def implementation_name(self) -> str:
        """The implementation's name from the handshake, else a slug of the adapter spec."""
        implementation = self.adapter.get("implementation") or {}
        return str(implementation.get("name") or spec_name(str(self.adapter.get("spec", ""))))

    @property
    def clean(self) -> bool:
        """Every non-pass is a listed expected failure and nothing listed passed (protobuf)."""
        if (
            self.broken_reason is not None
            or self.interrupted
            or self.failing_sections
            or self.harness_faults
        ):
            return False
        return all(
            r.outcome in (Outcome.PASSED, Outcome.EXPECTED_FAILURE) and not r.unexpected_pass
            for r in self.results
        )


def certify(
    adapter: str | None = None,
    *,
    corpus: Corpus | None = None,
    vectors_dir: Path | str | None = None,
    select: Sequence[str] = (),
    expected_failures: ExpectedFailures | Path | str | None = None,
    jobs: int | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    repeat: int = 2,
    fresh_every: int = 20,
    validate_protocol: bool = False,
    sections: Mapping[str, str] | None = None,
    section_options: Mapping[str, str] | None = None,
    report_dir: Path | None = None,
    progress: Progress | None = None,
    temp_dir: str | None = None,
    max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
    max_consecutive_failures: int = 10,
    declared_readings: Sequence[str] | None = None,
) -> Certification:
    """Certify the implementation behind ``adapter`` (default: the bundled reference).

    ``sections`` maps section names to ``module:callable`` providers (default
    :data:`~conformance._sections.SECTION_PROVIDERS`; pass ``{}`` for none).
    ``max_line_bytes`` caps a reply line; ``max_consecutive_failures`` timeouts or crashes in a
    row stop the run as adapter broken (0: never).
    Raises :class:`~conformance._errors.HarnessError` subclasses only for harness problems
    (corpus, usage); an implementation's misbehaviour is always a result, and a fault of the
    kit while the vectors run is recorded in ``harness_faults`` with the results so far.
    """
    progress = progress or NullProgress()
    spec = adapter or reference_adapter_spec()
    importable_cwd(spec)
    corpus = corpus if corpus is not None else load_corpus(vectors_dir)
    published = _same_dir(corpus.root, kit_vectors_dir())
    chosen = select_vectors(corpus.vectors, select)
    if isinstance(expected_failures, Path | str):
        expected_failures = load_expected_failures(expected_failures)
    config = RunConfig(
        adapter=spec,
        timeout=timeout,
        jobs=max(1, jobs if jobs is not None else (os.cpu_count() or 1)),
        repeat=max(1, repeat),
        fresh_every=max(0, fresh_every),
        validate_protocol=validate_protocol,
        temp_dir=temp_dir,
        max_line_bytes=max_line_bytes,
        max_consecutive_failures=max(0, max_consecutive_failures),
    )
    corpus_arg = None if published else str(corpus.root)
    started, clock = utc_now(), datetime.now(UTC)
    runner_adapter = open_adapter(
        spec, timeout=timeout, validate=validate_protocol, max_line_bytes=max_line_bytes
    )
    stopped_after: int | None = None
    broken: HandshakeError | None = None
    try:
        handshake = runner_adapter.start()
        progress.note(
            f"adapter: {one_line(handshake.name)} {one_line(handshake.version)} "
            f"({one_line(handshake.language)}) via {one_line(spec)}"
        )
    except HandshakeError as exc:
        broken = exc
        progress.note(f"adapter broken: {one_line(exc.message)}")
    metadata = runner_adapter.metadata()
    faults: list[str] = []
    if broken is not None:
        runner_adapter.close()
        raw: tuple[VectorResult, ...] = tuple(
            broken_adapter_result(v, broken, spec) for v in chosen
        )
        interrupted, requests, restarts, workers = False, 0, 0, 0
    else:
        collecting = _Collecting(progress)
        try:
            output = run_vectors(chosen, config, adapter=runner_adapter, progress=collecting)
        except Exception as exc:  # a fault of the kit: keep what ran, say so, go no further
            faults.append(_fault("running the vectors", exc))
            done = collecting.results
            output = RunOutput(
                tuple(
                    done.get(v.id) or skipped_result(v, "not run: the harness failed")
                    for v in chosen
                ),
                False,
                0,
                0,
                config.jobs,
            )
        finally:
            runner_adapter.close()
        raw, interrupted = output.results, output.interrupted
        requests, restarts, workers = output.requests, output.restarts, output.workers
        if output.stopped_reason is not None:
            stopped_after = output.stopped_after
            progress.note(f"adapter broken: {one_line(output.stopped_reason)}")
    results = tuple(
        with_expected_failure(r, expected_failures, spec, vectors_dir=corpus_arg) for r in raw
    )
    done_sections: dict[str, Section] = {}
    providers = SECTION_PROVIDERS if sections is None else sections
    if broken is None and not interrupted and not faults and stopped_after is None:
        context = SectionContext(
            adapter_spec=spec,
            corpus=corpus,
            results=results,
            report_dir=report_dir,
            jobs=config.jobs,
            timeout=timeout,
            # the properties' failures are attributed by evidence after the run (below)
            options={"properties.attribution": "evidence", **dict(section_options or {})},
        )
        done_sections = _run_sections(providers, context, progress)
    attribution = Attribution()
    if broken is None and not interrupted and not faults and stopped_after is None:
        try:
            declared = (
                declared_readings
                if declared_readings is not None
                else (handshake.readings if broken is None else None)
            )
            attribution = attribute(
                chosen, results, declared=declared, timeout=max(timeout, 30.0), jobs=config.jobs
            )
        except Exception as exc:  # a fault of the kit: no evidence, said so
            faults.append(_fault("attributing failures to readings", exc))
        if attribution.profile:
            progress.note(
                "readings reproduced by the reference: "
                + ", ".join(f"{a} ({n} vectors)" for a, n in attribution.counts().items())
            )
        # Properties: a failed family is a reading only if the reference under one
        # reproduces what the implementation returns on its counterexamples.
        for name, section in list(done_sections.items()):
            if attribution.examined and any(
                item.details.get("counterexamples") for item in section.items
            ):
                try:
                    done_sections[name] = explain_section(
                        section, spec, attribution, timeout=max(timeout, 30.0), jobs=config.jobs
                    )
                except Exception as exc:  # a fault of the kit: the section stays as it was
                    faults.append(_fault(f"attributing the {name} section", exc))
    by_id = {v.id: v for v in chosen}
    signatures = failure_signatures(
        results,
        size=lambda vector_id: _size(by_id[vector_id]),
        reproduce=lambda vector_id: reproduce_command(spec, vector_id, vectors_dir=corpus_arg),
        explained=attribution.explained if attribution.examined else None,
        rejected=rejected_alternatives(),
    )
    finished = utc_now()
    return Certification(
        adapter=metadata,
        corpus_digest=corpus.digest,
        corpus_vectors=len(corpus),
        corpus_root=str(corpus.root),
        selection=tuple(select),
        config=config,
        results=results,
        started=started,
        finished=finished,
        duration_s=(datetime.now(UTC) - clock).total_seconds(),
        expected_failures_file=expected_failures.path if expected_failures else None,
        expected_failure_entries=len(expected_failures.entries) if expected_failures else 0,
        stale_expected_failures=(
            expected_failures.stale(v.id for v in corpus.vectors) if expected_failures else ()
        ),
        sections=done_sections,
        broken_reason=broken.message if broken else output.stopped_reason,
        stopped_after=stopped_after,
        interrupted=interrupted,
        workers=workers,
        requests=requests,
        restarts=restarts,
        published_corpus=published,
        expected_sections=tuple(SECTION_PROVIDERS),
        harness_faults=tuple(faults),
        signatures=signatures,
        vectors_dir=corpus_arg,
        attribution=attribution,
    )


def _run_sections(
    providers: Mapping[str, str], context: SectionContext, progress: Progress
) -> dict[str, Section]:
    """Run the section providers at the same time, one thread each; the sections in provider
    order.

    The providers spend their time in other processes (probes start the implementation under
    watch; the property suite deals its families to worker processes), so one waiting thread
    each overlaps them on the machine's cores. ``run_section`` turns a provider's exception
    into an errored section, so a thread never fails; progress is reported from this thread
    only, as each section finishes.
    """
    if not providers:
        return {}
    finished: dict[str, Section] = {}
    with ThreadPoolExecutor(max_workers=len(providers), thread_name_prefix="section") as pool:
        running = {}
        for index, (name, target) in enumerate(providers.items(), 1):
            progress.section_started(name, index, len(providers))
            running[pool.submit(run_section, name, target, context)] = name
        for future in as_completed(running):
            section = future.result()
            finished[running[future]] = section
            progress.section_finished(section)
    return {name: finished[name] for name in providers}


def _size(vector: Vector) -> int:
    """A vector's size: its request and its files, in bytes (the smallest is the example)."""
    files = 0
    for _, spec in vector.files:
        content = spec.content()
        files += len(content) if content is not None else 0
    return len(vector.request_json) + files


def _fault(step: str, exc: BaseException) -> str:
    """One harness fault, for the report: the step, the exception, the last frames."""
    frames = "".join(traceback.format_exception(exc, limit=-6))
    return f"{step}: {type(exc).__name__}: {exc}\n{frames}"[:8000]
