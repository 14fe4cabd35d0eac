"""The two-phase LLM image pipeline against a loopback OpenAI-compatible server."""

from __future__ import annotations

import base64
import io

import numpy as np

from privlab.sanitizers.llm_image import LLMTwoPhaseSanitizer


def _grey(h=40, w=60, v=200):
    return np.full((h, w, 3), v, dtype=np.uint8)


def test_llm_two_phase_on_loopback():
    from PIL import Image

    from llm_server import FakeLLMServer
    from privlab.llm import LLMClient

    black = io.BytesIO()
    Image.new("RGB", (30, 20), (0, 0, 0)).save(black, format="PNG")
    b64 = base64.b64encode(black.getvalue()).decode()

    def responder(request):
        if request["_path"].endswith("/images/edits"):
            return {"data": [{"b64_json": b64}]}
        return '{"concepts": ["face", "name caption"]}'

    with FakeLLMServer(responder) as server:
        describer = LLMClient(base_url=server.base_url, model="i2t", cache=False)
        editor = LLMClient(base_url=server.base_url, model="i2i", cache=False)
        s = LLMTwoPhaseSanitizer("the celebrities", editor, describer)
        out = s.sanitize([_grey(), _grey(v=100)])
        chats = [r for r in server.requests if r["_path"].endswith("/chat/completions")]
        edits = [r for r in server.requests if r["_path"].endswith("/images/edits")]
    assert s.name == "i2i/i2t" and s.master_list == ["face", "name caption"]
    assert len(chats) == 2 and len(edits) == 2
    assert b"face, name caption" in edits[0]["_raw"]  # the pooled list reached the editor
    assert out[0].shape == (40, 60, 3) and (out[0] == 0).all()  # resized back


def test_fixed_concepts_skip_phase_one():
    s = LLMTwoPhaseSanitizer("the celebrities", object(), concepts=["face"])
    assert s.name == "editor/manual" and s.concepts_for([_grey()]) == ["face"]
    assert LLMTwoPhaseSanitizer("the celebrities", object()).concepts_for([]) == ["the celebrities"]
