"""Breaks S6-DET-03 / S6-SEC-04: every request connects to itself over loopback TCP, which
fails where there is no network."""

import socket
from typing import Any

from probe_support import serve


def after(request: Any, result: Any) -> Any:
    """Use the network (a loopback TCP connection), then answer."""
    with (
        socket.create_server(("127.0.0.1", 0)) as server,
        socket.create_connection(server.getsockname(), timeout=5),
    ):
        pass
    return result


serve(after=after)
