"""Encoders: protocol, cache, the packaged default and the sentence-transformers path."""

from __future__ import annotations

import re

import numpy as np
import pytest

from privlab.encoders import (
    EmbeddingCache,
    Encoder,
    LexicalEncoder,
    SentenceTransformerEncoder,
    get_encoder,
    registry,
)


class CountingEncoder(Encoder):
    """Exact answers: text -> (len, vowels, 1), and a call counter."""

    name = "counting"
    modality = "text"

    def __init__(self):
        self.calls = 0

    def _encode(self, items):
        self.calls += len(items)
        return np.array([[len(t), sum(c in "aeiou" for c in t), 1.0] for t in items])


def test_encode_normalises_and_caches_by_content():
    enc = CountingEncoder()
    first = enc.encode(["abc", "aaaa", "abc"])
    assert enc.calls == 2  # the duplicate is encoded once
    expected = np.array([3, 1, 1]) / np.sqrt(11)
    np.testing.assert_allclose(first[0], expected, rtol=1e-6)
    np.testing.assert_allclose(np.linalg.norm(first, axis=1), 1.0, rtol=1e-6)
    again = CountingEncoder()
    np.testing.assert_array_equal(again.encode(["aaaa", "abc"]), first[[1, 0]])
    assert again.calls == 0  # served from the on-disk cache


def test_cache_keeps_models_apart(tmp_path):
    cache = EmbeddingCache(tmp_path / "e.sqlite")
    cache.put_many("a", [("k", np.array([1.0, 0.0]))])
    cache.put_many("b", [("k", np.array([0.0, 1.0]))])
    assert cache.get_many("a", ["k"])["k"].tolist() == [1.0, 0.0]
    assert cache.count() == 2 and cache.count("b") == 1
    cache.clear("a")
    assert cache.get_many("a", ["k"]) == {}


def test_the_cache_stores_only_finite_unit_vectors_of_one_dimension(tmp_path):
    cache = EmbeddingCache(tmp_path / "e.sqlite")
    with pytest.raises(ValueError, match=r"norm 2 instead of 1 for key 'k'"):
        cache.put_many("a", [("k", np.array([2.0, 0.0]))])
    with pytest.raises(ValueError, match="NaN or inf values for key 'n'"):
        cache.put_many("a", [("n", np.array([np.nan, 1.0]))])
    with pytest.raises(ValueError, match=r"one dimension.*\[2, 3\]"):
        cache.put_many("a", [("x", np.array([1.0, 0.0])), ("y", np.array([0.0, 0.0, 1.0]))])
    assert cache.count() == 0  # nothing of a refused batch is stored
    cache.put_many("a", [("k", np.array([0.6, 0.8]))])
    np.testing.assert_allclose(cache.get_many("a", ["k", "missing"])["k"], [0.6, 0.8], rtol=1e-7)


def test_wrong_items_are_refused_with_their_index():
    with pytest.raises(TypeError, match=r"items\[1\]"):
        CountingEncoder().encode(["ok", 3])
    with pytest.raises(TypeError, match="Wrap a single item"):
        CountingEncoder().encode("just a string")


def test_zero_vectors_from_a_model_are_refused():
    class Broken(CountingEncoder):
        name = "broken"

        def _encode(self, items):
            return np.zeros((len(items), 3))

    with pytest.raises(ValueError, match="non-zero"):
        Broken().encode(["x"], cache=False)


def test_lexical_encoder_sees_words_not_meaning():
    enc = LexicalEncoder(dim=512)
    v = enc.encode(["Ken Lay sold stock", "ken lay SOLD stock", "The chairman sold shares"])
    assert float(v[0] @ v[1]) == pytest.approx(1.0, abs=1e-6)
    assert float(v[0] @ v[2]) < 0.5


def test_packaged_minilm_runs_offline_and_separates_topics():
    enc = get_encoder("minilm")
    v = enc.encode(["Ken Lay sold $101 million worth of Enron stock.",
                    "The Enron chairman sold a large block of his shares.",
                    "The cat sat on the mat."])
    assert v.shape == (3, 384) and enc.dim == 384
    assert float(v[0] @ v[1]) > 0.5 > 0.1 > float(v[0] @ v[2])


def test_registry_lists_offline_text_encoders_for_widgets():
    names = registry.names(modality="text", offline=True)
    assert names[:3] == ["minilm", "mpnet", "lexical"]
    assert "qwen3-embedding-4b" in registry.names(offline=False)


def _tiny_sentence_transformer(folder):
    """A randomly initialised 2-layer BERT with a 30-word vocabulary, saved as a
    sentence-transformers folder (what a hub download looks like on disk)."""
    from sentence_transformers import SentenceTransformer, models
    from transformers import BertConfig, BertModel, BertTokenizerFast

    words = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"] + (
        "ken lay sold stock the cat sat on mat enron chairman shares a of his "
        "large block dog ran far").split()
    (folder / "hf").mkdir(parents=True)
    (folder / "hf" / "vocab.txt").write_text("\n".join(words))
    tokenizer = BertTokenizerFast(vocab_file=str(folder / "hf" / "vocab.txt"))
    config = BertConfig(vocab_size=len(words), hidden_size=16, num_hidden_layers=2,
                        num_attention_heads=2, intermediate_size=32, max_position_embeddings=64)
    import torch

    torch.manual_seed(0)
    BertModel(config).save_pretrained(folder / "hf")
    tokenizer.save_pretrained(folder / "hf")
    word = models.Transformer(str(folder / "hf"), max_seq_length=32)
    # The old name is looked up only where the new one is missing (it warns when touched).
    dim = (getattr(word, "get_embedding_dimension", None) or word.get_word_embedding_dimension)()
    pooling = models.Pooling(dim, pooling_mode="mean")
    SentenceTransformer(modules=[word, pooling]).save(str(folder / "st"))
    return folder / "st"


def test_any_sentence_transformers_folder_loads_through_the_same_class(tmp_path):
    path = _tiny_sentence_transformer(tmp_path)
    enc = SentenceTransformerEncoder(path, name="tiny-bert", device="cpu")
    v = enc.encode(["ken lay sold stock", "the cat sat on the mat"])
    assert v.shape == (2, 16) and enc.dim == 16
    np.testing.assert_allclose(np.linalg.norm(v, axis=1), 1.0, rtol=1e-5)
    # The same folder by name through the registry-aware getter.
    assert get_encoder(str(path)).encode(["ken lay sold stock"]).shape == (1, 16)


def test_a_hub_name_that_is_not_cached_fails_with_the_fix():
    enc = SentenceTransformerEncoder("privlab-test/not-a-model-anywhere", device="cpu")
    with pytest.raises(ValueError, match="hf download"):
        enc.encode(["x"], cache=False)


def test_mpnet_is_reassembled_once_from_its_part_packages(tmp_path, monkeypatch):
    """Five fake part packages holding a split zip of a tiny model, as the wheels do."""
    import io
    import sys
    import zipfile

    from privlab.encoders import text

    model = _tiny_sentence_transformer(tmp_path / "model")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for path in model.rglob("*"):
            if path.is_file():
                archive.write(path, f"all-mpnet-base-v2/{path.relative_to(model)}")
    blob = buffer.getvalue()
    size = len(blob) // 5 + 1
    for index, module in enumerate(text._MPNET_PARTS):
        folder = tmp_path / "site" / module / "input"
        folder.mkdir(parents=True)
        (folder.parent / "__init__.py").write_text("")
        (folder / f"all-mpnet-base-v2.zip.00{index + 1}").write_bytes(
            blob[index * size:(index + 1) * size])
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    for module in text._MPNET_PARTS:
        sys.modules.pop(module, None)
    path = text.packaged_mpnet_path()
    assert (path / "modules.json").is_file()
    assert text.packaged_mpnet_path() == path  # the second call reuses the unpacked folder
    enc = SentenceTransformerEncoder(path, name="mpnet-test", device="cpu")
    assert enc.encode(["ken lay sold stock"]).shape == (1, 16)


def test_mpnet_without_its_parts_names_the_install_command(monkeypatch, tmp_path):
    from importlib import util

    monkeypatch.setenv("PRIVLAB_CACHE", str(tmp_path))  # nothing unpacked yet

    from privlab.encoders import text
    from privlab.errors import MissingDependencyError

    monkeypatch.setattr(util, "find_spec", lambda name: None)
    with pytest.raises(MissingDependencyError, match=re.escape("pip install -e '.[mpnet]'")):
        text.packaged_mpnet_path()
    assert "[not installed" in dict((n, l) for l, n in registry.options())["mpnet"]
