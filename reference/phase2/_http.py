"""The preview endpoint over real HTTP: Starlette on uvicorn (the ``phase2`` extra).

    python -m reference.phase2 serve --db URL [--host 127.0.0.1] [--port 8080]

``GET /v1/memory/context`` answers :func:`preview_context` on a fresh read-only connection per
request (P2-API-01, P2-API-10): SQLite's ``query_only`` or PostgreSQL's read-only transactions,
so the endpoint cannot write even by mistake. Other methods answer 405 with a structured error
(P2-INT-15). The migration is applied once, at start.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from reference.phase2._config import Config, config_from_env
from reference.phase2._endpoint import PATH, method_not_allowed, preview_context
from reference.phase2._errors import StoreError
from reference.phase2._store import open_store

if TYPE_CHECKING:
    from starlette.applications import Starlette

__all__ = ["create_app", "serve_http"]

_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]


def _starlette() -> Any:
    try:
        import starlette  # noqa: F401
    except ImportError as exc:
        raise StoreError(
            "serve needs Starlette and uvicorn: pip install 'adamos-phase6-conformance[phase2]'"
        ) from exc


def create_app(url: str, config: Config) -> Starlette:
    """The ASGI application serving the preview endpoint on the database at ``url``."""
    _starlette()
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    def context(request: Request) -> JSONResponse:  # sync: Starlette runs it in a thread pool
        if request.method not in ("GET", "HEAD"):
            status, body = method_not_allowed(request.method)
            return JSONResponse(body, status_code=status, headers={"Allow": "GET, HEAD"})
        with open_store(url, migrate=False, read_only=True) as store:
            status, body = preview_context(store, request.query_params.multi_items(), config=config)
        return JSONResponse(body, status_code=status)

    with open_store(url):  # apply the migration once, before serving
        pass
    return Starlette(routes=[Route(PATH, context, methods=_METHODS)])


def serve_http(url: str, host: str, port: int) -> int:
    """Serve until interrupted; configuration from the environment (the four settings)."""
    config = config_from_env(os.environ)
    app = create_app(url, config)
    import uvicorn

    uvicorn.run(app, host=host, port=port, log_level="warning", access_log=False)
    return 0
