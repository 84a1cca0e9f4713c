"""Reports: ``report.json`` (``phase6-report/1``) and everything rendered from it.

Owns building, validating, writing (atomically, never following a symlink) and loading a
report, storing whatever an implementation sent without loss, rendering it as markdown, HTML,
JUnit XML and a badge (from ``templates/``, whose environments escape every value; the site's
pages use them too), comparing several reports side by side, and the ``suite_strength``
section (the kill matrix of the mutation gallery, read from the kit's data).

May import: ``conformance._kit``, ``conformance._errors``, ``conformance._schemas``,
:mod:`conformance.run` (results, sections, the certification), :mod:`conformance.registers` (the
clause and interpretation text the HTML report shows on hover).
"""

from __future__ import annotations

from conformance.report._compare import (
    Comparison,
    compare_reports,
    render_compare_html,
    render_compare_markdown,
)
from conformance.report._render import (
    badge_fields,
    escape_html,
    partial_reasons,
    render_badge,
    render_html,
    render_junit,
    render_markdown,
)
from conformance.report._report import (
    MAX_DEPTH,
    REPORT_FILES,
    REPORT_FORMAT,
    build_report,
    default_report_dir,
    dumps_report,
    load_report,
    other_adapter,
    prepare_report_dir,
    previous_run,
    render_files,
    results_of,
    storable,
    validate_report,
    write_report,
)
from conformance.report._suite_strength import suite_strength_section

__all__ = [
    "MAX_DEPTH",
    "REPORT_FILES",
    "REPORT_FORMAT",
    "Comparison",
    "badge_fields",
    "build_report",
    "compare_reports",
    "default_report_dir",
    "dumps_report",
    "escape_html",
    "load_report",
    "other_adapter",
    "partial_reasons",
    "prepare_report_dir",
    "previous_run",
    "render_badge",
    "render_compare_html",
    "render_compare_markdown",
    "render_files",
    "render_html",
    "render_junit",
    "render_markdown",
    "results_of",
    "storable",
    "suite_strength_section",
    "validate_report",
    "write_report",
]
