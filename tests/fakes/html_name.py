"""Names itself with HTML (a ``<script>``, an ``<img onerror>``, an image that loads) in every
field of its handshake and answers correctly: report.md must show that text, never render it."""

import _fake_protocol
from _fake_protocol import serve

SCRIPT = "<script>alert(1)</script>"
IMG = '<img src=x onerror="alert(2)">'
_fake_protocol.IMPLEMENTATION = {
    **_fake_protocol.IMPLEMENTATION,
    "name": f"fake{SCRIPT}",
    "version": f"1{IMG}",
    "language": "py![t](https://tracker.example/p.png)",
    "homepage": f"javascript:alert(3)//{SCRIPT}",
}

serve()
