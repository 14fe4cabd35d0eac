"""privlab.audit: your items, your sanitizer (any callable) or its outputs, your encoders.

The numbers are checked against the kernel's definition computed here by hand from the
same encoder's embeddings.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import privlab
from privlab.contrastive import audit as engine_audit
from privlab.datasets.quickstart import TEXTS
from privlab.encoders import LexicalEncoder, get_encoder
from privlab.errors import PrivlabTypeError, PrivlabValueError

TEXTS = list(TEXTS)


def redact_name(text: str) -> str:
    return text.replace("Albert Einstein", "[NAME]").replace("Einstein", "[NAME]")


def by_hand(encoder, originals, sanitized) -> float:
    """delta* = max(0, max_ij S_i . (E_j - S_j)) on unit rows, with a NumPy double loop."""
    E, S = encoder.encode(originals), encoder.encode(sanitized)
    T = E.astype(np.float64) - S.astype(np.float64)
    best = max(float(S[i].astype(np.float64) @ T[j]) for i in range(len(S))
               for j in range(len(S)))
    return max(0.0, best)


@pytest.fixture(scope="module")
def minilm_audit():
    return privlab.audit(TEXTS, lambda t: t.replace("Albert Einstein", "[NAME]"),
                         encoders=["minilm"])


def test_a_lambda_audited_at_the_top_level_equals_the_kernel_by_hand(minilm_audit):
    a = minilm_audit
    sanitized = [t.replace("Albert Einstein", "[NAME]") for t in TEXTS]
    expected = by_hand(get_encoder("minilm"), TEXTS, sanitized)
    assert expected > 0.05  # the name is gone, the details still point at him
    assert a.member("minilm").value == pytest.approx(expected, abs=1e-6)
    assert a.name == "lambda" and a.sanitized == sanitized
    line = a.headline()
    assert "\n" not in line and f"resolution {expected:.3f}" in line
    m = a.member("minilm")
    assert f"placebo {m.placebo:.3f}" in line and f"excess {m.value - m.placebo:+.3f}" in line
    assert "diagnostic" in line and "rests on 12 texts, encoder minilm" in line


def test_the_engine_takes_a_plain_function_named_by_its_name():
    a = engine_audit(TEXTS[:6], redact_name, encoders=[LexicalEncoder(64)])
    assert a.name == "redact_name" and a.sanitizer["function"].endswith("redact_name")
    assert a.sanitized[0] == redact_name(TEXTS[0])
    assert a.member("lexical-64").value == pytest.approx(
        by_hand(LexicalEncoder(64), TEXTS[:6], [redact_name(t) for t in TEXTS[:6]]), abs=1e-6)


def test_members_are_named_by_the_names_given():
    a = privlab.audit(TEXTS[:6], redact_name,
                      encoders={"words": LexicalEncoder(64), "lexical": "lexical"})
    assert [m.label for m in a.members] == ["words", "lexical"]
    assert a.member("words").encoder == "lexical-64"  # its id stays in the provenance
    assert a.member("words").value == pytest.approx(
        by_hand(LexicalEncoder(64), TEXTS[:6], [redact_name(t) for t in TEXTS[:6]]), abs=1e-6)
    assert list(a.to_frame()["member"]) == ["words", "lexical"]
    with pytest.raises(PrivlabValueError, match=r"one of \['words', 'lexical'\]"):
        a.member("sface")


def test_a_sanitizer_that_removes_nothing_says_so_in_the_headline():
    a = privlab.audit(TEXTS[:8], lambda t: t, encoders=["lexical"])
    assert a.value == 0.0
    assert "caveat: the sanitizer changed none of the 8 texts: 0 by construction" in a.headline()


def test_files_give_the_same_number_as_lists(tmp_path):
    sanitized = [redact_name(t) for t in TEXTS]
    (tmp_path / "orig.txt").write_text("\n".join(TEXTS) + "\n", encoding="utf-8")
    (tmp_path / "san.jsonl").write_text(
        "\n".join(json.dumps({"id": i, "text": t}) for i, t in enumerate(sanitized)) + "\n",
        encoding="utf-8")
    from_files = privlab.audit(tmp_path / "orig.txt", sanitized=str(tmp_path / "san.jsonl"),
                               encoders=["lexical"])
    from_lists = privlab.audit(TEXTS, sanitized=sanitized, encoders=["lexical"])
    assert from_files.value == from_lists.value > 0
    assert from_files.name == "san.jsonl" and from_files.originals == TEXTS


def test_a_callable_encoder_and_a_sentence_transformer_give_the_registry_number(minilm_audit):
    from sentence_transformers import SentenceTransformer

    from privlab.encoders import packaged_minilm_path

    model = SentenceTransformer(str(packaged_minilm_path()), device="cpu")
    a = privlab.audit(TEXTS, lambda t: t.replace("Albert Einstein", "[NAME]"),
                      encoders={"st": model, "fn": lambda texts: model.encode(texts)},
                      placebo=False)
    assert a.member("st").value == pytest.approx(minilm_audit.member("minilm").value, abs=1e-5)
    assert a.member("fn").value == pytest.approx(minilm_audit.member("minilm").value, abs=1e-5)
    assert "no placebo control" in a.headline()


def test_the_report_holds_the_witness_items_and_the_formula(minilm_audit, tmp_path):
    a = minilm_audit
    page = a.report(tmp_path / "audit.html").read_text(encoding="utf-8")
    w = a.member("minilm").witness
    import html

    assert html.escape(w.audited_sanitized) in page and html.escape(w.reference_original) in page
    assert "<math" in page and "<script" not in page and "http" not in page
    record = json.loads((tmp_path / "audit.json").read_text())
    assert record["headline"] == a.headline()
    assert record["provenance"]["encoders"]["minilm"] == a.member("minilm").encoder
    md = a.report(tmp_path / "audit.md").read_text(encoding="utf-8")
    assert a.headline() in md and w.audited_sanitized in md


@pytest.mark.parametrize("sanitize, error, message", [
    (lambda t: 1 / 0, PrivlabValueError, "'sanitize' parameter of privlab.audit must be a "
                                         "function that accepts every item. lambda raised "
                                         "ZeroDivisionError"),
    (lambda t: None, PrivlabTypeError, "'sanitize' parameter of privlab.audit must be a "
                                       "function that returns a str"),
    (42, PrivlabTypeError, "'sanitize' parameter of privlab.audit must be a function"),
])
def test_a_bad_sanitizer_is_named_with_the_fix(sanitize, error, message):
    with pytest.raises(error, match=message.replace("(", r"\(").replace(".", r"\.")) as info:
        privlab.audit(TEXTS[:3], sanitize, encoders=["lexical"])
    if error is PrivlabValueError:
        assert isinstance(info.value.__cause__, ZeroDivisionError)  # nothing lost


def test_bad_inputs_name_the_parameter(tmp_path):
    with pytest.raises(PrivlabValueError, match="'sanitized' parameter of privlab.audit must "
                                                r"be one item per original \(3\)"):
        privlab.audit(TEXTS[:3], sanitized=TEXTS[:2], encoders=["lexical"])
    with pytest.raises(PrivlabValueError, match=r"'encoders\[0\]' parameter of privlab.audit "
                                                r"must be a callable that returns a \(3, d\)"):
        privlab.audit(TEXTS[:3], redact_name, encoders=[lambda texts: np.ones((2, 4))])
    (tmp_path / "empty").mkdir()
    with pytest.raises(PrivlabValueError, match="'originals' parameter of privlab.audit must "
                                                "be a folder holding image files"):
        privlab.audit(tmp_path / "empty", redact_name)
    with pytest.raises(PrivlabValueError, match="No such file or folder"):
        privlab.audit(str(tmp_path / "missing.txt"), redact_name)
    with pytest.raises(PrivlabValueError, match="'sanitize' parameter of privlab.audit"):
        privlab.audit(TEXTS[:3])


def test_an_image_folder_with_a_whole_image_blur_warns_of_the_placebo(tmp_path):
    from PIL import Image, ImageFilter

    from privlab.datasets.scenes import celebrity_scenes

    folder = tmp_path / "images"
    folder.mkdir()
    for i, scene in enumerate(celebrity_scenes(5, seed=0).scenes):
        Image.fromarray(np.asarray(scene.image)).resize((160, 120)).save(folder / f"{i}.png")

    def blur(image):
        return image.filter(ImageFilter.GaussianBlur(3))

    a = privlab.audit(folder, blur, encoders=["efficientnet-lite0"])
    assert a.name == "blur" and a.placebo_coverage is not None and a.placebo_coverage < 0.5
    assert "caveat: the placebo found room for only" in a.headline()
    E = get_encoder("efficientnet-lite0")
    assert a.member("efficientnet-lite0").value == pytest.approx(
        by_hand(E, a.originals, a.sanitized), abs=1e-6)
    (witness,) = a.face_witnesses()
    assert all(hasattr(item, "size") for _, item in witness.items)  # the images themselves
    assert "data:image/png;base64," in a.report(tmp_path / "r.html").read_text()


def test_the_facade_imports_the_verb_only_when_asked():
    import subprocess
    import sys

    code = ("import sys, privlab; before = 'privlab.contrastive' in sys.modules; "
            "f = privlab.audit; print(before, 'privlab.contrastive' in sys.modules, "
            "f.__module__, 'audit' in dir(privlab))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["False", "True", "privlab.contrastive.byo", "True"]
