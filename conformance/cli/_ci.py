"""``phase6 ci``: the CI recipes' one script.

The GitHub action (``conformance/ci/github-action/action.yml``) and the GitLab template
(``conformance/ci/gitlab/phase6.gitlab-ci.yml``) install the kit and call this command; what is
left in their YAML is their platform's own work (setting up Python, uploading artifacts). It:

1. runs ``phase6 certify`` on the adapter, the report going to ``--report-dir``;
2. appends ``report.md`` to the job summary (``--summary``, else ``$GITHUB_STEP_SUMMARY``, else
   standard output: a GitLab job's log), cut at a line under the size GitHub accepts, with a
   last line saying what certify's exit status means and what the policy made of it;
3. writes the step outputs (``--outputs``, else ``$GITHUB_OUTPUT``): ``exit-code`` (certify's),
   ``verdict``, ``partial``, ``passed`` and ``report-dir``;
4. with ``--site-collection``, keeps the report with its metadata for the interoperability site
   (``phase6 site collect --report``);
5. exits by the verdict policy (:data:`POLICIES`): 0 when certify's exit status is one the
   policy passes, certify's own status otherwise (its meaning then stays what ``phase6 certify
   --help`` lists); on GitHub Actions a failing job also gets an ``::error`` annotation.

Every option takes an empty value as "not given", so a recipe can pass its CI variables
through whether or not the user set them.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shlex
import sys
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

from conformance._errors import HarnessError, UsageError
from conformance._kit import one_line, read_bounded, terminal_safe
from conformance.cli import _certify
from conformance.cli._common import (
    EXIT_FAILED,
    EXIT_OK,
    EXIT_PARTIAL,
    EXIT_READINGS,
    EXIT_USAGE,
    Subparsers,
)
from conformance.site import collect_report

__all__ = ["POLICIES", "STATUS_MEANING", "SUMMARY_LIMIT", "register"]

#: ``--policy``: the exit statuses of ``phase6 certify`` a job passes with. An error of the
#: harness or of the set-up (2) fails the job under every policy: there is no verdict to accept.
POLICIES: Mapping[str, frozenset[int]] = {
    "compliant": frozenset({EXIT_OK}),
    "required": frozenset({EXIT_OK, EXIT_READINGS}),
    "report": frozenset({EXIT_OK, EXIT_FAILED, EXIT_PARTIAL, EXIT_READINGS}),
}
_POLICY_HELP = {
    "compliant": "pass only when certify exits 0: compliant (or, with --expected-failures, "
    "nothing unexpected); the default",
    "required": "pass on 0 and on 4 (compliant-required-only: every required check passed, the "
    "failures are readings of ambiguous clauses)",
    "report": "pass whenever certify reached a verdict or a partial result (0, 1, 3, 4): the job "
    "publishes the report and never fails on it; 2 still fails",
}
#: What each exit status of ``phase6 certify`` means (its ``--help`` epilog, one line each).
STATUS_MEANING: Mapping[int, str] = {
    EXIT_OK: "compliant (or, with expected failures, nothing unexpected)",
    EXIT_FAILED: "not compliant",
    EXIT_USAGE: "usage or harness error: no verdict",
    EXIT_PARTIAL: "partial run in which nothing failed: no verdict",
    EXIT_READINGS: "compliant-required-only: the failures are readings of ambiguous clauses",
}
#: GitHub keeps at most 1 MiB of job summary per step and drops a larger one whole; the
#: summary is cut, at a line, under this many bytes (the full report.md is in the artifact).
SUMMARY_LIMIT = 1_000_000
#: certify options ``phase6 ci`` sets itself and the certify arguments must leave alone.
_OWN = {"adapter": "--adapter", "report_dir": "--report-dir", "no_report": "--no-report"}


#: The report files this command reads (only when this run wrote them).
_READ = ("report.json", "report.md")


def _stamp(path: Path) -> tuple[int, int, int, int] | None:
    """What tells one version of a file from another (device, inode, mtime, size); ``None``
    when there is no file."""
    try:
        info = path.stat()
    except OSError:
        return None
    return (info.st_dev, info.st_ino, info.st_mtime_ns, info.st_size)


def _given(text: str) -> str | None:
    """An argparse type: an empty value (an unset CI variable passed through) is not given."""
    return text if text.strip() else None


def _policy(text: str) -> str:
    if not text.strip():
        return "compliant"
    if text not in POLICIES:
        raise argparse.ArgumentTypeError(f"{text!r}: one of {', '.join(POLICIES)}")
    return text


def register(commands: Subparsers) -> None:
    """Add ``ci``."""
    parser = commands.add_parser(
        "ci",
        help="the CI recipes' script: certify, job summary, site collection, verdict policy",
        description="Certify an implementation in a CI job: run 'phase6 certify', append "
        "report.md to the job summary, write the step outputs, optionally keep the report for "
        "the interoperability site, and exit by the verdict policy. The GitHub action and the "
        "GitLab template under conformance/ci/ call this. An empty option value counts as not "
        "given (CI variables pass through).",
        epilog="Policies: "
        + "; ".join(f"{name}: {text}" for name, text in _POLICY_HELP.items())
        + ". Exit codes: 0 the policy passes certify's exit status; otherwise certify's own "
        "status (1 not compliant, 2 usage or harness error, 3 partial run, 4 "
        "compliant-required-only); 2 also when the summary, the outputs or the site collection "
        "cannot be written.",
    )
    parser.add_argument(
        "--adapter",
        type=_given,
        help="the implementation under test: 'cmd:<command line>' or "
        "'python:package.module:callable' (required)",
    )
    parser.add_argument(
        "--report-dir",
        type=_given,
        default=None,
        help="where certify writes the report (default: phase6-report)",
    )
    parser.add_argument(
        "--expected-failures", type=_given, help="an expected-failures file for certify"
    )
    parser.add_argument(
        "--policy",
        type=_policy,
        default="compliant",
        help=f"which certify exit statuses pass the job: {', '.join(POLICIES)} "
        "(default: compliant; see below)",
    )
    parser.add_argument(
        "--summary",
        type=_given,
        help="append the summary to this file ('-': standard output; default: "
        "$GITHUB_STEP_SUMMARY when set, else standard output)",
    )
    parser.add_argument(
        "--outputs",
        type=_given,
        help="append the step outputs (key=value lines) to this file (default: "
        "$GITHUB_OUTPUT when set, else none)",
    )
    parser.add_argument(
        "--site-collection",
        type=_given,
        help="also keep the report with its metadata in this collection directory "
        "('phase6 site collect --report')",
    )
    parser.add_argument(
        "--certify-args",
        type=_given,
        default=None,
        help="further arguments for 'phase6 certify' as one string, split as a shell would "
        "(write --certify-args='--select area:truncation --timeout 60': with '=', as a value "
        "starting with '-' needs)",
    )
    parser.add_argument(
        "certify_extra",
        nargs="*",
        metavar="CERTIFY-ARG",
        help="further arguments for 'phase6 certify' after -- (added after --certify-args)",
    )
    parser.set_defaults(handler=_ci)


def _certify_namespace(argv: Sequence[str]) -> argparse.Namespace:
    """``argv`` parsed as ``phase6 certify`` would parse it (a usage error: :class:`UsageError`
    with argparse's message; argparse's own usage text goes to standard error)."""
    try:
        return _certify.parse_certify(argv)
    except SystemExit as exc:
        raise UsageError(f"the certify arguments {shlex.join(argv)!r} are not usable") from exc


def _certify_argv(args: argparse.Namespace, report_dir: str) -> list[str]:
    """The ``certify`` arguments of this job; :class:`UsageError` before anything runs when
    the user's certify arguments would change what this command relies on."""
    if args.adapter is None:
        raise UsageError(
            "--adapter is required: 'cmd:<command line>' or 'python:package.module:callable' "
            "(an empty value, such as an unset CI variable, is not an adapter)"
        )
    try:
        extra = shlex.split(args.certify_args or "") + list(args.certify_extra)
    except ValueError as exc:
        raise UsageError(f"--certify-args {args.certify_args!r}: {exc}") from None
    argv = ["--adapter", args.adapter, "--report-dir", report_dir]
    if args.expected_failures is not None:
        argv += ["--expected-failures", args.expected_failures]
    parsed = _certify_namespace([*argv, *extra])
    own = {"adapter": args.adapter, "report_dir": Path(report_dir), "no_report": False}
    for name, option in _OWN.items():
        if getattr(parsed, name) != own[name]:
            raise UsageError(
                f"the certify arguments set {option}: give it to 'phase6 ci' instead "
                "(it reads the report it writes)"
            )
    return [*argv, *extra]


def _run_certify(argv: list[str], out: TextIO) -> int:
    """``phase6 certify ARGV`` in this process; its exit status (a harness error: 2, said)."""
    certify = _certify_namespace(argv)
    try:
        status: int = certify.handler(certify, out)
    except HarnessError as exc:
        sys.stderr.write(f"phase6: error: {terminal_safe(str(exc))}\n")
        return EXIT_USAGE
    return status


def _verdict(report_dir: Path) -> tuple[str, str]:
    """The verdict value in ``report.json`` and whether the run was partial (``true`` or
    ``false``; ``none`` for both when there is no readable report)."""
    try:
        report: Any = json.loads(read_bounded(report_dir / "report.json", 1 << 30))
        value, partial = report["footer"]["verdict"]["value"], report["footer"]["partial"]
    except (OSError, ValueError, KeyError, TypeError):
        return "none", "none"
    if not isinstance(value, str) or not isinstance(partial, bool):
        return "none", "none"
    return one_line(value), "true" if partial else "false"


def _cut(markdown: str, limit: int) -> str:
    """``markdown`` cut at a line so that it and the note fit in ``limit`` UTF-8 bytes."""
    note = (
        "\n\n*The report is longer than a job summary holds: the rest is in report.md, in "
        "the report artifact.*\n"
    )
    if len(markdown.encode("utf-8")) <= limit:
        return markdown
    room = limit - len(note.encode("utf-8"))
    head = markdown.encode("utf-8")[:room].decode("utf-8", errors="ignore")
    return head[: head.rfind("\n") + 1] + note


def _last_line(status: int, policy: str, problems: Sequence[str]) -> str:
    """What certify's exit status means and what the policy made of it, in one line."""
    meaning = STATUS_MEANING.get(status, "an exit status certify does not list")
    accepted = ", ".join(str(code) for code in sorted(POLICIES[policy]))
    line = f"phase6 ci: certify exited {status} ({meaning}); policy '{policy}' passes on {accepted}"
    if status not in POLICIES[policy]:
        return f"{line}: this job fails with exit status {status}"
    if problems:
        return f"{line}, but {one_line(problems[0])}: this job fails with exit status {EXIT_USAGE}"
    return f"{line}: this job passes"


def _summary(report_dir: Path | None, status: int, last: str) -> str:
    """report.md of ``report_dir`` (``None``: none written by this run) and the last line."""
    try:
        if report_dir is None:
            raise FileNotFoundError("report.md")
        markdown = read_bounded(report_dir / "report.md", 1 << 30).decode("utf-8", "replace")
    except OSError:
        markdown = (
            f"# phase6-v1 conformance\n\nphase6 certify wrote no report.md (exit {status}: "
            f"{STATUS_MEANING.get(status, 'unlisted')}); the job log says why.\n"
        )
    tail = f"\n---\n\n**{last}**\n"
    return _cut(markdown, SUMMARY_LIMIT - len(tail.encode("utf-8"))) + tail


def _append(path: str, text: str, what: str) -> None:
    """Append ``text`` to the file ``path`` (``UsageError`` naming ``what`` when it cannot)."""
    try:
        with open(path, "a", encoding="utf-8") as handle:
            handle.write(text)
    except OSError as exc:
        raise UsageError(f"cannot append the {what} to {path!r}: {exc.strerror or exc}") from None


def _annotation(text: str) -> str:
    """``text`` as the data of a GitHub workflow command (its escapes: ``%``, CR, LF)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


@contextlib.contextmanager
def _noted(problems: list[str]) -> Iterator[None]:
    """Run the block; a harness error or an OS error in it is noted in ``problems``."""
    try:
        yield
    except (HarnessError, OSError) as exc:
        problems.append(str(exc))


def _ci(args: argparse.Namespace, out: TextIO) -> int:
    environ = os.environ
    report_dir = Path(args.report_dir or "phase6-report")
    summary = args.summary or environ.get("GITHUB_STEP_SUMMARY") or "-"
    outputs = args.outputs or environ.get("GITHUB_OUTPUT") or None
    before = {name: _stamp(report_dir / name) for name in _READ}
    try:
        argv = _certify_argv(args, str(report_dir))
    except UsageError as exc:  # said in the summary too: the job page shows why nothing ran
        sys.stderr.write(f"phase6 ci: error: {terminal_safe(str(exc))}\n")
        status = EXIT_USAGE
    else:
        status = _run_certify(argv, out)
    # A report file this run did not write (one committed, or left by an earlier step) is
    # not this run's: it is never summarized, collected or read for the outputs.
    stale = [
        name
        for name in _READ
        if before[name] is not None and _stamp(report_dir / name) == before[name]
    ]
    for name in stale:
        out.write(
            f"phase6 ci: {one_line(report_dir / name)} was there before and this run did not "
            "write it: not used\n"
        )
    fresh = {name: name not in stale and (report_dir / name).is_file() for name in _READ}

    said: list[str] = []
    problems: list[str] = []
    if args.site_collection is not None:
        if fresh["report.json"]:
            with _noted(problems):
                collected = collect_report(report_dir, Path(args.site_collection))
                said.append(
                    f"site: collected {one_line(collected.implementation)} "
                    f"{one_line(collected.version)} ({one_line(collected.verdict)}) into "
                    f"{one_line(collected.directory)}"
                )
        else:
            said.append("site: no report.json, nothing to collect")
    passed = status in POLICIES[args.policy] and not problems
    last = _last_line(status, args.policy, problems)
    text = _summary(report_dir if fresh["report.md"] else None, status, last)
    if summary == "-":
        out.write("\n" + text)
    else:
        with _noted(problems):
            _append(summary, text, "job summary")
            said.append(f"summary appended to {one_line(summary)}")
    if outputs is not None:
        verdict, partial = _verdict(report_dir) if fresh["report.json"] else ("none", "none")
        values = {
            "exit-code": str(status),
            "verdict": verdict,
            "partial": partial,
            "passed": "true" if passed else "false",
            "report-dir": one_line(report_dir),
        }
        with _noted(problems):
            _append(outputs, "".join(f"{k}={v}\n" for k, v in values.items()), "step outputs")
            said.append(f"outputs appended to {one_line(outputs)}")
    for line in said:
        out.write(f"phase6 ci: {line}\n")
    for problem in problems:
        sys.stderr.write(f"phase6 ci: error: {one_line(problem)}\n")
    if passed and problems:  # the summary or the outputs could not be written
        passed, last = False, _last_line(status, args.policy, problems)
    out.write(last + "\n")
    if environ.get("GITHUB_ACTIONS") == "true":
        if not passed:
            out.write(f"::error title=phase6-v1 conformance::{_annotation(last)}\n")
        elif status != EXIT_OK:
            out.write(f"::warning title=phase6-v1 conformance::{_annotation(last)}\n")
    if passed:
        return EXIT_OK
    return status if status not in POLICIES[args.policy] else EXIT_USAGE
