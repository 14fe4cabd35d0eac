"""A learned head for the logo finder: per-brand logistic regression on the window features
of :func:`privlab.vision.logos.find_logos`, fitted on labelled photos that are not audited.

:func:`labelled_windows` turns a photo and its hand-drawn boxes into labelled window
features; :func:`fit_logo_head` fits a :class:`~privlab.vision.logos.LogoHead` on them
(and on the gallery crops), which ``find_logos(..., head=...)`` scores windows with.
``benchmarks/logos.py`` fits one on the development photos and reports it on held-out ones.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import numpy as np

from privlab.errors import invalid
from privlab.vision.images import as_rgb
from privlab.vision.logos import (COLOUR_BINS, COLOUR_WEIGHT, FEATURES, HEAD_CELLS, MID_CHANNELS,
                                  MID_WEIGHT, LogoHead, feature_maps, gallery_prototypes,
                                  load_logo_gallery, window_features)

#: The width of a head's window features: the network's last and mid-level channels and
#: the colour histogram.
HEAD_FEATURES = FEATURES + MID_CHANNELS + COLOUR_BINS


def labelled_windows(image: Any, boxes: Sequence[Sequence[float]],
                     ignore: Sequence[Sequence[float]] = ()) -> tuple[np.ndarray, np.ndarray]:
    """Window features of a photo and their labels for :func:`fit_logo_head`.

    A window is positive (1) when it holds at least half of a labelled box and the box
    fills at least 15% of it, ignored (-1) when it touches a box or an ``ignore`` region
    otherwise, negative (0) else.

    Args:
        image: the photo.
        boxes: the logo's boxes ``(x0, y0, x1, y1)`` in its pixels (empty: a photo
            without the logo, every window negative).
        ignore: regions whose windows are neither (e.g. a reflection of the logo).

    Returns:
        ``(features (n, HEAD_FEATURES), labels (n,))``: the windows a
        :class:`~privlab.vision.logos.LogoHead` scores (sizes ``HEAD_CELLS``, with their
        mid-level features and colour).
    """
    caller = "labelled_windows"
    rgb = as_rgb(image, "image", caller)
    feats, wins = window_features(feature_maps(rgb), HEAD_CELLS, COLOUR_WEIGHT, MID_WEIGHT)
    area = (wins[:, 2] - wins[:, 0]) * (wins[:, 3] - wins[:, 1])
    labels = np.zeros(len(wins))

    def inter(box):
        if len(box) != 4 or not box[0] < box[2] or not box[1] < box[3]:
            raise invalid("boxes", caller, "boxes (x0, y0, x1, y1) with x0 < x1 and y0 < y1",
                          box)
        ix = np.maximum(0, np.minimum(wins[:, 2], box[2]) - np.maximum(wins[:, 0], box[0]))
        iy = np.maximum(0, np.minimum(wins[:, 3], box[3]) - np.maximum(wins[:, 1], box[1]))
        return ix * iy

    for box in boxes:
        shared = inter(box)
        box_area = (box[2] - box[0]) * (box[3] - box[1])
        labels[(shared / box_area >= 0.5) & (shared / area >= 0.15)] = 1
        labels[(labels == 0) & (shared / np.minimum(area, box_area) > 0.05)] = -1
    for box in ignore:
        labels[(labels == 0) & (inter(box) > 0)] = -1
    return feats, labels


def fit_logo_head(gallery: Any, examples: Mapping[str, Sequence[tuple[np.ndarray, np.ndarray]]],
                  *, threshold: float, strength: float = 1.0, max_negatives: int = 40000,
                  seed: int = 0) -> LogoHead:
    """A :class:`LogoHead`: per brand, logistic regression on labelled window features.

    The brand's gallery crop features are positives too. Fit on photos that are not
    audited (development photos and the gallery's own photos), never on held-out ones.
    A head fitted on few photos may take a black rectangle for the logo (it has seen
    neither); give it a training photo with its boxes blacked out as a negative.

    Args:
        gallery: a :class:`LogoGallery` or anything :func:`load_logo_gallery` reads.
        examples: ``{brand: [(features, labels) from labelled_windows]}`` (photos
            without the logo give negatives).
        threshold: the decision value a window will need (choose it on development
            photos, e.g. by cross-validation as benchmarks/logos.py does).
        strength: the inverse L2 penalty ``C``.
        max_negatives: negatives kept at random (balanced class weights).
        seed: for that draw.

    Raises:
        ValueError: a brand with no examples or no positive window, or one not in the
            gallery; features that are not :func:`labelled_windows`' (another width).
    """
    from sklearn.linear_model import LogisticRegression

    caller = "fit_logo_head"
    prototypes = gallery_prototypes(load_logo_gallery(gallery), HEAD_CELLS, COLOUR_WEIGHT,
                                    MID_WEIGHT)
    weights, counts = {}, (0, 0)
    for name, items in examples.items():
        if name not in prototypes:
            raise invalid("examples", caller, f"brands of the gallery ({sorted(prototypes)})", name)
        for f, _ in items:
            if np.ndim(f) != 2 or np.shape(f)[1] != HEAD_FEATURES:
                raise invalid("examples", caller, f"window features of width {HEAD_FEATURES} "
                              "from labelled_windows", f"features of shape {np.shape(f)}",
                              given_is_text=True,
                              fix="Describe each photo with labelled_windows(photo, boxes).")
        feats = np.concatenate([f for f, y in items] + [prototypes[name]])
        labels = np.concatenate([y for f, y in items] + [np.ones(len(prototypes[name]))])
        keep = labels >= 0
        feats, labels = feats[keep], labels[keep]
        neg = np.flatnonzero(labels == 0)
        if len(neg) > max_negatives:
            drop = np.random.default_rng(seed).choice(neg, len(neg) - max_negatives, replace=False)
            mask = np.ones(len(labels), bool)
            mask[drop] = False
            feats, labels = feats[mask], labels[mask]
        if labels.sum() == 0 or labels.sum() == len(labels):
            raise invalid("examples", caller, "positive and negative windows for each brand",
                          f"{int(labels.sum())} positive of {len(labels)} for {name!r}",
                          given_is_text=True)
        model = LogisticRegression(C=strength, class_weight="balanced", max_iter=3000)
        model.fit(feats, labels)
        weights[name] = (model.coef_[0].astype(np.float32), float(model.intercept_[0]))
        counts = (counts[0] + int(labels.sum()), counts[1] + int((labels == 0).sum()))
    return LogoHead(weights, float(threshold), counts, HEAD_CELLS, COLOUR_WEIGHT,
                    mid_weight=MID_WEIGHT)


__all__ = ["HEAD_FEATURES", "fit_logo_head", "labelled_windows"]
