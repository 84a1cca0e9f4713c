"""Parameters of GET /v1/memory/context, in-process (P2-API-03..05, P2-INT-13..17)."""

from __future__ import annotations

import pytest

from reference.phase2 import ParameterError, parse_params, preview_context
from reference.phase2._run import run_vector_call

_BASE = [("chat_id", "c1"), ("query", "q")]


class TestParseParams:
    """One check order, one error per request."""

    @pytest.mark.parametrize(
        ("pairs", "code", "param"),
        [
            ([], "missing_parameter", "chat_id"),
            ([("query", "q")], "missing_parameter", "chat_id"),
            ([("chat_id", "c1")], "missing_parameter", "query"),
            ([("chat_id", "")], "invalid_parameter", "chat_id"),
            ([("chat_id", "c"), ("chat_id", "c"), ("query", "q")], "invalid_parameter", "chat_id"),
            ([("chat_id", "c"), ("query", "\u2003")], "invalid_parameter", "query"),
            ([*_BASE, ("max_tokens", "0")], "invalid_parameter", "max_tokens"),
            ([*_BASE, ("max_tokens", "0000")], "invalid_parameter", "max_tokens"),
            ([*_BASE, ("max_tokens", "1" + "0" * 5000)], "invalid_parameter", "max_tokens"),
            ([*_BASE, ("max_tokens", "\uff15")], "invalid_parameter", "max_tokens"),
            ([*_BASE, ("user_id", "")], "invalid_parameter", "user_id"),
            ([*_BASE, ("user_id", "a"), ("user_id", "b")], "invalid_parameter", "user_id"),
        ],
    )
    def test_errors(self, pairs: list[tuple[str, str]], code: str, param: str) -> None:
        """Each fault names its code and parameter."""
        with pytest.raises(ParameterError) as caught:
            parse_params(pairs)
        assert (caught.value.code, caught.value.field, caught.value.status) == (code, param, 400)

    @pytest.mark.parametrize(
        ("pairs", "user", "max_tokens"),
        [
            (_BASE, None, None),
            ([*_BASE, ("max_tokens", "0" * 3000 + "7")], None, 7),
            ([*_BASE, ("max_tokens", "9007199254740991"), ("user_id", "u")], "u", 2**53 - 1),
            ([("x", ""), *_BASE, ("y", "z")], None, None),
        ],
    )
    def test_valid(
        self, pairs: list[tuple[str, str]], user: str | None, max_tokens: int | None
    ) -> None:
        """Valid requests: an absent user_id stays absent (preview_context resolves it,
        P2-INT-16), leading zeros, the largest value."""
        request = parse_params(pairs)
        assert (request.user_id, request.max_tokens, request.query) == (user, max_tokens, "q")


class TestPreview:
    """preview_context answers (status, body) and writes nothing."""

    def test_error_body(self) -> None:
        """A 400 body is {error: {code, param, message}}."""
        observed = run_vector_call({}, {"op": "context", "params": [["query", "q"]]})
        assert observed["status"] == 400
        error = observed["body"]["error"]
        assert (error["code"], error["param"]) == ("missing_parameter", "chat_id")
        assert error["message"]

    def test_unknown_op_is_a_job_error(self) -> None:
        """An op that is neither context nor a job answers invalid_job for op."""
        observed = run_vector_call({}, {"op": "dance"})
        assert observed["result"]["error"]["param"] == "op"

    def test_sequence_pairs(self) -> None:
        """Pairs may be lists (as vectors carry them) or tuples."""
        from reference.phase2 import open_store

        with open_store(":memory:") as store:
            assert preview_context(store, [["chat_id", "c"], ["query", "q"]])[0] == 200
