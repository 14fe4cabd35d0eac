"""Logos: a gallery of brand marks found in a photo.

:func:`find_logos` scores EfficientNet-Lite0 windows against the gallery (or with a fitted
:class:`LogoHead`) and finds logos on real signs; :func:`match_logos` with its default
``method="sift"`` matches SIFT keypoints with RANSAC and finds only printed or pasted copies of
the artwork. Methods and measurements: ``docs/methods/images-logo-features.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Mapping
from typing import Any, Sequence

import numpy as np

from privlab.errors import invalid, wrong_type
from privlab.hashing import content_hash
from privlab.vision.images import as_rgb
from privlab.vision.logo_gallery import LogoGallery, load_logo_gallery
from privlab.vision.text_changes import box_iou

DEFAULT_MIN_INLIERS = 12
RATIO = 0.75  # Lowe's ratio test
RANSAC_PIXELS = 5.0
MAX_INSTANCES = 4  # copies of one gallery logo looked for in one photo
MAX_SIDE = 1600  # larger photos are searched at this longest side (boxes mapped back)
VIEW_SIDES = (240, 120)  # a large gallery logo is also described at these longest sides


@dataclass(frozen=True)
class LogoMatch:
    """A gallery logo found in a photo.

    Attributes:
        name: the gallery key (the brand).
        box: ``(x0, y0, x1, y1)`` in the photo's pixels, the bounding box of the logo's
            projected outline, clipped to the photo.
        inliers: keypoint matches consistent with the homography (the evidence);
            0 for a find by learned features.
        score: the evidence in [0, 1]: ``inliers / (inliers + min_inliers)`` for
            keypoints, the brand classifier's probability for learned features.
    """

    name: str
    box: tuple[int, int, int, int]
    inliers: int
    score: float = 0.0


# SIFT features by content hash: gallery logos are described once per process, and a
# photo searched twice in a row (the sanitizer, then a member) is described once.
_FEATURES: dict[str, tuple[np.ndarray, np.ndarray | None, float]] = {}
_FEATURES_LIMIT = 64


def _sift():
    import cv2

    return cv2.SIFT_create()


def _features(rgb: np.ndarray, *, upscale_small: bool) -> tuple[np.ndarray, np.ndarray | None, float]:
    """``(keypoint xy in original pixels (n, 2), descriptors (n, 128) or None, scale)``."""
    import cv2

    key = f"{content_hash(rgb)}-{int(upscale_small)}"
    if key in _FEATURES:
        return _FEATURES[key]
    grey = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
    side = max(grey.shape)
    scale = 1.0
    if side > MAX_SIDE:
        scale = MAX_SIDE / side
    elif upscale_small and side < 200:  # a small gallery logo gives too few keypoints
        scale = 200 / side
    if scale != 1.0:
        grey = cv2.resize(grey, (max(1, round(grey.shape[1] * scale)),
                                 max(1, round(grey.shape[0] * scale))),
                          interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC)
    points, desc = _sift().detectAndCompute(grey, None)
    xy = np.array([p.pt for p in points], dtype=np.float32).reshape(-1, 2) / scale
    out = (xy, desc, scale)
    if len(_FEATURES) >= _FEATURES_LIMIT:
        _FEATURES.pop(next(iter(_FEATURES)))
    _FEATURES[key] = out
    return out


def _views(logo: np.ndarray) -> list[np.ndarray]:
    """A gallery logo at its own size and reduced ones (a logo in a photo is often small,
    and the fine-scale keypoints of a large artwork have no counterpart there)."""
    import cv2

    views = [logo]
    side = max(logo.shape[:2])
    for target in VIEW_SIDES:
        if side > 1.4 * target:
            scale = target / side
            views.append(cv2.resize(logo, (max(1, round(logo.shape[1] * scale)),
                                           max(1, round(logo.shape[0] * scale))),
                                    interpolation=cv2.INTER_AREA))
    return views


def _plausible(quad: np.ndarray, logo_shape: tuple[int, int], image_shape: tuple[int, ...]) -> bool:
    """A projected outline that a real view of a planar logo could give."""
    import cv2

    if not np.all(np.isfinite(quad)):
        return False
    if not cv2.isContourConvex(quad.astype(np.float32).reshape(-1, 1, 2)):
        return False
    area = abs(cv2.contourArea(quad.astype(np.float32)))
    if area < 64:  # under 8 x 8 pixels
        return False
    if area > 4 * image_shape[0] * image_shape[1]:
        return False
    sides = np.linalg.norm(np.roll(quad, -1, axis=0) - quad, axis=1)
    if sides.min() < 1e-6 or sides.max() / sides.min() > 12:  # a sliver
        return False
    h, w = logo_shape
    ratio = area / float(h * w)
    return 1e-5 < ratio < 1e4


def _check_gallery(gallery: Any, caller: str) -> dict[str, list[np.ndarray]]:
    if not isinstance(gallery, Mapping):
        raise wrong_type("gallery", caller, "a mapping of brand name -> list of logo images",
                         gallery)
    out: dict[str, list[np.ndarray]] = {}
    for name, logos in gallery.items():
        if not isinstance(name, str) or not name.strip():
            raise invalid("gallery", caller, "keyed by non-empty brand names", name)
        if isinstance(logos, np.ndarray) or not hasattr(logos, "__len__") or len(logos) == 0:
            raise invalid("gallery", caller, "a mapping of name -> non-empty list of images",
                          f"{type(logos).__name__} for {name!r}", given_is_text=True)
        out[name] = [as_rgb(logo, "gallery", caller) for logo in logos]
    return out


def match_logos(image: Any, gallery: Mapping[str, Sequence[Any]], *,
                min_inliers: int = DEFAULT_MIN_INLIERS, method: str = "sift",
                threshold: float | None = None) -> list[LogoMatch]:
    """Every gallery logo found in ``image``, strongest evidence first.

    ``method="sift"`` (the default) finds a printed or pasted copy of the artwork but
    rarely a logo on a real sign; ``method="features"`` (:func:`find_logos`) finds those.

    Args:
        image: the photo, a PIL image or uint8 array.
        gallery: ``{brand name: [logo images]}``, clean pictures of the mark.
        min_inliers: RANSAC-consistent matches a logo needs (at least 4; 10–15 keeps
            chance matches out on natural photos).
        method: ``"sift"`` or ``"features"``.
        threshold: for ``"features"``, the cosine similarity a window needs (None:
            :data:`DEFAULT_THRESHOLD`); not used by ``"sift"``.

    Returns:
        A list of :class:`LogoMatch`, most evidence first; a brand appears once per
        place it is found (overlapping finds of one brand are merged).

    Raises:
        ValueError: ``min_inliers`` under 4, an empty gallery entry or a bad image.
        TypeError: ``gallery`` is not a mapping.

    Example:
        >>> from skimage import data
        >>> photo = np.full((480, 640, 3), 120, np.uint8)
        >>> photo[100:350, 200:450] = as_rgb(data.logo())[::2, ::2]  # half size
        >>> [match] = match_logos(photo, {"skimage": [data.logo()]})
        >>> match.name, np.allclose(match.box, (200, 100, 450, 350), atol=3)
        ('skimage', True)
    """
    import cv2

    caller = "match_logos"
    if method not in ("sift", "features"):
        raise invalid("method", caller, "'sift' or 'features'", method)
    if method == "features":
        return find_logos(image, gallery,
                          threshold=DEFAULT_THRESHOLD if threshold is None else threshold)
    if isinstance(min_inliers, bool) or not isinstance(min_inliers, (int, np.integer)):
        raise wrong_type("min_inliers", caller, "an int", min_inliers)
    if min_inliers < 4:
        raise invalid("min_inliers", caller, "at least 4 (a homography needs 4 matches)",
                      min_inliers)
    logos = _check_gallery(gallery, caller)
    rgb = as_rgb(image, "image", caller)
    scene_xy, scene_desc, _ = _features(rgb, upscale_small=False)
    if scene_desc is None or len(scene_xy) < min_inliers:
        return []
    matcher = cv2.BFMatcher(cv2.NORM_L2)
    found: list[LogoMatch] = []
    for name, images in logos.items():
        for logo in (view for image in images for view in _views(image)):
            logo_xy, logo_desc, _ = _features(logo, upscale_small=True)
            if logo_desc is None or len(logo_xy) < 4:
                continue
            alive = np.ones(len(scene_xy), dtype=bool)
            for _ in range(MAX_INSTANCES):
                index = np.flatnonzero(alive)
                if len(index) < min_inliers:
                    break
                pairs = matcher.knnMatch(logo_desc, scene_desc[index], k=2)
                good = [p[0] for p in pairs if len(p) == 2 and p[0].distance < RATIO * p[1].distance]
                if len(good) < min_inliers:
                    break
                src = logo_xy[[m.queryIdx for m in good]].reshape(-1, 1, 2)
                dst_index = index[[m.trainIdx for m in good]]
                dst = scene_xy[dst_index].reshape(-1, 1, 2)
                homography, mask = cv2.findHomography(src, dst, cv2.RANSAC, RANSAC_PIXELS)
                if homography is None or mask is None:
                    break
                inlier = mask.ravel().astype(bool)
                count = int(len(set(dst_index[inlier].tolist())))  # distinct photo points
                if count < min_inliers:
                    break
                h, w = logo.shape[:2]
                corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float32)
                quad = cv2.perspectiveTransform(corners.reshape(-1, 1, 2), homography).reshape(-1, 2)
                alive[dst_index[inlier]] = False
                if not _plausible(quad, (h, w), rgb.shape):
                    continue
                x0, y0 = np.floor(quad.min(axis=0)).astype(int)
                x1, y1 = np.ceil(quad.max(axis=0)).astype(int)
                box = (max(0, int(x0)), max(0, int(y0)), min(rgb.shape[1], int(x1)),
                       min(rgb.shape[0], int(y1)))
                if box[2] - box[0] < 4 or box[3] - box[1] < 4:
                    continue
                found.append(LogoMatch(name, box, count, count / (count + min_inliers)))
    return _merge(found)


def _merge(found: list[LogoMatch]) -> list[LogoMatch]:
    """One match per brand and place: the strongest of overlapping finds is kept."""
    kept: list[LogoMatch] = []
    for match in sorted(found, key=lambda m: -m.inliers):
        if not any(k.name == match.name and box_iou(k.box, match.box) > 0.3 for k in kept):
            kept.append(match)
    return kept


# ---------------------------------------------------------------------------------------
# Learned features: EfficientNet-Lite0 windows against gallery prototypes
# ---------------------------------------------------------------------------------------
#
# Windows of the network's last map (with a LogoHead also its mid-level map and colour) are
# compared with the gallery crops, described the same way; every constant below was chosen on
# the development photos. The method: docs/methods/images-logo-features.md.

FEATURE_SIDES = (768, 384)  # (1024, 512) costs 2.5 times as much and scored no better on dev
WINDOW_CELLS = (1, 2, 3)
CELL = 32
# Chosen on the development photos of benchmarks/data/mcdonalds_arches.json with the
# earlier (1024, 512) sides; see benchmarks/logos.py.
DEFAULT_THRESHOLD = 0.46
MAX_FINDS = 8  # boxes per brand and photo (cosine finder)
HEAD_MAX_FINDS = 16  # with a head's extension, the other copies of the mark need room (chosen on dev)
HEAD_CELLS = (2, 3, 4)  # window sizes a LogoHead scores (chosen on dev; (1, 2, 3) covered fewer arches)
COLOUR_WEIGHT = 0.5  # weight of the colour histogram beside the unit network features
MID_BLOCK = 10  # the block whose output (stride 16) a head also sees (chosen on dev)
MID_CHANNELS = 112
MID_WEIGHT = 1.0  # its weight beside the last features (dev: 0.5 and 1.5 did worse)
HUE_BINS = 12
SATURATION_SPLIT = 0.5  # coloured pixels fall in a pale (up to this) or a deep saturation bin
#: Colour histogram bins: 12 hues x 2 saturations for coloured pixels (saturation over
#: 0.3 and value over 0.2), and 3 value bins (dark, mid, light) for the rest.
COLOUR_BINS = HUE_BINS * 2 + 3
FEATURES = 1280  # EfficientNet-Lite0's channels
PAD = 0.25  # a found window is widened by this share of its width and height on each side
_MEAN = np.array([0.485, 0.456, 0.406], dtype=np.float32)
_STD = np.array([0.229, 0.224, 0.225], dtype=np.float32)
_CANVAS = (124, 116, 104)  # the ImageNet mean colour, what the network sees as "nothing"


def _resized_for(rgb: np.ndarray, side: int) -> np.ndarray:
    """The photo resized so its longest side is about ``side``, both sides multiples of CELL."""
    from PIL import Image

    h, w = rgb.shape[:2]
    scale = side / max(h, w)
    width = max(CELL, round(w * scale / CELL) * CELL)
    height = max(CELL, round(h * scale / CELL) * CELL)
    return np.asarray(Image.fromarray(rgb).resize((width, height), Image.BILINEAR))


def _forward(rgb: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """EfficientNet-Lite0's last feature map ``(1280, H/32, W/32)`` of an RGB array whose
    sides are multiples of 32, and block :data:`MID_BLOCK`'s map averaged over the same
    cells ``(MID_CHANNELS, H/32, W/32)``."""
    import torch

    from privlab.vision.imagenet import efficientnet

    model = efficientnet()
    grabbed = []
    hook = model._blocks[MID_BLOCK].register_forward_hook(lambda _m, _i, out: grabbed.append(out))
    x = (rgb.astype(np.float32) / 255.0 - _MEAN) / _STD
    try:
        with torch.inference_mode():
            out = model.extract_features(torch.from_numpy(x.transpose(2, 0, 1)[None].copy()))
    finally:
        hook.remove()
    mid = grabbed[0][0].numpy().astype(np.float32)
    c, h, w = mid.shape
    mid = mid[:, :h // 2 * 2, :w // 2 * 2].reshape(c, h // 2, 2, w // 2, 2).mean(axis=(2, 4))
    return out[0].numpy().astype(np.float32), mid


def colour_cells(rgb: np.ndarray) -> np.ndarray:
    """Per 32 x 32 cell, the share of its pixels in each of :data:`COLOUR_BINS` bins.

    Args:
        rgb: a uint8 array whose sides are multiples of 32 (as the network sees it).

    Returns:
        ``(COLOUR_BINS, H/32, W/32)`` float32; each cell's shares sum to 1.
    """
    from PIL import Image

    hsv = np.asarray(Image.fromarray(rgb).convert("HSV")).astype(np.int32)
    hue, sat, val = hsv[..., 0], hsv[..., 1], hsv[..., 2]
    coloured = (sat > 0.3 * 255) & (val > 0.2 * 255)
    bins = np.where(coloured, (hue * HUE_BINS // 256) * 2 + (sat > SATURATION_SPLIT * 255),
                    HUE_BINS * 2 + np.minimum(val * 3 // 256, 2))
    h, w = rgb.shape[0] // CELL, rgb.shape[1] // CELL
    rows, cols = np.mgrid[0:h * CELL, 0:w * CELL] // CELL
    counts = np.bincount(((rows * w + cols) * COLOUR_BINS + bins[:h * CELL, :w * CELL]).ravel(),
                         minlength=h * w * COLOUR_BINS)
    return (counts.reshape(h, w, COLOUR_BINS).transpose(2, 0, 1) / CELL ** 2).astype(np.float32)


_MAPS: dict[str, list[tuple[np.ndarray, np.ndarray, float, float, np.ndarray]]] = {}
_MAPS_LIMIT = 4


def feature_maps(rgb: np.ndarray, sides: Sequence[int] = FEATURE_SIDES
                 ) -> list[tuple[np.ndarray, np.ndarray, float, float, np.ndarray]]:
    """The photo's feature maps and colour cells at each longest side in ``sides``.

    Returns:
        One ``(map (1280, h, w), colour (COLOUR_BINS, h, w), x pixels per cell, y pixels
        per cell, mid-level map (MID_CHANNELS, h, w))`` per side, the pixels being the
        original photo's (colour: :func:`colour_cells`); the last few photos are kept in
        memory (the sanitizer and a member searching one photo pay for one pass).
    """
    key = f"{content_hash(rgb)}-{','.join(map(str, sides))}"
    if key in _MAPS:
        return _MAPS[key]
    out = []
    for side in sides:
        small = _resized_for(rgb, side)
        last, mid = _forward(small)
        out.append((last, colour_cells(small), rgb.shape[1] / small.shape[1] * CELL,
                    rgb.shape[0] / small.shape[0] * CELL, mid))
    if len(_MAPS) >= _MAPS_LIMIT:
        _MAPS.pop(next(iter(_MAPS)))
    _MAPS[key] = out
    return out


def _window_means(fmap: np.ndarray, k: int) -> np.ndarray | None:
    """Mean of every k x k window of cells: ``(C, h-k+1, w-k+1)`` or None if it does not fit."""
    c, h, w = fmap.shape
    if h < k or w < k:
        return None
    total = np.pad(fmap, ((0, 0), (1, 0), (1, 0))).cumsum(1).cumsum(2)
    return (total[:, k:, k:] - total[:, :-k, k:] - total[:, k:, :-k] + total[:, :-k, :-k]) / (k * k)


def _unit(rows: np.ndarray) -> np.ndarray:
    """Signed square root, then unit length, row by row."""
    rows = np.sign(rows) * np.sqrt(np.abs(rows))
    return rows / np.maximum(np.linalg.norm(rows, axis=1, keepdims=True), 1e-12)


def _joined(last: np.ndarray, mid: np.ndarray | None, colour: np.ndarray | None,
            mid_weight: float, colour_weight: float) -> np.ndarray:
    """Rows of features as a window or a crop carries them: the unit last-layer features,
    then (when weighted) the weighted unit mid-level features and the weighted square
    root of the colour histogram."""
    parts = [_unit(last)]
    if mid_weight:
        parts.append(mid_weight * _unit(mid))
    if colour_weight:
        parts.append(colour_weight * np.sqrt(np.maximum(colour, 0)))
    return np.hstack(parts).astype(np.float32)


def _windows(maps: list[tuple[np.ndarray, np.ndarray, float, float, np.ndarray]],
             cells: Sequence[int] = WINDOW_CELLS, colour_weight: float = 0.0,
             mid_weight: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Window features and their boxes ``(n, 4)`` in photo pixels.

    Features are ``(n, 1280)`` normalised network features, followed when
    ``mid_weight`` > 0 by ``mid_weight`` times the window's normalised mid-level
    features (``MID_CHANNELS`` more) and when ``colour_weight`` > 0 by
    ``colour_weight`` times the square root of the window's colour histogram
    (``COLOUR_BINS`` more).
    """
    feats, mids, colours, boxes = [], [], [], []
    for fmap, cmap, px, py, mmap in maps:
        for k in cells:
            means = _window_means(fmap, k)
            if means is None:
                continue
            c, h, w = means.shape
            rows, cols = np.mgrid[0:h, 0:w]
            feats.append(means.reshape(c, -1).T)
            if mid_weight:
                mids.append(_window_means(mmap, k).reshape(MID_CHANNELS, -1).T)
            if colour_weight:
                colours.append(_window_means(cmap, k).reshape(COLOUR_BINS, -1).T)
            boxes.append(np.stack([cols.ravel() * px, rows.ravel() * py,
                                   (cols.ravel() + k) * px, (rows.ravel() + k) * py], axis=1))
    width = FEATURES + (MID_CHANNELS if mid_weight else 0) + (COLOUR_BINS if colour_weight else 0)
    if not feats:
        return np.zeros((0, width), np.float32), np.zeros((0, 4))
    return (_joined(np.concatenate(feats), np.concatenate(mids) if mids else None,
                    np.concatenate(colours) if colours else None, mid_weight, colour_weight),
            np.concatenate(boxes))


def crop_features(crop: np.ndarray, cells: Sequence[int] = WINDOW_CELLS,
                  colour_weight: float = 0.0, mid_weight: float = 0.0) -> np.ndarray:
    """Normalised features of one gallery crop, one row per window size in ``cells``.

    Described as a window of a photo is, on a canvas of the ImageNet mean colour
    (``docs/methods/images-logo-features.md``).
    """
    from PIL import Image

    rows, mids, colours = [], [], []
    for k in cells:
        canvas = np.empty(((k + 2) * CELL, (k + 2) * CELL, 3), np.uint8)
        canvas[:] = _CANVAS
        canvas[CELL:CELL + k * CELL, CELL:CELL + k * CELL] = np.asarray(
            Image.fromarray(crop).resize((k * CELL, k * CELL), Image.BILINEAR))
        last, mid = _forward(canvas)
        rows.append(last[:, 1:1 + k, 1:1 + k].mean(axis=(1, 2)))
        mids.append(mid[:, 1:1 + k, 1:1 + k].mean(axis=(1, 2)))
        if colour_weight:
            colours.append(colour_cells(canvas)[:, 1:1 + k, 1:1 + k].mean(axis=(1, 2)))
    return _joined(np.array(rows), np.array(mids), np.array(colours) if colours else None,
                   mid_weight, colour_weight)


_PROTOTYPES: dict[tuple, dict[str, np.ndarray]] = {}


def _prototypes(gallery: LogoGallery, cells: Sequence[int] = WINDOW_CELLS,
                colour_weight: float = 0.0, mid_weight: float = 0.0) -> dict[str, np.ndarray]:
    """``{brand: (n crops * len(cells), features)}`` crop features, once per gallery and
    recipe (:func:`crop_features`)."""
    key = (gallery.fingerprint, tuple(cells), float(colour_weight), float(mid_weight))
    if key not in _PROTOTYPES:
        _PROTOTYPES[key] = {
            name: np.concatenate([crop_features(crop, cells, colour_weight, mid_weight)
                                  for crop in crops])
            for name, crops in gallery.items()}
    return _PROTOTYPES[key]


def _suppress(boxes: np.ndarray, scores: np.ndarray, limit: int) -> list[int]:
    """Indices kept by non-maximum suppression: a box is dropped when it overlaps a kept
    one by IoU over 0.3 or lies mostly (over 60%) inside it or contains it."""
    kept: list[int] = []
    for i in np.argsort(-scores):
        b = boxes[i]
        ok = True
        for j in kept:
            c = boxes[j]
            ix = max(0.0, min(b[2], c[2]) - max(b[0], c[0]))
            iy = max(0.0, min(b[3], c[3]) - max(b[1], c[1]))
            inter = ix * iy
            area_b = (b[2] - b[0]) * (b[3] - b[1])
            area_c = (c[2] - c[0]) * (c[3] - c[1])
            if inter / (area_b + area_c - inter) > 0.3 or inter / min(area_b, area_c) > 0.6:
                ok = False
                break
        if ok:
            kept.append(int(i))
            if len(kept) >= limit:
                break
    return kept


def find_logos(image: Any, gallery: Any, *, threshold: float | None = None,
               max_finds: int | None = None, head: "LogoHead | None" = None) -> list[LogoMatch]:
    """Every gallery brand found in ``image`` by learned features, strongest first.

    Windows are scored by cosine similarity to the gallery crops or by ``head``; with a
    head's ``extend``, weaker copies of a found mark are marked too. The method:
    ``docs/methods/images-logo-features.md``.

    Args:
        image: the photo, a PIL image or uint8 array.
        gallery: a :class:`LogoGallery` or anything :func:`load_logo_gallery` reads (a
            folder of crops, ``{brand: [images or paths]}``).
        threshold: the cosine similarity a window needs, in (0, 1), or with ``head`` its
            decision value (None: :data:`DEFAULT_THRESHOLD` or the head's own).
        max_finds: at most this many boxes per brand (None: :data:`MAX_FINDS`, with a
            head :data:`HEAD_MAX_FINDS`).
        head: a :class:`LogoHead` from :func:`~privlab.vision.logo_head.fit_logo_head`
            (``gallery`` is then only checked).

    Returns:
        :class:`LogoMatch` es, highest score first (``score``: the cosine similarity or
        the head's decision value; ``inliers`` 0); each box is a window widened by
        :data:`PAD` on each side.

    Raises:
        ValueError: ``threshold`` outside (0, 1), ``max_finds`` under 1, a bad gallery
            or image.
        TypeError: ``gallery`` is not a gallery, folder or mapping.
    """
    caller = "find_logos"
    if head is not None and not isinstance(head, LogoHead):
        raise wrong_type("head", caller, "a LogoHead from fit_logo_head, or None", head)
    if threshold is None:
        threshold = DEFAULT_THRESHOLD if head is None else head.threshold
    elif isinstance(threshold, bool) or not isinstance(threshold, (int, float)) or (
            head is None and not 0 < threshold < 1) or not np.isfinite(threshold):
        raise invalid("threshold", caller, "a cosine similarity in (0, 1) (any finite "
                      "decision value with a head)", threshold)
    if max_finds is None:
        max_finds = MAX_FINDS if head is None else HEAD_MAX_FINDS
    elif isinstance(max_finds, bool) or not isinstance(max_finds, (int, np.integer)) or max_finds < 1:
        raise invalid("max_finds", caller, "a positive int, or None", max_finds)
    checked = load_logo_gallery(gallery)
    rgb = as_rgb(image, "image", caller)
    if head is not None:
        feats, boxes = _windows(feature_maps(rgb), head.cells, head.colour_weight,
                                head.mid_weight)
        scorers = {name: (lambda f, w=w, b=b: f @ w + b) for name, (w, b) in head.weights.items()}
    else:
        feats, boxes = _windows(feature_maps(rgb))
        scorers = {name: (lambda f, p=p: (f @ p.T).max(axis=1))
                   for name, p in _prototypes(checked).items()}
    found = []
    for name, score in scorers.items():
        scores = score(feats) if len(feats) else np.zeros(0)
        hit = np.flatnonzero(scores >= threshold)
        if len(hit) and head is not None and head.extend > 0:
            hit = np.flatnonzero(scores >= threshold - head.extend)
        for i in _suppress(boxes[hit], scores[hit], max_finds):
            x0, y0, x1, y1 = boxes[hit][i]
            px, py = PAD * (x1 - x0), PAD * (y1 - y0)
            box = (max(0, int(np.floor(x0 - px))), max(0, int(np.floor(y0 - py))),
                   min(rgb.shape[1], int(np.ceil(x1 + px))), min(rgb.shape[0], int(np.ceil(y1 + py))))
            found.append(LogoMatch(name, box, 0, float(scores[hit][i])))
    return sorted(found, key=lambda m: -m.score)


@dataclass(frozen=True)
class LogoHead:
    """Per-brand logistic regression on window features (from
    :func:`~privlab.vision.logo_head.fit_logo_head`).

    Attributes:
        weights: ``{brand: (w, b)}``; a window's decision value is ``f @ w + b``, ``f``
            its features from ``window_features(maps, cells, colour_weight, mid_weight)``.
        threshold: the decision value a window needs (a log-odds; chosen on labelled
            development photos by the caller, see benchmarks/logos.py).
        examples: how many positive and negative windows it was fitted on.
        cells: the window sizes it scores, in cells of 32 pixels.
        colour_weight: the weight of the colour histogram in its features (0: none).
        extend: once a window of a brand reaches the threshold, windows down to this
            much below it are marked too (log-odds; 0: none; see :func:`find_logos`).
        mid_weight: the weight of the mid-level features in its features (0: none).
    """

    weights: dict[str, tuple[np.ndarray, float]]
    threshold: float
    examples: tuple[int, int] = (0, 0)
    cells: tuple[int, ...] = HEAD_CELLS
    colour_weight: float = COLOUR_WEIGHT
    extend: float = 0.0
    mid_weight: float = MID_WEIGHT


#: Public names for the window features and the gallery's prototypes (what
#: :mod:`privlab.vision.logo_head` fits its head on).
window_features = _windows
gallery_prototypes = _prototypes


__all__ = ["COLOUR_BINS", "COLOUR_WEIGHT", "DEFAULT_MIN_INLIERS", "DEFAULT_THRESHOLD", "HEAD_CELLS",
           "HEAD_MAX_FINDS", "MID_CHANNELS", "MID_WEIGHT", "LogoGallery", "LogoHead", "LogoMatch",
           "colour_cells", "feature_maps", "find_logos", "gallery_prototypes", "load_logo_gallery",
           "match_logos", "window_features"]
