"""Logos: a gallery of brand marks found in a photo by local features (SIFT + RANSAC).

A logo is a planar mark, so a gallery image of it and its appearance in a photo are
related by a homography. :func:`match_logos` finds SIFT keypoints in both, keeps the
matches that pass Lowe's ratio test, fits a homography with RANSAC and accepts a logo
when at least ``min_inliers`` matches agree and the projected outline is a plausible,
non-degenerate quadrilateral. A large gallery logo is also described at reduced sizes
(a logo in a photo is often small). One gallery logo may be found several times in a
photo (each accepted instance's keypoints are removed and the search repeated).

The logo sanitizer blacks out the boxes :func:`match_logos` returns; the
describe-then-embed member adds the matched brand names to its words.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

import numpy as np

from privlab.errors import invalid, wrong_type
from privlab.hashing import content_hash
from privlab.vision.images import as_rgb

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
        inliers: keypoint matches consistent with the homography (the evidence).
    """

    name: str
    box: tuple[int, int, int, int]
    inliers: int


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
                min_inliers: int = DEFAULT_MIN_INLIERS) -> list[LogoMatch]:
    """Every gallery logo found in ``image``, strongest evidence first.

    Args:
        image: the photo, a PIL image or uint8 array.
        gallery: ``{brand name: [logo images]}``, each a clean picture of the mark (a
            crop or the artwork); several images per brand help with variants.
        min_inliers: RANSAC-consistent matches a logo needs (at least 4, the minimum a
            homography takes; 10–15 keeps chance matches out on natural photos).

    Returns:
        A list of :class:`LogoMatch`, most inliers first; a brand appears once per
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
                found.append(LogoMatch(name, box, count))
    return _merge(found)


def _iou(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> float:
    ix = max(0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def _merge(found: list[LogoMatch]) -> list[LogoMatch]:
    """One match per brand and place: the strongest of overlapping finds is kept."""
    kept: list[LogoMatch] = []
    for match in sorted(found, key=lambda m: -m.inliers):
        if not any(k.name == match.name and _iou(k.box, match.box) > 0.3 for k in kept):
            kept.append(match)
    return kept


__all__ = ["DEFAULT_MIN_INLIERS", "LogoMatch", "match_logos"]
