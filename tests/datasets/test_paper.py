"""The papers' own data laid out from a checkout: what lands where, and the notebooks' studies
run on it with the settings the layout gives."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from privlab.cli.main import main
from privlab.config import shared_data_dir
from privlab.datasets.paper import (PAPER_IMAGE_PAIRS, PAPER_TEXT_PAIRS, lay_out, lay_out_spia,
                                    paper_settings)
from privlab.errors import PrivlabValueError

COMMENTS = {"ejua1": "Avengers: Endgame was three hours and I loved it.",
            "ejua2": "the avengers cast did a great charity read.",
            "ejua3": "Iron Man and Thor carried the Avengers for years.",
            "ejua4": "Unrelated comment about cats."}


def _photo(path: Path, seed: int) -> None:
    from skimage import data

    base = data.astronaut() if seed % 2 == 0 else data.chelsea()
    Image.fromarray(np.ascontiguousarray(base[::4, ::4])).save(path)


def fake_checkout(root: Path) -> Path:
    """The authors' layout in miniature: two photos a set, four comments, two concepts."""
    for name in ("dicaprio", "mcdonalds_large", "cats", "dogs"):
        (root / "data" / name).mkdir(parents=True)
        for k in range(2):
            _photo(root / "data" / name / f"{name}_{k:03d}.jpg", k)
    (root / "data" / "avengers_large").mkdir()
    for stem, text in COMMENTS.items():
        (root / "data" / "avengers_large" / f"{stem}.txt").write_text(text + "\n")
    (root / "data" / "cats.txt").write_text("A cat sleeps on the sofa.\n\nA kitten plays.\n")
    (root / "data" / "dogs.txt").write_text("A dog fetches the ball.\n\nA puppy barks.\n")
    return root


def test_a_checkout_is_laid_out_with_each_notebooks_settings(tmp_path):
    source = fake_checkout(tmp_path / "contrastive-privacy")
    target = tmp_path / "home" / "data" / "paper"
    layout = lay_out(source, target)
    assert layout.counts == {"dicaprio": 2, "mcdonalds_large": 2, "avengers_large": 4,
                             "concepts/cats.txt": 1, "concepts/images/cats": 2,
                             "concepts/dogs.txt": 1, "concepts/images/dogs": 2}
    assert "mcdonalds_small" in layout.missing and "concepts/boats.txt" in layout.missing
    assert (target / "dicaprio").is_symlink()
    assert (target / "dicaprio").resolve() == (source / "data" / "dicaprio").resolve()
    assert sorted(p.name for p in (target / "concepts" / "images" / "cats").iterdir()) == [
        "cats_000.jpg", "cats_001.jpg"]
    assert layout.settings == {
        "01": {"data": str(target / "dicaprio")}, "02": {"data": str(target / "mcdonalds_large")},
        "03": {"data": str(target / "avengers_large")},
        "09": {"data": str(target / "concepts"), "pairs": (("dogs", "cats"),),
               "image_data": str(target / "concepts"), "image_pairs": (("dogs", "cats"),)}}
    assert paper_settings("09", target) == layout.settings["09"]  # read back from LAYOUT.json
    assert json.loads((target / "LAYOUT.json").read_text())["source"] == str(source.resolve())
    # laid out again (a moved checkout, or a copy instead of links): replaced, not refused
    copied = lay_out(source, target, mode="copy")
    assert copied.counts == layout.counts and not (target / "dicaprio").is_symlink()
    assert (source / "data" / "dicaprio" / "dicaprio_000.jpg").is_file()


def test_the_studies_of_03_and_09_run_on_the_layout(tmp_path):
    from privlab.studies import avengers, calibration

    target = lay_out(fake_checkout(tmp_path / "checkout"), tmp_path / "paper").root
    r = avengers.run(avengers.Config(**paper_settings("03", target), encoders=("lexical",),
                                     sanitizers=("identity", "concept-list")))
    assert r.corpus.ids == ("ejua1", "ejua2", "ejua3")  # the comments naming the franchise
    c = calibration.run(calibration.Config(**paper_settings("09", target), encoders=("lexical",),
                                           image_encoders=("efficientnet-lite0",)))
    assert c.provenance["text"]["per_concept_used"] == {"dogs": 2, "cats": 2}
    sets = c.provenance["images"]["sets"]
    assert {k: (v["source"], v["n"]) for k, v in sets.items()} == {
        c: (str(target / "concepts" / "images" / c), 2) for c in ("cats", "dogs")}
    assert list(c.to_frame()[["pair", "modality"]].itertuples(index=False, name=None)) == [
        ("dogs/cats", "text"), ("dogs/cats", "image")]


def test_the_study_of_01_reads_the_laid_out_photos(tmp_path):
    from privlab.studies import dicaprio

    target = lay_out(fake_checkout(tmp_path / "checkout"), tmp_path / "paper").root
    r = dicaprio.run(dicaprio.Config(**paper_settings("01", target),
                                     sanitizers=("face-blackout-yunet",), encoders=("sface",)))
    corpus = r.provenance["corpus"]
    assert corpus["folder"] == str(target / "dicaprio")
    assert sorted(corpus["files"]) == ["dicaprio_000.jpg", "dicaprio_001.jpg"]


def test_the_study_of_02_runs_on_the_laid_out_photos(tmp_path):
    from privlab.studies import mcdonalds

    target = lay_out(fake_checkout(tmp_path / "checkout"), tmp_path / "paper").root
    r = mcdonalds.run(mcdonalds.Config(**paper_settings("02", target),
                                       sanitizers=("text-blackout-ocr",),
                                       encoders=("efficientnet-lite0",)))
    corpus = r.provenance["corpus"]
    assert corpus["folder"] == str(target / "mcdonalds_large")
    assert sorted(corpus["files"]) == ["mcdonalds_large_000.jpg", "mcdonalds_large_001.jpg"]
    assert len(r.to_frame()) == 1 and r.headline().status


def test_refusals_name_the_parameter_and_the_fix(tmp_path):
    with pytest.raises(PrivlabValueError, match="'source' parameter of lay_out.*"
                                                "umass-forensics/contrastive-privacy"):
        lay_out(tmp_path)
    foreign = tmp_path / "mine"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("keep me")
    with pytest.raises(PrivlabValueError, match="'target' parameter of lay_out"):
        lay_out(fake_checkout(tmp_path / "checkout"), foreign)
    assert (foreign / "notes.txt").read_text() == "keep me"
    with pytest.raises(PrivlabValueError, match="Run: privlab data paper"):
        paper_settings("01", tmp_path / "nothing")


def test_the_cli_verbs_lay_out_and_refuse_in_one_line(tmp_path, capsys):
    source = fake_checkout(tmp_path / "checkout")
    assert main(["data", "paper", str(source), "--to", str(tmp_path / "paper")]) == 0
    out = capsys.readouterr().out
    assert f"notebook 03: Config(data='{tmp_path / 'paper' / 'avengers_large'}')" in out
    assert main(["data", "paper", str(tmp_path / "nowhere")]) == 2
    assert "privlab data: error: The 'source' parameter of lay_out" in capsys.readouterr().err


def fake_spia(root: Path) -> Path:
    for folder in ("data/spia", "data/entity", "config/prompts"):
        (root / folder).mkdir(parents=True)
    (root / "data" / "spia" / "spia_tab_2.jsonl").write_text("{}\n")
    (root / "data" / "entity" / "entity_tab_2.jsonl").write_text("{}\n")
    return root


def test_a_spia_checkout_is_laid_out_side_by_side_with_its_prompts(tmp_path, capsys):
    from privlab.redaction.spia.spans import entity_file_for

    source = fake_spia(tmp_path / "spia")
    layout = lay_out_spia(source, tmp_path / "laid")
    data = tmp_path / "laid" / "spia_tab_2.jsonl"
    assert layout.settings == {"08": {"data": str(data), "prompts_from": str(source.resolve())}}
    assert entity_file_for(data) == tmp_path / "laid" / "entity_tab_2.jsonl"  # the study finds it
    assert layout.missing == ()
    assert main(["data", "spia", str(tmp_path), "--to", str(tmp_path / "x")]) == 2
    assert "github.com/maisonOP/spia" in capsys.readouterr().err


_SHARED = shared_data_dir()


@pytest.mark.skipif(_SHARED is None or not (_SHARED / "paper").is_dir(),
                    reason="the paper's data (../shared/data/paper) is absent")
def test_the_shared_copy_of_the_papers_data_is_laid_out_and_03_runs_on_it(tmp_path):
    from privlab.datasets.images import load_folder
    from privlab.studies import avengers

    layout = lay_out(_SHARED / "paper", tmp_path / "paper")
    # the counts data/README.md gives (files whose blobs were missing upstream are absent)
    assert {k: layout.counts[k] for k in ("dicaprio", "mcdonalds_large", "mcdonalds_small",
                                          "avengers_large", "avengers_small")} == {
        "dicaprio": 27, "mcdonalds_large": 37, "mcdonalds_small": 7, "avengers_large": 49,
        "avengers_small": 9}
    assert set(layout.settings) == {"01", "02", "03", "09"}
    assert layout.settings["09"]["pairs"] == PAPER_TEXT_PAIRS  # sentences in ../concepts
    assert layout.settings["09"]["image_pairs"] == PAPER_IMAGE_PAIRS
    assert len(load_folder(paper_settings("02", layout.root)["data"], max_side=64)) == 37
    r = avengers.run(avengers.Config(**paper_settings("03", layout.root), encoders=("lexical",),
                                     sanitizers=("concept-list",)))
    assert len(r.corpus) == 49


@pytest.mark.skipif(_SHARED is None or not (_SHARED / "spia").is_dir(),
                    reason="SPIA's data (../shared/data/spia) is absent")
def test_the_shared_spia_files_are_laid_out_without_prompts(tmp_path):
    layout = lay_out_spia(_SHARED / "spia", tmp_path / "spia")
    assert sorted(layout.counts) == ["entity_panorama_151.jsonl", "entity_tab_144.jsonl",
                                     "spia_panorama_151.jsonl", "spia_panorama_531.jsonl",
                                     "spia_tab_144.jsonl"]
    assert layout.settings == {"08": {"data": str(tmp_path / "spia" / "spia_panorama_151.jsonl")}}
    assert layout.missing == ("entity_panorama_531.jsonl",)
