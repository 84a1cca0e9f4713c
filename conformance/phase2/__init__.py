"""The Phase 2 memory-engine profile (``phase2-context/1``): certifying any implementation of
specs/seeds/PHASE2-memory-engine.md as the kit reads it (specs/phase2/).

    phase6 certify --profile phase2-context [--adapter python:...|cmd:...|http:... \\
        --load CMD --dump CMD --job CMD]

Owns what is particular to the profile, and nothing else:

- the corpus: ``vectors/phase2-context/`` (``phase2-context-vectors/1``) loaded and validated
  against ``specs/schemas/phase2/`` (:func:`load_phase2_corpus` -> :class:`Phase2Vector`);
- comparing an outcome with a vector (:func:`compare`, :func:`expect_from_observed`) and the
  invariants of the register's ``[[property]]`` table (:func:`property_failures`,
  :func:`trim_order_failure`): the kit's one copy, which the corpus builder in ``tools/``
  imports from here;
- the adapters (one :class:`Engine` interface): ``python:`` (``callable(fixture, call)`` in a
  worker process) and ``cmd:`` over ``phase6-adapter/1`` with the Phase 2 bodies
  (:class:`PythonEngine`, :class:`ProtocolEngine`: the SPEC-006 adapters with the profile's
  contract, capability and schemas), and ``http:<base>`` with the user's ``--load``,
  ``--dump`` and ``--job`` commands (:class:`HttpEngine`: each fixture loaded once while the
  dumps show it unchanged; ``--jobs N``, a service and a database per worker,
  :func:`worker_engines`);
- the runner (by fixture group, one vector at a time per engine, repeated, a fresh-process
  sample), the ``properties``
  section (every invariant on the vectors' outcomes and on hypothesis-generated fixtures,
  :func:`fixtures`, :func:`examples`) and :func:`certify_phase2`;
- attribution (:func:`attribute_phase2`): the policy text read from the outputs
  (:func:`read_policy`, P2-INT-04 is a parameter), every failure run by the reference engine
  under each executable alternative of specs/phase2/interpretations.toml (as a subprocess, like
  any implementation), the reading profile, the checks under it (:class:`CheckReadings`) and
  the verdict (:func:`phase2_verdict`).

Everything else is the SPEC-006 harness's, reused as it is: results, judging, failure
signatures, the verdict rules and partial runs (:mod:`conformance.run`), the process
machinery (:mod:`conformance.adapters`), selection and expected failures
(:mod:`conformance.corpus`), and ``report.json`` with its renderings (:mod:`conformance.report`,
which takes the :class:`~conformance.run.Certification` this package returns).

May import: ``conformance._kit``, ``conformance._errors``, ``conformance._schemas``,
:mod:`conformance.corpus`, :mod:`conformance.registers`, :mod:`conformance.adapters`,
:mod:`conformance.run`, :mod:`conformance.properties` (reproducible hypothesis runs). Never the
reference engine: it is certified through an adapter like any stranger.
"""

from __future__ import annotations

from conformance.phase2._attribution import (
    Evidence,
    attribute_phase2,
    phase2_verdict,
    read_policy,
    reading_engine_spec,
)
from conformance.phase2._certify import (
    SECTIONS,
    Phase2Certification,
    certify_phase2,
    check_workers,
    open_engine,
    reproduce_phase2,
    worker_engines,
)
from conformance.phase2._commands import UserCommand, parse_output
from conformance.phase2._compare import (
    Difference,
    compare,
    expect_from_observed,
    first_difference,
    no_write_differences,
    normalize_state,
    state_problem,
)
from conformance.phase2._corpus import (
    FORMAT,
    Phase2Corpus,
    Phase2Vector,
    load_phase2_corpus,
    phase2_vectors_dir,
)
from conformance.phase2._engines import (
    PROTOCOL_SCHEMAS,
    Engine,
    Observation,
    ProtocolEngine,
    PythonEngine,
    reference_engine_spec,
)
from conformance.phase2._http import (
    DEFAULT_MAX_RESPONSE_BYTES,
    WORKER,
    HttpEngine,
    encode_params,
    for_worker,
)
from conformance.phase2._invariants import (
    RETAINED_TABLES,
    determinism_view,
    property_failures,
    trim_order_failure,
)
from conformance.phase2._properties import PropertySettings, properties_section
from conformance.phase2._readings import (
    CAPABILITIES,
    CONTRACT,
    POLICY_SNIPPET,
    PREVIEW_EVENT,
    PROFILE,
    SPEC,
    TABLES,
    CheckReadings,
    estimate,
)
from conformance.phase2._registers import Property, executable_alternatives, load_properties
from conformance.phase2._runner import fixture_groups, run_vector, run_vectors
from conformance.phase2._strategies import Example, examples, fixtures

__all__ = [
    "CAPABILITIES",
    "CONTRACT",
    "DEFAULT_MAX_RESPONSE_BYTES",
    "FORMAT",
    "POLICY_SNIPPET",
    "PREVIEW_EVENT",
    "PROFILE",
    "PROTOCOL_SCHEMAS",
    "RETAINED_TABLES",
    "SECTIONS",
    "SPEC",
    "TABLES",
    "WORKER",
    "CheckReadings",
    "Difference",
    "Engine",
    "Evidence",
    "Example",
    "HttpEngine",
    "Observation",
    "Phase2Certification",
    "Phase2Corpus",
    "Phase2Vector",
    "Property",
    "PropertySettings",
    "ProtocolEngine",
    "PythonEngine",
    "UserCommand",
    "attribute_phase2",
    "certify_phase2",
    "check_workers",
    "compare",
    "determinism_view",
    "encode_params",
    "estimate",
    "examples",
    "executable_alternatives",
    "expect_from_observed",
    "first_difference",
    "fixture_groups",
    "fixtures",
    "for_worker",
    "load_phase2_corpus",
    "load_properties",
    "no_write_differences",
    "normalize_state",
    "open_engine",
    "parse_output",
    "phase2_vectors_dir",
    "phase2_verdict",
    "properties_section",
    "property_failures",
    "read_policy",
    "reading_engine_spec",
    "reference_engine_spec",
    "reproduce_phase2",
    "run_vector",
    "run_vectors",
    "state_problem",
    "trim_order_failure",
    "worker_engines",
]
