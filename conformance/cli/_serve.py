"""``phase6 serve``: put a Python callable behind the adapter protocol ``phase6-adapter/1``.

    phase6 serve package.module:callable

turns ``callable(request) -> result envelope`` into a subprocess adapter. The harness uses it to
run ``python:`` adapters in a fresh process for the determinism sample; a Python implementer
can use it instead of writing the protocol loop.
"""

from __future__ import annotations

import argparse
from typing import TextIO

from conformance.adapters import serve_target
from conformance.cli._common import Subparsers

__all__ = ["register"]


def register(commands: Subparsers) -> None:
    """Add ``serve``."""
    parser = commands.add_parser(
        "serve",
        help="put a Python callable behind the adapter protocol (stdin/stdout)",
        description="Answer phase6-adapter/1 on stdin/stdout with callable(request) -> result.",
    )
    parser.add_argument("target", metavar="package.module:callable")
    parser.set_defaults(handler=_serve)


def _serve(args: argparse.Namespace, out: TextIO) -> int:
    return serve_target(args.target)
