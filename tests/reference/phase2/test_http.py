"""The preview endpoint over real HTTP: ``python -m reference.phase2 serve`` on 127.0.0.1,
talked to with httpx (P2-API-01, P2-API-02, P2-API-10, P2-INT-15, P2-INT-20).

The server runs in a subprocess on a free port (``tests/phase2_service.py``), on a SQLite file
and on PostgreSQL. Fixtures are loaded with the ``load`` command a user would name for the http
adapter (and, for the whole corpus, through the same Store API that command uses), states read
back the same way. The query strings are the harness's (``conformance.phase2.encode_params``).
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from phase2_postgres import fresh_schema
from phase2_service import serve

from conformance.phase2 import compare, encode_params
from reference.phase2 import open_store
from tools.generate.phase2.build import read_corpus

httpx = pytest.importorskip("httpx", reason="httpx (test dependency group) is not installed")
pytest.importorskip("starlette", reason="the phase2 extra (starlette) is not installed")
pytest.importorskip("uvicorn", reason="the phase2 extra (uvicorn) is not installed")

ROOT = Path(__file__).resolve().parents[3]
CONTEXT_VECTORS = [v for v in read_corpus() if v["input"]["call"]["op"] == "context"]
PATH = "/v1/memory/context"
FIXTURE = {
    "inbox_items": [
        {
            "id": 1,
            "user_id": "u1",
            "chat_id": "c1",
            "text": "renew my passport",
            "created_at": "2024-05-01T10:00:00Z",
        }
    ],
    "entities": [
        {
            "id": 1,
            "user_id": "u1",
            "kind": "task",
            "title": "Passport",
            "updated_at": "2024-05-01T10:00:00Z",
        }
    ],
}


def _cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "reference.phase2", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        check=False,
    )


@pytest.fixture(scope="module")
def sqlite_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """A server on a SQLite file: (database URL, base URL)."""
    db = f"sqlite:///{tmp_path_factory.mktemp('http') / 'p2.db'}"
    with serve(db) as base:
        yield db, base


class TestEndpoint:
    """The endpoint's contract over HTTP."""

    def test_context(self, sqlite_server: tuple[str, str], tmp_path: Path) -> None:
        """The fixture loaded with the load command is what the endpoint assembles."""
        db, base = sqlite_server
        (tmp_path / "f.json").write_text(json.dumps(FIXTURE))
        assert _cli("load", "--db", db, str(tmp_path / "f.json")).returncode == 0
        response = httpx.get(f"{base}{PATH}?chat_id=c1&user_id=u1&query=passport&max_tokens=40")
        assert response.status_code == 200
        assert response.headers["content-type"] == "application/json"
        body = response.json()
        assert body["budget"] == {"requested": 40, "applied": 40, "estimated_used": 30}
        assert body["sources"] == {"hot_turns": 1, "summaries": 0, "entities": 1}
        assert [b["layer"] for b in body["context"]] == ["policy", "hot_turn", "entity", "query"]

    @pytest.mark.parametrize(
        ("query", "code", "param"),
        [
            ("query=q", "missing_parameter", "chat_id"),
            ("chat_id=c1", "missing_parameter", "query"),
            ("chat_id=c1&query=%20%20", "invalid_parameter", "query"),
            ("chat_id=c1&query=q&max_tokens=-1", "invalid_parameter", "max_tokens"),
            ("chat_id=c1&query=q&max_tokens=%2B5", "invalid_parameter", "max_tokens"),
            ("chat_id=c1&query=q&max_tokens=", "invalid_parameter", "max_tokens"),
            ("chat_id=c1&chat_id=c1&query=q", "invalid_parameter", "chat_id"),
            ("chat_id=c1&query=q&user_id=", "invalid_parameter", "user_id"),
        ],
    )
    def test_bad_parameters(
        self, sqlite_server: tuple[str, str], query: str, code: str, param: str
    ) -> None:
        """Bad parameters answer 400 with {error: {code, param, message}} (P2-INT-15)."""
        response = httpx.get(f"{sqlite_server[1]}{PATH}?{query}")
        assert response.status_code == 400
        error = response.json()["error"]
        assert (error["code"], error["param"]) == (code, param)
        assert isinstance(error["message"], str)

    @pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH"])
    def test_method_not_allowed(self, sqlite_server: tuple[str, str], method: str) -> None:
        """P2-API-02: only GET (and HEAD); others answer 405 method_not_allowed."""
        response = httpx.request(method, f"{sqlite_server[1]}{PATH}?chat_id=c1&query=q")
        assert response.status_code == 405
        assert response.json()["error"] == {
            "code": "method_not_allowed",
            "param": None,
            "message": f"{method} is not allowed; use GET",
        }
        assert response.headers["allow"] == "GET, HEAD"

    def test_no_writes(self, sqlite_server: tuple[str, str], tmp_path: Path) -> None:
        """P2-API-10: calls, good and bad, change no row and not a byte of the database file."""
        db, base = sqlite_server
        (tmp_path / "f.json").write_text(json.dumps(FIXTURE))
        assert _cli("load", "--db", db, str(tmp_path / "f.json")).returncode == 0
        path = Path(db.removeprefix("sqlite://"))
        before_bytes, before_state = path.read_bytes(), _cli("dump", "--db", db).stdout
        for query in ("chat_id=c1&query=passport", "chat_id=c1&query=q&max_tokens=1", "query=q"):
            httpx.get(f"{base}{PATH}?{query}")
        httpx.post(f"{base}{PATH}?chat_id=c1&query=q")
        assert _cli("dump", "--db", db).stdout == before_state
        assert json.loads(before_state)["inbox_items"] == FIXTURE["inbox_items"]
        assert path.read_bytes() == before_bytes

    def test_percent_encoding(self, sqlite_server: tuple[str, str]) -> None:
        """Values travel percent-encoded as UTF-8; '+' and '&' inside a value stay themselves."""
        query = "a+b & c 😀"
        response = httpx.get(
            f"{sqlite_server[1]}{PATH}?{encode_params([['chat_id', 'c9'], ['query', query]])}"
        )
        assert response.json()["context"][-1]["text"] == query


def _run_context_vectors(db: str, base: str, vectors: list[Any]) -> list[str]:
    failures = []
    with httpx.Client(base_url=base, timeout=30) as client:
        for vector in vectors:
            fixture, call = vector["input"]["fixture"], vector["input"]["call"]
            with open_store(db) as store:
                store.load(fixture)
            response = client.get(
                f"{PATH}?{encode_params(call['params'])}", headers={"Accept": "application/json"}
            )
            with open_store(db) as store:
                state = store.dump()
            observed: dict[str, Any] = {
                "status": response.status_code,
                "body": response.json(),
                "state": state,
            }
            differences = compare(fixture, call, vector["expect"], observed)
            if differences:
                failures.append(f"{vector['id']}: {differences[0]}")
    return failures


@pytest.mark.slow  # every context vector over real HTTP: about 15 s
class TestVectorsOverHttp:
    """Every context vector of the corpus through the live endpoint."""

    def test_context_vectors(self, sqlite_server: tuple[str, str]) -> None:
        """On a SQLite file: load, GET, dump, compare, for each context vector."""
        assert len(CONTEXT_VECTORS) > 200
        assert _run_context_vectors(*sqlite_server, CONTEXT_VECTORS) == []

    def test_context_vectors_postgresql(self, postgres_url: str) -> None:
        """The same on PostgreSQL (a fresh schema): every hand vector and every third generated
        one (the whole corpus runs on PostgreSQL in-process, test_vectors.py)."""
        sample = [v for i, v in enumerate(CONTEXT_VECTORS) if "-h" in v["id"] or i % 3 == 0]
        db = fresh_schema(postgres_url)
        with serve(db) as base:
            assert _run_context_vectors(db, base, sample) == []

    def test_load_command_on_postgresql(self, postgres_url: str, tmp_path: Path) -> None:
        """The load and dump commands work on a postgresql:// URL too."""
        db = fresh_schema(postgres_url)
        (tmp_path / "f.json").write_text(json.dumps(FIXTURE))
        assert _cli("load", "--db", db, str(tmp_path / "f.json")).returncode == 0
        assert json.loads(_cli("dump", "--db", db).stdout)["entities"] == FIXTURE["entities"]
