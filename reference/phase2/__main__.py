"""Command line of the Phase 2 reference engine.

    python -m reference.phase2 serve --db URL [--host 127.0.0.1] [--port 8080]
    python -m reference.phase2 serve-protocol
    python -m reference.phase2 load --db URL FIXTURE.json      # '-' reads stdin
    python -m reference.phase2 dump --db URL
    python -m reference.phase2 job --db URL                    # the call as JSON on stdin
    python -m reference.phase2 compact --db URL --now 2024-06-01T00:00:00Z
    python -m reference.phase2 summarize --db URL --user-id U --chat-id C --now T
    python -m reference.phase2 context --db URL --chat-id C --query Q [--max-tokens N] [--user-id U]

URL: ``sqlite:///path.db``, a bare path, ``:memory:`` or ``postgresql://...``. ``load``, ``dump``
and ``job`` are the commands the http adapter names (specs/protocol.md, P2.4). Exit status: 0
success (for ``job`` also an invalid_job result: the printed result says so, as P2.4 asks),
1 an invalid_job result of ``compact`` / ``summarize`` or a 4xx answer (printed as JSON), 2 bad
input or an unusable database.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from reference.phase2._config import config_from_env
from reference.phase2._endpoint import preview_context
from reference.phase2._errors import Phase2Error
from reference.phase2._jobs import run_job
from reference.phase2._store import open_store


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m reference.phase2",
        description="Reference Phase 2 memory engine (profile phase2-context/1).",
        epilog="Exit status: 0 success (job: also invalid_job, printed), 1 invalid_job of compact "
        "or summarize, or 4xx (printed), 2 bad input or database.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="serve GET /v1/memory/context over HTTP (uvicorn)")
    serve.add_argument("--db", required=True)
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8080)
    protocol = sub.add_parser(
        "serve-protocol", help="answer phase6-adapter/1 (Phase 2) on stdin/stdout"
    )
    protocol.add_argument(
        "--readings",
        default="",
        metavar="ID,ID",
        help="executable alternatives of specs/phase2/interpretations.toml to follow "
        "(reference/phase2/_readings.py; default: the pinned readings)",
    )
    protocol.add_argument(
        "--readings-per-run",
        action="store_true",
        help='a run message may name its own readings and policy text ("readings": [ID, '
        '...], "policy": text); the kit\'s attribution uses one such process for every reading',
    )
    protocol.add_argument(
        "--policy-json",
        metavar="JSON",
        help="the policy snippet's text as a JSON string (P2-INT-04/implementation-text)",
    )
    load = sub.add_parser("load", help="replace the database content by a fixture")
    load.add_argument("--db", required=True)
    load.add_argument("fixture", help="fixture JSON file, or - for stdin")
    dump = sub.add_parser("dump", help="print the database state as JSON")
    dump.add_argument("--db", required=True)
    job = sub.add_parser("job", help="run the job call read as JSON from stdin")
    job.add_argument("--db", required=True)
    compact = sub.add_parser("compact", help="run memory.compact at --now")
    compact.add_argument("--db", required=True)
    compact.add_argument("--now", required=True)
    summarize = sub.add_parser("summarize", help="run memory.summarize at --now")
    summarize.add_argument("--db", required=True)
    summarize.add_argument("--user-id", required=True)
    summarize.add_argument("--chat-id", required=True)
    summarize.add_argument("--now", required=True)
    context = sub.add_parser("context", help="preview the context (what the endpoint answers)")
    context.add_argument("--db", required=True)
    context.add_argument("--chat-id", required=True)
    context.add_argument("--query", required=True)
    context.add_argument("--max-tokens")
    context.add_argument("--user-id")
    return parser


def _print(document: Any) -> None:
    sys.stdout.write(json.dumps(document, ensure_ascii=False, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def _read_json(name: str) -> Any:
    data = sys.stdin.read() if name == "-" else open(name, encoding="utf-8").read()  # noqa: SIM115
    return json.loads(data)


def _run_job(url: str, call: Any, *, refused: int = 1) -> int:
    """Run the job call and print its result; ``refused``: the exit status of an invalid_job
    result (0 for the http adapter's job command, protocol.md P2.4)."""
    if not isinstance(call, dict):
        raise ValueError("a job call is a JSON object")
    with open_store(url) as store:
        result = run_job(store, call, config=config_from_env(os.environ))
    _print(result)
    return refused if "error" in result else 0


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``python -m reference.phase2``."""
    args = _parser().parse_args(argv)
    try:
        if args.command == "serve":
            from reference.phase2._http import serve_http

            return serve_http(args.db, args.host, args.port)
        if args.command == "serve-protocol":
            from reference.phase2._protocol import serve_protocol
            from reference.phase2._readings import Readings

            ids = [name for name in args.readings.split(",") if name]
            policy = None if args.policy_json is None else json.loads(args.policy_json)
            if policy is not None and not isinstance(policy, str):
                raise ValueError(f"--policy-json must be a JSON string, got {args.policy_json!r}")
            return serve_protocol(
                readings=Readings.of(ids, policy=policy), per_run=args.readings_per_run
            )
        if args.command == "load":
            fixture = _read_json(args.fixture)
            with open_store(args.db) as store:
                store.load(fixture)
            return 0
        if args.command == "dump":
            with open_store(args.db) as store:
                _print(store.dump())
            return 0
        if args.command == "job":
            return _run_job(args.db, json.loads(sys.stdin.read()), refused=0)
        if args.command == "compact":
            return _run_job(args.db, {"op": "compact", "now": args.now})
        if args.command == "summarize":
            call = {"op": "summarize", "user_id": args.user_id, "chat_id": args.chat_id}
            return _run_job(args.db, {**call, "now": args.now})
        pairs = [("chat_id", args.chat_id), ("query", args.query)]
        pairs += [("max_tokens", args.max_tokens)] if args.max_tokens is not None else []
        pairs += [("user_id", args.user_id)] if args.user_id is not None else []
        with open_store(args.db, read_only=True) as store:
            status, body = preview_context(store, pairs, config=config_from_env(os.environ))
        _print(body)
        return 0 if status == 200 else 1
    except (OSError, ValueError, Phase2Error) as exc:
        print(f"python -m reference.phase2 {args.command}: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
