"""The LLM answer cache waits at most LOCK_TIMEOUT_S on a locked file; a key given in the
endpoint URL's query (``?key=``, ``?api_key=``) is a secret like the others; a key echoed
across a line break is redacted whole."""

from __future__ import annotations

import json
import logging
import sqlite3
import time
import urllib.parse
import warnings

import pytest
from llm_server import FakeLLMServer, Reply

from privlab import io as privlab_io
from privlab.encoders import cache as embedding_cache
from privlab.llm import CACHE_RETRY_S, LLMClient, LLMError, redact_secrets

KEY = "sk-query-" + "Ab9" * 10 + "/p+q=="
ASK = [{"role": "user", "content": "hello"}]


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("PRIVLAB_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    return tmp_path / "cache"


def test_a_locked_answer_cache_is_passed_by_after_the_lock_timeout(cache, monkeypatch):
    monkeypatch.setattr(privlab_io, "LOCK_TIMEOUT_S", 0.4)
    with FakeLLMServer(lambda request: f"answer {len(request['messages'])}") as server:
        client = LLMClient(server.base_url, "fake", deadline=20)
        assert client.chat(ASK) == "answer 1"  # creates and fills the cache
        holder = sqlite3.connect(cache / "llm.sqlite")
        holder.execute("BEGIN EXCLUSIVE")
        try:
            start = time.monotonic()
            with pytest.warns(RuntimeWarning, match=r"llm\.sqlite cannot be used \(database is "
                                                    r"locked\); running without it .*another "
                                                    r"process holds it"):
                assert client.chat(ASK + ASK) == "answer 2"
            took = time.monotonic() - start
            # one wait on the lock (reading), none again for storing the answer
            assert 0.4 <= took < 0.4 + 1.5
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                start = time.monotonic()
                assert client.chat(ASK + ASK + ASK) == "answer 3"
                assert time.monotonic() - start < 0.4  # skipped for CACHE_RETRY_S, no wait
        finally:
            holder.close()
        assert len(server.requests) == 3
    assert CACHE_RETRY_S == 60.0
    # once the lock is gone, a new client uses the cache again
    with FakeLLMServer(lambda request: "fresh") as server:
        again = LLMClient(server.base_url, "fake")
        assert again.chat([{"role": "user", "content": "x"}]) == "fresh"
        assert again.chat([{"role": "user", "content": "x"}]) == "fresh"
        assert len(server.requests) == 1


def test_the_answer_cache_waits_the_embedding_cache_lock_timeout():
    assert embedding_cache.LOCK_TIMEOUT_S == 5.0
    import inspect

    source = inspect.getsource(LLMClient._cache_transaction)
    assert "timeout=LOCK_TIMEOUT_S" in source and "timeout=60" not in source


@pytest.mark.parametrize("name", ["key", "api_key", "API-KEY", "access_token"])
def test_a_key_in_the_url_query_is_sent_but_never_shown(cache, name, caplog):
    quoted = urllib.parse.quote(KEY, safe="")

    def responder(request):
        if "again" in json.dumps(request.get("messages")):
            return Reply(401, {"error": f"bad key in {request['_path']} ({KEY})"})
        return f"you called {request['_path']}"

    caplog.set_level(logging.DEBUG)
    with FakeLLMServer(responder) as server:
        client = LLMClient(f"{server.base_url}?{name}={quoted}&model_hint=x", "fake",
                           max_retries=0)
        assert KEY not in client.base_url and "?" not in client.base_url
        assert KEY not in repr(client) and quoted not in repr(client)
        with pytest.warns(RuntimeWarning, match="holds a secret"):
            answer = client.chat(ASK)
        sent = server.requests[0]["_path"]
        assert sent == f"/v1/chat/completions?{name}={quoted}&model_hint=x"  # sent as given
        # every query value is a secret; a short one is redacted where it shows as name=value
        assert answer == f"you called /v1/chat/completions?{name}=[redacted]&model_hint=x"
        with pytest.raises(LLMError) as refused:
            client.chat([{"role": "user", "content": "again"}])
    message = str(refused.value)
    assert "HTTP 401" in message and KEY not in message and quoted not in message
    assert "model_hint=[redacted]" in message and message.count("[redacted]") == 3
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert "chat/completions" in logged  # httpx logged the request ...
    assert KEY not in logged and quoted not in logged and "Ab9Ab9Ab9" not in logged  # ... without the key
    stored = (cache / "llm.sqlite").read_bytes() if (cache / "llm.sqlite").exists() else b""
    assert b"Ab9Ab9Ab9" not in stored and b"you called" not in stored  # never cached


def test_every_query_value_is_a_secret_whatever_its_name(cache):
    """An api-version is no key, but a value of the endpoint's query is sent as given and
    never shown: privlab cannot tell ?api-version= from ?code= by its name."""
    with FakeLLMServer(lambda request: f"path {request['_path']}") as server:
        client = LLMClient(f"{server.base_url}?api-version=2024-02-01", "fake")
        with pytest.warns(RuntimeWarning, match="holds a secret"):
            assert client.chat(ASK) == "path /v1/chat/completions?api-version=[redacted]"
        assert server.requests[0]["_path"] == "/v1/chat/completions?api-version=2024-02-01"


@pytest.mark.parametrize("joint", ["\n", "\r\n", "\n    ", "\\n", "\\r\\n"])
def test_a_key_split_by_a_line_break_is_redacted_whole(joint):
    text = f'{{"error": "invalid key {KEY[:20]}{joint}{KEY[20:]} given"}}'
    clean = redact_secrets(text, [KEY])
    assert clean == '{"error": "invalid key [redacted] given"}'
    # ordinary line breaks elsewhere stay
    assert redact_secrets("a\nb\\nc", [KEY]) == "a\nb\\nc"
