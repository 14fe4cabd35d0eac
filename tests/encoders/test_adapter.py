"""Fine-tuning a distance mechanism: the offline adapter and the open_clip path."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch

from privlab.encoders.adapter import (AdapterEncoder, finetune_open_clip, freeze_all_but_last,
                                      train_adapter)
from privlab.errors import PrivlabValueError

TINY = "privlab-tiny-clip"
TINY_CONFIG = {"embed_dim": 16,
               "vision_cfg": {"image_size": 32, "layers": 2, "width": 32, "patch_size": 8,
                              "head_width": 16},
               "text_cfg": {"context_length": 16, "vocab_size": 49408, "width": 32, "heads": 2,
                            "layers": 2}}


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

    open_clip.add_model_config(str(tiny_config_dir))   # whichever test ran before on this worker
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
