"""Arguments of the wrong shape that used to end in a raw TypeError or pass unseen: a bare
Setting for a sweep, a folder that is None, a bare string of comments, cache keys and
vectors of the wrong shape, and LLM client arguments refused before anything is sent."""

from __future__ import annotations

import numpy as np
import pytest
from llm_server import FakeLLMServer

from privlab.errors import PrivlabTypeError, PrivlabValueError


def test_run_sweep_refuses_a_bare_setting():
    from privlab.epsilon.benchmark import Setting, run_sweep

    with pytest.raises(PrivlabValueError, match=r"'settings' parameter of run_sweep must be a "
                                                r"nonempty list of Setting.*Wrap a single Setting"):
        run_sweep(Setting("laplace", "dispersed", 1.0, 20), progress=False)


def test_walk_folder_refuses_none():
    from privlab.io import walk_folder

    with pytest.raises(PrivlabTypeError, match=r"'folder' parameter of walk_folder must be a "
                                               r"folder path .* Got NoneType"):
        walk_folder(None)


def test_select_comments_refuses_a_bare_string_and_loose_items():
    from privlab.datasets.reddit import select_comments

    with pytest.raises(PrivlabValueError, match=r"'comments' .* \(id, text\) pairs.*bare string"):
        select_comments("Avengers assemble")
    with pytest.raises(PrivlabValueError, match=r"'comments' .* \(id, text\) pairs. Got "
                                                r"\('a', 'Avengers', 'x'\)"):
        select_comments([("a", "Avengers", "x")])
    assert select_comments([("a", "Avengers rock"), ("b", "cats")]) == [("a", "Avengers rock")]


def test_embedding_cache_keys_and_items_of_the_wrong_shape(tmp_path):
    from privlab.encoders import EmbeddingCache

    store = EmbeddingCache(tmp_path / "e.sqlite")
    vector = np.full(4, 0.5, dtype=np.float32)
    store.put_many("m", [("abc", vector)])
    with pytest.raises(PrivlabTypeError, match=r"'keys' parameter of EmbeddingCache.get_many "
                                               r"must be a list of items.*bare string"):
        store.get_many("m", "abc")  # would look up 'a', 'b' and 'c' and find nothing
    with pytest.raises(PrivlabValueError, match=r"'items' .* \(key, vector\) pairs. Got an "
                                                r"array of shape \(4,\)"):
        store.put_many("m", vector)
    with pytest.raises(PrivlabValueError, match=r"'items' .* numeric vectors. Got str for key "
                                                r"'k'"):
        store.put_many("m", [("k", "0.5 0.5 0.5 0.5")])
    store.put_many("m", [["def", vector]])  # a list pair is fine
    assert sorted(store.get_many("m", ["abc", "def"])) == ["abc", "def"]


@pytest.fixture
def client(tmp_path, monkeypatch):
    from privlab.llm import LLMClient

    monkeypatch.setenv("PRIVLAB_CACHE", str(tmp_path / "cache"))
    with FakeLLMServer(lambda request: '{"ok": 1}') as server:
        yield LLMClient(server.base_url, "fake", max_retries=0), server


@pytest.mark.parametrize("call, pattern", [
    (lambda c: c.chat("hello"), r"'messages' parameter of LLMClient.chat must be a list"),
    (lambda c: c.chat([]), r"'messages' .* a non-empty list"),
    (lambda c: c.chat(["hello"]), r"'messages' .* dicts with 'role' and 'content'"),
    (lambda c: c.chat([{"role": "user", "content": "x"}], temperature="hot"),
     r"'temperature' .* a number in \[0, 2\]. Got 'hot'"),
    (lambda c: c.chat_json([{"role": "user", "content": "x"}], temperature=3),
     r"'temperature' .* Got 3"),
    (lambda c: c.chat_json([{"role": "user", "content": "x"}], validate=5),
     r"'validate' parameter of LLMClient.chat_json"),
    (lambda c: c.edit_image(None, "blur"), r"'image' parameter of LLMClient.edit_image"),
])
def test_client_arguments_are_refused_before_anything_is_sent(client, call, pattern):
    llm, server = client
    with pytest.raises((PrivlabTypeError, PrivlabValueError), match=pattern):
        call(llm)
    assert server.requests == []
    assert llm.chat_json([{"role": "user", "content": "x"}]) == {"ok": 1}
    assert len(server.requests) == 1


def test_model_must_be_text():
    from privlab.llm import LLMClient

    with pytest.raises(PrivlabTypeError, match=r"'model' parameter of LLMClient must be a "
                                               r"model name \(a string\). Got int"):
        LLMClient("http://127.0.0.1:9/v1", 5)
