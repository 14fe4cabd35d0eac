"""Every picker says what an entry needs, from the registry's metadata."""

from __future__ import annotations

import pytest

from privlab.errors import MissingDependencyError, require
from privlab.llm import LLMClient, LLMUnavailableError
from privlab.registry import Registry
from privlab.ui import controls
from privlab.ui.choices import Option, data_option, entry_option, pip_command, registry_options
from privlab.ui.problems import explain, unready_problem


@pytest.fixture
def family():
    r = Registry("test family")
    r.register("plain", object, description="runs as installed", offline=True)
    r.register("absent", object, description="big model", offline=True,
               requires="privlab_no_such_module_xyz", install="pip install -e '.[big]'")
    r.register("hub", object, description="weights from the hub", offline=False)
    r.register("chat", object, description="a model answers (needs an endpoint)",
               offline=False)
    r.register("bare", object, description="a tagger (pip install privlab-no-such-tagger)",
               offline=False)
    return r


@pytest.fixture(autouse=True)
def _no_endpoint(monkeypatch):
    for name in ("PRIVLAB_LLM_BASE_URL", "PRIVLAB_LLM_MODEL", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)


def test_each_kind_of_need_is_read_from_the_metadata(family, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    options = {o.name: o for o in registry_options(family)}
    assert options["plain"] == Option("plain", "runs as installed")
    assert options["plain"].label == "plain — runs as installed"
    absent = options["absent"]
    assert (absent.kind, absent.ready) == ("package", False)
    assert absent.fix.endswith("pip install -e '.[big]'")
    assert absent.label.endswith("· needs: " + absent.fix)
    hub = options["hub"]
    assert hub.kind == "download" and hub.ready
    assert hub.needs == "downloads weights on first use (offline now: only if already cached)"
    assert options["chat"].kind == "endpoint" and not options["chat"].ready
    assert options["chat"].needs == "needs an LLM endpoint"
    bare = options["bare"]
    assert bare.kind == "package" and bare.fix.endswith("pip install privlab-no-such-tagger")
    assert bare.description == "a tagger"  # the hint moved from the description to the need
    # Ready entries first, then downloads, then what needs installing or an endpoint.
    assert [o.name for o in registry_options(family)] == ["plain", "hub", "absent", "bare",
                                                          "chat"]
    assert [o.name for o in registry_options(family, online=False)] == ["plain", "absent"]


def test_readiness_is_checked_again_after_a_setting_changes(family, monkeypatch):
    chat = entry_option(family.entry("chat"))
    assert not chat.ready
    monkeypatch.setenv("PRIVLAB_LLM_BASE_URL", "http://127.0.0.1:8000/v1")
    monkeypatch.setenv("PRIVLAB_LLM_MODEL", "m")
    assert chat.refresh().ready and chat.refresh().fix == ""
    monkeypatch.delenv("PRIVLAB_LLM_MODEL")
    assert not chat.refresh().ready and "PRIVLAB_LLM_MODEL" in chat.refresh().fix
    made = Option("rule+llm", "rules, then the model", "endpoint", "needs an LLM endpoint")
    assert unready_problem([made.refresh()]).fix == chat.fix
    assert Option("j", kind="package", ready=False, module="json").refresh().ready


def test_the_real_registries_mark_their_members():
    from privlab.encoders import registry as encoders
    from privlab.sanitizers import registry as sanitizers

    text = {o.name: o for o in registry_options(sanitizers, modality="text")}
    assert text["llm"].kind == "endpoint"
    assert text["privacy-filter"].kind == "download"
    assert text["presidio"].needs == ""
    import importlib.util

    if importlib.util.find_spec("gliner") is None:
        gliner = text["gliner"]
        assert gliner.kind == "package" and gliner.module == "gliner" and not gliner.ready
        assert gliner.fix.endswith("pip install --no-deps gliner==0.2.29 sentencepiece==0.2.3"), gliner.fix
        assert gliner.label.endswith("needs: " + gliner.fix)
    assert sanitizers.entry("gliner").meta["requires"] == "gliner"
    clip = entry_option(encoders.entry("clip-vit-b-32"))
    assert clip.kind == "download"


def test_a_picker_shows_the_needs_in_its_labels(family):
    picker = controls.registry_choice(family, label="Member")
    labels = [label for label, _ in picker.widget.options]
    assert labels[0] == "plain — runs as installed"
    assert any("needs an LLM endpoint" in label for label in labels)
    picker.set("chat")
    assert [o.name for o in picker.chosen()] == ["chat"]
    many = controls.registry_choice(family, many=True, label="Members")
    many.set(("absent", "plain"))
    assert many.value == ("absent", "plain")
    assert [b.description for b in many.boxes][2].startswith("absent")
    assert [b.value for b in many.boxes] == [True, False, True, False, False]


def test_messages_name_the_exact_fix(family):
    blocked = unready_problem([entry_option(family.entry("absent"))])
    assert blocked.kind == "package" and blocked.fix.endswith("pip install -e '.[big]'")
    assert "restart the kernel" in blocked.message
    with pytest.raises(MissingDependencyError) as missing:
        require("privlab_no_such_module_xyz", "privlab-no-such", "A test member")
    problem = explain(missing.value)
    assert problem.kind == "package" and problem.fix.endswith("pip install privlab-no-such")
    assert "Traceback" in problem.details and "ModuleNotFoundError" in problem.details
    with pytest.raises(LLMUnavailableError) as endpoint:
        LLMClient()
    problem = explain(endpoint.value, [entry_option(family.entry("chat"))])
    assert problem.title == "chat needs an LLM endpoint"
    assert "PRIVLAB_LLM_BASE_URL" in problem.fix and "PRIVLAB_LLM_MODEL" in problem.fix


def test_a_data_choice_is_ready_only_when_its_file_is_there(tmp_path):
    missing = data_option("real", "the mailbox", None, "Put the file under data/.")
    assert not missing.ready and missing.fix == "Put the file under data/."
    present = data_option("real", "the mailbox", tmp_path, "unused")
    assert present.ready and present.needs == ""


def test_install_commands_are_normalised():
    assert pip_command("pip install dlib").endswith("pip install dlib")
    assert pip_command("--no-deps mediapipe").endswith("pip install --no-deps mediapipe")
    assert pip_command("gliner").split()[-2:] == ["install", "gliner"]


def test_a_deprecated_alias_is_offered_only_when_named():
    from privlab.encoders import registry
    from privlab.ui.choices import registry_options

    offered = [o.name for o in registry_options(registry, modality="image")]
    assert "eva02-e14-plus" in offered and "eva-clip-18b" in offered
    assert "eva-clip" not in offered  # the old name of eva02-e14-plus
    assert [o.name for o in registry_options(registry, names=["eva-clip"])] == ["eva-clip"]
