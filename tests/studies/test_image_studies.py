"""The two image studies on tiny configs (the notebooks' calls)."""

from __future__ import annotations

import pytest

from privlab.studies import dicaprio, mcdonalds


def test_dicaprio_small_run_reproduces_false_pass_and_catch():
    config = dicaprio.Config(n_images=4, sanitizers=("cues:every cue", "cues:faces only"),
                             encoders=("sface", "describe-then-embed"), leak_table=False)
    result = dicaprio.run(config)
    wide = result.members()
    assert list(wide.columns) == ["sface", "describe-then-embed"]
    assert wide.loc["cues:every cue"].tolist() == [0.0, 0.0]
    assert wide.loc["cues:faces only", "sface"] == 0.0
    assert wide.loc["cues:faces only", "describe-then-embed"] > 0.5
    assert "EILEEN COLLINS" in result.explain("cues:faces only")["sanitized x"]
    flags = result.flags()
    assert flags.shape == (4, 4) and (flags["cues:every cue | " + result.encoders[0].name] == 0).all()
    assert result.provenance["corpus"]["n"] == 4 and "sface" in result.headline().text


def test_folder_study_skips_ground_truth_presets(tmp_path):
    from PIL import Image

    from privlab.datasets.scenes import brand_scenes

    for scene in brand_scenes(2).scenes:
        Image.fromarray(scene.image).save(tmp_path / f"{scene.index}.png")
    config = mcdonalds.Config(folder=str(tmp_path), sanitizers=("cues:every cue", "image-identity"),
                              encoders=("sface",), leak_table=True)
    result = mcdonalds.run(config)
    assert result.corpus is None and result.leaks is None
    assert list(result.members().index) == ["identity"] and result.labels == ["0.png", "1.png"]
    with pytest.raises(ValueError, match="cue presets"):
        mcdonalds.run(mcdonalds.Config(folder=str(tmp_path), sanitizers=("cues:every cue",),
                                       encoders=("sface",)))

