"""Study 02 (paper §5.2): brand privacy, on generated brand scenes or photos.

The paper audits 49 photos of McDonald's restaurants. Offline, the default corpus is
generated (:func:`privlab.datasets.scenes.brand_scenes`): a fictional brand, QUIKBITE,
whose logo is an original glyph drawn by privlab, on storefronts, cups, bags and signs,
with the name in text and fries-like and burger-like props. Every sanitizer is audited
with its placebo twin and the headline reports the excess over it; ``folder=`` audits
a folder of real photos instead.

    from privlab.studies import mcdonalds
    result = mcdonalds.run(mcdonalds.Config())
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from privlab.datasets.scenes import BRAND_KINDS, brand_scenes
from privlab.studies._images import ImageStudyConfig, ImageStudyResult, run_image_study
from privlab.studies.contract import registry

STUDY = "02 McDonald's"
PRESETS = {
    "every cue": BRAND_KINDS,
    "logos and name (food left)": ("logo", "small_logo", "brand_text"),
    "large logos, name, food (small logos left)": ("logo", "brand_text", "food"),
    "logos and food (name left)": ("logo", "small_logo", "food"),
}
DEFAULT_SANITIZERS = tuple(f"cues:{k}" for k in PRESETS) + ("text-blackout-ocr",)
#: Defaults for a folder of photos: detector-based sanitizers only (no ground truth there).
FOLDER_SANITIZERS = ("text-blackout-ocr", "faces-and-text-blackout", "face-blackout-yunet",
                     "face-blur-yunet")
DEFAULT_ENCODERS = ("describe-then-embed", "ocr-text", "efficientnet-lite0", "sface")


@dataclass
class Config(ImageStudyConfig):
    """Settings of study 02 (fields: :class:`privlab.studies._images.ImageStudyConfig`).

    With ``folder=`` the sanitizers default to :data:`FOLDER_SANITIZERS`; ``cues:``
    presets are refused there, with the reason.

    Example:
        >>> Config.smoke().n_images, Config(folder="photos").sanitizers[0]
        (3, 'text-blackout-ocr')
    """

    default_sanitizers: ClassVar[tuple[str, ...]] = DEFAULT_SANITIZERS
    folder_sanitizers: ClassVar[tuple[str, ...]] = FOLDER_SANITIZERS

    encoders: tuple[str, ...] = DEFAULT_ENCODERS

    @classmethod
    def smoke_settings(cls) -> dict:
        """Tiny settings for tests and ``PRIVLAB_SMOKE=1``."""
        return dict(n_images=3, sanitizers=("cues:every cue", "cues:logos and name (food left)",
                                            "cues:logos and food (name left)"))


@registry.member("mcdonalds", number="02", title=STUDY, notebook="02_mcdonalds")
def run(config: Config | None = None) -> ImageStudyResult:
    """Audit every sanitizer under every member on the brand corpus (or a folder).

    Args:
        config: settings (default :meth:`Config.for_notebook`).

    Returns:
        An :class:`privlab.studies._images.ImageStudyResult`.
    """
    config = config or Config.for_notebook()
    return run_image_study(STUDY, config, corpus_factory=brand_scenes, presets=PRESETS)


__all__ = ["STUDY", "Config", "DEFAULT_ENCODERS", "DEFAULT_SANITIZERS", "FOLDER_SANITIZERS",
           "PRESETS", "run"]
