"""The logo finder an audit uses: a head fitted on the gallery, its threshold chosen on
photos without the logo, cached by content.

:func:`fit_logo_finder` fits a :class:`~privlab.vision.logos.LogoHead` on the gallery's crops,
their source photos and background photos (never audited ones) and sets each brand's threshold
by cross-validation on the backgrounds. The study, the logo blackout, describe-then-embed and
the logo check all call :meth:`LogoFinder.find`. The method:
``docs/methods/images-logo-features.md``; what it finds: ``docs/methods/logo-finder.md``; how
the recipe was chosen: ``docs/decisions/2026-12-05-logo-finder.md``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any, Mapping, Sequence

import numpy as np

from privlab.errors import invalid, wrong_type
from privlab.hashing import bytes_hash, content_hash
from privlab.vision.images import as_rgb
from privlab.vision.logos import LogoGallery, LogoHead, LogoMatch, find_logos, load_logo_gallery

RECIPE = "logo-finder-5"
FOLDS = 3
MARGIN = 0.01
QUANTILE = 0.9
EXTEND = 2.0  # log-odds below the threshold that the other copies of a found mark are marked at
STRENGTH = 1.0
MAX_NEGATIVES = 40000
FOUND_LIMIT = 4096  # images whose finds a LogoFinder remembers (a few boxes each)
#: What the package backgrounds are (for provenance).
PACKAGE_BACKGROUNDS = "scikit-image sample photos, scikit-learn's china.jpg and flower.jpg"
_SKIMAGE = ("astronaut", "coffee", "chelsea", "rocket", "colorwheel", "hubble_deep_field",
            "immunohistochemistry", "retina", "camera", "coins", "moon", "page", "text",
            "brick", "grass", "gravel")


def package_backgrounds() -> list[np.ndarray]:
    """Photos without a brand's mark that ship with installed packages.

    Returns:
        RGB arrays: :data:`_SKIMAGE` sample images (those that load offline) and
        scikit-learn's two sample photos.
    """
    import skimage.data
    from sklearn.datasets import load_sample_image

    out = []
    for name in _SKIMAGE:
        try:
            out.append(as_rgb(getattr(skimage.data, name)(), "background", "package_backgrounds"))
        except Exception:  # a sample that needs a download is left out
            continue
    out += [load_sample_image(n) for n in ("china.jpg", "flower.jpg")]
    return out


@dataclass(frozen=True)
class LogoFinder:
    """A gallery with the head that finds its brands (from :func:`fit_logo_finder`).

    Attributes:
        gallery: the crops.
        head: the fitted head (each brand's threshold folded into its intercept).
        provenance: what the head was fitted on and how its threshold was chosen.
    """

    gallery: LogoGallery
    head: LogoHead
    provenance: dict = field(default_factory=dict)
    # An audit asks about the same image many times (sanitizer, members, placebo, check).
    _found: dict = field(default_factory=dict, compare=False, repr=False)

    def find(self, image: Any) -> list[LogoMatch]:
        """Every gallery brand found in ``image``, strongest first (:func:`find_logos`);
        remembered by the image's pixels (the last :data:`FOUND_LIMIT` images)."""
        rgb = as_rgb(image, "image", "LogoFinder.find")
        key = content_hash(rgb)
        if key not in self._found:
            if len(self._found) >= FOUND_LIMIT:
                self._found.pop(next(iter(self._found)))
            self._found[key] = tuple(find_logos(rgb, self.gallery, head=self.head))
        return list(self._found[key])

    def find_possible(self, image: Any) -> list[LogoMatch]:
        """Every window that would be marked were its brand found: each window within the
        head's ``extend`` of the threshold, whether or not one reaches it (equal to
        :meth:`find` for a head without an extension); remembered like :meth:`find`.

        What the placebo avoids: a window avoided in vain costs the placebo some room,
        while a copy of the mark it does not avoid puts a real removal in the floor.
        """
        rgb = as_rgb(image, "image", "LogoFinder.find_possible")
        key = "possible-" + content_hash(rgb)
        if key not in self._found:
            if len(self._found) >= FOUND_LIMIT:
                self._found.pop(next(iter(self._found)))
            head = replace(self.head, extend=0.0)
            self._found[key] = tuple(find_logos(rgb, self.gallery, head=head,
                                                threshold=self.head.threshold - self.head.extend))
        return list(self._found[key])

    def describe(self) -> dict[str, Any]:
        return dict(self.provenance)

    def __repr__(self) -> str:
        p = self.provenance
        return (f"LogoFinder({', '.join(self.gallery)}; head fitted on {p.get('fitted_on')}; "
                f"threshold {p.get('thresholds')})")


def _check_photos(photos: Any, gallery: LogoGallery, caller: str) -> dict[str, list]:
    if photos is None:
        return {}
    if not isinstance(photos, Mapping):
        raise wrong_type("photos", caller, "a mapping {brand: [(photo, boxes), ...]} or None",
                         photos)
    out: dict[str, list] = {}
    for brand, items in photos.items():
        if brand not in gallery:
            raise invalid("photos", caller, f"brands of the gallery ({sorted(gallery)})", brand,
                          "Add a crop of that brand to the gallery, or drop its photos.")
        rows = []
        for item in items:
            if not isinstance(item, (tuple, list)) or len(item) != 2:
                raise invalid("photos", caller, "(photo, boxes) pairs", item,
                              f"Give {{{brand!r}: [(photo, [(x0, y0, x1, y1)])]}}.")
            rows.append((as_rgb(item[0], "photos", caller), [tuple(b) for b in item[1]]))
        out[brand] = rows
    return out


def _fit(gallery, positives, negatives, *, strength, max_negatives, seed) -> LogoHead:
    from privlab.vision.logo_head import fit_logo_head

    examples = {b: positives.get(b, []) + negatives for b in gallery}
    return fit_logo_head(gallery, examples, threshold=0.0, strength=strength,
                         max_negatives=max_negatives, seed=seed)


def fit_logo_finder(gallery: Any, photos: Mapping[str, Sequence[tuple[Any, Sequence]]] | None = None,
                    backgrounds: Sequence[Any] | None = None, *, folds: int = FOLDS,
                    quantile: float = QUANTILE,
                    add_package_backgrounds: bool = True, strength: float = STRENGTH,
                    max_negatives: int = MAX_NEGATIVES, cache: bool = True) -> LogoFinder:
    """A :class:`LogoFinder` for ``gallery``, its threshold chosen on held-out backgrounds.

    Never pass audited photos here (``docs/methods/images-logo-features.md``).

    Args:
        gallery: a :class:`LogoGallery` or anything :func:`load_logo_gallery` reads.
        photos: ``{brand: [(photo, boxes)]}``: photos the crops were cut from (not
            audited), with the boxes ``(x0, y0, x1, y1)`` of every mark in them.
        backgrounds: photos without any gallery brand, not audited (None: only
            :func:`package_backgrounds`); at least ``folds`` of them.
        folds: cross-validation folds for the threshold (2 or more).
        quantile: the threshold sits :data:`MARGIN` above this quantile of the held-out
            backgrounds' best windows, in (0, 1]: about ``1 - quantile`` of photos like
            the backgrounds get a find (higher: fewer false finds, more missed marks).
        add_package_backgrounds: add :func:`package_backgrounds` to the given backgrounds.
        strength, max_negatives: passed to
            :func:`~privlab.vision.logo_head.fit_logo_head`.
        cache: reuse a finder fitted on the same content (under the privlab cache).

    Raises:
        ValueError: fewer backgrounds than ``folds``, ``folds`` under 2, photos of a brand
            not in the gallery or not ``(photo, boxes)`` pairs, bad boxes.
        TypeError: ``photos`` is not a mapping.
    """
    from privlab.vision.logo_head import labelled_windows

    caller = "fit_logo_finder"
    checked = load_logo_gallery(gallery)
    if isinstance(folds, bool) or not isinstance(folds, (int, np.integer)) or folds < 2:
        raise invalid("folds", caller, "an int of at least 2", folds)
    if isinstance(quantile, bool) or not isinstance(quantile, (int, float)) or not (
            0 < quantile <= 1):
        raise invalid("quantile", caller, "a number in (0, 1]", quantile,
                      f"Use {QUANTILE} (the default) or higher for fewer false finds.")
    own = _check_photos(photos, checked, caller)
    if not isinstance(add_package_backgrounds, bool):
        raise wrong_type("add_package_backgrounds", caller, "True or False", add_package_backgrounds)
    given = [] if backgrounds is None else [as_rgb(b, "backgrounds", caller) for b in backgrounds]
    shipped = []
    if backgrounds is None or add_package_backgrounds:
        seen = {content_hash(b) for b in given}
        shipped = [b for b in package_backgrounds() if content_hash(b) not in seen]
    source = ("package backgrounds" if backgrounds is None else "given backgrounds" if not shipped
              else f"given backgrounds and {len(shipped)} package backgrounds")
    bgs = given + shipped
    counted = len(given) or len(bgs)  # the number the source's wording counts
    if len(bgs) < folds:
        raise invalid("backgrounds", caller, f"at least folds={folds} photos without the logo",
                      f"{len(bgs)} photos", given_is_text=True,
                      fix="Give more photos without any gallery brand (not audited), or None "
                          "for the package backgrounds.")
    settings = {"recipe": RECIPE, "gallery": checked.fingerprint, "folds": int(folds),
                "quantile": float(quantile),
                "strength": float(strength), "max_negatives": int(max_negatives),
                "photos": {b: [(content_hash(p), [list(map(float, x)) for x in bx]) for p, bx in rows]
                           for b, rows in sorted(own.items())},
                "backgrounds": [content_hash(b) for b in bgs]}
    key = bytes_hash(json.dumps(settings, sort_keys=True).encode(), 20)
    path = None
    if cache:
        from privlab.config import cache_dir

        path = cache_dir() / "logo_finders" / f"{key}.npz"
        if path.exists():
            return _load(path, checked)
    from privlab.progress import note, track

    # The first fit takes minutes: say so, then count photos described and heads fitted.
    note(f"fitting the logo finder on {counted} {source} (once per gallery)")
    sources = [(p, bx) for rows in own.values() for p, bx in rows]
    described = [labelled_windows(p, bx) for p, bx in track(
        sources + [(b, []) for b in bgs], "logo finder: photos described", detail=True)]
    positives, start = {}, 0
    for b, rows in own.items():
        positives[b], start = described[start:start + len(rows)], start + len(rows)
    negatives = described[len(sources):]
    best = {b: [] for b in checked}
    for k in track(range(folds), "logo finder: held-out folds fitted", detail=True):
        head = _fit(checked, positives, [n for i, n in enumerate(negatives) if i % folds != k],
                    strength=strength, max_negatives=max_negatives, seed=k)
        for i, (feats, _) in enumerate(negatives):
            if i % folds == k:
                for b, (w, c) in head.weights.items():
                    best[b].append(float((feats @ w + c).max()) if len(feats) else -np.inf)
    thresholds = {b: float(np.quantile(v, quantile)) + MARGIN for b, v in best.items()}
    head = _fit(checked, positives, negatives, strength=strength,
                max_negatives=max_negatives, seed=0)
    weights = {b: (w, c - thresholds[b]) for b, (w, c) in head.weights.items()}
    provenance = {
        "finder": ("EfficientNet-Lite0 windows (last and mid-level features) with their "
                   "colour histograms + per-brand "
                   "logistic regression (LogoHead)"),
        "recipe": RECIPE, "key": key,
        "fitted_on": (f"{sum(len(v) for v in checked.values())} gallery crops, "
                      f"{sum(len(v) for v in own.values())} source photos with boxes, "
                      f"{counted} {source} (no audited photo)"),
        "windows": {"positive": head.examples[0], "negative": head.examples[1]},
        "thresholds": {b: round(t, 3) for b, t in thresholds.items()},
        "threshold_rule": (f"per brand, {MARGIN} above the {quantile:g} quantile of the best "
                           f"window of each background photo held out in {folds}-fold "
                           "cross-validation (log-odds, folded into the intercept; rule chosen "
                           "on development photos, benchmarks/logos.py); once a window reaches "
                           f"it, the windows down to {EXTEND} below it are marked too"),
    }
    finder = LogoFinder(checked, LogoHead(weights, 0.0, head.examples, head.cells,
                                          head.colour_weight, EXTEND, head.mid_weight),
                        provenance)
    if path is not None:
        _save(path, finder)
    return finder


def _save(path, finder: LogoFinder) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    arrays = {f"w_{i}": w for i, (w, _) in enumerate(finder.head.weights.values())}
    meta = {"brands": list(finder.head.weights), "bias": [c for _, c in finder.head.weights.values()],
            "examples": list(finder.head.examples), "cells": list(finder.head.cells),
            "colour_weight": finder.head.colour_weight, "extend": finder.head.extend,
            "mid_weight": finder.head.mid_weight,
            "provenance": finder.provenance}
    tmp = path.with_suffix(".tmp.npz")
    np.savez(tmp, meta=np.array(json.dumps(meta)), **arrays)
    tmp.replace(path)


def _load(path, gallery: LogoGallery) -> LogoFinder:
    with np.load(path) as z:
        meta = json.loads(str(z["meta"]))
        weights = {b: (z[f"w_{i}"].astype(np.float32), float(c))
                   for i, (b, c) in enumerate(zip(meta["brands"], meta["bias"]))}
    return LogoFinder(gallery, LogoHead(weights, 0.0, tuple(meta["examples"]), tuple(meta["cells"]),
                                        float(meta["colour_weight"]), float(meta["extend"]),
                                        float(meta["mid_weight"])),
                      {**meta["provenance"], "cached": True})


__all__ = ["EXTEND", "FOLDS", "MARGIN", "PACKAGE_BACKGROUNDS", "QUANTILE", "RECIPE", "LogoFinder",
           "fit_logo_finder", "package_backgrounds"]
