"""Every registered study follows the study contract, on its smoke settings."""

from __future__ import annotations

import dataclasses
import importlib

import pandas as pd
import pytest

from privlab.errors import PrivlabValueError
from privlab.studies import (STUDY_MODULES, Headline, Status, StudyConfig, StudyResult,
                             registry, sub_studies)
from smoke_results import GROUPS, smoke_result

from privlab.studies.contract import (FIRST_LINE_WORDS, HEADLINE_MARKER, check_figures,
                                      first_line_problems)

STUDIES = registry.names()


def _module(slug: str):
    return importlib.import_module(registry.entry(slug).factory.__module__)


def test_the_registry_lists_every_study_in_notebook_order():
    assert STUDIES == list(STUDY_MODULES)
    numbers = [registry.entry(s).meta["number"] for s in STUDIES]
    assert numbers == [f"{i:02d}" for i in range(len(STUDY_MODULES))]
    for slug in STUDIES:
        meta = registry.entry(slug).meta
        assert meta["notebook"].startswith(meta["number"] + "_")
        assert meta["title"].startswith(meta["number"] + " ")


@pytest.mark.parametrize("slug", STUDIES)
def test_config_constructors_take_overrides(slug, monkeypatch):
    Config = _module(slug).Config
    assert issubclass(Config, StudyConfig) and dataclasses.is_dataclass(Config)
    full, small = Config.default(), Config.smoke()
    assert isinstance(full, Config) and isinstance(small, Config)
    for name, value in Config.smoke_settings().items():
        assert getattr(small, name) == value
    # Every field takes an override: test_every_field_override_takes_effect.
    monkeypatch.setenv("PRIVLAB_SMOKE", "1")
    assert Config.for_notebook() == small
    monkeypatch.setenv("PRIVLAB_SMOKE", "0")
    monkeypatch.setenv("PRIVLAB_PROFILE", "full")
    assert Config.for_notebook() == full
    assert full.settings_caveat() is None and small.settings_caveat() is None
    monkeypatch.delenv("PRIVLAB_PROFILE")          # unset: the demo profile
    demo = Config.for_notebook()
    assert demo == Config.demo()
    for name, value in Config.demo_settings().items():
        assert getattr(demo, name) == value
    reduced = [n for n, v in Config.demo_settings().items() if v != getattr(full, n)]
    if reduced:   # the headline names every setting the demo makes smaller
        assert all(name in demo.settings_caveat() for name in reduced)
    else:
        assert demo == full and demo.settings_caveat() is None
    with pytest.raises(PrivlabValueError, match="'no_such_setting' parameter of .*Config.smoke"):
        Config.smoke(no_such_setting=1)


def _configs() -> list[type]:
    """Every registered study's Config and every sub-study's."""
    return ([_module(slug).Config for slug in STUDIES]
            + [sub.Config for sub in sub_studies().values()])


def test_one_name_per_idea_and_old_names_are_refused_with_the_new_one():
    from privlab.studies.params import RENAMED_SETTINGS

    names = {f.name for Config in _configs() for f in dataclasses.fields(Config)}
    assert not names & set(RENAMED_SETTINGS), "a study still uses a renamed setting"
    refused = 0
    for Config in _configs():
        fields = {f.name for f in dataclasses.fields(Config)}
        for old, new in RENAMED_SETTINGS.items():
            if new not in fields:
                continue
            for make in (Config, Config.default, Config.smoke, Config.demo):
                with pytest.raises(PrivlabValueError) as error:
                    make(**{old: "x"})
                message = str(error.value)
                assert f"'{old}' parameter" in message and f"renamed to '{new}'" in message
                assert f"Write {new}=" in message, message
            refused += 1
    # every old name is refused by at least one study that now spells it anew
    assert refused >= len(RENAMED_SETTINGS)
    from privlab.studies import quickstart

    with pytest.raises(PrivlabValueError, match=r"Write encoders=\('lexical',\) instead"):
        quickstart.Config(encoder="lexical")
    # a study that never had the idea says the name is unknown, not renamed
    from privlab.studies import scale

    with pytest.raises(TypeError, match=r"The 'folder' parameter of scale\.Config must be one "
                                        r"of the settings \['m', 'n', 'd', .*Check the "
                                        r"spelling"):
        scale.Config(folder="x")


def test_a_study_that_takes_one_encoder_refuses_two():
    from privlab.studies import face_generators, finetune, quickstart

    for module in (quickstart, face_generators, finetune):
        default = module.Config().encoders
        assert isinstance(default, tuple) and len(default) == 1
        with pytest.raises(PrivlabValueError, match="'encoders' parameter .* exactly one name"):
            module.Config(encoders=default * 2)


def _one_member_lists() -> list[list[str]]:
    """One registered member of each family that a setting may name, as a list."""
    from privlab.encoders import registry as encoders
    from privlab.epsilon.auditors import registry as auditors
    from privlab.sanitizers import registry as sanitizers

    return [r.names()[:1] for r in (encoders, sanitizers, auditors)]


def _other_values(Config, name: str, value):
    """Values for the field ``name`` other than ``value``: the other profiles' first, then
    the choices the field declares, then nearby values of the same type."""
    from privlab.studies.params import declared

    profiles = [getattr(make(), name) for make in (Config.default, Config.smoke, Config.demo)]
    declaration = declared(Config).get(name)
    offered = [c.name for c in declaration.options()] if declaration is not None else []
    if isinstance(value, (tuple, list)):
        offered = [(c,) for c in offered]
    profiles += offered
    if isinstance(value, bool):
        near = [not value]
    elif isinstance(value, int):
        near = [value + 1, value - 1, value * 2]
    elif isinstance(value, float):
        near = [value / 2, value * 2, value + 0.5, 0.25, 0.75] if value else [0.5, 1.0]
    elif isinstance(value, str):
        near = [value + "x", ""]
    elif isinstance(value, (tuple, list)):
        near = [value[:1], value[:-1], value + value[:1], value[::-1]]
    elif value is None:   # an optional setting: a number, a word, or a list of a member
        near = [1, 0.5, "x", True, ["x"], *_one_member_lists(), (("x", "y"),)]
    else:
        near = []
    return [v for v in profiles + near if v != value]


def _config_of(slug: str):
    """The Config of a study or of a sub-study (``"<parent>.<name>"``)."""
    return sub_studies()[slug].Config if "." in slug else _module(slug).Config


#: Every study's and sub-study's Config with each of its constructors (a sub-study's
#: ``like`` too: its Config on its parent's settings).
CONSTRUCTORS = ([(slug, c) for slug in STUDIES for c in ("default", "smoke", "demo")]
                + [(slug, c) for slug in sorted(sub_studies())
                   for c in ("default", "smoke", "demo", "like")])


@pytest.mark.parametrize("slug,constructor", CONSTRUCTORS)
def test_every_field_override_takes_effect(slug, constructor):
    """Each field, overridden with a value other than the constructor's own, keeps it (a
    constructor that dropped overrides would fail here); a sub-study's ``like`` too, on
    its parent's smoke config."""
    Config = _config_of(slug)
    if constructor == "like":
        assert Config.parent_fields, slug
        parent = _module(slug.split(".")[0]).Config.smoke()
        make = lambda **overrides: Config.like(parent, **overrides)  # noqa: E731
    else:
        make = getattr(Config, constructor)
    base = make()
    for field in dataclasses.fields(Config):
        own = getattr(base, field.name)
        refusals = []
        for value in _other_values(Config, field.name, own):
            try:
                config = make(**{field.name: value})
            except (PrivlabValueError, TypeError, ValueError) as refusal:
                refusals.append(str(refusal))
                continue   # refused by the Config's own checks: try the next value
            break
        else:
            pytest.fail(f"{slug}: no value other than {own!r} is accepted for {field.name} "
                        f"(extend _other_values): {refusals}")
        assert getattr(config, field.name) == value, (slug, constructor, field.name)


def _shared(slugs):
    """Slugs, each on the worker of the study tests that share its smoke run."""
    return [pytest.param(s, marks=pytest.mark.xdist_group(GROUPS[s])) if s in GROUPS else s
            for s in slugs]


@pytest.mark.parametrize("slug", _shared(STUDIES))
def test_smoke_run_follows_the_result_contract(slug):
    result = smoke_result(slug)
    assert_study_result(result)
    headline = result.headline()
    assert isinstance(headline, Headline)
    assert headline.study == registry.entry(slug).meta["title"]
    assert headline.text and headline.status and headline.status != "unstated"
    assert headline.caveats, "a headline must say what it rests on"
    assert Headline.parse(headline.lines()) == [headline]
    assert_readable(headline)
    frame = result.to_frame()
    assert isinstance(frame, pd.DataFrame) and len(frame) > 0
    assert result._repr_html_().strip().startswith("<")
    # the figures its prose quotes, where it names any, print and parse back whole
    figures = result.quoted_figures()
    assert check_figures(figures, slug) == figures
    printed = headline.with_figures(figures)
    assert Headline.parse(printed.lines()) == [printed]


def assert_study_result(result) -> None:
    """A result on the contract: a frozen dataclass deriving from StudyResult, whose
    ``provenance`` is a dataclass field that its run filled."""
    assert isinstance(result, StudyResult) and dataclasses.is_dataclass(result)
    fields = {f.name: f for f in dataclasses.fields(result)}
    assert "provenance" in fields and fields["provenance"].kw_only
    assert not isinstance(getattr(type(result), "provenance", None), property)
    assert isinstance(result.provenance, dict) and result.provenance
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.provenance = {}


def test_every_study_result_class_derives_from_the_base():
    import typing

    for run in [registry.entry(s).factory for s in STUDIES] + [
            s.run for s in sub_studies().values()]:
        returned = typing.get_type_hints(run)["return"]
        assert isinstance(returned, type) and issubclass(returned, StudyResult), run


SUB_STUDIES = sub_studies()


def test_sub_studies_are_listed_with_their_parent_study():
    assert {"dicaprio.ladder", "dicaprio.detector_miss"} <= set(SUB_STUDIES)
    for slug, sub in SUB_STUDIES.items():
        assert sub.parent in STUDIES and slug == f"{sub.parent}.{sub.name}"
        assert sub.run.__module__ == registry.entry(sub.parent).factory.__module__
        assert sub.title.startswith(registry.entry(sub.parent).meta["title"] + " · ")


@pytest.mark.parametrize("slug", _shared(SUB_STUDIES))
def test_sub_study_smoke_run_follows_the_result_contract(slug):
    sub = SUB_STUDIES[slug]
    assert callable(sub.run) and issubclass(sub.Config, StudyConfig)
    config = sub.Config.smoke()
    result = smoke_result(slug)
    assert_study_result(result)
    assert result.config == config
    headline = result.headline()
    assert headline.study == sub.title and headline.caveats
    assert Headline.parse(headline.lines()) == [headline]
    assert len(result.to_frame()) > 0
    assert result._repr_html_().strip().startswith("<")


def assert_readable(headline: Headline) -> None:
    """A headline a student can read: its first line is short and free of internal ids;
    its status is one of the four formal statuses; the details sit beneath the first line."""
    words = headline.text.split()
    assert len(words) < FIRST_LINE_WORDS, (len(words), headline.text)
    assert first_line_problems(headline.text) == [], headline.text
    assert any(ch.isdigit() for ch in headline.text), "the first line carries its key number"
    assert isinstance(headline.status, Status) and headline.status in Status.formal()
    assert headline.status.value in ("diagnostic", "descriptive", "finite-sample certificate",
                                     "uncertified population bound")
    printed = headline.lines().splitlines()
    assert printed[0].endswith(headline.text)
    assert printed[1:1 + len(headline.details)] == [f"    - {d}" for d in headline.details]


def test_first_line_problems_names_long_lines_and_internal_ids():
    assert first_line_problems("resolution 0.217 (placebo floor 0.018)") == []
    assert first_line_problems("minilm: weak list: resolution 0.217 (all-MiniLM-L6-v2)") == []
    ids = ("describe[ocr+faces]-minilm-ge3b0c442-m0.363-f0.8", "sface-t0.8-m24-b0.2-d1",
           "corpus 3fa9c01b2d", "ge3b0c442")
    for token in ids:
        found = first_line_problems(f"p95 0.000 ({token})")
        assert found and all("internal id" in p for p in found), token
    long = " ".join(["word"] * FIRST_LINE_WORDS)
    assert first_line_problems(long) == [f"{FIRST_LINE_WORDS} words (fewer than 30)"]
    # numbers with many digits are not ids
    assert first_line_problems("100,000 x 10,000 trials; 1234567 rows") == []


def test_headline_status_is_a_status_with_its_note_beside_it():
    h = Headline("09 calibration", "p95 0.007 to 0.083", Status.DESCRIPTIVE, ("sentences",),
                 details=("dogs/cats p95 0.083",), status_note="a ruler, not a guarantee")
    assert h.status == "descriptive" and h.status is Status.DESCRIPTIVE   # compares as text
    assert h.lines().splitlines() == [
        f"{HEADLINE_MARKER} | 09 calibration | p95 0.007 to 0.083",
        "    - dogs/cats p95 0.083",
        "    status: descriptive — a ruler, not a guarantee",
        "    rests on: sentences"]
    assert Headline.parse(h.lines()) == [h]
    assert Headline("x", "y", "finite-sample certificate").status is Status.CERTIFICATE
    html = h._repr_html_()
    assert html.index("p95 0.007 to 0.083") < html.index("<details>") < html.index("dogs/cats")
    with pytest.raises(PrivlabValueError, match="'status' parameter of Headline") as refused:
        Headline("x", "y", "diagnostic (model-relative)")
    assert "status_note" in str(refused.value)
    with pytest.raises(PrivlabValueError, match="'details' parameter of Headline"):
        Headline("x", "y", "descriptive", details=("two\nlines",))
    # a printed status privlab never wrote is kept whole, as the note of 'unstated'
    (old,) = Headline.parse(f"{HEADLINE_MARKER} | 00 a | x\n    status: exactish\n")
    assert (old.status, old.status_note) == (Status.UNSTATED, "exactish")
    # the descriptions are there for every status, in words
    assert all(len(s.description.split()) > 5 for s in Status)


def test_the_auditors_and_the_headlines_share_one_status():
    from privlab.epsilon.auditors import Status as AuditorStatus
    from privlab.epsilon.auditors import registry as auditors

    assert AuditorStatus is Status
    for entry in auditors.entries():
        assert entry.meta["status"] in Status.formal(), entry.name


def test_headline_lines_round_trip_and_refuse_multiline_text(capsys):
    h = Headline("00 quickstart", "resolution 0.217 (witness x6/y5)", "diagnostic",
                 ("12 texts written by privlab", "encoders: minilm"))
    assert h.show() is None  # a cell ending in .show() shows the headline once
    printed = capsys.readouterr().out
    assert printed.count(HEADLINE_MARKER) == 1
    assert printed.splitlines()[0] == f"{HEADLINE_MARKER} | 00 quickstart | resolution 0.217 (witness x6/y5)"
    assert Headline.parse("noise\n" + printed + "more noise\n") == [h]
    with pytest.raises(PrivlabValueError, match="'text' parameter of Headline"):
        Headline("00", "two\nlines", "diagnostic")
    with pytest.raises(PrivlabValueError, match="'caveats' parameter of Headline"):
        Headline("00", "x", "diagnostic", ("",))


def test_parse_reads_headlines_without_status_as_unstated():
    found = Headline.parse(f"{HEADLINE_MARKER} | 01 a | x\n{HEADLINE_MARKER} | 02 b | y\n")
    assert [(h.study, h.text, h.status) for h in found] == [("01 a", "x", "unstated"),
                                                             ("02 b", "y", "unstated")]


def test_profiles_are_read_from_the_environment(monkeypatch):
    from privlab.config import profile

    monkeypatch.delenv("PRIVLAB_SMOKE", raising=False)
    monkeypatch.delenv("PRIVLAB_PROFILE", raising=False)
    assert profile() == "demo"
    for name in ("smoke", "demo", "full", " FULL "):
        monkeypatch.setenv("PRIVLAB_PROFILE", name)
        assert profile() == name.strip().lower()
    monkeypatch.setenv("PRIVLAB_SMOKE", "1")        # the older switch still wins
    assert profile() == "smoke"
    monkeypatch.setenv("PRIVLAB_SMOKE", "0")
    monkeypatch.setenv("PRIVLAB_PROFILE", "fast")
    with pytest.raises(PrivlabValueError, match="'PRIVLAB_PROFILE' .* smoke, demo or full"):
        profile()


def test_studies_with_long_full_runs_declare_smaller_demo_settings():
    from privlab.studies import dicaprio, enron, face_generators, known_epsilon, mcdonalds

    for module in (dicaprio, mcdonalds, enron, known_epsilon, face_generators):
        caveat = module.Config.demo().settings_caveat()
        assert caveat and "make reproduce" in caveat, module.__name__
    assert "n_images 12 (full 30)" in dicaprio.Config.demo().settings_caveat()
    assert dicaprio.Config.demo(n_images=30).settings_caveat() is None   # a user's own choice
