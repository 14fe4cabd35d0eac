"""Generated image corpora with ground truth: a celebrity set and a brand set.

Both are drawn from a seed, and every scene records which cues it holds and where, so a
sanitizer can remove every cue or miss chosen kinds on purpose and the audit can be checked
against what is known to be left. The corpora, their cue kinds and the layout rule:
``docs/methods/data-generators.md``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from privlab.errors import invalid
from privlab.hashing import bytes_hash, content_hash

GENERATOR_VERSION = "scenes-1"
CELEBRITY_KINDS = ("target_face", "caption", "other_face", "poster")
BRAND_KINDS = ("logo", "small_logo", "brand_text", "food")
CELEBRITY_TARGET = "Eileen Collins"
OTHER_PERSON = "Grace Hopper"
BRAND_NAME = "QUIKBITE"
CANVAS = (480, 360)  # width, height


@dataclass(frozen=True)
class Cue:
    """One seeded cue in a scene.

    Attributes:
        kind: the cue kind (see docs/methods/data-generators.md).
        box: ``(x0, y0, x1, y1)`` pixel box, exclusive of ``x1, y1``.
        label: what the cue shows, e.g. ``"EILEEN COLLINS"`` or ``"Grace Hopper"``.
    """

    kind: str
    box: tuple[int, int, int, int]
    label: str = ""


@dataclass
class Scene:
    """A generated image and its ground truth.

    Attributes:
        image: ``(H, W, 3)`` uint8 RGB.
        cues: the cues it contains.
        index: position in the corpus.
        layout: the scene template (e.g. ``"portrait"``, ``"storefront"``).
    """

    image: np.ndarray = field(repr=False)
    cues: list[Cue]
    index: int
    layout: str

    def kinds(self) -> set[str]:
        """The cue kinds present."""
        return {c.kind for c in self.cues}

    def boxes(self, kinds: Any) -> list[tuple[int, int, int, int]]:
        """Boxes of the cues whose kind is in ``kinds``."""
        kinds = set(kinds)
        return [c.box for c in self.cues if c.kind in kinds]


@dataclass
class SceneCorpus:
    """A generated corpus: scenes, the target concept and the gallery of known faces.

    Attributes:
        name: ``"celebrity"`` or ``"brand"``.
        target: the abstract privacy target in words.
        scenes: the scenes in order.
        kinds: the cue kinds this corpus seeds.
        gallery: ``{identity: [face images]}`` that a study may give a face-matching
            encoder (the celebrity corpus supplies both shipped faces; empty for brands).
        provenance: seed, size, generator version and a hash of all pixels.
    """

    name: str
    target: str
    scenes: list[Scene]
    kinds: tuple[str, ...]
    gallery: dict[str, list[np.ndarray]] = field(default_factory=dict, repr=False)
    provenance: dict[str, Any] = field(default_factory=dict)

    @property
    def images(self) -> list[np.ndarray]:
        """The scene images in order."""
        return [s.image for s in self.scenes]

    def __len__(self) -> int:
        return len(self.scenes)

    def cue_table(self):
        """One row per scene, one boolean column per cue kind (a DataFrame)."""
        import pandas as pd

        return pd.DataFrame([{"scene": s.index, "layout": s.layout,
                              **{k: k in s.kinds() for k in self.kinds}} for s in self.scenes])

    def cue_regions(self, kinds: Any):
        """The ground-truth boxes of ``kinds`` as a detector (a
        :class:`~privlab.datasets.scene_cues.CueRegions`)."""
        from privlab.datasets.scene_cues import CueRegions

        return CueRegions(self, kinds)

    def cue_blackout(self, kinds: Any, *, dilate: int = 2, name: str | None = None):
        """A sanitizer that blacks out ``kinds`` and misses the rest (see
        :func:`~privlab.datasets.scene_cues.cue_blackout`)."""
        from privlab.datasets.scene_cues import cue_blackout

        return cue_blackout(self, kinds, dilate=dilate, name=name)


# ----------------------------------------------------------------------------------
# Assets: shipped faces, fonts, drawn glyphs
# ----------------------------------------------------------------------------------

@lru_cache(maxsize=1)
def shipped_faces() -> dict[str, np.ndarray]:
    """Head-and-shoulders crops of the two real faces that installed packages ship.

    Returns:
        ``{"Eileen Collins": array, "Grace Hopper": array}``, uint8 RGB crops from
        ``skimage.data.astronaut()`` and matplotlib's ``sample_data/grace_hopper.jpg``.
    """
    from matplotlib import cbook
    from PIL import Image
    from skimage import data

    astronaut = data.astronaut()
    with Image.open(cbook.get_sample_data("grace_hopper.jpg")) as im:
        hopper = np.asarray(im.convert("RGB"))
    return {CELEBRITY_TARGET: np.ascontiguousarray(astronaut[20:220, 140:310]),
            OTHER_PERSON: np.ascontiguousarray(hopper[70:390, 130:400])}


@lru_cache(maxsize=8)
def _font(size: int, bold: bool = True):
    import matplotlib
    from PIL import ImageFont

    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(Path(matplotlib.get_data_path()) / "fonts" / "ttf" / name), size)


def draw_logo(size: int) -> np.ndarray:
    """The fictional brand's logo: an original glyph drawn by privlab.

    A red rounded tile with a golden ring and a golden diagonal bolt through it.

    Args:
        size: side in pixels (at least 8).

    Returns:
        ``(size, size, 3)`` uint8 RGB.

    Raises:
        ValueError: ``size`` below 8.

    Example:
        >>> draw_logo(16).shape
        (16, 16, 3)
    """
    from PIL import Image, ImageDraw

    if not isinstance(size, (int, np.integer)) or size < 8:
        raise invalid("size", "draw_logo", "an int of at least 8", size)
    big = int(size) * 4
    tile = Image.new("RGB", (big, big), (255, 255, 255))
    d = ImageDraw.Draw(tile)
    d.rounded_rectangle([0, 0, big - 1, big - 1], radius=big // 5, fill=(200, 24, 30))
    r = big * 0.32
    c = big / 2
    d.ellipse([c - r, c - r, c + r, c + r], outline=(255, 196, 20), width=max(2, big // 10))
    bolt = [(c + 0.05 * big, 0.12 * big), (0.38 * big, 0.55 * big), (0.52 * big, 0.55 * big),
            (c - 0.05 * big, 0.88 * big), (0.64 * big, 0.42 * big), (0.50 * big, 0.42 * big)]
    d.polygon(bolt, fill=(255, 196, 20))
    return np.asarray(tile.resize((int(size), int(size)), Image.LANCZOS))


def _background(rng: np.random.Generator, w: int, h: int, indoor: bool = True) -> np.ndarray:
    top = rng.integers(90, 230, 3)
    bottom = np.clip(top - rng.integers(20, 70, 3), 0, 255)
    t = np.linspace(0.0, 1.0, h)[:, None, None]
    img = (top[None, None, :] * (1 - t) + bottom[None, None, :] * t) * np.ones((1, w, 1))
    if indoor:  # a floor band
        floor = int(h * rng.uniform(0.78, 0.86))
        img[floor:] = rng.integers(60, 140, 3)
    noise = rng.normal(0, 3.0, img.shape)
    return np.clip(img + noise, 0, 255).astype(np.uint8)


def _paste(canvas: np.ndarray, patch: np.ndarray, x: int, y: int) -> tuple[int, int, int, int]:
    """Paste ``patch`` with its top-left corner at (x, y), cropped to the canvas.

    Returns the box actually covered, so a cue's ground truth never extends off-canvas.
    """
    h, w = patch.shape[:2]
    H, W = canvas.shape[:2]
    x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + w, W), min(y + h, H)
    if x1 > x0 and y1 > y0:
        canvas[y0:y1, x0:x1] = patch[y0 - y:y1 - y, x0 - x:x1 - x]
    return (x0, y0, x1, y1)


def _portrait(face: np.ndarray, height: int, rng: np.random.Generator) -> np.ndarray:
    from PIL import Image, ImageEnhance

    im = Image.fromarray(face)
    width = int(round(face.shape[1] * height / face.shape[0]))
    im = im.resize((width, height), Image.BICUBIC)
    if rng.random() < 0.5:
        im = im.transpose(Image.FLIP_LEFT_RIGHT)
    im = ImageEnhance.Brightness(im).enhance(float(rng.uniform(0.85, 1.15)))
    return np.asarray(im)


def _text_patch(text: str, size: int, fg, bg, pad: int = 6) -> np.ndarray:
    from PIL import Image, ImageDraw

    # Words are drawn one by one with a wide gap, so OCR reads them as separate words.
    font = _font(size)
    words = text.split()
    boxes = [font.getbbox(w) for w in words]
    gap = int(size * 1.0)
    top = min(b[1] for b in boxes)
    bottom = max(b[3] for b in boxes)
    width = sum(b[2] - b[0] for b in boxes) + gap * (len(words) - 1)
    im = Image.new("RGB", (width + 2 * pad, bottom - top + 2 * pad), tuple(int(v) for v in bg))
    draw = ImageDraw.Draw(im)
    x = pad
    for word, (x0, _, x1, _) in zip(words, boxes):
        draw.text((x - x0, pad - top), word, font=font, fill=tuple(int(v) for v in fg))
        x += x1 - x0 + gap
    return np.asarray(im)


def _prop_cup(rng, h: int) -> np.ndarray:
    """A plain mug (neutral prop, no cue)."""
    from PIL import Image, ImageDraw

    w = int(h * 0.8)
    im = Image.new("RGB", (w, h), (0, 0, 0))
    d = ImageDraw.Draw(im)
    colour = tuple(int(v) for v in rng.integers(40, 220, 3))
    im.paste(Image.new("RGB", (w, h), tuple(int(v) for v in rng.integers(120, 200, 3))))
    d.rectangle([w * 0.15, h * 0.2, w * 0.7, h * 0.95], fill=colour)
    d.ellipse([w * 0.6, h * 0.35, w * 0.95, h * 0.75], outline=colour, width=max(2, h // 12))
    return np.asarray(im)


def _poster(h: int) -> np.ndarray:
    """A framed space poster built from ``skimage.data.rocket()`` (a context cue)."""
    from PIL import Image
    from skimage import data

    rocket = Image.fromarray(data.rocket())
    w = int(h * rocket.width / rocket.height)
    inner = np.asarray(rocket.resize((w, h), Image.BICUBIC))
    framed = np.full((h + 8, w + 8, 3), 30, dtype=np.uint8)
    framed[4:-4, 4:-4] = inner
    return framed


def _fries(h: int) -> np.ndarray:
    from PIL import Image, ImageDraw

    w = int(h * 0.75)
    im = Image.new("RGB", (w, h), (235, 230, 220))
    d = ImageDraw.Draw(im)
    for k in range(7):
        x = w * (0.18 + 0.1 * k)
        d.rectangle([x, h * (0.05 + 0.04 * (k % 3)), x + w * 0.07, h * 0.6], fill=(246, 200, 60))
    d.polygon([(w * 0.1, h * 0.4), (w * 0.9, h * 0.4), (w * 0.8, h), (w * 0.2, h)],
              fill=(205, 30, 36))
    return np.asarray(im)


def _burger(h: int) -> np.ndarray:
    from PIL import Image, ImageDraw

    w = int(h * 1.3)
    im = Image.new("RGB", (w, h), (235, 230, 220))
    d = ImageDraw.Draw(im)
    d.chord([w * 0.05, 0, w * 0.95, h * 0.9], 180, 360, fill=(214, 150, 70))
    d.rectangle([w * 0.05, h * 0.42, w * 0.95, h * 0.52], fill=(70, 160, 60))
    d.rectangle([w * 0.07, h * 0.52, w * 0.93, h * 0.68], fill=(100, 55, 30))
    d.rectangle([w * 0.06, h * 0.68, w * 0.94, h * 0.74], fill=(250, 205, 40))
    d.rounded_rectangle([w * 0.05, h * 0.74, w * 0.95, h * 0.95], radius=h // 8, fill=(214, 150, 70))
    return np.asarray(im)


# ----------------------------------------------------------------------------------
# Corpora
# ----------------------------------------------------------------------------------

def _check_size(n: Any, caller: str) -> int:
    if not isinstance(n, (int, np.integer)) or isinstance(n, bool) or n < 1:
        raise invalid("n", caller, "a positive int", n)
    return int(n)


def _provenance(name: str, n: int, seed: int, scenes: list[Scene]) -> dict[str, Any]:
    pixels = bytes_hash(b"".join(s.image.tobytes() for s in scenes), 16)
    return {"corpus": name, "n": n, "seed": seed, "generator": GENERATOR_VERSION,
            "pixels_sha256": pixels}


def celebrity_scenes(n: int = 30, seed: int = 0) -> SceneCorpus:
    """Scenes showing Eileen Collins (``skimage.data.astronaut()``), with ground truth.

    Every scene has the target's portrait (cue ``target_face``). By a fixed cycle over
    the index, about half also carry a name caption, a third a second person (Grace
    Hopper, ``other_face``) and a third a space poster, so that each cue kind occurs
    both with and without the others.

    Args:
        n: number of scenes.
        seed: random seed (positions, scales, colours, mirroring).

    Returns:
        A :class:`SceneCorpus` with the gallery ``{name: [face crop]}`` of both people.

    Raises:
        ValueError: ``n`` not a positive int.

    Example:
        >>> corpus = celebrity_scenes(3)
        >>> len(corpus), corpus.scenes[0].image.shape
        (3, (360, 480, 3))
    """
    n = _check_size(n, "celebrity_scenes")
    faces = shipped_faces()
    W, H = CANVAS
    scenes = []
    for i in range(n):
        rng = np.random.default_rng([seed, i])
        img = _background(rng, W, H)
        cues: list[Cue] = []
        has_caption = i % 2 == 0
        has_other = i % 3 == 1
        has_poster = i % 3 == 2
        target_left = bool(rng.random() < 0.5)
        # Slots: left [12, 228), right [252, 468); caption band y in [300, 352).
        slot = (12, 228) if target_left else (252, 468)
        other = (252, 468) if target_left else (12, 228)
        height = int(rng.integers(150, 230))
        portrait = _portrait(faces[CELEBRITY_TARGET], height, rng)
        pw = portrait.shape[1]
        x = int(rng.integers(slot[0], max(slot[0] + 1, slot[1] - pw)))
        y = int(rng.integers(40, 290 - height + 1))
        cues.append(Cue("target_face", _paste(img, portrait, x, y), CELEBRITY_TARGET))
        if has_caption:
            text = CELEBRITY_TARGET.upper()
            patch = _text_patch(text, int(rng.integers(22, 28)), (255, 255, 255), (20, 20, 60))
            cx = int(np.clip(x + pw // 2 - patch.shape[1] // 2, 4, W - patch.shape[1] - 4))
            cues.append(Cue("caption", _paste(img, patch, cx, 306), text))
        if has_other:
            oh = int(rng.integers(150, 220))
            second = _portrait(faces[OTHER_PERSON], oh, rng)
            ox = int(rng.integers(other[0], max(other[0] + 1, other[1] - second.shape[1])))
            oy = int(rng.integers(40, 290 - oh + 1))
            cues.append(Cue("other_face", _paste(img, second, ox, oy), OTHER_PERSON))
        elif has_poster:
            ph = int(rng.integers(100, 140))
            poster = _poster(ph)
            ox = int(rng.integers(other[0], max(other[0] + 1, other[1] - poster.shape[1])))
            cues.append(Cue("poster", _paste(img, poster, ox, 40), "space shuttle poster"))
        else:
            cup = _prop_cup(rng, int(rng.integers(60, 90)))
            ox = int(rng.integers(other[0], other[1] - cup.shape[1]))
            _paste(img, cup, ox, 290 - cup.shape[0])
        scenes.append(Scene(img, cues, i, "portrait"))
    gallery = {name: [face] for name, face in faces.items()}
    return SceneCorpus("celebrity", CELEBRITY_TARGET, scenes, CELEBRITY_KINDS, gallery,
                       _provenance("celebrity", n, seed, scenes))


def _storefront(rng, i: int) -> Scene:
    W, H = CANVAS
    img = _background(rng, W, H, indoor=False)
    wall = rng.integers(150, 215, 3)
    img[70:330, 30:450] = wall
    cues: list[Cue] = []
    # Sign band: logo on the left, name on the right, separated by a margin.
    img[80:150, 40:440] = (40, 40, 40)
    logo = draw_logo(56)
    cues.append(Cue("logo", _paste(img, logo, 52, 87), "logo"))
    name = _text_patch(BRAND_NAME, 40, (255, 205, 40), (40, 40, 40))
    cues.append(Cue("brand_text", _paste(img, name, 140, 115 - name.shape[0] // 2), BRAND_NAME))
    # Door and windows (neutral); a small logo sticker on the door.
    img[190:330, 200:280] = (90, 60, 40)
    img[180:260, 60:170] = (170, 200, 220)
    img[180:260, 310:420] = (170, 200, 220)
    small = draw_logo(22)
    cues.append(Cue("small_logo", _paste(img, small, 229, 205), "logo"))
    return Scene(img, cues, i, "storefront")


def _table(rng, i: int) -> Scene:
    W, H = CANVAS
    img = _background(rng, W, H)
    img[230:360] = (150, 110, 70)  # table top
    cues: list[Cue] = []
    # Cup with the logo (cup itself neutral), bag with small logo, fries and a burger.
    cup_h = int(rng.integers(120, 150))
    cup = np.full((cup_h, int(cup_h * 0.7), 3), 245, dtype=np.uint8)
    cx = int(rng.integers(20, 60))
    _paste(img, cup, cx, 250 - cup_h)
    lg = int(cup.shape[1] * 0.6)
    cues.append(Cue("logo", _paste(img, draw_logo(lg), cx + (cup.shape[1] - lg) // 2,
                                    250 - cup_h + (cup_h - lg) // 2), "logo"))
    fries = _fries(int(rng.integers(100, 130)))
    fx = 170
    cues.append(Cue("food", _paste(img, fries, fx, 300 - fries.shape[0]), "fries"))
    burger = _burger(int(rng.integers(70, 90)))
    bx = 310
    cues.append(Cue("food", _paste(img, burger, bx, 330 - burger.shape[0]), "burger"))
    bag = np.full((110, 90, 3), (180, 140, 95), dtype=np.uint8)
    _paste(img, bag, 360, 120)
    cues.append(Cue("small_logo", _paste(img, draw_logo(24), 393, 150), "logo"))
    if i % 2 == 0:  # a receipt-like card naming the brand
        card = _text_patch(BRAND_NAME, 26, (200, 24, 30), (250, 250, 245))
        cues.append(Cue("brand_text", _paste(img, card, 150, 40), BRAND_NAME))
    return Scene(img, cues, i, "table")


def _street_sign(rng, i: int) -> Scene:
    W, H = CANVAS
    img = _background(rng, W, H, indoor=False)
    px = int(rng.integers(60, 120))
    img[150:360, px:px + 14] = (90, 90, 95)  # pole
    cues: list[Cue] = []
    panel = np.full((150, 150, 3), (250, 250, 250), dtype=np.uint8)
    _paste(img, panel, px - 68, 20)
    cues.append(Cue("logo", _paste(img, draw_logo(110), px - 48, 40), "logo"))
    name = _text_patch(BRAND_NAME, 34, (255, 255, 255), (200, 24, 30))
    cues.append(Cue("brand_text", _paste(img, name, 220, 60), BRAND_NAME))
    arrow = _text_patch("DRIVE THRU", 22, (20, 20, 20), (240, 240, 240))
    _paste(img, arrow, 230, 150)  # neutral words: not a brand cue
    if i % 2 == 1:
        fries = _fries(90)
        cues.append(Cue("food", _paste(img, fries, 330, 240), "fries"))
    return Scene(img, cues, i, "street_sign")


def brand_scenes(n: int = 30, seed: int = 0) -> SceneCorpus:
    """Scenes of the fictional brand QUIKBITE: storefronts, tables and street signs.

    Every scene shows the brand's logo glyph (:func:`draw_logo`); the name in text, small
    logo stickers and fries-like or burger-like props are seeded per layout.

    Args:
        n: number of scenes.
        seed: random seed.

    Returns:
        A :class:`SceneCorpus` (no face gallery).

    Raises:
        ValueError: ``n`` not a positive int.

    Example:
        >>> corpus = brand_scenes(3)
        >>> [s.layout for s in corpus.scenes]
        ['storefront', 'table', 'street_sign']
    """
    n = _check_size(n, "brand_scenes")
    scenes = []
    for i in range(n):
        rng = np.random.default_rng([seed, 1000 + i])
        maker = (_storefront, _table, _street_sign)[i % 3]
        scenes.append(maker(rng, i))
    return SceneCorpus("brand", f"the brand {BRAND_NAME}", scenes, BRAND_KINDS, {},
                       _provenance("brand", n, seed, scenes))


def cue_lookup(corpus: SceneCorpus) -> dict[str, Scene]:
    """``{content hash of the image: scene}``, so a sanitizer can find a scene's cues.

    Example:
        >>> corpus = celebrity_scenes(2)
        >>> len(cue_lookup(corpus))
        2
    """
    return {content_hash(s.image): s for s in corpus.scenes}


__all__ = ["BRAND_KINDS", "BRAND_NAME", "CELEBRITY_KINDS", "CELEBRITY_TARGET", "Cue",
           "OTHER_PERSON", "Scene", "SceneCorpus", "brand_scenes", "celebrity_scenes",
           "cue_lookup", "draw_logo", "shipped_faces"]
