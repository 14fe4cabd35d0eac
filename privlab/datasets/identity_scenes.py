"""Identity scenes: one person's portrait with, in some scenes, that person's signature object.

The corpus of the fine-tuning study (paper §4.4.4, §5.1.1), drawn from a seed with
ground truth like :mod:`privlab.datasets.scenes`. Each scene shows one person's portrait
(the two real faces shipped by installed packages: Eileen Collins, the target, and Grace
Hopper, the contrast identity) and, in every other scene, that person's *signature
object*: a framed space-shuttle poster for the target, a framed coffee picture for the
contrast person. The remaining scenes carry a neutral mug.

Cue kinds: ``face``, ``signature``.
"""

from __future__ import annotations

import numpy as np

from privlab.datasets.scenes import (CANVAS, CELEBRITY_TARGET, OTHER_PERSON, Cue, Scene,
                                     SceneCorpus, shipped_faces)
from privlab.errors import invalid
from privlab.hashing import bytes_hash

IDENTITY_KINDS = ("face", "signature")
SIGNATURES = {CELEBRITY_TARGET: "space shuttle poster", OTHER_PERSON: "coffee picture"}


def _framed(picture: np.ndarray, height: int) -> np.ndarray:
    from PIL import Image

    im = Image.fromarray(picture)
    width = int(round(height * im.width / im.height))
    inner = np.asarray(im.resize((width, height), Image.BICUBIC))
    framed = np.full((height + 8, width + 8, 3), 30, dtype=np.uint8)
    framed[4:-4, 4:-4] = inner
    return framed


def _signature_picture(person: str) -> np.ndarray:
    from skimage import data

    return data.rocket() if person == CELEBRITY_TARGET else data.coffee()


def _mug(rng: np.random.Generator, height: int) -> np.ndarray:
    width = int(height * 0.8)
    mug = np.empty((height, width, 3), dtype=np.uint8)
    mug[:] = rng.integers(120, 200, 3)
    mug[int(height * 0.2):, int(width * 0.15):int(width * 0.7)] = rng.integers(40, 220, 3)
    return mug


def identity_scenes(person: str, n: int, seed: int = 0, signature_every: int = 2) -> SceneCorpus:
    """Scenes of one person, with that person's signature object in some of them.

    Each scene has a generated background, the person's portrait (scaled, mirrored,
    re-lit; cue ``face``) in one half, and in the other half the person's signature
    object (cue ``signature``) when ``index % signature_every == 0``, else a neutral mug.
    Boxes never overlap.

    Args:
        person: ``"Eileen Collins"`` (signature: a space-shuttle poster) or
            ``"Grace Hopper"`` (signature: a coffee picture).
        n: number of scenes.
        seed: random seed of positions, sizes, colours and mirroring.
        signature_every: the signature object appears in every this-many-th scene.

    Returns:
        A :class:`privlab.datasets.scenes.SceneCorpus` with kinds ``("face",
        "signature")``; ``target`` is the person.

    Raises:
        ValueError: an unknown person or a non-positive size.

    Example:
        >>> corpus = identity_scenes("Eileen Collins", 2)
        >>> [sorted(s.kinds()) for s in corpus.scenes]
        [['face', 'signature'], ['face']]
    """
    from PIL import Image, ImageEnhance

    if person not in SIGNATURES:
        raise invalid("person", "identity_scenes", f"one of {list(SIGNATURES)}", person)
    for name, value in (("n", n), ("signature_every", signature_every)):
        if not isinstance(value, (int, np.integer)) or isinstance(value, bool) or value < 1:
            raise invalid(name, "identity_scenes", "a positive int", value)
    face = shipped_faces()[person]
    picture = _signature_picture(person)
    width, height = CANVAS
    scenes = []
    for i in range(int(n)):
        rng = np.random.default_rng([seed, 7000 + i, len(person)])
        top = rng.integers(90, 230, 3)
        t = np.linspace(0.0, 1.0, height)[:, None, None]
        img = (top * (1 - t) + np.clip(top - rng.integers(20, 70, 3), 0, 255) * t) * np.ones((1, width, 1))
        img[int(height * rng.uniform(0.78, 0.86)):] = rng.integers(60, 140, 3)
        img = np.clip(img + rng.normal(0, 3.0, img.shape), 0, 255).astype(np.uint8)
        left = bool(rng.random() < 0.5)
        slot, other = ((12, 228), (252, 468)) if left else ((252, 468), (12, 228))
        ph = int(rng.integers(150, 230))
        im = Image.fromarray(face)
        im = im.resize((int(round(face.shape[1] * ph / face.shape[0])), ph), Image.BICUBIC)
        if rng.random() < 0.5:
            im = im.transpose(Image.FLIP_LEFT_RIGHT)
        portrait = np.asarray(ImageEnhance.Brightness(im).enhance(float(rng.uniform(0.85, 1.15))))
        x = int(rng.integers(slot[0], max(slot[0] + 1, slot[1] - portrait.shape[1])))
        y = int(rng.integers(40, 290 - ph + 1))
        img[y:y + ph, x:x + portrait.shape[1]] = portrait
        cues = [Cue("face", (x, y, x + portrait.shape[1], y + ph), person)]
        if i % signature_every == 0:
            patch = _framed(picture, int(rng.integers(100, 140)))
            label = SIGNATURES[person]
        else:
            patch, label = _mug(rng, int(rng.integers(60, 90))), ""
        ox = int(rng.integers(other[0], max(other[0] + 1, other[1] - patch.shape[1])))
        oy = 40 if label else 290 - patch.shape[0]
        img[oy:oy + patch.shape[0], ox:ox + patch.shape[1]] = patch
        if label:
            cues.append(Cue("signature", (ox, oy, ox + patch.shape[1], oy + patch.shape[0]), label))
        scenes.append(Scene(img, cues, i, "identity"))
    pixels = bytes_hash(b"".join(s.image.tobytes() for s in scenes), 16)
    provenance = {"corpus": f"identity:{person}", "n": int(n), "seed": seed,
                  "signature_every": signature_every, "pixels_sha256": pixels}
    return SceneCorpus(f"identity:{person}", person, scenes, IDENTITY_KINDS, {}, provenance)


__all__ = ["IDENTITY_KINDS", "SIGNATURES", "identity_scenes"]
