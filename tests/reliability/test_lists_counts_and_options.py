"""Bare strings where a list belongs, counts that slice the wrong way, and options that
quietly do something else.

* Every study Config's sequence-of-strings fields, found from their type hints, refuse a
  bare string (which would be read character by character), naming the field; so do the
  loaders that take lists of names, concepts, columns or titles.
* Every Config's seed fields refuse seeds NumPy would refuse later.
* RedacBench: a misspelt key, ``max_documents=-1`` and zero documents are refused; the
  SPIA study the same.
* The command line: ``demo --only`` without a value, ``--epsilon 1 1``, ``--out newdir/``
  and ``--n 2000000000`` each end with exit status 2 and one line naming the option.
"""

from __future__ import annotations

import dataclasses
import importlib
import json

import pytest

from privlab.errors import PrivlabTypeError, PrivlabValueError, item_list
from privlab.studies import STUDY_MODULES
from privlab.studies.contract import StudyConfig, config_checks
from tests.reliability.test_kernel_and_cli import assert_one_line_refusal, run_cli


def _study_configs() -> list[type]:
    """Every dataclass deriving from StudyConfig that a study module defines."""
    found = []
    for name in STUDY_MODULES:
        module = importlib.import_module(f"privlab.studies.{name}")
        for obj in vars(module).values():
            if isinstance(obj, type) and issubclass(obj, StudyConfig) \
                    and dataclasses.is_dataclass(obj) and obj.__module__ == module.__name__:
                found.append(obj)
    return found


CONFIGS = _study_configs()
TEXT_FIELDS = [(cls, name) for cls in CONFIGS for name, kind in config_checks(cls)
               if kind == "texts"]
SEED_FIELDS = [(cls, name) for cls in CONFIGS for name, kind in config_checks(cls)
               if kind == "seed"]


def _id(pair) -> str:
    cls, name = pair
    return f"{cls.__module__.rsplit('.', 1)[1]}.{cls.__qualname__}.{name}"


def test_the_discovery_finds_every_study_and_the_known_list_fields():
    assert {c.__module__.rsplit(".", 1)[1] for c in CONFIGS} == set(STUDY_MODULES)
    names = {_id(p) for p in TEXT_FIELDS}
    for expected in ("quickstart.Config.data", "quickstart.Config.weak_concepts",
                     "redacbench.Config.strategies", "spia.Config.anonymizers",
                     "dicaprio.LadderConfig.encoders", "known_epsilon.Config.certificates",
                     "avengers.Config.broad_concepts"):
        assert expected in names
    assert len(TEXT_FIELDS) >= 30 and len(SEED_FIELDS) >= 10


@pytest.mark.parametrize("cls", CONFIGS, ids=lambda c: f"{c.__module__}.{c.__qualname__}")
def test_every_config_still_builds_on_its_defaults(cls):
    assert dataclasses.is_dataclass(cls.default()) and dataclasses.is_dataclass(cls.smoke())


@pytest.mark.parametrize("bare", ["minilm", b"minilm"], ids=["str", "bytes"])
@pytest.mark.parametrize("pair", TEXT_FIELDS, ids=[_id(p) for p in TEXT_FIELDS])
def test_every_list_of_strings_field_refuses_a_bare_string(pair, bare):
    cls, name = pair
    with pytest.raises((PrivlabTypeError, PrivlabValueError), match=rf"'{name}' parameter of"):
        cls.default(**{name: bare})
    with pytest.raises((PrivlabTypeError, PrivlabValueError), match=rf"'{name}'"):
        cls(**{name: bare})  # the plain constructor too, not only default()


@pytest.mark.parametrize("seed", [-1, 2**32])
@pytest.mark.parametrize("pair", SEED_FIELDS, ids=[_id(p) for p in SEED_FIELDS])
def test_every_seed_field_refuses_what_numpy_refuses(pair, seed):
    cls, name = pair
    with pytest.raises(PrivlabValueError, match=rf"'{name}' parameter of .*\[0, 2\*\*32 - 1\]"):
        cls.default(**{name: seed})
    assert getattr(cls.default(**{name: 2**32 - 1}), name) == 2**32 - 1


def test_item_list_says_why_a_bare_string_is_refused():
    with pytest.raises(PrivlabTypeError, match=r"'names' .* character by character.*"
                                               r"\['Ken Lay'\]"):
        item_list("Ken Lay", "names", "select_emails")
    assert item_list(("Ken Lay",), "names", "select_emails") == ["Ken Lay"]


def _loaders(tmp_path):
    from privlab.datasets import enron, reddit
    from privlab.datasets.face_embeddings import load_embedding_table
    from privlab.datasets.image_concepts import generate_concept_sets
    from privlab.datasets.images import download_commons
    from privlab.sanitizers.text import concept_pattern

    mailbox = tmp_path / "box.jsonl"
    mailbox.write_text('{"text": "Ken Lay called.", "mid": "m1"}\n')
    table = tmp_path / "t.csv"
    table.write_text("label,e0,e1\nann,3,4\nbob,1,0\n")
    return [
        ("select_emails names", "names",
         lambda: enron.select_emails([enron.Email("1", "Ken Lay")], names="Ken Lay")),
        ("load_mailbox names", "names", lambda: enron.load_mailbox(mailbox, names="Ken Lay")),
        ("load_mailbox concepts", "concepts",
         lambda: enron.load_mailbox(mailbox, concepts="Ken Lay")),
        ("load_comments concepts", "concepts",
         lambda: reddit.load_comments(mailbox, concepts="Avengers")),
        ("load_embedding_table embedding_columns", "embedding_columns",
         lambda: load_embedding_table(table, embedding_columns="e0")),
        ("generate_concept_sets concepts", "concepts",
         lambda: generate_concept_sets("cat", n=1)),
        ("download_commons titles (refused before any request)", "titles",
         lambda: download_commons(tmp_path / "out", titles="File:Example.jpg")),
        ("concept_pattern concepts", "concepts", lambda: concept_pattern("Einstein")),
    ]


LOADER_IDS = ["select_emails names", "load_mailbox names", "load_mailbox concepts",
              "load_comments concepts", "load_embedding_table embedding_columns",
              "generate_concept_sets concepts", "download_commons titles",
              "concept_pattern concepts"]


@pytest.mark.parametrize("index", range(len(LOADER_IDS)), ids=LOADER_IDS)
def test_loaders_refuse_a_bare_string(tmp_path, index):
    case, parameter, call = _loaders(tmp_path)[index]
    with pytest.raises(PrivlabTypeError, match=rf"'{parameter}' parameter of .*Got str"):
        call()
    assert not (tmp_path / "out").exists()


def test_the_loaders_still_take_lists(tmp_path):
    from privlab.datasets import enron
    from privlab.sanitizers.text import concept_pattern

    mailbox = tmp_path / "box.jsonl"
    mailbox.write_text('{"text": "Ken Lay called.", "mid": "m1"}\n')
    assert enron.load_mailbox(mailbox, names=["Ken Lay"], concepts=("Ken", "Lay")).ids == ("m1",)
    assert concept_pattern(["Einstein"]).findall("einstein and Einsteins") == ["einstein"]


# --------------------------------------------------------------------------- RedacBench


def _document(**changes) -> dict:
    doc = {"id": "d1", "domain": "personal", "text": "Ann is ill.",
           "propositions": [{"id": "p1", "text": "Ann is ill."}],
           "policies": [{"id": "health", "text": "Health is private.", "sensitive": ["p1"],
                         "keywords": ["ill"]}]}
    doc.update(changes)
    return doc


MISSPELT = [
    ("record 'polices'", lambda d: d.update(polices=d["policies"]),
     r"the record has the unknown key 'polices'.*did you mean 'policies'"),
    ("policy 'keyword'", lambda d: d["policies"][0].update(keyword=["ill"]),
     r"policies\[0\] has the unknown key 'keyword'.*did you mean 'keywords'"),
    ("policy 'keywords_form'", lambda d: d["policies"][0].update(keywords_form="gold"),
     r"policies\[0\] has the unknown key 'keywords_form'.*did you mean 'keywords_from'"),
    ("proposition 'txt'", lambda d: d["propositions"][0].update(txt="x"),
     r"propositions\[0\] has the unknown key 'txt'"),
    ("check 'inferrable'", lambda d: d.update(checks=[{"text": "Ann is [X].", "inferable": {},
                                                        "inferrable": {"p1": True}}]),
     r"checks\[0\] has the unknown key 'inferrable'.*did you mean 'inferable'"),
]


@pytest.mark.parametrize("case, spoil, pattern", MISSPELT, ids=[m[0] for m in MISSPELT])
def test_a_misspelt_redacbench_key_is_refused_with_its_line(tmp_path, case, spoil, pattern):
    from privlab.redaction.redacbench import load_redacbench

    bad = _document()
    spoil(bad)
    path = tmp_path / "bench.jsonl"
    path.write_text(json.dumps(_document(id="d0")) + "\n" + json.dumps(bad) + "\n")
    with pytest.raises(PrivlabValueError, match=rf"bench\.jsonl line 2: {pattern}"):
        load_redacbench(path)


def test_the_redacbench_sample_has_no_unknown_key():
    from privlab.redaction.redacbench import load_redacbench, sample_path

    assert len(load_redacbench(sample_path())) == 16


@pytest.mark.parametrize("count", [-1, 0, 2.0, True])
def test_redacbench_max_documents_must_be_positive(count):
    from privlab.studies import redacbench

    with pytest.raises(PrivlabValueError, match=r"'max_documents' .* positive int or None"):
        redacbench.load_data("sample", count)
    with pytest.raises(PrivlabValueError, match=r"'max_documents'"):
        redacbench.run(redacbench.Config(max_documents=count))
    assert len(redacbench.load_data("sample", 15)) == 15  # 15 of 16: the first fifteen


def test_redacbench_with_zero_documents_is_refused_not_nan(tmp_path):
    from privlab.studies import redacbench

    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n")
    with pytest.raises(PrivlabValueError, match=r"'data' .* at least one document.*"
                                                r"empty\.jsonl \(0 documents\)"):
        redacbench.run(redacbench.Config(data=str(empty), strategies=("masking",)))


def test_spia_max_documents_must_be_positive():
    from privlab.studies import spia

    with pytest.raises(PrivlabValueError, match=r"'max_documents' .* positive int or None"):
        spia.run(spia.Config(data="sample", adversary="none", anonymizers=("none",),
                             max_documents=-1))


# --------------------------------------------------------------------------- the CLI


def test_demo_only_without_a_value_is_refused(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(["demo", "--only"], capsys)
    assert out == ""
    assert_one_line_refusal(code, err, "demo", r"argument --only: expected at least one")
    assert not (tmp_path / "reports").exists()


# (case, arguments after "epsilon-benchmark", regex naming the option)
EPSILON_REFUSALS = [
    ("--epsilon 1 1", ["--epsilon", "1", "1"],
     r"'--epsilon' .* distinct values. Got 1 1 instead. 1 is given 2 times"),
    ("--epsilon 1 1.0 0", ["--epsilon", "1", "1.0", "0"], r"'--epsilon' .* Got 1 1 0"),
    ("--n 100 100", ["--n", "100", "100"], r"'--n' .* distinct"),
    ("--methods twice", ["--methods", "gaussmech", "gaussmech"], r"'--methods' .* distinct"),
    ("--mechanism twice", ["--mechanism", "laplace", "laplace"], r"'--mechanism' .* distinct"),
    ("--n 2000000000", ["--n", "2000000000"], r"'--n' option .* at most 10,000"),
]


@pytest.mark.parametrize("case, args, pattern", EPSILON_REFUSALS,
                         ids=[e[0] for e in EPSILON_REFUSALS])
def test_epsilon_benchmark_refuses_repeats_and_huge_n(tmp_path, capsys, monkeypatch, case,
                                                      args, pattern):
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(["epsilon-benchmark", "--no-cache", "--quiet", *args, "--out",
                              "t.csv"], capsys)
    assert out == ""
    assert_one_line_refusal(code, err, "epsilon-benchmark", pattern)
    assert not (tmp_path / "t.csv").exists()


@pytest.mark.parametrize("out", ["newdir/", "a/b/"])
def test_epsilon_benchmark_out_written_as_a_folder_is_refused(tmp_path, capsys, monkeypatch,
                                                              out):
    monkeypatch.chdir(tmp_path)
    code, printed, err = run_cli(["epsilon-benchmark", "--no-cache", "--quiet", "--out", out],
                                 capsys)
    assert printed == ""
    assert_one_line_refusal(code, err, "epsilon-benchmark",
                            rf"argument --out: '{out}' names a folder.*--out {out}table\.csv")
    assert list(tmp_path.iterdir()) == []
