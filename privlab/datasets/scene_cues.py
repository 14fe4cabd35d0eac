"""The ground truth of a generated corpus as a sanitizer: black out chosen cue kinds.

A generated corpus (:mod:`privlab.datasets.scenes`) knows where each cue lies, so a
sanitizer can be made to remove every cue, or to miss chosen cue kinds on purpose, and
an audit can be checked against what is known to be left. :class:`CueRegions` is the
detector of that oracle for :class:`privlab.sanitizers.image.RegionSanitizer`;
:func:`cue_blackout` is the sanitizer the studies and the ensemble leak table use.
"""

from __future__ import annotations

from typing import Any, Sequence

from privlab.errors import invalid, item_list
from privlab.hashing import content_hash
from privlab.sanitizers.image import Detector, Region, RegionSanitizer, box_mask


class CueRegions(Detector):
    """The ground-truth cue boxes of a generated corpus (:mod:`privlab.datasets.scenes`).

    Images are matched by their pixels, so only the corpus's own images have cues.

    Args:
        corpus: a :class:`privlab.datasets.scenes.SceneCorpus`.
        kinds: the cue kinds to propose (the rest are left on purpose).

    Raises:
        ValueError: ``kinds`` empty or not among the corpus's kinds.

    Example:
        >>> from privlab.datasets.scenes import celebrity_scenes
        >>> corpus = celebrity_scenes(1)
        >>> [r.source for r in CueRegions(corpus, ["target_face"]).regions(corpus.images[0])]
        ['cue']
    """

    def __init__(self, corpus: Any, kinds: Sequence[str]):
        kinds = item_list(kinds, "kinds", "CueRegions")
        unknown = set(kinds) - set(corpus.kinds)
        if unknown or not kinds:
            raise invalid("kinds", "CueRegions", f"a non-empty subset of {list(corpus.kinds)}",
                          list(kinds))
        self.kinds = tuple(kinds)
        self._lookup = {content_hash(s.image): s for s in corpus.scenes}  # as scenes.cue_lookup
        self.name = "cues[" + "+".join(self.kinds) + "]"

    def regions(self, rgb):
        """The cue boxes of ``kinds`` in ``rgb`` (none for an image not of the corpus)."""
        scene = self._lookup.get(content_hash(rgb))
        if scene is None:
            return []
        return [Region(box_mask(rgb.shape[:2], b), 1.0, "cue") for b in scene.boxes(self.kinds)]


def cue_blackout(corpus: Any, kinds: Sequence[str], *, dilate: int = 2,
                 name: str | None = None) -> RegionSanitizer:
    """Black out chosen ground-truth cue kinds of a generated corpus (miss the rest on purpose).

    Args:
        corpus: a :class:`privlab.datasets.scenes.SceneCorpus`.
        kinds: the cue kinds to remove.
        dilate: margin in pixels around each cue box.
        name: display name (default ``"blackout cues[...]"``).

    Returns:
        A :class:`privlab.sanitizers.image.RegionSanitizer` that leaves foreign images as
        they are.

    Raises:
        ValueError: ``kinds`` empty or not among the corpus's kinds.

    Example:
        >>> from privlab.datasets.scenes import celebrity_scenes
        >>> cue_blackout(celebrity_scenes(1), ["target_face"]).name
        'blackout cues[target_face]'
    """
    det = CueRegions(corpus, kinds)
    return RegionSanitizer(det, threshold=0.0, dilate=dilate, name=name or f"blackout {det.name}")


__all__ = ["CueRegions", "cue_blackout"]
