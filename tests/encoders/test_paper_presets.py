"""The paper's models as presets that say what they are, each loaded offline (CPU) from a tiny
randomly initialised checkpoint of its own architecture family that the test writes."""

from __future__ import annotations

import json
import textwrap
from importlib.util import find_spec

import numpy as np
import pytest

from privlab.encoders import registry
from privlab.encoders.hf_clip import TransformersCLIPEncoder
from privlab.encoders.image import OpenCLIPEncoder
from privlab.encoders.precision import check_dtype
from privlab.errors import MissingDependencyError, PrivlabValueError

ARRAYS = [np.full((40, 50, 3), 30, np.uint8), np.random.default_rng(0).integers(
    0, 255, (48, 36, 3), dtype=np.uint8)]


def _unit(rows):
    rows = np.asarray(rows, dtype=np.float64)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


# ----------------------------------------------------------------------------- text (Qwen3)
@pytest.fixture(scope="module")
def tiny_qwen3(tmp_path_factory):
    """A sentence-transformers folder laid out as Qwen3-Embedding's: a Qwen3 decoder, its
    BPE tokenizer, last-token pooling, normalisation."""
    import torch
    from sentence_transformers import SentenceTransformer
    from sentence_transformers.sentence_transformer.modules import Normalize, Pooling, Transformer
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast, Qwen3Config, Qwen3Model

    root = tmp_path_factory.mktemp("qwen3")
    bpe = Tokenizer(models.BPE(unk_token="<unk>"))
    bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    bpe.train_from_iterator(["Ken Lay sold shares", "the cat sat on the mat", "Enron chairman"],
                            trainers.BpeTrainer(vocab_size=300, special_tokens=[
                                "<unk>", "<|endoftext|>"]))
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=bpe, unk_token="<unk>",
                                        pad_token="<|endoftext|>", eos_token="<|endoftext|>",
                                        padding_side="left")
    torch.manual_seed(0)
    config = Qwen3Config(vocab_size=len(tokenizer), hidden_size=32, intermediate_size=64,
                         num_hidden_layers=1, num_attention_heads=2, num_key_value_heads=1,
                         head_dim=16, max_position_embeddings=64)
    Qwen3Model(config).save_pretrained(root / "hf")
    tokenizer.save_pretrained(root / "hf")
    st = root / "st"
    SentenceTransformer(modules=[Transformer(str(root / "hf")),
                                 Pooling(32, pooling_mode="lasttoken"), Normalize()]).save(str(st))
    return st


def test_the_qwen3_8b_preset_loads_a_local_qwen3_folder_in_each_dtype(tiny_qwen3):
    from sentence_transformers import SentenceTransformer

    texts = ["Ken Lay sold shares", "the cat sat on the mat"]
    full = registry.create("qwen3-embedding-8b", path=tiny_qwen3, device="cpu")
    assert full.name == "Qwen/Qwen3-Embedding-8B" and full.cache_model.startswith(full.name + "@")
    E = full.encode(texts, cache=False)
    direct = SentenceTransformer(str(tiny_qwen3), device="cpu").encode(texts)
    assert E.shape == (2, 32) and np.allclose(E, _unit(direct), atol=1e-5)
    half = registry.create("qwen3-embedding-8b", path=tiny_qwen3, device="cpu", dtype="bf16")
    assert half.name == "Qwen/Qwen3-Embedding-8B@bfloat16"
    H = half.encode(texts, cache=False)
    import torch

    assert next(half.load().parameters()).dtype == torch.bfloat16
    cosines = np.sum(_unit(H) * E, axis=1)
    assert cosines.min() > 0.97 and not np.array_equal(H, E)  # close, not the same numbers


def test_quantization_needs_bitsandbytes_and_says_how_to_install_it(tiny_qwen3):
    enc = registry.create("qwen3-embedding-8b", path=tiny_qwen3, device="cpu", quantization="8bit")
    assert enc.name == "Qwen/Qwen3-Embedding-8B@8bit"
    if find_spec("bitsandbytes") is not None:
        pytest.skip("bitsandbytes is installed: 8-bit loading needs a GPU, not run on CPU")
    with pytest.raises(MissingDependencyError, match="pip install bitsandbytes"):
        enc.encode(["Ken Lay"], cache=False)
    with pytest.raises(PrivlabValueError, match="'quantization' parameter of "
                                                "SentenceTransformerEncoder"):
        registry.create("qwen3-embedding-8b", quantization="2bit")
    with pytest.raises(PrivlabValueError, match="'dtype' parameter of demo"):
        check_dtype("float64", "demo")


# ----------------------------------------------------------------------------- EVA-CLIP-18B
# EVA-CLIP-18B ships its own model code (trust_remote_code) and embeds with encode_image;
# its folder has no image processor config. The tiny stand-in below is written the same way.
REMOTE_CONFIG = '''
from transformers import PretrainedConfig


class TinyEvaConfig(PretrainedConfig):
    model_type = "tiny_eva"

    def __init__(self, image_size=32, patch_size=8, width=16, embed_dim=12, **kwargs):
        self.image_size, self.patch_size = image_size, patch_size
        self.width, self.embed_dim = width, embed_dim
        super().__init__(**kwargs)
'''
REMOTE_MODEL = '''
import torch
from transformers import PreTrainedModel

from .configuration_tiny_eva import TinyEvaConfig


class TinyEvaModel(PreTrainedModel):
    config_class = TinyEvaConfig

    def __init__(self, config):
        super().__init__(config)
        self.patches = torch.nn.Conv2d(3, config.width, config.patch_size, config.patch_size)
        self.proj = torch.nn.Linear(config.width, config.embed_dim)
        self.post_init()

    def encode_image(self, pixel_values):
        tokens = self.patches(pixel_values).flatten(2).mean(-1)
        return self.proj(torch.tanh(tokens))
'''


@pytest.fixture(scope="module")
def tiny_eva_remote(tmp_path_factory):
    import importlib.util
    import sys

    import torch

    root = tmp_path_factory.mktemp("eva_clip_18b_like")
    (root / "configuration_tiny_eva.py").write_text(textwrap.dedent(REMOTE_CONFIG))
    (root / "modeling_tiny_eva.py").write_text(textwrap.dedent(REMOTE_MODEL))
    package = "tiny_eva_source"
    spec = importlib.util.spec_from_file_location(package, root / "__init__.py",
                                                  submodule_search_locations=[str(root)])
    (root / "__init__.py").write_text("")
    sys.modules[package] = importlib.util.module_from_spec(spec)
    from tiny_eva_source.modeling_tiny_eva import TinyEvaConfig, TinyEvaModel

    torch.manual_seed(0)
    config = TinyEvaConfig(auto_map={"AutoConfig": "configuration_tiny_eva.TinyEvaConfig",
                                     "AutoModel": "modeling_tiny_eva.TinyEvaModel"})
    TinyEvaModel(config).save_pretrained(root)
    (root / "__init__.py").unlink()
    return root


def test_the_eva_clip_18b_preset_runs_the_checkpoints_own_code_offline(tiny_eva_remote):
    import torch
    from PIL import Image
    from transformers import AutoModel, CLIPImageProcessor

    enc = registry.create("eva-clip-18b", path=tiny_eva_remote, device="cpu")
    assert enc.name == "BAAI/EVA-CLIP-18B" and enc.trust_remote_code
    E = enc.encode(ARRAYS, cache=False)
    assert E.shape == (2, 12)
    assert enc.describe()["preprocessing"] == ("CLIP's standard processor at 32 px "
                                               "(the model card's)")
    model = AutoModel.from_pretrained(tiny_eva_remote, trust_remote_code=True,
                                      local_files_only=True).eval()
    processor = CLIPImageProcessor(size={"shortest_edge": 32}, crop_size={"height": 32,
                                                                          "width": 32})
    pixels = processor(images=[Image.fromarray(a) for a in ARRAYS], return_tensors="pt")
    with torch.no_grad():
        expected = model.encode_image(pixels["pixel_values"]).numpy()
    assert np.allclose(E, _unit(expected), atol=1e-5)
    half = registry.create("eva-clip-18b", path=tiny_eva_remote, device="cpu", dtype="bfloat16")
    assert half.name == "BAAI/EVA-CLIP-18B@bfloat16"
    assert np.sum(half.encode(ARRAYS, cache=False) * E, axis=1).min() > 0.97


@pytest.fixture(scope="module")
def tiny_clip(tmp_path_factory):
    import torch
    from transformers import CLIPConfig, CLIPImageProcessor, CLIPModel

    root = tmp_path_factory.mktemp("clip")
    torch.manual_seed(0)
    config = CLIPConfig(
        text_config={"vocab_size": 64, "hidden_size": 16, "intermediate_size": 32,
                     "num_hidden_layers": 1, "num_attention_heads": 2,
                     "max_position_embeddings": 16, "bos_token_id": 0, "eos_token_id": 1,
                     "pad_token_id": 1},
        vision_config={"image_size": 32, "patch_size": 8, "hidden_size": 16,
                       "intermediate_size": 32, "num_hidden_layers": 1,
                       "num_attention_heads": 2}, projection_dim=8)
    CLIPModel(config).save_pretrained(root)
    CLIPImageProcessor(size={"shortest_edge": 32},
                       crop_size={"height": 32, "width": 32}).save_pretrained(root)
    return root


def test_the_llm2clip_preset_reads_a_clip_folder_with_its_processor(tiny_clip):
    import torch
    from PIL import Image
    from transformers import CLIPImageProcessor, CLIPModel

    enc = registry.create("llm2clip-eva02-b16", path=tiny_clip, device="cpu")
    E = enc.encode(ARRAYS, cache=False)
    assert enc.describe()["preprocessing"] == "the checkpoint's CLIPImageProcessor"
    model = CLIPModel.from_pretrained(tiny_clip).eval()
    pixels = CLIPImageProcessor.from_pretrained(tiny_clip)(
        images=[Image.fromarray(a) for a in ARRAYS], return_tensors="pt")["pixel_values"]
    with torch.no_grad():
        expected = model.get_image_features(pixel_values=pixels).pooler_output.numpy()
    assert E.shape == (2, 8) and np.allclose(E, _unit(expected), atol=1e-5)
    other = TransformersCLIPEncoder(tiny_clip, name="mine")
    assert other.cache_model == "mine@" + enc.cache_model.split("@")[-1]  # the folder's hash


def test_a_hub_id_that_is_not_cached_says_how_to_download_it(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    enc = TransformersCLIPEncoder("privlab-test/no-such-model", device="cpu")
    with pytest.raises(PrivlabValueError, match="'model' parameter of TransformersCLIPEncoder"
                                                ".*hf download privlab-test/no-such-model"):
        enc.encode(ARRAYS[:1], cache=False)


# ----------------------------------------------------------------------------- open_clip EVA02
TINY_EVA02 = "privlab-tiny-eva02"
TINY_EVA02_CONFIG = {"embed_dim": 16,
                     "vision_cfg": {"timm_model_name": "eva02_tiny_patch14_224",
                                    "timm_model_pretrained": False, "timm_pool": "token",
                                    "timm_proj": "linear", "image_size": 224},
                     "text_cfg": {"context_length": 8, "vocab_size": 64, "width": 16,
                                  "heads": 2, "layers": 1}}


def test_an_open_clip_eva02_tower_loads_from_a_local_file_in_bfloat16(tmp_path):
    import open_clip
    import torch

    (tmp_path / f"{TINY_EVA02}.json").write_text(json.dumps(TINY_EVA02_CONFIG))
    open_clip.add_model_config(str(tmp_path))
    torch.manual_seed(0)
    torch.save(open_clip.create_model(TINY_EVA02).state_dict(), tmp_path / "tiny.pt")
    full = OpenCLIPEncoder(TINY_EVA02, str(tmp_path / "tiny.pt"), device="cpu",
                           model_config_dir=tmp_path)
    half = OpenCLIPEncoder(TINY_EVA02, str(tmp_path / "tiny.pt"), device="cpu",
                           model_config_dir=tmp_path, dtype="bfloat16")
    assert half.name == full.name + "@bfloat16" and half.precision == "bf16"
    E, H = full.encode(ARRAYS, cache=False), half.encode(ARRAYS, cache=False)
    assert E.shape == (2, 16) and np.sum(E * H, axis=1).min() > 0.97
    assert next(half._load()[0].parameters()).dtype == torch.bfloat16


def test_the_eva02_preset_names_its_true_model_and_the_old_name_warns(tmp_path):
    import open_clip

    enc = registry.create("eva02-e14-plus")
    assert enc.name == "open_clip:EVA02-E-14-plus:laion2b_s9b_b144k"
    assert ("EVA02-E-14-plus", "laion2b_s9b_b144k") in open_clip.list_pretrained()
    assert "EVA-CLIP-18B is eva-clip-18b" in registry.entry("eva02-e14-plus").description
    weights = tmp_path / "open_clip_pytorch_model.bin"
    weights.write_bytes(b"weights")
    local = registry.create("eva02-e14-plus", pretrained=str(weights))  # offline: a local file
    assert local.name.startswith("open_clip:EVA02-E-14-plus:file-")
    with pytest.warns(FutureWarning, match="not the paper's BAAI/EVA-CLIP-18B"):
        old = registry.create("eva-clip")
    assert old.name == enc.name
    assert ("ViT-H-14-378-quickgelu", "dfn5b") in open_clip.list_pretrained()
    with pytest.raises(PrivlabValueError, match="'quantization' parameter of OpenCLIPEncoder"):
        registry.create("eva02-e14-plus", quantization="4bit")
