"""Protocol section 4: a run may ask for the assembly record of an implementation declaring
the capability ``audit``; the reply carries it exactly when asked."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conformance._errors import ProtocolError
from conformance.adapters import SubprocessAdapter, open_adapter, reference_adapter_spec
from conformance.adapters._protocol import check_run_reply, run_message, validate_message

RESULT = {"error": {"code": "invalid_query", "message": "m", "path": "/query",
                    "clause": "S6-ERR-01"}}  # fmt: skip


class TestMessages:
    """The run line and the reply check."""

    def test_run_line_asks_only_when_told(self) -> None:
        """`audit=True` adds "audit": true; both lines validate against run.schema.json."""
        plain = json.loads(run_message(1, "/r", b"{}"))
        asked = json.loads(run_message(1, "/r", b"{}", audit=True))
        assert "audit" not in plain
        assert asked["audit"] is True
        validate_message("run", plain)
        validate_message("run", asked)

    def test_reply_with_record_when_asked(self) -> None:
        """A reply to an audited run carries the record next to the result."""
        reply = check_run_reply({"seq": 3, "result": RESULT, "audit": {"format": "x"}}, 3,
                                audit=True)  # fmt: skip
        assert reply.audit == {"format": "x"}

    @pytest.mark.parametrize(
        ("message", "audit"),
        [
            ({"seq": 3, "result": RESULT}, True),  # asked, not given
            ({"seq": 3, "result": RESULT, "audit": {}}, False),  # given, not asked
            ({"seq": 3, "result": RESULT, "audit": []}, True),  # not an object
        ],
    )
    def test_wrong_audit_member_is_a_protocol_error(self, message: dict[str, object],
                                                    audit: bool) -> None:  # fmt: skip
        """A record missing, unasked for, or not an object breaks the protocol."""
        with pytest.raises(ProtocolError):
            check_run_reply(message, 3, audit=audit)


class TestReferenceServe:
    """`python -m reference serve` declares the capability and answers records."""

    def test_reference_answers_records(self, tmp_path: Path) -> None:
        """The handshake lists audit; an audited run returns the envelope and its record."""
        (tmp_path / "s.jsonl").write_text('{"memory_id": "a", "text": "alpha"}\n', "utf-8")
        request = {"query": "alpha", "store_paths": ["s.jsonl"],
                   "budget": {"max_excerpt_tokens": 5}}  # fmt: skip
        with open_adapter(reference_adapter_spec(), validate=True) as adapter:
            assert "audit" in adapter.start().capabilities
            assert isinstance(adapter, SubprocessAdapter)
            result, record = adapter.run_audited(json.dumps(request).encode(), tmp_path)
            plain = adapter.run(json.dumps(request).encode(), tmp_path)
        assert result == plain
        assert record["package_hash"] == plain["package"]["package_hash"]
        assert record["candidates"] == [{"store": 0, "line": 1, "memory_id": "a",
            "record_hash": plain["package"]["selection"]["selected"][0]["record_hash"],
            "outcome": "selected"}]  # fmt: skip
