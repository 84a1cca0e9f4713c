"""Probe ``environment``: nothing outside the request and the store bytes changes an answer.

S6-DET-04: "The controller MUST NOT consult ... environment randomness, or non-deterministic
sources." S6-ACC-01: "Given identical inputs and identical store contents, ContextPackage
(including package_hash) is identical across runs." S6-READ-01/03: candidates come in an order
fixed by the inputs, whatever the OS's directory listings or read sizes.

Checks (each compares every request, errors included, with the baseline process):
- ``hash-seed``: PYTHONHASHSEED 0, 1, 4242 and random (set/dict iteration order in Python
  implementations; other runtimes ignore it);
- ``locale``: LANG/LC_ALL = C, POSIX, C.UTF-8, en_US.UTF-8, tr_TR.UTF-8 (where installed):
  locale-aware lowercasing, collation or number formatting would show;
- ``home-and-temp``: other HOME, TMPDIR, XDG directories and configuration-looking variables;
- ``directory-listing``: the workspace rebuilt in reverse creation order, elsewhere, with
  unrelated stores and files next to the real ones;
- ``byte-layout``: the same records written with JSON whitespace that moves every line across
  4 KiB and 64 KiB boundaries give the same package;
- ``repeat-fresh``: a fresh process answering the requests in reverse order, twice each.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from conformance.probes import _tools, _workspace
from conformance.probes._common import Clock, baseline_problem, errored, judge
from conformance.probes._context import ProbeContext
from conformance.probes._launch import ProbeRequest, differences, run_requests
from conformance.probes._model import CheckResult, Probe
from conformance.run import first_difference

__all__ = ["PROBE"]

NAME = "environment"
DETERMINISM = ("S6-DET-04", "S6-ACC-01")
SEEDS = ("0", "1", "4242", "random")
LOCALES = ("C", "POSIX", "C.UTF-8", "en_US.UTF-8", "tr_TR.UTF-8")
#: Variables a careless controller might read as configuration.
NOISE = {
    "PHASE6_MAX_ITEMS": "1",
    "MEMORY_READ_NOW_UTC": "2001-01-01T00:00:00Z",
    "ADAMOS_TRUST_SNAPSHOT": "/nonexistent/snapshot.json",
    "LANGUAGE": "tr",
    "COLUMNS": "7",
}
#: Text lengths (bytes) for the byte-layout stores: lines straddle 4 KiB and 64 KiB often.
LAYOUT_SIZES = (37, 4090, 511, 9000, 4097, 1, 70_000, 2048, 333, 16_383)


def _layout_request(store: str) -> ProbeRequest:
    return ProbeRequest(
        "layout",
        {
            "query": "rust ledger 000017",
            "store_paths": [store],
            "budget": {"max_excerpt_tokens": 500, "max_items": 7},
        },
    )


def _byte_layout(context: ProbeContext, clock: Clock) -> CheckResult:
    clauses = ("S6-READ-03", "S6-READ-01", "S6-DET-04")
    lengths = _workspace.cycle_lengths(60, LAYOUT_SIZES)
    layouts = {"plain": (0,), "padded": (1, 4093, 17, 65_531, 0, 3, 255)}
    plan = []
    for name, padding in layouts.items():
        root = context.fresh_dir(f"layout-{name}")
        _workspace.build(
            root, files=(("stores/layout.jsonl", _workspace.sized_store(lengths, padding=padding)),)
        )
        plan.append((_layout_request("stores/layout.jsonl"), root))
    replies = run_requests(context.launcher, "byte-layout", plan)
    problem = replies.start_error or next((r.error for r in replies.replies if r.error), None)
    if problem is not None:
        return errored(NAME, "byte-layout", clauses, f"byte-layout run failed: {problem}", clock)
    plain, padded = (reply.result for reply in replies.replies)
    problems = []
    diff = first_difference(plain, padded, strict=True)
    if diff is not None:
        problems.append(f"moving line boundaries changed the package at {diff.describe()}")
    dropped = (
        (plain.get("package", {}).get("selection", {}).get("dropped", []))
        if isinstance(plain, dict)
        else []
    )
    invalid = [d.get("memory_id") for d in dropped if d.get("reason") == "invalid_record_schema"]
    if invalid or not isinstance(plain, dict) or "package" not in plain:
        problems.append(f"valid long lines were not all read as records (invalid: {invalid[:5]})")
    return judge(
        NAME,
        "byte-layout",
        clauses,
        problems,
        f"{len(lengths)} records, lines up to {max(LAYOUT_SIZES)} bytes: same package for both "
        "byte layouts",
        clock,
        details={"records": len(lengths), "sizes": list(LAYOUT_SIZES)},
    )


def run(context: ProbeContext) -> Iterator[CheckResult]:
    """Run the environment checks."""
    clock = Clock()
    root, baseline = context.baseline()
    problem = baseline_problem(baseline)
    checks = ("hash-seed", "locale", "home-and-temp", "directory-listing", "repeat-fresh")
    if problem is not None:
        for check in checks:
            yield errored(NAME, check, DETERMINISM, problem, clock)
        yield errored(NAME, "byte-layout", ("S6-READ-03",), problem, clock)
        return
    plan = _workspace.plan(root)
    launcher = context.launcher

    problems: list[str] = []
    for seed in SEEDS:
        problems += differences(
            baseline,
            run_requests(launcher, f"PYTHONHASHSEED={seed}", plan, env={"PYTHONHASHSEED": seed}),
        )
    yield judge(
        NAME,
        "hash-seed",
        (*DETERMINISM, "S6-READ-01"),
        problems,
        f"identical answers with PYTHONHASHSEED={', '.join(SEEDS)}",
        clock,
    )

    clock = Clock()
    installed = _tools.locales()
    used = [name for name in LOCALES if name in installed]
    missing = [name for name in LOCALES if name not in installed]
    problems = []
    for name in used:
        env: dict[str, str | None] = {"LANG": name, "LC_ALL": name, "LANGUAGE": None}
        problems += differences(baseline, run_requests(launcher, f"LC_ALL={name}", plan, env=env))
    note = f"; not installed here: {', '.join(missing)}" if missing else ""
    yield judge(
        NAME,
        "locale",
        DETERMINISM,
        problems,
        f"identical answers under LC_ALL={', '.join(used)}{note}",
        clock,
        details={"locales": used, "not_installed": missing},
    )

    clock = Clock()
    base = context.fresh_dir("home")
    directories = {
        name: str(base / name.lower())
        for name in ("HOME", "TMPDIR", "TMP", "TEMP", "XDG_CONFIG_HOME", "XDG_CACHE_HOME")
    }
    for path in directories.values():
        Path(path).mkdir(exist_ok=True)
    env = {**directories, **NOISE}
    yield judge(
        NAME,
        "home-and-temp",
        DETERMINISM,
        differences(baseline, run_requests(launcher, "other HOME/TMPDIR", plan, env=env)),
        "identical answers with other HOME, TMPDIR, XDG directories and configuration-like "
        "variables",
        clock,
        details={"variables": sorted(env)},
    )

    clock = Clock()
    other = _workspace.build(
        context.fresh_dir("listing") / "elsewhere" / "deeper" / "root", reverse=True, extras=True
    )
    yield judge(
        NAME,
        "directory-listing",
        (*DETERMINISM, "S6-READ-01"),
        differences(baseline, run_requests(launcher, "listing", _workspace.plan(other))),
        "identical answers from a workspace created in reverse order, at another path, with "
        "unrelated stores and files beside the real ones",
        clock,
        details={"extras": [name for name, _ in _workspace.EXTRAS]},
    )

    clock = Clock()
    yield _byte_layout(context, clock)

    clock = Clock()
    again = [item for item in reversed(plan) for _ in range(2)]
    yield judge(
        NAME,
        "repeat-fresh",
        ("S6-ACC-01", "S6-READ-01"),
        differences(baseline, run_requests(launcher, "fresh, reversed, twice", again)),
        "a fresh process answering in reverse order, twice each, gives identical answers",
        clock,
    )


PROBE = Probe(
    name=NAME,
    title="No environment dependence",
    sees=(
        "answers that change with the hash seed, the locale, HOME/TMPDIR and other variables, "
        "directory listings (creation order, unrelated files), the workspace's absolute path, "
        "line positions relative to read buffers, and request history within a process"
    ),
    blind_to=(
        "dependence on conditions not varied here (CPU count, load, file system type, "
        "installed fonts ...); PYTHONHASHSEED only matters to Python implementations; "
        "locales that are not installed are listed and not tried"
    ),
    run=run,
)
