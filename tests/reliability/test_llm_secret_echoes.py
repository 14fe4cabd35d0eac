"""A server that echoes the key everywhere it can: nothing privlab shows or logs holds it.

The key comes back in the reason phrase, in headers, in bodies of several charsets and
escapings, and in the URL of a query credential of any name; every logger runs at DEBUG.
"""

from __future__ import annotations

import html
import logging
import urllib.parse

import pytest
from llm_server import FakeLLMServer, Reply

from privlab.llm import LLMClient, LLMError
from privlab.llm import logs as llm_logs

KEY = "sk-proj-Echo/0123456789+abcdefGHIJklmnop"
ASK = [{"role": "user", "content": "x"}]


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("PRIVLAB_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    return tmp_path / "cache"


def _fragments(secret: str, size: int = 10) -> set[str]:
    return {secret[i:i + size] for i in range(len(secret) - size + 1)}


def _leaks(text: str, *secrets: str) -> list[str]:
    return sorted(f for secret in secrets for f in _fragments(secret) if f in text)


def test_a_key_echoed_in_reason_headers_and_body_is_in_no_log_record(cache, every_log):
    reply = Reply(401, f'{{"error": "invalid key {KEY}"}}'.encode(),
                  reason=f"Invalid key {KEY}",
                  headers=(("WWW-Authenticate", f'Bearer error="invalid_token" key="{KEY}"'),
                           ("Set-Cookie", f"session={KEY}; Path=/"),
                           ("X-Echo-Key", KEY)))
    with FakeLLMServer(lambda request: reply) as server:
        client = LLMClient(server.base_url, "fake", max_retries=0, cache=False)
        with pytest.raises(LLMError) as err:
            client.chat(ASK)
    # a record that holds the secret in its exception is redacted too
    logging.getLogger("someone.else").exception("failed", exc_info=err.value.__class__(
        f"echo {KEY}"))
    logged = every_log.getvalue()
    assert "HTTP Request: POST" in logged and "Invalid key [redacted]" in logged
    assert "receive_response_headers" in logged and "X-Echo-Key" in logged  # DEBUG reached
    assert "someone.else ERROR failed" in logged and "echo [redacted]" in logged
    assert not _leaks(logged, KEY)
    assert not _leaks(str(err.value), KEY) and "HTTP 401" in str(err.value)


def test_a_record_that_cannot_be_formatted_is_redacted_by_its_parts(cache, every_log):
    llm_logs.remember([KEY])
    logging.getLogger("x").warning("%d items from " + KEY, "not a number")
    assert KEY not in every_log.getvalue()


@pytest.mark.parametrize("name", ["subscription-key", "code", "sv"])
def test_a_query_credential_of_any_name_is_never_shown(cache, every_log, name):
    secret = "Qk9" + KEY[-20:]
    quoted = urllib.parse.quote(secret, safe="")

    def responder(request):
        return Reply(401, f'{{"error": "denied for {request["_path"]}"}}'.encode(),
                     reason=f"Denied {request['_path']}")

    with FakeLLMServer(responder) as server:
        client = LLMClient(f"{server.base_url}?{name}={quoted}", "fake", max_retries=0,
                           cache=False)
        with pytest.raises(LLMError) as err:
            client.chat(ASK)
        assert server.requests[0]["_path"].endswith(f"?{name}={quoted}")  # sent as given
    message = str(err.value)
    assert f"{name}=[redacted]" in message
    assert not _leaks(message, secret, quoted)
    assert not _leaks(every_log.getvalue(), secret, quoted)
    assert not _leaks(repr(client), secret, quoted)


ECHO_BODIES = {
    "utf-16 declared": (f"invalid key {KEY}".encode("utf-16"), "text/plain; charset=utf-16"),
    "utf-16-le declared": (f"invalid key {KEY}".encode("utf-16-le"),
                           "application/json; charset=UTF-16LE"),
    "utf-16, charset not declared": (f"invalid key {KEY}".encode("utf-16"), "text/plain"),
    "utf-32 declared": (f"invalid key {KEY}".encode("utf-32"), "text/plain; charset=utf-32"),
    "HTML page, &#x2F; and &#43;": (
        ("<html><body>invalid key " + html.escape(KEY).replace("/", "&#x2F;").replace(
            "+", "&#43;") + "</body></html>").encode(), "text/html"),
    "HTML, named entities": ((f"key {KEY}".replace("/", "&sol;").replace("+", "&plus;")
                              ).encode(), "text/html; charset=utf-8"),
    "hex, lower case": (f"key hex {KEY.encode().hex()}".encode(), "text/plain"),
    "hex, upper case": (f"key hex {KEY.encode().hex().upper()}".encode(), "text/plain"),
    "bytes repr of utf-16": (repr(KEY.encode("utf-16-le")).encode(), "text/plain"),
}


@pytest.mark.parametrize("status", [401, 503])
@pytest.mark.parametrize("form", list(ECHO_BODIES))
def test_a_body_echo_in_any_charset_or_escaping_is_redacted(cache, form, status):
    body, content_type = ECHO_BODIES[form]
    with FakeLLMServer(lambda request: Reply(status, body, content_type=content_type)) as server:
        client = LLMClient(server.base_url, "fake", max_retries=0, backoff=0, cache=False)
        with pytest.raises(LLMError) as err:
            client.chat(ASK)
    message = str(err.value)
    assert f"HTTP {status}" in message and "[redacted]" in message
    hexed = KEY.encode().hex()
    assert not _leaks(message, KEY, hexed, hexed.upper(), html.escape(KEY))
    if form.startswith("utf"):  # decoded by its charset, so read as the text it is
        assert "invalid key [redacted]" in message and "\x00" not in message


def test_an_endless_answer_is_read_only_to_max_body_bytes(cache):
    chunk = b"x" * 65536
    endless = (chunk for _ in range(16_384))  # up to 1 GiB, unless the client hangs up
    with FakeLLMServer(lambda request: Reply(200, chunks=endless)) as server:
        client = LLMClient(server.base_url, "fake", max_retries=2, cache=False,
                           max_body_bytes=2_000_000)
        with pytest.raises(LLMError, match=r"more than 2000000 bytes.*max_body_bytes=2000000"
                                           r".*stopped reading") as err:
            client.chat(ASK)
        assert len(server.requests) == 1  # not retried: the same answer would come again
    assert "Raise max_body_bytes=" in str(err.value)
    assert server.sent < 200 * 2**20  # the server was cut off long before its gigabyte


def test_a_stated_size_past_the_limit_is_refused_before_reading(cache):
    reply = Reply(200, b"{}", headers=(("Content-Length", str(10**9)),))
    with FakeLLMServer(lambda request: reply) as server:
        client = LLMClient(server.base_url, "fake", max_retries=0, cache=False,
                           max_body_bytes=1000)
        with pytest.raises(LLMError, match=r"states 1000000000 bytes, past max_body_bytes=1000"):
            client.chat(ASK)


def test_max_body_bytes_is_checked():
    with pytest.raises(ValueError, match=r"'max_body_bytes' parameter of LLMClient"):
        LLMClient("http://127.0.0.1:9/v1", "m", max_body_bytes=0)
