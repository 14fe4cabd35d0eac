"""Detectors mapped over processes give the serial results, in order."""

from __future__ import annotations

import numpy as np
import pytest

from privlab.scale.parallel import parallel_map
from privlab.vision.faces import detect_faces


def images():
    from skimage import data

    face = data.astronaut()
    return [face, np.zeros((64, 64, 3), np.uint8), face[:256, 64:320], face[::2, ::2]]


def test_face_detection_on_two_processes_equals_the_serial_run():
    items = images()
    serial = [detect_faces(x, threshold=0.7) for x in items]
    parallel = parallel_map(detect_faces, items, workers=2, threshold=0.7)
    assert [[f.box for f in faces] for faces in parallel] == \
        [[f.box for f in faces] for faces in serial]
    assert [[f.score for f in faces] for faces in parallel] == \
        [[f.score for f in faces] for faces in serial]
    assert [len(faces) for faces in parallel][:2] == [1, 0]


def test_an_error_names_the_item_that_raised_it():
    with pytest.raises(ValueError, match="threshold") as info:
        parallel_map(detect_faces, images()[:2], workers=2, threshold=1.5)
    assert any("item 0" in note or "item 1" in note for note in info.value.__notes__)


@pytest.mark.parametrize("kwargs, error, parameter", [
    (dict(fn="detect", items=[1]), TypeError, "'fn'"),
    (dict(fn=len, items="abc"), TypeError, "'items'"),
    (dict(fn=len, items=[[1]], workers=0), ValueError, "'workers'"),
])
def test_bad_arguments_are_refused(kwargs, error, parameter):
    with pytest.raises(error, match=parameter):
        parallel_map(kwargs.pop("fn"), kwargs.pop("items"), **kwargs)
