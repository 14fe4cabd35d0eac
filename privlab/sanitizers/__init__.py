"""Sanitizers (privacy mechanisms X_c): the protocol, the registry, built-in members.

Registry factories take the study's concept list where they need one::

    from privlab.sanitizers import registry
    sanitizer = registry.create("concept-list", concepts=["Ken Lay"])

Add your own by subclassing :class:`Sanitizer` (implement ``_sanitize_one``) and
registering a factory with ``modality`` and ``offline`` metadata.
"""

from privlab.registry import Registry
from privlab.sanitizers.base import Identity, Sanitizer
from privlab.sanitizers.text import (
    BOX,
    PII_PATTERNS,
    ConceptListSanitizer,
    RegexPIISanitizer,
    concept_pattern,
)

registry = Registry("sanitizer")
registry.register("identity", lambda concepts=None, **kw: Identity(**kw), modality="text",
                  offline=True, description="changes nothing (baseline)")
registry.register("concept-list", lambda concepts=(), **kw: ConceptListSanitizer(concepts, **kw),
                  modality="text", offline=True,
                  description="exact words and phrases replaced by boxes")
registry.register("regex-pii", lambda concepts=None, **kw: RegexPIISanitizer(**kw),
                  modality="text", offline=True,
                  description="emails, phones, IDs, money by pattern")

__all__ = ["BOX", "PII_PATTERNS", "ConceptListSanitizer", "Identity", "RegexPIISanitizer",
           "Sanitizer", "concept_pattern", "registry"]

# Presidio and spaCy entity types (offline, packaged spaCy model).
from privlab.sanitizers.presidio import EntityTypeSanitizer, PresidioSanitizer  # noqa: E402

registry.register("presidio", lambda concepts=None, **kw: PresidioSanitizer(**kw), modality="text",
                  offline=True, description="Microsoft Presidio, all recognizers, every candidate")
registry.register("entity-types", lambda concepts=None, **kw: EntityTypeSanitizer(**kw),
                  modality="text", offline=True,
                  description="spaCy named entities (people, organisations, places, works)")
__all__ += ["EntityTypeSanitizer", "PresidioSanitizer"]

# Image sanitizers (privlab.sanitizers.image): detector-driven blackout and blur offline,
# text-prompted segmentation and the two-phase LLM pipeline for users online.
from privlab.sanitizers import image as _image  # noqa: E402

registry.register("image-identity", lambda concepts=None, **kw: Identity(modality="image"),
                  modality="image", offline=True, description="changes nothing (baseline)")
registry.register("face-blackout-yunet", lambda concepts=None, **kw: _image.RegionSanitizer(
    _image.YuNetFaces(), name="face blackout (YuNet)", **kw), modality="image", offline=True,
                  description="faces found by YuNet painted black")
registry.register("face-blur-yunet", lambda concepts=None, **kw: _image.RegionSanitizer(
    _image.YuNetFaces(), mode="blur", blur=kw.pop("blur", 12), name="face blur (YuNet)", **kw),
                  modality="image", offline=True, description="faces found by YuNet blurred")
registry.register("face-blackout-haar", lambda concepts=None, **kw: _image.RegionSanitizer(
    _image.HaarFaces(), name="face blackout (Haar)", **kw), modality="image", offline=True,
                  description="faces found by OpenCV's Haar cascade painted black")
registry.register("face-blackout-mtcnn", lambda concepts=None, **kw: _image.RegionSanitizer(
    _image.MTCNNFaces(), name="face blackout (MTCNN)", **kw), modality="image",
                  offline=_image.mtcnn_available(),
                  description="faces found by MTCNN painted black (needs facenet-pytorch)")
registry.register("text-blackout-ocr", lambda concepts=None, **kw: _image.RegionSanitizer(
    _image.OCRText(), name="text blackout (OCR)", **kw), modality="image", offline=True,
                  description="text read by rapidocr painted black")
registry.register("faces-and-text-blackout", lambda concepts=None, **kw: _image.RegionSanitizer(
    [_image.YuNetFaces(), _image.OCRText()], name="faces + text blackout", **kw),
                  modality="image", offline=True,
                  description="YuNet faces and OCR text painted black")
registry.register("clipseg", lambda concepts=("face",), **kw: _image.RegionSanitizer(
    _image.CLIPSegRegions(list(concepts)), **kw), modality="image", offline=False,
                  description="text-prompted CLIPSeg regions painted black (hub weights)")
registry.register("sam3", lambda concepts=("head", "skin"), **kw: _image.RegionSanitizer(
    _image.SAM3Regions(list(concepts)), **{"threshold": 0.2, "blur": 20, "dilate": 25,
                                           "min_coverage": 1e-5, **kw}), modality="image",
                  offline=False, description="SAM 3 text-prompted regions (the paper's knobs)")

# Language-model redaction through an OpenAI-compatible endpoint.
from privlab.sanitizers.llm_text import LLMRedactionSanitizer  # noqa: E402

registry.register("llm", lambda concepts=(), concept=None, **kw: LLMRedactionSanitizer(
    concept or ", ".join(concepts) or "the target", **kw), modality="text", offline=False,
    description="a language model redacts the concept (needs an endpoint)")
__all__ += ["LLMRedactionSanitizer"]

# Span models for users who have them: GLiNER and OpenAI's privacy filter.
from privlab.sanitizers.adapters import GLiNERSanitizer, TokenClassifierSanitizer  # noqa: E402

registry.register("gliner", lambda concepts=(), labels=None, **kw: GLiNERSanitizer(
    labels or ["person", "organization", "film franchise", "fictional character"], **kw),
    modality="text", offline=False, description="GLiNER open-vocabulary entities (pip install gliner)")
registry.register("privacy-filter", lambda concepts=None, **kw: TokenClassifierSanitizer(**kw),
                  modality="text", offline=False,
                  description="OpenAI privacy filter through transformers (needs the model)")
__all__ += ["GLiNERSanitizer", "TokenClassifierSanitizer"]
