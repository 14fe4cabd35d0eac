"""Inpainting members: faces and text filled from their surroundings instead of black boxes.

A black box tells every image member where something was removed; inpainting (OpenCV's
Telea or Navier-Stokes method, :func:`privlab.sanitizers.fill.fill_region`) fills the
region from the colours around it. Each member is a
:class:`~privlab.sanitizers.image.RegionSanitizer` in ``mode="inpaint-telea"`` (pass
``mode="inpaint-ns"`` for Navier-Stokes); every other knob works as for the blackout
members.
"""

from __future__ import annotations

from privlab.sanitizers.base import registry
from privlab.sanitizers.image import OCRText, RegionSanitizer, YuNetFaces


def _inpaint(detectors, name: str, kw: dict) -> RegionSanitizer:
    kw = {"mode": "inpaint-telea", **kw}
    return RegionSanitizer(detectors, name=kw.pop("name", f"{name} ({kw['mode']})"), **kw)


@registry.member("face-inpaint-yunet", modality="image", offline=True,
                 description="faces found by YuNet inpainted from their surroundings")
def face_inpaint_yunet(concepts=None, **kw) -> RegionSanitizer:
    """Faces found by YuNet inpainted (Telea; ``mode="inpaint-ns"`` for Navier-Stokes).

    Example:
        >>> s = face_inpaint_yunet(); s.mode, s.name
        ('inpaint-telea', 'face inpaint YuNet (inpaint-telea)')
        >>> face_inpaint_yunet(mode="inpaint-ns").name
        'face inpaint YuNet (inpaint-ns)'
    """
    return _inpaint(YuNetFaces(), "face inpaint YuNet", kw)


@registry.member("text-inpaint-ocr", modality="image", offline=True,
                 description="text read by rapidocr inpainted from its surroundings")
def text_inpaint_ocr(concepts=None, **kw) -> RegionSanitizer:
    """Text read by rapidocr inpainted (Telea; ``mode="inpaint-ns"`` for Navier-Stokes).

    Example:
        >>> text_inpaint_ocr().detectors[0].name
        'ocr-text'
    """
    return _inpaint(OCRText(), "text inpaint OCR", kw)


@registry.member("faces-and-text-inpaint", modality="image", offline=True,
                 description="YuNet faces and OCR text inpainted from their surroundings")
def faces_and_text_inpaint(concepts=None, **kw) -> RegionSanitizer:
    """YuNet faces and OCR text inpainted.

    Example:
        >>> [d.name for d in faces_and_text_inpaint().detectors]
        ['yunet', 'ocr-text']
    """
    return _inpaint([YuNetFaces(), OCRText()], "faces + text inpaint", kw)


__all__ = ["face_inpaint_yunet", "faces_and_text_inpaint", "text_inpaint_ocr"]
