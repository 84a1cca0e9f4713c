"""The clause register (``specs/clauses.toml``, ``phase6-clauses/1``) and the interpretation
register (``specs/interpretations.toml``, ``phase6-interpretations/1``), read-only views."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conformance._errors import RegisterError
from conformance._kit import read_bounded, specs_dir

__all__ = [
    "MAX_REGISTER_BYTES",
    "NOT_EXECUTABLE_KINDS",
    "RUNTIMES",
    "Clause",
    "Interpretation",
    "ReadingParameter",
    "load_clauses",
    "load_interpretations",
    "parse_parameter",
    "read_register",
    "split_reading_id",
]


@dataclass(frozen=True)
class Clause:
    """One normative sentence of SPEC-006 with its stable ID."""

    id: str
    section: str
    line: int
    kind: str
    quote: str
    summary: str
    verified_by: tuple[str, ...]
    #: The seed document the clause quotes (SPEC-003's assembly-record clauses, issue 15).
    spec: str = "SPEC-006"

    @property
    def by_vectors(self) -> bool:
        """Whether the register says vectors verify this clause."""
        return "vectors" in self.verified_by

    @property
    def by_other(self) -> tuple[str, ...]:
        """The properties, probes and kit tests (``tests/...``) the register names."""
        return tuple(v for v in self.verified_by if v.startswith(("property:", "probe:", "tests/")))


#: A parameterized reading's ID: the alternative's ID and its value,
#: ``INT-28/list-first-n-drops(n=3)``.
_INSTANCE = re.compile(r"(?P<base>[^()]+)\((?P<name>[a-z_]+)=(?P<value>0|[1-9][0-9]{0,17})\)")


def split_reading_id(reading_id: str) -> tuple[str, str | None, int | None]:
    """(the alternative's ID, the parameter's name, its value) of a reading ID; the last two
    None for an ID without a value (``INT-08/verbatim``, or a value not written as one)."""
    found = _INSTANCE.fullmatch(reading_id)
    if found is None:
        return reading_id, None, None
    return found["base"], found["name"], int(found["value"])


@dataclass(frozen=True)
class ReadingParameter:
    """The value an alternative leaves to the implementation ("the first N drops"), as the
    register's ``parameters`` declare it: the reading's ID then carries the value
    (``INT-28/list-first-n-drops(n=3)``), which the certifier reads from the implementation's
    output or its declaration."""

    name: str
    low: int
    high: int | None
    #: The values ``tools readings`` runs the alternative with (each must change a vector).
    check: tuple[int, ...]
    means: str = ""

    def takes(self, value: int) -> bool:
        """Whether ``value`` is one of the parameter's values."""
        return self.low <= value and (self.high is None or value <= self.high)

    def instance(self, alternative_id: str, value: int) -> str:
        """The reading's ID with ``value``: ``INT-28/list-first-n-drops(n=3)``."""
        return f"{alternative_id}({self.name}={value})"


def parse_parameter(raw: Any) -> ReadingParameter:
    """A ``parameters`` value of the register (TypeError/KeyError when malformed)."""
    if not isinstance(raw, dict) or not isinstance(raw["name"], str):
        raise TypeError(f"a parameter is a table with a name, not {raw!r}")
    low, high, check = raw.get("min", 0), raw.get("max"), raw.get("check", [])
    if not isinstance(low, int) or not (high is None or isinstance(high, int)):
        raise TypeError(f"parameter {raw['name']!r}: min and max are ints")
    if not isinstance(check, list) or not all(isinstance(v, int) for v in check):
        raise TypeError(f"parameter {raw['name']!r}: check is a list of ints")
    return ReadingParameter(raw["name"], low, high, tuple(check), str(raw.get("means", "")))


@dataclass(frozen=True)
class Interpretation:
    """One entry of the interpretation register."""

    id: str
    title: str
    erratum: bool
    #: For entries outside memory.read (the SPEC-005 writer's ledger): the tests that pin them.
    verified_by: tuple[str, ...] = ()
    #: The IDs of its executable alternatives (``INT-08/verbatim``): readings the reference
    #: runs, which the certifier tries on every failure (``reference/_readings.py``).
    executable: tuple[str, ...] = ()
    #: Alternatives that contradict a MUST of the spec -> the clause and the words they
    #: contradict. The certifier names such a reading when it reproduces a failure, but a
    #: failure it explains still makes the implementation non-compliant.
    rejected: dict[str, str] = field(default_factory=dict, hash=False)
    #: Alternatives the reference does not run -> ``"<kind>: why"`` (kinds:
    #: :data:`NOT_EXECUTABLE_KINDS`): none of them changes a memory.read output the kit could
    #: reproduce by running it.
    not_executable: dict[str, str] = field(default_factory=dict, hash=False)
    #: Runtime (python, javascript, go, rust, java) -> "pinned" or the alternative its
    #: standard library's obvious code follows.
    runtimes: dict[str, str] = field(default_factory=dict, hash=False)
    #: Executable alternatives that change only package_hash/record_hash, of (nearly) every
    #: package: vectors do not list the entry for them (``tools readings`` checks it).
    hashes_only: tuple[str, ...] = ()
    #: Executable alternatives that leave a value free -> that parameter (``parameters``).
    parameters: dict[str, ReadingParameter] = field(default_factory=dict, hash=False)

    def instances(self) -> tuple[str, ...]:
        """The executable alternatives as ``tools readings`` runs them: a parameterized one
        once per value of its ``check`` (``INT-28/list-first-n-drops(n=1)``)."""
        found: list[str] = []
        for alternative in self.executable:
            parameter = self.parameters.get(alternative)
            if parameter is None:
                found.append(alternative)
            else:
                found.extend(parameter.instance(alternative, value) for value in parameter.check)
        return tuple(found)


#: Why an alternative of the register may stay out of the reference (``not_executable``).
NOT_EXECUTABLE_KINDS: dict[str, str] = {
    "no-output": "changes no result, receipt or error code of the profile's call (memory.read, "
    "the Phase 2 context endpoint and jobs)",
    "other-contract": "concerns the SPEC-005 store writer or the SPEC-003 assembly record, "
    "checked by `phase6 store check` / `phase6 audit verify`, not memory.read",
    "nondeterministic": "its output depends on the machine, clock or file-system state, not on "
    "the request and the store bytes, so no run can reproduce it",
    "outside-the-schema": "the output it names does not fit the result schema (several errors "
    "at once, a receipt beside an error): a result shaped so fails the schema, which no reading "
    "excuses",
    "family": "its words leave something free that no declared parameter describes: a function "
    "(any heuristic), or a value not yet declared in `parameters` (as INT-28's first N drops "
    "is); none is run, so a failure following one is reported unexplained",
}
#: The runtimes whose standard-library behaviour the register records (``runtimes``).
RUNTIMES: tuple[str, ...] = ("python", "javascript", "go", "rust", "java")


#: The largest register file read (``--specs`` may name anyone's directory).
MAX_REGISTER_BYTES = 8 * 1024 * 1024


def read_register(path: Path, expected_format: str) -> dict[str, Any]:
    """A register file as a TOML document, read bounded, of the format expected (also the
    Phase 2 profile's registers, ``specs/phase2/``)."""
    try:
        document = tomllib.loads(read_bounded(path, MAX_REGISTER_BYTES).decode("utf-8"))
    except OSError as exc:
        raise RegisterError(f"cannot read register: {exc}", path=str(path)) from exc
    except UnicodeDecodeError as exc:
        raise RegisterError(f"not UTF-8 text (byte {exc.start})", path=str(path)) from exc
    except tomllib.TOMLDecodeError as exc:
        raise RegisterError(f"not valid TOML: {exc}", path=str(path)) from exc
    except RecursionError:  # tomllib recurses per nesting level: ``a=[[[[...`` 100,000 deep
        raise RegisterError("nested too deeply to be read as TOML", path=str(path)) from None
    if document.get("format") != expected_format:
        raise RegisterError(
            f"format is {document.get('format')!r}, expected {expected_format!r}", path=str(path)
        )
    return document


def load_clauses(path: Path | str | None = None) -> tuple[Clause, ...]:
    """Every clause of the register, in register order."""
    path = Path(path) if path is not None else specs_dir() / "clauses.toml"
    document = read_register(path, "phase6-clauses/1")
    clauses = []
    for index, raw in enumerate(document.get("clause", [])):
        try:
            clauses.append(
                Clause(
                    id=raw["id"],
                    section=raw.get("section", ""),
                    line=int(raw.get("line", 0)),
                    kind=raw.get("kind", ""),
                    quote=raw.get("quote", ""),
                    summary=raw.get("summary", ""),
                    verified_by=tuple(raw.get("verified_by", ())),
                    spec=raw.get("spec", "SPEC-006"),
                )
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise RegisterError(
                f"clause #{index + 1} is malformed: {exc!r}", path=str(path)
            ) from exc
    return tuple(clauses)


def load_interpretations(path: Path | str | None = None) -> tuple[Interpretation, ...]:
    """Every entry of the interpretation register, in register order."""
    path = Path(path) if path is not None else specs_dir() / "interpretations.toml"
    document = read_register(path, "phase6-interpretations/1")
    try:
        return tuple(
            Interpretation(
                raw["id"],
                raw.get("title", ""),
                bool(raw.get("erratum", False)),
                tuple(raw.get("verified_by", ())),
                tuple(raw.get("executable", ())),
                dict(raw.get("rejected", {})),
                dict(raw.get("not_executable", {})),
                dict(raw.get("runtimes", {})),
                tuple(raw.get("hashes_only", ())),
                {key: parse_parameter(value) for key, value in raw.get("parameters", {}).items()},
            )
            for raw in document.get("entry", [])
        )
    except (KeyError, TypeError) as exc:
        raise RegisterError(f"malformed entry: {exc!r}", path=str(path)) from exc
