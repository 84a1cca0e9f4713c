"""Answers every vector correctly to a last-wins reader only: each reply names ``result``
twice (a wrong package first, the right one last), and the package inside repeats
``package_hash`` ("0000" first). A first-wins or strict reader reads another answer."""

import json
import sys
from typing import Any

from _fake_protocol import lookup, serve


def answer(message: dict[str, Any]) -> None:
    """Write the reply by hand: json.dumps cannot repeat a name."""
    reply = lookup(message)
    if "result" not in reply:
        sys.stdout.write(json.dumps(reply) + "\n")
    else:
        right = json.dumps(reply["result"])
        package = reply["result"].get("package")
        if package is not None:
            body = json.dumps(package)[1:]
            right = json.dumps(reply["result"]).replace(
                json.dumps(package), '{"package_hash": "0000", ' + body, 1
            )
        wrong = json.dumps({"package": {"selection": {"selected": []}}})
        sys.stdout.write(f'{{"seq": {message["seq"]}, "result": {wrong}, "result": {right}}}\n')
    sys.stdout.flush()


serve(answer)
