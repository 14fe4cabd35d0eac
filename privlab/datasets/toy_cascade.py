"""A repeated random-donor cascade on toy identities (the paper's Appendix E, offline).

Toy identities, a toy swap pass and sequences of passes with target-independent donors
stand in for the paper's face-swapper cascade; every output is kept as the paper's
``[z, 0]`` / ``[0, 1]`` vector. The toy swap has no privacy value of any kind. How it is
built: ``docs/methods/data-generators.md``; what is kept: ``docs/methods/data.md``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np
import pandas as pd

from privlab.datasets.toy_faces import (ToyFaceGenerator, _array_sha256, _encoder_record,
                                        _toy_sources, environment_versions)
from privlab.encoders.base import registry
from privlab.encoders.lookup import get_encoder
from privlab.errors import invalid, wrong_type

TOY_CASCADE_VERSION = "toy-random-donor-cascade-1"

#: Five-point face template (eyes, nose tip, mouth corners) of the 112-pixel ArcFace crop,
#: moved to the centre of a 160-pixel image; scaled with the image side.
_TEMPLATE_160 = np.array([[62.29, 63.70], [97.53, 63.50], [80.03, 83.74], [65.55, 104.37],
                          [94.73, 104.20]])
#: Index offsets of the seeded streams (identities, pools, sequences) and of the donors.
_WARP, _POOL, _SEQUENCE = 1, 2, 3
DONOR_INDEX_OFFSET = 10_000


@lru_cache(maxsize=4)
def _aligned_sources(size: int) -> tuple[tuple[str, np.ndarray, str], ...]:
    import cv2

    from privlab.vision.faces import detect_faces

    template = (_TEMPLATE_160 * size / 160.0).astype(np.float32)
    out = []
    for name, photo, description in _toy_sources():
        face = detect_faces(photo, 0.5)[0]  # each shipped photo has one face (score ≥ 0.89)
        landmarks = np.asarray(face.row[4:14], dtype=np.float32).reshape(5, 2)
        m, _ = cv2.estimateAffinePartial2D(landmarks, template)
        aligned = cv2.warpAffine(photo, m, (size, size), borderMode=cv2.BORDER_REFLECT)
        out.append((name, aligned, description))
    return tuple(out)


def aligned_sources(size: int = 160) -> dict[str, np.ndarray]:
    """The shipped faces aligned on YuNet's five landmarks to one ``size``-pixel template.

    Returns:
        ``{identity: (size, size, 3) uint8}`` in the order of
        :func:`privlab.datasets.toy_faces.toy_sources`.
    """
    return {name: image.copy() for name, image, _ in _aligned_sources(int(size))}


def _check_number(value, name: str, caller: str, low: float, high: float | None = None) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)) \
            or not math.isfinite(value) or value < low or (high is not None and value > high):
        expected = f"a number in [{low:g}, {high:g}]" if high is not None \
            else f"a number of at least {low:g}"
        raise invalid(name, caller, expected, value)
    return float(value)


def _check_count(value, name: str, caller: str, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
        raise invalid(name, caller, f"an integer of at least {low}", value)
    return int(value)


@dataclass(frozen=True)
class ToyDonorSwap:
    """Toy identities and one toy face-swap pass with a donor.

    Args:
        swap: weight of the donor's face in the inner face region (0 keeps the face).
        warp, tone: sd of an identity's smooth warp (pixels) and log colour gain.
        lighting, blur, noise: a pass's log-gain sd, largest blur sigma, pixel-noise sd
            (the knobs: ``docs/methods/data-generators.md``).
        size: image side in pixels (at least 96).

    Example:
        >>> ToyDonorSwap().knobs()["swap"]
        0.5
    """

    swap: float = 0.5
    warp: float = 6.0
    tone: float = 0.08
    lighting: float = 0.04
    blur: float = 1.0
    noise: float = 3.0
    size: int = 160
    _mask: np.ndarray = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        caller = "ToyDonorSwap"
        _check_number(self.swap, "swap", caller, 0.0, 1.0)
        for name in ("warp", "tone", "lighting", "blur", "noise"):
            _check_number(getattr(self, name), name, caller, 0.0)
        _check_count(self.size, "size", caller, 96)
        s = self.size / 160.0
        yy, xx = np.mgrid[0:self.size, 0:self.size]
        # a soft ellipse over eyes, nose and mouth of the template; hair and outline stay
        inner = np.exp(-(((xx - 80 * s) / (42 * s)) ** 2 + ((yy - 84 * s) / (52 * s)) ** 2) ** 3)
        object.__setattr__(self, "_mask", inner[:, :, None])

    def knobs(self) -> dict[str, float]:
        """The knob values."""
        return {k: float(getattr(self, k)) for k in ("swap", "warp", "tone", "lighting",
                                                     "blur", "noise")}

    def identity_face(self, index: int, seed: int = 0) -> np.ndarray:
        """The fixed face of toy identity ``index``: base ``index mod 3``, warped and toned.

        The warp is a 4 × 4 grid of displacements (sd ``warp`` pixels) interpolated
        bicubically over the image; it and the tone come from
        ``numpy.random.default_rng([seed, 1, index])``.

        Returns:
            ``(size, size, 3)`` uint8.
        """
        import cv2

        bases = _aligned_sources(self.size)
        base = bases[int(index) % len(bases)][1]
        rng = np.random.default_rng([int(seed), _WARP, int(index)])
        grid = rng.normal(0.0, self.warp, (2, 4, 4))
        n = self.size
        dx, dy = (cv2.resize(g, (n, n), interpolation=cv2.INTER_CUBIC).astype(np.float32)
                  for g in grid)
        xx, yy = np.meshgrid(np.arange(n, dtype=np.float32), np.arange(n, dtype=np.float32))
        out = cv2.remap(base, xx + dx, yy + dy, cv2.INTER_LINEAR,
                        borderMode=cv2.BORDER_REFLECT).astype(np.float64)
        out *= np.exp(rng.normal(0.0, self.tone, 3))
        return np.clip(np.round(out), 0, 255).astype(np.uint8)

    def pool(self, index: int, n: int, seed: int = 0) -> list[np.ndarray]:
        """The identity's fixed pool of ``n`` images: strength-0 toy-generator outputs of
        its face, image ``i`` from ``default_rng([seed, 2, index, i])``."""
        face = self.identity_face(index, seed)
        gen = ToyFaceGenerator(strength=0.0, size=self.size)
        return [gen.generate(face, np.random.default_rng([int(seed), _POOL, int(index), i]))
                for i in range(int(n))]

    def apply(self, current: np.ndarray, donor: np.ndarray, rng: np.random.Generator
              ) -> np.ndarray:
        """One pass: the donor's face blended into ``current``, then the pass's artefacts.

        Args:
            current: ``(size, size, 3)`` uint8, the image being swapped.
            donor: ``(size, size, 3)`` uint8, an image of the donor.
            rng: the pass's random numbers.

        Returns:
            ``(size, size, 3)`` uint8.
        """
        import cv2

        shape = (self.size, self.size, 3)
        for name, image in (("current", current), ("donor", donor)):
            if not isinstance(image, np.ndarray) or image.shape != shape \
                    or image.dtype != np.uint8:
                raise invalid(name, "ToyDonorSwap.apply", f"a {shape} uint8 array",
                              f"{getattr(image, 'dtype', type(image).__name__)} of shape "
                              f"{getattr(image, 'shape', None)}", given_is_text=True)
        weight = self.swap * self._mask
        out = current * (1.0 - weight) + donor * weight
        out = out * math.exp(rng.normal(0.0, self.lighting))
        sigma = rng.uniform(0.0, self.blur) if self.blur > 0 else 0.0
        if sigma > 0.3:
            out = cv2.GaussianBlur(np.ascontiguousarray(out), (0, 0), sigma)
        if self.noise > 0:
            out = out + rng.normal(0.0, self.noise, out.shape)
        return np.clip(np.round(out), 0, 255).astype(np.uint8)


@dataclass
class CascadeTable:
    """Every pass's embedding of every sequence of a random-donor cascade.

    Attributes:
        labels: ``(n,)`` str, the target identity of each sequence.
        sequence: ``(n,)`` int, the sequence's number within its target.
        start: ``(n,)`` int, the pool image the sequence started from.
        donors: ``(n, passes)`` int, the donor (index into the donor pool) of each pass.
        vectors: ``(passes, n, d + 1)`` float64: ``[z, 0]`` with a unit embedding ``z`` or
            ``[0_d, 1]`` when no face was found (the last column is the flag).
        provenance: the generation record (generator version and knobs, seed scheme,
            source photos with hashes, encoder with checkpoint hashes, failures per pass,
            software versions).
    """

    labels: np.ndarray
    sequence: np.ndarray
    start: np.ndarray
    donors: np.ndarray
    vectors: np.ndarray = field(repr=False)
    provenance: dict[str, Any] = field(default_factory=dict, repr=False)

    @property
    def passes(self) -> int:
        """Number of passes."""
        return int(self.vectors.shape[0])

    @property
    def failed(self) -> np.ndarray:
        """``(passes, n)`` bool: no face found in that pass's output."""
        return self.vectors[:, :, -1] == 1.0

    def failures(self, dev: np.ndarray | None = None) -> pd.DataFrame:
        """Outputs with no face found, per pass (split into development and test rows
        when the development mask ``dev`` is given)."""
        failed = self.failed
        index = pd.Index(range(1, self.passes + 1), name="pass")
        if dev is None:
            return pd.DataFrame({"no face": failed.sum(axis=1), "outputs": failed.shape[1]},
                                index=index)
        dev = np.asarray(dev, dtype=bool)
        return pd.DataFrame({"no face (development)": failed[:, dev].sum(axis=1),
                             "no face (test)": failed[:, ~dev].sum(axis=1),
                             "outputs": failed.shape[1]}, index=index)


def flagged_vectors(vectors: np.ndarray, encoder) -> np.ndarray:
    """The ``[z, 0]`` / ``[0, 1]`` form of an encoder's rows.

    A face member (its ``describe()`` names a ``no_face`` coordinate) already returns
    ``e_d`` for "no face found" and ``[z, 0]`` otherwise, so its rows are kept; any other
    encoder's rows get a zero flag column appended.

    Example:
        >>> class Plain:
        ...     def describe(self): return {"name": "plain"}
        >>> flagged_vectors(np.eye(2), Plain()).tolist()
        [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]
    """
    x = np.asarray(vectors, dtype=np.float64)
    if encoder.describe().get("no_face"):
        return x
    return np.hstack([x, np.zeros((len(x), 1))])


def _plan(rng: np.random.Generator, pool: int, n_donors: int, passes: int):
    """A sequence's draws: start image, donors (all different) and each donor's image."""
    start = int(rng.integers(pool))
    donors = rng.choice(n_donors, size=passes, replace=False)
    donor_images = rng.integers(pool, size=passes)
    return start, donors, donor_images


def cascade_images(target: int, sequence: int, passes: int = 5, n_donors: int = 24,
                   pool: int = 10, seed: int = 0, swap: ToyDonorSwap | None = None
                   ) -> list[np.ndarray]:
    """The images of one sequence: its start image, then each pass's output.

    Same draws as :func:`toy_cascade` with the same arguments, so a notebook can show
    what was embedded.

    Example:
        >>> len(cascade_images(0, 0, passes=2, n_donors=3, pool=2))
        3
    """
    caller = "cascade_images"
    for name, value in (("target", target), ("sequence", sequence), ("passes", passes),
                        ("seed", seed)):
        _check_count(value, name, caller, 0)
    _check_count(pool, "pool", caller, 1)
    if isinstance(n_donors, bool) or not isinstance(n_donors, (int, np.integer)) \
            or n_donors < max(int(passes), 1):
        raise invalid("n_donors", caller, f"an integer of at least passes ({passes}) and 1",
                      n_donors, "Every pass of a sequence needs a different donor.")
    swap = ToyDonorSwap() if swap is None else swap
    if not isinstance(swap, ToyDonorSwap):
        raise wrong_type("swap", caller, "a ToyDonorSwap or None", swap)
    rng = np.random.default_rng([int(seed), _SEQUENCE, int(target), int(sequence)])
    start, donors, donor_images = _plan(rng, pool, n_donors, passes)
    images = [swap.pool(target, pool, seed)[start]]
    for p in range(passes):
        donor = swap.pool(DONOR_INDEX_OFFSET + int(donors[p]), pool, seed)[donor_images[p]]
        images.append(swap.apply(images[-1], donor, rng))
    return images


def toy_cascade(n_identities: int = 8, n_sequences: int = 60, passes: int = 5,
                n_donors: int = 24, pool: int = 10, seed: int = 0, encoder: str = "sface", *,
                swap: ToyDonorSwap | None = None, cache: bool = True) -> CascadeTable:
    """Generate and embed a repeated random-donor cascade on toy identities.

    The donor pool shares no identity with the targets and every sequence is seeded by
    target and number (``docs/methods/data-generators.md``); every pass's output is
    embedded by ``encoder``.

    Args:
        n_identities: target identities (at least 2).
        n_sequences: sequences per target (at least 2).
        passes: passes per sequence (at least 1).
        n_donors: identities in the donor pool (at least ``passes``).
        pool: images in each identity's pool (at least 1).
        seed: base seed.
        encoder: a registered image encoder name.
        swap: the toy pass and identities (default :class:`ToyDonorSwap`).
        cache: use the on-disk embedding cache.

    Returns:
        A :class:`CascadeTable` with ``n_identities · n_sequences`` sequences.

    Raises:
        PrivlabValueError / PrivlabTypeError: on an invalid count, seed, encoder or swap.
    """
    caller = "toy_cascade"
    n_identities = _check_count(n_identities, "n_identities", caller, 2)
    n_sequences = _check_count(n_sequences, "n_sequences", caller, 2)
    passes = _check_count(passes, "passes", caller, 1)
    pool = _check_count(pool, "pool", caller, 1)
    seed = _check_count(seed, "seed", caller, 0)
    if isinstance(n_donors, bool) or not isinstance(n_donors, (int, np.integer)) \
            or n_donors < passes:
        raise invalid("n_donors", caller, f"an integer of at least passes ({passes})",
                      n_donors, "Every pass of a sequence needs a different donor.")
    image_encoders = registry.names(modality="image")
    if encoder not in image_encoders:
        raise invalid("encoder", caller, f"a registered image encoder {image_encoders}",
                      encoder)
    swap = ToyDonorSwap() if swap is None else swap
    if not isinstance(swap, ToyDonorSwap):
        raise wrong_type("swap", caller, "a ToyDonorSwap or None", swap)
    model = get_encoder(encoder)
    donor_pools = [swap.pool(DONOR_INDEX_OFFSET + j, pool, seed) for j in range(n_donors)]
    labels, numbers, starts, donors, donor_images, rngs, current = [], [], [], [], [], [], []
    for k in range(n_identities):
        target_pool = swap.pool(k, pool, seed)
        for s in range(n_sequences):
            rng = np.random.default_rng([seed, _SEQUENCE, k, s])
            start, ds, di = _plan(rng, pool, n_donors, passes)
            labels.append(f"target {k:02d}")
            numbers.append(s)
            starts.append(start)
            donors.append(ds)
            donor_images.append(di)
            rngs.append(rng)
            current.append(target_pool[start])
    vectors = []
    for p in range(passes):
        current = [swap.apply(img, donor_pools[int(ds[p])][int(di[p])], rng)
                   for img, ds, di, rng in zip(current, donors, donor_images, rngs)]
        vectors.append(flagged_vectors(model.encode(current, cache=cache), model))
    vectors = np.stack(vectors)
    failed = (vectors[:, :, -1] == 1.0).sum(axis=1)
    bases = _aligned_sources(swap.size)
    provenance = {
        "generator": TOY_CASCADE_VERSION, "knobs": swap.knobs(), "size": swap.size,
        "seed": seed, "passes": passes, "n_identities": n_identities,
        "n_sequences": n_sequences, "n_donors": n_donors, "pool": pool,
        "seed_scheme": ("identity i: warp and tone from default_rng([seed, 1, i]); pool image"
                        " m of identity i: default_rng([seed, 2, i, m]); sequence s of "
                        "target k: default_rng([seed, 3, k, s]); donor j is identity "
                        f"{DONOR_INDEX_OFFSET} + j"),
        "label_denotes": "the target identity of the sequence",
        "donor": (f"a pool of {n_donors} toy identities disjoint from the targets; each "
                  f"sequence draws {passes} different donors uniformly, whatever its target"),
        "sources": {name: {"photo": description, "sha256": _array_sha256(photo),
                           "targets": [f"target {k:02d}" for k in range(n_identities)
                                       if k % len(bases) == b]}
                    for b, (name, photo, description) in enumerate(_toy_sources())},
        "checkpoint": "none (the toy swap has no learned weights)",
        "encoder": _encoder_record(model),
        "flag": ("the encoder's own no-face coordinate" if model.describe().get("no_face")
                 else "appended zero column (the encoder never reports no face)"),
        "no_face_per_pass": [int(f) for f in failed],
        "environment": environment_versions(),
    }
    return CascadeTable(np.array(labels), np.array(numbers), np.array(starts),
                        np.array(donors, dtype=int).reshape(len(labels), passes), vectors,
                        provenance)


__all__ = ["CascadeTable", "DONOR_INDEX_OFFSET", "TOY_CASCADE_VERSION", "ToyDonorSwap",
           "aligned_sources", "cascade_images", "flagged_vectors", "toy_cascade"]
