"""``certify``: the whole certification of one implementation, as a :class:`Certification`.

Steps: load the corpus; select vectors; parse the expected-failures file; start the adapter
(a failed handshake = *adapter broken*, every vector errored, nothing else run); run the
vectors (:mod:`conformance.run._pool`); apply expected failures; run the report sections
(:mod:`conformance.run._sections`); compute the verdict. Writing the report is separate
(:func:`conformance.report.write_report`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from conformance._errors import HandshakeError
from conformance._kit import utc_now
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
    load_corpus,
    load_expected_failures,
    select_vectors,
)
from conformance.run._executor import RunConfig
from conformance.run._judge import broken_adapter_result, with_expected_failure
from conformance.run._pool import run_vectors
from conformance.run._progress import NullProgress, Progress
from conformance.run._results import Outcome, Totals, VectorResult, Verdict, compute_verdict
from conformance.run._sections import SECTION_PROVIDERS, Section, SectionContext, run_section

__all__ = ["Certification", "certify"]


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

    @property
    def totals(self) -> Totals:
        """Counts per outcome."""
        return Totals.of(self.results)

    @property
    def verdict(self) -> Verdict:
        """The verdict (see :func:`conformance._results.compute_verdict`)."""
        return compute_verdict(
            self.results,
            broken_reason=self.broken_reason,
            section_failures=self.failing_sections,
            interrupted=self.interrupted,
        )

    @property
    def failing_sections(self) -> tuple[str, ...]:
        """Sections that affect the verdict and did not pass."""
        return tuple(
            name
            for name, section in self.sections.items()
            if section.affects_verdict and section.status in ("failed", "errored")
        )

    @property
    def implementation_name(self) -> str:
        """The implementation's name from the handshake, else a slug of the adapter spec."""
        implementation = self.adapter.get("implementation") or {}
        return str(implementation.get("name") or spec_name(str(self.adapter.get("spec", ""))))

    @property
    def clean(self) -> bool:
        """Every non-pass is a listed expected failure and nothing listed passed (protobuf)."""
        if self.broken_reason is not None or self.interrupted or self.failing_sections:
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
) -> Certification:
    """Certify the implementation behind ``adapter`` (default: the bundled reference).

    ``sections`` maps section names to ``module:callable`` providers (default
    :data:`~conformance._sections.SECTION_PROVIDERS`; pass ``{}`` for none).
    ``max_line_bytes`` caps a reply line; ``max_consecutive_failures`` timeouts or crashes in a
    row stop the run as adapter broken (0: never).
    Raises :class:`~conformance._errors.HarnessError` subclasses only for harness problems
    (corpus, usage); an implementation's misbehaviour is always a result.
    """
    progress = progress or NullProgress()
    spec = adapter or reference_adapter_spec()
    corpus = corpus if corpus is not None else load_corpus(vectors_dir)
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
    started, clock = utc_now(), datetime.now(UTC)
    runner_adapter = open_adapter(
        spec, timeout=timeout, validate=validate_protocol, max_line_bytes=max_line_bytes
    )
    stopped_after: int | None = None
    broken: HandshakeError | None = None
    try:
        handshake = runner_adapter.start()
        progress.note(
            f"adapter: {handshake.name} {handshake.version} ({handshake.language}) via {spec}"
        )
    except HandshakeError as exc:
        broken = exc
        progress.note(f"adapter broken: {exc.message}")
    metadata = runner_adapter.metadata()
    if broken is not None:
        runner_adapter.close()
        raw: tuple[VectorResult, ...] = tuple(
            broken_adapter_result(v, broken, spec) for v in chosen
        )
        interrupted, requests, restarts, workers = False, 0, 0, 0
    else:
        output = run_vectors(chosen, config, adapter=runner_adapter, progress=progress)
        raw, interrupted = output.results, output.interrupted
        requests, restarts, workers = output.requests, output.restarts, output.workers
        runner_adapter.close()
        if output.stopped_reason is not None:
            stopped_after = output.stopped_after
            progress.note(f"adapter broken: {output.stopped_reason}")
    results = tuple(with_expected_failure(r, expected_failures, spec) for r in raw)
    done: dict[str, Section] = {}
    if broken is None and not interrupted and stopped_after is None:
        providers = SECTION_PROVIDERS if sections is None else sections
        context = SectionContext(
            adapter_spec=spec,
            corpus=corpus,
            results=results,
            report_dir=report_dir,
            jobs=config.jobs,
            timeout=timeout,
            options=dict(section_options or {}),
        )
        for name, target in providers.items():
            progress.note(f"section {name}: {target}")
            done[name] = run_section(name, target, context)
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
        sections=done,
        broken_reason=broken.message if broken else output.stopped_reason,
        stopped_after=stopped_after,
        interrupted=interrupted,
        workers=workers,
        requests=requests,
        restarts=restarts,
    )
