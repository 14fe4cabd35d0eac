"""Real photos that packages ship, and compositions of them for the image sanitizer tests.

People: ``skimage.data.astronaut()`` (Eileen Collins) and matplotlib's
``grace_hopper.jpg``; background: scikit-learn's ``china.jpg``; no person: skimage's
``chelsea`` (a cat) and ``coffee``; a logo: ``skimage.data.logo()``. Name cards are
rendered with matplotlib's DejaVu Sans Bold.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np

Box = tuple[int, int, int, int]


@lru_cache(maxsize=None)
def _grace_hopper() -> np.ndarray:
    import matplotlib
    from PIL import Image

    path = Path(matplotlib.get_data_path()) / "sample_data" / "grace_hopper.jpg"
    return np.asarray(Image.open(path).convert("RGB"))


@lru_cache(maxsize=None)
def _china() -> np.ndarray:
    from sklearn.datasets import load_sample_images

    return load_sample_images().images[0]


def astronaut() -> np.ndarray:
    from skimage import data

    return data.astronaut()


def grace_hopper() -> np.ndarray:
    return _grace_hopper().copy()


def china() -> np.ndarray:
    return _china().copy()


def resize(rgb: np.ndarray, width: int, height: int) -> np.ndarray:
    import cv2

    interp = cv2.INTER_AREA if width < rgb.shape[1] else cv2.INTER_CUBIC
    return cv2.resize(rgb, (width, height), interpolation=interp)


def to_height(rgb: np.ndarray, height: int) -> np.ndarray:
    return resize(rgb, round(rgb.shape[1] * height / rgb.shape[0]), height)


def jpeg(rgb: np.ndarray, quality: int) -> np.ndarray:
    """The image after a JPEG round trip at ``quality``."""
    from PIL import Image

    buf = io.BytesIO()
    Image.fromarray(rgb).save(buf, format="JPEG", quality=quality)
    return np.asarray(Image.open(io.BytesIO(buf.getvalue())).convert("RGB"))


def name_card(text: str, size: int = 28) -> np.ndarray:
    """Dark bold text on an off-white card, 12 px margins across and 10 px down."""
    import matplotlib
    from PIL import Image, ImageDraw, ImageFont

    font = ImageFont.truetype(str(Path(matplotlib.get_data_path()) / "fonts" / "ttf"
                                  / "DejaVuSans-Bold.ttf"), size)
    left, top, right, bottom = font.getbbox(text)
    card = Image.new("RGB", (right - left + 24, bottom - top + 20), (250, 250, 245))
    ImageDraw.Draw(card).text((12 - left, 10 - top), text, font=font, fill=(20, 20, 20))
    return np.asarray(card)


@dataclass
class Scene:
    """A composition and where its parts are (boxes ``(x0, y0, x1, y1)``)."""

    image: np.ndarray
    people: dict[str, Box] = field(default_factory=dict)  # each pasted portrait
    bodies: dict[str, Box] = field(default_factory=dict)  # clothing below each face
    cards: dict[str, Box] = field(default_factory=dict)  # name cards
    background: list[Box] = field(default_factory=list)  # untouched parts of china.jpg
    names: tuple[str, ...] = ("EILEEN", "COLLINS", "GRACE", "HOPPER")

    def scaled(self, factor: float, quality: int | None = None) -> "Scene":
        """The same scene resized by ``factor`` (and JPEG-compressed at ``quality``)."""
        h, w = self.image.shape[:2]
        image = resize(self.image, round(w * factor), round(h * factor))
        if quality is not None:
            image = jpeg(image, quality)

        def s(box: Box) -> Box:
            return tuple(int(round(v * factor)) for v in box)

        return Scene(image, {k: s(b) for k, b in self.people.items()},
                     {k: s(b) for k, b in self.bodies.items()},
                     {k: s(b) for k, b in self.cards.items()}, [s(b) for b in self.background],
                     self.names)


def _paste(canvas: np.ndarray, patch: np.ndarray, x: int, y: int) -> Box:
    h, w = patch.shape[:2]
    canvas[y:y + h, x:x + w] = patch
    return (x, y, x + w, y + h)


def people_scene() -> Scene:
    """Eileen Collins and Grace Hopper, each under a name card, in front of china.jpg.

    960 x 640; the portraits are 360 and 380 px tall; the bodies are the spacesuit and
    the uniform below the faces (measured on the originals and scaled).
    """
    canvas = resize(china(), 960, 640)
    a = to_height(astronaut(), 360)  # 360 x 360: scale 360/512
    g = to_height(grace_hopper(), 380)  # 324 x 380: scale 380/600
    scene = Scene(canvas)
    scene.people["collins"] = _paste(canvas, a, 40, 280)
    scene.people["hopper"] = _paste(canvas, g, 560, 260)
    # clothing: astronaut suit x 60..300, y 300..512 of the original (512 px); Hopper's
    # uniform x 130..470, y 400..600 of the original (600 px)
    sa, sg = 360 / 512, 380 / 600
    scene.bodies["collins"] = (40 + round(60 * sa), 280 + round(300 * sa),
                               40 + round(300 * sa), 280 + round(512 * sa) - 4)
    scene.bodies["hopper"] = (560 + round(130 * sg), 260 + round(400 * sg),
                              560 + round(470 * sg), 260 + round(600 * sg) - 4)
    scene.cards["collins"] = _paste(canvas, name_card("EILEEN COLLINS"), 60, 220)
    scene.cards["hopper"] = _paste(canvas, name_card("GRACE HOPPER"), 580, 200)
    scene.background = [(0, 0, 960, 180), (420, 300, 540, 640)]  # sky and temple, trees
    return scene


def cameraman() -> np.ndarray:
    from skimage import data

    return np.repeat(data.camera()[:, :, None], 3, axis=2)


def crowd_scene() -> Scene:
    """Three people in one frame: the cameraman, Eileen Collins and Grace Hopper, smaller
    than in :func:`people_scene` (280, 240 and 300 px tall), on china.jpg, no cards."""
    canvas = resize(china(), 960, 640)
    scene = Scene(canvas)
    # clothing boxes on the originals: the cameraman's coat, the spacesuit, the uniform
    parts = [("cameraman", cameraman(), 280, (20, 300, 150, 500), (20, 340)),
             ("collins", astronaut(), 240, (60, 300, 300, 508), (330, 380)),
             ("hopper", grace_hopper(), 300, (130, 400, 470, 596), (610, 320))]
    for name, photo, height, (bx0, by0, bx1, by1), (x, y) in parts:
        f = height / photo.shape[0]
        scene.people[name] = _paste(canvas, to_height(photo, height), x, y)
        scene.bodies[name] = (x + round(bx0 * f), y + round(by0 * f), x + round(bx1 * f),
                              y + round(by1 * f))
    scene.background = [(0, 0, 960, 150)]
    return scene


def black_share(rgb: np.ndarray, box: Box, level: int = 8) -> float:
    """Share of the box's pixels with every channel at most ``level``."""
    x0, y0, x1, y1 = box
    crop = rgb[y0:y1, x0:x1]
    return float((crop.max(axis=2) <= level).mean())


def changed_share(a: np.ndarray, b: np.ndarray, box: Box | None = None, tol: int = 0) -> float:
    """Share of pixels (in ``box``) where ``a`` and ``b`` differ by more than ``tol``."""
    if box is not None:
        x0, y0, x1, y1 = box
        a, b = a[y0:y1, x0:x1], b[y0:y1, x0:x1]
    return float((np.abs(a.astype(int) - b.astype(int)).max(axis=2) > tol).mean())


def read_names(rgb: np.ndarray, names=("EILEEN", "COLLINS", "GRACE", "HOPPER")) -> set[str]:
    """The names that rapidocr reads in the image (it may run words together:
    "GRACEHOPPER"), from readings of confidence 0.5 or more."""
    from privlab.vision.ocr import filter_words, read_text

    text = "".join(r.text.upper().replace(" ", "") for r in filter_words(read_text(rgb), 0.5, 3))
    return {n for n in names if n in text}


def face_boxes(rgb: np.ndarray, threshold: float = 0.6) -> list[Box]:
    from privlab.vision.faces import detect_faces

    return [f.box for f in detect_faces(rgb, threshold)]


def remaining_faces(rgb: np.ndarray, threshold: float = 0.6) -> list[Box]:
    """Faces left after a sanitizer: YuNet's, less those mostly on pure black (a chin or
    a hand beside a black box makes YuNet fire; see privlab.vision.faces.usable_faces)."""
    from privlab.vision.faces import usable_faces

    return [f.box for f in usable_faces(rgb, threshold, min_size=0)]
