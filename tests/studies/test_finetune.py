"""Study 10 on smoke settings: the result's shape and the measured comparison."""

from __future__ import annotations

import pytest

from privlab.errors import PrivlabValueError
from privlab.studies import finetune


@pytest.fixture(scope="module")
def result():
    return finetune.run(finetune.Config.smoke())


def test_study_reports_both_mechanisms_on_both_sanitizers(result):
    frame = result.to_frame()
    assert list(frame["sanitizer"].unique()) == list(finetune.SANITIZERS)
    assert set(frame["D"]) == {"base", "fine-tuned"}
    assert (frame["resolution"] >= 0).all()
    assert result.losses[-1] < result.initial_loss
    assert result.identity_accuracy == 1.0
    assert result.loss_frame()["loss"].iloc[0] == result.initial_loss
    assert "fine-tuned" in result._repr_html_()
    assert result.headline().text.startswith("face (signature left): base")


def test_study_measures_the_adapted_mechanism(result):
    learned = result.learned.set_index("images")
    assert learned.loc["target originals", "mean_target_score"] > 0
    assert learned.loc["contrast originals", "mean_target_score"] < 0
    k = result.config.heldout_size
    kept = sum("signature" in s.kinds() for s in result.heldout.scenes)
    assert 0 < kept < k
    assert learned["n"].tolist() == [k, k, kept, k - kept, kept]


def test_study_refuses_bad_settings():
    with pytest.raises(PrivlabValueError, match="'base_encoder' parameter of finetune.run"):
        finetune.run(finetune.Config(base_encoder="minilm"))
