"""The sample assembly record of ``adam_os_data/audit/`` verifies against the sample stores."""

from __future__ import annotations

import io
import json

from paths import REPO

from conformance.cli import main

RECORD = REPO / "adam_os_data" / "audit" / "record.json"
REQUEST = REPO / "adam_os_data" / "audit" / "request.json"


class TestSample:
    """The committed recorded read, as CI checks it (``nox -s audit_sample``)."""

    def test_record_is_of_the_committed_request(self) -> None:
        """The record's request is the sample request file, over the three sample stores."""
        record = json.loads(RECORD.read_text("utf-8"))
        assert record["request"] == json.loads(REQUEST.read_text("utf-8"))
        assert [s["path"] for s in record["stores"]] == [
            f"adam_os_data/memory/{name}.jsonl" for name in ("episodic", "procedural", "semantic")
        ]

    def test_sample_verifies(self) -> None:
        """Identities hold and the replay by the reference gives the same record."""
        out = io.StringIO()
        code = main(["audit", "verify", str(RECORD), "--root", str(REPO), "--json"], out)
        result = json.loads(out.getvalue())
        assert code == 0, result
        assert [s["status"] for s in result["stores"]] == ["unchanged"] * 3
        assert result["replay"]["differing_members"] == []
