"""The OpenAI-compatible client against a scripted server on loopback."""

from __future__ import annotations

import json
import sqlite3

import pytest
from llm_server import FakeLLMServer, Reply

from privlab.llm import LLMClient, LLMError, LLMUnavailableError, parse_json_answer


def test_chat_returns_content_and_caches_it(monkeypatch, tmp_path):
    monkeypatch.setenv("PRIVLAB_CACHE", str(tmp_path))
    monkeypatch.setenv("OPENAI_API_KEY", "sk-secret-value")
    with FakeLLMServer(lambda request: "hello") as server:
        client = LLMClient(server.base_url, "fake", backoff=0)
        assert client.chat([{"role": "user", "content": "hi"}]) == "hello"
        assert client.chat([{"role": "user", "content": "hi"}]) == "hello"
        assert len(server.requests) == 1  # the second answer came from the cache
    stored = sqlite3.connect(tmp_path / "llm.sqlite").execute("SELECT * FROM answers").fetchall()
    assert "sk-secret-value" not in json.dumps(stored)


def test_server_errors_are_retried_then_succeed(monkeypatch, tmp_path):
    monkeypatch.setenv("PRIVLAB_CACHE", str(tmp_path))
    replies = iter([Reply(503, {"error": "busy"}), Reply(429, {"error": "slow down"}), "ok"])
    with FakeLLMServer(lambda request: next(replies)) as server:
        client = LLMClient(server.base_url, "fake", max_retries=2, backoff=0, cache=False)
        assert client.chat([{"role": "user", "content": "x"}]) == "ok"
        assert len(server.requests) == 3


def test_slow_answers_time_out_and_fail_clearly(monkeypatch, tmp_path):
    monkeypatch.setenv("PRIVLAB_CACHE", str(tmp_path))
    with FakeLLMServer(lambda request: Reply(200, {"choices": []}, delay=1.0)) as server:
        client = LLMClient(server.base_url, "fake", timeout=0.2, max_retries=1, backoff=0,
                           cache=False)
        with pytest.raises(LLMError, match="after 2 attempts"):
            client.chat([{"role": "user", "content": "x"}])


def test_malformed_json_is_retried_and_only_valid_answers_are_cached(monkeypatch, tmp_path):
    monkeypatch.setenv("PRIVLAB_CACHE", str(tmp_path))
    replies = iter(["not json", '```json\n{"labels": [1, 0]}\n```'])
    with FakeLLMServer(lambda request: next(replies)) as server:
        client = LLMClient(server.base_url, "fake", max_retries=1, backoff=0)
        value = client.chat_json([{"role": "user", "content": "x"}])
        assert value == {"labels": [1, 0]}
        assert client.chat_json([{"role": "user", "content": "x"}]) == value
        assert len(server.requests) == 2


def test_always_malformed_json_raises_after_the_retries(monkeypatch, tmp_path):
    monkeypatch.setenv("PRIVLAB_CACHE", str(tmp_path))
    with FakeLLMServer(lambda request: "still not json") as server:
        client = LLMClient(server.base_url, "fake", max_retries=2, backoff=0)
        with pytest.raises(LLMError, match="valid JSON after 3 attempts"):
            client.chat_json([{"role": "user", "content": "x"}])
    assert sqlite3.connect(tmp_path / "llm.sqlite").execute(
        "SELECT COUNT(*) FROM answers").fetchone()[0] == 0


def test_client_errors_are_not_retried(monkeypatch, tmp_path):
    monkeypatch.setenv("PRIVLAB_CACHE", str(tmp_path))
    with FakeLLMServer(lambda request: Reply(401, {"error": "bad key"})) as server:
        client = LLMClient(server.base_url, "fake", backoff=0, cache=False)
        with pytest.raises(LLMError, match="HTTP 401"):
            client.chat([{"role": "user", "content": "x"}])
        assert len(server.requests) == 1


def test_missing_endpoint_and_unreachable_server_say_what_to_do(monkeypatch):
    monkeypatch.delenv("PRIVLAB_LLM_BASE_URL", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    with pytest.raises(LLMUnavailableError, match="PRIVLAB_LLM_BASE_URL"):
        LLMClient(model="m")
    client = LLMClient("http://127.0.0.1:9/v1", "m", max_retries=0, cache=False)
    with pytest.raises(LLMUnavailableError, match="Cannot reach"):
        client.chat([{"role": "user", "content": "x"}])


def test_parse_json_answer_refuses_prose():
    with pytest.raises(ValueError, match="not valid JSON"):
        parse_json_answer("I think the answer is yes.")


def test_image_edits_share_the_retries_and_report_a_bad_image(monkeypatch, tmp_path):
    import base64
    import io

    import numpy as np
    from PIL import Image

    monkeypatch.setenv("PRIVLAB_CACHE", str(tmp_path))
    png = io.BytesIO()
    Image.new("RGB", (3, 2), (0, 0, 0)).save(png, format="PNG")
    good = {"data": [{"b64_json": base64.b64encode(png.getvalue()).decode()}]}
    replies = iter([Reply(503, {"error": "busy"}), good, {"data": [{"b64_json": "bm90IGFu"}]}])
    with FakeLLMServer(lambda request: next(replies)) as server:
        client = LLMClient(server.base_url, "editor", backoff=0, cache=False)
        edited = client.edit_image(np.full((2, 3, 3), 200, np.uint8), "remove the face")
        assert edited.size == (3, 2) and np.asarray(edited).max() == 0
        assert len(server.requests) == 2 and b"remove the face" in server.requests[0]["_raw"]
        with pytest.raises(LLMError, match="without usable b64_json image data"):
            client.edit_image(np.zeros((2, 3, 3), np.uint8), "x")
