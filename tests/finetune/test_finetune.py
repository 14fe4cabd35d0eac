"""Fine-tuning a distance mechanism: losses, the open_clip path and the offline adapter."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
import torch

from privlab.errors import PrivlabValueError
from privlab.finetune import (AdapterEncoder, balanced_batches, clip_loss, finetune_open_clip,
                              freeze_all_but_last, pair_loss, positives_from_captions,
                              siglip_loss, train_adapter)

TINY = "privlab-tiny-clip"
TINY_CONFIG = {"embed_dim": 16,
               "vision_cfg": {"image_size": 32, "layers": 2, "width": 32, "patch_size": 8,
                              "head_width": 16},
               "text_cfg": {"context_length": 16, "vocab_size": 49408, "width": 32, "heads": 2,
                            "layers": 2}}


def _lse(*values):
    return math.log(sum(math.exp(v) for v in values))


def _log_sigmoid(x):
    return -math.log1p(math.exp(-x))


# ----------------------------------------------------------------------------- losses
def test_clip_loss_matches_hand_computation_on_2x2():
    z = [[2.0, 0.5], [-1.0, 1.5]]
    rows = [-(z[0][0] - _lse(2.0, 0.5)), -(z[1][1] - _lse(-1.0, 1.5))]
    cols = [-(z[0][0] - _lse(2.0, -1.0)), -(z[1][1] - _lse(0.5, 1.5))]
    expected = (sum(rows) / 2 + sum(cols) / 2) / 2
    assert float(clip_loss(torch.tensor(z))) == pytest.approx(expected, abs=1e-6)


def test_siglip_loss_matches_hand_computation_on_2x2():
    z = [[2.0, 0.5], [-1.0, 1.5]]
    expected = -(_log_sigmoid(2.0) + _log_sigmoid(-0.5) + _log_sigmoid(1.0) + _log_sigmoid(1.5)) / 2
    assert float(siglip_loss(torch.tensor(z))) == pytest.approx(expected, abs=1e-6)


def test_shared_captions_are_positives_in_both_losses():
    z = torch.tensor([[1.0, 1.0], [1.0, 1.0]])
    everything = torch.ones(2, 2, dtype=torch.bool)
    # Every pair matches: sigmoid loss is 4 * -log sigmoid(1) / 2; softmax loss is 0 entropy gap
    assert float(siglip_loss(z, everything)) == pytest.approx(-2 * _log_sigmoid(1.0), abs=1e-6)
    assert float(clip_loss(z, everything)) == pytest.approx(math.log(2), abs=1e-6)
    assert positives_from_captions(["x", "y", "x"]).tolist() == [
        [True, False, True], [False, True, False], [True, False, True]]


def test_pair_loss_uses_temperature_and_bias():
    u = torch.tensor([[1.0, 0.0], [0.0, 2.0]])          # normalised inside
    v = torch.tensor([[3.0, 0.0], [0.0, 1.0]])
    log_t, b = torch.tensor(math.log(4.0)), torch.tensor(-1.0)
    expected = -(2 * _log_sigmoid(3.0) + 2 * _log_sigmoid(1.0)) / 2   # z = 4*I - 1
    assert float(pair_loss("siglip", u, v, log_t, b)) == pytest.approx(expected, abs=1e-6)
    row = -(4.0 - _lse(4.0, 0.0))
    assert float(pair_loss("clip", u, v, log_t, b)) == pytest.approx(row, abs=1e-6)


def test_losses_refuse_bad_inputs():
    with pytest.raises(PrivlabValueError, match="'logits' parameter of clip_loss"):
        clip_loss(torch.zeros(2, 3))
    with pytest.raises(PrivlabValueError, match="'positives' parameter of siglip_loss"):
        siglip_loss(torch.zeros(2, 2), torch.zeros(2, 2, dtype=torch.bool))
    with pytest.raises(PrivlabValueError, match="'loss' parameter of pair_loss"):
        pair_loss("triplet", torch.eye(2), torch.eye(2), torch.tensor(0.0), torch.tensor(0.0))


def test_balanced_batches_hold_one_example_per_caption_and_cover_the_epoch():
    captions = ["a"] * 5 + ["b"] * 3
    batches = balanced_batches(captions, np.random.default_rng(3))
    flat = sorted(int(k) for b in batches for k in b)
    assert flat == list(range(8))
    for b in batches:
        assert len({captions[k] for k in b}) == len(b)


# ----------------------------------------------------------------------------- adapter
def _toy_gallery(n=6):
    rng = np.random.default_rng(0)
    images, captions = [], []
    for k in range(2 * n):
        img = rng.integers(0, 40, (64, 64, 3)).astype(np.uint8)
        if k % 2 == 0:
            img[8:40, 8:40] = (230, 120, 20)          # an orange square: "subject one"
            captions.append("a picture of subject one")
        else:
            img[20:56, 24:60] = (20, 60, 200)        # a blue square: "subject two"
            captions.append("a picture of subject two")
        images.append(img)
    return images, captions


def test_adapter_training_is_deterministic_and_learns(tmp_path):
    images, captions = _toy_gallery()
    first = train_adapter(images, captions, epochs=8, lr=1e-2, seed=5)
    second = train_adapter(images, captions, epochs=8, lr=1e-2, seed=5)
    other = train_adapter(images, captions, epochs=8, lr=1e-2, seed=6)
    assert np.array_equal(first.encoder.weight, second.encoder.weight)
    assert first.losses == second.losses
    assert first.encoder.name == second.encoder.name != other.encoder.name
    assert first.losses[-1] < first.initial_loss
    scores = first.caption_scores(images)
    truth = np.array([0 if c.endswith("one") else 1 for c in captions])
    assert (np.argmax(scores, axis=1) == truth).all()
    path = first.encoder.save(tmp_path / "adapter.npz")
    again = AdapterEncoder.load(path)
    assert again.name == first.encoder.name
    np.testing.assert_allclose(again.encode(images[:3], cache=False),
                               first.encoder.encode(images[:3], cache=False), atol=1e-6)


def test_adapter_clip_loss_also_trains():
    images, captions = _toy_gallery(4)
    run = train_adapter(images, captions, loss="clip", epochs=6, lr=1e-2, seed=0)
    assert run.losses[-1] < run.initial_loss
    assert run.settings["loss"] == "clip"


def test_adapter_is_registered_and_audits(tmp_path):
    from privlab.contrastive import audit
    from privlab.encoders import get_encoder, registry

    images, captions = _toy_gallery(4)
    run = train_adapter(images, captions, epochs=4, seed=0)
    path = run.encoder.save(tmp_path / "a.npz")
    assert "adapter" in registry.names(modality="image")
    enc = get_encoder("adapter", path=str(path))
    assert enc.name == run.encoder.name
    blacked = [img.copy() for img in images]
    for img in blacked:
        img[:] = 0
    result = audit(images, sanitized=blacked, encoders=[enc])
    assert result.members[0].encoder == enc.name
    assert np.isfinite(result.value)


def test_adapter_refuses_bad_inputs(tmp_path):
    images, captions = _toy_gallery(2)
    with pytest.raises(PrivlabValueError, match="at least two different captions"):
        train_adapter(images, ["same"] * len(images))
    with pytest.raises(PrivlabValueError, match="'captions' parameter of train_adapter"):
        train_adapter(images, captions[:-1])
    with pytest.raises(PrivlabValueError, match="'epochs' parameter"):
        train_adapter(images, captions, epochs=0)
    with pytest.raises(PrivlabValueError, match="'path' parameter of AdapterEncoder.load"):
        AdapterEncoder.load(tmp_path / "missing.npz")


# ----------------------------------------------------------------------------- open_clip
@pytest.fixture(scope="module")
def tiny_config_dir(tmp_path_factory):
    folder = tmp_path_factory.mktemp("open_clip_configs")
    (folder / f"{TINY}.json").write_text(json.dumps(TINY_CONFIG))
    return folder


def _run_tiny(folder, checkpoint, device="cpu", **kwargs):
    images, captions = _toy_gallery(4)
    settings = dict(loss="siglip", epochs=5, lr=1e-3, device=device, model_config_dir=folder,
                    seed=0)
    settings.update(kwargs)
    return finetune_open_clip(TINY, images, captions, checkpoint=checkpoint, **settings), images


@pytest.mark.parametrize("loss", ["siglip", "clip"])
def test_tiny_open_clip_finetune_loss_decreases_and_checkpoint_reloads(tiny_config_dir, tmp_path,
                                                                       loss):
    run, images = _run_tiny(tiny_config_dir, tmp_path / "tiny.pt", loss=loss)
    assert run.epoch_losses[-1] < run.epoch_losses[0]
    assert run.checkpoint.is_file()
    enc = run.encoder(device="cpu", model_config_dir=tiny_config_dir)
    assert enc.name.startswith(f"open_clip:{TINY}:file-")
    vectors = enc.encode(images[:3], cache=False)
    assert vectors.shape == (3, TINY_CONFIG["embed_dim"])
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    # The reloaded weights are the trained ones, not a fresh initialisation.
    import open_clip

    fresh = open_clip.create_model(TINY)
    trained = torch.load(run.checkpoint, map_location="cpu")
    assert not torch.equal(fresh.state_dict()["visual.proj"], trained["visual.proj"])
    assert torch.equal(enc._load()[0].state_dict()["visual.proj"].cpu(), trained["visual.proj"])


def test_freezing_keeps_only_the_last_blocks_and_heads(tiny_config_dir, tmp_path):
    import open_clip

    model = open_clip.create_model(TINY)
    freeze_all_but_last(model, 1)
    trainable = {n for n, p in model.named_parameters() if p.requires_grad}
    assert any(n.startswith("visual.transformer.resblocks.1.") for n in trainable)
    assert any(n.startswith("transformer.resblocks.1.") for n in trainable)
    assert not any(".resblocks.0." in n for n in trainable)
    assert "token_embedding.weight" not in trainable and "visual.conv1.weight" not in trainable
    assert {"visual.proj", "text_projection", "logit_scale"} <= trainable
    torch.manual_seed(0)                                   # the same seed as the run below
    initial = open_clip.create_model(TINY).state_dict()
    run, _ = _run_tiny(tiny_config_dir, tmp_path / "frozen.pt", train_last=1, epochs=2)
    saved = torch.load(run.checkpoint, map_location="cpu")
    assert run.trainable < sum(v.numel() for v in initial.values())
    assert torch.equal(saved["token_embedding.weight"], initial["token_embedding.weight"])
    assert torch.equal(saved["visual.transformer.resblocks.0.mlp.c_fc.weight"],
                       initial["visual.transformer.resblocks.0.mlp.c_fc.weight"])
    assert not torch.equal(saved["visual.transformer.resblocks.1.mlp.c_fc.weight"],
                           initial["visual.transformer.resblocks.1.mlp.c_fc.weight"])


@pytest.mark.gpu
def test_tiny_open_clip_finetune_on_cuda(tiny_config_dir, tmp_path):
    run, images = _run_tiny(tiny_config_dir, tmp_path / "cuda.pt", device="cuda", epochs=5)
    assert run.settings["device"] == "cuda"
    assert run.epoch_losses[-1] < run.epoch_losses[0]
    enc = run.encoder(device="cuda", model_config_dir=tiny_config_dir)
    assert enc.encode(images[:2], cache=False).shape == (2, TINY_CONFIG["embed_dim"])
