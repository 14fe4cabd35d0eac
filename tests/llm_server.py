"""A scripted OpenAI-compatible server on loopback, for testing every LLM path offline.

    with FakeLLMServer(lambda request: "answer text") as server:
        client = LLMClient(base_url=server.base_url, model="fake")

The responder receives the parsed JSON request (with its path under ``"_path"`` and its
headers under ``"_headers"``) and returns either a string (the assistant's content), a
dict (a full JSON body), or a ``Reply``: a status and body, sent after ``delay`` seconds,
one byte every ``trickle`` seconds, or not at all when ``drop`` (the connection is
closed without a reply); with its own ``reason`` phrase, extra ``headers`` and
``content_type``; or, with ``chunks``, a body of those byte strings without a length,
until the client hangs up (``server.sent`` counts the bytes written).
``server.requests`` records every request in order.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable


@dataclass
class Reply:
    status: int = 200
    body: Any = None
    delay: float = 0.0
    trickle: float = 0.0
    drop: bool = False
    reason: str | None = None
    headers: tuple = ()
    content_type: str = "application/json"
    chunks: Any = None


def chat_body(content: str) -> dict:
    return {"id": "x", "object": "chat.completion", "model": "fake",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                         "finish_reason": "stop"}]}


class FakeLLMServer:
    def __init__(self, responder: Callable[[dict], Any]):
        self.responder = responder
        self.requests: list[dict] = []
        self.sent = 0
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # keep test output clean
                pass

            def do_POST(self):
                length = int(self.headers.get("Content-Length", 0))
                raw = self.rfile.read(length)
                ctype = self.headers.get("Content-Type", "")
                request = json.loads(raw) if "json" in ctype else {"_raw": raw, "_path": self.path}
                request["_path"] = self.path
                request["_headers"] = dict(self.headers)
                outer.requests.append(request)
                reply = outer.responder(request)
                if isinstance(reply, str):
                    reply = Reply(200, chat_body(reply))
                elif isinstance(reply, dict):
                    reply = Reply(200, reply)
                if reply.delay:
                    time.sleep(reply.delay)
                if reply.drop:
                    self.close_connection = True
                    return
                payload = reply.body if isinstance(reply.body, (bytes, str)) else json.dumps(reply.body)
                payload = payload.encode() if isinstance(payload, str) else payload
                try:
                    self.send_response(reply.status, reply.reason)
                    self.send_header("Content-Type", reply.content_type)
                    for name, value in reply.headers:
                        self.send_header(name, value)
                    if reply.chunks is not None:  # no length: the body ends when we stop
                        self.end_headers()
                        for chunk in reply.chunks:
                            self.wfile.write(chunk)
                            outer.sent += len(chunk)
                        return
                    if not any(name.lower() == "content-length" for name, _ in reply.headers):
                        self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    if reply.trickle:
                        for index in range(len(payload)):
                            self.wfile.write(payload[index:index + 1])
                            self.wfile.flush()
                            time.sleep(reply.trickle)
                    else:
                        self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):
                    pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/v1"

    def __enter__(self) -> "FakeLLMServer":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()
