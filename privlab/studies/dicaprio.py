"""Study 01 (paper §5.1, Table 1): personal privacy of a face, on generated scenes or photos.

The paper audits 30 photos of Leonardo DiCaprio under EVA-CLIP. Offline, the default
corpus is generated (:func:`privlab.datasets.scenes.celebrity_scenes`): the target is
astronaut Eileen Collins, the one real face shipped with scikit-image, with name
captions, a second person and a space poster seeded per scene. The members are the
offline ensemble (face identity, describe-then-embed, plain OCR, a generic CNN); the
paper's CLIP models are registry presets for users online.

    from privlab.studies import dicaprio
    result = dicaprio.run(dicaprio.Config())
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from privlab.config import smoke
from privlab.datasets.scenes import CELEBRITY_KINDS, celebrity_scenes
from privlab.studies._images import ImageStudyResult, run_image_study

PRESETS = {
    "every cue": CELEBRITY_KINDS,
    "faces only": ("target_face", "other_face"),
    "second face left": ("target_face", "caption", "poster"),
}
DEFAULT_SANITIZERS = ("cues:every cue", "cues:faces only", "cues:second face left",
                      "face-blackout-yunet", "faces-and-text-blackout", "face-blur-yunet")
DEFAULT_ENCODERS = ("sface", "describe-then-embed", "ocr-text", "efficientnet-lite0")


@dataclass
class Config:
    """Settings of study 01.

    Attributes:
        n_images: generated scenes (ignored with ``folder``).
        seed: generator seed.
        folder: a folder of real photos instead of the generated corpus.
        max_side: photos are downscaled to this longer side.
        sanitizers: ``"cues:<preset>"`` (ground truth, generated corpus only) or
            registered image sanitizer names.
        encoders: registered image members.
        gallery: ``{name: [face images]}`` for describe-then-embed (default: the
            generated corpus's two shipped faces; none for a folder).
        delta: the resolution at which items are flagged and members flag a leak.
        top_k: witnesses kept per audit.
        leak_table: also compute the per-cue leak-detection table (generated corpus).

    Example:
        >>> Config.smoke().n_images
        4
    """

    n_images: int = 30
    seed: int = 0
    folder: str | None = None
    max_side: int = 640
    sanitizers: tuple[str, ...] = DEFAULT_SANITIZERS
    encoders: tuple[str, ...] = DEFAULT_ENCODERS
    gallery: dict[str, list[Any]] | None = field(default=None, repr=False)
    delta: float = 0.0
    top_k: int = 5
    leak_table: bool = True

    @classmethod
    def smoke(cls) -> "Config":
        """Tiny settings for tests and ``PRIVLAB_SMOKE=1``."""
        return cls(n_images=4, sanitizers=("cues:every cue", "cues:faces only",
                                           "cues:second face left", "face-blackout-yunet"))

    @classmethod
    def default(cls) -> "Config":
        """:meth:`smoke` when ``privlab.config.smoke()`` is true, else the full settings."""
        return cls.smoke() if smoke() else cls()


def run(config: Config | None = None) -> ImageStudyResult:
    """Audit every sanitizer under every member on the celebrity corpus (or a folder).

    Args:
        config: settings (default :meth:`Config.default`).

    Returns:
        An :class:`privlab.studies._images.ImageStudyResult`.
    """
    config = config or Config.default()
    return run_image_study("01 DiCaprio", config, corpus_factory=celebrity_scenes, presets=PRESETS)


__all__ = ["Config", "DEFAULT_ENCODERS", "DEFAULT_SANITIZERS", "PRESETS", "run"]
