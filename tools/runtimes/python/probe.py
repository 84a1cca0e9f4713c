"""The obvious Python standard-library calls for the register entries whose answer depends on a
runtime (specs/interpretations.toml ``runtimes``). Each line printed is
"ENTRY<TAB>PROBE<TAB>OBSERVED"; ``python -m tools runtimes`` runs this and groups the lines."""

import datetime
import io
import json
import struct
import urllib.parse

SPACES = [0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x1C, 0x1D, 0x1E, 0x1F, 0x20, 0x85, 0xA0, 0x1680, 0x180E,
          0x2000, 0x200A, 0x200B, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF]  # fmt: skip


def out(entry: str, probe: str, observed: object) -> None:
    print(f"{entry}\t{probe}\t{observed}")


def points(text: str) -> str:
    return " ".join(f"U+{ord(char):04X}" for char in text)


def parsed(text: str) -> str:
    try:
        return "ok " + json.dumps(json.loads(text), ensure_ascii=True)
    except (ValueError, RecursionError):
        return "error"


def main() -> None:
    chars = [chr(point) for point in SPACES]
    out(
        "INT-05",
        "str.strip() removes",
        points("".join(c for c in chars if (c + "a").strip() == "a")),
    )
    out(
        "INT-05",
        "str.split() splits at",
        points("".join(c for c in chars if len(f"a{c}b".split()) == 2)),
    )
    out("INT-06", "str.lower(U+0130 U+03A3)", points("\u0130\u03a3".lower()))
    out("INT-06", "str.lower(AΣ)", points("A\u03a3".lower()))
    out("INT-07", 'len("é😀")', len("é😀"))
    out("P2-INT-15", 'parse_qs("q=a&q=b")["q"][0]', urllib.parse.parse_qs("q=a&q=b")["q"][0])
    out("INT-33", "sorted([U+FF61, U+1F600])", points("".join(sorted(["\uff61", "\U0001f600"]))))
    text = io.TextIOWrapper(io.BytesIO(b"a\r\nb\rc\n\nd\r"), encoding="utf-8")
    out(
        "INT-14",
        'text-mode file lines of "a\\r\\nb\\rc\\n\\nd\\r"',
        " ".join(json.dumps(line) for line in text),
    )
    out("INT-15", "json.loads BOM (str)", parsed("\ufeff{}"))
    out("INT-15", "json.loads NaN", parsed('{"a":NaN}'))
    out("INT-15", "json.loads lone surrogate", parsed('{"a":"x\\ud800"}'))
    out("INT-16", "json.loads duplicate", parsed('{"a":1,"a":2}'))
    out("INT-17", "json.loads 9007199254740993", parsed("[9007199254740993]"))
    out("INT-17", "json.loads 1e400", parsed("[1e400]"))
    for depth in (64, 128, 1000, 1025, 10001):
        out("INT-18", f"json.loads depth {depth}", parsed("[" * depth + "]" * depth).split()[0])
    for s in ("2024-01-02T03:04:05Z", "2024-01-02t03:04:05z", "2024-01-02T03:04:05-00:00",
              "2024-01-02T03:04:60Z", "20240102T030405Z", "2024-01-02T03:04:05+00"):  # fmt: skip
        try:
            parsed_at = datetime.datetime.fromisoformat(s)
            out("INT-20", f"datetime.fromisoformat({s!r})", f"accepted {parsed_at.isoformat()}")
        except ValueError:
            out("INT-20", f"datetime.fromisoformat({s!r})", "rejected")
    instant = datetime.datetime.fromisoformat("2024-01-02T03:04:05.120+00:00")
    out("INT-21", "isoformat() of 05.120+00:00", instant.isoformat())
    value = {"s": "<&>\u2028\x7f", "n": [2.0, 1e21, 1e-7, -0.0, 0.1]}
    out(
        "INT-01",
        "json.dumps(sort_keys=True, separators=(',', ':'))",
        json.dumps(value, sort_keys=True, separators=(",", ":")),
    )
    bits = [struct.pack(">d", 0.5 ** (i / 64 + i / 1000)).hex().lstrip("0") for i in range(1, 401)]
    out("INT-04", "pow(0.5, i/64 + i/1000), i = 1..400 (bits)", " ".join(bits))
    for literal in ("10", "10.0", "1e1"):
        out(
            "INT-41",
            f"isinstance(json.loads({literal!r}), int)",
            isinstance(json.loads(literal), int),
        )


main()
