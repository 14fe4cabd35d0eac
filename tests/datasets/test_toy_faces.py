"""The offline toy face generator: seeded outputs, knobs, and the table it makes."""

from __future__ import annotations

import numpy as np
import pytest

from privlab.datasets.toy_faces import ToyFaceGenerator, toy_face_table, toy_sources
from privlab.errors import PrivlabValueError


def test_toy_generator_is_deterministic_and_knobs_move_it():
    photo = next(iter(toy_sources().values()))
    g = ToyFaceGenerator(strength=0.3)
    first = g.outputs(photo, 3, seed=5, identity_index=0)
    again = g.outputs(photo, 3, seed=5, identity_index=0)
    for a, b in zip(first, again):
        np.testing.assert_array_equal(a, b)
    assert first[0].shape == (160, 160, 3) and first[0].dtype == np.uint8
    assert not np.array_equal(first[0], first[1])
    other_seed = g.outputs(photo, 1, seed=6, identity_index=0)[0]
    assert not np.array_equal(first[0], other_seed)
    stronger = ToyFaceGenerator(strength=0.9).outputs(photo, 1, seed=5, identity_index=0)[0]
    assert not np.array_equal(first[0], stronger)
    assert ToyFaceGenerator(strength=0.3, noise=0.0).knobs()["noise"] == 0.0
    with pytest.raises(PrivlabValueError, match="strength"):
        ToyFaceGenerator(strength=1.5)
    with pytest.raises(PrivlabValueError, match="occlusion"):
        ToyFaceGenerator(occlusion=2.0)


def test_toy_table_is_deterministic_and_records_its_generation():
    one = toy_face_table(0.2, n_per_identity=4, seed=3, cache=False)
    two = toy_face_table(0.2, n_per_identity=4, seed=3, cache=False)
    np.testing.assert_array_equal(one.embeddings, two.embeddings)
    assert one.provenance["sha256"] == two.provenance["sha256"]
    assert one.counts().tolist() == [4, 4, 4]
    gen = one.provenance["generation"]
    assert gen["seed"] == 3 and gen["knobs"] == ToyFaceGenerator(strength=0.2).knobs()
    assert gen["encoder"]["encoder"].startswith("sface")
    assert all(len(h) == 64 for h in gen["encoder"]["checkpoints"].values())
    assert gen["environment"]["numpy"] == np.__version__
    with pytest.raises(PrivlabValueError, match="encoder"):
        toy_face_table(encoder="no-such-encoder")


def test_toy_sources_are_three_identities_of_rgb_photos():
    sources = toy_sources()
    assert list(sources) == ["Eileen Collins", "Grace Hopper", "cameraman"]
    for photo in sources.values():
        assert photo.dtype == np.uint8 and photo.ndim == 3 and photo.shape[2] == 3
    sources["cameraman"][:] = 0  # a copy: the next call is unchanged
    assert toy_sources()["cameraman"].any()
