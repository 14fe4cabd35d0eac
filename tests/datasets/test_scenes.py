"""Generated corpora of any size and seed stay inside the canvas."""

from __future__ import annotations

import pytest

from privlab.datasets.scenes import brand_scenes, celebrity_scenes


@pytest.mark.parametrize("factory", [brand_scenes, celebrity_scenes])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_every_cue_box_lies_on_the_canvas(factory, seed):
    corpus = factory(30, seed=seed)
    assert len(corpus.scenes) == 30
    for scene in corpus.scenes:
        height, width = scene.image.shape[:2]
        for cue in scene.cues:
            x0, y0, x1, y1 = cue.box
            assert 0 <= x0 < x1 <= width and 0 <= y0 < y1 <= height, (scene.index, cue)
