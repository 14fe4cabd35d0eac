"""Secrets in the LLM client: the API key and a URL's password never show, never cached.

A loopback server echoes the key back in each form servers use (raw, JSON-escaped with
``\\/``, percent-encoded, base64 of the key and of ``user:key``, inside a longer base64
header at each of the three alignments, padded so that the key straddles the point
where the message is cut); answers that repeat the key are neither cached nor returned
whole; keys and URLs that cannot be sent are refused without their value.
"""

from __future__ import annotations

import base64
import json
import sqlite3
import urllib.parse

import pytest
from llm_server import FakeLLMServer, Reply

from privlab.errors import PrivlabValueError
from privlab.llm import LLMClient, LLMError, redact_secrets
from privlab.sanitizers.llm_text import LLMRedactionSanitizer

KEY = "sk-test/0123456789+abcdefGHIJklmn"  # '/' and '+' change under JSON and URL escaping
ASK = [{"role": "user", "content": "x"}]


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("PRIVLAB_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    return tmp_path / "cache"


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


# Each form is a text a server may put in its error body, and the part of it that must
# never show again (as any 12 characters in a row).
ECHOES = {
    "raw": KEY,
    "JSON-escaped": json.dumps(KEY).strip('"').replace("/", "\\/"),
    "JSON-escaped as \\u": "".join(f"\\u{ord(c):04x}" if c in "/+" else c for c in KEY),
    "percent-encoded": urllib.parse.quote(KEY, safe=""),
    "form-encoded": urllib.parse.quote_plus(KEY),
    "base64 of the key": _b64(KEY.encode()),
    "base64 of user:key": _b64(b"user:" + KEY.encode()),
    **{f"inside a longer base64 header, offset {k}":
       _b64(b"Basic-echo " + b"p" * k + b"api:" + KEY.encode() + b"; trailing data")
       for k in range(3)},
    "base64, JSON-escaped": _b64(b"a:" + KEY.encode()).replace("/", "\\/"),
}


def _windows(text: str, size: int = 12) -> set[str]:
    return {text[i:i + size] for i in range(len(text) - size + 1)}


# the key whole, or across the point where a retried (200) or refused (300) body is cut
@pytest.mark.parametrize("status, padding", [(401, 0), (503, 180), (401, 290)])
@pytest.mark.parametrize("form", list(ECHOES))
def test_an_error_body_echoing_the_key_never_shows_it(cache, form, status, padding):
    echoed = ECHOES[form]
    body = "e" * padding + f" key: {echoed} rejected"
    with FakeLLMServer(lambda request: Reply(status, body.encode())) as server:
        client = LLMClient(server.base_url, "fake", max_retries=0, backoff=0, cache=False)
        with pytest.raises(LLMError) as err:
            client.chat(ASK)
        assert server.requests[0]["_headers"]["Authorization"] == f"Bearer {KEY}"
    message = str(err.value)
    assert f"HTTP {status}" in message
    leaked = [w for w in _windows(echoed) | _windows(KEY) if w in message]
    assert not leaked, (form, leaked)
    if padding == 0:  # the rest of the body is kept
        assert "[redacted] rejected" in message


def test_redact_secrets_on_each_form_alone():
    for form, echoed in ECHOES.items():
        text = f"<{echoed}>"
        assert redact_secrets(text, [KEY]) == "<[redacted]>", form
    assert redact_secrets("nothing secret here", [KEY, None, ""]) == "nothing secret here"
    # a server that cuts its echo short: a half of the key or more is still the key's
    assert redact_secrets(f"got {KEY[:20]}...", [KEY]) == "got [redacted]..."
    assert redact_secrets(f"got ...{KEY[-17:]}", [KEY]) == "got ...[redacted]"
    assert redact_secrets(f"got {KEY[:6]}...", [KEY]) == f"got {KEY[:6]}..."  # too short


def test_an_answer_echoing_the_key_is_returned_redacted_and_never_cached(cache):
    replies = [f"the key is {KEY}",
               f'{{"redacted": "{_b64(("u:" + KEY).encode())}"}}',
               "a clean answer"]
    with FakeLLMServer(lambda request: replies[len(server.requests) - 1]) as server:
        client = LLMClient(server.base_url, "fake", backoff=0)
        with pytest.warns(RuntimeWarning, match="holds a secret .*OPENAI_API_KEY.* not cached"):
            assert client.chat(ASK) == "the key is [redacted]"
        with pytest.warns(RuntimeWarning, match="holds a secret"):
            assert client.chat_json(ASK) == {"redacted": "[redacted]"}
        assert client.chat([{"role": "user", "content": "y"}]) == "a clean answer"
    con = sqlite3.connect(cache / "llm.sqlite")
    stored = [answer for (answer,) in con.execute("SELECT answer FROM answers")]
    con.close()
    assert stored == ["a clean answer"]  # only the answer without a secret


def test_a_cached_answer_holding_the_key_is_dropped_and_asked_again(cache):
    with FakeLLMServer(lambda request: "hello") as server:
        client = LLMClient(server.base_url, "fake", backoff=0)
        assert client.chat(ASK) == "hello"
        con = sqlite3.connect(cache / "llm.sqlite")
        with con:  # as an older version would have stored it
            con.execute("UPDATE answers SET answer = ?", (f"leaked {KEY}",))
        con.close()
        with pytest.warns(RuntimeWarning, match="Dropped .* an answer holding a secret") as w:
            assert client.chat(ASK) == "hello"
        assert KEY not in str(w[0].message) and len(server.requests) == 2


def test_a_url_password_is_sent_as_basic_auth_and_shown_nowhere(cache, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY")
    password = "pa/ss:w@rd?#x"
    quoted = urllib.parse.quote(password, safe="")

    def echo(request):
        return Reply(403, {"error": "forbidden", "auth": request["_headers"]["Authorization"],
                           "url": f"http://user:{quoted}@host/v1"})

    with FakeLLMServer(echo) as server:
        url = server.base_url.replace("http://", f"http://user:{quoted}@")
        client = LLMClient(url, "fake", max_retries=0, cache=False)
        with pytest.raises(LLMError) as err:
            client.chat(ASK)
        sent = server.requests[0]["_headers"]["Authorization"]
    assert sent == "Basic " + _b64(f"user:{password}".encode())
    assert client.base_url == server.base_url  # the password is not part of it
    describe = LLMRedactionSanitizer("names", client=client).describe()
    shown = [str(err.value), repr(client), json.dumps(describe)]
    for text in shown:
        assert not [w for w in _windows(password, 6) | _windows(quoted, 6) | _windows(sent)
                    if w in text], text
    assert "HTTP 403" in str(err.value) and describe["endpoint"] == server.base_url


@pytest.mark.parametrize("url", [
    "http://alice:pa/ss@127.0.0.1:8000/v1",   # '/' in the password ends the host early
    "http://alice:12/34@127.0.0.1:8000/v1",   # ... and looks like a port
    "http://alice:pa?ss@127.0.0.1:8000/v1",   # '?' starts a query
    "http://alice:pa#ss@127.0.0.1:8000/v1",   # '#' starts a fragment
    "http://al/ice:hunter2@127.0.0.1:8000/v1",
])
@pytest.mark.parametrize("through", ["parameter", "environment"])
def test_a_url_with_an_unescaped_password_is_refused_without_showing_it(url, through,
                                                                        monkeypatch):
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    if through == "parameter":
        monkeypatch.delenv("PRIVLAB_LLM_BASE_URL", raising=False)
        with pytest.raises(PrivlabValueError, match="'base_url' parameter of LLMClient") as err:
            LLMClient(url, "m")
    else:
        monkeypatch.setenv("PRIVLAB_LLM_BASE_URL", url)
        with pytest.raises(PrivlabValueError,
                           match="environment variable PRIVLAB_LLM_BASE_URL of LLMClient") as err:
            LLMClient(model="m")
    secret = url.split("//")[1].split("@")[0]
    message = str(err.value) + repr(err.value)
    assert "Percent-encode" in message and "not shown" in message
    assert not [w for w in _windows(secret, 4) if w in message]
    assert err.value.__cause__ is None
    assert err.value.__context__ is None or err.value.__suppress_context__


@pytest.mark.parametrize("key, kind", [
    ("sk-clé-0123456789abcdef", "a non-ASCII character at position 5"),
    ("sk-0123456789abcdef\n", "a line break or control character at position 19"),
    ("sk-0123 456789abcdef", "a space at position 7"),
])
def test_a_key_that_cannot_be_sent_is_refused_naming_the_variable_not_the_key(key, kind,
                                                                              monkeypatch,
                                                                              tmp_path):
    monkeypatch.setenv("PRIVLAB_CACHE", str(tmp_path))
    monkeypatch.setenv("MY_LLM_KEY", key)
    with FakeLLMServer(lambda request: "never asked") as server:
        client = LLMClient(server.base_url, "fake", api_key_env="MY_LLM_KEY", cache=False)
        with pytest.raises(PrivlabValueError) as err:
            client.chat(ASK)
        assert server.requests == []
    message = str(err.value) + repr(err.value)
    assert "environment variable MY_LLM_KEY" in message and kind in message
    assert "not shown" in message and "Set MY_LLM_KEY to the key exactly as issued" in message
    assert not [w for w in _windows(key.strip(), 5) if w in message]
    assert not isinstance(err.value.__context__, UnicodeError)


def test_a_token_given_as_the_urls_user_name_is_a_secret_too(cache, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY")
    token = "tok_0123456789abcdefXYZ"
    with FakeLLMServer(lambda request: Reply(401, {"auth": request["_headers"]["Authorization"],
                                                   "token": token})) as server:
        client = LLMClient(server.base_url.replace("http://", f"http://{token}@"), "fake",
                           cache=False)
        with pytest.raises(LLMError) as err:
            client.chat(ASK)
        sent = server.requests[0]["_headers"]["Authorization"]
    assert sent == "Basic " + _b64(f"{token}:".encode())
    assert token not in str(err.value) and sent.split()[1] not in str(err.value)
    assert token not in repr(client) and client.base_url == server.base_url
