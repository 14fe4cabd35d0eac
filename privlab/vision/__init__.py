"""Detectors and readers for images: image conversion, faces, OCR, ImageNet labels.

* :mod:`privlab.vision.images` — :func:`as_rgb`, the one input form of every detector.
* :mod:`privlab.vision.faces` — YuNet faces and SFace identity vectors.
* :mod:`privlab.vision.ocr` — rapidocr readings, cached on disk.
* :mod:`privlab.vision.imagenet` — EfficientNet-Lite0 ImageNet labels and features.

Sanitizers find what to remove with these; image encoders describe what is left with them.
The models load on first use.
"""

from privlab.vision.faces import (
    FACE_DIM,
    SFACE_MATCH_THRESHOLD,
    Face,
    black_fraction,
    detect_faces,
    face_coordinates,
    face_features,
    face_model_paths,
    usable_faces,
)
from privlab.vision.imagenet import (efficientnet, imagenet_batch, imagenet_categories,
                                      imagenet_labels)
from privlab.vision.images import as_rgb
from privlab.vision.ocr import OCRWord, filter_words, read_text

__all__ = ["FACE_DIM", "Face", "OCRWord", "SFACE_MATCH_THRESHOLD", "as_rgb", "black_fraction",
           "detect_faces", "efficientnet", "face_coordinates", "face_features",
           "face_model_paths", "filter_words", "imagenet_batch", "imagenet_categories",
           "imagenet_labels", "read_text", "usable_faces"]
