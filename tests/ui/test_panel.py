"""The study panel: one output area, progress, short messages, choices that survive Run All."""

from __future__ import annotations

import base64
import copy
import dataclasses
import re

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402

from privlab import progress  # noqa: E402
from privlab.studies import avengers, quickstart  # noqa: E402
from privlab.ui import controls, panels  # noqa: E402
from privlab.ui.panel import StudyPanel, forget_panels, study_panel, with_choices  # noqa: E402
from privlab.encoders import registry as encoders  # noqa: E402

#: The tests of a missing package use mpnet, an optional extra.
without_mpnet = pytest.mark.skipif(encoders.available("mpnet"),
                                   reason="mpnet is installed here: no missing package to show")


@pytest.fixture(autouse=True)
def _fresh_kernel(monkeypatch):
    """Each test starts as a fresh kernel would: no kept panels, smoke settings, no endpoint."""
    forget_panels()
    monkeypatch.setenv("PRIVLAB_SMOKE", "1")
    for name in ("PRIVLAB_LLM_BASE_URL", "PRIVLAB_LLM_MODEL", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    yield
    forget_panels()


def _html(panel: StudyPanel) -> str:
    return "\n".join(o["data"].get("text/html", "") for o in panel.output.outputs)


def _plain(panel: StudyPanel) -> str:
    return "\n".join(o["data"].get("text/plain", "") for o in panel.output.outputs)


def _headline_text(panel: StudyPanel) -> str:
    return next(o["data"]["text/plain"] for o in panel.output.outputs
                if o["data"].get("text/plain", "").startswith("privlab-headline"))


# --------------------------------------------------------------------------- progress
def test_progress_is_silent_without_a_listener_and_reports_inside_one():
    progress.step("nobody listens", 1, 2)  # no error, nothing recorded anywhere
    seen = []
    with progress.reporting(seen.append):
        assert progress.listening()
        for _ in progress.track(range(3), "items"):
            pass
        progress.step("empty stage", 0, 0)
    assert not progress.listening()
    assert [(s.stage, s.done, s.total) for s in seen] == [
        ("items", 0, 3), ("items", 1, 3), ("items", 2, 3), ("items", 3, 3),
        ("empty stage", 0, 1)]
    with progress.reporting(seen.append), pytest.raises(ValueError, match="'done' parameter"):
        progress.step("too far", 4, 3)


def test_a_study_reports_its_steps_while_it_runs(tmp_path, monkeypatch):
    # An empty embedding cache: vectors another test cached would be read, not encoded.
    monkeypatch.setenv("PRIVLAB_CACHE", str(tmp_path / "cache"))
    seen = []
    with progress.reporting(seen.append):
        avengers.run(avengers.Config.smoke(encoders=("lexical",),
                                           sanitizers=("identity", "concept-list")))
    stages = [s.done for k, s in enumerate(seen) if k == 0 or s.done != seen[k - 1].done]
    assert stages == [0, 1, 2] and {s.total for s in seen} == {2}
    assert seen[0].stage == "sanitizing and encoding with identity"
    # Within each stage the audit's phases and the items arrive, and the bar never goes back.
    labels = [s.label() for s in seen]
    assert any("· sanitizing: 0 of 2 · sanitized: " in t for t in labels)
    assert any("· encoding with lexical-2048: 1 of 2 · sanitized items: 1 of 2 · encoded: " in t
               for t in labels)
    fractions = [s.fraction for s in seen]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0


# --------------------------------------------------------------------------- running
def test_the_panel_renders_headline_tables_witnesses_and_figure_in_one_output_area():
    panel = panels.quickstart_panel(encoders=("lexical",))
    seen = []
    panel.bar.observe(lambda change: seen.append(change["new"]), names="value")
    result = panel.run()
    assert isinstance(result, quickstart.QuickstartResult) and panel.problem is None
    direct = quickstart.run(quickstart.Config.smoke(encoders=("lexical",)))
    for label in ("weak", "strong"):
        assert result.audits[label].members[0].value == direct.audits[label].members[0].value
    outputs = panel.output.outputs
    # The headline first, once, styled, with the plain form make demo reads.
    assert _headline_text(panel) == result.headline().lines()
    assert "privlab-headline" in outputs[0]["data"]["text/html"]
    assert _plain(panel).count("privlab-headline |") == 1
    html = _html(panel)
    assert "Both concept lists" in html and "The decisive witnesses" in html
    assert html.count("privlab-witness") == 2
    pngs = [o for o in outputs if "image/png" in o["data"]]
    assert len(pngs) == 1 and base64.b64decode(pngs[0]["data"]["image/png"])[:4] == b"\x89PNG"
    # Readable headers and numbers: no snake_case, no six decimals, no fingerprint.
    assert "lexical-2048" not in html and "concepts removed" in html
    assert not re.search(r"\d\.\d{4,}", html)
    # The progress bar moved through the study's steps and the button is back.
    assert seen and max(seen) == 1.0 and panel.button.disabled is False
    assert "done in" in panel.status.value


def test_a_new_run_replaces_every_part_of_the_output_together():
    panel = panels.quickstart_panel(encoders=("lexical",))
    panel.run()
    first = _headline_text(panel)
    panel.controls["weak_concepts"].set(("Einstein", "Albert", "patent clerk", "Bern"))
    panel.run()
    second = _headline_text(panel)
    assert first != second
    assert _plain(panel).count("privlab-headline |") == 1
    # The run's choices are in the settings shown and in the panel's provenance.
    assert "patent clerk" in _html(panel)
    assert panel.provenance["choices"]["weak_concepts"] == (
        "Einstein", "Albert", "patent clerk", "Bern")
    assert panel.result.config.weak_concepts == ("Einstein", "Albert", "patent clerk", "Bern")


def test_choices_are_recorded_in_the_results_provenance():
    panel = panels.avengers_panel(encoders=("lexical",))
    panel.controls["sanitizers"].set(("identity", "concept-list"))
    result = panel.run()
    assert result.provenance["choices"]["sanitizers"] == ["identity", "concept-list"]
    assert result.provenance["choices"]["encoders"] == ["lexical"]


@dataclasses.dataclass(frozen=True)
class _Provenance:
    provenance: dict


@dataclasses.dataclass(frozen=True)
class _Settings:
    settings: dict

    @property
    def provenance(self):
        return {**self.settings, "derived": True}


@dataclasses.dataclass(frozen=True)
class _Choices:
    choices: dict = dataclasses.field(default_factory=dict)

    @property
    def provenance(self):
        return {"data": "x", **({"choices": self.choices} if self.choices else {})}


@dataclasses.dataclass(frozen=True)
class _SubStudy:
    run: _Provenance

    @property
    def provenance(self):
        return {**self.run.provenance, "ladder": [1]}


@pytest.mark.parametrize("built", [_Provenance({"data": "x"}), _Settings({"data": "x"}),
                                   _Choices(), _SubStudy(_Provenance({"data": "x"}))],
                         ids=["provenance", "settings", "choices", "run"])
def test_with_choices_records_in_a_copy_and_leaves_the_result_as_built(built):
    before = copy.deepcopy(built)
    recorded, ok = with_choices(built, {"n": (1, 2)})
    assert ok and recorded.provenance["choices"] == {"n": [1, 2]}
    assert recorded is not built and built == before and "choices" not in built.provenance


def test_with_choices_says_when_a_result_cannot_hold_them():
    class Computed:
        @property
        def provenance(self):
            return {"data": "x"}

    result = Computed()
    assert with_choices(result, {"n": 1}) == (result, False)


def _keep_built(panel: StudyPanel, kept: list) -> None:
    """Record each result as the study built it: the object, its fields and a deep copy of
    its provenance and table, before the panel records the choices and renders it."""
    run_study = panel.run_study

    def run(config):
        result = run_study(config)
        kept.append((result, {f.name: getattr(result, f.name) for f in dataclasses.fields(result)},
                     copy.deepcopy(result.provenance), result.to_frame().copy()))
        return result
    panel.run_study = run


@pytest.mark.parametrize("make, choice", [
    (lambda: panels.quickstart_panel(encoders=("lexical",)), ("weak_concepts", ("Einstein",))),
    (lambda: panels.avengers_panel(encoders=("lexical",)), ("sanitizers", ("identity",)))],
    ids=["quickstart", "avengers"])
def test_a_result_is_unchanged_by_recording_and_display(make, choice):
    panel = make()
    kept: list = []
    _keep_built(panel, kept)
    panel.controls[choice[0]].set(choice[1])
    shown = panel.run()
    (built, fields, provenance, frame), = kept
    # The panel shows (and keeps) a copy holding the choices; the built result is as built.
    assert shown is not built and shown.provenance["choices"][choice[0]] == list(choice[1])
    assert all(getattr(built, name) is value for name, value in fields.items())
    assert built.provenance == provenance and "choices" not in provenance
    assert built.to_frame().equals(frame)
    built.headline(), built._repr_html_()  # displaying changes nothing either
    assert built.provenance == provenance
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(built, next(iter(fields)), None)


# --------------------------------------------------------------------------- Run All
def test_choices_survive_run_all_and_changed_parameters_apply():
    panel = panels.quickstart_panel(encoders=("lexical",))
    panel.controls["encoders"].set("minilm")
    panel.controls["weak_concepts"].set(("Einstein",))
    # Run All executes the cell again with the same parameter values: the same panel
    # comes back with the choices made in its widgets.
    again = panels.quickstart_panel(encoders=("lexical",))
    assert again is panel
    assert again.values()["encoders"] == ("minilm",)
    assert again.values()["weak_concepts"] == ("Einstein",)
    # A parameter changed in the parameter cell wins over the widget; the others stay.
    changed = panels.quickstart_panel(encoders=("mpnet",))
    assert changed is panel and changed.values()["encoders"] == ("mpnet",)
    assert changed.values()["weak_concepts"] == ("Einstein",)
    # A new kernel (no kept panels) starts from the parameters and the study's defaults.
    forget_panels()
    fresh = panels.quickstart_panel(encoders=("lexical",))
    assert fresh is not panel and fresh.values()["encoders"] == ("lexical",)
    assert fresh.values()["weak_concepts"] == quickstart.Config.smoke().weak_concepts


def test_a_panel_with_other_controls_is_made_anew():
    first = study_panel("quickstart", {"encoders": controls.encoder(as_tuple=True)})
    second = study_panel("quickstart", {"encoders": controls.encoder(as_tuple=True),
                                        "weak_concepts": controls.phrases()})
    assert second is not first and set(second.values()) == {"encoders", "weak_concepts"}


# --------------------------------------------------------------------------- messages
def _problem_box(panel: StudyPanel) -> str:
    output, *previous = panel.output.outputs
    if previous:   # the last good result, dimmed, under the message
        assert "privlab-previous-note" in previous[0]["data"]["text/html"]
        assert all("privlab-previous" in o["data"].get("text/html", "privlab-previous")
                   for o in previous[1:])
    html = output["data"]["text/html"]
    assert "privlab-problem" in html
    # The traceback, when there is one, is folded inside <details>, never shown open.
    outside = re.sub(r"<details.*?</details>", "", html, flags=re.S)
    assert "Traceback" not in outside and 'File "' not in outside
    return html


@without_mpnet
def test_a_missing_package_gives_the_install_command_not_a_traceback():
    panel = panels.quickstart_panel(encoders=("lexical",))
    panel.run()
    panel.controls["encoders"].set("mpnet")
    assert "mpnet" in panel.needs.value and "pip install" in panel.needs.value
    assert panel.run() is None
    html = _problem_box(panel)
    assert panel.problem.title == "mpnet is not installed"
    assert "pip install -e &#x27;.[mpnet]&#x27;" in html
    assert "✗ mpnet is not installed" in panel.status.value
    assert panel.result is None


def test_a_missing_endpoint_says_which_variables_to_set():
    panel = panels.avengers_panel(encoders=("lexical",))
    panel.controls["sanitizers"].set(("identity", "llm"))
    assert panel.run() is None
    html = _problem_box(panel)
    assert panel.problem.kind == "endpoint" and "llm needs an LLM endpoint" in html
    assert "%env PRIVLAB_LLM_BASE_URL=" in html and "PRIVLAB_LLM_MODEL" in html


def test_an_endpoint_set_in_the_kernel_lets_the_choice_run(monkeypatch):
    panel = panels.avengers_panel(encoders=("lexical",))
    panel.controls["sanitizers"].set(("identity", "llm"))
    assert panel.run() is None and panel.problem.kind == "endpoint"
    # Set, but nothing listens there: the run now fails at the server, said plainly.
    monkeypatch.setenv("PRIVLAB_LLM_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("PRIVLAB_LLM_MODEL", "test-model")
    assert panel.run() is None
    assert panel.problem.kind == "endpoint" and "Traceback" in panel.problem.details
    _problem_box(panel)


def test_a_bad_folder_is_refused_with_the_studys_own_message():
    panel = panels.avengers_panel(encoders=("lexical",))
    panel.controls["sanitizers"].set(("identity", "concept-list"))
    panel.controls["data"].set("/no/such/folder/of/comments")
    assert panel.run() is None
    html = _problem_box(panel)
    assert panel.problem.kind == "data" and "/no/such/folder/of/comments" in html
    assert "&lt;details" not in html and "<details" in html  # the traceback, folded


def test_an_offline_hub_model_says_how_to_fetch_it(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    panel = panels.quickstart_panel(encoders=("qwen3-embedding-4b",))
    assert "downloads weights on first use" in panel.needs.value
    assert panel.run() is None
    html = _problem_box(panel)
    assert panel.problem.kind == "download"
    assert "hf download Qwen/Qwen3-Embedding-4B" in html
    assert "HF_HUB_OFFLINE=0" in html


@without_mpnet
def test_after_a_message_a_good_choice_runs_again():
    panel = panels.quickstart_panel(encoders=("mpnet",))
    assert panel.run() is None
    panel.controls["encoders"].set("lexical")
    assert panel.run() is not None and panel.problem is None
    assert "privlab-problem" not in _html(panel)


def test_a_display_option_redraws_without_running_the_study_again():
    panel = panels.calibration_panel(encoders=("lexical",))
    panel.controls["image_encoders"].set(("efficientnet-lite0",))
    calls = []
    run = panel.run_study
    panel.run_study = lambda config: calls.append(config) or run(config)
    first = panel.run()
    assert len(calls) == 1 and "Reading a resolution of 0.13" in _html(panel)
    panel.controls["delta"].set(0.05)
    again = panel.run()  # the same computed tables, the new choice recorded in a copy
    assert len(calls) == 1 and again.text is first.text and again.images is first.images
    assert again.provenance["choices"]["delta"] == 0.05 != first.provenance["choices"]["delta"]
    assert "Reading a resolution of 0.05" in _html(panel)
    assert "Reading a resolution of 0.13" not in _html(panel)
    # The same choices again: the study runs again (a press of Run is a fresh run).
    panel.run()
    assert len(calls) == 2


def test_the_demo_profile_names_its_smaller_settings_in_the_headline(monkeypatch):
    from privlab.studies.enron import DEMO_LIMIT

    monkeypatch.delenv("PRIVLAB_SMOKE")
    monkeypatch.delenv("PRIVLAB_PROFILE", raising=False)      # demo, as in JupyterLab
    panel = panels.enron_panel(encoders=("lexical",), data="offline",
                               sanitizers=("concept-list",))
    assert panel.values()["limit"] == DEMO_LIMIT
    assert panel.run() is not None
    assert f"limit {DEMO_LIMIT} (full None)" in _headline_text(panel)
    assert "make reproduce" in _headline_text(panel)
    panel.controls["limit"].set(None)                        # the user asks for every email
    assert panel.run() is not None
    assert "demo settings" not in _headline_text(panel)


def test_an_unavailable_choice_keeps_the_last_result_dimmed_under_the_message():
    panel = panels.avengers_panel(encoders=("lexical",))
    first = panel.run()
    assert first is not None
    shown = [o["data"].get("text/plain") for o in panel.output.outputs]
    headline = _headline_text(panel)
    panel.controls["sanitizers"].set(("identity", "llm"))     # needs an endpoint: refused
    assert panel.run() is None and panel.result is None
    assert panel.previous_result is first
    outputs = panel.output.outputs
    assert "privlab-problem" in outputs[0]["data"]["text/html"]
    assert "previous result, kept below" in outputs[1]["data"]["text/html"]
    assert [o["data"].get("text/plain") for o in outputs[2:]] == shown   # nothing lost
    assert any(o["data"].get("text/plain") == headline for o in outputs[2:])
    assert all("opacity:.45" in o["data"]["text/html"] for o in outputs[2:]
               if "text/html" in o["data"])
    assert panel.provenance["choices"]["sanitizers"] != ("identity", "llm")  # the kept one's
    panel.controls["sanitizers"].set(("identity", "concept-list"))
    assert panel.run() is not None
    assert not any("privlab-previous" in o["data"].get("text/html", "")
                   for o in panel.output.outputs)
