"""Shared by the redaction tests: a client for the scripted LLM server."""

from __future__ import annotations

import pytest

from privlab.llm import LLMClient


@pytest.fixture
def fake_client():
    """``build(server, **options)``: an :class:`LLMClient` for a ``FakeLLMServer``.

    Short timeout, one retry, no backoff to speak of and no cache, so a scripted answer
    is always asked for (and counted) again.
    """
    def build(server, **kw) -> LLMClient:
        return LLMClient(base_url=server.base_url, model="fake",
                         timeout=kw.pop("timeout", 5.0), max_retries=kw.pop("max_retries", 1),
                         backoff=0.01, cache=False, **kw)

    return build
