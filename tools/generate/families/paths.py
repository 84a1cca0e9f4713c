"""Store paths (READER 1), INT-12, INT-13, INT-45): lexical normalization ("./", "a/../", "//",
trailing "/", "." segments), duplicates after normalization (read once), sorting by code point,
and present / missing / directory stores. The intent is the receipt's store_paths (normalized,
deduplicated, sorted) and, for read order, the order of the dropped entries: every store has
two records, the budget is 1 token, so one record is selected (cut to 1 token) and selection
stops; every other record is dropped, in read order (INT-28).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from tools.generate.families._case import Case, Json, line, make_request, store

__all__ = ["DESCRIPTION", "cases"]

DESCRIPTION = (
    "Generated: store path normalization, deduplication, sort order and missing/directory stores."
)


def _receipt_paths(expected: Sequence[str]) -> Callable[[Json], str | None]:
    def check(result: Json) -> str | None:
        got = result["receipt"]["data"]["store_paths"]
        if got != list(expected):
            return f"receipt store_paths {got!r}, intended {list(expected)!r}"
        order = [d["store_path"] for d in result["package"]["selection"]["dropped"]]
        deduped = list(dict.fromkeys(order))
        if deduped != list(expected):
            return f"read order {deduped!r}"
        selected = [i["store_path"] for i in result["package"]["selection"]["selected"]]
        return None if selected == list(expected[:1]) else f"selected from {selected!r}"

    return check


def _store_for(path: str) -> Json:
    name = path.rsplit("/", 1)[-1]
    return store(line(f"{name}-1", "eight by"), line(f"{name}-2", "eight by"))


#: slug -> (requested paths, files that exist, normalized sorted unique store paths)
NORMALIZE: tuple[tuple[str, list[str], list[str], list[str]], ...] = (
    ("dot-slash", ["./stores/s.jsonl"], ["stores/s.jsonl"], ["stores/s.jsonl"]),
    ("dot-segment", ["stores/./s.jsonl"], ["stores/s.jsonl"], ["stores/s.jsonl"]),
    ("double-slash", ["stores//s.jsonl"], ["stores/s.jsonl"], ["stores/s.jsonl"]),
    ("many-slashes", [".//stores///./s.jsonl"], ["stores/s.jsonl"], ["stores/s.jsonl"]),
    ("dotdot", ["stores/x/../s.jsonl"], ["stores/s.jsonl"], ["stores/s.jsonl"]),
    ("dotdot-missing-dir", ["stores/nodir/../s.jsonl"], ["stores/s.jsonl"], ["stores/s.jsonl"]),
    ("dotdot-twice", ["a/b/../../stores/s.jsonl"], ["stores/s.jsonl"], ["stores/s.jsonl"]),
    ("dotdot-back-in", ["stores/../stores/s.jsonl"], ["stores/s.jsonl"], ["stores/s.jsonl"]),
    ("trailing-slash", ["stores/s.jsonl/"], ["stores/s.jsonl"], ["stores/s.jsonl"]),
    ("trailing-dot", ["stores/s.jsonl/."], ["stores/s.jsonl"], ["stores/s.jsonl"]),
    ("through-file-dotdot", ["stores/s.jsonl/../s.jsonl"], ["stores/s.jsonl"], ["stores/s.jsonl"]),
    ("deep", ["stores/a/b/c/s.jsonl"], ["stores/a/b/c/s.jsonl"], ["stores/a/b/c/s.jsonl"]),
    ("dots-only-prefix", ["./././stores/s.jsonl"], ["stores/s.jsonl"], ["stores/s.jsonl"]),
    ("dup-exact", ["stores/s.jsonl", "stores/s.jsonl"], ["stores/s.jsonl"], ["stores/s.jsonl"]),
    (
        "dup-spelled",
        ["stores/s.jsonl", "./stores/s.jsonl", "stores//s.jsonl", "stores/x/../s.jsonl"],
        ["stores/s.jsonl"],
        ["stores/s.jsonl"],
    ),
    (
        "dup-among-two",
        ["./stores/b.jsonl", "stores/a.jsonl", "stores/b.jsonl/"],
        ["stores/a.jsonl", "stores/b.jsonl"],
        ["stores/a.jsonl", "stores/b.jsonl"],
    ),
    (
        "sort-two",
        ["stores/b.jsonl", "stores/a.jsonl"],
        ["stores/a.jsonl", "stores/b.jsonl"],
        ["stores/a.jsonl", "stores/b.jsonl"],
    ),
    (
        "sort-three",
        ["stores/c.jsonl", "stores/a.jsonl", "stores/b.jsonl"],
        ["stores/a.jsonl", "stores/b.jsonl", "stores/c.jsonl"],
        ["stores/a.jsonl", "stores/b.jsonl", "stores/c.jsonl"],
    ),
    (
        "sort-after-normalize",
        ["./stores/z/s.jsonl", "stores/y/../a/s.jsonl"],
        ["stores/a/s.jsonl", "stores/z/s.jsonl"],
        ["stores/a/s.jsonl", "stores/z/s.jsonl"],
    ),
    (
        "sort-normalized-not-raw",
        ["./stores/b.jsonl", "stores//a.jsonl"],
        ["stores/a.jsonl", "stores/b.jsonl"],
        ["stores/a.jsonl", "stores/b.jsonl"],
    ),
    (
        "sort-case",
        ["stores/a.jsonl", "stores/B.jsonl"],
        ["stores/B.jsonl", "stores/a.jsonl"],
        ["stores/B.jsonl", "stores/a.jsonl"],
    ),
    (
        "sort-dash-slash",
        ["stores/a/x.jsonl", "stores/a-x.jsonl"],
        ["stores/a-x.jsonl", "stores/a/x.jsonl"],
        ["stores/a-x.jsonl", "stores/a/x.jsonl"],
    ),
    (
        "sort-dot-slash",
        ["stores/a/x.jsonl", "stores/a.jsonl"],
        ["stores/a.jsonl", "stores/a/x.jsonl"],
        ["stores/a.jsonl", "stores/a/x.jsonl"],
    ),
    (
        "sort-digits",
        ["stores/m9.jsonl", "stores/m10.jsonl"],
        ["stores/m10.jsonl", "stores/m9.jsonl"],
        ["stores/m10.jsonl", "stores/m9.jsonl"],
    ),
    (
        "sort-latin1",
        ["stores/é.jsonl", "stores/z.jsonl"],
        ["stores/z.jsonl", "stores/é.jsonl"],
        ["stores/z.jsonl", "stores/é.jsonl"],
    ),
    (
        "sort-nonbmp",
        ["stores/\U0001f600.jsonl", "stores/\uff21.jsonl"],
        ["stores/\uff21.jsonl", "stores/\U0001f600.jsonl"],
        ["stores/\uff21.jsonl", "stores/\U0001f600.jsonl"],
    ),
    (
        "sort-private-use",
        ["stores/\U00010000.jsonl", "stores/\ue000.jsonl"],
        ["stores/\ue000.jsonl", "stores/\U00010000.jsonl"],
        ["stores/\ue000.jsonl", "stores/\U00010000.jsonl"],
    ),
    (
        "sort-space",
        ["stores/a.jsonl", "stores/ a.jsonl"],
        ["stores/ a.jsonl", "stores/a.jsonl"],
        ["stores/ a.jsonl", "stores/a.jsonl"],
    ),
    (
        "sort-depth",
        ["stores/b.jsonl", "stores/a/z/z.jsonl"],
        ["stores/a/z/z.jsonl", "stores/b.jsonl"],
        ["stores/a/z/z.jsonl", "stores/b.jsonl"],
    ),
    (
        "name-with-spaces",
        ["stores/my store.jsonl"],
        ["stores/my store.jsonl"],
        ["stores/my store.jsonl"],
    ),
    ("name-dots", ["stores/..s.jsonl"], ["stores/..s.jsonl"], ["stores/..s.jsonl"]),
    ("name-no-extension", ["stores/memory"], ["stores/memory"], ["stores/memory"]),
    ("name-tilde", ["stores/~s.jsonl"], ["stores/~s.jsonl"], ["stores/~s.jsonl"]),
)


def _utf16(path: str) -> bytes:
    return path.encode("utf-16-be")  # big-endian bytes compare as the UTF-16 code units do


def cases() -> Iterator[Case]:
    """Normalization, duplicates and sort order; then error mixes."""
    for slug, requested, existing, expected in NORMALIZE:
        clauses = ("S6-READ-04", "S6-READ-05", "S6-RCPT-04", "S6-OUT-19", "S6-READ-08")
        yield Case(
            id=f"path-{slug}",
            description=f"store_paths {slug}: read as {expected!r}.",
            comment=f"requested {requested!r}; existing {existing!r}; two records per store; "
            "max 1 token.",
            clauses=clauses,
            # INT-33: tie-break 3 orders these paths otherwise by UTF-16 code units
            interpretations=("INT-12", "INT-43", "INT-45")
            + (("INT-33",) if sorted(expected, key=_utf16) != sorted(expected) else ()),
            request=make_request("zz", requested, tokens=1),
            files={path: _store_for(path) for path in existing},
            check=_receipt_paths(expected),
        )
    mixes: tuple[tuple[str, list[str], dict[str, Json], tuple[str, str]], ...] = (
        (
            "present-missing-dir",
            ["stores/s.jsonl", "stores/none.jsonl", "stores/d"],
            {"stores/d": {"directory": True}},
            ("store_not_readable", "/store_paths/2"),
        ),
        (
            "normalized-missing",
            ["stores/s.jsonl", "stores/s.jsonl/../t.jsonl"],
            {},
            ("store_not_found", "/store_paths/1"),
        ),
        (
            "leading-dotdot",
            ["../phase6-conformance-no-such-store.jsonl"],
            {},
            ("store_not_found", "/store_paths/0"),
        ),
        (
            "dotdot-above",
            ["stores/../../phase6-conformance-no-such-store.jsonl"],
            {},
            ("store_not_found", "/store_paths/0"),
        ),
        (
            "absolute-dotdot",
            ["/../nonexistent-phase6-conformance/s.jsonl"],
            {},
            ("store_not_found", "/store_paths/0"),
        ),
        (
            "trailing-slash-missing",
            ["stores/none.jsonl/"],
            {},
            ("store_not_found", "/store_paths/0"),
        ),
    )
    for slug, requested, extra, error in mixes:
        yield Case(
            id=f"path-err-{slug}",
            description=f"store_paths {slug}: {error[0]} at {error[1]}.",
            comment=f"requested {requested!r}; existing stores/s.jsonl plus {sorted(extra)!r}.",
            clauses=("S6-READ-04", "S6-ERR-05", "S6-ERR-06"),
            interpretations=("INT-12", "INT-13", "INT-40"),
            request=make_request("zz", requested),
            files={"stores/s.jsonl": _store_for("stores/s.jsonl"), **extra},
            error=error,
        )
