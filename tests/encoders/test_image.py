"""Image members: known answers on shipped faces and drawn text, open_clip loading."""

from __future__ import annotations

import json

import numpy as np
import pytest

from privlab.datasets.scenes import CELEBRITY_TARGET, OTHER_PERSON, shipped_faces
from privlab.encoders import image as im
from privlab.encoders import registry
from privlab.vision.faces import SFACE_MATCH_THRESHOLD
from image_helpers import canvas


def test_sface_same_person_close_other_far_and_no_face_coordinate():
    faces = shipped_faces()
    enc = registry.create("sface")
    collins = faces[CELEBRITY_TARGET]
    E = enc.encode([canvas(collins), canvas(collins[:, ::-1].copy()), canvas(faces[OTHER_PERSON]),
                    np.full((200, 200, 3), 120, dtype=np.uint8),
                    canvas(collins, faces[OTHER_PERSON])])
    assert E.shape == (5, 129)
    assert E[0] @ E[1] > SFACE_MATCH_THRESHOLD  # mirrored: same person
    assert E[0] @ E[2] < SFACE_MATCH_THRESHOLD  # another person
    assert E[3, -1] == pytest.approx(1.0)  # no face: the fixed coordinate
    assert abs(E[0] @ E[3]) < 1e-6  # orthogonal to every face
    pooled = E[4]  # two faces: the normalised mean, close to both
    assert pooled @ E[0] > 0.6 and pooled @ E[2] > 0.6 and pooled[-1] == 0


def test_describe_then_embed_reads_words_names_and_stays_silent_when_empty(celebrity):
    enc = registry.create("describe-then-embed", gallery=celebrity.gallery)
    d0, d1 = enc.describe_images(celebrity.images[:2])
    assert d0.words == ("EILEEN", "COLLINS") and d0.names == (CELEBRITY_TARGET,)
    assert set(d1.names) == {CELEBRITY_TARGET, OTHER_PERSON}  # scene 1 has a second person
    blank = np.full((200, 200, 3), 90, dtype=np.uint8)
    assert enc.describe_images([blank])[0].text == ""
    E = enc.encode([celebrity.images[0], blank, blank.copy()])
    assert E.shape == (3, 384) and E[1] @ E[2] == pytest.approx(1.0, abs=1e-6)
    with pytest.raises(ValueError, match="at least one"):
        im.DescribeThenEmbedEncoder(use_ocr=False, use_faces=False, use_labels=False)


def test_efficientnet_features():
    from skimage import data

    E = registry.create("efficientnet-lite0").encode([data.coffee(), data.chelsea()])
    assert E.shape == (2, 1280) and np.allclose(np.linalg.norm(E, axis=1), 1, atol=1e-5)


def test_open_clip_loads_a_local_weights_file(tmp_path):
    import open_clip
    import torch

    config = {"embed_dim": 16,
              "vision_cfg": {"image_size": 32, "layers": 1, "width": 32, "head_width": 16,
                             "patch_size": 16},
              "text_cfg": {"context_length": 8, "vocab_size": 64, "width": 16, "heads": 2,
                           "layers": 1}}
    folder = tmp_path / "configs"
    folder.mkdir()
    (folder / "privlab-tiny-test.json").write_text(json.dumps(config))
    open_clip.add_model_config(str(folder))
    torch.manual_seed(0)
    model = open_clip.create_model("privlab-tiny-test")
    weights = tmp_path / "tiny.pt"
    torch.save(model.state_dict(), weights)
    enc = registry.create("open_clip", model="privlab-tiny-test", pretrained=str(weights),
                          device="cpu")
    assert enc.name.startswith("open_clip:privlab-tiny-test:file-")
    imgs = [np.zeros((40, 50, 3), dtype=np.uint8), np.full((40, 50, 3), 255, dtype=np.uint8)]
    E = enc.encode(imgs)
    assert E.shape == (2, 16)
    with torch.no_grad():  # the loaded weights are the saved ones
        direct = model.encode_image(torch.stack([enc._preprocess(
            __import__("PIL.Image", fromlist=["Image"]).fromarray(x)) for x in imgs]))
    direct = direct.numpy() / np.linalg.norm(direct.numpy(), axis=1, keepdims=True)
    assert np.allclose(E, direct, atol=1e-5)
    with pytest.raises(ValueError, match="existing weights file"):
        im.OpenCLIPEncoder("privlab-tiny-test", str(tmp_path / "missing.pt"))


def test_image_members_build_without_loading_a_model():
    assert registry.create("ocr-text", gallery={"x": []}).name == "describe[ocr]-minilm"
    assert registry.create("open_clip").name == "open_clip:ViT-B-32:hub"
    assert registry.create("clip-vit-b-32").name == "open_clip:ViT-B-32:laion2b_s34b_b79k"
    for key, (arch, tag, text) in im.OPEN_CLIP_PRESETS.items():
        assert registry.create(key).name == f"open_clip:{arch}:{tag}"
        assert registry.entry(key).description == text
    assert registry.entry("sface").factory is im.SFaceEncoder
    assert registry.entry("dlib-face").factory is im.DlibFaceEncoder
    assert registry.entry("describe-then-embed").factory is im.DescribeThenEmbedEncoder
    assert registry.create("sface").name == "sface-t0.8-m24-b0.2-d1"
    assert registry.create("describe-then-embed").name.startswith("describe[ocr+faces]-minilm-g")
