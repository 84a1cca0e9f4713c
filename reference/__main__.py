"""Command line of the reference controller.

    python -m reference [REQUEST.json]      run one request (file, or stdin when omitted or -)
    python -m reference REQUEST --audit-out FILE   ... and write its assembly record to FILE
    python -m reference serve               speak the adapter protocol on stdin/stdout
    python -m reference ... --readings ID,ID  ... under executable alternative readings

Prints the result envelope as JSON, streamed as it is produced.  Exit status: 0 success, 1 a
SPEC-006 error (the structured error is printed on stdout), 2 unusable input (not JSON),
3 an internal failure (traceback on stderr).  A store changed in place while its package was
being printed ends the partial package line and prints the error on the next line (status 1).
"""

from __future__ import annotations

import argparse
import os
import sys
import traceback

from reference._controller import memory_read_to
from reference._envelope import dumps
from reference._errors import MemoryReadError
from reference._readings import Readings, UnknownReading
from reference._request_json import loads_request
from reference._serve import serve


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m reference",
        description=(
            "Reference controller for SPEC-006 memory.read (phase6-v1). Reads one "
            "MemoryControllerInput (JSON) and prints {package, receipt} or {error}. "
            "Relative store paths resolve against the working directory."
        ),
        epilog=(
            "Exit status: 0 success, 1 SPEC-006 error (printed as JSON), 2 bad input, "
            "3 internal failure."
        ),
    )
    parser.add_argument(
        "request",
        nargs="?",
        default="-",
        help="request file (JSON), '-' for stdin, or 'serve' for the adapter protocol",
    )
    parser.add_argument("--pretty", action="store_true", help="indent the JSON output")
    parser.add_argument(
        "--audit-out",
        metavar="FILE",
        help="also write the SPEC-003 assembly record (phase6-audit/1, specs/audit.md) to FILE "
        "(replaced atomically; written for errors too)",
    )
    parser.add_argument(
        "--readings",
        default="",
        metavar="ID,ID",
        help="run under these executable alternative readings (reference/_readings.py, e.g. "
        "INT-08/verbatim); default: the register's pinned readings",
    )
    parser.add_argument(
        "--readings-per-run",
        action="store_true",
        help='serve only: a run message may name its own readings ("readings": [ID, ...]); '
        "the kit's attribution uses one such process for every reading it tries",
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of `python -m reference`."""
    args = _parser().parse_args(argv)
    try:
        readings = Readings.of([i for i in args.readings.split(",") if i])
    except (UnknownReading, ValueError) as exc:
        print(f"python -m reference: {exc}", file=sys.stderr)
        return 2
    if args.request == "serve":
        return serve(readings=readings, per_run=args.readings_per_run)
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
    out = sys.stdout.buffer
    audit = None
    if args.audit_out is not None:
        try:  # next to FILE, renamed over it once whole
            audit = open(f"{args.audit_out}.tmp", "w+b")  # noqa: SIM115 - closed below
        except OSError as exc:
            print(f"python -m reference: cannot write {args.audit_out}: {exc}", file=sys.stderr)
            return 2
    try:
        result = memory_read_to(
            request, out, pretty=args.pretty, audit_out=audit, readings=readings
        )
    except MemoryReadError as error:  # a store changed while its package was being printed
        out.write(dumps({"error": error.to_json()}) + b"\n")
        result = {"error": error.to_json()}
    except BrokenPipeError:  # `python -m reference request.json | head`: the reader left
        _discard_stdout()
        if audit is not None:
            audit.close()
            os.unlink(audit.name)
        return 0
    except Exception:
        print(f"python -m reference: internal failure\n{traceback.format_exc()}", file=sys.stderr)
        if audit is not None:
            audit.close()
            os.unlink(audit.name)
        return 3
    finally:
        try:
            out.flush()
        except BrokenPipeError:
            _discard_stdout()
    if audit is not None:
        audit.close()
        os.replace(audit.name, args.audit_out)
    return 1 if "error" in result else 0


def _discard_stdout() -> None:
    """Point stdout at /dev/null, so the interpreter's last flush of a pipe whose reader has
    gone does not print a BrokenPipeError of its own."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


if __name__ == "__main__":
    sys.exit(main())
