"""ImageNet labels of EfficientNet-Lite0 on the scikit-image sample photos."""

from __future__ import annotations

import numpy as np
import pytest

from privlab.vision import imagenet


def test_efficientnet_labels():
    from skimage import data

    labels = imagenet.imagenet_labels([data.coffee()], threshold=0.2)[0]
    assert labels and labels[0][0] in {"espresso", "cup", "coffee mug"}


def test_labels_are_ordered_thresholded_and_capped():
    from skimage import data

    photos = [data.coffee(), data.chelsea()]
    loose = imagenet.imagenet_labels(photos, threshold=1e-6, top=3)
    assert [len(row) for row in loose] == [3, 3]
    for row in loose:
        probs = [p for _, p in row]
        assert probs == sorted(probs, reverse=True) and all(0 < p <= 1 for p in probs)
        assert all(name in imagenet.imagenet_categories() for name, _ in row)
    assert imagenet.imagenet_labels(photos, threshold=1.0) == [[], []]
    assert imagenet.imagenet_labels([]) == []
    with pytest.raises(ValueError, match="'threshold' parameter of imagenet_labels"):
        imagenet.imagenet_labels(photos, threshold=0)


def test_batch_is_resized_and_centre_cropped():
    batch = imagenet.imagenet_batch([np.zeros((300, 400, 3), np.uint8),
                                     np.full((224, 224), 255, np.uint8)])
    assert tuple(batch.shape) == (2, 3, 224, 224)
    assert len(imagenet.imagenet_categories()) == 1000
