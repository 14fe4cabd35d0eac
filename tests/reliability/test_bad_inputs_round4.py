"""Bad inputs of the fourth round: each was silent or a raw traceback before.

A bare string where a list is meant, a JSON key given twice, an unreadable file, a face
table whose identity column is not first, labels as bytes or NaN, old Mac line ends, PNG
colour keys, repeated ``--only``, a second array appended to a .npy file, and a refusal
that pointed to an option that does not help.
"""

from __future__ import annotations

import builtins
import os

import numpy as np
import pytest
from PIL import Image

from privlab.contrastive import audit
from privlab.datasets.face_embeddings import load_embedding_table
from privlab.epsilon.auditors.table import audit_pairs
from privlab.errors import strings
from privlab.io import read_jsonl
from privlab.sanitizers import ConceptListSanitizer
from privlab.vision.images import read_image


def test_a_bare_string_is_one_item_never_its_letters():
    assert strings("Ken Lay", "names", "audit") == ["Ken Lay"]
    with pytest.raises(TypeError, match=r"'names' parameter of audit must be a string or a "
                                        r"list of strings. Got int instead. Item 1 is the one"):
        strings(["Ken Lay", 3], "names", "audit")
    with pytest.raises(TypeError, match=r"'names' parameter of audit must be a string or a "
                                        r"list of strings"):
        strings({"Ken Lay": 1}, "names", "audit")


def test_audit_names_as_a_bare_string_counts_the_name_not_its_letters():
    texts = ["Ken Lay met the board", "a quiet day", "Ken Lay left early", "rain again"]
    one = audit(texts, ConceptListSanitizer(["board"]), encoders=["lexical"], names="Ken Lay")
    listed = audit(texts, ConceptListSanitizer(["board"]), encoders=["lexical"],
                   names=["Ken Lay"])
    assert one.baseline.names == ("Ken Lay",)
    assert one.baseline.count == listed.baseline.count == 2  # "a quiet day" holds no name
    assert one.baseline.indices == (0, 2)


def test_audit_pairs_takes_one_method_as_a_bare_string():
    rng = np.random.default_rng(0)
    x, y = rng.normal(size=(40, 3)), np.repeat(["p", "q"], 20)
    table = audit_pairs(x, y, [("p", "q")], methods="gaussmech")
    assert list(table.to_frame()["method"]) == ["gaussmech"]


def test_a_jsonl_key_given_twice_is_refused_with_file_and_line(tmp_path):
    path = tmp_path / "docs.jsonl"
    path.write_text('{"id": 1, "policies": ["a"]}\n\n{"id": 2, "policies": ["b"], '
                    '"policies": []}\n')
    with pytest.raises(ValueError, match=r"docs\.jsonl line 3: the key 'policies' given "
                                         r"twice.*Keep one of the two values"):
        read_jsonl(path, "load_redacbench")


def test_an_unreadable_file_is_refused_by_name_not_a_raw_permission_error(tmp_path,
                                                                         monkeypatch):
    path = tmp_path / "gold.jsonl"
    path.write_text('{"id": 1}\n')
    real_open = builtins.open

    def no_access(file, *args, **kwargs):  # root reads everything: deny it by hand
        if os.fspath(file) == str(path):
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", no_access)
    with pytest.raises(ValueError, match=r"'path' parameter of load_spia must be a file this "
                                         r"user can read.*permission denied.*chmod u\+r"):
        read_jsonl(path, "load_spia")


def _csv(tmp_path, text: str, newline: str = "\n"):
    path = tmp_path / "faces.csv"
    path.write_bytes(text.replace("\n", newline).encode())
    return path


def test_a_face_table_with_subject_id_last_takes_it_as_the_label(tmp_path):
    path = _csv(tmp_path, "e0,e1,subject_id\n3,4,17\n0,1,17\n1,0,23\n")
    table = load_embedding_table(path)
    assert table.labels.tolist() == ["17", "17", "23"]
    assert table.embeddings[0].tolist() == [0.6, 0.8]


def test_a_face_table_whose_label_column_cannot_be_told_is_refused(tmp_path):
    path = _csv(tmp_path, "e0,e1,who\n3,4,ann\n0,1,bob\n")
    with pytest.raises(ValueError, match=r"'label_column' parameter of load_embedding_table.*"
                                         r"Pass label_column="):
        load_embedding_table(path)
    assert load_embedding_table(path, label_column="who").labels.tolist() == ["ann", "bob"]


def test_a_face_csv_with_old_mac_line_ends_loads_like_unix(tmp_path):
    unix = load_embedding_table(_csv(tmp_path, "label,e0,e1\nann,3,4\nbob,0,1\n"))
    mac = load_embedding_table(_csv(tmp_path, "label,e0,e1\nann,3,4\nbob,0,1\n", "\r"))
    assert mac.labels.tolist() == unix.labels.tolist() == ["ann", "bob"]
    assert np.array_equal(mac.embeddings, unix.embeddings)


def test_npz_labels_as_bytes_are_their_text_and_a_nan_label_is_refused(tmp_path):
    x = np.array([[3.0, 4.0], [0.0, 1.0]])
    path = tmp_path / "t.npz"
    np.savez(path, embeddings=x, labels=np.array([b"alice", b"bob"]))
    assert load_embedding_table(path).labels.tolist() == ["alice", "bob"]
    np.savez(path, embeddings=x, labels=np.array([1.0, np.nan]))
    with pytest.raises(ValueError, match=r"row 1: a NaN label"):
        load_embedding_table(path)
    csv = _csv(tmp_path, "label,e0,e1\nann,3,4\nnan,0,1\n")
    with pytest.raises(ValueError, match=r"line 3: a NaN label"):
        load_embedding_table(csv)


@pytest.mark.parametrize("mode", ["RGB", "L"])
def test_a_png_colour_key_reads_white_like_the_same_picture_with_alpha(tmp_path, mode):
    rgb = np.full((4, 4, 3), 200, np.uint8)
    rgb[0, 0] = 0
    alpha = np.where(rgb[..., 0] == 0, 0, 255).astype(np.uint8)
    Image.fromarray(np.dstack([rgb, alpha]), "RGBA").save(tmp_path / "alpha.png")
    keyed = Image.fromarray(rgb if mode == "RGB" else rgb[..., 0])
    keyed.save(tmp_path / "keyed.png", transparency=(0, 0, 0) if mode == "RGB" else 0)
    assert np.array_equal(read_image(tmp_path / "keyed.png"), read_image(tmp_path / "alpha.png"))
    assert read_image(tmp_path / "keyed.png")[0, 0].tolist() == [255, 255, 255]


def _privlab(*args):
    """The command line run in this process (as ``privlab ARGS``): its exit code and what it
    printed (argparse's own refusals exit through SystemExit)."""
    import contextlib
    import io
    from types import SimpleNamespace

    from privlab.cli.main import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(args))
        except SystemExit as exc:
            code = exc.code
    return SimpleNamespace(returncode=code, stdout=out.getvalue(), stderr=err.getvalue())


def test_demo_only_refuses_numbers_without_a_notebook(tmp_path):
    folder = tmp_path / "nbs"
    folder.mkdir()
    for name in ("00_a.ipynb", "01_b.ipynb"):
        (folder / name).write_text("{}")
    run = _privlab("demo", "--notebooks", str(folder), "--only", "00", "50",
                   "--out", str(tmp_path / "out"))
    assert run.returncode != 0
    assert "'--only'" in run.stderr and "Got 50 instead" in run.stderr
    assert "numbers among 00 01" in run.stderr


def test_demo_only_given_twice_selects_both(monkeypatch, tmp_path):
    from privlab.cli.main import build_parser

    args = build_parser().parse_args(["demo", "--only", "00", "--only", "01"])
    assert args.only == ["00", "01"]


def _npy_pair(tmp_path):
    appended = tmp_path / "two.npy"
    with open(appended, "wb") as handle:
        np.save(handle, np.eye(3))
        np.save(handle, np.eye(3))
    trailing = tmp_path / "tail.npy"
    np.save(trailing, np.eye(3))
    with open(trailing, "ab") as handle:
        handle.write(b"junk")
    return appended, trailing


def test_a_npy_with_a_second_array_or_trailing_bytes_is_refused(tmp_path):
    for path, extra in zip(_npy_pair(tmp_path), (200, 4)):
        run = _privlab("resolution", "--audited", str(path), "--references", str(path))
        assert run.returncode == 2
        assert "'--audited'" in run.stderr and f"({extra} bytes after the array" in run.stderr


def test_non_unit_reference_originals_name_the_option_and_a_fix_that_works(tmp_path):
    doubled, unit = tmp_path / "r.npy", tmp_path / "u.npy"
    np.save(doubled, 2 * np.eye(3))
    np.save(unit, np.eye(3)[[1, 2, 0]])
    args = ["resolution", "--audited", str(unit), "--reference-originals", str(doubled),
            "--reference-sanitized", str(unit)]
    refused = _privlab(*args)
    assert refused.returncode == 2
    assert "'--reference-originals' option of privlab resolution" in refused.stderr
    assert "Pass --normalize" in refused.stderr and "E_ref" not in refused.stderr
    fixed = _privlab(*args, "--normalize")
    assert fixed.returncode == 0 and fixed.stdout.startswith("resolution 1 ")


@pytest.mark.parametrize("charset", ["rot13", "base64", "zlib"])
def test_a_message_declaring_a_codec_that_is_no_charset_is_skipped_and_listed(tmp_path,
                                                                              charset):
    from privlab.datasets import enron

    box = tmp_path / "maildir" / "lay-k" / "inbox"
    box.mkdir(parents=True)
    for k in range(3):
        (box / f"{k}.").write_bytes(b"Message-ID: <%d>\n\nKen Lay memo %d\n" % (k, k))
    (box / "9.").write_bytes(b"Message-ID: <odd>\nContent-Type: text/plain; charset="
                             + charset.encode() + b"\n\nXra Ynl\n")
    with pytest.warns(UserWarning, match=rf"1 of 4 messages .*\(<odd>\): a charset "
                                         rf"'{charset}' that names no text encoding"):
        corpus = enron.load_mailbox(tmp_path / "maildir")
    assert corpus.texts == tuple(f"Ken Lay memo {k}" for k in range(3))


def test_a_face_table_refuses_a_nan_min_norm_and_complex_embeddings(tmp_path):
    from privlab.datasets.face_embeddings import table_from_arrays

    x = np.array([[3.0, 4.0], [np.nan, np.nan], [0.0, 1.0]])
    for bad in (float("nan"), float("inf"), -1.0):
        with pytest.raises(ValueError, match=r"'min_norm' parameter of table_from_arrays must "
                                             r"be a finite nonnegative number"):
            table_from_arrays(x, ["a", "b", "c"], min_norm=bad)
    path = tmp_path / "c.npz"
    np.savez(path, embeddings=np.array([[1 + 2j, 0], [0, 1j]]), labels=np.array(["a", "b"]))
    with pytest.raises(ValueError, match=r"must be real numbers. Got c\.npz: dtype complex128"):
        load_embedding_table(path)


def test_audit_pairs_keeps_the_largest_valid_seed_valid_at_every_pair():
    rng = np.random.default_rng(1)
    x, y = rng.normal(size=(60, 2)), np.repeat(["p", "q", "r"], 20)
    table = audit_pairs(x, y, [("p", "q"), ("q", "r")], methods=["gaussmech"],
                        seed=2**32 - 1)
    assert len(table.to_frame()) == 2


def test_quickstart_refuses_an_empty_concept_list():
    from privlab.studies import quickstart

    with pytest.raises(ValueError, match=r"'weak_concepts' parameter of quickstart\.run must "
                                         r"be at least one word or phrase to remove"):
        quickstart.run(quickstart.Config(encoders=("lexical",), weak_concepts=()))


def test_a_misspelt_study_setting_is_named_with_the_nearest_one():
    from privlab.studies import quickstart

    with pytest.raises(TypeError, match=r"'encodrs' parameter of quickstart\.Config must be "
                                         r"one of the settings .*Did you mean 'encoders'\?"):
        quickstart.Config(encodrs=("lexical",))


@pytest.mark.parametrize("texts, problem", [
    (["Ken Lay spoke"], "a single item is audited against itself"),
    (["", "  "], "every original text is blank"),
    (["Ken Lay spoke", "the board met"], "the sanitizer changed none of the items")])
def test_an_audit_that_is_zero_by_construction_warns_and_says_so(texts, problem):
    sanitizer = ConceptListSanitizer(["nothing-here"])
    with pytest.warns(UserWarning, match=rf"audit: {problem}.*0 by construction"):
        result = audit(texts, sanitizer, encoders=["lexical"])
    assert result.members[0].value == 0
    assert "0 by construction" in result.headline() or "self-trial" in result.headline() \
        or "blank" in result.headline()


def test_two_dataframes_are_audited_by_column_name_not_position():
    import pandas as pd

    from privlab.epsilon.auditors import get_auditor

    rng = np.random.default_rng(0)
    a = pd.DataFrame({"x": rng.normal(size=200), "y": rng.normal(3, 1, size=200)})
    b = pd.DataFrame({"x": rng.normal(size=200), "y": rng.normal(3, 1, size=200)})
    mmd = get_auditor("mmd-tv")
    aligned = mmd.audit(a, b).value
    assert mmd.audit(a, b[["y", "x"]]).value == aligned  # matched by name
    by_position = mmd.audit(a.to_numpy(), b[["y", "x"]].to_numpy()).value
    assert by_position > aligned + 0.3  # what position-matching read: a false difference
    with pytest.raises(ValueError, match=r"'b' parameter of MMDTV\.audit must be a DataFrame "
                                         r"with the columns of 'a' \['x', 'y'\]. Got columns "
                                         r"only in a: \['y'\], only in b: \['z'\]"):
        mmd.audit(a, b.rename(columns={"y": "z"}))


def _good_record() -> dict:
    return {"profile": "demo", "date": "2026-12-01", "total_seconds": 12.0,
            "machine": {"cores": 2, "platform": "Linux", "shared_data": False},
            "notebooks": [{"notebook": "00_quickstart", "seconds": 12.0, "ok": True,
                           "headlines": [{"study": "00 quickstart", "text": "resolution 0.2",
                                          "status": "diagnostic", "caveats": ["12 texts"]}]}]}


@pytest.mark.parametrize("change, problem", [
    (lambda r: r.update(total_seconds=float("nan")), "'total_seconds' is nan, not a finite"),
    (lambda r: r.update(total_seconds="12"), "'total_seconds' is '12', not a finite"),
    (lambda r: r.update(machine="laptop"), "'machine' is str, not an object"),
    (lambda r: r.update(notebooks={"a": 1}), "'notebooks' is dict, not a list"),
    (lambda r: r["notebooks"][0].pop("seconds"), r"notebooks\[0\] \(00_quickstart\) has "
                                                 "'seconds' None"),
    (lambda r: r["notebooks"][0]["headlines"][0].update(caveats="12 texts"),
     r"notebooks\[0\]\.headlines\[0\] has 'caveats' that is not a list of texts")])
def test_quote_refuses_a_malformed_record_naming_the_field(tmp_path, change, problem):
    import json

    from privlab.cli.quote import read_record

    record = _good_record()
    path = tmp_path / "headlines-demo.json"
    path.write_text(json.dumps(record))
    assert read_record(path)["total_seconds"] == 12.0
    change(record)
    path.write_text(json.dumps(record))
    with pytest.raises(ValueError, match=rf"'record' parameter of privlab quote must be a "
                                         rf"record written by privlab demo. Got .*{problem}"):
        read_record(path)


@pytest.mark.parametrize("a, problem", [
    (np.zeros((10, 0)), r"with d >= 1. Got shape \(10, 0\) \(no columns\)"),
    (np.array([[10**400]] * 5 + [[1]] * 5, dtype=object), r"numbers that fit a float64"),
    (np.full((10, 1), 1e200), r"magnitude at most 1e\+150. Got a value of magnitude 1e\+200")])
def test_samples_with_no_column_or_beyond_float_range_are_refused(a, problem):
    from privlab.epsilon.auditors import get_auditor

    b = np.zeros((10, a.shape[1]))
    for method in ("gaussmech", "mmd-tv", "reserved"):
        with pytest.raises(ValueError, match=rf"'a' parameter of \w+\.audit must be .*{problem}"):
            get_auditor(method).audit(a, b)


def test_a_text_with_a_lone_surrogate_is_refused_by_its_position():
    texts = ["Ken Lay spoke", "Ken \ud800 Lay wrote"]
    with pytest.raises(ValueError, match=r"'originals\[1\]' parameter of audit must be text "
                                         r"that UTF-8 can encode. Got a lone surrogate "
                                         r"'\\ud800' at character 4"):
        audit(texts, ConceptListSanitizer(["Ken"]), encoders=["lexical"])


@pytest.mark.parametrize("epsilon", ["1e308", "5e-324"])
def test_an_epsilon_whose_noise_scale_leaves_float64_is_refused_by_the_option(tmp_path,
                                                                              epsilon):
    run = _privlab("epsilon-benchmark", "--epsilon", epsilon, "--out", str(tmp_path / "e.csv"),
                   "--quiet")
    assert run.returncode == 2
    assert "'--epsilon' option of privlab epsilon-benchmark must be 0 (the exact null) or a " \
           "number in [1e-06, 1000]" in run.stderr
    assert "GaussMech" not in run.stderr and not (tmp_path / "e.csv").exists()


def test_demo_refuses_a_notebook_that_is_not_json_before_running_any(tmp_path):
    folder = tmp_path / "nbs"
    folder.mkdir()
    (folder / "00_a.ipynb").write_text("not json")
    run = _privlab("demo", "--notebooks", str(folder), "--out", str(tmp_path / "out"))
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert "'--notebooks' parameter of privlab demo must be Jupyter notebooks" in run.stderr
    assert "00_a.ipynb (not a readable notebook: Notebook does not appear to be JSON" \
        in run.stderr
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_an_identity_with_no_rows_is_named_with_the_nearest_labels(tmp_path):
    table = load_embedding_table(_csv(tmp_path, "label,e0,e1\nalice,3,4\nbob,0,1\n"))
    assert table.rows("alice").tolist() == [[0.6, 0.8]]
    with pytest.raises(ValueError, match=r"'label' parameter of EmbeddingTable\.rows must be "
                                         r"one of the table's 2 identities. Got 'alce' instead. "
                                         r"Did you mean \['alice'\]\?"):
        table.rows("alce")
