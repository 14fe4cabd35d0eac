"""Describe-then-embed: an image turned into words, the words embedded by a text encoder.

The member reads OCR words, the names of gallery people (by face or by spelled name), the
logo gallery's brands and, on request, ImageNet labels; text and faces a sanitizer made are
not read as content. See ``docs/methods/encoders-members.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

import numpy as np

from privlab.encoders.base import registry
from privlab.encoders.image_base import ImageEncoder
from privlab.encoders.lookup import get_encoder
from privlab.errors import invalid
from privlab.hashing import bytes_hash, content_hash
from privlab.progress import track, within
from privlab.vision.faces import FACE_DIM, SFACE_MATCH_THRESHOLD, detect_faces, face_features, usable_faces
from privlab.vision.imagenet import imagenet_labels
from privlab.vision.images import as_rgb
from privlab.vision.logos import DEFAULT_MIN_INLIERS, match_logos
from privlab.vision.marks import inpaint_marks
from privlab.vision.ocr import filter_words, read_text
from privlab.vision.text_changes import ReadingBook, names_in_text

LABELS_OFF_REASON = ("ImageNet labels are off by default: a classifier reads black boxes and "
                     "blurs as content (a face blackout gained 'academic gown'), which moves "
                     "the description when nothing identifying was removed")


@dataclass(frozen=True)
class Description:
    """What the describe-then-embed member read in an image.

    Attributes:
        words: OCR text kept after filtering (a sanitized rendering's words carry the
            original's readings of boxes still present).
        names: gallery identities whose face matched (SFace cosine >= threshold).
        labels: ImageNet labels above the confidence (empty when labels are off).
        text: the string that is embedded.
        read_names: gallery identities whose name the words spell.
        brands: logo-gallery brands found in the image.
        raw_words: every OCR reading of the image as read (before filtering and before
            sanitizer-induced readings are set aside).
        induced: readings set aside as sanitizer-induced, each with why
            (``"'SAMSUNG' (not in the original)"``, ``"'M' (at a mark)"``).
    """

    words: tuple[str, ...]
    names: tuple[str, ...]
    labels: tuple[str, ...]
    text: str
    read_names: tuple[str, ...] = ()
    brands: tuple[str, ...] = ()
    raw_words: tuple[str, ...] = ()
    induced: tuple[str, ...] = ()


def description_text(words: Sequence[str], names: Sequence[str], labels: Sequence[str],
                     brands: Sequence[str] = ()) -> str:
    """The sentence embedded for an image: text, then people, then brands, then objects.

    An image with nothing recognisable gives the empty string, the same for every such
    image, so two renderings with nothing left have identical embeddings.

    Example:
        >>> description_text(["EILEEN COLLINS"], ["Eileen Collins"], [])
        'EILEEN COLLINS. Eileen Collins.'
        >>> description_text([], [], [], ["scikit-image"])
        'scikit-image.'
        >>> description_text([], [], [])
        ''
    """
    parts = [" ".join(words), ", ".join(names), ", ".join(brands), ", ".join(labels)]
    return " ".join(p + "." for p in parts if p)


def _check_gallery(gallery: Any, parameter: str, caller: str) -> dict[str, list]:
    gallery = dict(gallery or {})
    for who, images in gallery.items():
        if not isinstance(who, str) or not who:
            raise invalid(parameter, caller, "keyed by non-empty names", who)
        if isinstance(images, np.ndarray) or not hasattr(images, "__len__") or not images:
            raise invalid(parameter, caller, "a dict of name -> non-empty list of images",
                          f"{type(images).__name__} for {who!r}", given_is_text=True)
    return {who: list(images) for who, images in gallery.items()}


# Gallery names of a face per (pixels, member name): SFace features are the costly part.
_NAMES_MEMO: dict[tuple[str, str], tuple[str, ...]] = {}
_NAMES_LIMIT = 4096


def _gallery_hash(gallery: Mapping[str, Sequence[Any]], parameter: str, caller: str) -> str:
    return bytes_hash(b"".join(
        who.encode() + b"".join(content_hash(as_rgb(img, parameter, caller)).encode()
                                for img in gallery[who])
        for who in sorted(gallery)), 8)


@registry.member("describe-then-embed", modality="image", offline=True,
                 description="OCR words + gallery names (faces, text) + logo brands -> MiniLM")
class DescribeThenEmbedEncoder(ImageEncoder):
    """Image -> words (OCR, gallery names, logo brands, optional labels) -> text embedding.

    Args:
        gallery: ``{identity name: [face images]}`` the study supplies; faces that match
            one (SFace cosine at least ``match_threshold``), and words that spell the
            name, add the name to the description.
        logos: ``{brand name: [logo images]}``; a logo found by
            :func:`privlab.vision.logos.match_logos` adds the brand.
        text_encoder: the registered text encoder that embeds the description.
        use_ocr, use_faces, use_labels: which parts to read (``use_ocr`` alone is the
            plain OCR->text member). Labels are off by default (see
            :data:`LABELS_OFF_REASON`).
        label_threshold: ImageNet probability a label needs.
        inpaint_marks: read labels on the rendering with blank marks inpainted.
        carry_readings: give a sanitized rendering the original's reading of every word
            box still present (:class:`privlab.vision.text_changes.ReadingBook`).
        match_threshold: SFace cosine for a gallery match (OpenCV's 0.363 by default).
        face_threshold: YuNet score a face needs.
        min_confidence, min_chars: OCR filter (see :func:`filter_words`).
        name_similarity: how closely words must spell a gallery name.
        min_logo_inliers: keypoint matches a logo needs.
        logo_finder: a :class:`~privlab.vision.logo_finder.LogoFinder` fitted on
            ``logos``; a brand it finds is added (instead of keypoint matching; what the
            brand study passes on photos).

    Example:
        >>> DescribeThenEmbedEncoder(use_faces=False).name
        'describe[ocr]-minilm'
    """

    def __init__(self, gallery: Mapping[str, Sequence[Any]] | None = None, *,
                 logos: Mapping[str, Sequence[Any]] | None = None, text_encoder: str = "minilm",
                 use_ocr: bool = True, use_faces: bool = True, use_labels: bool = False,
                 label_threshold: float = 0.5, inpaint_marks: bool = True,
                 carry_readings: bool = True, match_threshold: float = SFACE_MATCH_THRESHOLD,
                 face_threshold: float = 0.8, min_confidence: float = 0.8, min_chars: int = 3,
                 name_similarity: float = 0.85, min_logo_inliers: int = DEFAULT_MIN_INLIERS,
                 logo_finder: Any = None):
        caller = "DescribeThenEmbedEncoder"
        if logo_finder is not None:
            from privlab.vision.logo_finder import LogoFinder

            if not isinstance(logo_finder, LogoFinder) or not logos:
                raise invalid("logo_finder", caller, "a LogoFinder fitted on the logos gallery "
                              "(with logos= given), or None", logo_finder)
        if not (use_ocr or use_faces or use_labels or logos):
            raise invalid("use_ocr", caller, "True for at least one of use_ocr, use_faces, "
                          "use_labels (or a logos gallery)", "all three False", given_is_text=True)
        if not 0 < label_threshold <= 1:
            raise invalid("label_threshold", caller, "in (0, 1]", label_threshold)
        if not -1 <= match_threshold <= 1:
            raise invalid("match_threshold", caller, "in [-1, 1]", match_threshold)
        if not 0 < name_similarity <= 1:
            raise invalid("name_similarity", caller, "in (0, 1]", name_similarity)
        if isinstance(min_logo_inliers, bool) or not isinstance(min_logo_inliers, int) \
                or min_logo_inliers < 4:
            raise invalid("min_logo_inliers", caller, "an int of at least 4", min_logo_inliers)
        gallery = _check_gallery(gallery, "gallery", caller)
        self.logos = _check_gallery(logos, "logos", caller)
        self.gallery = gallery if use_faces else {}
        self.text_encoder = text_encoder
        self.use_ocr, self.use_faces, self.use_labels = bool(use_ocr), bool(use_faces), bool(use_labels)
        self.label_threshold = float(label_threshold)
        self.inpaint_marks = bool(inpaint_marks)
        self.carry_readings = bool(carry_readings)
        self.match_threshold = float(match_threshold)
        self.face_threshold = float(face_threshold)
        self.min_confidence = float(min_confidence)
        self.min_chars = int(min_chars)
        self.name_similarity = float(name_similarity)
        self.min_logo_inliers = int(min_logo_inliers)
        self.logo_finder = logo_finder
        self._gallery_vectors: tuple[list[str], np.ndarray] | None = None
        self._book = ReadingBook()
        parts = [p for p, on in (("ocr", use_ocr), ("faces", use_faces), ("logos", bool(self.logos)),
                                 ("labels", use_labels)) if on]
        suffix = ""
        if self.use_faces:
            suffix += (f"-g{_gallery_hash(self.gallery, 'gallery', caller)}"
                       f"-m{self.match_threshold:g}-f{self.face_threshold:g}")
        if self.logos:
            suffix += f"-L{_gallery_hash(self.logos, 'logos', caller)}" + (
                f"-F{logo_finder.provenance.get('key', 'x')[:8]}" if logo_finder is not None
                else f"-i{self.min_logo_inliers}")
        if self.use_labels:
            suffix += f"-l{self.label_threshold:g}" + ("-inpaint" if self.inpaint_marks else "")
        if self.use_ocr and (self.min_confidence, self.min_chars) != (0.8, 3):
            suffix += f"-c{self.min_confidence:g}-{self.min_chars}"
        if self.use_ocr and not self.carry_readings:
            suffix += "-nocarry"
        self.name = f"describe[{'+'.join(parts)}]-{text_encoder}{suffix}"
        self._settings_key = self.name  # the face-names memo's key, whatever name is set later

    def encode(self, items: Sequence[Any], *, cache: bool = True, progress: bool = False
               ) -> np.ndarray:
        """Unit-norm embeddings of the descriptions (see :meth:`Encoder.encode`).

        With ``carry_readings`` the description of a sanitized rendering depends on the
        readings of its original read before it, so whole-image vectors are not cached;
        the OCR readings and the text embeddings, the costly parts, are.
        """
        return super().encode(items, cache=cache and not (self.use_ocr and self.carry_readings),
                              progress=progress)

    def _gallery(self) -> tuple[list[str], np.ndarray]:
        if self._gallery_vectors is None:
            names, vecs = [], []
            for who, faces in self.gallery.items():
                for face in faces:
                    rgb = as_rgb(face, "gallery", "DescribeThenEmbedEncoder")
                    found = detect_faces(rgb, 0.5)
                    if not found:
                        raise invalid("gallery", "DescribeThenEmbedEncoder",
                                      "images in which a face can be detected",
                                      f"an image of {who!r} without a detectable face",
                                      "Crop the gallery image around the face.", given_is_text=True)
                    names.append(who)
                    vecs.append(face_features(rgb, found[:1])[0])
            self._gallery_vectors = (names, np.array(vecs).reshape(len(vecs), FACE_DIM))
        return self._gallery_vectors

    def induced_text(self, image: Any) -> list[tuple[Any, str]]:
        """Readings of a rendering that its sanitizer (or placebo) made, and why.

        Readings of a :func:`privlab.vision.ocr.read_rendering` rendering that align with
        none of the original's (``docs/methods/images-readers.md``).

        Returns:
            ``[(OCRWord, reason)]``; empty for an image with no known original.
        """
        from privlab.vision.ocr import rendering_of
        from privlab.vision.text_changes import align_readings

        rgb = as_rgb(image, "image", "DescribeThenEmbedEncoder.induced_text")
        origin = rendering_of(content_hash(rgb))
        if origin is None or origin.original == content_hash(rgb):
            return []
        raw = read_text(rgb)
        aligned = {j for a in align_readings(list(origin.original_words), raw) for j in a.observed}
        h, w = origin.marks.shape
        out = []
        for j, word in enumerate(raw):
            if j in aligned:
                continue
            x0, y0, x1, y1 = word.box
            near = origin.marks[max(0, y0 - 2):min(h, y1 + 2), max(0, x0 - 2):min(w, x1 + 2)]
            out.append((word, "at a mark" if near.any() else "not in the original"))
        return out

    def _readings(self, rgb: np.ndarray) -> tuple[list, list[str]]:
        """``(readings used, sanitizer-induced readings with why)``."""
        raw = read_text(rgb)
        induced = self.induced_text(rgb)
        if induced:
            skip = {id(word) for word, _ in induced}
            raw = [w for w in raw if id(w) not in skip]
        if self.carry_readings:
            raw = self._book.read(content_hash(rgb), rgb.shape, raw)
        return raw, [f"{word.text!r} ({why})" for word, why in induced]

    def _face_names(self, rgb: np.ndarray) -> list[str]:
        # the name carries the gallery's hash and both thresholds: the same image is named
        # once per process (originals recur in every audit, placebo and sub-study)
        key = (content_hash(rgb), self._settings_key)
        if key in _NAMES_MEMO:
            return list(_NAMES_MEMO[key])
        names: list[str] = []
        gnames, gvecs = self._gallery()
        for vec in face_features(rgb, usable_faces(rgb, self.face_threshold)):
            sims = gvecs @ vec
            best = int(np.argmax(sims))
            if sims[best] >= self.match_threshold and gnames[best] not in names:
                names.append(gnames[best])
        if len(_NAMES_MEMO) >= _NAMES_LIMIT:
            _NAMES_MEMO.pop(next(iter(_NAMES_MEMO)))
        _NAMES_MEMO[key] = tuple(names)
        return names

    def _logos_found(self, rgb: np.ndarray) -> list:
        if self.logo_finder is not None:
            return self.logo_finder.find(rgb)
        return match_logos(rgb, self.logos, min_inliers=self.min_logo_inliers)

    def describe_images(self, items: Sequence[Any]) -> list[Description]:
        """What this member reads in each image (the words behind its embedding).

        Returns:
            One :class:`Description` per image.
        """
        rgbs = [as_rgb(item, "items", "DescribeThenEmbedEncoder.describe_images") for item in items]
        labels: list[list[tuple[str, float]]] = [[] for _ in rgbs]
        if self.use_labels and rgbs:
            seen = [inpaint_marks(rgb) for rgb in rgbs] if self.inpaint_marks else rgbs
            labels = imagenet_labels(seen, self.label_threshold)
        out = []
        for rgb, labs in track(list(zip(rgbs, labels)), "images read", detail=True):
            induced: list[str] = []
            words = []
            if self.use_ocr:
                kept, induced = self._readings(rgb)
                words = [w.text for w in filter_words(kept, self.min_confidence, self.min_chars)]
            names = self._face_names(rgb) if self.use_faces and self.gallery else []
            read = names_in_text(words, list(self.gallery), min_similarity=self.name_similarity) \
                if self.gallery else []
            brands = list(dict.fromkeys(m.name for m in self._logos_found(rgb))) if self.logos else []
            brands += [b for b in names_in_text(words, list(self.logos),
                                                min_similarity=self.name_similarity)
                       if b not in brands] if self.logos else []
            everyone = names + [n for n in read if n not in names]
            lab = [name for name, _ in labs]
            raw_words = tuple(w.text for w in read_text(rgb)) if self.use_ocr else ()
            out.append(Description(tuple(words), tuple(names), tuple(lab),
                                   description_text(words, everyone, lab, brands),
                                   tuple(read), tuple(brands), raw_words, tuple(induced)))
        return out

    def _encode(self, items: Sequence[Any]) -> np.ndarray:
        texts = [d.text for d in self.describe_images(items)]
        with within():  # the words' embedding: within the last image read
            return get_encoder(self.text_encoder).encode(texts)

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "parts": [p for p, on in (
            ("ocr", self.use_ocr), ("faces", self.use_faces), ("logos", bool(self.logos)),
            ("labels", self.use_labels)) if on],
                "gallery": sorted(self.gallery), "logos": sorted(self.logos),
                "text_encoder": self.text_encoder,
                "labels": (f"on, read with marks inpainted: {self.inpaint_marks}"
                           if self.use_labels else LABELS_OFF_REASON),
                "label_threshold": self.label_threshold, "match_threshold": self.match_threshold,
                "carry_readings": self.carry_readings,
                **({"logo_finder": self.logo_finder.describe()} if self.logo_finder is not None
                   else {})}


@registry.member("ocr-text", modality="image", offline=True, description="OCR words only -> MiniLM")
def ocr_text(gallery=None, **kw) -> DescribeThenEmbedEncoder:
    """The plain OCR -> text member: describe-then-embed reading words only.

    ``gallery`` is accepted (and ignored) so that every image member takes the same call.

    Example:
        >>> ocr_text().name
        'describe[ocr]-minilm'
    """
    return DescribeThenEmbedEncoder(use_faces=False, use_labels=False, **kw)


__all__ = ["Description", "DescribeThenEmbedEncoder", "LABELS_OFF_REASON", "description_text",
           "ocr_text"]
