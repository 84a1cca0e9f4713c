"""``certify --profile phase2-context``: the whole certification of a Phase 2 implementation.

Steps, as for SPEC-006 (:func:`conformance.run.certify`): load the Phase 2 corpus; select
vectors; parse the expected-failures file; open the adapter and reach the implementation (a
failed handshake = *adapter broken*, every vector errored, nothing else run); run the vectors
(:mod:`conformance.phase2._runner`); attribute the failures to readings by running the
reference under each executable alternative, the policy text read from the outputs
(:mod:`conformance.phase2._attribution`); run the ``properties`` section under the reading
profile inferred; apply expected failures; group failures by signature; and return a
:class:`Phase2Certification`: the SPEC-006 :class:`conformance.run.Certification` (partial-run
rules, report, ``footer.attribution``) with the profile's names (``phase2-context``,
``PHASE2-memory-engine``, ``phase2-context/1``) and a verdict that treats a failure no listed
reading explains as a bug (:func:`~conformance.phase2._attribution.phase2_verdict`).

With ``jobs`` above 1 (an ``http:`` adapter only), the vectors run on that many services, each
with a database of its own: ``{worker}`` in the base URL and in the commands is the worker's
number, 1 to ``jobs`` (:func:`worker_engines`); every worker observes the properties'
generated examples, and a failing one is shrunk on worker 1.

Only the published corpus, unselected, with the properties section run certifies anything; a
vector whose op the implementation does not declare is skipped and makes the run partial.
A reproduce command reruns one vector: ``certify --profile phase2-context --select id:ID``
with the same adapter and commands, writing nothing.
"""

from __future__ import annotations

import shlex
import traceback
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from conformance._errors import HandshakeError, UsageError
from conformance._kit import one_line, utc_now
from conformance.adapters import DEFAULT_MAX_LINE_BYTES, DEFAULT_TIMEOUT
from conformance.corpus import ExpectedFailures, load_expected_failures, select_vectors
from conformance.phase2._attribution import Evidence, attribute_phase2, phase2_verdict
from conformance.phase2._corpus import (
    Phase2Corpus,
    Phase2Vector,
    load_phase2_corpus,
    phase2_vectors_dir,
)
from conformance.phase2._engines import Engine, open_process_engine, reference_engine_spec
from conformance.phase2._http import WORKER, HttpEngine, for_worker
from conformance.phase2._properties import PropertySettings, properties_section
from conformance.phase2._readings import CAPABILITIES, CONTRACT, PROFILE, SPEC, CheckReadings
from conformance.phase2._runner import RunState, not_declared_reason, observations, run_vectors
from conformance.run import (
    Certification,
    NullProgress,
    Outcome,
    Progress,
    RunConfig,
    Section,
    VectorResult,
    Verdict,
    broken_adapter_result,
    failure_signatures,
    fresh_sample,
    importable_cwd,
    skipped_result,
    with_expected_failure,
)

__all__ = [
    "SECTIONS",
    "Phase2Certification",
    "certify_phase2",
    "check_workers",
    "open_engine",
    "reproduce_phase2",
    "worker_engines",
]

#: The sections a Phase 2 certification runs.
SECTIONS = ("properties",)


@dataclass(frozen=True)
class Phase2Certification(Certification):
    """A Phase 2 certification: what evidence says of its failures is part of its verdict."""

    #: The policy text read from the implementation's output and the results judged again
    #: under it (the report's ``footer.attribution`` is :attr:`attribution`, its summary).
    evidence: Evidence = field(default_factory=Evidence)

    @property
    def verdict(self) -> Verdict:
        """The SPEC-006 verdict given :attr:`attribution`, with what evidence adds
        (:func:`~conformance.phase2._attribution.phase2_verdict`)."""
        undeclared = {i for ids in self.not_declared.values() for i in ids}
        results = [r for r in self.results if r.id not in undeclared]
        return phase2_verdict(super().verdict, self.evidence, results)


def open_engine(
    spec: str,
    *,
    load: str | None = None,
    dump: str | None = None,
    job: str | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    validate: bool = False,
    max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
    temp_dir: str | None = None,
) -> Engine:
    """The engine an ``--adapter`` string names (not started yet); ``load``, ``dump`` and
    ``job`` are the http adapter's commands."""
    if spec.startswith("http:"):
        return HttpEngine(
            spec,
            load=load,
            dump=dump,
            job=job,
            timeout=timeout,
            validate=validate,
            max_output_bytes=max_line_bytes,
            temp_dir=temp_dir,
        )
    return open_process_engine(
        spec, timeout=timeout, validate=validate, max_line_bytes=max_line_bytes
    )


def worker_engines(
    spec: str,
    jobs: int,
    *,
    load: str | None = None,
    dump: str | None = None,
    job: str | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    validate: bool = False,
    max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
    temp_dir: str | None = None,
) -> list[Engine]:
    """One engine per worker (not started yet), ``{worker}`` replaced by its number in the
    spec and the commands (:func:`check_workers` first)."""
    check_workers(spec, jobs, load=load, dump=dump, job=job)

    def worker(text: str | None, number: int) -> str | None:
        return None if text is None else for_worker(text, number)

    return [
        open_engine(
            for_worker(spec, number),
            load=worker(load, number),
            dump=worker(dump, number),
            job=worker(job, number),
            timeout=timeout,
            validate=validate,
            max_line_bytes=max_line_bytes,
            temp_dir=temp_dir,
        )
        for number in range(1, max(1, jobs) + 1)
    ]


def check_workers(
    spec: str, jobs: int, *, load: str | None, dump: str | None, job: str | None
) -> None:
    """:class:`UsageError` unless ``jobs`` workers can run: more than one needs an ``http:``
    adapter whose base URL, ``--load`` and ``--dump`` (and ``--job``, when given) name
    ``{worker}``. Workers that shared a service or a database would load over each other's
    fixtures."""
    if jobs > 1:
        if not spec.startswith("http:"):
            raise UsageError(
                f"--jobs {jobs}: the {PROFILE} profile runs vectors in parallel only over "
                "http:, with a service and a database per worker"
            )
        named = [("--adapter", spec), ("--load", load), ("--dump", dump), ("--job", job)]
        missing = [option for option, text in named if text is not None and WORKER not in text]
        if missing:
            raise UsageError(
                f"--jobs {jobs}: each worker needs a service and a database of its own: put "
                f"{WORKER} (the worker's number, 1 to {jobs}) in {', '.join(missing)}"
            )


def reproduce_phase2(
    adapter: str,
    vector_id: str,
    *,
    load: str | None = None,
    dump: str | None = None,
    job: str | None = None,
    vectors_dir: str | None = None,
) -> str:
    """The command that runs one vector again, alone, and writes nothing."""
    words = ["python -m conformance certify --profile", PROFILE, "--adapter", shlex.quote(adapter)]
    for option, value in (("--load", load), ("--dump", dump), ("--job", job)):
        if value is not None:
            words += [option, shlex.quote(value)]
    if vectors_dir is not None:
        words += ["--vectors", shlex.quote(vectors_dir)]
    words += ["--select", shlex.quote(f"id:{vector_id}"), "--no-sections", "--no-report", "-v"]
    return " ".join(words)


def _same_dir(a: Path | str, b: Path | str) -> bool:
    try:
        return Path(a).resolve() == Path(b).resolve()
    except OSError:  # pragma: no cover - an unresolvable path is not the kit's corpus
        return False


def _fault(step: str, exc: BaseException) -> str:
    frames = "".join(traceback.format_exception(exc, limit=-6))
    return f"{step}: {type(exc).__name__}: {exc}\n{frames}"[:8000]


def certify_phase2(
    adapter: str | None = None,
    *,
    load: str | None = None,
    dump: str | None = None,
    job: str | None = None,
    corpus: Phase2Corpus | None = None,
    vectors_dir: Path | str | None = None,
    select: Sequence[str] = (),
    expected_failures: ExpectedFailures | Path | str | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    repeat: int = 2,
    fresh_every: int = 20,
    validate_protocol: bool = False,
    sections: bool = True,
    section_options: Mapping[str, str] | None = None,
    progress: Progress | None = None,
    temp_dir: str | None = None,
    max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
    max_consecutive_failures: int = 10,
    declared_readings: Sequence[str] | None = None,
    jobs: int = 1,
) -> Certification:
    """Certify the Phase 2 implementation behind ``adapter`` (default: the reference engine
    through ``python -m reference.phase2 serve-protocol``); ``jobs``: workers, each with a
    service and a database of its own (``http:`` only, :func:`check_workers`).

    ``declared_readings`` (``certify --readings FILE``; default: the ``readings`` of the start
    reply, if any): the alternative readings the implementation says it follows; it is held to
    exactly those, and the attribution says where it contradicts them.

    Raises :class:`~conformance._errors.HarnessError` subclasses only for harness problems
    (corpus, usage, an adapter spec that names nothing); an implementation's misbehaviour is
    always a result, and a fault of the kit while the vectors run is recorded in
    ``harness_faults`` with the results so far.
    """
    progress = progress or NullProgress()
    spec = adapter or reference_engine_spec()
    importable_cwd(spec)
    corpus = corpus if corpus is not None else load_phase2_corpus(vectors_dir)
    published = _same_dir(corpus.root, phase2_vectors_dir())
    chosen: tuple[Phase2Vector, ...] = select_vectors(corpus.vectors, select)
    if isinstance(expected_failures, Path | str):
        expected_failures = load_expected_failures(expected_failures)
    jobs = max(1, jobs)
    config = RunConfig(
        adapter=spec,
        timeout=timeout,
        jobs=jobs,
        repeat=max(1, repeat),
        fresh_every=max(0, fresh_every),
        validate_protocol=validate_protocol,
        temp_dir=temp_dir,
        max_line_bytes=max_line_bytes,
        max_consecutive_failures=max(0, max_consecutive_failures),
    )
    corpus_arg = None if published else str(corpus.root)

    def command_for(vector_id: str) -> str:
        return reproduce_phase2(
            for_worker(spec, 1),
            vector_id,
            load=None if load is None else for_worker(load, 1),
            dump=None if dump is None else for_worker(dump, 1),
            job=None if job is None else for_worker(job, 1),
            vectors_dir=corpus_arg,
        )

    started, clock = utc_now(), datetime.now(UTC)
    engine, *workers = worker_engines(
        spec,
        jobs,
        load=load,
        dump=dump,
        job=job,
        timeout=timeout,
        validate=validate_protocol,
        max_line_bytes=max_line_bytes,
        temp_dir=temp_dir,
    )
    broken: HandshakeError | None = None
    capabilities: tuple[str, ...] = ()
    declared = None if declared_readings is None else tuple(declared_readings)
    try:
        for number, other in enumerate(workers, 2):
            try:
                other.start()
            except HandshakeError as exc:
                raise HandshakeError(f"worker {number}: {exc.message}") from None
        handshake = engine.start()
        capabilities = handshake.capabilities
        if declared is None and handshake.readings is not None:
            declared = handshake.readings
        progress.note(
            f"adapter: {one_line(handshake.name)} {one_line(handshake.version)} "
            f"({one_line(handshake.language)}) via {one_line(spec)}; "
            f"declares {', '.join(one_line(c) for c in capabilities)}"
        )
    except HandshakeError as exc:
        broken = exc
        progress.note(f"adapter broken: {one_line(exc.message)}")
    metadata = engine.metadata()
    if workers:
        metadata = _workers_metadata(metadata, spec, load, dump, job)
    faults: list[str] = []
    state = RunState()
    section: Section | None = None
    evidence = Evidence()
    try:
        if broken is None:
            progress.start(len(chosen), "vectors")
            try:
                state = run_vectors(
                    chosen,
                    engine,
                    capabilities,
                    config,
                    sample=fresh_sample(chosen, config.fresh_every),
                    on_result=progress.advance,
                    workers=workers,
                )
            except Exception as exc:  # a fault of the kit: keep what ran, say so
                faults.append(_fault("running the vectors", exc))
            progress.finish()
            if state.stopped_reason is not None:
                progress.note(f"adapter broken: {one_line(state.stopped_reason)}")
        if broken is None and not (state.interrupted or faults or state.stopped_reason):
            try:
                evidence = attribute_phase2(
                    {v.id: v for v in chosen},
                    (run.result for run in state.runs.values()),
                    observations(state),
                    declared=declared,
                    timeout=max(timeout, 30.0),
                )
            except Exception as exc:  # a fault of the kit: no evidence, said so
                faults.append(_fault("attributing failures to readings", exc))
            _note_evidence(progress, evidence)
        if (
            sections
            and broken is None
            and not (state.interrupted or faults or state.stopped_reason)
        ):
            progress.section_started("properties", 1, 1)
            try:
                section = properties_section(
                    engine,
                    capabilities,
                    {v.id: v for v in chosen},
                    observations(state),
                    tuple(run.result for run in state.runs.values()),
                    PropertySettings.for_engine(engine.kind, section_options or {}),
                    readings=CheckReadings.of(evidence.attribution.profile, policy=evidence.policy),
                    profile=evidence.attribution.profile,
                    workers=workers,
                )
            except KeyboardInterrupt:
                state.interrupted = True
            except Exception as exc:
                section = Section(
                    name="properties",
                    title="Phase 2 properties (invariants without pinned expectations)",
                    status=Outcome.ERRORED,
                    summary=f"the properties failed to run: {type(exc).__name__}: {exc}"[:2000],
                    data={"traceback": traceback.format_exc(limit=10)},
                )
            if section is not None:
                progress.section_finished(section)
    finally:
        for each in (engine, *workers):
            each.close()
    raw: list[VectorResult] = []
    rejudged = evidence.rejudged
    for vector in chosen:
        run = state.runs.get(vector.id)
        if broken is not None:
            raw.append(broken_adapter_result(vector, broken, spec))
        elif run is not None:
            raw.append(rejudged.get(vector.id, run.result))
        elif state.stopped_reason is not None:
            raw.append(skipped_result(vector, f"not run: {state.stopped_reason}"))
        elif faults:
            raw.append(skipped_result(vector, "not run: the harness failed"))
        else:
            raw.append(skipped_result(vector, "run interrupted before this vector"))
    results = tuple(
        with_expected_failure(
            r, expected_failures, spec, vectors_dir=corpus_arg, command_for=command_for
        )
        for r in raw
    )
    not_declared: dict[str, tuple[str, ...]] = {}
    if broken is None:
        for capability in CAPABILITIES.values():
            reason = not_declared_reason(capability)
            ids = tuple(r.id for r in results if r.skip_reason == reason)
            if ids:
                not_declared[capability] = ids
    by_id = {v.id: v for v in chosen}
    attribution = evidence.attribution
    signatures = failure_signatures(
        results,
        size=lambda vector_id: by_id[vector_id].size,
        reproduce=command_for,
        explained=attribution.explained if attribution.examined else None,
    )
    return Phase2Certification(
        adapter=metadata,
        corpus_digest=corpus.digest,
        corpus_vectors=len(corpus),
        corpus_root=str(corpus.root),
        selection=tuple(select),
        config=config,
        results=results,
        started=started,
        finished=utc_now(),
        duration_s=(datetime.now(UTC) - clock).total_seconds(),
        expected_failures_file=expected_failures.path if expected_failures else None,
        expected_failure_entries=len(expected_failures.entries) if expected_failures else 0,
        stale_expected_failures=(
            expected_failures.stale(v.id for v in corpus.vectors) if expected_failures else ()
        ),
        sections={"properties": section} if section is not None else {},
        broken_reason=broken.message if broken else state.stopped_reason,
        stopped_after=state.stopped_after,
        interrupted=state.interrupted,
        workers=jobs,
        requests=sum(each.requests for each in (engine, *workers)),
        restarts=sum(each.restarts for each in (engine, *workers)),
        published_corpus=published,
        expected_sections=SECTIONS,
        harness_faults=tuple(faults),
        signatures=signatures,
        vectors_dir=corpus_arg,
        profile=PROFILE,
        spec=SPEC,
        contract=CONTRACT,
        not_declared=not_declared,
        attribution=evidence.attribution,
        evidence=evidence,
    )


def _workers_metadata(
    metadata: dict[str, Any],
    spec: str,
    load: str | None,
    dump: str | None,
    job: str | None,
) -> dict[str, Any]:
    """The report header's adapter object of a run on several workers: the spec and the
    commands as given, ``{worker}`` in them (the header's options say how many workers)."""
    return {**metadata, "spec": spec, "commands": {"load": load, "dump": dump, "job": job}}


def _note_evidence(progress: Progress, evidence: Evidence) -> None:
    """Say on the console which readings reproduce the failures."""
    attribution = evidence.attribution
    if evidence.policy is not None:
        progress.note(
            f"policy snippet: the implementation's own text, {one_line(evidence.policy)[:120]!r} "
            f"(P2-INT-04, a parameter): {len(evidence.rejudged)} context vector(s) judged "
            "against the reference with that text"
        )
    counts = {a: n for a, n in attribution.counts().items() if n}
    if counts:
        progress.note(
            "readings reproduced by the reference: "
            + ", ".join(f"{a} ({n} vectors)" for a, n in counts.items())
        )
    if attribution.unexplained:
        progress.note(
            f"{len(attribution.unexplained)} failing vector(s) no listed reading explains "
            f"(first {attribution.unexplained[0]})"
        )
    if attribution.declared is not None:
        progress.note(f"declared readings: {', '.join(attribution.declared) or '(none)'}")
    for contradiction in attribution.contradictions:
        progress.note(f"readings: {one_line(contradiction)}")
