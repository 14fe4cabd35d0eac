"""The LLM redaction sanitizer end to end against a scripted server on loopback."""

from __future__ import annotations

import json

import pytest
from llm_server import FakeLLMServer

from privlab.llm import LLMClient, LLMUnavailableError
from privlab.sanitizers import LLMRedactionSanitizer, registry
from privlab.sanitizers.text import BOX


def _redact(request):
    prompt = request["messages"][0]["content"]
    passage = prompt.split("Passage:\n", 1)[1]
    return json.dumps({"redacted": passage.replace("Vanguard Legion", BOX * 15)})


def test_llm_sanitizer_round_trip_and_cache():
    with FakeLLMServer(_redact) as server:
        client = LLMClient(base_url=server.base_url, model="fake")
        s = LLMRedactionSanitizer("the Vanguard Legion franchise", client=client)
        out = s.sanitize(["I loved Vanguard Legion.", "Nothing here."])
        assert out == [f"I loved {BOX * 15}.", "Nothing here."]
        assert "Concept to remove: the Vanguard Legion franchise" in \
            server.requests[0]["messages"][0]["content"]
        s.sanitize(["I loved Vanguard Legion."])  # cached: no new request
        assert len(server.requests) == 2
    assert s.describe()["model"] == "fake"


def test_llm_sanitizer_retries_malformed_answers():
    answers = iter(["not json", json.dumps({"redacted": "ok"})])
    with FakeLLMServer(lambda request: next(answers)) as server:
        client = LLMClient(base_url=server.base_url, model="fake", cache=False)
        assert LLMRedactionSanitizer("x", client=client).sanitize(["a"]) == ["ok"]
        assert len(server.requests) == 2


def test_llm_sanitizer_fails_clearly_without_endpoint(monkeypatch):
    for var in ("PRIVLAB_LLM_BASE_URL", "OPENAI_BASE_URL"):
        monkeypatch.delenv(var, raising=False)
    s = registry.create("llm", concepts=("Vanguard Legion",))
    with pytest.raises(LLMUnavailableError, match="No LLM endpoint is configured"):
        s.sanitize(["Vanguard Legion"])
    with pytest.raises(ValueError, match="'prompt' parameter"):
        LLMRedactionSanitizer("x", prompt="no placeholders")
