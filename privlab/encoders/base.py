"""The ``Encoder`` protocol: a distance mechanism D as a unit-norm embedding.

Every encoder maps a list of items (texts or images) to float32 ``(n, d)`` unit rows, so
that cosine similarity is a dot product and Algorithm 1 applies. The public
:meth:`Encoder.encode` is final: it validates, consults the on-disk cache, calls the
subclass hook :meth:`Encoder._encode` for what is missing, checks and normalises the
result. A new encoder only implements ``_encode`` (and sets ``name``, ``modality``).

:data:`registry` is the family's name -> factory registry; every member registers itself
beside its class with ``@registry.member(...)``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Sequence

import numpy as np

from privlab.encoders.cache import EmbeddingCache
from privlab.hashing import content_hash
from privlab.progress import substep, within
from privlab.errors import invalid, item_list, wrong_type
from privlab.registry import Registry

registry = Registry("encoder")


class Encoder(ABC):
    """Base class of every distance mechanism.

    Attributes:
        name: the model id; part of the cache key, so two encoders that can produce
            different vectors must have different names.
        modality: ``"text"`` or ``"image"``.
        batch_size: items per call of the hook.
    """

    name: str = "encoder"
    modality: str = "text"
    batch_size: int = 64

    _cache: EmbeddingCache | None = None

    @property
    def cache_model(self) -> str:
        """The model id under which the embedding cache stores this encoder's vectors.

        ``name`` by default; an encoder whose name is a path to files that can change
        (a local model folder) adds a hash of their contents, so re-saved weights never
        return the old vectors.
        """
        return self.name

    @property
    def dim(self) -> int:
        """Embedding dimension (encodes one probe item the first time if unknown)."""
        if getattr(self, "_dim", None) is None:
            probe = "privlab" if self.modality == "text" else _probe_image()
            self._dim = int(self._encode([probe]).shape[1])
        return self._dim

    @abstractmethod
    def _encode(self, items: Sequence[Any]) -> np.ndarray:
        """Embed a batch; returns ``(len(items), d)`` floats (normalised or not)."""

    def _check_item(self, item: Any, index: int) -> None:
        """Refuse an item of the wrong kind (hook; text by default)."""
        if self.modality == "text" and not isinstance(item, str):
            raise wrong_type(f"items[{index}]", f"{type(self).__name__}.encode", "a str", item)

    def encode(self, items: Sequence[Any], *, cache: bool = True, progress: bool = False
               ) -> np.ndarray:
        """Unit-norm float32 embeddings, one row per item, cached on disk.

        Args:
            items: texts (for text encoders) or images (PIL images or ``HxWxC`` uint8
                arrays, for image encoders).
            cache: read and write the embedding cache.
            progress: show a progress bar over batches.

        Returns:
            ``(len(items), dim)`` float32 array with unit rows.

        Raises:
            TypeError: an item of the wrong kind (its index is named).
            ValueError: the model returned non-finite or zero vectors.
        """
        caller = f"{type(self).__name__}.encode"
        items = item_list(items, "items", caller)
        for index, item in enumerate(items):
            self._check_item(item, index)
        if not items:
            return np.zeros((0, self.dim), dtype=np.float32)
        keys = [content_hash(item) for item in items]
        store = self._store() if cache else None
        # A damaged cache entry is dropped (with a warning) and so lands in `missing`.
        model = self.cache_model if store else self.name
        found = store.get_many(model, keys, dim=getattr(self, "_dim", None)) if store else {}
        missing = [k for k in dict.fromkeys(keys) if k not in found]
        cached = sum(k in found for k in keys)
        if cached:  # said, so that a quick stage is not taken for a skipped one
            substep("read from the embedding cache", cached, len(keys))
        if missing:
            first_item = {}
            for key, item in zip(keys, items):
                first_item.setdefault(key, item)
            batches = range(0, len(missing), self.batch_size)
            if progress:
                from tqdm.auto import tqdm

                batches = tqdm(batches, desc=f"encoding with {self.name}", unit="batch")
            new: dict[str, np.ndarray] = {}
            known = len(keys) - len(missing)  # found in the cache (or repeated)
            for start in batches:
                substep("encoded", known + start, len(keys))
                chunk = missing[start:start + self.batch_size]
                with within():  # an encoder may report the items of its batch
                    vectors = self._finish(self._encode([first_item[k] for k in chunk]),
                                           len(chunk))
                new.update(zip(chunk, vectors))
            substep("encoded", len(keys), len(keys))
            if store:
                store.put_many(model, new.items())
            found.update(new)
        out = np.stack([found[k] for k in keys]).astype(np.float32)
        self._dim = out.shape[1]
        return out

    def _finish(self, vectors: Any, expected: int) -> np.ndarray:
        if hasattr(vectors, "detach"):
            vectors = vectors.detach().float().cpu().numpy()
        vectors = np.asarray(vectors, dtype=np.float64)
        if vectors.ndim != 2 or vectors.shape[0] != expected:
            raise invalid("_encode", type(self).__name__, f"an array of {expected} rows",
                          f"shape {vectors.shape}", given_is_text=True)
        if not np.isfinite(vectors).all():
            raise invalid("_encode", type(self).__name__, "finite", "NaN or inf in the output",
                          given_is_text=True)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        if (norms == 0).any():
            raise invalid("_encode", type(self).__name__, "non-zero vectors",
                          "a zero vector", "The encoder cannot place this item; check its input.",
                          given_is_text=True)
        return (vectors / norms).astype(np.float32)

    def _store(self) -> EmbeddingCache:
        if Encoder._cache is None or not Encoder._cache.path.parent.exists() or (
                Encoder._cache.path != _default_cache_path()):
            Encoder._cache = EmbeddingCache()
        return Encoder._cache

    def describe(self) -> dict[str, Any]:
        """Provenance for results: name, modality and class."""
        return {"encoder": self.name, "modality": self.modality, "class": type(self).__name__}

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r})"


def _default_cache_path():
    from privlab.config import cache_dir

    return cache_dir() / "embeddings.sqlite"


def _probe_image():
    return np.zeros((32, 32, 3), dtype=np.uint8)
