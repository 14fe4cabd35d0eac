"""Study 02 (paper §5.2): brand privacy, on generated brand scenes or photos.

The paper audits 49 photos of McDonald's restaurants. Offline, the default corpus is
generated (:func:`privlab.datasets.scenes.brand_scenes`): a fictional brand, QUIKBITE,
whose logo is an original glyph drawn by privlab, on storefronts, cups, bags and signs,
with the name in text and fries-like and burger-like props.

    from privlab.studies import mcdonalds
    result = mcdonalds.run(mcdonalds.Config())
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from privlab.config import smoke
from privlab.datasets.scenes import BRAND_KINDS, brand_scenes
from privlab.studies._images import ImageStudyResult, run_image_study

PRESETS = {
    "every cue": BRAND_KINDS,
    "logos and name (food left)": ("logo", "small_logo", "brand_text"),
    "large logos, name, food (small logos left)": ("logo", "brand_text", "food"),
    "logos and food (name left)": ("logo", "small_logo", "food"),
}
DEFAULT_SANITIZERS = tuple(f"cues:{k}" for k in PRESETS) + ("text-blackout-ocr",)
DEFAULT_ENCODERS = ("describe-then-embed", "ocr-text", "efficientnet-lite0", "sface")


@dataclass
class Config:
    """Settings of study 02 (see :class:`privlab.studies.dicaprio.Config` for the fields).

    Example:
        >>> Config.smoke().n_images
        3
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
        return cls(n_images=3, sanitizers=("cues:every cue", "cues:logos and name (food left)",
                                           "cues:logos and food (name left)"))

    @classmethod
    def default(cls) -> "Config":
        """:meth:`smoke` when ``privlab.config.smoke()`` is true, else the full settings."""
        return cls.smoke() if smoke() else cls()


def run(config: Config | None = None) -> ImageStudyResult:
    """Audit every sanitizer under every member on the brand corpus (or a folder).

    Args:
        config: settings (default :meth:`Config.default`).

    Returns:
        An :class:`privlab.studies._images.ImageStudyResult`.
    """
    config = config or Config.default()
    return run_image_study("02 McDonald's", config, corpus_factory=brand_scenes, presets=PRESETS)


__all__ = ["Config", "DEFAULT_ENCODERS", "DEFAULT_SANITIZERS", "PRESETS", "run"]
