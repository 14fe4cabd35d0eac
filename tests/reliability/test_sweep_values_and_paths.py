"""Bad values that used to pass: study settings of the wrong type, an int as a device, a
negative ``top_k`` in the reference loop, paths that are not paths, ``max_side=0``, a
cache folder under a file, a README record that is not UTF-8, a table of zero vectors."""

from __future__ import annotations

import dataclasses
import importlib
import math

import numpy as np
import pytest
from PIL import Image

from privlab.cli import main
from privlab.errors import PrivlabTypeError, PrivlabValueError
from privlab.studies import STUDY_MODULES
from privlab.studies.contract import value_checks

CONFIGS = [importlib.import_module(f"privlab.studies.{m}").Config for m in STUDY_MODULES]
WRONG = {"bool": "no", "int": "3", "float": "0.5", "str": 5, "ints": ("1", 2),
         "floats": (0.5, None)}
FIELDS = [(cls, name, kind) for cls in CONFIGS for name, kind in value_checks(cls)]


def test_every_study_has_checked_settings_and_its_profiles_pass_them():
    assert len(FIELDS) >= 100
    for cls in CONFIGS:
        for build in (cls.default, cls.smoke, cls.demo):
            build()  # none of the shipped settings is refused


@pytest.mark.parametrize("cls, name, kind", FIELDS,
                         ids=[f"{c.__module__.rsplit('.', 1)[1]}.{n}" for c, n, _ in FIELDS])
def test_a_setting_of_the_wrong_type_is_refused_naming_it(cls, name, kind):
    bad = WRONG.get(kind, "abc")  # "rows:..." kinds: a bare string where pairs belong
    with pytest.raises((PrivlabTypeError, PrivlabValueError),
                       match=rf"'{name}' parameter of {cls.__module__}\.Config must be"):
        cls.smoke(**{name: bad})
    # the field's own default still passes
    default = {f.name: f for f in dataclasses.fields(cls)}[name].default
    if default is not dataclasses.MISSING:
        assert getattr(cls.smoke(**{name: default}), name) == default


def test_nan_none_inside_and_pairs():
    from privlab.studies import calibration, known_epsilon, scale

    with pytest.raises(PrivlabValueError, match=r"'delta' .* a number, not NaN. Got nan"):
        importlib.import_module("privlab.studies.dicaprio").Config.smoke(delta=math.nan)
    with pytest.raises(PrivlabValueError, match=r"'null_sizes' .* a list of ints. Got "
                                                r"\(30, None\)"):
        known_epsilon.Config.smoke(null_sizes=(30, None))
    with pytest.raises(PrivlabValueError, match=r"'pairs' .* a list of 2-tuples. Got 'ab'"):
        calibration.Config.smoke(pairs=("ab", "cd"))
    with pytest.raises(PrivlabTypeError, match=r"'pairs' .* a list of items.*bare string"):
        calibration.Config.smoke(pairs="dogs,cats")
    with pytest.raises(PrivlabTypeError, match=r"'scenarios' .* a list of strings. Got NoneType"):
        scale.Config.smoke(scenarios=("planted", None))
    with pytest.raises(PrivlabValueError, match=r"'top_k' .* an int. Got 2.5"):
        scale.Config.smoke(top_k=2.5)
    # numpy scalars and ints for floats are fine
    assert scale.Config.smoke(top_k=np.int64(2)).top_k == 2
    assert known_epsilon.Config.smoke(epsilon=1).epsilon == 1


def test_device_must_be_text():
    from privlab.resolution import check_device, resolution

    S = np.eye(2)
    for bad in (0, 1, False, 1.0):
        with pytest.raises(PrivlabValueError, match=r"'device' parameter of resolution must be "
                                                    r"'cpu', 'cuda' or 'cuda:N'"):
            resolution(S, S * 0.1, device=bad)
    assert check_device(None, "x") in ("cpu", "cuda")
    assert check_device("cpu", "x") == "cpu"
    import torch

    assert check_device(torch.device("cpu"), "x") == "cpu"


def test_brute_force_refuses_what_the_kernel_refuses():
    from privlab.resolution import brute_force_resolution

    with pytest.raises(PrivlabValueError, match=r"'top_k' .* an int >= 0. Got -2"):
        brute_force_resolution([[1.0, 0.0]], [[0.3, 0.0]], top_k=-2)
    with pytest.raises(PrivlabValueError, match=r"'S' parameter of brute_force_resolution "
                                                r"must be a numeric array"):
        brute_force_resolution([["a", "b"]], [[0.3, 0.0]])
    assert brute_force_resolution([[1.0, 0.0]], [[0.3, 0.0], [0.3, 1.0]]) == (
        0.3, (0, 0), [(0, 0, 0.3), (0, 1, 0.3)])


def test_image_paths_and_sides(tmp_path):
    from privlab.datasets.images import load_folder, read_image

    path = tmp_path / "a.png"
    Image.new("RGB", (20, 10), (200, 10, 10)).save(path)
    for bad in (0, -5, "big", 2.5, True):
        with pytest.raises(PrivlabValueError, match=r"'max_side' parameter of read_image must "
                                                    r"be a positive int or None"):
            read_image(path, max_side=bad)
    with pytest.raises(PrivlabValueError, match=r"'max_side' parameter of load_folder"):
        load_folder(tmp_path, max_side=0)
    with pytest.raises(PrivlabTypeError, match=r"'path' parameter of read_image must be a "
                                               r"file path .* Got NoneType"):
        read_image(None)
    assert read_image(path, max_side=10).shape == (5, 10, 3)
    assert read_image(path).shape == (10, 20, 3)


def test_read_emails_refuses_a_path_that_is_no_path():
    from privlab.datasets import enron

    with pytest.raises(PrivlabTypeError, match=r"'path' parameter of read_emails .* Got NoneType"):
        enron.read_emails(None)


def test_an_embedding_cache_below_a_file_is_refused_naming_it(tmp_path):
    from privlab.encoders import EmbeddingCache

    (tmp_path / "f").write_text("x")
    with pytest.raises(PrivlabValueError, match=r"embedding cache .*f/e\.sqlite cannot be "
                                                r"created: .*f is a file, not a folder"):
        EmbeddingCache(tmp_path / "f" / "e.sqlite")


def test_quote_refuses_a_record_or_readme_that_is_not_utf8(tmp_path, capsys):
    (tmp_path / "h.json").write_bytes(b"\xff\xfe{}")
    (tmp_path / "R.md").write_text("# x\n")
    assert main(["quote", str(tmp_path / "h.json"), "--readme", str(tmp_path / "R.md")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "'record' parameter" in err[0] and "UnicodeDecodeError" in err[0]
    record = {"profile": "demo", "date": "2026-01-01", "machine": {}, "total_seconds": 1,
              "notebooks": []}
    (tmp_path / "h.json").write_text(__import__("json").dumps(record))
    (tmp_path / "R.md").write_bytes(b"caf\xe9\n")
    assert main(["quote", str(tmp_path / "h.json"), "--readme", str(tmp_path / "R.md")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "'readme' parameter" in err[0] and "a UTF-8 text file" in err[0]


def test_a_table_of_zero_vectors_is_refused(tmp_path):
    from privlab.datasets.face_embeddings import load_embedding_table

    path = tmp_path / "t.csv"
    path.write_text("label,a,b\nx,0,0\ny,0,0\n")
    with pytest.raises(PrivlabValueError, match=r"at least one usable vector. Got .*t\.csv: "
                                                r"all 2 vectors have norm <= min_norm"):
        load_embedding_table(path)
    path.write_text("label,a,b\nx,0,0\ny,0,2\n")
    table = load_embedding_table(path)
    assert len(table) == 1 and table.report.dropped_zero_norm == [2]
