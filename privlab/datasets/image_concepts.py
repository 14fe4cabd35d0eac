"""Concept image sets with ground-truth regions, for calibrating image resolutions.

:func:`generate_concept_images` makes seeded variations of photos that scikit-image ships,
each with the exact mask of its object, so :meth:`ConceptImageSet.sanitizer` blacks out
exactly the concept; :func:`load_concept_image_folder` reads a user's own. What such a set
is (and is not): ``docs/methods/data-generators.md``.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

from privlab.errors import invalid, item_list
from privlab.hashing import bytes_hash

Box = tuple[int, int, int, int]


def _skimage(name: str) -> Callable[[], np.ndarray]:
    def load() -> np.ndarray:
        from privlab.errors import require

        data = require("skimage.data", "scikit-image", "The packaged concept photos")
        out = getattr(data, name)()
        return out[0] if isinstance(out, tuple) else out
    return load


def _horse() -> tuple[np.ndarray, np.ndarray]:
    """The horse silhouette painted as a brown, shaded animal; its mask is exact."""
    silhouette = ~_skimage("horse")().astype(bool)
    h, w = silhouette.shape
    yy = np.linspace(0.75, 1.15, h)[:, None]
    rgb = np.empty((h, w, 3), dtype=np.float64)
    for k, level in enumerate((96, 58, 32)):
        rgb[..., k] = level * yy
    rgb[~silhouette] = 235.0
    return np.clip(rgb, 0, 255).astype(np.uint8), silhouette


@dataclass(frozen=True)
class ConceptSource:
    """Where a packaged concept comes from: a photo and the box (or mask) of the object.

    Attributes:
        concept: the concept's name.
        photo: what the photo shows (for provenance).
        box: ``(x0, y0, x1, y1)`` of the object in the photo.
        silhouette: True when the photo comes with an exact object mask (the horse).
    """

    concept: str
    photo: str
    box: Box
    silhouette: bool = False

    def load(self) -> tuple[np.ndarray, np.ndarray]:
        """The photo as ``(H, W, 3)`` uint8 and the boolean ``(H, W)`` object mask."""
        if self.silhouette:
            return _horse()
        from privlab.sanitizers.image import box_mask

        rgb = _skimage(self.photo)()
        return rgb, box_mask(rgb.shape[:2], self.box)


PACKAGED_CONCEPTS: dict[str, ConceptSource] = {
    "cat": ConceptSource("cat", "chelsea", (10, 0, 400, 300)),
    "coffee": ConceptSource("coffee", "coffee", (75, 15, 480, 390)),
    "rocket": ConceptSource("rocket", "rocket", (292, 122, 348, 410)),
    "horse": ConceptSource("horse", "horse", (18, 9, 389, 313), silhouette=True),
    "astronaut": ConceptSource("astronaut", "astronaut", (20, 15, 370, 512)),
    "motorcycle": ConceptSource("motorcycle", "stereo_motorcycle", (90, 95, 690, 450)),
}


@dataclass(frozen=True)
class Placement:
    """One variation's random choices (all drawn from the seeded generator).

    Attributes:
        margin: context kept around the object box, as a share of its size per side
            ``(left, top, right, bottom)``.
        scale: the object's longer side as a share of the canvas side.
        flip: mirror left-right.
        position: top-left corner of the pasted patch, as shares of the free room.
        background: ``"gradient"``, ``"noise"``, ``"blobs"`` or ``"texture"``.
        colors: two RGB colours of the background.
        gain: brightness factor of the whole image.
        gamma: gamma of the whole image.
        seed: seed of the background's own noise.
    """

    margin: tuple[float, float, float, float]
    scale: float
    flip: bool
    position: tuple[float, float]
    background: str
    colors: tuple[tuple[int, int, int], tuple[int, int, int]]
    gain: float
    gamma: float
    seed: int


BACKGROUNDS = ("gradient", "noise", "blobs", "texture")


def draw_placement(rng: np.random.Generator) -> Placement:
    """The random choices of one variation.

    Example:
        >>> p = draw_placement(np.random.default_rng(0))
        >>> p.background in BACKGROUNDS and 0.45 <= p.scale <= 0.8
        True
    """
    margin = tuple(float(v) for v in rng.uniform(0.0, 0.12, size=4))
    colors = tuple(tuple(int(c) for c in rng.integers(0, 256, size=3)) for _ in range(2))
    return Placement(margin=margin, scale=float(rng.uniform(0.45, 0.8)), flip=bool(rng.random() < 0.5),
                     position=(float(rng.random()), float(rng.random())),
                     background=BACKGROUNDS[int(rng.integers(len(BACKGROUNDS)))],
                     colors=colors, gain=float(rng.uniform(0.7, 1.25)),
                     gamma=float(rng.uniform(0.8, 1.25)), seed=int(rng.integers(2**31)))


def background(kind: str, size: int, colors, seed: int) -> np.ndarray:
    """A generated ``(size, size, 3)`` uint8 background.

    Example:
        >>> background("gradient", 8, ((0, 0, 0), (255, 255, 255)), 0).shape
        (8, 8, 3)
    """
    rng = np.random.default_rng(seed)
    a, b = (np.asarray(c, dtype=np.float64) for c in colors)
    if kind == "gradient":
        t = np.linspace(0.0, 1.0, size)[:, None, None] * np.ones((1, size, 1))
        out = a + (b - a) * t
    elif kind == "noise":
        out = a + rng.normal(0.0, 28.0, size=(size, size, 3))
    elif kind == "blobs":
        from PIL import Image

        coarse = rng.random((6, 6))
        t = np.asarray(Image.fromarray((coarse * 255).astype(np.uint8)).resize(
            (size, size), Image.BICUBIC), dtype=np.float64)[..., None] / 255.0
        out = a + (b - a) * t
    elif kind == "texture":
        from PIL import Image

        name = ("grass", "gravel", "brick")[seed % 3]
        grey = _skimage(name)()
        g = np.asarray(Image.fromarray(grey).resize((size, size), Image.BILINEAR),
                       dtype=np.float64)[..., None] / 255.0
        out = 0.35 * a + 0.65 * g * (a + 255.0) / 2.0
    else:
        raise invalid("kind", "background", f"one of {list(BACKGROUNDS)}", kind)
    return np.clip(out, 0, 255).astype(np.uint8)


def render_variation(photo: np.ndarray, mask: np.ndarray, placement: Placement,
                     size: int = 224, *, cutout: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Place the object of ``photo`` on a generated background.

    The returned mask is the object mask carried through the same crop, resize, flip and
    paste, so it covers the object (the steps: ``docs/methods/data-generators.md``).

    Args:
        photo: ``(H, W, 3)`` uint8.
        mask: boolean ``(H, W)`` object mask (non-empty).
        placement: the variation's choices (:func:`draw_placement`).
        size: canvas side in pixels.
        cutout: paste the masked pixels only, without the photo's context.

    Returns:
        ``(image, mask)``: ``(size, size, 3)`` uint8 and boolean ``(size, size)``.

    Raises:
        ValueError: an empty mask or one whose shape differs from the photo.

    Example:
        >>> photo = np.zeros((20, 20, 3), np.uint8); photo[5:15, 5:15] = 255
        >>> m = np.zeros((20, 20), bool); m[5:15, 5:15] = True
        >>> p = draw_placement(np.random.default_rng(1))
        >>> img, out = render_variation(photo, m, p, size=32)
        >>> img.shape, out.dtype.name, bool(out.any())
        ((32, 32, 3), 'bool', True)
    """
    from PIL import Image

    mask = np.asarray(mask, dtype=bool)
    if mask.shape != photo.shape[:2] or not mask.any():
        raise invalid("mask", "render_variation", f"a non-empty boolean mask of shape "
                      f"{photo.shape[:2]}", f"shape {mask.shape} with {int(mask.sum())} pixels",
                      given_is_text=True)
    h, w = mask.shape
    ys, xs = np.nonzero(mask)
    x0, x1, y0, y1 = xs.min(), xs.max() + 1, ys.min(), ys.max() + 1
    bw, bh = x1 - x0, y1 - y0
    ml, mt, mr, mb = placement.margin
    cx0, cy0 = max(0, int(x0 - ml * bw)), max(0, int(y0 - mt * bh))
    cx1, cy1 = min(w, int(np.ceil(x1 + mr * bw))), min(h, int(np.ceil(y1 + mb * bh)))
    patch, pmask = photo[cy0:cy1, cx0:cx1], mask[cy0:cy1, cx0:cx1]
    factor = placement.scale * size / max(bw, bh)
    pw = max(1, min(size, int(round((cx1 - cx0) * factor))))
    ph = max(1, min(size, int(round((cy1 - cy0) * factor))))
    patch = np.asarray(Image.fromarray(patch).resize((pw, ph), Image.BILINEAR))
    pmask = np.asarray(Image.fromarray(pmask.astype(np.uint8) * 255).resize(
        (pw, ph), Image.NEAREST)) > 127
    if placement.flip:
        patch, pmask = patch[:, ::-1], pmask[:, ::-1]
    canvas = background(placement.background, size, placement.colors, placement.seed)
    left = int(round(placement.position[0] * (size - pw)))
    top = int(round(placement.position[1] * (size - ph)))
    if cutout:
        window = canvas[top:top + ph, left:left + pw]
        window[pmask] = patch[pmask]
    else:
        canvas[top:top + ph, left:left + pw] = patch
    out_mask = np.zeros((size, size), dtype=bool)
    out_mask[top:top + ph, left:left + pw] = pmask
    lit = 255.0 * (canvas / 255.0) ** placement.gamma * placement.gain
    return np.clip(np.round(lit), 0, 255).astype(np.uint8), out_mask


@dataclass(frozen=True)
class ConceptImageSet:
    """Renderings of one concept, each with the mask of the concept's pixels.

    Attributes:
        concept: the concept's name.
        images: ``(H, W, 3)`` uint8 RGB arrays.
        masks: boolean ``(H, W)`` masks of the concept in each image.
        names: one name per image (file names, or ``<concept>-<k>``).
        provenance: source, seed, size and a hash of the pixels.
    """

    concept: str
    images: tuple = field(repr=False)
    masks: tuple = field(repr=False)
    names: tuple
    provenance: dict = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.images)

    def coverage(self) -> np.ndarray:
        """The share of each image that the concept's mask covers."""
        return np.array([float(m.mean()) for m in self.masks])

    def boxes(self) -> list[Box]:
        """The bounding box ``(x0, y0, x1, y1)`` of each mask (exclusive ends)."""
        out = []
        for m in self.masks:
            ys, xs = np.nonzero(m)
            out.append((int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1))
        return out

    def sanitizer(self, *, dilate: int = 0, blur: float = 0.0):
        """``X_c``: a blackout of exactly each image's mask (with optional margin).

        The sanitizer is aligned with :attr:`images`: call its ``sanitize`` on this
        set's images, in order.

        Returns:
            A :class:`privlab.sanitizers.image.RegionSanitizer`.
        """
        from privlab.sanitizers.image import RegionSanitizer, UserRegions

        return RegionSanitizer(UserRegions([[m] for m in self.masks]), mode="blackout",
                               threshold=0.5, blur=blur, dilate=int(dilate),
                               name=f"blackout[{self.concept}](d={int(dilate)})")

    def subset(self, n: int | None) -> "ConceptImageSet":
        """The first ``n`` renderings (all when ``n`` is None)."""
        if n is None:
            return self
        return ConceptImageSet(self.concept, self.images[:n], self.masks[:n], self.names[:n],
                               {**self.provenance, "n": min(n, len(self.images))})


def _pixels_hash(images: Sequence[np.ndarray]) -> str:
    return bytes_hash(b"".join(np.ascontiguousarray(arr).tobytes() for arr in images), 16)


def generate_concept_images(concept: str, n: int = 50, *, seed: int = 0, size: int = 224
                            ) -> ConceptImageSet:
    """``n`` seeded variations of a packaged concept photo, with exact object masks.

    The same ``(concept, n, seed, size)`` gives the same pixels on every machine; the
    first ``k`` images of a larger ``n`` are the ``k`` images of ``n = k``.

    Args:
        concept: a key of :data:`PACKAGED_CONCEPTS`.
        n: number of variations (at least 1).
        seed: base seed.
        size: canvas side in pixels (at least 32).

    Returns:
        A :class:`ConceptImageSet`.

    Raises:
        ValueError: an unknown concept, ``n < 1`` or ``size < 32``.

    Example:
        >>> s = generate_concept_images("rocket", 2, size=64)
        >>> len(s), s.images[0].shape, bool(s.masks[0].any())
        (2, (64, 64, 3), True)
    """
    caller = "generate_concept_images"
    if concept not in PACKAGED_CONCEPTS:
        raise invalid("concept", caller, f"one of {sorted(PACKAGED_CONCEPTS)}", concept,
                      "Use load_concept_image_folder for your own concepts.")
    if not isinstance(n, (int, np.integer)) or n < 1:
        raise invalid("n", caller, "a positive int", n)
    if not isinstance(size, (int, np.integer)) or size < 32:
        raise invalid("size", caller, "an int of at least 32", size)
    source = PACKAGED_CONCEPTS[concept]
    photo, mask = source.load()
    rng = np.random.default_rng([int(seed), zlib.crc32(concept.encode())])
    images, masks = [], []
    for _ in range(int(n)):
        img, m = render_variation(photo, mask, draw_placement(rng), int(size),
                                  cutout=source.silhouette)
        images.append(img)
        masks.append(m)
    return ConceptImageSet(concept, tuple(images), tuple(masks),
                           tuple(f"{concept}-{k}" for k in range(int(n))),
                           {"source": f"skimage.data.{source.photo}", "seed": int(seed),
                            "n": int(n), "size": int(size), "pixels_sha256": _pixels_hash(images)})


def generate_concept_sets(concepts: Sequence[str], n: int = 50, *, seed: int = 0,
                          size: int = 224) -> dict[str, ConceptImageSet]:
    """:func:`generate_concept_images` for several concepts, keyed by concept."""
    concepts = item_list(concepts, "concepts", "generate_concept_sets")
    return {c: generate_concept_images(c, n, seed=seed, size=size) for c in concepts}


def read_mask(path: str | Path, shape: tuple[int, int]) -> np.ndarray:
    """A mask file as a boolean array: pixels brighter than half are the concept.

    Args:
        path: a PNG (any mode; colour masks are read as grey).
        shape: the ``(H, W)`` of the image it belongs to.

    Raises:
        ValueError: the file is unreadable, of another size, or empty (the file is named).
    """
    from PIL import Image, UnidentifiedImageError

    path = Path(path)
    try:
        with Image.open(path) as im:
            grey = np.asarray(im.convert("L"))
    except (UnidentifiedImageError, OSError, ValueError) as exc:
        raise invalid("masks", "load_concept_image_folder", "readable mask images", str(path),
                      f"The file could not be decoded ({type(exc).__name__}).",
                      given_is_text=True) from exc
    if grey.shape != tuple(shape):
        raise invalid("masks", "load_concept_image_folder", f"the size of its image {tuple(shape)}",
                      f"{path} of size {grey.shape}", "Save the mask at the image's size.",
                      given_is_text=True)
    mask = grey > 127
    if not mask.any():
        raise invalid("masks", "load_concept_image_folder", "masks with at least one white pixel",
                      f"{path}, which is all black", "Paint the concept white.", given_is_text=True)
    return mask


def load_concept_image_folder(root: str | Path, concepts: Sequence[str] | None = None, *,
                              max_side: int | None = 512) -> dict[str, ConceptImageSet]:
    """A user's concept images: ``root/images/<concept>/*`` and optional ``root/masks/<concept>/*.png``.

    A mask ``masks/<concept>/<stem>.png`` belongs to the image with the same stem; white
    pixels are the concept. Images without a mask get a mask of the whole image (the
    blackout then removes everything, a ceiling rather than a sanitizer: supply masks).
    Images are read upright (EXIF) and downscaled to ``max_side`` before masks are
    matched, so masks are compared at the original size and resized with the image.

    Args:
        root: the folder holding ``images/`` (and optionally ``masks/``).
        concepts: which concept folders to read (None: all, in name order).
        max_side: downscale longer sides to this many pixels (None keeps the size).

    Returns:
        ``{concept: ConceptImageSet}``.

    Raises:
        ValueError: a missing folder, an unreadable image or mask, a mask of another
            size, an empty mask or a mask without an image (each names the file).
    """
    from PIL import Image

    from privlab.datasets.images import IMAGE_SUFFIXES, read_image

    caller = "load_concept_image_folder"
    root = Path(root)
    images_dir = root / "images"
    if not images_dir.is_dir():
        raise invalid("root", caller, "a folder with an images/<concept>/ sub-folder per concept",
                      str(root), given_is_text=True)
    available = sorted(p.name for p in images_dir.iterdir() if p.is_dir())
    wanted = item_list(concepts, "concepts", caller) if concepts is not None else available
    if not wanted:
        raise invalid("root", caller, "a folder with at least one images/<concept>/ folder",
                      str(root), given_is_text=True)
    out = {}
    for concept in wanted:
        folder = images_dir / concept
        if not folder.is_dir():
            raise invalid("concepts", caller, f"among {available}", concept)
        files = sorted(p for p in folder.iterdir()
                       if p.is_file() and not p.name.startswith(".")
                       and p.suffix.lower() in IMAGE_SUFFIXES)
        if not files:
            raise invalid("root", caller, "concept folders with at least one image",
                          f"{folder} without images", given_is_text=True)
        mask_dir = root / "masks" / concept
        mask_files = ({p.stem: p for p in mask_dir.iterdir() if p.is_file()
                       and not p.name.startswith(".")} if mask_dir.is_dir() else {})
        orphans = sorted(set(mask_files) - {p.stem for p in files})
        if orphans:
            raise invalid("masks", caller, "one mask per image, named like the image",
                          f"{mask_dir / mask_files[orphans[0]].name} without an image",
                          "Rename the mask after its image's stem.", given_is_text=True)
        images, masks = [], []
        for path in files:
            full = read_image(path, None)
            if path.stem in mask_files:
                mask = read_mask(mask_files[path.stem], full.shape[:2])
            else:
                mask = np.ones(full.shape[:2], dtype=bool)
            if max_side and max(full.shape[:2]) > max_side:
                im = Image.fromarray(full)
                im.thumbnail((max_side, max_side), Image.LANCZOS)
                mask = np.asarray(Image.fromarray(mask.astype(np.uint8) * 255).resize(
                    im.size, Image.NEAREST)) > 127
                full = np.asarray(im.convert("RGB"))
            images.append(full)
            masks.append(mask)
        out[concept] = ConceptImageSet(
            concept, tuple(images), tuple(masks), tuple(p.name for p in files),
            {"source": str(folder), "n": len(images), "max_side": max_side,
             "masked": sum(p.stem in mask_files for p in files),
             "pixels_sha256": _pixels_hash(images)})
    return out


__all__ = ["BACKGROUNDS", "ConceptImageSet", "ConceptSource", "PACKAGED_CONCEPTS", "Placement",
           "background", "draw_placement", "generate_concept_images", "generate_concept_sets",
           "load_concept_image_folder", "read_mask", "render_variation"]
