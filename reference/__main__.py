"""Command line of the reference controller.

    python -m reference [REQUEST.json]      run one request (file, or stdin when omitted or -)
    python -m reference serve               speak the adapter protocol on stdin/stdout

Prints the result envelope as JSON.  Exit status: 0 success, 1 a SPEC-006 error (the
structured error is printed on stdout), 2 unusable input (not JSON).
"""

from __future__ import annotations

import argparse
import sys

import orjson

from reference._controller import loads_request, memory_read
from reference._serve import serve


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m reference",
        description=(
            "Reference controller for SPEC-006 memory.read (phase6-v1). Reads one "
            "MemoryControllerInput (JSON) and prints {package, receipt} or {error}. "
            "Relative store paths resolve against the working directory."
        ),
        epilog="Exit status: 0 success, 1 SPEC-006 error (printed as JSON), 2 bad input.",
    )
    parser.add_argument(
        "request",
        nargs="?",
        default="-",
        help="request file (JSON), '-' for stdin, or 'serve' for the adapter protocol",
    )
    parser.add_argument("--pretty", action="store_true", help="indent the JSON output")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of `python -m reference`."""
    args = _parser().parse_args(argv)
    if args.request == "serve":
        return serve()
    try:
        if args.request == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(args.request, "rb") as handle:
                data = handle.read()
        request = loads_request(data)
    except (OSError, ValueError) as exc:
        print(f"python -m reference: cannot read a JSON request: {exc}", file=sys.stderr)
        return 2
    result = memory_read(request)
    option = orjson.OPT_INDENT_2 if args.pretty else 0
    sys.stdout.buffer.write(orjson.dumps(result, option=option) + b"\n")
    return 1 if "error" in result else 0


if __name__ == "__main__":
    sys.exit(main())
