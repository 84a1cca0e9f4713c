"""The interoperability site: many reports, of many implementations and versions, as one static
site (``phase6 site collect`` / ``phase6 site build``).

Owns reading reports into runs grouped by profile, implementation and version; the pages
(implementations, readings matrix, clauses matrix, vector drill-down, history) for each profile
with reports; the JSON API (``api/v1/``, ``specs/schemas/site/``) and the badges; and the
collection directory that ``site collect`` fills, one report per implementation version with
its metadata. The site works from ``file://``: relative links, no server, no network, the
drill-down's data loaded by ``<script src>``.

May import: ``conformance._kit``, ``conformance._errors``, ``conformance._schemas``,
:mod:`conformance.corpus`, :mod:`conformance.registers`, :mod:`conformance.report`.
"""

from __future__ import annotations

from conformance.site._api import (
    API_FORMAT,
    IMPLEMENTATION_SCHEMA,
    IMPLEMENTATIONS_SCHEMA,
    implementation_document,
    implementations_document,
    shields_endpoint,
)
from conformance.site._build import SiteBuild, build_site
from conformance.site._collect import Collected, collect_report
from conformance.site._model import (
    PROFILES,
    Implementation,
    Profile,
    Registers,
    Run,
    SetAside,
    find_reports,
    group_runs,
    load_registers,
    run_of,
)
from conformance.site._pages import PAGES, TABLE_COLUMNS, implementation_row, reading_cells

__all__ = [
    "API_FORMAT",
    "IMPLEMENTATIONS_SCHEMA",
    "IMPLEMENTATION_SCHEMA",
    "PAGES",
    "PROFILES",
    "TABLE_COLUMNS",
    "Collected",
    "Implementation",
    "Profile",
    "Registers",
    "Run",
    "SetAside",
    "SiteBuild",
    "build_site",
    "collect_report",
    "find_reports",
    "group_runs",
    "implementation_document",
    "implementation_row",
    "implementations_document",
    "load_registers",
    "reading_cells",
    "run_of",
    "shields_endpoint",
]
