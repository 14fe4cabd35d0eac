"""Every LLM path of the redaction package gets its client from one function,
:func:`privlab.llm.ensure_client`: the same default, the same refusal."""

from __future__ import annotations

import pytest
from llm_server import FakeLLMServer

from privlab.errors import PrivlabTypeError
from privlab.llm import LLMClient, LLMUnavailableError, ensure_client
from privlab.redaction.redacbench.judge import LLMJudge
from privlab.redaction.redacbench.strategy import AdversarialRedaction
from privlab.redaction.spia.adversaries import LLMAdversary, LLMValueJudge
from privlab.redaction.spia.matching import LLMMatcher

LLM_PATHS = [LLMAdversary, LLMMatcher, LLMValueJudge, LLMJudge, AdversarialRedaction]


class Scripted:
    """Anything with ``chat_json`` will do (no endpoint needed)."""

    model = "scripted"

    def chat_json(self, messages, **options):
        return {}


def test_ensure_client_keeps_a_client_and_refuses_anything_else():
    scripted = Scripted()
    assert ensure_client(scripted, "demo") is scripted
    with pytest.raises(PrivlabTypeError, match="'client' parameter of demo .*Got str"):
        ensure_client("http://127.0.0.1:8000/v1", "demo")


def test_ensure_client_builds_one_from_the_environment(monkeypatch):
    with FakeLLMServer(lambda request: "{}") as server:
        monkeypatch.setenv("PRIVLAB_LLM_BASE_URL", server.base_url)
        monkeypatch.setenv("PRIVLAB_LLM_MODEL", "env-model")
        client = ensure_client(None, "demo")
    assert isinstance(client, LLMClient) and client.model == "env-model"
    assert client.base_url == server.base_url.rstrip("/")


def test_ensure_client_without_an_endpoint_says_how_to_configure_one(monkeypatch):
    for name in ("PRIVLAB_LLM_BASE_URL", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(LLMUnavailableError, match="PRIVLAB_LLM_BASE_URL"):
        ensure_client(None, "demo")


@pytest.mark.parametrize("path", LLM_PATHS, ids=lambda c: c.__name__)
def test_every_llm_path_takes_its_client_the_same_way(path, monkeypatch):
    scripted = Scripted()
    made = path(scripted)
    assert made.client is scripted and made.name.endswith("(scripted)")
    with pytest.raises(PrivlabTypeError, match=f"'client' parameter of {path.__name__} "):
        path("not a client")
    monkeypatch.setenv("PRIVLAB_LLM_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("PRIVLAB_LLM_MODEL", "env-model")
    assert isinstance(path().client, LLMClient) and path().client.model == "env-model"
