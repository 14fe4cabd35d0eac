"""Logo removal: the brand marks of a gallery, found by local features, painted over.

:class:`LogoRegions` boxes every gallery logo that :func:`privlab.vision.logos.match_logos`
finds (SIFT matches agreeing on one homography, so a logo is found under scale,
rotation and perspective). A region's score is ``inliers / (inliers + min_inliers)``:
0.5 for a logo found with just ``min_inliers`` agreeing matches, nearer 1 with more
evidence, so the sanitizer's ``threshold`` asks for more evidence than the matcher does
(``threshold`` t keeps logos with at least ``min_inliers * t / (1 - t)`` inliers).

The gallery is the user's: ``registry.create("logo-blackout", logos={"brand": [image,
...]})``. On photos pass ``finder=`` a :class:`~privlab.vision.logo_finder.LogoFinder`
(:func:`~privlab.vision.logo_finder.fit_logo_finder`): its fitted head finds the logos
(every box of a found brand scores the logistic of the decision value of the brand's
strongest window, 0.5 at the head's threshold, so the weaker copies the finder marks
with it are painted over too).
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import numpy as np

from privlab.errors import invalid, wrong_type
from privlab.sanitizers.base import registry
from privlab.sanitizers.image import Detector, Region, RegionSanitizer, box_mask
from privlab.vision.logos import DEFAULT_MIN_INLIERS, match_logos


class LogoRegions(Detector):
    """Boxes of the gallery's logos found in an image.

    Args:
        gallery: ``{brand name: [logo images]}`` (PIL images or uint8 arrays).
        min_inliers: matches a logo needs (see :func:`privlab.vision.logos.match_logos`).

    Raises:
        TypeError: ``gallery`` is not a mapping.
        ValueError: an empty gallery, a bad logo image or ``min_inliers`` under 4.

    Example:
        >>> from skimage import data
        >>> from privlab.vision.images import as_rgb
        >>> photo = np.full((300, 400, 3), 120, np.uint8)
        >>> photo[50:300, 100:350] = as_rgb(data.logo())[::2, ::2]
        >>> [r.source for r in LogoRegions({"skimage": [data.logo()]}).regions(photo)]
        ['skimage']
    """

    def __init__(self, gallery: Mapping[str, Sequence[Any]], min_inliers: int = DEFAULT_MIN_INLIERS,
                 method: str = "sift", finder: Any = None):
        caller = "LogoRegions"
        if finder is not None:
            from privlab.vision.logo_finder import LogoFinder

            if not isinstance(finder, LogoFinder):
                raise wrong_type("finder", caller, "a LogoFinder from fit_logo_finder, or None",
                                 finder)
            method = "finder"
        if not isinstance(gallery, Mapping):
            raise wrong_type("gallery", caller, "a mapping of brand name -> list of logo images",
                             gallery)
        if not gallery:
            raise invalid("gallery", caller, "a non-empty mapping of brand name -> logo images",
                          gallery)
        # match_logos checks the gallery and min_inliers; a blank image costs no matching.
        match_logos(np.zeros((8, 8, 3), np.uint8), gallery, min_inliers=min_inliers)
        if method not in ("sift", "features", "finder"):
            raise invalid("method", caller, "'sift' (keypoints) or 'features' (learned)", method)
        self.gallery, self.min_inliers, self.method = dict(gallery), int(min_inliers), method
        self.finder = finder
        self.name = f"logos[{','.join(self.gallery)}]" + ("" if method == "sift" else f"@{method}")

    def regions(self, rgb):
        if self.finder is not None:
            # Every box of a found brand scores the decision that found it (the logistic of
            # the brand's strongest window, 0.5 at the threshold): the extension's boxes,
            # the weaker copies of the mark, sit below the threshold and would otherwise
            # fall under the sanitizer's own threshold and stay in the picture.
            found = self.finder.find(rgb)
            best = {}
            for m in found:
                best[m.name] = max(best.get(m.name, -np.inf), m.score - self.finder.head.threshold)
            return [Region(box_mask(rgb.shape[:2], m.box),
                           float(1 / (1 + np.exp(-best[m.name]))), m.name) for m in found]
        # Keypoint finds score by their inliers, learned finds by their cosine (LogoMatch.score).
        return [Region(box_mask(rgb.shape[:2], m.box),
                       m.inliers / (m.inliers + self.min_inliers) if self.method == "sift"
                       else m.score, m.name)
                for m in match_logos(rgb, self.gallery, min_inliers=self.min_inliers,
                                     method=self.method)]

    def describe(self) -> dict[str, Any]:
        out = {"detector": self.name, "brands": list(self.gallery),
               "min_inliers": self.min_inliers, "method": self.method}
        if self.finder is not None:
            out["finder"] = self.finder.describe()
        return out


@registry.member("logo-blackout", modality="image", offline=True,
                 description="the logos of a user gallery (SIFT + homography) painted black")
def logo_blackout(concepts=None, logos: Mapping[str, Sequence[Any]] | None = None,
                  min_inliers: int = DEFAULT_MIN_INLIERS, method: str = "sift",
                  finder: Any = None, **kw) -> RegionSanitizer:
    """The gallery's logos painted black (``kw`` go to :class:`RegionSanitizer`).

    Args:
        concepts: ignored (the gallery says what to remove).
        logos: ``{brand name: [logo images]}``, required.
        min_inliers: matches a logo needs.
        method: ``"sift"`` (keypoints: printed copies of the artwork) or ``"features"``
            (learned features: logos on real signs; see benchmarks/logos.py).
        finder: a :class:`~privlab.vision.logo_finder.LogoFinder` fitted on this
            gallery (overrides ``method``; what the brand study passes on photos).

    Raises:
        ValueError: ``logos`` is missing.

    Example:
        >>> from skimage import data
        >>> logo_blackout(logos={"skimage": [data.logo()]}).name
        'logo blackout (skimage)'
    """
    if logos is None:
        raise invalid("logos", "logo-blackout", "a gallery {brand name: [logo images]}", None,
                      "Pass the logos to remove, e.g. registry.create('logo-blackout', "
                      "logos={'acme': [acme_logo]}).")
    detector = LogoRegions(logos, min_inliers, method, finder)
    return RegionSanitizer(detector, name=kw.pop("name", f"logo blackout ({', '.join(detector.gallery)})"),
                           **kw)


__all__ = ["LogoRegions", "logo_blackout"]
