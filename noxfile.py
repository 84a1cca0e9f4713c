"""Sessions for the phase6-v1 conformance kit.

`nox -s certify` certifies the bundled reference and writes its report (the README's main job);
`nox -s tests` runs the kit's own tests. `nox -l` lists every session with its docstring.

The shipped command line is `python -m conformance` (`phase6`); what only builds or measures the
kit runs through `python -m tools`. Output goes to the git-ignored `reports/`.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import random
import shlex
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import nox

ROOT = Path(__file__).parent
PYPROJECT = nox.project.load_toml(ROOT / "pyproject.toml")
REFERENCE = ROOT / "reference"
CONFORMANCE = ROOT / "conformance"
VECTORS = ROOT / "vectors"
SPECS = ROOT / "specs"
REPORTS = ROOT / "reports"
TESTS = ROOT / "tests"
JS_EXAMPLE = CONFORMANCE / "examples" / "javascript"
MEMORY = ROOT / "adam_os_data" / "memory"
AUDIT_SAMPLE = ROOT / "adam_os_data" / "audit"
PHASE2_REPORT = REPORTS / "adamos-phase2-reference-http"
#: Services (each on a database of its own) `certify_phase2` certifies in parallel (`--jobs`).
PHASE2_WORKERS = 2
SITE = REPORTS / "site"
DOCS = REPORTS / "docs"
#: Seconds the Phase 2 reference service gets to accept its first connection.
PHASE2_START_TIMEOUT = 60.0
#: Written into a session's venv after `_install`: what was installed (see `_install_stamp`).
INSTALL_STAMP = ".phase6-installed"

nox.options.default_venv_backend = "venv"
nox.options.sessions = ["tests", "lint", "typecheck"]
nox.options.error_on_missing_interpreters = True


def _install_stamp(*groups: str) -> str:
    """What an install of the kit with ``groups`` depends on: pyproject.toml and the groups.

    The kit is installed editable, so its sources need no reinstall; a new venv (a new
    interpreter, ``--reuse-venv=never``) has no stamp at all.
    """
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    return f"{digest} {' '.join(groups)}\n"


def _install(session: nox.Session, *groups: str) -> None:
    """Install the kit (editable) plus the named dependency groups, unless a reused venv
    already holds exactly that install (same pyproject.toml, same groups)."""
    stamp = Path(session.bin).parent / INSTALL_STAMP
    wanted = _install_stamp(*groups)
    if stamp.is_file() and stamp.read_text("utf-8") == wanted:
        session.log(f"reusing the installed kit ({stamp.name} is current)")
        return
    requirements: list[str] = []
    for group in groups:
        requirements.extend(nox.project.dependency_groups(PYPROJECT, group))
    session.install("-e", ".", *requirements)
    stamp.write_text(wanted, "utf-8")


@nox.session
def tests(session: nox.Session) -> None:
    """Run the kit's own tests: unit tests, the whole corpus against the reference in process,
    properties and snapshots (tests marked `slow` are left to `nox -s slow_tests`), one worker
    process per core (pytest-xdist)."""
    _install(session, "test")
    session.run("pytest", "-n", "auto", *session.posargs)


#: The newest CPython the kit is tested on besides the oldest it supports (pyproject's
#: requires-python); `nox -s tests_newest` runs the fast suite there.
NEWEST_PYTHON = "3.13"


#: What `nox -s tests_newest` runs: the parts whose behaviour rests on the interpreter (the
#: reference's readings, JSON and float handling, the adapters' processes and pipes, the
#: executor, the corpus loader, the snapshots); `nox -s tests` runs everything on 3.11.
NEWEST_TESTS = (
    "tests/reference/test_readings.py",
    "tests/conformance/adapters",
    "tests/conformance/run",
    "tests/conformance/corpus",
    "tests/conformance/readings",
    "tests/snapshots",
)


@nox.session(python=NEWEST_PYTHON, default=False)
def tests_newest(session: nox.Session) -> None:
    """Run the interpreter-sensitive fast tests (NEWEST_TESTS: the reference's readings, the
    adapters, the executor, the corpus loader, the snapshots, whose corpus digest and golden
    packages cover the reference on every vector) on the newest CPython
    the kit supports (3.13). CI runs it; it fails when no python3.13 is on PATH (nox's
    error_on_missing_interpreters). Arguments after `--` replace the selection."""
    _install(session, "test")
    session.run("pytest", "-n", "auto", *(session.posargs or NEWEST_TESTS))


@nox.session(default=False)
def slow_tests(session: nox.Session) -> None:
    """Run the tests marked `slow`: properties against fakes, the pytest plugin end to end,
    probes against fakes, the mutation gallery's own tests, the wheel's contents."""
    _install(session, "test")
    # Two workers (one per core of the CI machine), each test file to one of them, so a
    # module's certification fixtures are made once and the serial tests overlap; files go out
    # in collection order, which tests/conftest.py makes longest first (xdist's own reorder
    # would send them by number of tests, leaving a long file of few tests to run alone last).
    session.run(
        "pytest", "-m", "slow", "-n", "2", "--dist", "loadfile", "--no-loadscope-reorder",
        *session.posargs,
    )  # fmt: skip


@nox.session
def lint(session: nox.Session) -> None:
    """Lint and format-check the code, the tests and this noxfile with ruff."""
    session.install(*nox.project.dependency_groups(PYPROJECT, "lint"))
    session.run("ruff", "check", *session.posargs, ".")
    session.run("ruff", "format", "--check", ".")


@nox.session
def typecheck(session: nox.Session) -> None:
    """Type-check everything under mypy --strict."""
    _install(session, "typecheck")
    session.run("mypy", *session.posargs)


@nox.session(reuse_venv=True)
def certify(session: nox.Session) -> None:
    """Certify an implementation and write its compliance report (default: the bundled reference).

    The README's main job. `nox -s certify -- --adapter "cmd:<command line>"` certifies any
    implementation speaking phase6-adapter/1; every argument after `--` goes to
    `python -m conformance certify` (e.g. `--select`, `--expected-failures`, `--report-dir`).
    Hypothesis is the stored examples' generator (dependency group `generator`). The venv
    (.nox/certify) is kept between calls and reinstalled only when pyproject.toml changes;
    `nox -s certify --reuse-venv=never` starts from a fresh one.
    """
    _install(session, "generator")
    session.run("python", "-m", "conformance", "certify", *session.posargs)


@nox.session
def certify_phase2(session: nox.Session) -> None:
    """Certify the reference Phase 2 engine's HTTP endpoint end to end (profile phase2-context).

    Starts PHASE2_WORKERS copies of `python -m reference.phase2 serve` (Starlette on uvicorn),
    each on 127.0.0.1 port 10 * P + W over a fresh SQLite database of its own, and certifies
    them with `python -m conformance certify --profile phase2-context --adapter
    http:http://127.0.0.1:P{worker} --jobs N`, the engine's own `load`, `dump` and `job`
    commands on worker W's database (`--db .../w{worker}.db`) as `--load`, `--dump` and `--job`,
    the implementation named `adamos-phase2-reference` with the engine's version; then stops
    the services. Writes reports/adamos-phase2-reference-http/; arguments after `--` go to
    `certify` (e.g. `--select`, `--report-dir`). `nox -s certify -- --profile phase2-context`
    certifies the engine through the subprocess protocol instead.
    """
    session.install("-e", ".[phase2]")
    python = str(Path(session.bin) / "python")
    version = session.run(
        "python", "-c", "import reference.phase2 as e; print(e.__version__)", silent=True
    )  # fmt: skip
    scratch = Path(tempfile.mkdtemp(prefix="phase2-certify-"))
    db = shlex.quote(str(scratch / "w{worker}.db"))
    commands = {
        option: f"{shlex.quote(python)} -m reference.phase2 {option} --db {db}"
        for option in ("load", "dump", "job")
    }
    report = [] if "--report-dir" in session.posargs else ["--report-dir", str(PHASE2_REPORT)]
    prefix = _port_block(session, PHASE2_WORKERS)
    try:
        with contextlib.ExitStack() as services:
            for worker in range(1, PHASE2_WORKERS + 1):
                db_file, log = scratch / f"w{worker}.db", scratch / f"serve-{worker}.log"
                port = prefix * 10 + worker
                services.enter_context(_phase2_service(session, python, str(db_file), log, port))
            session.run(
                "python", "-m", "conformance", "certify", "--profile", "phase2-context",
                "--adapter", f"http:http://127.0.0.1:{prefix}{{worker}}",
                "--jobs", str(PHASE2_WORKERS), "--load", commands["load"],
                "--dump", commands["dump"], "--job", commands["job"],
                "--name", "adamos-phase2-reference",
                "--implementation-version", str(version or "unknown").strip(),
                *report, *session.posargs,
            )  # fmt: skip
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _port_block(session: nox.Session, count: int) -> int:
    """A prefix P such that ports P1 to P<count> (10 * P + worker) are free on 127.0.0.1."""
    for prefix in random.sample(range(2000, 6000), 200):
        try:
            for worker in range(1, count + 1):
                with socket.socket() as probe:
                    probe.bind(("127.0.0.1", prefix * 10 + worker))
        except OSError:
            continue
        return prefix
    session.error("no block of free ports on 127.0.0.1")


@contextlib.contextmanager
def _phase2_service(
    session: nox.Session, python: str, db: str, log: Path, port: int
) -> Iterator[str]:
    """`reference.phase2 serve --db DB` on 127.0.0.1 `port`, in a session of its own;
    yields its base URL once it accepts connections; stops its whole process group."""
    argv = [python, "-m", "reference.phase2", "serve", "--db", db, "--port", str(port)]
    with log.open("wb") as output:
        process = subprocess.Popen(
            argv, cwd=ROOT, stdout=output, stderr=subprocess.STDOUT, start_new_session=True
        )
    try:
        deadline = time.monotonic() + PHASE2_START_TIMEOUT
        while True:
            if process.poll() is not None:
                tail = log.read_text(errors="replace")[-2000:]
                session.error(f"the Phase 2 service exited {process.returncode}:\n{tail}")
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    session.error(
                        f"the Phase 2 service did not listen within {PHASE2_START_TIMEOUT} s"
                    )
                time.sleep(0.2)
        session.log(f"Phase 2 reference service on 127.0.0.1:{port} (database {db})")
        yield f"http://127.0.0.1:{port}"
    finally:
        if process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
                process.wait()


@nox.session
def certify_examples(session: nox.Session) -> None:
    """Certify the JavaScript example implementation (Node.js 20) and compare it with the reference.

    Runs its own node:test suite, certifies it through the subprocess adapter into
    reports/adamos-phase6-js/, certifies the reference, and writes reports/compare/. Fails,
    never passes silently, when `node` is missing.
    """
    node = shutil.which("node")
    if node is None:
        session.error("node (Node.js >= 20) is not on PATH: the JavaScript example cannot run")
    version = subprocess.run([node, "--version"], capture_output=True, text=True, check=True)
    if int(version.stdout.strip().lstrip("v").split(".")[0]) < 20:
        session.error(f"Node.js >= 20 required, found {version.stdout.strip()}")
    _install(session)
    session.run(node, "--test", str(JS_EXAMPLE / "test"), external=True)
    adapter = f"cmd:{node} {JS_EXAMPLE.relative_to(ROOT) / 'adapter.js'}"
    session.run("python", "-m", "conformance", "certify", "--adapter", adapter, *session.posargs)
    session.run("python", "-m", "conformance", "certify", "-q", *session.posargs)
    session.run(
        "python", "-m", "conformance", "compare", "--out", str(REPORTS / "compare"),
        str(REPORTS / "adamos-phase6-reference" / "report.json"),
        str(REPORTS / "adamos-phase6-js" / "report.json"),
    )  # fmt: skip


@nox.session(default=False)
def site(session: nox.Session) -> None:
    """Build the interoperability site from the reports under reports/ into reports/site/.

    Every `reports/<name>/report.json` (what `certify`, `certify_phase2` and `certify_examples`
    write) goes in; open reports/site/index.html (file:// works). Arguments after `--` replace
    the reports: `nox -s site -- COLLECTION [--history DIR]` builds from a `phase6 site collect`
    collection instead.
    """
    _install(session)
    reports = [str(p) for p in sorted(REPORTS.glob("*/report.json"))]
    if not session.posargs and not reports:
        session.error("no reports/*/report.json: run `nox -s certify` first")
    session.run(
        "python", "-m", "conformance", "site", "build", *(session.posargs or reports),
        "--out", str(SITE),
    )  # fmt: skip


@nox.session(default=False)
def docs(session: nox.Session) -> None:
    """Build the documentation site (MkDocs, strict) into reports/docs/.

    `python -m tools docs` assembles the README, CONTRIBUTING, CHANGELOG, every specs/*.md and
    specs/phase2/*.md, the seed specs, the Phase 2 registers, an index of the specs and the JSON
    Schemas into a temporary docs tree and builds it; a broken internal link or anchor fails the
    build. Open reports/docs/index.html (file:// works). Arguments after `--` go to the tool
    (e.g. `--out DIR`).
    """
    session.install(*nox.project.dependency_groups(PYPROJECT, "docs"))
    out = [] if "--out" in session.posargs else ["--out", str(DOCS)]
    session.run("python", "-m", "tools", "docs", *out, *session.posargs)


@nox.session(default=False)
def smoke(session: nox.Session) -> None:
    """Check an adapter quickly: handshake and a few vectors; says "adapter broken" if none work.

    `nox -s smoke -- --adapter "cmd:<command line>"`; defaults to the bundled reference.
    """
    _install(session)
    session.run("python", "-m", "conformance", "smoke", *session.posargs)


@nox.session
def vectors_check(session: nox.Session) -> None:
    """Check the corpus: schema, unique IDs, register IDs, and the committed coverage tables.

    Fails when a clause lacks coverage, an interpretation has no vector, specs/coverage.md is
    stale (regenerate it with `python -m conformance vectors coverage`), an executable
    alternative reading changes no vector, a vector it changes does not list its entry, or
    specs/readings-coverage.md is stale (`python -m tools readings`); the same two checks for
    the Phase 2 corpus and specs/phase2/readings-coverage.md (`python -m tools readings
    --profile phase2-context`).
    """
    _install(session)
    session.run("python", "-m", "conformance", "vectors", "check", *session.posargs)
    session.run("python", "-m", "conformance", "vectors", "coverage", "--check")
    session.run("python", "-m", "tools", "readings", "--check")
    session.run("python", "-m", "tools", "readings", "--profile", "phase2-context", "--check")


@nox.session(default=False)
def vectors(session: nox.Session) -> None:
    """Regenerate the generated vector families and the hand-vector files; fail if the committed
    corpus differs.

    Checks by default; `nox -s vectors -- --write` rewrites the files instead. Other arguments go
    to `python -m tools gen-vectors` (e.g. `-- --family trust`).
    """
    _install(session, "test")
    write = "--write" in session.posargs
    forwarded = [arg for arg in session.posargs if arg != "--write"]
    mode = [] if write else ["--check"]
    session.run("python", "-m", "tools", "hand-vectors", *mode)
    session.run("python", "-m", "tools", "gen-vectors", *mode, *forwarded)


@nox.session(default=False)
def phase2_vectors(session: nox.Session) -> None:
    """Regenerate the Phase 2 corpus (vectors/phase2-context/) and specs/phase2/coverage.md;
    fail if the committed files differ or a clause or interpretation lacks a vector.

    Checks by default; `nox -s phase2_vectors -- --write` rewrites the files. Hand vectors are
    confirmed by the reference engine and the independent oracle (tools/phase2_oracle.py);
    generated ones are the reference's outcomes, confirmed by the oracle.
    """
    _install(session)
    mode = [] if "--write" in session.posargs else ["--check"]
    forwarded = [arg for arg in session.posargs if arg != "--write"]
    session.run("python", "-m", "tools", "phase2-vectors", *mode, *forwarded)


@nox.session
def store_check(session: nox.Session) -> None:
    """Check the sample SPEC-005 stores (adam_os_data/memory/*.jsonl, minus the ledger).

    Reports every SPEC-005 violation and each line's SPEC-006 verdict; exits non-zero on any.
    Arguments after `--` go to `python -m conformance store check` (e.g. `--json`, `--all`,
    `--ignore CODE`, or more store paths).
    """
    _install(session)
    stores = sorted(str(p) for p in MEMORY.glob("*.jsonl") if p.name != "ledger.jsonl")
    session.run("python", "-m", "conformance", "store", "check", *stores, *session.posargs)


@nox.session
def audit_sample(session: nox.Session) -> None:
    """Verify the sample assembly record (adam_os_data/audit/record.json) against the sample stores.

    Checks every store identity and replays the recorded read (specs/audit.md); fails when a
    sample store changed in place or the reference no longer gives the recorded package and
    ranking. Regenerate after a deliberate change: `python -m reference
    adam_os_data/audit/request.json --audit-out adam_os_data/audit/record.json`. Arguments after
    `--` go to `python -m conformance audit verify` (e.g. `--json`, `--adapter`).
    """
    _install(session)
    record = str((AUDIT_SAMPLE / "record.json").relative_to(ROOT))
    session.run("python", "-m", "conformance", "audit", "verify", record, *session.posargs)


@nox.session(default=False)
def probes(session: nox.Session) -> None:
    """Run the behavioural probes (clock, environment, network, read-only, receipt,
    errors-repeat, streaming) and print a per-check table; also part of `certify`.

    `nox -s probes -- --adapter "cmd:<command line>"`; `--probe NAME` (repeatable) selects,
    `--json FILE` writes the results. Checks whose tool (faketime, unshare, strace) is missing
    are reported skipped.
    """
    _install(session)
    session.run("python", "-m", "conformance", "probes", *session.posargs)


@nox.session(default=False)
def mutants(session: nox.Session) -> None:
    """Certify every mutant of the gallery; fail if one survives or specs/kill-matrix.* is stale.

    Slow (minutes): each mutant is the reference with one fault, certified through the runner
    plus its probes. The run's matrix goes to reports/mutants/; the published, reproducible one
    is specs/kill-matrix.{json,md} (read by every report's suite_strength section): `-- --write`
    rewrites it. Other arguments: `--only NAME`, `--jobs N`, `--full`, `--list`.
    """
    _install(session)
    mode = [] if {"--write", "--only", "--list"} & set(session.posargs) else ["--check"]
    session.run("python", "-m", "tools", "mutants", *mode, *session.posargs)


@nox.session(default=False)
def properties(session: nox.Session) -> None:
    """Run the property suite (hypothesis) against an adapter; also part of `certify`.

    `nox -s properties -- --adapter "cmd:<command line>"` (default: the bundled reference)
    writes reports/<implementation>/properties.json and, when a property fails, the shrunk
    counterexamples as ready-to-run vectors under reports/<implementation>/counterexamples/.
    `--deep` fuzzes (20x the examples, a fresh seed); `--seed N`, `--examples N`,
    `--family NAME` (repeatable). Hypothesis is the stored examples' generator.
    """
    _install(session, "generator")
    session.run("python", "-m", "conformance", "properties", *session.posargs)


@nox.session(default=False)
def snapshots(session: nox.Session) -> None:
    """Check the syrupy snapshots: golden packages, package hashes, corpus digest, coverage.

    `nox -s snapshots -- --update` is the only way to change them (pytest --snapshot-update):
    run it after a deliberate change of the reference's output, the sample stores, the corpus
    or the registers, and review the snapshot diff. `nox -s tests` fails on any mismatch.
    """
    _install(session, "test")
    args = ["--snapshot-update" if arg == "--update" else arg for arg in session.posargs]
    session.run("pytest", str(TESTS / "snapshots"), *args)


@nox.session(default=False)
def bench(session: nox.Session) -> None:
    """Benchmark the reference (100k, 1M, 10M records) and certification throughput (not tests).

    The streaming reference against a json.loads loop, in fresh processes: medians of 3 runs, the
    ratio within each run (target <= 1.5x at 1M), records/s, microseconds per record, peak memory
    of the process tree (target <= 256 MiB), the load average; then the cliff case (recency with
    negligible weights) and max_items larger than the store; then the SPEC-003 assembly record
    against the plain read on the 1M store (target <= 1.3x). The 10M store (~4.2 GB) is generated
    for the run and deleted after. Arguments after `--` go to `python -m tools bench`
    (e.g. `--records 100000 --runs 5`). Then the corpus certified in-process and through the
    subprocess adapter (targets >= 500 vectors/s, < 30 s); then the interoperability site at 20
    implementations x 5 versions (build < 60 s, first paint < 2 s from file://); then Phase 2
    over HTTP with a slow engine (load and dump 0.6 s each, 4 services: target < 300 s). Results
    go to reports/bench/ (git-ignored).
    """
    _install(session, "bench")
    session.run("python", "-m", "tools", "bench", *session.posargs)
    session.run("python", "-m", "tools", "bench-harness")
    session.run("python", "-m", "tools", "bench-site")
    session.install("-e", ".[phase2]")
    session.run("python", "-m", "tools", "bench-phase2-http")
