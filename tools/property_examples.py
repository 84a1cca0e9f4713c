"""Record the stored certification examples: every property family's inputs of a default
certification run, as ``conformance/properties/stored/seed-6006.json.gz``.

    python -m tools property-examples          # regenerate the file (rewritten only if it changed)
    python -m tools property-examples --check  # exit 1 if a regeneration differs from it

Each family runs under hypothesis exactly as a default certification runs it (the same test,
:func:`conformance.properties._generation.family_test`: seed 6006, the family's example count,
every pinned input allowed, local constants off) with a body that records the case it is given
and always passes. A passing run never shrinks, so the recorded cases are, in order, the ones
the family's check sees when certifying an implementation that passes; the engine replays them
(:mod:`conformance.properties._stored`). Regenerate after changing a generating source
(``GENERATION_SOURCES``; the fast test suite fails until then) or to move to another
hypothesis version (the test group pins the generator's version: see pyproject.toml).
"""

from __future__ import annotations

import argparse
import gzip
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script: make the repository importable
    sys.path.insert(0, str(ROOT))

import hypothesis  # noqa: E402

import conformance  # noqa: E402
from conformance._kit import write_atomic  # noqa: E402
from conformance.properties._families import FAMILIES, Case, Family  # noqa: E402
from conformance.properties._generation import (  # noqa: E402
    DEFAULT_SEED,
    family_test,
    kit_constants_only,
)
from conformance.properties._stored import (  # noqa: E402
    GENERATION_SOURCES,
    STORED_NAME,
    StoredExamples,
    StoredExamplesError,
    decode_stored,
    encode_stored,
    source_digest,
    stored_text,
)

TARGET = ROOT / STORED_NAME


def record_cases(family: Family, seed_value: int, examples: int) -> tuple[Case, ...]:
    """The cases a passing run of ``family`` hands its check, in call order."""
    seen: list[Case] = []

    def body(case: Case) -> None:
        seen.append(case)

    with kit_constants_only():
        family_test(family.strategy(None), examples, seed_value, body)()
    return tuple(seen)


def build(seed_value: int = DEFAULT_SEED, *, verbose: bool = False) -> StoredExamples:
    """Every family's recorded cases, with the header of the stored file."""
    families: dict[str, tuple[int, tuple[Case, ...]]] = {}
    for name, family in FAMILIES.items():
        started = time.perf_counter()
        families[name] = (family.examples, record_cases(family, seed_value, family.examples))
        if verbose:
            took = time.perf_counter() - started
            print(f"  {name:14s} {len(families[name][1]):4d} cases  {took:5.1f} s")
    return StoredExamples(
        seed=seed_value,
        hypothesis=hypothesis.__version__,
        source_digest=source_digest(ROOT),
        sources=GENERATION_SOURCES,
        families=families,
    )


def differences(fresh: StoredExamples, committed: StoredExamples) -> list[str]:
    """What differs between two stored files, one line each (empty: nothing)."""
    out = [
        f"{what}: committed {old!r}, regenerated {new!r}"
        for what, old, new in (
            ("seed", committed.seed, fresh.seed),
            ("hypothesis", committed.hypothesis, fresh.hypothesis),
            ("source_digest", committed.source_digest, fresh.source_digest),
            ("sources", committed.sources, fresh.sources),
        )
        if old != new
    ]
    for name in sorted(set(fresh.families) | set(committed.families)):
        if name not in committed.families or name not in fresh.families:
            where = "regenerated" if name in fresh.families else "committed"
            out.append(f"family {name}: only in the {where} file")
            continue
        old_count, old_cases = committed.families[name]
        new_count, new_cases = fresh.families[name]
        if old_count != new_count:
            out.append(f"family {name}: examples {old_count} committed, {new_count} regenerated")
        first = next(
            (i for i, (a, b) in enumerate(zip(old_cases, new_cases, strict=False)) if a != b), None
        )
        if first is not None or len(old_cases) != len(new_cases):
            where = f"first difference at case {first}" if first is not None else "lengths differ"
            out.append(
                f"family {name}: {len(old_cases)} cases committed, {len(new_cases)} regenerated, "
                f"{where}"
            )
    return out


def _committed() -> tuple[bytes | None, StoredExamples | None, str]:
    """The committed file's JSON text and contents, or why they cannot be read."""
    try:
        data = TARGET.read_bytes()
        return gzip.decompress(data), decode_stored(data), ""
    except FileNotFoundError:
        return None, None, f"{STORED_NAME} does not exist"
    except (OSError, EOFError, StoredExamplesError) as exc:
        return None, None, f"{STORED_NAME} cannot be read: {exc}"


def main(argv: list[str] | None = None) -> int:
    """Regenerate the stored examples, or with --check compare a regeneration with them."""
    parser = argparse.ArgumentParser(
        prog="python -m tools property-examples",
        description="Record the stored certification examples of the property families.",
    )
    parser.add_argument("--check", action="store_true", help="exit 1 if the file would change")
    args = parser.parse_args(argv)
    imported = Path(conformance.__file__).resolve().parent
    if imported != ROOT / "conformance":
        print(f"the kit imported is not this checkout's: {imported}", file=sys.stderr)
        return 2
    print(f"recording with hypothesis {hypothesis.__version__}, seed {DEFAULT_SEED}:")
    fresh = build(verbose=True)
    text = stored_text(fresh)
    old_text, committed, problem = _committed()
    if args.check:
        if old_text == text:
            print(f"{STORED_NAME}: up to date")
            return 0
        lines = [problem] if committed is None else differences(fresh, committed)
        for line in lines or ["the JSON text differs (encoding)"]:
            print(f"{STORED_NAME}: {line}", file=sys.stderr)
        print("regenerate with `python -m tools property-examples`", file=sys.stderr)
        return 1
    if old_text == text:
        print(f"{STORED_NAME}: unchanged")
        return 0
    TARGET.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(TARGET.parent, TARGET.name, encode_stored(fresh))
    print(f"{STORED_NAME}: written ({len(text)} bytes of JSON)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
