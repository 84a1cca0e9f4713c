"""The property suite: hypothesis properties that certify any ``memory.read`` adapter.

    from conformance.properties import run_properties
    run = run_properties("cmd:node my_adapter.js")          # fixed seed, fixed counts
    run.passed, [r.outcome for r in run.results], run.counterexample_file()

Families (one per ``property:<name>`` of the clause register, plus ``differential``):
see :data:`FAMILIES`. ``certify`` runs them as the ``properties`` report section
(:func:`certify_section`); ``python -m conformance properties --adapter SPEC [--deep]`` runs
them alone and writes ``reports/<implementation>/properties.json``.
"""

from __future__ import annotations

from conformance.properties._engine import (
    COUNTEREXAMPLES_AREA,
    DEEP_FACTOR,
    FamilyResult,
    PropertiesRun,
    PropertySettings,
    counterexample_vectors,
    run_families,
    run_family,
    run_properties,
)
from conformance.properties._families import FAMILIES, Case, Family
from conformance.properties._generation import DEFAULT_SEED, hypothesis_settings, kit_constants_only
from conformance.properties._invariance import INVARIANCES, Invariance
from conformance.properties._model import Model, ModelLine, build_model
from conformance.properties._probe import REFERENCE_SPEC, Probe, PropertyFailure
from conformance.properties._section import (
    build_section,
    certify_section,
    write_counterexamples,
    write_properties_report,
)
from conformance.properties._stored import ExamplesSource, examples_source

__all__ = [
    "COUNTEREXAMPLES_AREA",
    "DEEP_FACTOR",
    "DEFAULT_SEED",
    "FAMILIES",
    "INVARIANCES",
    "REFERENCE_SPEC",
    "Case",
    "ExamplesSource",
    "Family",
    "FamilyResult",
    "Invariance",
    "Model",
    "ModelLine",
    "Probe",
    "PropertiesRun",
    "PropertyFailure",
    "PropertySettings",
    "build_model",
    "build_section",
    "certify_section",
    "counterexample_vectors",
    "examples_source",
    "hypothesis_settings",
    "kit_constants_only",
    "run_families",
    "run_family",
    "run_properties",
    "write_counterexamples",
    "write_properties_report",
]
