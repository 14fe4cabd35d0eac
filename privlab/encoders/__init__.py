"""Distance mechanisms (encoders): the protocol, the registry and the built-in members.

``registry.names(modality="text")`` lists what a widget offers; ``get_encoder(name)``
builds (once) and returns a member. Every member registers itself beside its class
(text members in :mod:`~privlab.encoders.text`, image members in
:mod:`~privlab.encoders.image`, the fine-tuned adapter in :mod:`~privlab.encoders.adapter`).
Add your own the same way::

    from privlab.encoders import Encoder, registry

    @registry.member("my-model", modality="text", offline=True,
                     description="my fine-tuned model")
    class MyEncoder(Encoder):
        name, modality = "my-model", "text"
        def _encode(self, items):
            return my_model(items)           # (n, d) floats; privlab normalises and caches
"""

from __future__ import annotations

import importlib

from privlab.encoders.base import Encoder, registry
from privlab.encoders.cache import EmbeddingCache
from privlab.encoders.lookup import get_encoder
from privlab.encoders.text import (
    LexicalEncoder,
    SentenceTransformerEncoder,
    packaged_minilm_path,
    packaged_mpnet_path,
)
from privlab.hashing import content_hash
from privlab.registry import member_modules


def load_members() -> tuple[str, ...]:
    """Import every module of this package, so that each encoder in it registers itself.

    Called below, on import (see :func:`privlab.registry.member_modules`). Returns the
    modules' names, sorted.
    """
    return tuple(importlib.import_module(f"{__name__}.{name}").__name__
                 for name in member_modules(__path__))


load_members()

__all__ = ["Encoder", "EmbeddingCache", "LexicalEncoder", "SentenceTransformerEncoder",
           "content_hash", "get_encoder", "load_members", "packaged_minilm_path",
           "packaged_mpnet_path", "registry"]
