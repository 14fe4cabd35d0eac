"""Contrastive losses of fine-tuning: known answers on 2x2 logits, refusals, balanced batches."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch

from privlab.encoders.losses import (balanced_batches, check_pairs, check_positive, clip_loss,
                                     pair_loss, positives_from_captions, siglip_loss)
from privlab.errors import PrivlabTypeError, PrivlabValueError


def _lse(*values):
    return math.log(sum(math.exp(v) for v in values))


def _log_sigmoid(x):
    return -math.log1p(math.exp(-x))


def test_clip_loss_matches_hand_computation_on_2x2():
    z = [[2.0, 0.5], [-1.0, 1.5]]
    rows = [-(z[0][0] - _lse(2.0, 0.5)), -(z[1][1] - _lse(-1.0, 1.5))]
    cols = [-(z[0][0] - _lse(2.0, -1.0)), -(z[1][1] - _lse(0.5, 1.5))]
    expected = (sum(rows) / 2 + sum(cols) / 2) / 2
    assert float(clip_loss(torch.tensor(z))) == pytest.approx(expected, abs=1e-6)


def test_siglip_loss_matches_hand_computation_on_2x2():
    z = [[2.0, 0.5], [-1.0, 1.5]]
    expected = -(_log_sigmoid(2.0) + _log_sigmoid(-0.5) + _log_sigmoid(1.0) + _log_sigmoid(1.5)) / 2
    assert float(siglip_loss(torch.tensor(z))) == pytest.approx(expected, abs=1e-6)


def test_shared_captions_are_positives_in_both_losses():
    z = torch.tensor([[1.0, 1.0], [1.0, 1.0]])
    everything = torch.ones(2, 2, dtype=torch.bool)
    # Every pair matches: sigmoid loss is 4 * -log sigmoid(1) / 2; softmax loss is 0 entropy gap
    assert float(siglip_loss(z, everything)) == pytest.approx(-2 * _log_sigmoid(1.0), abs=1e-6)
    assert float(clip_loss(z, everything)) == pytest.approx(math.log(2), abs=1e-6)
    assert positives_from_captions(["x", "y", "x"]).tolist() == [
        [True, False, True], [False, True, False], [True, False, True]]


def test_pair_loss_uses_temperature_and_bias():
    u = torch.tensor([[1.0, 0.0], [0.0, 2.0]])          # normalised inside
    v = torch.tensor([[3.0, 0.0], [0.0, 1.0]])
    log_t, b = torch.tensor(math.log(4.0)), torch.tensor(-1.0)
    expected = -(2 * _log_sigmoid(3.0) + 2 * _log_sigmoid(1.0)) / 2   # z = 4*I - 1
    assert float(pair_loss("siglip", u, v, log_t, b)) == pytest.approx(expected, abs=1e-6)
    row = -(4.0 - _lse(4.0, 0.0))
    assert float(pair_loss("clip", u, v, log_t, b)) == pytest.approx(row, abs=1e-6)


def test_losses_refuse_bad_inputs():
    with pytest.raises(PrivlabValueError, match="'logits' parameter of clip_loss"):
        clip_loss(torch.zeros(2, 3))
    with pytest.raises(PrivlabValueError, match="'positives' parameter of siglip_loss"):
        siglip_loss(torch.zeros(2, 2), torch.zeros(2, 2, dtype=torch.bool))
    with pytest.raises(PrivlabValueError, match="'loss' parameter of pair_loss"):
        pair_loss("triplet", torch.eye(2), torch.eye(2), torch.tensor(0.0), torch.tensor(0.0))


def test_balanced_batches_hold_one_example_per_caption_and_cover_the_epoch():
    captions = ["a"] * 5 + ["b"] * 3
    batches = balanced_batches(captions, np.random.default_rng(3))
    flat = sorted(int(k) for b in batches for k in b)
    assert flat == list(range(8))
    for b in batches:
        assert len({captions[k] for k in b}) == len(b)


def test_shared_checks_name_the_caller():
    with pytest.raises(PrivlabTypeError, match="'captions' parameter of finetune_open_clip"):
        check_pairs(["img"], "a caption", "finetune_open_clip")
    with pytest.raises(PrivlabValueError, match="'captions\\[1\\]' parameter of train_adapter"):
        check_pairs(["x", "y"], ["a", " "], "train_adapter")
    with pytest.raises(PrivlabValueError,
                       match="'lr' parameter of train_adapter must be a positive float"):
        check_positive(float("inf"), "lr", "train_adapter", float)
    with pytest.raises(PrivlabValueError, match="'epochs' parameter"):
        check_positive(2.5, "epochs", "train_adapter")
