"""Answers in forms a server may send: parts, bytes that are not text, a false encoding."""

from __future__ import annotations

import json
import warnings

import pytest
from llm_server import FakeLLMServer, Reply, chat_body

from privlab.llm import LLMClient, LLMError

ASK = [{"role": "user", "content": "x"}]


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("PRIVLAB_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    return tmp_path / "cache"


def test_content_given_as_text_parts_is_their_text(cache):
    body = chat_body("")
    body["choices"][0]["message"]["content"] = [{"type": "text", "text": "Hello, "},
                                                {"type": "text", "text": "world"}]
    with FakeLLMServer(lambda request: body) as server:
        assert LLMClient(server.base_url, "fake").chat(ASK) == "Hello, world"


def test_content_that_is_no_text_is_named_not_called_empty(cache):
    body = chat_body("")
    body["choices"][0]["message"]["content"] = [{"type": "image_url", "image_url": {}}]
    with FakeLLMServer(lambda request: body) as server:
        with pytest.raises(LLMError, match=r"without text content \(choices\[0\]\.message"
                                           r"\.content is neither a string nor"):
            LLMClient(server.base_url, "fake", max_retries=0).chat(ASK)


def test_an_answer_with_invalid_utf8_warns_and_is_not_cached(cache):
    raw = json.dumps(chat_body("café"), ensure_ascii=False).encode().replace("café".encode(), b"caf\xe9")
    with FakeLLMServer(lambda request: Reply(200, raw)) as server:
        client = LLMClient(server.base_url, "fake")
        with pytest.warns(RuntimeWarning, match=r"not valid text .* replaced by U\+FFFD and "
                                                r"it is not cached"):
            assert client.chat(ASK) == "caf\ufffd"
        with pytest.warns(RuntimeWarning, match="not cached"):
            client.chat(ASK)
        assert len(server.requests) == 2  # asked again: the repaired answer was not stored


def test_a_declared_latin1_answer_is_read_as_latin1_without_a_warning(cache):
    raw = json.dumps(chat_body("café"), ensure_ascii=False).encode("latin-1")
    with FakeLLMServer(lambda request: Reply(200, raw,
                                             content_type="application/json; charset=latin-1")
                       ) as server:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert LLMClient(server.base_url, "fake").chat(ASK) == "café"


def test_a_gzip_encoding_over_plain_bytes_is_a_named_failure_not_a_traceback(cache):
    reply = Reply(200, b"not gzip at all", headers=(("Content-Encoding", "gzip"),))
    with FakeLLMServer(lambda request: reply) as server:
        with pytest.raises(LLMError, match=r"after 2 attempts: a body that cannot be decoded "
                                           r"as its Content-Encoding says"):
            LLMClient(server.base_url, "fake", max_retries=1, backoff=0).chat(ASK)
