"""Study 02 (paper §5.2): brand privacy, on generated brand scenes or photos.

A fictional brand's scenes (or a folder of photos, ``data=``) are audited with placebo
twins; a logo gallery (``logos=``) reaches the logo sanitizer, the member that reads
logos, the logo check and the placebo. See ``docs/methods/studies-image.md``.

    from privlab.studies import mcdonalds
    result = mcdonalds.run(mcdonalds.Config())
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from privlab.datasets.scenes import BRAND_KINDS, BRAND_NAME, brand_scenes, draw_logo
from privlab.studies._images import (CUE_PREFIX, GROUND_TRUTH_REASON, ImageStudyConfig,
                                     ImageStudyResult, folder_reason, members_param,
                                     run_image_study, sanitizers_param)
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
#: The generated cues that carry the brand (checked against the ground truth).
CONCEPT_CUES = ("logo", "small_logo", "brand_text")
#: Added to the default sanitizers when a logo gallery is given.
LOGO_SANITIZERS = ("logo-blackout",)
#: Side of the generated brand's glyph in its default logo gallery.
LOGO_SIDE = 128


def default_logos(corpus) -> dict:
    """The generated corpus's logo gallery: its brand's glyph (:func:`draw_logo`).

    Example:
        >>> {k: v[0].shape for k, v in default_logos(brand_scenes(1)).items()}
        {'QUIKBITE': (128, 128, 3)}
    """
    return {BRAND_NAME: [draw_logo(LOGO_SIDE)]}


@dataclass
class Config(ImageStudyConfig):
    """Settings of study 02 (fields: :class:`privlab.studies._images.ImageStudyConfig`).

    With a folder in ``data`` the sanitizers default to :data:`FOLDER_SANITIZERS`; ``cues:``
    presets are refused there, with the reason.

    Example:
        >>> Config.smoke().n_images, Config(data="photos").sanitizers[0]
        (3, 'text-blackout-ocr')
    """

    default_sanitizers: ClassVar[tuple[str, ...]] = DEFAULT_SANITIZERS
    folder_sanitizers: ClassVar[tuple[str, ...]] = FOLDER_SANITIZERS
    logo_sanitizers: ClassVar[tuple[str, ...]] = LOGO_SANITIZERS

    sanitizers: tuple[str, ...] | None = sanitizers_param(PRESETS)
    encoders: tuple[str, ...] = members_param(DEFAULT_ENCODERS)

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
    return run_image_study(STUDY, config, corpus_factory=brand_scenes, presets=PRESETS,
                           default_logos=default_logos, concept_cues=CONCEPT_CUES)


__all__ = ["STUDY", "Config", "DEFAULT_ENCODERS", "DEFAULT_SANITIZERS", "FOLDER_SANITIZERS",
           "CONCEPT_CUES", "CUE_PREFIX", "GROUND_TRUTH_REASON", "LOGO_SANITIZERS", "LOGO_SIDE",
           "PRESETS", "default_logos", "folder_reason", "run"]
