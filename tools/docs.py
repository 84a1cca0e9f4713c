"""``python -m tools docs [--out DIR]``: the kit's documentation as one static site (MkDocs).

The repository keeps its fixed top-level layout, so there is no ``mkdocs.yml`` and no ``docs/``
checked in: this tool assembles a docs tree in a temporary directory from the markdown the kit
already has (README as the home page, CONTRIBUTING, CHANGELOG, ``specs/*.md``,
``specs/phase2/*.md``, the other READMEs), the verbatim seed specs, the Phase 2 registers
rendered from their TOML, a generated index of the specs and a listing of the JSON Schemas
(copied next to it), writes the MkDocs configuration from ``PAGES`` and builds with MkDocs'
Python API in strict mode: a broken internal link or anchor fails the build.

Links are rewritten so that each points into the site: a relative link to a file that has a
page is pointed at that page, a relative link to any other file (source code, a vector file)
becomes its text and the repository path, and a repository path in backquotes that names a
page (`` `specs/protocol.md` ``) becomes a link to it. The sources are never modified. The
site goes to ``reports/docs/`` (git-ignored) by default; open ``index.html`` (``file://``
works: no directory URLs).
"""

from __future__ import annotations

import argparse
import json
import logging
import posixpath
import re
import shutil
import sys
import tempfile
import time
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OUT = ROOT / "reports" / "docs"
SITE_NAME = "phase6-v1 conformance kit"

#: The nav's sections, in order.
SECTIONS = (
    "Start here",
    "Certifying an implementation",
    "The contract",
    "Phase 2",
    "Kit internals",
)


@dataclass(frozen=True)
class Page:
    """One page of the site: where it comes from in the repository, where it goes in the docs
    tree, how it is made, its nav title and section, and one line on what it is for (the specs
    index shows that line)."""

    source: str
    path: str
    title: str
    section: str
    purpose: str
    #: ``copy`` (markdown, links rewritten), ``text`` (a verbatim text file in a code block),
    #: ``p2-clauses`` / ``p2-interpretations`` (rendered from the TOML register), ``specs-index``,
    #: ``schemas`` (generated).
    kind: str = "copy"


#: Every page, in nav order. ``source`` is repository-relative; a link to it anywhere lands here.
PAGES: tuple[Page, ...] = (
    Page("README.md", "index.md", "Home", "Start here",
         "the kit, its commands and what they write"),
    Page("specs/", "specs/index.md", "The specifications", "Start here",
         "this list: every document of the contract, one line each", "specs-index"),
    Page("CHANGELOG.md", "CHANGELOG.md", "Changelog", "Start here",
         "what changed, release by release"),
    Page("reports/README.md", "reports.md", "What a run writes", "Certifying an implementation",
         "where certify and the other sessions write their reports, and what is committed"),
    Page("specs/schemas/", "specs/schemas/index.md", "JSON Schemas",
         "Certifying an implementation",
         "the JSON Schemas of requests, results, reports, vectors and protocol messages",
         "schemas"),
    Page("conformance/examples/javascript/README.md", "examples/javascript.md",
         "The JavaScript example", "Certifying an implementation",
         "an independent second implementation in Node.js, certified in CI"),
    Page("specs/seeds/SPEC-006.txt", "specs/seeds/SPEC-006.md", "SPEC-006 (verbatim)",
         "The contract", "the spec certified: memory.read, contract phase6-v1", "text"),
    Page("specs/clauses.md", "specs/clauses.md", "Clause register", "The contract",
         "every normative statement of SPEC-006 with a stable ID and how it is verified"),
    Page("specs/interpretations.md", "specs/interpretations.md", "Interpretation register",
         "The contract",
         "every ambiguity the kit decided: the pinned reading, why, the alternatives, errata"),
    Page("specs/readings-coverage.md", "specs/readings-coverage.md", "Readings coverage",
         "The contract", "which vectors each executable alternative reading changes"),
    Page("specs/errors.md", "specs/errors.md", "Error codes", "The contract",
         "error codes of memory.read and the order in which they are checked"),
    Page("specs/protocol.md", "specs/protocol.md", "Adapter protocol", "The contract",
         "phase6-adapter/1: how the harness talks to an implementation in any language"),
    Page("specs/audit.md", "specs/audit.md", "Assembly records (audit)", "The contract",
         "phase6-audit/1: the SPEC-003 assembly record and how it is verified"),
    Page("specs/vectors-format.md", "specs/vectors-format.md", "Vector format", "The contract",
         "phase6-vectors/1: how to read and run the corpus without our runner"),
    Page("specs/store-vectors.md", "specs/store-vectors.md", "Store vectors", "The contract",
         "phase6-store-vectors/1 and the store check codes for SPEC-005 store checkers"),
    Page("specs/seeds/SPEC-003.txt", "specs/seeds/SPEC-003.md", "SPEC-003 (verbatim)",
         "The contract", "the memory controller contract SPEC-006 grew out of", "text"),
    Page("specs/seeds/SPEC-005.txt", "specs/seeds/SPEC-005.md", "SPEC-005 (verbatim)",
         "The contract", "the store format SPEC-006 reads", "text"),
    Page("specs/seeds/PHASE2-memory-engine.md", "specs/seeds/PHASE2-memory-engine.md",
         "Phase 2 spec (verbatim)", "Phase 2", "the Phase 2 memory engine, as written"),
    Page("specs/phase2/clauses.toml", "specs/phase2/clauses.md", "Clause register", "Phase 2",
         "the Phase 2 profile's clauses (phase2-context/1)", "p2-clauses"),
    Page("specs/phase2/interpretations.toml", "specs/phase2/interpretations.md",
         "Interpretation register", "Phase 2", "the readings the Phase 2 profile pins",
         "p2-interpretations"),
    Page("specs/phase2/vectors-format.md", "specs/phase2/vectors-format.md", "Vector format",
         "Phase 2", "phase2-context-vectors/1: fixtures, calls and expected outcomes"),
    Page("specs/phase2/readings-coverage.md", "specs/phase2/readings-coverage.md",
         "Readings coverage", "Phase 2", "which Phase 2 vectors each executable reading changes"),
    Page("specs/phase2/coverage.md", "specs/phase2/coverage.md", "Coverage", "Phase 2",
         "which Phase 2 vectors cover each clause and interpretation"),
    Page("CONTRIBUTING.md", "CONTRIBUTING.md", "Contributing", "Kit internals",
         "the data flow of a certification, the package map, re-pinning a reading"),
    Page("specs/coverage.md", "specs/coverage.md", "Coverage", "Kit internals",
         "which vectors cover each clause and pin each interpretation (CI fails on a gap)"),
    Page("specs/kill-matrix.md", "specs/kill-matrix.md", "Kill matrix", "Kit internals",
         "which vectors and probes kill each mutant of the reference"),
    Page("tests/security/README.md", "internals/hostile-input.md", "Hostile-input tests",
         "Kit internals", "the attacks on the harness, each held off by a test"),
)  # fmt: skip

#: Repository paths that are not a page's source but stand for one (a register's TOML source
#: is rendered into its markdown page).
ALIASES: dict[str, str] = {
    "specs/clauses.toml": "specs/clauses.md",
    "specs/interpretations.toml": "specs/interpretations.md",
    "specs/schemas": "specs/schemas/",
    "specs": "specs/",
}

_FENCE = re.compile(r"^\s*(```|~~~)")
_LINK = re.compile(r"(?<!!)\[(?P<text>[^\]\n]*)\]\((?P<target>[^)\s]+)\)")
_CODE_PATH = re.compile(r"(?<!\[)`(?P<path>[A-Za-z0-9_./-]+)`(?!\]\()")
_EXTERNAL = re.compile(r"^(?:[a-z][a-z0-9+.-]*:|#|/)", re.IGNORECASE)


class DocsError(Exception):
    """The site could not be built: a source is missing, the output directory is not a site's,
    or MkDocs (strict) refused, with its warnings; the message says which."""


class _Warnings(logging.Handler):
    """MkDocs' warnings during one build (in strict mode each one fails it)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(f"{record.levelname}: {record.getMessage()}")


def page_map() -> dict[str, Page]:
    """Repository path (or alias) -> the page it is shown on."""
    pages = {page.source: page for page in PAGES}
    pages.update({alias: pages[source] for alias, source in ALIASES.items()})
    return pages


def _relative(from_page: str, to_path: str) -> str:
    """A link from the docs page ``from_page`` to the docs-tree path ``to_path``."""
    return posixpath.relpath(to_path, posixpath.dirname(from_page) or ".")


def _resolve(source: str, target: str) -> str:
    """``target`` of a link in the repository file ``source``, as a repository path."""
    return posixpath.normpath(posixpath.join(posixpath.dirname(source), target))


def rewrite_links(
    text: str, page: Page, pages: dict[str, Page], files: dict[str, str], root: Path = ROOT
) -> str:
    """``text`` of ``page`` with its links pointing into the site (see the module docstring).

    ``files`` maps repository paths of non-page files copied into the site (the schemas) to
    their docs-tree path. A relative link to a file the repository at ``root`` does not have is
    left as written, for MkDocs (strict) to fail on; one leaving the repository becomes text.
    Fenced code blocks are left alone.
    """

    def target_of(path: str) -> str | None:
        if path in files:
            return files[path]
        found = pages.get(path) or pages.get(path.rstrip("/"))
        return None if found is None else found.path

    def link(match: re.Match[str]) -> str:
        text, target = match["text"], match["target"]
        if _EXTERNAL.match(target):
            return match[0]
        path, _, anchor = target.partition("#")
        where = _resolve(page.source, path)
        found = target_of(where)
        outside = where == ".." or where.startswith("../")
        if found is None and not outside and not (root / where).exists():
            return match[0]
        if found is None:
            shown = f"`{where}`"
            return shown if text.strip("`") == where else f"{text} ({shown})"
        return f"[{text}]({_relative(page.path, found)}{'#' + anchor if anchor else ''})"

    def code_path(match: re.Match[str]) -> str:
        found = target_of(match["path"])
        if found is None or found == page.path:
            return match[0]
        return f"[{match[0]}]({_relative(page.path, found)})"

    lines = []
    fenced = False
    for line in text.splitlines():
        rewritten = line
        if _FENCE.match(line):
            fenced = not fenced
        elif not fenced:
            rewritten = _LINK.sub(link, line)
            if not rewritten.lstrip().startswith("#"):
                rewritten = _CODE_PATH.sub(code_path, rewritten)
        lines.append(rewritten)
    return "\n".join(lines) + "\n"


def _verbatim(root: Path, page: Page) -> str:
    """A text file shown as it is, in a code block under a title."""
    text = (root / page.source).read_text("utf-8")
    return (
        f"# {page.title}\n\nThe text of `{page.source}`, exactly as the kit keeps it; the clause"
        f" registers quote it by line number.\n\n````text\n{text.rstrip()}\n````\n"
    )


def _paragraph(text: str) -> str:
    return " ".join(line.strip() for line in text.strip().splitlines())


def _phase2_clauses(root: Path, page: Page) -> str:
    """The Phase 2 clause register (``specs/phase2/clauses.toml``) as a table."""
    register: dict[str, Any] = tomllib.loads((root / page.source).read_text("utf-8"))
    lines = [
        f"# Clause register — Phase 2 ({register['profile']})",
        "",
        f"Rendered from `{page.source}` for this site. Quotes are verbatim from "
        f"`{register['spec_file']}` (line numbers given); which vectors cover each clause is in "
        "`specs/phase2/coverage.md`.",
        "",
        "| ID | line | kind | summary | quote | verified by |",
        "|---|---:|---|---|---|---|",
    ]
    for clause in register["clause"]:
        cells = [
            f"`{clause['id']}`",
            str(clause["line"]),
            clause["kind"],
            clause["summary"],
            f"“{clause['quote']}”",
            ", ".join(f"`{v}`" for v in clause.get("verified_by", ())),
        ]
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(lines) + "\n"


def _phase2_interpretations(root: Path, page: Page) -> str:
    """The Phase 2 interpretation register (``specs/phase2/interpretations.toml``), entry by
    entry: question, pinned reading (as written: it carries formulas), rationale, alternatives."""
    register: dict[str, Any] = tomllib.loads((root / page.source).read_text("utf-8"))
    entries: list[dict[str, Any]] = register["entry"]
    lines = [
        f"# Interpretation register — Phase 2 ({register['profile']})",
        "",
        f"Rendered from `{page.source}` for this site. Each entry is a place where "
        f"`specs/seeds/PHASE2-memory-engine.md` lets two honest implementations disagree: the "
        "reading the kit pins, why, and the alternatives. Entries marked **erratum** are "
        "contradictions for the spec's owner; `specs/phase2/coverage.md` lists the vectors that "
        "pin each entry.",
        "",
        "| ID | title | erratum |",
        "|---|---|---|",
    ]
    lines += [
        f"| [{e['id']}](#{e['id'].lower()}) | {e['title']} | {'yes' if e['erratum'] else ''} |"
        for e in entries
    ]
    for entry in entries:
        clauses = ", ".join(f"`{c}`" for c in entry.get("clauses", ()))
        erratum = " · **erratum**" if entry["erratum"] else ""
        lines += [
            "",
            f"## {entry['id']}",
            "",
            f"**{entry['title']}**{erratum} · clauses: {clauses}",
            "",
            f"*Question.* {_paragraph(entry['question'])}",
            "",
            "*Pinned reading.*",
            "",
            "````text",
            entry["reading"].strip(),
            "````",
            "",
            f"*Rationale.* {_paragraph(entry['rationale'])}",
            "",
            "*Alternatives.*",
            "",
        ]
        executable = entry.get("executable", [])
        lines += [f"- {_paragraph(text)}" for text in entry.get("alternatives", ())]
        if executable:
            ids = ", ".join(f"`{e}`" for e in executable)
            lines += ["", f"*Executable alternatives* (the reference engine runs them): {ids}"]
    return "\n".join(lines) + "\n"


def _specs_index(root: Path, page: Page) -> str:
    """One line per document of the contract, grouped as the nav groups them."""
    lines = [
        "# The specifications, one line each",
        "",
        "What each document under `specs/` (and the kit's other pages) is for. The TOML "
        "registers are the source of the register pages; `specs/schemas/` holds the JSON "
        "Schemas.",
    ]
    for section in SECTIONS:
        lines += ["", f"## {section}", ""]
        lines += [
            # <code>, not backquotes: the source path would be linked again (rewrite_links)
            f"- [{p.title}]({_relative(page.path, p.path)}): {p.purpose} (<code>{p.source}</code>)"
            for p in PAGES
            if p.section == section and p is not page
        ]
    return "\n".join(lines) + "\n"


def schema_files(root: Path) -> dict[str, str]:
    """Every JSON Schema under specs/schemas/, repository path -> docs-tree path (the same)."""
    return {
        path.relative_to(root).as_posix(): path.relative_to(root).as_posix()
        for path in sorted((root / "specs" / "schemas").rglob("*.schema.json"))
    }


def _schemas(root: Path, page: Page) -> str:
    """The JSON Schemas, grouped by directory, each linked with its title and description."""
    lines = [
        "# JSON Schemas",
        "",
        "Every JSON Schema (draft 2020-12) the kit validates against, with its title and "
        "description. The files are served as they are: follow a link to read one.",
    ]
    groups: dict[str, list[str]] = {}
    for path in schema_files(root):
        groups.setdefault(posixpath.dirname(path), []).append(path)
    for directory, paths in groups.items():
        lines += ["", f"## `{directory}/`", "", "| schema | title | description |", "|---|---|---|"]
        for path in paths:
            schema: dict[str, Any] = json.loads((root / path).read_text("utf-8"))
            cells = [
                f"[`{posixpath.basename(path)}`]({_relative(page.path, path)})",
                str(schema.get("title", "")),
                _paragraph(str(schema.get("description", ""))),
            ]
            lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(lines) + "\n"


_RENDERERS: dict[str, Callable[[Path, Page], str]] = {
    "text": _verbatim,
    "p2-clauses": _phase2_clauses,
    "p2-interpretations": _phase2_interpretations,
    "specs-index": _specs_index,
    "schemas": _schemas,
}


def assemble(docs: Path, root: Path = ROOT) -> None:
    """Write every page of ``PAGES`` from the repository at ``root`` (links rewritten) and the
    schema files under ``docs``."""
    pages, files = page_map(), schema_files(root)
    for page in PAGES:
        if page.kind == "copy":
            source = root / page.source
            if not source.is_file():
                raise DocsError(f"page source {page.source!r} is missing")
            text = source.read_text("utf-8")
        else:
            text = _RENDERERS[page.kind](root, page)
        target = docs / page.path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(rewrite_links(text, page, pages, files, root), "utf-8")
    for schema, path in files.items():
        (docs / path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(root / schema, docs / path)


def config(docs: Path, out: Path) -> dict[str, Any]:
    """The MkDocs configuration: plain theme, file:// friendly URLs, strict link checks."""
    return {
        "site_name": SITE_NAME,
        "docs_dir": str(docs),
        "site_dir": str(out),
        "use_directory_urls": False,
        "theme": {"name": "mkdocs"},
        "strict": True,
        "markdown_extensions": ["tables", "fenced_code", "toc"],
        "nav": [
            {section: [{p.title: p.path} for p in PAGES if p.section == section]}
            for section in SECTIONS
        ],
        "validation": {
            "nav": {"omitted_files": "warn", "not_found": "warn"},
            "links": {"not_found": "warn", "anchors": "warn", "unrecognized_links": "warn"},
        },
    }


def _check_out(out: Path) -> None:
    """MkDocs empties its output directory first: refuse one that holds something else."""
    foreign = out.is_dir() and any(out.iterdir()) and not (out / "index.html").is_file()
    if out.is_file() or foreign:
        raise DocsError(f"{str(out)!r} exists and is not a built site: give an empty directory")


def build(out: Path, root: Path = ROOT) -> int:
    """Assemble the docs tree of the repository at ``root`` in a temporary directory and build
    the site into ``out``; returns the number of pages."""
    from mkdocs.commands.build import build as mkdocs_build
    from mkdocs.config import load_config
    from mkdocs.exceptions import MkDocsException

    _check_out(out)
    with tempfile.TemporaryDirectory(prefix="phase6-docs-") as scratch:
        docs = Path(scratch) / "docs"
        assemble(docs, root)
        config_file = Path(scratch) / "mkdocs.yml"
        # JSON is YAML: no YAML writer needed for a generated configuration.
        config_file.write_text(json.dumps(config(docs, out.resolve()), indent=2), "utf-8")
        warnings = _Warnings()
        logger = logging.getLogger("mkdocs")
        logger.addHandler(warnings)
        try:
            mkdocs_build(load_config(str(config_file)))
        except MkDocsException as error:
            said = "".join(f"\n  {message}" for message in warnings.messages)
            raise DocsError(f"mkdocs refused the site: {error}{said}") from error
        finally:
            logger.removeHandler(warnings)
    return len(PAGES)


def main(argv: Sequence[str] | None = None) -> int:
    """Build the site; exit 1 when MkDocs (strict) or the tool refuses."""
    parser = argparse.ArgumentParser(
        prog="python -m tools docs", description=__doc__.split("\n\n")[0] if __doc__ else None
    )
    parser.add_argument(
        "--out", type=Path, default=DEFAULT_OUT, help="site directory (default: reports/docs)"
    )
    args = parser.parse_args(argv)
    started = time.monotonic()
    try:
        count = build(args.out)
    except DocsError as error:
        print(f"docs: {error}", file=sys.stderr)
        return 1
    elapsed = time.monotonic() - started
    print(f"docs: {count} pages in {args.out / 'index.html'} ({elapsed:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
