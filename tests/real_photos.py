"""Realistic compositions of real photos that packages ship, for the image member tests.

Faces: head crops of ``skimage.data.astronaut()`` (Eileen Collins) and matplotlib's
``grace_hopper.jpg`` (Grace Hopper), downscaled so that faces are 20-60 pixels wide,
some rotated, pasted into sklearn's ``china.jpg`` / ``flower.jpg`` and JPEG re-encoded,
several people per frame; name cards rendered in a real font. Brands: the scikit-image
logo (``skimage.data.logo()``) warped in perspective onto the same photos, beside a
shop sign. Placebos: black boxes of the same sizes where there is no face, text or logo.
"""

from __future__ import annotations

import io
from functools import lru_cache
from pathlib import Path

import numpy as np

TARGET, OTHER = "Eileen Collins", "Grace Hopper"
BRAND = "scikit-image"


def jpeg(rgb: np.ndarray, quality: int = 85) -> np.ndarray:
    from PIL import Image

    buffer = io.BytesIO()
    Image.fromarray(rgb).save(buffer, "JPEG", quality=quality)
    return np.asarray(Image.open(buffer).convert("RGB"))


@lru_cache(maxsize=1)
def backgrounds() -> tuple[np.ndarray, np.ndarray]:
    from sklearn.datasets import load_sample_images

    china, flower = load_sample_images().images
    return np.ascontiguousarray(china), np.ascontiguousarray(flower)


@lru_cache(maxsize=1)
def heads() -> dict[str, np.ndarray]:
    """Head-and-shoulders crops with the face box inside each crop."""
    from matplotlib import cbook
    from PIL import Image
    from skimage import data

    with Image.open(cbook.get_sample_data("grace_hopper.jpg")) as im:
        hopper = np.asarray(im.convert("RGB"))
    return {TARGET: np.ascontiguousarray(data.astronaut()[30:230, 150:300]),
            OTHER: np.ascontiguousarray(hopper[90:380, 140:400])}


# The face's width as a share of each crop's width (YuNet on the crops: 96/150, 186/260).
FACE_SHARE = {TARGET: 0.60, OTHER: 0.70}


def head(who: str, face_px: int, angle: float = 0.0) -> np.ndarray:
    """A head crop scaled so the face is about ``face_px`` wide, rotated by ``angle``."""
    import cv2

    crop = heads()[who]
    scale = face_px / (FACE_SHARE[who] * crop.shape[1])
    out = cv2.resize(crop, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    if angle:
        h, w = out.shape[:2]
        matrix = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
        out = cv2.warpAffine(out, matrix, (w, h), borderMode=cv2.BORDER_REFLECT)
    return out


def paste(frame: np.ndarray, patch: np.ndarray, x: int, y: int) -> tuple[int, int, int, int]:
    h, w = patch.shape[:2]
    frame[y:y + h, x:x + w] = patch
    return (x, y, x + w, y + h)


@lru_cache(maxsize=4)
def _font(size: int):
    import matplotlib
    from PIL import ImageFont

    return ImageFont.truetype(str(Path(matplotlib.get_data_path()) / "fonts" / "ttf"
                                  / "DejaVuSans-Bold.ttf"), size)


def card(text: str, size: int = 22) -> np.ndarray:
    """A white name card with dark text (a caption, a place card, a poster title)."""
    from PIL import Image, ImageDraw

    font = _font(size)
    x0, y0, x1, y1 = font.getbbox(text)
    w, h = x1 - x0 + 24, y1 - y0 + 18
    im = Image.new("RGB", (w, h), (245, 245, 240))
    ImageDraw.Draw(im).text((12 - x0, 9 - y0), text, fill=(20, 20, 30), font=font)
    return np.asarray(im)


# Frames: (background, [(who, face_px, angle, x, y)], [(text, x, y)]). Frame 4's rotated
# target is missed by the Haar cascade; frame 5's Grace Hopper, rotated 40 degrees, by
# YuNet (score 0.35, under the face sanitizers' 0.5) but not by dlib's HOG detector.
FRAMES = [
    (0, [(TARGET, 40, 0, 60, 120), (OTHER, 36, 0, 300, 110)], [("EILEEN COLLINS", 40, 340)]),
    (1, [(TARGET, 30, 0, 100, 60), (OTHER, 28, 0, 420, 80)], []),
    (0, [(OTHER, 44, 0, 80, 100), (TARGET, 26, 0, 420, 140)], [("GRACE HOPPER", 300, 360)]),
    (1, [(TARGET, 52, 0, 260, 90)], [("Commander Collins", 40, 360)]),
    (0, [(OTHER, 40, 0, 480, 60), (TARGET, 44, 30, 120, 150)], []),
    (1, [(OTHER, 52, 40, 60, 150), (TARGET, 46, 0, 380, 120)], []),
]
# Small faces (20-23 pixels, under SFace's 24-pixel minimum), several per frame.
SMALL_FRAMES = [
    (0, [(TARGET, 21, 0, 60, 140), (OTHER, 20, 0, 200, 150), (TARGET, 22, 0, 400, 120)], []),
    (1, [(OTHER, 20, 0, 80, 90), (TARGET, 23, 0, 300, 100)], []),
    (0, [(TARGET, 22, 0, 250, 160), (OTHER, 19, 0, 480, 140)], []),
]


# Every face 22-23 pixels (under SFace's 24): after a face blur of radius 6 YuNet finds
# a 26 x 31 smudge at score 0.85 where the second face was.
BLUR_FRAME = (0, [(TARGET, 22, 0, 56, 97), (OTHER, 22, 0, 196, 43), (TARGET, 23, 0, 346, 226),
                  (OTHER, 22, 0, 509, 198)], [])


def captioned(text: str, size: int, bg: int = 0, x: int = 200, who: str = TARGET) -> np.ndarray:
    """A face with a small caption card touching its chin (OCR jitter after a face blackout)."""
    frame = backgrounds()[bg].copy()
    face = paste(frame, head(who, 44), x, 120)
    paste(frame, card(text, size), x - 20, face[3] - 2)
    return jpeg(frame, 85)


def face_corpus(frames=FRAMES, quality: int = 85) -> tuple[list[np.ndarray], list[list], list[list]]:
    """``(images, face boxes per image (paste boxes), text boxes per image)``."""
    out, face_boxes, text_boxes = [], [], []
    for bg, people, texts in frames:
        frame = backgrounds()[bg].copy()
        faces = [paste(frame, head(who, px, angle), x, y) for who, px, angle, x, y in people]
        words = [paste(frame, card(text), x, y) for text, x, y in texts]
        out.append(jpeg(frame, quality))
        face_boxes.append(faces)
        text_boxes.append(words)
    return out, face_boxes, text_boxes


def overlaps(a, b, margin: int = 8) -> bool:
    return not (a[2] + margin <= b[0] or b[2] + margin <= a[0] or a[3] + margin <= b[1]
                or b[3] + margin <= a[1])


def placebo_boxes(shape, sizes, avoid, seed: int = 0) -> list[tuple[int, int, int, int]]:
    """Boxes of the given ``(w, h)`` sizes placed where they overlap nothing in ``avoid``."""
    rng = np.random.default_rng(seed)
    h, w = shape[:2]
    placed: list[tuple[int, int, int, int]] = []
    for bw, bh in sizes:
        for _ in range(2000):
            x, y = int(rng.integers(0, max(1, w - bw))), int(rng.integers(0, max(1, h - bh)))
            box = (x, y, x + bw, y + bh)
            if not any(overlaps(box, other) for other in list(avoid) + placed):
                placed.append(box)
                break
        else:
            raise RuntimeError(f"no room for a {bw}x{bh} placebo box")
    return placed


def placebo_of(images, sanitizer, cues) -> list[np.ndarray]:
    """Each image with black boxes of the sizes ``sanitizer`` paints, placed away from ``cues``."""
    import cv2

    out = []
    for k, image in enumerate(images):
        mask = sanitizer.mask(image).astype(np.uint8)
        count, _, stats, _ = cv2.connectedComponentsWithStats(mask)
        sizes = [(int(stats[i][2]), int(stats[i][3])) for i in range(1, count)]
        out.append(blackout(image, placebo_boxes(image.shape, sizes, cues[k], seed=k)))
    return out


def blackout(image: np.ndarray, boxes) -> np.ndarray:
    out = image.copy()
    for x0, y0, x1, y1 in boxes:
        out[max(0, y0):y1, max(0, x0):x1] = 0
    return out


def warp_logo(frame: np.ndarray, width: int, corners_shift, x: int, y: int) -> tuple:
    """The scikit-image logo warped in perspective onto ``frame`` at ``(x, y)``."""
    import cv2
    from skimage import data

    from privlab.vision.images import as_rgb

    rgba = data.logo()
    logo, alpha = as_rgb(rgba), rgba[:, :, 3]
    h0, w0 = logo.shape[:2]
    scale = width / w0
    src = np.float32([[0, 0], [w0, 0], [w0, h0], [0, h0]])
    dst = np.float32([[0, 0], [width, 0], [width, h0 * scale], [0, h0 * scale]])
    dst = dst + np.float32(corners_shift) + np.float32([x, y])
    matrix = cv2.getPerspectiveTransform(src, dst)
    mask = cv2.warpPerspective(alpha, matrix, (frame.shape[1], frame.shape[0])) > 127
    warped = cv2.warpPerspective(logo, matrix, (frame.shape[1], frame.shape[0]))
    frame[mask] = warped[mask]
    ys, xs = np.nonzero(mask)
    return (int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1)


# Storefronts: (background, logo (width, corner shifts, x, y) or None, sign text, x, y).
# Some show the brand by its logo, some by its name on a sign only.
STOREFRONTS = [
    (0, (150, [[0, 0], [0, 12], [0, 0], [0, -8]], 60, 60), "OPEN DAILY 9-5", 330, 330),
    (1, None, "SCIKIT-IMAGE", 60, 340),
    (0, (100, [[0, 6], [0, 0], [0, 0], [0, 6]], 420, 250), "DRIVE THRU", 60, 80),
    (1, None, "scikit-image CAFE", 300, 80),
    (1, (170, [[0, 0], [10, 0], [0, 0], [-6, 0]], 80, 200), "HOT MEALS", 380, 80),
    (0, (120, [[6, 0], [-4, 6], [0, 0], [8, -4]], 400, 40), "FRESH COFFEE", 60, 340),
]


def brand_corpus(quality: int = 85) -> tuple[list[np.ndarray], list[list], list[list]]:
    """``(images, logo boxes per image, sign boxes per image)``."""
    out, logo_boxes, sign_boxes = [], [], []
    for bg, logo, text, tx, ty in STOREFRONTS:
        frame = backgrounds()[bg].copy()
        logo_boxes.append([warp_logo(frame, *logo)] if logo else [])
        sign_boxes.append([paste(frame, card(text, 26), tx, ty)])
        out.append(jpeg(frame, quality))
    return out, logo_boxes, sign_boxes
