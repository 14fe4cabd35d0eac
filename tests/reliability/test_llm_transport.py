"""The LLM client sends through the official ``openai`` client, not hand-written HTTP.

Issue 42: no module of privlab's LLM path imports an HTTP library; ``openai`` builds and
sends each request, and privlab keeps only the bounds it reads the answer within.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from llm_server import FakeLLMServer, Reply
from privlab.llm import LLMClient, LLMError

LLM_PACKAGE = Path(__file__).resolve().parents[2] / "privlab" / "llm"
HTTP_LIBRARIES = {"httpx", "httpx2", "httpcore", "httpcore2", "requests", "urllib3", "aiohttp",
                  "http", "urllib.request"}


def _imported(tree: ast.AST) -> set[str]:
    """Every module an import statement of ``tree`` names, also inside functions."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_no_module_of_the_llm_path_imports_an_http_library():
    modules = sorted(LLM_PACKAGE.glob("*.py"))
    assert len(modules) >= 8  # the package is where the test looks
    offending = {}
    for path in modules:
        imported = _imported(ast.parse(path.read_text(encoding="utf-8")))
        hits = {name for name in imported
                if name in HTTP_LIBRARIES or name.split(".")[0] in HTTP_LIBRARIES - {"http"}}
        if hits:
            offending[path.name] = sorted(hits)
    assert not offending
    transport = _imported(ast.parse((LLM_PACKAGE / "transport.py").read_text("utf-8")))
    assert "openai" in transport


def test_the_checker_sees_an_import_inside_a_function():
    source = "def f():\n    import httpx\n    from httpx2 import Client\n"
    assert {"httpx", "httpx2"} <= _imported(ast.parse(source))


def test_a_request_goes_out_through_the_openai_client(tmp_path, monkeypatch):
    monkeypatch.setenv("PRIVLAB_CACHE", str(tmp_path))
    monkeypatch.setenv("OPENAI_API_KEY", "sk-transport-test-0001")
    with FakeLLMServer(lambda request: "hello") as server:
        answer = LLMClient(server.base_url, "fake", cache=False).chat(
            [{"role": "user", "content": "hi"}])
        headers = {name.lower(): value for name, value in server.requests[0]["_headers"].items()}
    assert answer == "hello" and "openai" in sys.modules
    assert headers["user-agent"].startswith("OpenAI/Python")
    assert headers["authorization"] == "Bearer sk-transport-test-0001"


def test_an_error_body_is_read_within_max_body_bytes(tmp_path, monkeypatch):
    """``openai`` reads an error body whole; privlab's hook reads it first, within the cap."""
    monkeypatch.setenv("PRIVLAB_CACHE", str(tmp_path))
    endless = (b"x" * 65536 for _ in range(10**6))
    with FakeLLMServer(lambda request: Reply(500, chunks=endless)) as server:
        client = LLMClient(server.base_url, "fake", cache=False, max_body_bytes=100_000)
        with pytest.raises(LLMError) as err:
            client.chat([{"role": "user", "content": "hi"}])
        sent = server.sent
    message = str(err.value)
    assert "sent more than 100000 bytes, past max_body_bytes=100000" in message
    assert len(server.requests) == 1  # a body past the cap is not retried
    assert sent < 64 * 2**20  # reading stopped long before the 64 GB the server had
