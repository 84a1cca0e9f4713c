"""Expected-failures files: one format for certify and the pytest plugin."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance._errors import ExpectedFailuresError
from conformance.corpus._select import load_expected_failures


class TestExpectedFailures:
    """The `<id or glob>  # reason` format, with section items such as property:<family>."""

    def test_vector_and_property_entries(self, tmp_path: Path) -> None:
        """A property:<family> entry parses and is never reported stale against vector IDs."""
        path = tmp_path / "known.txt"
        path.write_text("trunc-*  # bytes vs chars\nproperty:hashes  # JCS floats\n")
        known = load_expected_failures(path)
        assert [e.pattern for e in known.entries] == ["trunc-*", "property:hashes"]
        assert known.stale(["paths-h001"]) == (known.entries[0],)
        assert known.stale(["trunc-h001"]) == ()

    def test_reason_is_required(self, tmp_path: Path) -> None:
        """An entry without '# reason' is rejected with its line number."""
        path = tmp_path / "known.txt"
        path.write_text("# comment\ntrunc-h001\n")
        with pytest.raises(ExpectedFailuresError):
            load_expected_failures(path)
