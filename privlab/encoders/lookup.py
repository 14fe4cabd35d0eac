"""Encoders by name: registered members built once and reused, or any sentence-transformers model.

Models are large; an audit, a study and a widget asking for the same member with the
same settings share one instance (and its loaded weights).
"""

from __future__ import annotations

from typing import Any

from privlab.encoders.base import Encoder, registry
from privlab.encoders.text import SentenceTransformerEncoder

_instances: dict[tuple, Encoder] = {}


def get_encoder(name: str, **kwargs: Any) -> Encoder:
    """The registered encoder ``name``, built once per set of arguments and reused.

    A name that is not registered but is a local folder or a hub id is loaded as a
    sentence-transformers model.

    Args:
        name: a name in :data:`privlab.encoders.registry`, a local model folder or a hub id.
        **kwargs: settings passed to the member's factory (part of the reuse key).

    Returns:
        The :class:`privlab.encoders.base.Encoder`.

    Example:
        >>> get_encoder("lexical", dim=32).name
        'lexical-32'
        >>> get_encoder("lexical", dim=32) is get_encoder("lexical", dim=32)
        True
    """
    key = (name, tuple(sorted(kwargs.items())))
    if key not in _instances:
        if name in registry:
            _instances[key] = registry.create(name, **kwargs)
        else:
            _instances[key] = SentenceTransformerEncoder(name, **kwargs)
    return _instances[key]


__all__ = ["get_encoder"]
