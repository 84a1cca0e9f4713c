"""What several subcommands share: exit codes, argument types, the ``--adapter`` help."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, TypeAlias

__all__ = [
    "ADAPTER_HELP",
    "EXIT_FAILED",
    "EXIT_OK",
    "EXIT_PARTIAL",
    "EXIT_USAGE",
    "Subparsers",
    "non_negative_int",
    "positive_float",
]

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2
#: ``certify``: everything that ran passed, but the run is partial (a selection, another
#: corpus, sections not run): no verdict, so never 0.
EXIT_PARTIAL = 3

if TYPE_CHECKING:
    Subparsers: TypeAlias = argparse._SubParsersAction[argparse.ArgumentParser]
else:
    Subparsers = argparse._SubParsersAction

ADAPTER_HELP = (
    "implementation under test: 'python:package.module:callable' or 'cmd:<command line>' "
    "(default: the bundled reference, 'cmd:python -m reference serve')"
)


def non_negative_int(text: str) -> int:
    """An argparse type: an integer >= 0."""
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be >= 0, got {value}")
    return value


def positive_float(text: str) -> float:
    """An argparse type: a number > 0."""
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be > 0, got {text!r}")
    return value
