"""The official openai client, wrapped by from_openai, under the same secret rules."""

from __future__ import annotations

import json

import openai
import pytest
from llm_server import FakeLLMServer, Reply

from privlab.llm import LLMError, ensure_client, from_openai

KEY = "sk-proj-Official/0123456789+abcdefGHIJ"
ASK = [{"role": "user", "content": "x"}]


def _client(server, **options):
    return openai.OpenAI(base_url=server.base_url, api_key=KEY, max_retries=0, **options)


def test_a_wrapped_client_answers_json_and_asks_again_when_malformed():
    answers = iter(["not json", '{"labels": [1, 0]}'])
    with FakeLLMServer(lambda request: next(answers)) as server:
        chat = from_openai(_client(server), "fake")
        assert chat.chat_json(ASK) == {"labels": [1, 0]}
        assert len(server.requests) == 2
        assert server.requests[0]["model"] == "fake"
        assert server.requests[0]["response_format"] == {"type": "json_object"}
        assert ensure_client(chat, "LLMJudge") is chat


def test_an_unwrapped_official_client_is_refused_with_the_wrapper_to_use():
    with FakeLLMServer(lambda request: "{}") as server:
        with pytest.raises(TypeError, match=r"'client' parameter of LLMJudge .*privlab\.llm\."
                                            r"from_openai\(client, model="):
            ensure_client(_client(server), "LLMJudge")


def test_the_key_echoed_by_the_server_is_nowhere_in_errors_answers_or_logs(every_log):
    def responder(request):
        if "again" in json.dumps(request["messages"]):
            return Reply(401, f'{{"error": {{"message": "bad key {KEY}"}}}}'.encode(),
                         reason=f"Invalid key {KEY}", headers=(("X-Echo", KEY),))
        return json.dumps({"echo": KEY})

    with FakeLLMServer(responder) as server:
        chat = from_openai(_client(server), "fake")
        with pytest.warns(RuntimeWarning, match="holds a secret"):
            assert chat.chat_json(ASK) == {"echo": "[redacted]"}
        with pytest.raises(LLMError, match=r"gave no answer: AuthenticationError") as err:
            chat.chat_json([{"role": "user", "content": "again"}])
    fragments = {KEY[i:i + 10] for i in range(len(KEY) - 9)}
    logged = every_log.getvalue()
    assert "HTTP Request" in logged  # the official client's transport did log
    assert not [f for f in fragments if f in str(err.value) or f in logged or f in repr(chat)]
