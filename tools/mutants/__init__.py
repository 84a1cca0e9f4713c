"""The mutation gallery: single-fault copies of the reference that measure the suite's power.

Each mutant (:data:`MUTANTS`) is the reference controller with ONE deliberate deviation from
one clause, declared with the clauses and interpretations it violates: either a *source patch*
(one anchor snippet of one file of ``reference/`` and its replacement, applied to a copy of the
package) or a *wrapper* of the public ``reference.memory_read`` (``_registry.py``). Nothing here
imports a private module of the reference, so behaviour-preserving refactors of the reference
leave the gallery working, and a refactor that removes an anchor makes it fail loudly, naming
the mutant, the file and the anchor (``_patch.py``). Each mutant runs as its own adapter::

    python -m tools.mutants.adapter NAME        # phase6-adapter/1, like the reference

``python -m tools.mutants`` (``nox -s mutants``) certifies every mutant and writes the kill
matrix to ``reports/mutants/``; the section provider ``conformance.report._suite_strength`` puts its
kill rate into a compliance report.

Importing this package never imports ``reference``.
"""

from __future__ import annotations

from tools.mutants import (  # noqa: F401 - importing registers the mutants
    _m_behaviour,
    _m_excerpt,
    _m_hashing,
    _m_ordering,
    _m_package,
    _m_query,
    _m_receipt,
    _m_records,
    _m_request,
    _m_scoring,
    _m_selection,
    _m_trust,
)
from tools.mutants._registry import Mutant, Witness, in_pipeline_order

__all__ = ["MUTANTS", "STAGES", "Mutant", "Witness", "adapter_spec"]

#: Stages in the order data flows through the controller (request -> ... -> receipt), then
#: the behavioural MUSTs; the gallery is listed in this order.
STAGES = ("request", "query", "records", "hashing", "scoring", "ordering", "trust", "selection",
          "excerpt", "package", "receipt", "behaviour")  # fmt: skip
#: Every mutant by name, in pipeline order.
MUTANTS = in_pipeline_order(STAGES)


def adapter_spec(name: str) -> str:
    """The ``--adapter`` string of one mutant."""
    import shlex
    import sys

    return "cmd:" + shlex.join([sys.executable, "-m", "tools.mutants.adapter", name])
