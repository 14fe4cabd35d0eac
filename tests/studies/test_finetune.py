"""Study 10 on smoke settings: the result's shape, the mix rule and the measured comparison."""

from __future__ import annotations

import pandas as pd
import pytest
from smoke_results import smoke_result

from privlab.errors import PrivlabValueError
from privlab.studies import finetune

# The module's shared fixtures are built once: its tests stay on one xdist worker.
pytestmark = pytest.mark.xdist_group("studies.test_finetune")


@pytest.fixture(scope="session")
def result():
    return smoke_result("finetune")  # the contract test's run, on this worker


def test_study_reports_both_mechanisms_on_both_sanitizers(result):
    frame = result.to_frame()
    assert list(frame["sanitizer"].unique()) == list(finetune.SANITIZERS)
    assert set(frame["D"]) == {"base", "fine-tuned"}
    assert (frame["resolution"] >= 0).all()
    assert result.losses[-1] < result.initial_loss
    assert result.identity_accuracy == 1.0
    assert result.loss_frame()["loss"].iloc[0] == result.initial_loss
    assert "fine-tuned" in result._repr_html_()


def test_headline_names_the_stand_in_and_the_control_outcome(result):
    text = result.headline().text
    assert result.headline().details[0].startswith(
        "fine-tuned D: linear adapter on frozen EfficientNet-Lite0 + MiniLM, not CLIP "
        "(siglip loss, mix ")
    control = result.resolution(finetune.CONTROL, "fine-tuned")
    assert result.control_passes == (control == 0.0)
    assert ("passes" if control == 0.0 else "FAILS") in text
    assert f"fine-tuned δ*={control:.4f}" in text
    face = f"vs fine-tuned δ*={result.resolution(finetune.FACE, 'fine-tuned'):.4f}"
    if control == 0.0:
        assert "not evidence" not in text
    else:
        # a failed control is said, with what it means, before the fine-tuned value
        assert text.index("FAILS") < text.index("not evidence of an exposed leak") \
            < text.index(face)
    # The last caveat states, from the measured scores, whether the poster was learned.
    scores = result.learned.set_index("images")["mean_target_score"]
    kept = scores["target, face blacked out, poster kept"]
    learned = (kept > scores["target, face blacked out, no poster"]
               and kept > scores["target, face and poster blacked out"])
    assert result.poster_learned == learned
    assert ("has singled out" if learned else "has not singled out") in result.headline().caveats[-1]


def test_a_failed_control_is_said_before_the_fine_tuned_value(result, monkeypatch):
    # both branches of the line, whatever the smoke run's control did
    for passes in (True, False):
        monkeypatch.setattr(type(result), "control_passes", property(lambda self: passes))
        text = result.summary()
        face = f"vs fine-tuned δ*={result.resolution(finetune.FACE, 'fine-tuned'):.4f}"
        if passes:
            assert "not evidence" not in text and text.endswith("passes")
        else:
            assert text.index("FAILS") < text.index("not evidence of an exposed leak") \
                < text.index(face)
        first = result.headline_line()     # the headline's first line says the same, shorter
        assert len(first.split()) < 30 and (face in first) and ("FAILS" in first) != passes
        if not passes:
            assert first.index("FAILS") < first.index("not evidence") < first.index(face)


def test_mix_is_chosen_on_validation_scenes_by_the_stated_rule(result):
    sel = result.mix_selection
    assert sel["mix"].tolist() == sorted(finetune.Config.smoke().mix_candidates)
    assert sel["chosen"].sum() == 1 and result.mix == float(sel.loc[sel["chosen"], "mix"].iloc[0])
    # The rule, recomputed by hand from the validation rows: the largest mix whose
    # control passes, else the smallest.
    passing = [r.mix for r in sel.itertuples() if r.control == 0]
    assert result.mix == (max(passing) if passing else min(sel["mix"]))
    assert sel["control passes"].tolist() == [c == 0 for c in sel["control"]]
    # The audited D is the trained adapter at that mix.
    assert result.tuned.startswith("adapter:efficientnet-lite0:")
    assert result.provenance["mix"] == result.mix
    assert result.provenance["validation_seed"] == 2000


def test_pick_mix_rule_known_answers():
    rows = pd.DataFrame({"mix": [0.25, 0.5, 0.75, 1.0], "face": [0.0, 0.0, 0.0, 0.04],
                         "control": [0.0, 0.0, 0.0, 0.06]})
    assert finetune.pick_mix(rows) == 0.75  # the largest whose control passes
    assert finetune.pick_mix(rows.assign(control=[0.0, 0.01, 0.0, 0.0])) == 1.0
    assert finetune.pick_mix(rows.assign(control=[0.01, 0.05, 0.02, 0.19])) == 0.25
    # The face resolutions do not enter the choice.
    assert finetune.pick_mix(rows.assign(face=[0.3, 0.0, 0.0, 0.0])) == 0.75


@pytest.mark.slow
def test_a_given_mix_is_used_without_validation():
    r = finetune.run(finetune.Config.smoke(mix=1.0, epochs=2, gallery_size=2, heldout_size=2))
    assert r.mix == 1.0 and r.mix_selection is None
    assert "mix 1 given" in r.headline().details[0]


def test_study_measures_the_adapted_mechanism(result):
    learned = result.learned.set_index("images")
    assert learned.loc["target originals", "mean_target_score"] > 0
    assert learned.loc["contrast originals", "mean_target_score"] < 0
    k = result.config.heldout_size
    kept = sum("signature" in s.kinds() for s in result.heldout.scenes)
    assert 0 < kept < k
    assert learned["n"].tolist() == [k, k, kept, k - kept, kept]


def test_the_audited_fine_tuned_d_gives_its_resolution_by_hand(result):
    """Notebook 10's by-hand kernel: the held-out scenes and the kept fine-tuned D give
    the audited value and witness of the face blackout, and the base D gives the base's."""
    import numpy as np

    from privlab.datasets.scene_cues import cue_blackout
    from privlab.encoders import get_encoder

    scenes = finetune.heldout_scenes(result.config)
    assert [s.kinds() for s in scenes.scenes] == [s.kinds() for s in result.heldout.scenes]
    blacked = cue_blackout(scenes, finetune.SANITIZERS[finetune.FACE]).sanitize(scenes.images)
    for which, encoder in (("fine-tuned", result.tuned_encoder),
                           ("base", get_encoder(result.config.encoders[0]))):
        S, T = encoder.encode(blacked), encoder.encode(scenes.images)
        a = S @ (T - S).T
        member = result.audits[finetune.FACE].member(encoder.name)
        assert max(0.0, float(a.max())) == pytest.approx(member.value, abs=1e-5), which
        assert a.max() == pytest.approx(member.resolution.max_difference, abs=1e-5), which
    assert result.tuned_encoder.name == result.tuned
    i, j = np.unravel_index(a.argmax(), a.shape)
    base = result.audits[finetune.FACE].member(result.base)
    assert (int(i), int(j)) == (base.witness.audited, base.witness.reference)


def test_study_refuses_bad_settings():
    with pytest.raises(PrivlabValueError, match="'encoders' parameter of finetune.run"):
        finetune.run(finetune.Config(encoders=("minilm",)))
    with pytest.raises(PrivlabValueError, match="'mix' parameter of finetune.run"):
        finetune.run(finetune.Config(mix=0.0))
    with pytest.raises(PrivlabValueError, match="'mix_candidates' parameter of finetune.run"):
        finetune.run(finetune.Config(mix_candidates=()))
