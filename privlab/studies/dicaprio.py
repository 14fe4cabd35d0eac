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

from dataclasses import dataclass

from privlab.datasets.scenes import CELEBRITY_KINDS, celebrity_scenes
from privlab.studies._images import ImageStudyConfig, ImageStudyResult, run_image_study
from privlab.studies.contract import registry

STUDY = "01 DiCaprio"
PRESETS = {
    "every cue": CELEBRITY_KINDS,
    "faces only": ("target_face", "other_face"),
    "second face left": ("target_face", "caption", "poster"),
}
DEFAULT_SANITIZERS = ("cues:every cue", "cues:faces only", "cues:second face left",
                      "face-blackout-yunet", "faces-and-text-blackout", "face-blur-yunet")
DEFAULT_ENCODERS = ("sface", "describe-then-embed", "ocr-text", "efficientnet-lite0")


@dataclass
class Config(ImageStudyConfig):
    """Settings of study 01 (fields: :class:`privlab.studies._images.ImageStudyConfig`).

    Example:
        >>> Config.smoke().n_images
        4
    """

    sanitizers: tuple[str, ...] = DEFAULT_SANITIZERS
    encoders: tuple[str, ...] = DEFAULT_ENCODERS

    @classmethod
    def smoke_settings(cls) -> dict:
        """Tiny settings for tests and ``PRIVLAB_SMOKE=1``."""
        return dict(n_images=4, sanitizers=("cues:every cue", "cues:faces only",
                                            "cues:second face left", "face-blackout-yunet"))


@registry.member("dicaprio", number="01", title=STUDY, notebook="01_dicaprio")
def run(config: Config | None = None) -> ImageStudyResult:
    """Audit every sanitizer under every member on the celebrity corpus (or a folder).

    Args:
        config: settings (default :meth:`Config.for_notebook`).

    Returns:
        An :class:`privlab.studies._images.ImageStudyResult`.
    """
    config = config or Config.for_notebook()
    return run_image_study(STUDY, config, corpus_factory=celebrity_scenes, presets=PRESETS)


__all__ = ["STUDY", "Config", "DEFAULT_ENCODERS", "DEFAULT_SANITIZERS", "PRESETS", "run"]
