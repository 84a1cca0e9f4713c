"""Claims to speak an older protocol version in the handshake."""

from _fake_protocol import serve

serve(protocol="phase6-adapter/0")
