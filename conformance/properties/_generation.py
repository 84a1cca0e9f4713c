"""How the certification's inputs are generated: the seed, the hypothesis settings, the switch
that makes generation depend on the seed alone, and the one way a family's test is built.

A certification run's inputs are a function of this module, the strategies
(:mod:`conformance.strategies`, :mod:`._families`, :mod:`._invariance`), the seed, each
family's example count and the hypothesis version, and of nothing else: not of the
implementation under test while every example passes. :mod:`._stored` keeps them, so a default
certification replays them instead of generating them again; this module is one of the sources
whose digest says whether the stored inputs are still the ones hypothesis would draw.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import hypothesis
import hypothesis.internal.conjecture.providers
from hypothesis import HealthCheck, Phase, Verbosity, given, seed, settings
from hypothesis import strategies as st

__all__ = ["DEFAULT_SEED", "family_test", "hypothesis_settings", "kit_constants_only"]

DEFAULT_SEED = 6_006

T = TypeVar("T")


@contextlib.contextmanager
def kit_constants_only() -> Iterator[None]:
    """Make generation depend on the seed alone, not on which modules happen to be imported
    (also used by the Phase 2 profile's properties, :mod:`conformance.phase2`).

    Hypothesis mixes literal constants harvested from every *local* module in ``sys.modules``
    (the implementer's adapter module, the test suite, ``__main__``) into generation, so the
    same seed draws different inputs under ``certify``, the pytest plugin and the nox session.
    For reproducible certification reports the harvest is switched off while the families
    run (hypothesis' global constants stay). If hypothesis reorganizes this internal, the
    suite still runs; reports are then reproducible per entry point only.
    """
    providers: Any = getattr(hypothesis.internal.conjecture, "providers", None)
    original = getattr(providers, "_get_local_constants", None)
    empty = getattr(providers, "Constants", None)
    cache = getattr(providers, "CONSTANTS_CACHE", None)
    if original is None or empty is None or cache is None:
        yield
        return
    nothing = empty()
    cache.cache.clear()
    providers._get_local_constants = lambda: nothing
    try:
        yield
    finally:
        providers._get_local_constants = original
        cache.cache.clear()


def hypothesis_settings(examples: int) -> settings:
    """The settings of every certification run: fixed example count, no database, no
    deadline, quiet, every health check off (the same for the Phase 2 properties)."""
    return settings(
        max_examples=examples,
        database=None,
        deadline=None,
        derandomize=False,
        phases=(Phase.explicit, Phase.generate, Phase.shrink),
        verbosity=Verbosity.quiet,
        report_multiple_bugs=False,
        print_blob=False,
        suppress_health_check=list(HealthCheck),
    )


def family_test(
    strategy: st.SearchStrategy[T], examples: int, seed_value: int, body: Callable[[T], None]
) -> Callable[[], None]:
    """The hypothesis test that calls ``body`` on ``examples`` inputs drawn from ``strategy``
    with ``seed_value``; run it inside :func:`kit_constants_only`."""
    test: Callable[[], None] = settings(hypothesis_settings(examples))(
        seed(seed_value)(given(strategy)(body))
    )
    return test
