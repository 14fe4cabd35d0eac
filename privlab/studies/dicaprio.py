"""Study 01 (paper §5.1, Table 1): personal privacy of a face, on generated scenes or photos.

The paper audits 30 photos of Leonardo DiCaprio under EVA-CLIP. Offline, the default
corpus is generated (:func:`privlab.datasets.scenes.celebrity_scenes`): the target is
astronaut Eileen Collins, the one real face shipped with scikit-image, with name
captions, a second person and a space poster seeded per scene. The members are the
offline ensemble (face identity, describe-then-embed, plain OCR, a generic CNN); the
paper's CLIP models are registry presets for users online. Every sanitizer is audited
with its placebo twin (the same marks where no cue is), and the headline reports each
member's excess over that floor. ``folder=`` audits a folder of real photos instead.

    from privlab.studies import dicaprio
    result = dicaprio.run(dicaprio.Config())
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

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
#: Defaults for a folder of photos: detector-based sanitizers only (no ground truth there).
FOLDER_SANITIZERS = ("face-blackout-yunet", "faces-and-text-blackout", "face-blur-yunet",
                     "text-blackout-ocr")
DEFAULT_ENCODERS = ("sface", "describe-then-embed", "ocr-text", "efficientnet-lite0")


@dataclass
class Config(ImageStudyConfig):
    """Settings of study 01 (fields: :class:`privlab.studies._images.ImageStudyConfig`).

    With ``folder=`` the sanitizers default to :data:`FOLDER_SANITIZERS`; ``cues:``
    presets are refused there, with the reason.

    Example:
        >>> Config.smoke().n_images, Config(folder="photos").sanitizers[0]
        (4, 'face-blackout-yunet')
    """

    default_sanitizers: ClassVar[tuple[str, ...]] = DEFAULT_SANITIZERS
    folder_sanitizers: ClassVar[tuple[str, ...]] = FOLDER_SANITIZERS

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


__all__ = ["STUDY", "Config", "DEFAULT_ENCODERS", "DEFAULT_SANITIZERS", "FOLDER_SANITIZERS",
           "PRESETS", "run"]
